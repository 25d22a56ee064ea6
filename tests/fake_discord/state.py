"""The fake's shared state: the world, the recorded traffic, and messages with their edits.

REST handlers, the gateway and the test-facing :class:`~tests.fake_discord.server.FakeDiscord`
all work on one :class:`FakeState`. Message creation and editing live here because three routes
make messages (channel posts, interaction callbacks, webhook follow-ups) and all must agree on
the payload shape, attachments, and the MESSAGE_CREATE/UPDATE/DELETE events the bot receives
about its own messages (Discord sends those; a bot must ignore itself).
"""

from __future__ import annotations

import copy
import mimetypes
import re
import struct
import time
from collections.abc import Awaitable, Callable
from typing import Any

from tests.fake_discord.faults import Faults
from tests.fake_discord.model import FakeChannel, FakeUser, World, iso_now
from tests.fake_discord.oauth import OAuth
from tests.fake_discord.payloads import member_payload, user_payload
from tests.fake_discord.records import (
    EPHEMERAL,
    LOADING,
    ChangeFeed,
    InteractionRecord,
    RecordedFile,
    RecordedRequest,
    StoredMessage,
    iter_components,
)
from tests.fake_discord.referee import Referee

JSON = dict[str, Any]
#: Sends a gateway event: (name, data, guild id or None for DMs).
Dispatcher = Callable[[str, JSON, int | None], Awaitable[None]]

MENTION = re.compile(r"<@!?(\d+)>")


async def _no_gateway(_event: str, _data: JSON, _guild_id: int | None) -> None:
    """Dispatcher used before the gateway is attached: events go nowhere."""


