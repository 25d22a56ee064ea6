"""Where gatebot's commands are offered on Discord, and where the bot itself is.

Solo play goes wherever its player is: the app can be added to a server (a guild install) or
to a person's account (a user install), and ``/gate`` is offered in servers, in the bot's DM
and in private channels (group DMs, DMs between people). Challenges belong to a server, so
``/challenge`` and ``/challenge-admin`` are offered only there, through a server's install.

Through a user install the bot is often not in the channel at all: a group DM (bots can't be
members of one), or a server that never added it. There it can only answer interactions — the
answer, follow-ups and edits of its own answers, all through the interaction's webhook — while
every channel call (posting, editing a message by id, reactions, typing) is refused with 403
Missing Access, and no typed message reaches it. :func:`bot_is_in` tells the two apart, so the
table answers through the interaction there and never tries the channel.
"""

from __future__ import annotations

from typing import TypeVar

import discord
from discord import app_commands

T = TypeVar("T")


def everywhere(command: T) -> T:
    """Offer a command (or a group, or a ``GroupCog``) through both installs, in every context."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def servers_only(command: T) -> T:
    """Offer a command only in servers that added the app (a guild install), never in DMs or group DMs."""
    command = app_commands.allowed_installs(guilds=True, users=False)(command)
    return app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(command)


def bot_is_in(interaction: discord.Interaction) -> bool:
    """Whether the bot is a member where ``interaction`` came from, so it may post and edit there by channel.

    True in its own DM and in a server that added it (the interaction's authorizing installs
    include that server's); False in a group DM or another private channel, and in a server
    reached only through the user's install.
    """
    context = interaction.context
    if context.dm_channel:
        return True
    if context.private_channel:
        return False
    if interaction.guild_id is None:
        return interaction.channel is None or isinstance(interaction.channel, discord.DMChannel)
    return interaction.is_guild_integration()


def server_installed(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` came from a server that added the app, the only place challenges exist.

    False in DMs and group DMs, and in a server reached only through the user's own install.
    """
    return interaction.guild_id is not None and interaction.is_guild_integration()


#: What the bot needs in a server's channels: to read and post there, boards' embeds and pictures,
#: the messages typed moves reply to, and the ✅/❌ on them (117824).
SERVER_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True,
    read_message_history=True, add_reactions=True,
)
#: Discord's ``integration_type`` of an authorisation link: a server's install, or a user's own.
GUILD_INSTALL, USER_INSTALL = 0, 1


def invite_links(application_id: int) -> tuple[str, str]:
    """The two install links: (add the bot to a server, add the app to one's own account).

    A server's install asks for the ``bot`` and ``applications.commands`` scopes and the
    permissions above; a user's asks for ``applications.commands`` alone (no bot joins anything).
    discord.py's ``oauth_url`` writes the rest; it has no ``integration_type``, so that is added.
    """
    server = discord.utils.oauth_url(
        application_id, permissions=SERVER_PERMISSIONS, scopes=("bot", "applications.commands")
    )
    user = discord.utils.oauth_url(application_id, scopes=("applications.commands",))
    return f"{server}&integration_type={GUILD_INSTALL}", f"{user}&integration_type={USER_INSTALL}"
