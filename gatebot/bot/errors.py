"""The one place errors end up, for slash commands, components and typed messages alike.

The order, documented because it is what players see:

1. A check that refused the user (cooldown, missing permission): their reason, privately.
2. A mistake of the user's that the rules or the service reported (a
   :class:`~gatebot.errors.UserError`): its sentence, privately. Only those: a bug's
   ``ValueError`` never shows its text.
3. Anything else is a bug or a failure to reach Discord: logged with its context, and the user
   told the truth in one sentence. The boundary knows whether the service committed a change
   (:attr:`Reply.saved <gatebot.service.Reply.saved>`): when it did, the sentence says the move
   was saved and where to see it (:func:`apology`); only when nothing was saved does it say so.
   Every service request is one transaction, so a game is never half-changed.

Discord fails requests too (400, 403, 429 after retries, 500s, a dropped socket):
:data:`DELIVERY_ERRORS` are those failures, which are expected now and then and logged as
warnings, not as bugs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
from discord import app_commands

from gatebot.bot import metrics
from gatebot.bot.language import speaker
from gatebot.errors import UserError
from gatebot.messages import N_, _, message_of
from gatebot.service import Reply

log = logging.getLogger(__name__)

APOLOGY = N_("Sorry, something went wrong on my side. Your game is unchanged: please try again.")
#: A component whose custom id nothing here claims: another app's, a removed feature's, a question
#: from before a restart, or a malformed one.
UNKNOWN_COMPONENT = N_("That button no longer works here: /gate board shows your game with fresh buttons.")
OUTDATED_COMMAND = N_("That command has changed since Discord last showed it: type / to pick it again.")
#: Discord's "Interaction has already been acknowledged": the first answer did arrive.
ALREADY_ANSWERED = 40060
#: Failures of talking to Discord, as opposed to bugs of gatebot's.
DELIVERY_ERRORS: tuple[type[BaseException], ...] = (
    discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError,
)


def apology(reply: Reply | None) -> str:
    """What to tell a player whose answer failed: the truth about whether their change was kept."""
    if reply is None or not reply.saved:
        return APOLOGY
    if reply.played:
        return _("Your move was saved, but I couldn't update the board: /gate board shows it.")
    return _("Your change was saved, but I couldn't update the board: /gate board shows it.")


def log_failure(error: BaseException, what: str, *context: object) -> None:
    """Log a failed answer: Discord's failures as a warning, anything else as the bug it is."""
    if isinstance(error, DELIVERY_ERRORS):
        log.warning("could not answer %s: %s", what % context, _describe(error))
    else:
        log.error("%s failed", what % context, exc_info=error)
    metrics.failed(bug=not isinstance(error, DELIVERY_ERRORS))


def _describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status} (code {error.code}): {error.text[:200]}"
    return f"{type(error).__name__}: {error}"


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The command tree's error handler."""
    original = getattr(error, "original", error)
    if expired(original):
        log.warning("interaction %s expired before it was answered", interaction.id)
        return
    if isinstance(error, app_commands.CheckFailure):
        text = str(error) or _("You can't use that here.")
    elif isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.warning("outdated command %r used by %s", getattr(error, "name", "?"), interaction.user.id)
        text = OUTDATED_COMMAND
    elif isinstance(original, UserError) and str(original):
        text = message_of(original)
    else:
        command = interaction.command.qualified_name if interaction.command else "?"
        log_failure(original, "command %s for user %s in guild %s channel %s",
                    command, interaction.user.id, interaction.guild_id, interaction.channel_id)
        text = APOLOGY
    await reply_privately(interaction, text)


async def on_view_error(interaction: discord.Interaction, error: Exception, item: discord.ui.Item) -> None:
    """Errors in buttons and menus: a user's mistake in its sentence, anything else logged and apologised for."""
    if expired(error):
        log.warning("interaction %s expired before it was answered", interaction.id)
        return
    if isinstance(error, UserError) and str(error):
        await reply_privately(interaction, message_of(error))
        return
    log_failure(error, "component %s for user %s in guild %s channel %s",
                getattr(item, "custom_id", item), interaction.user.id, interaction.guild_id, interaction.channel_id)
    await reply_privately(interaction, APOLOGY)


