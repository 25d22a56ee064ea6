"""The components under a board: Draw, Undo, Auto, Hint (End game when offered) and a menu of moves.

They are dynamic items: the custom id carries the game id and the version the board shows
(``gate:draw:42:7``), so a press is understood after a restart of the bot, a press on
someone else's board is recognised, and a press on an out-of-date board (a double click)
changes nothing.

Once the game is over its buttons stay, disabled, and what people do next appears: Play
again (``gate:again:42``: the same variant and options, a new random deal), New deal
(``gate:newdeal:42``: a menu of the variants, a random deal of the one picked) and Share
result (``gate:share:42``), which posts the game's spoiler-free result card in the channel.
Only the game's player may use them; a game still running is never lost to them (the
service asks first). Replay (``gate:replay:42``) opens the game's replay as a new message
(:mod:`gatebot.bot.replays`), for whoever the service lets watch it.

A fresh deal of a variant seldom won has Proven winnable deal (``gate:proven:42``) while nothing is
played: it deals, in one press, a deal the solver proved winnable in the game's place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

import discord
from cachetools import LRUCache
from discord.ui import DynamicItem

from gatebot.bot.actors import PLATFORM
from gatebot.bot.errors import UNKNOWN_COMPONENT, on_view_error, reply_privately
from gatebot.bot.language import speaker
from gatebot.bot.sharing import ALREADY_SHARED, Shares, post_card
from gatebot.bot.timely import SAFETY_DEFER, OnTime
from gatebot.locale import Translator, translator
from gatebot.messages import N_, message_of
from gatebot.rules import VARIANTS, Game, Move, describe_move
from gatebot.service import GameStatus, Reply
from gatebot.service.stats import NoCard, Statistics
from gatebot.service.variants import has_stock

if TYPE_CHECKING:
    from re import Match

MAX_OPTIONS = 25
BUTTONS = (
    ("draw", N_("Draw"), "🂠", discord.ButtonStyle.primary),
    ("undo", N_("Undo"), "↩️", discord.ButtonStyle.secondary),
    ("auto", N_("Auto"), "⏫", discord.ButtonStyle.success),
    ("hint", N_("Hint"), "💡", discord.ButtonStyle.secondary),
)
#: Shown only when the service offers it: the solver proved that no win is left.
END_BUTTON = ("end", N_("End game"), "🏁", discord.ButtonStyle.danger)
#: Shown once the game has finished: the one button of the board still enabled.
SHARE_BUTTON = (N_("Share result"), "📤", discord.ButtonStyle.success)
#: Under a fresh deal of a variant seldom won, while the service offers it: a proven deal in its place.
PROVEN_BUTTON = (N_("Proven winnable deal"), "✅", discord.ButtonStyle.success)
#: Beside it: the same game again, with a new deal.
AGAIN_BUTTON = (N_("Play again"), "🔁", discord.ButtonStyle.primary)
#: And the game watched again, step by step.
REPLAY_BUTTON = (N_("Replay"), "🎞️", discord.ButtonStyle.secondary)
#: With the app's Activity enabled: the table inside Discord, launched for whoever presses it.
LAUNCH_BUTTON = (N_("Open the table"), "🃏", discord.ButtonStyle.secondary)


class Presses(Protocol):
    """What handles a press: the bot's table (see :mod:`gatebot.bot.table`)."""

    async def press(self, interaction: discord.Interaction, action: str, game_id: int, version: int) -> None: ...

    async def deal_again(
        self, interaction: discord.Interaction, game_id: int, variant: str | None, *, confirm: bool = False,
        winnable: bool = False,
    ) -> None: ...

    async def replay(self, interaction: discord.Interaction, game_id: int | None) -> None: ...


BUTTON_ID = r"gate:(?P<action>draw|undo|auto|hint|end):(?P<game>\d+):(?P<version>\d+)"
#: The game id in any custom id of a board's components.
BOARD_GAME = re.compile(
    r"gate:(?:(?:draw|undo|auto|hint|end|move):(?P<game>\d{1,19}):\d{1,19}"
    r"|(?:share|again|newdeal|replay|launch|proven):(?P<shared>\d{1,19}))"
)
SELECT_ID = r"gate:move:(?P<game>\d+):(?P<version>\d+)"
SHARE_ID = r"gate:share:(?P<game>\d+)"
AGAIN_ID = r"gate:again:(?P<game>\d+)"
NEW_DEAL_ID = r"gate:newdeal:(?P<game>\d+)"
REPLAY_ID = r"gate:replay:(?P<game>\d+)"
LAUNCH_ID = r"gate:launch:(?P<game>\d+)"
PROVEN_ID = r"gate:proven:(?P<game>\d+)"