class FakeState:
    """The world plus everything recorded: requests, messages, interactions, synced commands."""

    def __init__(self, world: World, *, token: str) -> None:
        self.world = world
        self.token = token
        self.http_base = ""  # http://127.0.0.1:PORT, set once the server listens
        self.requests: list[RecordedRequest] = []
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.commands: dict[int | None, list[JSON]] = {}  # guild id (None: global) -> command objects
        self.changes = ChangeFeed()
        self.changes.describe_recent = self._describe_recent
        self.dispatch: Dispatcher = _no_gateway
        #: Seconds the bot has to answer an interaction (Discord: 3); None for no limit.
        self.ack_deadline: float | None = 3.0
        #: Failures armed for chosen routes (see :mod:`tests.fake_discord.faults`).
        self.faults = Faults()
        #: Checks every REST call (and the fake's answer) against Discord's API description.
        self.referee = Referee()
        #: OAuth2 codes and tokens (an Activity's sign-in; see :mod:`tests.fake_discord.oauth`).
        self.oauth = OAuth()

    def _describe_recent(self) -> str:
        recent = self.requests[-5:]
        if not recent:
            return " (the bot has made no REST request)"
        return " (last requests: " + "; ".join(str(request) for request in recent) + ")"

    # -- lookups ---------------------------------------------------------------------------

    def channel_messages(self, channel_id: int, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Messages in a channel, oldest first."""
        found = [m for m in self.messages.values() if m.channel_id == channel_id and (include_deleted or not m.deleted)]
        return sorted(found, key=lambda message: message.id)

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        """The interaction whose token (also its webhook token) is ``token``."""
        return next((record for record in self.interactions.values() if record.token == token), None)

    # -- messages --------------------------------------------------------------------------

    def create_message(
        self,
        channel: FakeChannel,
        body: JSON,
        files: list[RecordedFile],
        *,
        author: FakeUser,
        origin: str,
        extra: JSON | None = None,
    ) -> StoredMessage:
        """Store a new message built from a create-message body (content, embeds, components, ...)."""
        message_id = self.world.ids()
        content = body.get("content") or ""
        payload: JSON = {
            "id": str(message_id),
            "channel_id": str(channel.id),
            "type": 0,
            "author": user_payload(author),
            "content": content,
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": self._mentions(content),
            "mention_roles": [],
            "attachments": [],
            "embeds": [{"type": "rich", **embed} for embed in body.get("embeds") or []],
            "components": _numbered(body.get("components") or []),
            "pinned": False,
            "flags": int(body.get("flags") or 0),
        }
        if body.get("nonce") is not None:
            payload["nonce"] = body["nonce"]
        if body.get("sticker_ids"):
            payload["sticker_items"] = []
        reference = body.get("message_reference")
        if reference and reference.get("message_id"):
            self._add_reference(payload, channel, int(reference["message_id"]))
        payload.update(extra or {})
        message = StoredMessage(
            id=message_id, channel_id=channel.id, guild_id=channel.guild_id, payload=payload, origin=origin
        )
        self._apply_attachments(message, body, files)
        self.messages[message_id] = message
        channel.last_message_id = message_id
        return message

    def edit_message(self, message: StoredMessage, body: JSON, files: list[RecordedFile]) -> StoredMessage:
        """Apply an edit body to ``message``, keeping the previous version in ``history``."""
        message.history.append(_copy(message.payload))
        payload = message.payload
        was_loading = bool(payload.get("flags", 0) & LOADING)
        if "content" in body:
            payload["content"] = body["content"] or ""
            payload["mentions"] = self._mentions(payload["content"])
        if "embeds" in body:
            payload["embeds"] = [{"type": "rich", **embed} for embed in body["embeds"] or []]
        if "components" in body:
            payload["components"] = _numbered(body["components"] or [])
        flags = payload.get("flags", 0) & ~LOADING
        if body.get("flags") is not None:
            flags = (flags & (EPHEMERAL | 1 << 15)) | int(body["flags"])
        payload["flags"] = flags
        self._apply_attachments(message, body, files)
        if not was_loading:
            payload["edited_timestamp"] = iso_now()
        message.edited_at.append(time.perf_counter())
        return message

    def delete_message(self, message: StoredMessage) -> None:
        """Mark ``message`` deleted (it stays in the store for assertions)."""
        message.deleted = True

    def add_reaction(self, message: StoredMessage, emoji: str) -> None:
        """Record the bot's reaction ``emoji`` (``name`` or ``name:id``) on ``message``."""
        name, _, emoji_id = emoji.partition(":")
        reactions = message.payload.setdefault("reactions", [])
        for reaction in reactions:
            if reaction["emoji"]["name"] == name:
                if not reaction["me"]:
                    reaction.update(me=True, count=reaction["count"] + 1)
                    reaction["count_details"]["normal"] += 1
                return
        reactions.append(
            {
                "emoji": {"id": emoji_id or None, "name": name},
                "count": 1,
                "count_details": {"burst": 0, "normal": 1},
                "me": True,
                "burst_colors": [],
                "me_burst": False,
            }
        )

    def remove_reaction(self, message: StoredMessage, emoji: str) -> None:
        """Remove the bot's own reaction ``emoji`` from ``message``."""
        name = emoji.partition(":")[0]
        reactions = message.payload.get("reactions", [])
        message.payload["reactions"] = [r for r in reactions if r["emoji"]["name"] != name]

    def message_event(self, message: StoredMessage) -> JSON:
        """The MESSAGE_CREATE/UPDATE data for ``message``: the message plus guild_id and member, as sent."""
        data = _copy(message.payload)
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
            guild = self.world.guild(message.guild_id)
            author_id = int(data["author"]["id"])
            if guild is not None and author_id in guild.members and "webhook_id" not in data:
                data["member"] = member_payload(guild.members[author_id], with_user=False)
            if guild is not None:
                for mention in data["mentions"]:
                    member = guild.members.get(int(mention["id"]))
                    if member is not None:
                        mention["member"] = member_payload(member, with_user=False)
        return data

    async def announce(self, event: str, message: StoredMessage) -> None:
        """Tell the bot about a message it made, as Discord does (never for ephemeral ones, nor where it isn't)."""
        channel = self.world.channel(message.channel_id)
        if message.ephemeral or (channel is not None and not self.world.bot_is_in(channel)):
            return
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
        else:
            data = self.message_event(message)
        await self.dispatch(event, data, message.guild_id)

    # -- helpers ---------------------------------------------------------------------------

    def _mentions(self, content: str) -> list[JSON]:
        """Users mentioned in ``content`` (``<@id>``) that the fake knows, as Discord parses them."""
        seen: dict[int, JSON] = {}
        for match in MENTION.finditer(content):
            user = self.world.users.get(int(match.group(1)))
            if user is not None:
                seen.setdefault(user.id, user_payload(user))
        return list(seen.values())

    def _add_reference(self, payload: JSON, channel: FakeChannel, message_id: int) -> None:
        referenced = self.messages.get(message_id)
        payload["type"] = 19  # REPLY
        payload["message_reference"] = {"type": 0, "message_id": str(message_id), "channel_id": str(channel.id)}
        if channel.guild_id is not None:
            payload["message_reference"]["guild_id"] = str(channel.guild_id)
        payload["referenced_message"] = None if referenced is None else _copy(referenced.payload)

    def _apply_attachments(self, message: StoredMessage, body: JSON, files: list[RecordedFile]) -> None:
        """Turn ``attachments`` + ``files[n]`` into attachment objects (keeping listed old ones)."""
        by_field = {file.field: file for file in files}
        listed = body.get("attachments")
        if listed is None:
            listed = [{"id": index} for index in range(len(files))] if files else None
        if listed is None:
            return
        current = {int(a["id"]): a for a in message.payload.get("attachments", [])}
        attachments = []
        for entry in listed:
            entry_id = int(entry["id"])
            if entry_id in current:
                attachments.append(current[entry_id])
                continue
            file = by_field.get(f"files[{entry_id}]")
            if file is None:
                continue
            attachment_id = self.world.ids()
            filename = entry.get("filename") or file.filename
            attachment = self._attachment(message, attachment_id, filename, file)
            if entry.get("description"):
                attachment["description"] = entry["description"]
            attachments.append(attachment)
            message.files[attachment_id] = file
        message.payload["attachments"] = attachments

    def _attachment(self, message: StoredMessage, attachment_id: int, filename: str, file: RecordedFile) -> JSON:
        url = f"{self.http_base}/attachments/{message.channel_id}/{attachment_id}/{filename}"
        content_type = mimetypes.guess_type(filename)[0] or file.content_type or "application/octet-stream"
        attachment: JSON = {
            "id": str(attachment_id),
            "filename": filename,
            "size": file.size,
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
        }
        size = _png_size(file.data)
        if size is not None:
            attachment["width"], attachment["height"] = size
        if message.ephemeral:
            attachment["ephemeral"] = True
        return attachment


def _png_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG's IHDR chunk (Discord reports image sizes), else None."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _numbered(components: list[JSON]) -> list[JSON]:
    """Components as Discord stores them: every one with an ``id`` (given ones kept, the rest 1, 2, ...
    in order), a unicode emoji as its name alone (no ``"id": null``)."""
    tree = [_copy(component) for component in components]
    flat = iter_components(tree)
    for component in flat:
        for option in [component, *component.get("options", [])]:
            emoji = option.get("emoji")
            if isinstance(emoji, dict) and emoji.get("id") is None:
                emoji.pop("id", None)
    used = {component["id"] for component in flat if component.get("id") is not None}
    number = 0
    for component in flat:
        if component.get("id") is None:
            number += 1
            while number in used:
                number += 1
            component["id"] = number
    return tree


def _copy(payload: JSON) -> JSON:
    """A deep copy of a JSON-like payload (cheap: payloads are small)."""
    return copy.deepcopy(payload)
