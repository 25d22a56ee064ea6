"""Statistics and past games on Discord: ``/gate stats`` with its picture, and ``/gate games`` a page at a time.

``/gate stats`` answers privately with the statistics' text and, attached, the picture of one
variant's results (:mod:`gatebot.render.results_image`, drawn in a worker thread and imported
only when asked for, so no move pays for it), its alt text saying the figures in words. Asked
about oneself, a **Your games** button under it opens the history, and **Share picture** posts
the picture in the channel for everyone, with one line naming whose it is: the statistics stay
private unless their player shares them. One press, one post: a second within a minute is
told privately that the picture is there already.

``/gate games`` (and that button) answers privately with a page of the asker's finished games,
newest first, each with the number ``/gate replay game:N`` takes, and ◀ ▶ under it. A page
button edits its message in place. The list is its owner's alone: the custom ids carry the
owner (``gate:games:7:2:next``), anyone else's press is refused privately, and every press
reads the presser's own games, so no one can page through another player's list. Nothing is
kept in memory: the buttons work after a restart.
"""

from __future__ import annotations

import asyncio
import io
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord.ui import DynamicItem

from gatebot.bot.actors import PLATFORM
from gatebot.bot.errors import expired, log_failure, on_view_error, reply_privately
from gatebot.bot.language import speaker
from gatebot.bot.timely import SAFETY_DEFER, OnTime
from gatebot.errors import UserError
from gatebot.locale import Translator
from gatebot.messages import N_, Name, _
from gatebot.service.history import History, HistoryPage, chart_description, history_text
from gatebot.service.stats import Statistics, VariantStats, stats_text

if TYPE_CHECKING:
    from re import Match

#: A page button: whose list, the page it shows when pressed, which button (ids differ in a message).
PAGE_ID = r"gate:games:(?P<owner>\d{1,20}):(?P<page>\d{1,9}):(?P<button>back|next)"
#: Under one's own statistics: opens the history's first page.
OPEN_ID = r"gate:games:(?P<owner>\d{1,20}):open"
#: Under one's own statistics: posts the picture of that variant in the channel.
SHARE_ID = r"gate:games:(?P<owner>\d{1,20}):share:(?P<variant>[a-z-]{1,32})"
SHARE_PICTURE = N_("Share picture")
SHARED_LATELY = 60.0
ALREADY_SHARED = N_("You shared your statistics here a moment ago: the picture is in this channel.")
PAGE_BUTTONS = (("back", "◀"), ("next", "▶"))
YOUR_GAMES = N_("Your games")
NOT_YOURS = N_("This list is for whoever opened it: see your own with /gate games.")
APOLOGY = N_("Sorry, I couldn't show that just now: please press again.")
#: The picture's file name: Discord shows it under the text.
PICTURE_FILENAME = "stats.png"


def watch(game: int) -> str:
    """How to replay a game by its number, as typed on Discord."""
    return _("Watch one again: /gate replay game:{game}", game=game)


