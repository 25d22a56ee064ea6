"""The ``/challenge`` and ``/challenge-admin`` slash commands: a server's challenges played and ranked, made and ended.

Thin like ``/gate``: each command is a call to the challenge service and an answer.
``/challenge`` (listing, playing, ranking, the daily's status) is for everyone.
``/challenge-admin`` (making, ending and removing challenges, switching the daily one on or
off) is its own top-level command because Discord's default permissions apply only to a
whole top-level command: it carries Manage Server as its default member permission, so
members don't see it and a server's admins can grant it to others in the server's
Integrations settings. Each admin command still checks Manage Server when it runs (the
default is the server's to change); a member without it gets one private sentence. The
service's refusals (:class:`ChallengeError`, a :class:`~gatebot.errors.UserError`) reach the
central error handler and become one private sentence too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from gatebot.bot.actors import interaction_actor
from gatebot.bot.challenges._announcements import (
    daily_on_text,
    daily_text,
    final_text,
    listing_text,
    opened_text,
    removed_text,
    scheduled_text,
)
from gatebot.bot.challenges._herald import Herald
from gatebot.bot.challenges._schedule import TICK_SECONDS, Scheduler
from gatebot.bot.challenges._views import CHALLENGE, server_reader, server_speaker
from gatebot.bot.language import speaker
from gatebot.bot.questions import Question
from gatebot.bot.reach import servers_only
from gatebot.bot.services import ServedBot, Services
from gatebot.bot.timely import SAFETY_DEFER, OnTime
from gatebot.bot.variants import (
    OPTIONS_HELP,
    chosen_variant,
    options_autocomplete,
    rule_options,
    variant_choices,
    variant_help,
)
from gatebot.locale import Translator
from gatebot.messages import N_, _, message_of, n_
from gatebot.rules import MAX_DEAL
from gatebot.service import Rule
from gatebot.service.challenges import DEFAULT_HOURS, MAX_HOURS, ChallengeError, ChallengeService

log = logging.getLogger(__name__)
T = TypeVar("T")

RULES = [
    app_commands.Choice(name="Allowed", value=Rule.ALLOWED.value),
    app_commands.Choice(name="Counted (each use adds a move in the ranking)", value=Rule.COUNTED.value),
    app_commands.Choice(name="Forbidden", value=Rule.FORBIDDEN.value),
]
#: What ``challenge`` options say; autocomplete offers the server's challenges by number.
CHALLENGE_OPTION = "The challenge's number (see /challenge list)"


def manage_server(refusal: str) -> Callable[[T], T]:
    """A check: only members with Manage Server may do this; others are told ``refusal``, in their language."""

    async def predicate(interaction: discord.Interaction) -> bool:
        if interaction.guild_id is not None and interaction.permissions.manage_guild:
            return True
        raise app_commands.CheckFailure(speaker(interaction).say(refusal))

    return app_commands.check(predicate)


def _message(content: str, view: discord.ui.View | None, **extra: Any) -> dict[str, Any]:
    """Keyword arguments for sending ``content`` with ``view`` if there is one."""
    return {"content": content, **extra, **({} if view is None else {"view": view})}


@servers_only
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class ChallengeAdmin(
    commands.GroupCog, group_name="challenge-admin",
    group_description="Make, end and remove this server's challenges (Manage Server)",
):
    """Slash commands for the members who run a server's challenges."""

    daily = app_commands.Group(name="daily", description="Switch the server's daily challenge on or off")

    def __init__(self, services: Services, herald: Herald) -> None:
        self.challenges: ChallengeService = services.challenges
        self.herald = herald
        self.views = herald.views
        self.safety_defer = services.table.safety_defer
        super().__init__()

    # -- making and ending ----------------------------------------------------------------

    @app_commands.command(description="Open a challenge here: one deal the whole server plays, each member once")
    @app_commands.describe(
        name="What to call it (default: Challenge N)", variant=variant_help(),
        deal="Deal number (default: random; never shown while the challenge is open)",
        winnable="A deal the solver proved can be won",
        hours=f"How long it runs, in hours (default {DEFAULT_HOURS})",
        starts_in="Open it this many hours from now (default: at once)", hints="Whether hints may be used",
        undo="Whether undo may be used", options=OPTIONS_HELP,
    )
    @app_commands.choices(variant=variant_choices(), hints=RULES, undo=RULES)
    @app_commands.autocomplete(options=options_autocomplete)
    @manage_server(_("Only members with the Manage Server permission can create challenges."))
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100] | None = None,
        variant: app_commands.Choice[str] | None = None,
        deal: app_commands.Range[int, 1, MAX_DEAL] | None = None,
        winnable: bool = False,
        options: app_commands.Range[str, 0, 200] | None = None,
        hours: app_commands.Range[int, 1, MAX_HOURS] = DEFAULT_HOURS,
        starts_in: app_commands.Range[int, 0, MAX_HOURS] = 0,
        hints: app_commands.Choice[str] | None = None,
        undo: app_commands.Choice[str] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        chosen = rule_options(options)
        if winnable:  # the solver may think for a second or two: answer Discord first, privately
            await interaction.response.defer(ephemeral=True, thinking=True)
        server = server_speaker(interaction.guild)  # an announcement has no single reader
        async with OnTime(interaction, after=self.safety_defer) as answer:
            try:
                info = await self.challenges.create(
                    interaction_actor(interaction), interaction.guild_id, channel_id=interaction.channel_id,
                    name=name, variant=chosen_variant(variant),
                    options=chosen, deal=deal, winnable=winnable, hours=hours,
                    starts_in=starts_in, hints=Rule(hints.value) if hints else Rule.ALLOWED,
                    undo=Rule(undo.value) if undo else Rule.ALLOWED, say=server.say,
                )
            except ChallengeError as error:
                if not winnable:
                    raise
                await interaction.edit_original_response(content=speaker(interaction).say(message_of(error)))
                return
            if starts_in:  # announced with its Play button by the scheduler once it opens
                text, view = scheduled_text(info, server), None
            else:
                text, view = opened_text(info, server), self.views.play_view(info.id, server)
            if winnable:
                found = (
                    _("I found a winnable deal: {name} is set to open later.", name=info.name) if starts_in
                    else _("I found a winnable deal: {name} is open.", name=info.name)
                )
                await interaction.edit_original_response(content=speaker(interaction).say(found))
                sent: discord.Message = await interaction.followup.send(wait=True, **_message(text, view))
            else:
                await answer.send(text, view=view)
                sent = await interaction.original_response()
        if not starts_in:
            await self.challenges.record_announcement(info.id, sent.channel.id, sent.id)

    @app_commands.command(description="Close a challenge now and post its final standings")
    @app_commands.describe(challenge=CHALLENGE_OPTION)
    @manage_server(_("Only members with the Manage Server permission can end challenges."))
    async def end(self, interaction: discord.Interaction, challenge: int) -> None:
        assert interaction.guild_id is not None
        async with OnTime(interaction, after=self.safety_defer) as answer:
            closed = await self.challenges.end(interaction.guild_id, challenge)
            board = closed.leaderboard
            assert board is not None
            view = self.views.page_view(CHALLENGE, closed.challenge.id, board.page, board.pages)
            await answer.send(final_text(board, server_speaker(interaction.guild)), view=view)
        await self.herald.retire(closed.challenge)
        await self.herald.end_boards(closed)

    @app_commands.command(
        name="forget-server", description="Delete this server's challenges and daily challenge (asks first)"
    )
    @manage_server(_("Only members with the Manage Server permission can delete the server's challenges."))
    async def forget_server(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await interaction.response.send_message(
            speaker(interaction).say(_(
                "Delete all of this server's challenges, their standings and the daily challenge settings? "
                "Players keep their attempts as ordinary games. This can't be undone."
            )),
            view=ConfirmForgetServer(
                self.challenges, self.herald, str(interaction.user.id), interaction.guild_id, speaker(interaction),
                safety_defer=self.safety_defer,
            ),
            ephemeral=True,
        )

    # -- the daily challenge --------------------------------------------------------------

    @daily.command(name="on", description="Open a challenge every day at 00:00 UTC in a channel")
    @app_commands.describe(
        channel="Where each day's challenge is announced and its results posted", variant=variant_help(),
        winnable="Deals the solver proved can be won", hints="Whether hints may be used",
        undo="Whether undo may be used", options=OPTIONS_HELP,
    )
    @app_commands.choices(variant=variant_choices(), hints=RULES, undo=RULES)
    @app_commands.autocomplete(options=options_autocomplete)
    @manage_server(_("Only members with the Manage Server permission can set up the daily challenge."))
    async def daily_on(
        self,
        interaction: discord.Interaction,
        channel: discord.TextChannel,
        variant: app_commands.Choice[str] | None = None,
        winnable: bool = False,
        hints: app_commands.Choice[str] | None = None,
        undo: app_commands.Choice[str] | None = None,
        options: app_commands.Range[str, 0, 200] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        chosen = rule_options(options)
        me = channel.guild.me if isinstance(channel, discord.TextChannel) else None
        if me is not None:
            allowed = channel.permissions_for(me)
            if not (allowed.view_channel and allowed.send_messages):
                raise ChallengeError(_(
                    "I can't post in {channel}: let me see it and send messages there, or choose another channel.",
                    channel=channel.mention,
                ))
        async with OnTime(interaction, after=self.safety_defer, ephemeral=True) as answer:
            settings = await self.challenges.set_daily(
                interaction.guild_id, channel.id, variant=chosen_variant(variant), options=chosen,
                winnable=winnable,
                hints=Rule(hints.value) if hints else Rule.ALLOWED, undo=Rule(undo.value) if undo else Rule.ALLOWED,
            )
            await answer.send(daily_on_text(settings, speaker(interaction)))

    @daily.command(name="off", description="Stop opening a daily challenge (today's runs to its end)")
    @manage_server(
        _("Only members with the Manage Server permission can switch the daily challenge off.")
    )
    async def daily_off(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        async with OnTime(interaction, after=self.safety_defer, ephemeral=True) as answer:
            was_on = await self.challenges.daily_off(interaction.guild_id)
            text = (
                _("The daily challenge is off: no new one will open. Today's, if open, runs until 00:00 UTC.")
                if was_on else _("The daily challenge was not on, so nothing changed.")
            )
            await answer.send(speaker(interaction).say(text))

    # -- choosing a challenge by number ---------------------------------------------------

    @end.autocomplete("challenge")
    async def open_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await challenge_choices(self.challenges, interaction, current, open_only=True)


@servers_only
@app_commands.guild_only()
class Challenges(
    commands.GroupCog, group_name="challenge", group_description="Server challenges: one deal, everyone once"
):
    """Slash commands for everyone in a server with challenges, and the challenges' clock and buttons.

    Loaded, the cog registers the Play and page buttons (they answer presses on messages
    from before a restart); once the bot is ready (at once if it already is) its scheduler
    ticks, the first tick catching up on what closed or opened while the bot was down.
    Unloading it (as closing the bot does) removes the buttons and stops the scheduler,
    letting a tick in progress finish its announcements.
    """

    def __init__(self, bot: ServedBot, services: Services, herald: Herald) -> None:
        self.bot = bot
        self.challenges: ChallengeService = services.challenges
        self.herald = herald
        self.views = herald.views
        self.safety_defer = services.table.safety_defer
        self.scheduler = Scheduler(self.challenges, herald, every=services.tick_every or TICK_SECONDS)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.views.items)
        if self.bot.is_ready():  # loaded again while connected: no on_ready is coming
            self.scheduler.start()

    async def cog_unload(self) -> None:
        await self.scheduler.stop()
        self.bot.remove_dynamic_items(*self.views.items)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.scheduler.start()  # once, however often the bot reconnects

    # -- for everyone ---------------------------------------------------------------------

    @app_commands.command(name="list", description="The open challenges and the recently closed ones (only you see it)")
    async def list_(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        async with OnTime(interaction, after=self.safety_defer, ephemeral=True) as answer:
            found = await self.challenges.listing(interaction.guild_id)
            await answer.send(listing_text(found, self.challenges.now(), speaker(interaction)))

    @app_commands.command(description="Start your one attempt at a challenge (asks first if a game is running)")
    @app_commands.describe(challenge="The challenge's number (default: the one open now)")
    async def play(self, interaction: discord.Interaction, challenge: int | None = None) -> None:
        await self.views.start_attempt(interaction, challenge)

    @app_commands.command(description="A challenge's standings, or the server's all-time leaderboard")
    @app_commands.describe(
        challenge="The challenge's number (default: the open one, else the latest)",
        all_time="The server's all-time leaderboard instead: wins, games, win rate, best streak",
    )
    async def leaderboard(
        self, interaction: discord.Interaction, challenge: int | None = None, all_time: bool = False
    ) -> None:
        assert interaction.guild_id is not None
        language = server_reader(interaction)  # public standings are the server's, whoever asks
        async with OnTime(interaction, after=self.safety_defer) as answer:
            if all_time:
                content, view = await self.views.server_board_page(interaction.guild_id, language)
            else:
                content, view = await self.views.leaderboard_page(interaction.guild_id, challenge, language)
            await answer.send(content, view=view)

    @app_commands.command(name="daily", description="Whether the daily challenge is on, and how it is played")
    async def daily_status(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        async with OnTime(interaction, after=self.safety_defer, ephemeral=True) as answer:
            settings = await self.challenges.daily(interaction.guild_id)
            await answer.send(daily_text(settings, speaker(interaction)))

    # -- choosing a challenge by number ---------------------------------------------------

    @play.autocomplete("challenge")
    async def open_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await challenge_choices(self.challenges, interaction, current, open_only=True)

    @leaderboard.autocomplete("challenge")
    async def any_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await challenge_choices(self.challenges, interaction, current, open_only=False)

    # -- the server goes -------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its daily challenge stops (its challenges and results are kept)."""
        if await self.challenges.daily_off(guild.id):
            log.info("switched the daily challenge of server %s off: the bot was removed from it", guild.id)


async def challenge_choices(
    challenges: ChallengeService, interaction: discord.Interaction, current: str | int, *, open_only: bool
) -> list[app_commands.Choice[int]]:
    """The server's challenges whose number or name matches what has been typed, open ones first."""
    if interaction.guild_id is None:
        return []
    now = challenges.now()
    say = speaker(interaction).say
    typed = str(current).strip().casefold()
    choices = []
    for info in await challenges.listing(interaction.guild_id, closed=0 if open_only else 10):
        state = _("open") if info.is_open(now) else _("to open") if info.is_upcoming(now) else _("closed")
        label = f"{info.id} — {info.name} (" + say(_("{state}, {n} played", state=state, n=info.attempts)) + ")"
        if not typed or str(info.id).startswith(typed) or typed in label.casefold():
            choices.append(app_commands.Choice(name=label[:100], value=info.id))
    return choices[:25]


class ConfirmForgetServer(Question):
    """Yes/no before a server's challenges are deleted."""

    def __init__(
        self, challenges: ChallengeService, herald: Herald, user_id: str, guild_id: int,
        language: Translator | None = None, *, safety_defer: float = SAFETY_DEFER,
    ) -> None:
        super().__init__(user_id, language)
        self.challenges, self.herald, self.guild_id = challenges, herald, guild_id
        self.safety_defer = safety_defer

    @discord.ui.button(label=N_("Delete the challenges"), style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmForgetServer]) -> None:
        self.stop()
        challenges = self.challenges
        async with OnTime(interaction, after=self.safety_defer, edits=True) as answer:
            running = await challenges.open_challenges(self.guild_id)
            deleted = await challenges.forget_server(self.guild_id)
            text = (
                n_(
                    "Done: {n} challenge deleted, with their standings and the daily challenge settings. "
                    "Players keep their attempts as ordinary games.",
                    "Done: {n} challenges deleted, with their standings and the daily challenge settings. "
                    "Players keep their attempts as ordinary games.",
                    deleted,
                )
                if deleted
                else _("This server had no challenges to delete; its daily challenge settings, if any, are gone.")
            )
            await answer.update(speaker(interaction).say(text))
        server = server_speaker(interaction.guild)
        for info in running:
            await self.herald.retire(info, removed_text(info, server))

    @discord.ui.button(label=N_("Keep them"), style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmForgetServer]) -> None:
        self.stop()
        await interaction.response.edit_message(
            content=speaker(interaction).say(_("Nothing was deleted: the challenges are as they were.")), view=None
        )
