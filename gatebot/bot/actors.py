"""Who is asking, in the service's terms, from a Discord interaction or message."""

from __future__ import annotations

import discord

from gatebot.service import Actor

PLATFORM = "discord"


def actor_of(user: discord.abc.User, *, guild_id: int | None, channel_id: int | None) -> Actor:
    return Actor(PLATFORM, str(user.id), user.display_name, guild_id=guild_id, channel_id=channel_id)


def interaction_actor(interaction: discord.Interaction) -> Actor:
    return actor_of(interaction.user, guild_id=interaction.guild_id, channel_id=interaction.channel_id)


def message_actor(message: discord.Message) -> Actor:
    guild_id = message.guild.id if message.guild is not None else None
    return actor_of(message.author, guild_id=guild_id, channel_id=message.channel.id)
