"""The components of challenge messages: the Play button, leaderboard pages, and the question before an attempt.

Play and the page buttons are dynamic items: their custom ids carry the challenge (or the
server) and the page (``challenge:play:42``, ``challenge:page:c:42:1``), so they work on
messages posted before a restart of the bot, with nothing kept in memory. A press that the
service refuses (the challenge closed, or was removed) gets one private sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import discord
from discord.ui import DynamicItem

from gatebot.bot.challenges._announcements import leaderboard_text, server_board_text
from gatebot.bot.errors import on_view_error, reply_privately
from gatebot.bot.language import reader, speaker
from gatebot.bot.questions import Question
from gatebot.bot.services import Services
from gatebot.bot.timely import OnTime
from gatebot.locale import Translator, translator
from gatebot.messages import N_, _, message_of
from gatebot.service import Actor, Reply
from gatebot.service.challenges import ChallengeError, ChallengeService

if TYPE_CHECKING:
    from re import Match

PLAY_ID = r"challenge:play:(?P<challenge>\d+)"
PAGE_ID = r"challenge:page:(?P<scope>[cs]):(?P<key>\d+):(?P<page>\d+)"
#: Page buttons' scopes: one challenge's standings (keyed by its id), or a server's all-time board (by its id).
CHALLENGE, SERVER = "c", "s"


def server_speaker(guild: discord.Guild | None) -> Translator:
    """The translator for what a whole server reads (an announcement, its standings): its ``preferred_locale``."""
    return reader(str(guild.preferred_locale) if guild is not None else None)


def server_reader(interaction: discord.Interaction) -> Translator:
    """The server's language for a public message an interaction posts or redraws, whoever made the interaction.

    Standings and leaderboard pages are the server's: a press or command from a reader of
    another language leaves them in the server's language (its ``guild_locale``, as the
    interaction says it, else the cached server's ``preferred_locale``).
    """
    if interaction.guild_locale is not None:
        return reader(str(interaction.guild_locale))
    return server_speaker(interaction.guild)


class Players(Protocol):
    """What keeps an announcement's count of players up to date (the herald)."""

    async def count_players(self, guild_id: int, challenge_id: int | None) -> None: ...


