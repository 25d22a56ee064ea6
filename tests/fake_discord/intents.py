"""Gateway intents as Discord applies them: which events a session gets, and message-content blanking.

A bot that identifies without the privileged MESSAGE_CONTENT intent still receives guild
messages, but with ``content``, ``embeds``, ``attachments``, ``components`` and ``poll`` emptied,
except for messages that mention the bot, messages the bot sent, and DMs. The fake mirrors that,
so a test proves the bot works with the intents it really asks for.
"""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


class Intent:
    """Intent bits (Discord's gateway documentation)."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    GUILD_MESSAGE_REACTIONS = 1 << 10
    GUILD_MESSAGE_TYPING = 1 << 11
    DIRECT_MESSAGES = 1 << 12
    DIRECT_MESSAGE_REACTIONS = 1 << 13
    DIRECT_MESSAGE_TYPING = 1 << 14
    MESSAGE_CONTENT = 1 << 15
    PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
    #: Every bit Discord defines today (up to DIRECT_MESSAGE_POLLS, 1 << 25).
    ALL = (1 << 26) - 1


#: Application flags Discord sets for an unverified app whose privileged intents are switched on.
LIMITED_FLAGS = {
    Intent.GUILD_PRESENCES: 1 << 13,
    Intent.GUILD_MEMBERS: 1 << 15,
    Intent.MESSAGE_CONTENT: 1 << 19,
}

#: Events gated by an intent: event name -> (intent in guilds, intent in DMs).
GATED = {
    "MESSAGE_CREATE": (Intent.GUILD_MESSAGES, Intent.DIRECT_MESSAGES),
    "MESSAGE_UPDATE": (Intent.GUILD_MESSAGES, Intent.DIRECT_MESSAGES),
    "MESSAGE_DELETE": (Intent.GUILD_MESSAGES, Intent.DIRECT_MESSAGES),
    "MESSAGE_REACTION_ADD": (Intent.GUILD_MESSAGE_REACTIONS, Intent.DIRECT_MESSAGE_REACTIONS),
    "MESSAGE_REACTION_REMOVE": (Intent.GUILD_MESSAGE_REACTIONS, Intent.DIRECT_MESSAGE_REACTIONS),
    "TYPING_START": (Intent.GUILD_MESSAGE_TYPING, Intent.DIRECT_MESSAGE_TYPING),
    "GUILD_MEMBER_ADD": (Intent.GUILD_MEMBERS, 0),
    "GUILD_MEMBER_UPDATE": (Intent.GUILD_MEMBERS, 0),
    "GUILD_MEMBER_REMOVE": (Intent.GUILD_MEMBERS, 0),
    "PRESENCE_UPDATE": (Intent.GUILD_PRESENCES, 0),
}

CONTENT_FIELDS = {"content": "", "embeds": [], "attachments": [], "components": []}


def application_flags(privileged: int) -> int:
    """The application's flags for the privileged intents it has switched on."""
    flags = 0
    for intent, flag in LIMITED_FLAGS.items():
        if privileged & intent:
            flags |= flag
    return flags


def filter_event(event: str, data: JSON, *, intents: int, bot_id: int, guild_id: int | None) -> JSON | None:
    """``data`` as a session with ``intents`` receives ``event``, or None if it does not get it at all."""
    gate = GATED.get(event)
    if gate is not None:
        needed = gate[0] if guild_id is not None else gate[1]
        if not needed or not intents & needed:
            return None
    if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE") and guild_id is not None and not intents & Intent.MESSAGE_CONTENT:
        return blank_content(data, bot_id=bot_id)
    return data


def blank_content(message: JSON, *, bot_id: int) -> JSON:
    """A guild message as a bot without MESSAGE_CONTENT sees it (replied-to messages too)."""
    mentioned = any(int(user["id"]) == bot_id for user in message.get("mentions", []))
    own = int(message.get("author", {}).get("id", 0)) == bot_id
    result = dict(message)
    if not (mentioned or own):
        result.update({key: type(value)() for key, value in CONTENT_FIELDS.items()})
        result.pop("poll", None)
    referenced = message.get("referenced_message")
    if referenced:
        result["referenced_message"] = blank_content(referenced, bot_id=bot_id)
    return result
