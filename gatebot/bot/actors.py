"""Who is asking, in the service's terms, from a Discord interaction or message."""

from __future__ import annotations

import discord

from gatebot.service import Actor

PLATFORM = "discord"


def actor_of(
    user: discord.abc.User, *, guild_id: int | None, channel_id: int | None, locale: str | None = None,
    guessed_locale: bool = False,
) -> Actor:
    return Actor(PLATFORM, str(user.id), user.display_name, guild_id=guild_id, channel_id=channel_id, locale=locale,
                 guessed_locale=guessed_locale)


def interaction_actor(interaction: discord.Interaction) -> Actor:
    """The asker, in the language of their Discord client."""
    return actor_of(interaction.user, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                    locale=str(interaction.locale))


def message_actor(message: discord.Message) -> Actor:
    """The sender of typed moves; a message carries no language of its own, so it is the server's."""
    guild = message.guild
    locale = str(guild.preferred_locale) if guild is not None else None
    return actor_of(message.author, guild_id=guild.id if guild is not None else None, channel_id=message.channel.id,
                    locale=locale, guessed_locale=True)