class PlayButton(DynamicItem[discord.ui.Button[Any]], template=PLAY_ID):
    """The Play button under a challenge's announcement: starts the presser's one attempt.

    Pressed, it is an instance of its :class:`ChallengeViews`' bound subclass, which knows them.
    Its label is said in ``language``, the announcement's (the server's); English by default.
    """

    views: ClassVar[ChallengeViews]

    def __init__(self, challenge_id: int, language: Translator | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=(language or translator()).say(N_("Play")), emoji="▶️", style=discord.ButtonStyle.success,
                custom_id=f"challenge:play:{challenge_id}",
            )
        )
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> PlayButton:
        return cls(int(match["challenge"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.views.start_attempt(interaction, self.challenge_id)
        except Exception as error:
            await on_view_error(interaction, error, self)


class PageButton(DynamicItem[discord.ui.Button[Any]], template=PAGE_ID):
    """◀ or ▶ under a leaderboard: redraws the message with the page its custom id names."""

    views: ClassVar[ChallengeViews]

    def __init__(self, scope: str, key: int, page: int, *, label: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                custom_id=f"challenge:page:{scope}:{key}:{page}",
            )
        )
        self.scope, self.key, self.page = scope, key, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> PageButton:
        return cls(match["scope"], int(match["key"]), int(match["page"]), label=getattr(item, "label", None) or "▶")

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.guild_id is None:
                raise ChallengeError(_("Challenges belong to servers: this leaderboard can't be shown here."))
            language = server_reader(interaction)  # the page is the server's, whoever turns it
            async with OnTime(interaction, after=self.views.services.table.safety_defer, edits=True) as answer:
                if self.scope == CHALLENGE:
                    content, view = await self.views.leaderboard_page(
                        interaction.guild_id, self.key, language, self.page
                    )
                else:
                    content, view = await self.views.server_board_page(interaction.guild_id, language, self.page)
                await answer.update(content, view=view)
        except ChallengeError as error:
            await reply_privately(interaction, message_of(error))
        except Exception as error:
            await on_view_error(interaction, error, self)


class ChallengeViews:
    """The components of one bot's challenge messages, and what their presses do.

    Play and the page buttons are bound subclasses made here, registered by the challenges
    cog and used for every message posted, so a press reaches these services through its class.
    """

    def __init__(self, services: Services, players: Players) -> None:
        """``players`` updates an announcement's count once an attempt has begun."""
        self.services = services
        self.challenges: ChallengeService = services.challenges
        self.players = players
        views = self

        class BoundPlay(PlayButton, template=PLAY_ID):
            pass

        class BoundPage(PageButton, template=PAGE_ID):
            pass

        BoundPlay.views = BoundPage.views = views
        self.play_button: type[PlayButton] = BoundPlay
        self.page_button: type[PageButton] = BoundPage

    @property
    def items(self) -> tuple[type[DynamicItem[Any]], ...]:
        """The classes for ``add_dynamic_items``: they answer presses on messages from before a restart."""
        return (self.play_button, self.page_button)

    def play_view(self, challenge_id: int, language: Translator | None = None) -> discord.ui.View:
        """The components under an open challenge's announcement, worded in ``language`` (the announcement's)."""
        view = discord.ui.View(timeout=None)
        view.add_item(self.play_button(challenge_id, language))
        return view

    def page_view(self, scope: str, key: int, page: int, pages: int) -> discord.ui.View | None:
        """◀ and ▶ for a leaderboard of several pages (None for one page: nothing to turn)."""
        if pages <= 1:
            return None
        view = discord.ui.View(timeout=None)
        view.add_item(self.page_button(scope, key, max(page - 1, 0), label="◀", disabled=page <= 0))
        view.add_item(self.page_button(scope, key, min(page + 1, pages - 1), label="▶", disabled=page >= pages - 1))
        return view

    async def leaderboard_page(
        self, guild_id: int, challenge_id: int | None, language: Translator, page: int = 0
    ) -> tuple[str, discord.ui.View | None]:
        """A page of a challenge's standings, in ``language``, and its page buttons."""
        board = await self.challenges.leaderboard(guild_id, challenge_id, page=page)
        text = leaderboard_text(board, self.challenges.now(), language)
        return text, self.page_view(CHALLENGE, board.challenge.id, board.page, board.pages)

    async def server_board_page(
        self, guild_id: int, language: Translator, page: int = 0
    ) -> tuple[str, discord.ui.View | None]:
        """A page of the server's all-time leaderboard, in ``language``, and its page buttons."""
        board = await self.challenges.server_board(guild_id, page=page)
        return server_board_text(board, language), self.page_view(SERVER, guild_id, board.page, board.pages)

    async def start_attempt(
        self, interaction: discord.Interaction, challenge_id: int | None, *, confirm: bool = False
    ) -> None:
        """Start the user's attempt at a challenge (the server's one open challenge if None) as their game.

        The board is posted as for ``/gate new``; with a game running the user is asked first
        (``confirm`` is their yes). Afterwards the announcement's count of players is updated.
        """
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply_privately(interaction, _("Challenges are played in servers, not here."))
            return
        started: list[Reply] = []

        async def request(actor: Actor) -> Reply:
            reply = await self.challenges.play(actor, guild_id, challenge_id, confirm=confirm)
            started.append(reply)
            return reply

        def ask() -> discord.ui.View:
            return ConfirmPlay(self, str(interaction.user.id), challenge_id, speaker(interaction))

        try:
            await self.services.table.command(interaction, request, new_board=True, confirm=None if confirm else ask)
        except ChallengeError as error:
            await reply_privately(interaction, message_of(error))
            return
        if started and started[0].ok:
            await self.players.count_players(guild_id, challenge_id)


class ConfirmPlay(Question):
    """Yes/no before an attempt abandons the running game."""

    def __init__(
        self, views: ChallengeViews, user_id: str, challenge_id: int | None, language: Translator | None = None
    ) -> None:
        super().__init__(user_id, language)
        self.views, self.challenge_id = views, challenge_id

    @discord.ui.button(label=N_("Start my attempt"), style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmPlay]) -> None:
        self.stop()
        await interaction.response.edit_message(content=speaker(interaction).say(_("Dealing…")), view=None)
        await self.views.start_attempt(interaction, self.challenge_id, confirm=True)

    @discord.ui.button(label=N_("Keep playing"), style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmPlay]) -> None:
        self.stop()
        await interaction.response.edit_message(
            content=speaker(interaction).say(_("Your game goes on; the challenge waits until it closes.")), view=None
        )
