"""The bot itself: builds the services its extensions are handed, loads them, and sets up the command tree.

Each feature is an extension (a package with ``async def setup(bot)``) that owns its cogs,
components and background tasks; the client knows only their names.
"""

from __future__ import annotations

import logging
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from gatebot.bot import metrics
from gatebot.bot.errors import on_app_command_error, watch_unclaimed
from gatebot.bot.language import CatalogueTranslator
from gatebot.bot.launch import LaunchingTree
from gatebot.bot.services import ServedBot, Services
from gatebot.bot.table import Table
from gatebot.bot.timely import SAFETY_DEFER
from gatebot.bot.views import unclaimed_sentence
from gatebot.bot.warmup import warm_up
from gatebot.service import GameService
from gatebot.service.challenges import ChallengeService
from gatebot.service.stats import Statistics
from gatebot.settings import Settings

log = logging.getLogger(__name__)

#: The features, loaded in this order.
EXTENSIONS = ("gatebot.bot.games", "gatebot.bot.challenges")


def skip_own_edits(client: discord.Client) -> None:
    """Let the echo of the bot's own message edits pass unread: every board edit comes back as MESSAGE_UPDATE.

    discord.py builds a whole message from each (author, components, embeds) to dispatch
    ``message_edit``, which nothing here listens to; a move's board edit paid for it every time.
    The echo is still read when discord.py would do more with it than dispatch: when the message is in
    its cache (gatebot runs without one), or a view is bound to the message (or to the interaction
    that sent it), whose components discord.py keeps in step with the edit.
    """
    state: Any = client._connection
    parsers = state.parsers
    parse = parsers["MESSAGE_UPDATE"]
    store = state._view_store

    def parse_message_update(data: dict[str, Any]) -> None:
        me, author = client.user, data.get("author")
        if me is not None and isinstance(author, dict) and author.get("id") == str(me.id):
            message_id = int(data["id"])
            bound = (data.get("interaction_metadata") or data.get("interaction") or {}).get("id")
            tracked = store.is_message_tracked(message_id) or (
                bound is not None and store.is_message_tracked(int(bound))
            )
            if not tracked and state._get_message(message_id) is None:
                return
        parse(data)

    parsers["MESSAGE_UPDATE"] = parse_message_update


class GateBot(ServedBot):
    """gatebot on Discord. Needs no privileged intent; shards as the settings say."""

    def __init__(
        self, settings: Settings, service: GameService, *, tick_every: float | None = None,
        safety_defer: float = SAFETY_DEFER, **options: Any,
    ) -> None:
        """``tick_every``: seconds between looks at the challenges' clock (tests make it long and tick by hand).

        ``safety_defer``: seconds before an interaction still being answered is acknowledged (see :class:`Table`).
        """
        intents = discord.Intents.default()
        intents.message_content = bool(settings.move_channel_ids)
        sharding: dict[str, Any] = {"shard_ids": list(settings.shard_ids)} if settings.shard_ids else {}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            shard_count=settings.shard_count,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=LaunchingTree,
            # Nothing reads discord.py's cache of messages: every board is found by its stored id.
            max_messages=None,
            **sharding,
            **options,
        )
        # The Activity's entry-point command is registered with the others when the Activity is enabled.
        cast(LaunchingTree, self.tree).entry_point = settings.activities
        statistics = Statistics(service.database, clock=service.now)
        table = Table(self, service, statistics, safety_defer=safety_defer, launch=settings.activities)
        challenges = ChallengeService(service)
        # A challenge attempt won away from chat (the Activity's own Play) is posted where its challenge is.
        table.home = challenges.attempt_channel
        self.services = Services(settings, service, challenges, statistics, table, tick_every=tick_every)
        #: The table itself (the services name only what features may ask of it).
        self.table: Table = table
        # A component nothing claims gets a sentence, not "This interaction failed".
        watch_unclaimed(self, unclaimed_sentence)
        skip_own_edits(self)

    async def close(self) -> None:
        """Stop redrawing boards, then close the gateway."""
        await self.table.follower.close()
        await super().close()

    async def setup_hook(self) -> None:
        # Logging in, before the gateway connects: the first command must not pay for what is done once.
        await warm_up(self.services.games)
        # Boards in chat follow their games' changes made elsewhere (the web table, another process).
        self.table.follower.start()
        # The commands' names and descriptions in every language gatebot has (gatebot.bot.language).
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.tree.error(on_app_command_error)
        if self.services.settings.dev_guild_id is not None:
            guild = discord.Object(self.services.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), guild.id)

    async def on_message(self, message: discord.Message) -> None:
        """Typed moves are read by their extension; there are no prefix commands to process."""

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu
    ) -> None:
        """Count a slash command answered (a failed one is counted by the error boundary instead)."""
        metrics.served(metrics.command_kind(interaction))