def _label(label: str, say: Translator | None) -> str:
    """A component's label or placeholder in ``say``'s language (English without one)."""
    return (say or translator()).gettext(label)


class BoardButton(DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID):
    """A Draw, Undo, Auto, Hint or End game button of one board (its table's: see :func:`board_components`)."""

    presses: ClassVar[Presses]

    def __init__(
        self, action: str, game_id: int, version: int, *, disabled: bool = False, say: Translator | None = None
    ) -> None:
        label, emoji, style = next(
            (label, emoji, style) for key, label, emoji, style in (*BUTTONS, END_BUTTON) if key == action
        )
        super().__init__(
            discord.ui.Button(
                label=_label(label, say),
                emoji=emoji,
                style=style,
                custom_id=f"gate:{action}:{game_id}:{version}",
                disabled=disabled,
            ),
            row=0,
        )
        self.action, self.game_id, self.version = action, game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> BoardButton:
        return cls(match["action"], int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.presses.press(interaction, self.action, self.game_id, self.version)
        except Exception as error:
            await on_view_error(interaction, error, self)


class MoveSelect(DynamicItem[discord.ui.Select[Any]], template=SELECT_ID):
    """The menu of legal moves of one board (shown when there are at most 25)."""

    presses: ClassVar[Presses]

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        *,
        say: Translator | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gate:move:{game_id}:{version}",
                placeholder=_label(N_("Choose a move…"), say),
                options=options or [discord.SelectOption(label="d", value="d")],
            ),
            row=1,
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> MoveSelect:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values) or _chosen(interaction)
        if not values:
            return
        try:
            await self.presses.press(interaction, values[0], self.game_id, self.version)
        except Exception as error:
            await on_view_error(interaction, error, self)


def _chosen(interaction: discord.Interaction) -> list[str]:
    """The values picked in a select menu, from the interaction's raw data."""
    raw = cast("dict[str, Any]", interaction.data or {}).get("values")
    return [str(value) for value in raw] if isinstance(raw, list) else []


