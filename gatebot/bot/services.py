"""What every feature of the bot is handed: the settings and the services, built once per bot.

The client builds one :class:`Services` in its constructor; each extension's ``setup`` reads it
from the bot it is loaded into (a :class:`ServedBot`) and hands it to its cogs and components in
their constructors, so no cog, view or button looks anything up on ``interaction.client``.

The table (:mod:`gatebot.bot.table`, where a game meets a channel) answers both features: the
games' commands, presses and typed moves, and the challenges' attempts and the boards a closing
ended. :class:`Table` is what they may ask of it, so no feature imports it or another feature.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord.ext import commands
from discord.ui import DynamicItem

from gatebot.service import Actor, GameService, Reply
from gatebot.service.challenges import ChallengeService
from gatebot.service.stats import Statistics
from gatebot.settings import Settings


class Table(Protocol):
    """Answers players with boards, edited in place (:class:`gatebot.bot.table.Table` is the one)."""

    #: Redraws the count of players of the challenge a game (begun away from chat) is an attempt at.
    recount: Callable[[int], Awaitable[None]] | None

    def dynamic_items(self) -> tuple[type[DynamicItem[Any]], ...]:
        """The classes of the boards' buttons and menu, bound to this table, for ``add_dynamic_items``."""
        ...

    @property
    def safety_defer(self) -> float:
        """Seconds before an answer still being worked on is acknowledged (see :mod:`gatebot.bot.timely`)."""
        ...

    async def command(
        self,
        interaction: discord.Interaction,
        request: Callable[[Actor], Awaitable[Reply]],
        *,
        new_board: bool = False,
        confirm: Callable[[], discord.ui.View] | None = None,
    ) -> None:
        """Run a slash command's service request and answer it with a board or a private sentence."""
        ...

    async def hint(self, interaction: discord.Interaction, *, game_id: int | None = None,
                   version: int | None = None) -> None:
        """A hint for the asker only."""
        ...

    async def replay(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """A finished game's replay, step by step, as a new message (game_id None: the asker's last)."""
        ...

    async def typed(
        self, message: discord.Message, text: str, request: Callable[[Actor], Awaitable[Reply]] | None = None
    ) -> None:
        """Moves typed in a message (or the request it makes), answered with a reaction and the board."""
        ...

    async def typed_hint(self, message: discord.Message) -> None:
        """A hint asked for in chat, answered as a reply to the asking message."""
        ...

    async def show_ended(self, game_id: int) -> None:
        """Redraw the board of a game that ended without its player, if it has one."""
        ...


@dataclass(frozen=True, slots=True)
class Services:
    """The settings and the services of one bot, handed to every cog and component that needs them."""

    settings: Settings
    games: GameService
    challenges: ChallengeService
    statistics: Statistics
    table: Table
    #: Seconds between looks at the challenges' clock; None for the scheduler's own period (tests tick by hand).
    tick_every: float | None = None


class ServedBot(commands.AutoShardedBot):
    """A bot whose extensions are handed its :attr:`services` at setup (:class:`gatebot.bot.client.GateBot`)."""

    services: Services