def expired(error: BaseException) -> bool:
    """Discord's "Unknown interaction" (10062): too late to answer, so nothing to tell the user."""
    return isinstance(error, discord.NotFound) and error.code == 10062


async def reply_privately(interaction: discord.Interaction, text: str) -> bool:
    """Send ``text`` to the user only, in their language, whether or not the interaction was answered already.

    When the first answer failed in a way that still reached Discord (it reports the
    interaction acknowledged), the sentence goes as a follow-up instead. False if Discord
    took neither.
    """
    text = speaker(interaction).say(text)
    try:
        if not interaction.response.is_done():
            try:
                await interaction.response.send_message(text, ephemeral=True)
                return True
            except discord.HTTPException as error:
                if error.code != ALREADY_ANSWERED:
                    raise
        await interaction.followup.send(text, ephemeral=True)
        return True
    except DELIVERY_ERRORS as error:
        log.warning("could not tell user %s: %s", interaction.user.id, _describe(error))
        return False


def claimed(client: discord.Client, data: dict[str, Any]) -> bool:
    """Whether a component or modal interaction (its raw ``data``) has a handler: a dynamic item or a live view.

    discord.py silently drops a component nothing claims, which Discord shows as "This
    interaction failed"; :func:`watch_unclaimed` answers those instead. It must ask before
    discord.py dispatches the interaction (a view that answers stops, and leaves the store), and
    the view store has no public lookup, so this reads its tables the way its dispatch does
    (the tests of unknown custom ids hold it to that).
    """
    inner = data.get("data") or {}
    custom_id = str(inner.get("custom_id", ""))
    store = client._connection._view_store  # no public API says whether a custom id is claimed
    message = data.get("message")
    if message is not None and custom_id not in _custom_ids(message.get("components") or []):
        return False  # discord.py drops a press of a component its message no longer has (a double click)
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    if data.get("type") == discord.InteractionType.modal_submit.value:
        return custom_id in store._modals
    key = (int(inner.get("component_type", 0)), custom_id)
    message_id = int((data.get("message") or {}).get("id", 0)) or None
    views = store._views
    return key in views.get(message_id, {}) or key in views.get(None, {})


def _custom_ids(components: list[dict[str, Any]]) -> set[str]:
    found: set[str] = set()
    for component in components:
        if "custom_id" in component:
            found.add(str(component["custom_id"]))
        found |= _custom_ids(component.get("components") or [])
    return found


def watch_unclaimed(client: discord.Client, sentence: Callable[[str], str] | None = None) -> None:
    """Give every component nothing claims its one answer: a private sentence, not "This interaction failed".

    Wraps the client's parser of INTERACTION_CREATE, so the question is asked before dispatch.
    ``sentence`` words the answer for a custom id (a board's buttons pressed twice say so).
    """
    parsers = client._connection.parsers
    parse = parsers["INTERACTION_CREATE"]
    answering: set[asyncio.Task[bool]] = set()

    def parse_interaction(data: dict[str, Any]) -> None:
        unclaimed = data.get("type") in (3, 5) and not claimed(client, data)
        parse(data)
        if unclaimed:
            interaction: discord.Interaction = discord.Interaction(data=data, state=client._connection)  # type: ignore[arg-type]
            log.info("unclaimed component %r from user %s", (data.get("data") or {}).get("custom_id"),
                     interaction.user.id)
            custom_id = str((data.get("data") or {}).get("custom_id", ""))
            text = UNKNOWN_COMPONENT if sentence is None else sentence(custom_id)
            task = asyncio.ensure_future(reply_privately(interaction, text))
            answering.add(task)
            task.add_done_callback(answering.discard)

    parsers["INTERACTION_CREATE"] = parse_interaction
