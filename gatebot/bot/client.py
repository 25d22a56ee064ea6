"""The bot itself: connects the extensions, the components and the command tree to the service."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from gatebot.bot.errors import on_app_command_error, watch_unclaimed
from gatebot.bot.herald import Herald
from gatebot.bot.schedule import TICK_SECONDS, Scheduler
from gatebot.bot.table import SAFETY_DEFER, Table
from gatebot.bot.views import BoardButton, MoveSelect, unclaimed_sentence
from gatebot.service import GameService
from gatebot.service.challenges import ChallengeService
from gatebot.settings import Settings

log = logging.getLogger(__name__)

EXTENSIONS = ("gatebot.bot.games", "gatebot.bot.typed", "gatebot.bot.challenges")


class GateBot(commands.AutoShardedBot):
    """gatebot on Discord. Needs no privileged intent; shards as the settings say."""

    def __init__(
        self, settings: Settings, service: GameService, *, tick_every: float = TICK_SECONDS,
        safety_defer: float = SAFETY_DEFER, **options: Any,
    ) -> None:
        """``tick_every``: seconds between looks at the challenges' clock (tests make it long and tick by hand).

        ``safety_defer``: seconds before an interaction still being answered is acknowledged (see :class:`Table`).
        """
        intents = discord.Intents.default()
        intents.message_content = bool(settings.move_channel_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) if settings.shard_ids else None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self.service = service
        self.table = Table(self, service, safety_defer=safety_defer)
        self.challenges = ChallengeService(service)
        self.herald = Herald(self, self.challenges, self.table)
        self.scheduler = Scheduler(self.challenges, self.herald, every=tick_every)
        # A component nothing claims gets a sentence, not "This interaction failed".
        watch_unclaimed(self, unclaimed_sentence)

    async def setup_hook(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(BoardButton, MoveSelect)
        self.tree.on_error = on_app_command_error
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), guild.id)

    async def on_message(self, message: discord.Message) -> None:
        """Typed moves are read by their extension; there are no prefix commands to process."""

    async def close(self) -> None:
        """Stop the challenge scheduler (letting a tick finish its announcements), then disconnect."""
        await self.scheduler.stop()
        await super().close()

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        self.scheduler.start()  # once; its first tick catches up on what closed or opened while the bot was down
