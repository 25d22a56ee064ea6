"""The ``/gate`` slash commands: one thin method per command, each a service call and an answer."""

from __future__ import annotations

import logging
from collections.abc import Awaitable

import discord
from discord import app_commands
from discord.ext import commands

from gatebot.bot.actors import PLATFORM, interaction_actor
from gatebot.bot.help import OVERVIEW, HelpMenu, help_view, rules_for
from gatebot.bot.history import HistoryScreen
from gatebot.bot.language import speaker
from gatebot.bot.questions import ConfirmNewGame, ConfirmResign, ConfirmRestart, Question
from gatebot.bot.reach import everywhere
from gatebot.bot.services import ServedBot, Services
from gatebot.bot.sharing import post_card
from gatebot.bot.timely import OnTime
from gatebot.bot.variants import (
    OPTIONS_HELP,
    chosen_variant,
    options_autocomplete,
    rule_options,
    variant_choices,
    variant_help,
)
from gatebot.locale import Translator
from gatebot.messages import N_, Text, _
from gatebot.rules import MAX_DEAL, Move, describe_move
from gatebot.service import Actor, GameService, Preferences, Reply
from gatebot.service.history import History
from gatebot.service.links import LINK_SECONDS, Link, Links
from gatebot.settings import KeyFileError, web_key

log = logging.getLogger(__name__)

NO_TABLE = N_("The web table isn't set up on this bot, so there is no link to it.")
NO_TABLE_KEY = N_("The web table can't be reached from here just now: please tell the bot's operator.")
OPEN_TABLE = N_("Open the table")
#: What the link's answer says: it carries the asker's own sign-in, so it is private and short-lived.
TABLE_LINK = N_("Your game on the web table, the same one as here: moves on either show on both. "
                "The link is yours alone and works for {minutes} minutes.")

#: The largest game number ``/gate replay`` takes: Discord's integer options stop at 2**53 - 1.
MAX_GAME_ID = 2**53 - 1

STYLES = [
    app_commands.Choice(name="Text", value="text"),
    app_commands.Choice(name="Emoji", value="emoji"),
    app_commands.Choice(name="Image", value="image"),
    app_commands.Choice(name="Words (for screen readers)", value="words"),
]


def settings_text(chosen: Preferences) -> Text:
    """How the player's boards are drawn now, for the answer to ``/gate settings``."""
    styles = {"text": _("text"), "emoji": _("emoji"), "image": _("image"), "words": _("words")}
    return _("Your boards are drawn as {style}, {layout}, with {deck}.",
             style=styles.get(chosen.board_style, chosen.board_style),
             layout=_("compact layout") if chosen.compact else _("normal layout"),
             deck=_("a four-colour deck") if chosen.four_colour else _("a two-colour deck"))