class ShareButton(DynamicItem[discord.ui.Button[Any]], template=SHARE_ID):
    """Share result, under a finished game's board: posts its result card here (text and picture), its player only."""

    statistics: ClassVar[Statistics]
    safety_defer: ClassVar[float] = SAFETY_DEFER
    #: The results this table's Share buttons are posting or posted lately.
    shares: ClassVar[Shares]

    def __init__(self, game_id: int, *, say: Translator | None = None) -> None:
        label, emoji, style = SHARE_BUTTON
        super().__init__(
            discord.ui.Button(label=_label(label, say), emoji=emoji, style=style, custom_id=f"gate:share:{game_id}"),
            row=1,
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> ShareButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        claim = (self.game_id, interaction.channel_id or 0, interaction.user.id)
        if not self.shares.claim(*claim):  # a double click: the first press's card is on its way, or here
            await reply_privately(interaction, ALREADY_SHARED)
            return
        posted = False
        try:
            async with OnTime(interaction, after=self.safety_defer) as answer:
                try:
                    card = await self.statistics.card(self.game_id, PLATFORM, str(interaction.user.id))
                except NoCard as refusal:
                    await answer.refuse(speaker(interaction).say(message_of(refusal)))
                    return
                await post_card(answer, card)
                posted = True
        except Exception as error:
            await on_view_error(interaction, error, self)
        finally:
            self.shares.release(*claim, posted=posted)


class AgainButton(DynamicItem[discord.ui.Button[Any]], template=AGAIN_ID):
    """Play again, under a finished game's board: a new random deal of the same variant and options."""

    presses: ClassVar[Presses]

    def __init__(self, game_id: int, *, say: Translator | None = None) -> None:
        label, emoji, style = AGAIN_BUTTON
        super().__init__(
            discord.ui.Button(label=_label(label, say), emoji=emoji, style=style, custom_id=f"gate:again:{game_id}"),
            row=1,
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> AgainButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.presses.deal_again(interaction, self.game_id, None)
        except Exception as error:
            await on_view_error(interaction, error, self)


class ProvenButton(DynamicItem[discord.ui.Button[Any]], template=PROVEN_ID):
    """Proven winnable deal, under a fresh deal of a variant seldom won: a deal proven winnable in its place."""

    presses: ClassVar[Presses]

    def __init__(self, game_id: int, *, say: Translator | None = None) -> None:
        label, emoji, style = PROVEN_BUTTON
        super().__init__(
            discord.ui.Button(label=_label(label, say), emoji=emoji, style=style, custom_id=f"gate:proven:{game_id}"),
            row=2,  # under the menu of moves (a select fills its row), beside Open the table
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> ProvenButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.presses.deal_again(interaction, self.game_id, None, winnable=True)
        except Exception as error:
            await on_view_error(interaction, error, self)


class ReplayButton(DynamicItem[discord.ui.Button[Any]], template=REPLAY_ID):
    """Replay, under a finished game's board: the game from its deal, step by step, as a new message."""

    presses: ClassVar[Presses]

    def __init__(self, game_id: int, *, say: Translator | None = None) -> None:
        label, emoji, style = REPLAY_BUTTON
        super().__init__(
            discord.ui.Button(label=_label(label, say), emoji=emoji, style=style, custom_id=f"gate:replay:{game_id}"),
            row=1,
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> ReplayButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.presses.replay(interaction, self.game_id)
        except Exception as error:
            await on_view_error(interaction, error, self)


class LaunchButton(DynamicItem[discord.ui.Button[Any]], template=LAUNCH_ID):
    """Open the table, under a board when the app's Activity is enabled: Discord opens the table in its frame.

    The answer is Discord's LAUNCH_ACTIVITY callback (nothing else is said). The Activity signs in
    whoever launched it, so it shows the presser's own game, even from someone else's board.
    """

    def __init__(self, game_id: int, *, row: int = 2, say: Translator | None = None) -> None:
        label, emoji, style = LAUNCH_BUTTON
        super().__init__(
            discord.ui.Button(label=_label(label, say), emoji=emoji, style=style, custom_id=f"gate:launch:{game_id}"),
            row=row,
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> LaunchButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.launch_activity()
        except Exception as error:
            await on_view_error(interaction, error, self)


def variant_options() -> list[discord.SelectOption]:
    """One option per variant of :data:`gatebot.rules.VARIANTS`: its title shown, its name the value."""
    return [discord.SelectOption(label=cls.title, value=cls.name) for cls in VARIANTS[:MAX_OPTIONS]]


class NewDealSelect(DynamicItem[discord.ui.Select[Any]], template=NEW_DEAL_ID):
    """New deal, under a finished game's board: a menu of the variants, a random deal of the one picked."""

    presses: ClassVar[Presses]

    def __init__(self, game_id: int, *, say: Translator | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gate:newdeal:{game_id}",
                placeholder=_label(N_("New deal of…"), say),
                options=variant_options(),
            ),
            row=2,
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> NewDealSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values) or _chosen(interaction)
        if not values:
            return
        try:
            await self.presses.deal_again(interaction, self.game_id, values[0])
        except Exception as error:
            await on_view_error(interaction, error, self)


@dataclass(frozen=True, slots=True)
class BoardComponents:
    """The components of one table's boards: classes bound to what answers them (see :func:`board_components`).

    Sending a view registers the classes of its dynamic items for their custom ids, so a board
    is always drawn with these bound classes, never with the bare ones above.
    """

    button: type[BoardButton]
    select: type[MoveSelect]
    share: type[ShareButton]
    again: type[AgainButton]
    new_deal: type[NewDealSelect]
    replay: type[ReplayButton]
    proven: type[ProvenButton]
    #: Open the table (the Activity), when the app's Activity is enabled; None: boards have no such button.
    launch: type[LaunchButton] | None = None

    @property
    def items(self) -> tuple[type[DynamicItem[Any]], ...]:
        """The classes to register with ``add_dynamic_items`` (they answer presses on boards from before a restart)."""
        launch = (self.launch,) if self.launch is not None else ()
        return (self.button, self.select, self.share, self.again, self.new_deal, self.replay, self.proven, *launch)

    def view(self, reply: Reply, say: Translator | None = None) -> discord.ui.View | None:
        """The components for a board reply: live while the game is active, disabled once it ended.

        Their labels are in ``say``'s language (the board's reader's), English by default.

        A variant without a stock (Archway) has no Draw button at all. A finished game's board
        also gets Play again, Share result and Replay in a row, room left there, and the New deal
        menu (not one set aside as unreadable: it has no result). With the Activity enabled, Open the
        table is in a row of its own under them.
        """
        if reply.game_id is None or reply.version is None or reply.game is None:
            return None
        view = discord.ui.View(timeout=None)
        active = reply.status is GameStatus.ACTIVE
        drawing = has_stock(reply.game.name)
        for action, *_ in BUTTONS:
            if action == "draw" and not drawing:
                continue
            enabled = active and (action not in ("draw", "undo", "hint") or action in reply.actions)
            view.add_item(self.button(action, reply.game_id, reply.version, disabled=not enabled, say=say))
        if active and "end" in reply.actions:
            view.add_item(self.button("end", reply.game_id, reply.version, say=say))
        if active and 0 < len(reply.moves) <= MAX_OPTIONS:
            options = move_options(reply.game, reply.moves, say)
            view.add_item(self.select(reply.game_id, reply.version, options, say=say))
        if active and "winnable" in reply.actions:
            view.add_item(self.proven(reply.game_id, say=say))
        if reply.status is not None and reply.status.finished:
            view.add_item(self.again(reply.game_id, say=say))
            view.add_item(self.share(reply.game_id, say=say))
            view.add_item(self.replay(reply.game_id, say=say))
            view.add_item(self.new_deal(reply.game_id, say=say))
        if self.launch is not None:
            view.add_item(self.launch(reply.game_id, row=3 if reply.status is not None and reply.status.finished
                                      else 2, say=say))
        return view


def board_components(
    table: Presses, statistics: Statistics, *, safety_defer: float = SAFETY_DEFER, launch: bool = False
) -> BoardComponents:
    """The board components answered by ``table`` (a press, Play again, New deal, Replay) and ``statistics`` (Share).

    ``safety_defer``: seconds before a Share result still being drawn is acknowledged. ``launch``: the
    app's Activity is enabled (DISCORD_CLIENT_ID), so boards have Open the table.

    Each bot's table makes its own, so a press reaches that bot's services through the class
    itself, not through ``interaction.client``.
    """

    class TableButton(BoardButton, template=BUTTON_ID):
        presses = table

    class TableSelect(MoveSelect, template=SELECT_ID):
        presses = table

    class TableShare(ShareButton, template=SHARE_ID):
        pass

    class TableAgain(AgainButton, template=AGAIN_ID):
        presses = table

    class TableNewDeal(NewDealSelect, template=NEW_DEAL_ID):
        presses = table

    class TableReplay(ReplayButton, template=REPLAY_ID):
        presses = table

    class TableProven(ProvenButton, template=PROVEN_ID):
        presses = table

    TableShare.statistics = statistics
    TableShare.shares = Shares()
    TableShare.safety_defer = safety_defer
    class TableLaunch(LaunchButton, template=LAUNCH_ID):
        pass

    return BoardComponents(TableButton, TableSelect, TableShare, TableAgain, TableNewDeal, TableReplay,
                           TableProven, TableLaunch if launch else None)


#: The labels of the move menus of positions drawn lately: a position drawn again (an undo, a redraw of the same
#: board) takes its menu's labels from here instead of describing up to 25 moves afresh.
MENU_LABELS: LRUCache[tuple[Any, ...], tuple[str, ...]] = LRUCache(maxsize=512)


def move_options(game: Game, moves: tuple[str, ...], say: Translator | None = None) -> list[discord.SelectOption]:
    """The legal moves as select options: each token the value, its words in ``say``'s language the label.

    The labels of a position are kept (:data:`MENU_LABELS`, by variant, rule options, position and
    language), so the position's menu drawn again costs no description of its moves.
    """
    speak = say or translator()
    key = (game.name, game.options, game.to_text(), moves, speak)
    labels = MENU_LABELS.get(key)
    if labels is None:
        labels = MENU_LABELS[key] = tuple(
            f"{token} — {speak.say(describe_move(game, Move.from_text(token)))}"[:100] for token in moves
        )
    return [discord.SelectOption(label=label, value=token) for token, label in zip(moves, labels, strict=True)]


STALE_PRESS = N_("That board was out of date, so nothing was played: the board shows your game as it is now.")


def unclaimed_sentence(custom_id: str) -> str:
    """The answer to a component nothing claims: a board's own button pressed again, or anything else."""
    found = BOARD_GAME.fullmatch(custom_id)
    if found is not None and found["game"] is not None:
        return STALE_PRESS
    return UNKNOWN_COMPONENT


def board_game_id(message: discord.Message) -> int | None:
    """The game whose board ``message`` is, read from its components' custom ids; None if it is no board."""
    for row in message.components:
        for child in getattr(row, "children", ()):
            found = BOARD_GAME.fullmatch(getattr(child, "custom_id", None) or "")
            if found is not None:
                return int(found["game"] or found["shared"])
    return None
