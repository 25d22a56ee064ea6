"""The one place interaction errors end up, in a documented order.

1. A check that refused the user (cooldown, missing permission): their reason, ephemeral.
2. A user mistake the rules or the service reported (a :class:`~gatebot.errors.UserError`):
   its sentence, ephemeral. Only those: a bug's ``ValueError`` never shows its text.
3. Anything else is a bug: logged with the interaction's context and a short apology sent.
   Games are never half-changed: every service request is one transaction that either
   committed before the error or rolled back with it.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from gatebot.errors import UserError

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on my side. Your game is unchanged: please try again."


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The command tree's error handler."""
    original = getattr(error, "original", error)
    if _expired(original):
        log.warning("interaction %s expired before it was answered", interaction.id)
        return
    if isinstance(error, app_commands.CheckFailure):
        text = str(error) or "You can't use that here."
    elif isinstance(original, UserError) and str(original):
        text = str(original)
    else:
        command = interaction.command.qualified_name if interaction.command else "?"
        log.error(
            "command %s failed for user %s in guild %s channel %s",
            command, interaction.user.id, interaction.guild_id, interaction.channel_id,
            exc_info=original,
        )
        text = APOLOGY
    await reply_privately(interaction, text)


async def on_view_error(interaction: discord.Interaction, error: Exception, item: discord.ui.Item) -> None:
    """Errors in buttons and menus: logged with context, apologised for."""
    if _expired(error):
        log.warning("interaction %s expired before it was answered", interaction.id)
        return
    log.error(
        "component %s failed for user %s in guild %s channel %s",
        getattr(item, "custom_id", item), interaction.user.id, interaction.guild_id, interaction.channel_id,
        exc_info=error,
    )
    await reply_privately(interaction, APOLOGY)


def _expired(error: BaseException) -> bool:
    """Discord's "Unknown interaction" (10062): too late to answer, so nothing to tell the user."""
    return isinstance(error, discord.NotFound) and error.code == 10062


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    """Send ``text`` to the user only, whether or not the interaction was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", interaction.user.id)