@everywhere
class Games(commands.GroupCog, group_name="gate", group_description="Play the solitaire Gate"):
    """Slash commands for playing one's own game, and the components of its boards.

    Offered through a server's install and a player's own, in servers, DMs and group DMs
    (:mod:`gatebot.bot.reach`).

    The boards' buttons, menu and Share result answer presses on boards posted before a
    restart: their classes are registered while the cog is loaded.
    """

    def __init__(self, bot: ServedBot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.service: GameService = services.games
        self.table = services.table
        self.statistics = services.statistics
        self._links: Links | None = None
        self.history = HistoryScreen(self.statistics, History(self.service.database, clock=self.service.now),
                                     safety_defer=self.table.safety_defer)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.table.dynamic_items(), *self.history.items, HelpMenu)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.table.dynamic_items(), *self.history.items, HelpMenu)

    @app_commands.command(description="Deal a new game (asks first if one is running)")
    @app_commands.describe(variant=variant_help(), deal="Deal number (default: random)",
                           winnable="A deal the solver proved can be won", options=OPTIONS_HELP)
    @app_commands.choices(variant=variant_choices())
    @app_commands.autocomplete(options=options_autocomplete)
    async def new(
        self,
        interaction: discord.Interaction,
        variant: app_commands.Choice[str] | None = None,
        deal: app_commands.Range[int, 1, MAX_DEAL] | None = None,
        options: app_commands.Range[str, 0, 200] | None = None,
        winnable: bool = False,
    ) -> None:
        user_id = str(interaction.user.id)
        name = chosen_variant(variant)
        chosen = rule_options(options)

        def deal_it(actor: Actor) -> Awaitable[Reply]:
            return self.service.new_game(actor, name, deal=deal, options=chosen, winnable=winnable)

        async def deal_confirmed(yes: discord.Interaction) -> None:
            def deal_anyway(actor: Actor) -> Awaitable[Reply]:
                return self.service.new_game(actor, name, deal=deal, options=chosen, confirm=True, winnable=winnable)

            await self.services.table.command(yes, deal_anyway, new_board=True)

        def ask() -> discord.ui.View:
            return ConfirmNewGame(user_id, deal_confirmed, speaker(interaction))

        await self.table.command(interaction, deal_it, new_board=True, confirm=ask)

    @app_commands.command(description="Play moves: 3f, w5, 37, 7h, or several: d 3f w5")
    @app_commands.describe(moves="Moves in your game's notation; start typing to see the legal ones")
    async def move(self, interaction: discord.Interaction, moves: str) -> None:
        await self.table.command(interaction, lambda actor: self.service.play(actor, moves))

    @move.autocomplete("moves")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        reply = await self.service.show(interaction_actor(interaction))
        if reply.game is None:
            return []
        typed = current.strip().lower()
        say = speaker(interaction)
        choices = []
        for token in reply.moves:
            label = f"{token} — {say.say(describe_move(reply.game, Move.from_text(token)))}"
            if not typed or token.startswith(typed) or typed in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=token))
        return choices[:25]

    @app_commands.command(description="Turn the next stock card onto the waste")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.table.command(interaction, lambda actor: self.service.play(actor, "d"))

    @app_commands.command(description="Take back your last move (or several)")
    @app_commands.describe(count="How many moves to take back, the last first (default 1)")
    async def undo(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 100] = 1) -> None:
        await self.table.command(interaction, lambda actor: self.service.undo(actor, count))

    @app_commands.command(description="Play every card that can safely go up; finish the game once it is solved")
    async def auto(self, interaction: discord.Interaction) -> None:
        await self.table.command(interaction, self.service.auto)

    @app_commands.command(description="A hint for your game, shown only to you (nothing is played)")
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.table.hint(interaction)

    @app_commands.command(description="Show your game's board here (once it has ended, how it ended)")
    async def board(self, interaction: discord.Interaction) -> None:
        await self.table.command(interaction, self.service.show, new_board=True)

    @app_commands.command(description="Watch a finished game again, step by step, or as an animation")
    @app_commands.describe(game="The game's number (default: your last finished game)")
    async def replay(
        self, interaction: discord.Interaction, game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None
    ) -> None:
        await self.table.replay(interaction, game)

    @app_commands.command(description="End your game now, keeping its score (asks first)")
    async def resign(self, interaction: discord.Interaction) -> None:
        user_id = str(interaction.user.id)

        async def resign_confirmed(yes: discord.Interaction) -> None:
            await self.table.command(yes, self.service.resign)

        def ask() -> discord.ui.View:
            return ConfirmResign(user_id, resign_confirmed, speaker(interaction))

        await self.table.command(interaction, lambda actor: self.service.resign(actor, confirm=False), confirm=ask)

    @app_commands.command(description="Start your deal over: the same cards, every move taken back (asks first)")
    async def restart(self, interaction: discord.Interaction) -> None:
        user_id = str(interaction.user.id)

        async def restart_confirmed(yes: discord.Interaction) -> None:
            await self.table.command(yes, lambda actor: self.service.restart(actor, confirm=True))

        def ask() -> discord.ui.View:
            return ConfirmRestart(user_id, restart_confirmed, speaker(interaction))

        await self.table.command(interaction, self.service.restart, confirm=ask)

    @app_commands.command(description="The rules of the game you are playing (Gate's without one)")
    async def rules(self, interaction: discord.Interaction) -> None:
        async with OnTime(interaction, after=self.table.safety_defer, ephemeral=True) as answer:
            reply = await self.service.show(interaction_actor(interaction))
            await answer.send(rules_for(reply.game, speaker(interaction)))

    @app_commands.command(name="table", description="Open your game on the web table (a private link)")
    async def table_(self, interaction: discord.Interaction) -> None:
        say = speaker(interaction)
        web = self.services.settings.web_link
        if web is None or web.public_url is None:
            await interaction.response.send_message(say.say(NO_TABLE), ephemeral=True)
            return
        async with OnTime(interaction, after=self.table.safety_defer, ephemeral=True) as answer:
            try:
                if self._links is None:
                    self._links = Links(web_key(web))
            except KeyFileError as error:
                log.error("can't make web table links: %s", error)
                await answer.send(say.say(NO_TABLE_KEY))
                return
            actor = interaction_actor(interaction)
            player = await self.service.sign_in(actor)
            token = self._links.seal(Link(actor.user_id, player, actor.display_name))
            view = discord.ui.View()
            view.add_item(discord.ui.Button(label=say.say(OPEN_TABLE), url=f"{web.public_url}link/{token}"))
            await answer.send(say.say(_(TABLE_LINK, minutes=LINK_SECONDS // 60)), view=view)

    @app_commands.command(name="help", description="How to play with gatebot: an overview, and a menu of sections")
    async def help_(self, interaction: discord.Interaction) -> None:
        say = speaker(interaction)
        await interaction.response.send_message(say.say(OVERVIEW), view=help_view(say), ephemeral=True)

    @app_commands.command(description="How your board is drawn")
    @app_commands.describe(
        style="Text, emoji, image, or words for a screen reader",
        compact="A narrow board that fits a phone (the default); false for the wide one",
        four_colour="Clubs green and diamonds blue on image and emoji boards",
    )
    @app_commands.choices(style=STYLES)
    async def settings(
        self, interaction: discord.Interaction, style: app_commands.Choice[str] | None = None,
        compact: bool | None = None, four_colour: bool | None = None,
    ) -> None:
        actor = interaction_actor(interaction)
        async with OnTime(interaction, after=self.table.safety_defer, ephemeral=True) as answer:
            chosen: Preferences = await self.service.set_preferences(
                actor, board_style=style.value if style else None, compact=compact, four_colour=four_colour
            )
            await answer.send(speaker(interaction).say(settings_text(chosen)))


    @app_commands.command(description="Your statistics and their picture, or another player's (shown only to you)")
    @app_commands.describe(user="Whose statistics (default: yours)",
                           variant="The variant the picture shows (default: the one played most)")
    @app_commands.choices(variant=variant_choices())
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    variant: app_commands.Choice[str] | None = None) -> None:
        await self.history.stats(interaction, user, variant.value if variant is not None else None)

    @app_commands.command(description="Your finished games, newest first, with the numbers replay takes")
    @app_commands.describe(page="Which page (default: 1, the newest games)")
    async def games(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 100_000] = 1) -> None:
        await self.history.open(interaction, page)

    @app_commands.command(description="Post a spoiler-free card of your last finished game here")
    async def share(self, interaction: discord.Interaction) -> None:
        # The card is for everyone, so a slow answer is acknowledged in the open.
        async with OnTime(interaction, after=self.table.safety_defer) as answer:
            card = await self.statistics.latest_result(PLATFORM, str(interaction.user.id))
            if card is None:
                await answer.refuse(
                    speaker(interaction).say(_("You have no finished game to share yet: finish one, then share it."))
                )
                return
            await post_card(answer, card)

    @app_commands.command(name="forget-me", description="Delete everything gatebot keeps about you (asks first)")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        said = speaker(interaction)
        await interaction.response.send_message(
            said.say(_("Delete everything I keep about you — your games, statistics, challenge results and board "
                       "settings? This can't be undone.")),
            view=ConfirmForget(self.services, str(interaction.user.id), said),
            ephemeral=True,
        )


class ConfirmForget(Question):
    """Yes/no before a player's data is deleted."""

    def __init__(self, services: Services, user_id: str, language: Translator | None = None) -> None:
        super().__init__(user_id, language)
        self.services = services

    @discord.ui.button(label=N_("Delete everything"), style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmForget]) -> None:
        self.stop()
        async with OnTime(interaction, after=self.services.table.safety_defer, edits=True) as answer:
            forgotten = await self.services.games.forget(interaction_actor(interaction))
            text = (
                _("Done: your games, statistics, challenge results and board settings are deleted.")
                if forgotten else _("I had nothing stored about you, so nothing was deleted.")
            )
            await answer.update(speaker(interaction).say(text))

    @discord.ui.button(label=N_("Keep my data"), style=discord.ButtonStyle.secondary)
    async def keep(self, interaction: discord.Interaction, _button: discord.ui.Button[ConfirmForget]) -> None:
        self.stop()
        await interaction.response.edit_message(
            content=speaker(interaction).say(_("Nothing was deleted: your data is as it was.")), view=None
        )