class PageButton(DynamicItem[discord.ui.Button[Any]], template=PAGE_ID):
    """◀ ▶ under a history page: shows page ``page`` of ``owner``'s games in the pressed message."""

    screen: ClassVar[HistoryScreen]

    def __init__(self, owner: int, page: int, button: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(label=dict(PAGE_BUTTONS)[button], style=discord.ButtonStyle.secondary,
                              custom_id=f"gate:games:{owner}:{page}:{button}", disabled=disabled),
            row=0,
        )
        self.owner, self.page = owner, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> PageButton:
        return cls(int(match["owner"]), int(match["page"]), match["button"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.user.id != self.owner:
                await reply_privately(interaction, NOT_YOURS)
                return
            await self.screen.turn(interaction, self.page)
        except Exception as error:
            await failed(interaction, error, self)


class OpenButton(DynamicItem[discord.ui.Button[Any]], template=OPEN_ID):
    """Your games, under one's own statistics: the history's first page, as a new private message."""

    screen: ClassVar[HistoryScreen]

    def __init__(self, owner: int, *, say: Translator | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=say.gettext(YOUR_GAMES) if say is not None else YOUR_GAMES, emoji="📜",
                              style=discord.ButtonStyle.primary, custom_id=f"gate:games:{owner}:open"),
            row=0,
        )
        self.owner = owner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> OpenButton:
        return cls(int(match["owner"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.user.id != self.owner:
                await reply_privately(interaction, NOT_YOURS)
                return
            await self.screen.open(interaction, 1)
        except Exception as error:
            await failed(interaction, error, self)


class ShareButton(DynamicItem[discord.ui.Button[Any]], template=SHARE_ID):
    """Share picture, under one's own statistics: the picture of ``variant`` posted for everyone in the channel."""

    screen: ClassVar[HistoryScreen]

    def __init__(self, owner: int, variant: str, *, say: Translator | None = None) -> None:
        super().__init__(
            discord.ui.Button(label=say.gettext(SHARE_PICTURE) if say is not None else SHARE_PICTURE, emoji="📊",
                              style=discord.ButtonStyle.secondary, custom_id=f"gate:games:{owner}:share:{variant}"),
            row=0,
        )
        self.owner, self.variant = owner, variant

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> ShareButton:
        return cls(int(match["owner"]), match["variant"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.user.id != self.owner:
                await reply_privately(interaction, NOT_YOURS_TO_SHARE)
                return
            await self.screen.share(interaction, self.variant)
        except Exception as error:
            await failed(interaction, error, self)


NOT_YOURS_TO_SHARE = N_("Only whoever asked for these statistics can share them.")


async def failed(interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any]) -> None:
    """A press that went wrong: a refusal's sentence, or the failure logged and a short apology (nothing changed)."""
    if isinstance(error, UserError) or expired(error):
        await on_view_error(interaction, error, item)
        return
    log_failure(error, "history component %s for user %s in channel %s",
                getattr(item, "custom_id", item), interaction.user.id, interaction.channel_id)
    await reply_privately(interaction, APOLOGY)


class HistoryScreen:
    """Answers ``/gate stats`` and ``/gate games`` and their buttons, from the statistics and the history.

    Its buttons are classes bound to it (:attr:`items`, for ``add_dynamic_items``), so a press
    reaches this bot's services through the class, not through ``interaction.client``.
    """

    def __init__(self, statistics: Statistics, history: History, *, safety_defer: float = SAFETY_DEFER) -> None:
        self.statistics = statistics
        self.history = history
        self.safety_defer = safety_defer
        screen = self

        class ScreenPage(PageButton, template=PAGE_ID):
            pass

        class ScreenOpen(OpenButton, template=OPEN_ID):
            pass

        class ScreenShare(ShareButton, template=SHARE_ID):
            pass

        ScreenPage.screen = ScreenOpen.screen = ScreenShare.screen = screen
        self.page_button: type[PageButton] = ScreenPage
        self.open_button: type[OpenButton] = ScreenOpen
        self.share_button: type[ShareButton] = ScreenShare
        #: Each (player, channel) whose picture was posted lately: when (None while on its way).
        self._shared: dict[tuple[int, int | None], float | None] = {}

    @property
    def items(self) -> tuple[type[DynamicItem[Any]], ...]:
        """The classes of the history's buttons, to register with ``add_dynamic_items``."""
        return (self.page_button, self.open_button, self.share_button)

    async def stats(self, interaction: discord.Interaction, user: discord.User | discord.Member | None,
                    variant: str | None) -> None:
        """``/gate stats``: the statistics privately, the picture attached; Your games under one's own."""
        whose = user or interaction.user
        own = whose.id == interaction.user.id
        say = speaker(interaction)
        async with OnTime(interaction, after=self.safety_defer, ephemeral=True) as answer:
            found = await self.statistics.player(PLATFORM, str(whose.id), guild_id=interaction.guild_id)
            if found is None:
                await answer.send(say.say(
                    _("You haven't played yet: start a game with /gate new.") if own
                    else _("{name} hasn't played yet.", name=whose.display_name)
                ))
                return
            named = replace(found, display_name=whose.display_name)
            text = say.say(stats_text(named, own=own, here=interaction.guild_id is not None,
                                      new_command=_("/gate new")))
            chosen = found.of(variant)
            if variant is not None and chosen is None:
                text = "\n".join((text, say.say(_("No finished game of that variant yet, so no picture of it."))))
            view = None
            if own:
                view = discord.ui.View(timeout=None)
                view.add_item(self.open_button(interaction.user.id, say=say))
                if chosen is not None:
                    view.add_item(self.share_button(interaction.user.id, chosen.variant, say=say))
            picture = None if chosen is None else await self._picture(chosen, say)
            await answer.send(text, view=view, file=picture)

    async def share(self, interaction: discord.Interaction, variant: str) -> None:
        """Share picture: the presser's picture of ``variant`` posted in the channel, a line above it saying whose."""
        say = speaker(interaction)
        key = (interaction.user.id, interaction.channel_id)
        now = time.monotonic()
        self._shared = {k: at for k, at in self._shared.items() if at is None or now - at < SHARED_LATELY}
        if key in self._shared:
            await reply_privately(interaction, ALREADY_SHARED)
            return
        self._shared[key] = None
        posted = False
        try:
            async with OnTime(interaction, after=self.safety_defer) as answer:
                found = await self.statistics.player(PLATFORM, str(interaction.user.id))
                chosen = found.of(variant) if found is not None else None
                if chosen is None:
                    await answer.refuse(say.say(_("You have no finished game of that variant yet.")))
                    return
                heading = _("{name}'s {title} games:", name=Name(interaction.user.display_name),
                            title=chosen.title)
                await answer.send(say.say(heading), file=await self._picture(chosen, say))
                posted = True
        finally:
            if posted:
                self._shared[key] = time.monotonic()
            else:
                self._shared.pop(key, None)

    @staticmethod
    async def _picture(chosen: VariantStats, say: Translator) -> discord.File:
        """The statistics picture of one variant, drawn in a worker thread, its alt text in words."""
        from gatebot.render.results_image import render_results_png  # only a picture's asker imports it

        drawn = await asyncio.to_thread(render_results_png, chosen.chart(), say)
        return discord.File(io.BytesIO(drawn), filename=PICTURE_FILENAME,
                            description=say.say(chart_description(chosen))[:1024])

    async def open(self, interaction: discord.Interaction, page: int) -> None:
        """``/gate games`` or Your games: page ``page`` of the asker's history, as a new private message."""
        async with OnTime(interaction, after=self.safety_defer, ephemeral=True) as answer:
            found = await self.history.page(PLATFORM, str(interaction.user.id), page)
            content, view = self.message(found, interaction.user.id, speaker(interaction))
            await answer.send(content, view=view)

    async def turn(self, interaction: discord.Interaction, page: int) -> None:
        """◀ or ▶: the pressed message shows page ``page`` of the presser's history, edited in place."""
        async with OnTime(interaction, after=self.safety_defer, edits=True) as answer:
            found = await self.history.page(PLATFORM, str(interaction.user.id), page)
            content, view = self.message(found, interaction.user.id, speaker(interaction))
            await answer.update(content, view=view)

    def message(self, page: HistoryPage, owner: int, say: Translator) -> tuple[str, discord.ui.View | None]:
        """A page's text in ``say``'s language, and ◀ ▶ for ``owner`` when there is more than one page."""
        empty = _("You have no finished games yet: start one with /gate new.")
        content = say.say(history_text(page, watch=watch, empty=empty))
        if page.pages == 1:
            return content, None
        view = discord.ui.View(timeout=None)
        view.add_item(self.page_button(owner, page.page - 1, "back", disabled=not page.has_previous))
        view.add_item(self.page_button(owner, page.page + 1, "next", disabled=not page.has_next))
        return content, view
