"""What the fake remembers of the traffic: requests, uploaded files, messages, interactions.

Tests assert on these. Times are ``time.perf_counter()`` seconds, so the difference between an
event's ``sent_at`` and a response's ``received_at`` is the bot's latency on this machine.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

JSON = dict[str, Any]
T = TypeVar("T")

#: Message flags: EPHEMERAL (only the invoking user sees it) and LOADING (a deferred "thinking" reply).
EPHEMERAL = 1 << 6
LOADING = 1 << 7
#: How often a wait re-checks its condition even when the fake recorded nothing new.
POLL = 0.01


@dataclass
class RecordedFile:
    """A file part of a multipart request (``files[n]``), with its bytes."""

    field: str
    filename: str
    content_type: str | None
    data: bytes

    @property
    def size(self) -> int:
        """The file's length in bytes."""
        return len(self.data)


@dataclass
class RecordedRequest:
    """One HTTP request the bot made to the REST API, and what the fake answered.

    ``path`` is relative to ``/api/v10`` (``/channels/123/messages``); ``json`` is the JSON body or,
    for multipart, the parsed ``payload_json`` part; ``route`` is the matched template
    (``POST /channels/{channel_id}/messages``), or None for a route the fake does not serve, in
    which case ``unexpected`` is true and the answer was a Discord-style 404.
    """

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    json: Any
    files: list[RecordedFile]
    received_at: float
    route: str | None = None
    status: int | None = None
    response: Any = None

    @property
    def unexpected(self) -> bool:
        """Whether no route of the fake matched (the bot called something the fake does not serve)."""
        return self.route is None

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclass
class StoredMessage:
    """A message in a channel, as the fake keeps it: the current payload and every earlier version.

    ``origin`` says who made it: ``"bot"`` (POST /channels/{id}/messages), ``"interaction"`` (an
    interaction's original response), ``"followup"`` (a webhook follow-up) or ``"user"`` (injected
    by the test with ``send_message``).
    """

    id: int
    channel_id: int
    guild_id: int | None
    payload: JSON
    origin: str
    created_at: float = field(default_factory=time.perf_counter)
    interaction_id: int | None = None
    history: list[JSON] = field(default_factory=list)
    edited_at: list[float] = field(default_factory=list)
    files: dict[int, RecordedFile] = field(default_factory=dict)  # by attachment id
    deleted: bool = False

    @property
    def content(self) -> str:
        """The current text."""
        return self.payload.get("content", "")

    @property
    def embeds(self) -> list[JSON]:
        """The current embeds."""
        return self.payload.get("embeds", [])

    @property
    def components(self) -> list[JSON]:
        """The current component rows."""
        return self.payload.get("components", [])

    @property
    def flags(self) -> int:
        """The message flags (EPHEMERAL = 64, LOADING = 128, ...)."""
        return self.payload.get("flags", 0)

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user can see it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def attachments(self) -> list[JSON]:
        """The current attachment objects."""
        return self.payload.get("attachments", [])

    @property
    def reactions(self) -> list[str]:
        """Emoji the bot has reacted with (unicode, or ``name:id`` for custom emoji)."""
        found = []
        for reaction in self.payload.get("reactions", []):
            emoji = reaction["emoji"]
            found.append(emoji["name"] if emoji.get("id") is None else f"{emoji['name']}:{emoji['id']}")
        return found

    def file(self, filename: str) -> RecordedFile:
        """The bytes of the current attachment called ``filename`` (KeyError if none)."""
        for attachment in self.attachments:
            if attachment["filename"] == filename:
                return self.files[int(attachment["id"])]
        raise KeyError(f"message {self.id} has no attachment {filename!r}")

    def custom_ids(self) -> list[str]:
        """Every component custom id in the message, in order (buttons, selects, nested layouts)."""
        return [component["custom_id"] for component in iter_components(self.components) if "custom_id" in component]


def iter_components(components: list[JSON]) -> list[JSON]:
    """Flatten component trees (action rows, containers, sections with accessories) depth-first."""
    found: list[JSON] = []
    for component in components:
        found.append(component)
        found.extend(iter_components(component.get("components", [])))
        if "accessory" in component:
            found.extend(iter_components([component["accessory"]]))
    return found


@dataclass
class InteractionCallback:
    """The bot's answer to an interaction (POST /interactions/{id}/{token}/callback).

    ``type`` is the callback type (4 message, 5 deferred message, 6 deferred update, 7 update
    message, 8 autocomplete result, 9 modal); ``data`` its data; ``latency`` the seconds from the
    fake sending INTERACTION_CREATE to receiving this.
    """

    type: int
    data: JSON
    files: list[RecordedFile]
    received_at: float
    latency: float
    request: RecordedRequest

    @property
    def content(self) -> str | None:
        """``data.content``, if the bot sent any."""
        return self.data.get("content")

    @property
    def flags(self) -> int:
        """``data.flags`` (64 = ephemeral)."""
        return self.data.get("flags", 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the response message is ephemeral."""
        return bool(self.flags & EPHEMERAL)

    @property
    def embeds(self) -> list[JSON]:
        """``data.embeds``."""
        return self.data.get("embeds", [])

    @property
    def components(self) -> list[JSON]:
        """``data.components``."""
        return self.data.get("components", [])

    @property
    def choices(self) -> list[JSON]:
        """``data.choices`` of an autocomplete result (type 8)."""
        return self.data.get("choices", [])


@dataclass
class InteractionRecord:
    """An interaction the fake sent, and everything the bot did with it."""

    id: int
    token: str
    type: int
    payload: JSON
    channel_id: int
    guild_id: int | None
    sent_at: float
    component_message_id: int | None = None
    callback: InteractionCallback | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    rejected: list[RecordedRequest] = field(default_factory=list)  # late or repeated callbacks


class ChangeFeed:
    """Wakes waiters whenever the fake records something, so tests wait on conditions, not sleeps."""

    def __init__(self) -> None:
        self._waiters: set[asyncio.Future[None]] = set()
        self.describe_recent: Callable[[], str] = lambda: ""

    def notify(self) -> None:
        """Something changed: let every waiter re-check its condition."""
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_for(self, check: Callable[[], T | None], *, timeout: float, what: str) -> T:
        """Return ``check()``'s first result that is not None, re-checking after every change.

        Raises TimeoutError naming ``what`` (and the last requests the bot made) after ``timeout`` s.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result is not None:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}{self.describe_recent()}")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            try:
                # Re-check at least every POLL s too: a condition may depend on the bot's own state.
                await asyncio.wait_for(waiter, min(remaining, POLL))
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)
