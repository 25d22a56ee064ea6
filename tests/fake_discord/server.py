"""FakeDiscord: start the fake on a free loopback port, inject user actions, inspect what the bot did."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self, TypeVar

from aiohttp import web

from tests.fake_discord import commands as stored_commands
from tests.fake_discord import interactions
from tests.fake_discord.base_url import API_BASE_VARIABLE
from tests.fake_discord.faults import Fault
from tests.fake_discord.gateway import Gateway, Session
from tests.fake_discord.handles import DEFAULT_TIMEOUT, InteractionHandle, MessageHandle
from tests.fake_discord.intents import application_flags
from tests.fake_discord.model import FakeChannel, FakeGuild, FakeUser, World
from tests.fake_discord.payloads import user_payload
from tests.fake_discord.records import JSON, InteractionRecord, RecordedRequest, StoredMessage
from tests.fake_discord.referee import Violation
from tests.fake_discord.rest import build_app
from tests.fake_discord.rest_common import API_PREFIX
from tests.fake_discord.state import FakeState

T = TypeVar("T")

#: Every fake started in this process, so a test's fixture can check what each one's referee found.
STARTED: list[FakeDiscord] = []


class FakeDiscord:
    """A fake Discord (REST + gateway) for the real discord.py client, on 127.0.0.1.

    ``privileged_intents`` are the intents switched on for the app in the developer portal
    (0: none, so a bot asking for MESSAGE_CONTENT is refused with close code 4014, as on
    Discord). ``ack_deadline`` is how long the bot has to answer an interaction (None: forever).
    """

    def __init__(
        self,
        world: World | None = None,
        *,
        token: str = "fake-bot-token",
        privileged_intents: int = 0,
        heartbeat_interval: float = 41.25,
        ack_deadline: float | None = 3.0,
        host: str = "127.0.0.1",
    ) -> None:
        self.world = world or World.default()
        self.world.application.flags |= application_flags(privileged_intents)
        self.token = token
        self.host = host
        self.state = FakeState(self.world, token=token)
        self.state.ack_deadline = ack_deadline
        self.gateway = Gateway(
            self.state, heartbeat_interval_ms=int(heartbeat_interval * 1000), privileged_intents=privileged_intents
        )
        self.state.dispatch = self.gateway.dispatch
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> Self:
        """Listen on a free port; REST at ``api_base``, gateway at ``gateway_url``."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((self.host, 0))
        self.port = sock.getsockname()[1]
        self.state.http_base = f"http://{self.host}:{self.port}"
        self.gateway.ws_base = f"ws://{self.host}:{self.port}"
        app = build_app(self.state, self.gateway, gateway_url=self.gateway_url)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        STARTED.append(self)
        return self

    async def stop(self) -> None:
        """Close gateway connections and stop listening (stop the bot first, or it will reconnect)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *_exc: object) -> None:
        await self.stop()

    @property
    def ack_deadline(self) -> float | None:
        """Seconds the bot has to answer an interaction before it expires (None: no limit)."""
        return self.state.ack_deadline

    @ack_deadline.setter
    def ack_deadline(self, seconds: float | None) -> None:
        self.state.ack_deadline = seconds

    @property
    def api_base(self) -> str:
        """The REST base to give the bot (``http://127.0.0.1:PORT/api/v10``)."""
        return self.state.http_base + API_PREFIX

    @property
    def authorize_url(self) -> str:
        """Discord's authorisation page on the fake (``http://127.0.0.1:PORT/oauth2/authorize``)."""
        return self.state.http_base + "/oauth2/authorize"

    @property
    def gateway_url(self) -> str:
        """The gateway websocket URL (also what GET /gateway/bot returns)."""
        return self.gateway.url

    def env(self) -> dict[str, str]:
        """Environment for running ``gatebot run`` against this fake in a subprocess."""
        return {API_BASE_VARIABLE: self.api_base, "DISCORD_TOKEN": self.token}

    # -- failures ---------------------------------------------------------------------------

    def fail(
        self,
        route: str,
        status: int = 500,
        *,
        code: int = 0,
        message: str | None = None,
        times: int = 1,
        delay: float = 0.0,
        drop: bool = False,
        processed: bool = False,
        retry_after: float = 0.05,
    ) -> Fault:
        """Answer the next ``times`` requests of ``route`` with a failure (see :mod:`tests.fake_discord.faults`).

        ``route`` is a template as in ``requests_to`` (``"PATCH /channels/{channel_id}/messages/{message_id}"``,
        ``"POST /interactions/{interaction_id}/{token}/callback"``). ``status=0`` with ``delay`` is a slow
        success; ``drop`` closes the socket instead of answering; ``processed`` does the work first.
        """
        return self.state.faults.arm(Fault(
            route, status, code=code, message=message, times=times, delay=delay, drop=drop,
            processed=processed, retry_after=retry_after,
        ))

    def heal(self) -> None:
        """Disarm every failure still armed."""
        self.state.faults.clear()

    # -- the world -------------------------------------------------------------------------

    @property
    def bot(self) -> FakeUser:
        """The bot user (its id is also the application id)."""
        return self.world.bot

    @property
    def application_id(self) -> int:
        """The application id."""
        return self.world.application.id

    @property
    def guild(self) -> FakeGuild:
        """The first guild (the default world has one: "Test Guild")."""
        return self.world.guilds[0]

    @property
    def channel(self) -> FakeChannel:
        """The first guild's first text channel (#general in the default world)."""
        return self.guild.text_channels[0]

    def user(self, username: str) -> FakeUser:
        """A known user by username (``"alice"``, the default guild's owner; ``"bob"``)."""
        return next(user for user in self.world.users.values() if user.username == username)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's DM channel with ``user`` (created on first use)."""
        return self.world.dm_channel(user)

    def group_dm(self, owner: FakeUser, *others: FakeUser) -> FakeChannel:
        """A new group DM of people (the bot is never in one: it answers there only through interactions)."""
        return self.world.add_group_dm(owner, *others)

    def install_for_user(self, user: FakeUser) -> None:
        """``user`` adds the app to their account (a user install): its commands follow them to any chat."""
        self.world.install_for_user(user)

    def authorize(self, user: FakeUser, *, application_id: int | None = None, seconds: float = 600) -> str:
        """The code the Embedded App SDK's ``authorize`` gives an Activity when ``user`` allows it (scope identify).

        ``application_id``: granted to another application than the bot's; ``seconds``: how long it works.
        """
        return self.state.oauth.authorize(user, application_id or self.application_id, seconds=seconds)

    def enable_activities(self) -> None:
        """Activities are enabled for the application: Discord made its default entry-point command (``/launch``)."""
        stored_commands.add_default_entry_point(self.state)

    # -- what the bot did ------------------------------------------------------------------

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every REST request the bot made, in arrival order."""
        return self.state.requests

    @property
    def violations(self) -> list[Violation]:
        """What Discord's API description rejected so far, in the bot's requests or the fake's answers."""
        return self.state.referee.violations

    def take_violations(self) -> list[Violation]:
        """The violations so far, forgotten: for a test that sends malformed traffic on purpose."""
        return self.state.referee.take()

    @property
    def unexpected_requests(self) -> list[RecordedRequest]:
        """Requests to routes the fake does not serve (answered 404 ``404: Not Found``)."""
        return [request for request in self.state.requests if request.unexpected]

    def requests_to(self, route: str) -> list[RecordedRequest]:
        """Requests that matched ``route``, e.g. ``"POST /channels/{channel_id}/messages"``."""
        return [request for request in self.state.requests if request.route == route]

    def messages(self, channel: FakeChannel | int, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Messages in a channel (bot's, interaction responses, injected ones), oldest first."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return self.state.channel_messages(channel_id, include_deleted=include_deleted)

    def message(self, message_id: int) -> StoredMessage:
        """A stored message by id."""
        return self.state.messages[message_id]

    def commands(self, guild: FakeGuild | None = None) -> list[JSON]:
        """The commands the bot synced, globally or to ``guild``."""
        return self.state.commands.get(None if guild is None else guild.id, [])

    async def wait_for(self, check: Callable[[], T | None], *, timeout: float = DEFAULT_TIMEOUT, what: str = "") -> T:
        """Wait until ``check()`` returns something other than None (re-checked on every change)."""
        return await self.state.changes.wait_for(check, timeout=timeout, what=what or "a condition")

    async def wait_until_connected(self, timeout: float = DEFAULT_TIMEOUT) -> Session:
        """Wait until the bot has identified (READY and GUILD_CREATEs sent); its session."""
        return await self.wait_for(
            lambda: next(iter(self.gateway.live_sessions()), None), timeout=timeout, what="the bot to IDENTIFY"
        )

    async def wait_for_commands(self, guild: FakeGuild | None = None, timeout: float = DEFAULT_TIMEOUT) -> list[JSON]:
        """Wait until the bot has synced commands (to ``guild``, or globally)."""
        return await self.wait_for(lambda: self.commands(guild) or None, timeout=timeout, what="a command sync")

    async def reconnect(self, timeout: float = DEFAULT_TIMEOUT) -> Session:
        """Ask the bot to reconnect (op 7) and wait until it has RESUMEd its session."""
        sessions = self.gateway.live_sessions()
        resumes = {session.id: session.resumes for session in sessions}
        await self.gateway.request_reconnect()

        def resumed() -> Session | None:
            return next((s for s in self.gateway.live_sessions() if s.resumes > resumes.get(s.id, s.resumes)), None)

        return await self.wait_for(resumed, timeout=timeout, what="the bot to RESUME")

    # -- user actions ----------------------------------------------------------------------

    def _reach(self, user: FakeUser, channel: FakeChannel) -> tuple[int, dict[int, int]]:
        return interactions.context_of(channel), interactions.installs_for(self.state, user, channel)

    def _where(self, user: FakeUser | None, channel: FakeChannel | None, dm: bool) -> tuple[FakeUser, FakeChannel]:
        user = user or self.user("alice")
        if dm:
            return user, self.dm_channel(user)
        return user, channel or self.channel

    async def send_interaction(
        self,
        kind: int,
        data: JSON,
        *,
        user: FakeUser | None = None,
        channel: FakeChannel | None = None,
        dm: bool = False,
        message: StoredMessage | None = None,
    ) -> InteractionHandle:
        """Send INTERACTION_CREATE of type ``kind`` with ``data`` as ``user`` in ``channel`` (or a DM).

        The lower-level door: ``send_command``, ``send_autocomplete``, ``click`` and ``select``
        build ``data`` from what a user does and call this. ``message`` is the message a
        component is on. Raises RuntimeError if the bot is not connected.
        """
        user, channel = self._where(user, channel, dm)
        payload = interactions.envelope(self.state, kind=kind, data=data, user=user, channel=channel)
        if message is not None:
            payload["message"] = self.state.message_event(message) if message.guild_id else message.payload
        record = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=kind,
            payload=payload,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            sent_at=0.0,
            component_message_id=None if message is None else message.id,
        )
        self.state.interactions[record.id] = record
        record.sent_at = time.perf_counter()
        if not await self.gateway.dispatch("INTERACTION_CREATE", payload, channel.guild_id):
            del self.state.interactions[record.id]
            raise RuntimeError(
                "the bot has no gateway session (not connected yet, or closed) to receive the interaction"
            )
        return InteractionHandle(record, self.state)

    async def send_command(
        self,
        path: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeUser | None = None,
        channel: FakeChannel | None = None,
        dm: bool = False,
        strict: bool = True,
    ) -> InteractionHandle:
        """A user runs ``/path`` (``"ping"``, ``"gate move"``) with ``options`` (typed as the bot declared)."""
        user, channel = self._where(user, channel, dm)
        data = interactions.command_data(
            self.state, path, options or {}, guild_id=channel.guild_id, strict=strict, where=self._reach(user, channel)
        )
        return await self.send_interaction(2, data, user=user, channel=channel)

    async def send_autocomplete(
        self,
        path: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        user: FakeUser | None = None,
        channel: FakeChannel | None = None,
        dm: bool = False,
        strict: bool = True,
    ) -> InteractionHandle:
        """A user is typing option ``focused`` of ``/path``; the bot should answer with choices (type 8)."""
        user, channel = self._where(user, channel, dm)
        data = interactions.command_data(
            self.state, path, options, guild_id=channel.guild_id, focused=focused, strict=strict,
            where=self._reach(user, channel),
        )
        return await self.send_interaction(4, data, user=user, channel=channel)

    async def click(
        self, message: StoredMessage, custom_id: str, *, user: FakeUser | None = None, strict: bool = True
    ) -> InteractionHandle:
        """A user clicks the button ``custom_id`` on ``message``."""
        data = interactions.component_data(message, custom_id, None, strict=strict)
        return await self._on_message(message, data, user)

    async def select(
        self,
        message: StoredMessage,
        custom_id: str,
        values: Sequence[str],
        *,
        user: FakeUser | None = None,
        strict: bool = True,
    ) -> InteractionHandle:
        """A user picks ``values`` in the select menu ``custom_id`` on ``message``."""
        data = interactions.component_data(message, custom_id, list(values), strict=strict)
        return await self._on_message(message, data, user)

    async def _on_message(self, message: StoredMessage, data: JSON, user: FakeUser | None) -> InteractionHandle:
        channel = self.world.channel(message.channel_id)
        assert channel is not None
        user = user or (channel.recipients[0] if channel.recipients else self.user("alice"))
        return await self.send_interaction(3, data, user=user, channel=channel, message=message)

    async def send_message(
        self,
        content: str,
        *,
        author: FakeUser | None = None,
        channel: FakeChannel | None = None,
        dm: bool = False,
        reply_to: StoredMessage | None = None,
        ping_reply: bool = True,
        embeds: list[JSON] | None = None,
    ) -> MessageHandle:
        """A user posts ``content`` (mentions written ``<@id>``, e.g. ``fake.bot.mention``) as MESSAGE_CREATE.

        In a guild, without the MESSAGE_CONTENT intent the bot sees the content only if the
        message mentions it; ``reply_to`` makes it a reply, which mentions the replied-to
        author unless ``ping_reply`` is false (as the Discord client's @ON/@OFF toggle).
        """
        author, channel = self._where(author, channel, dm)
        body: JSON = {"content": content, "embeds": embeds or []}
        if reply_to is not None:
            body["message_reference"] = {"message_id": str(reply_to.id)}
        message = self.state.create_message(channel, body, [], author=author, origin="user")
        if reply_to is not None and ping_reply:
            replied = self.world.users.get(int(reply_to.payload["author"]["id"]))
            if replied is not None and all(m["id"] != str(replied.id) for m in message.payload["mentions"]):
                message.payload["mentions"].append(user_payload(replied))
        sent_at = time.perf_counter()
        # Where the bot is not a member (a group DM, a server it wasn't added to) no message reaches it.
        delivered = self.world.bot_is_in(channel) and await self.gateway.dispatch(
            "MESSAGE_CREATE", self.state.message_event(message), channel.guild_id
        )
        return MessageHandle(message=message, sent_at=sent_at, delivered=delivered, state=self.state)
