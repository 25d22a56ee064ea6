"""The fake gateway: a websocket that speaks Discord's gateway v10 to discord.py.

HELLO, then IDENTIFY -> READY + one GUILD_CREATE per guild of the session's shard, heartbeat
ACKs, RESUME (replaying what the session missed, then RESUMED), op 8 member requests, and
dispatch of injected events with sequence numbers, intent gating and message-content blanking.
Close codes follow Discord's (4004 bad token, 4013 invalid intents, 4014 disallowed intents, ...),
so discord.py reacts exactly as it would in production.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fake_discord.base_url import GATEWAY_PATH
from tests.fake_discord.compression import Compressor, make_compressor
from tests.fake_discord.intents import Intent, filter_event
from tests.fake_discord.payloads import guild_create_payload, member_payload, ready_payload
from tests.fake_discord.state import FakeState

JSON = dict[str, Any]

RESUME_PATH = "/gateway-resume"


class Op:
    """Gateway opcodes."""

    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


@dataclass
class GatewayFrame:
    """One gateway payload, either way: ``direction`` is ``"in"`` (from the bot) or ``"out"``."""

    direction: str
    payload: JSON
    at: float = field(default_factory=time.perf_counter)


@dataclass(eq=False)
class Session:
    """A gateway session: what IDENTIFY started and RESUME continues."""

    id: str
    intents: int
    shard: tuple[int, int] | None
    guild_ids: set[int]
    seq: int = 0
    sent: list[JSON] = field(default_factory=list)  # dispatches, kept for RESUME
    connection: Connection | None = None
    presence: JSON | None = None
    resumes: int = 0
    ended: bool = False  # closed with 1000/1001 by the bot, or invalidated: cannot be resumed

    @property
    def live(self) -> bool:
        """Whether a connection is open for this session right now."""
        return self.connection is not None and not self.connection.ws.closed


@dataclass(eq=False)
class Connection:
    """One websocket connection, with its compression stream and (once identified) its session."""

    ws: web.WebSocketResponse
    compression: str | None  # the ``compress`` query value: zlib-stream, zstd-stream or None
    compressor: Compressor | None
    path: str
    log: list[GatewayFrame]
    session: Session | None = None
    heartbeats: int = 0
    closed_with: int | None = None  # the code, if the fake closed this connection
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: JSON) -> None:
        """Send one payload, compressed as negotiated (the lock keeps the stream's order)."""
        text = json.dumps(payload)
        async with self.lock:
            if self.ws.closed:
                return
            self.log.append(GatewayFrame("out", payload))
            if self.compressor is None:
                await self.ws.send_str(text)
            else:
                await self.ws.send_bytes(self.compressor.compress(text))


class Gateway:
    """Serves the gateway websocket and dispatches events to the bot's live sessions."""

    def __init__(self, state: FakeState, *, heartbeat_interval_ms: int, privileged_intents: int) -> None:
        self.state = state
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = privileged_intents
        self.ws_base = ""  # ws://127.0.0.1:PORT, set once the server listens
        self.sessions: dict[str, Session] = {}
        self.connections: list[Connection] = []
        self.log: list[GatewayFrame] = []
        self.close_codes: list[int] = []  # codes the fake closed connections with

    @property
    def url(self) -> str:
        """The gateway URL advertised by GET /gateway/bot."""
        return self.ws_base + GATEWAY_PATH

    def live_sessions(self) -> list[Session]:
        """Sessions with an open connection."""
        return [session for session in self.sessions.values() if session.live]

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session that gets events of ``guild_id`` (DMs: shard 0), live first, else resumable.

        Events for a session whose connection dropped (not a clean close) are kept and replayed
        when the bot RESUMEs, as Discord does.
        """
        candidates = sorted((s for s in self.sessions.values() if not s.ended), key=lambda s: not s.live)
        for session in candidates:
            if guild_id is None and (session.shard is None or session.shard[0] == 0):
                return session
            if guild_id is not None and guild_id in session.guild_ids:
                return session
        if guild_id is not None and all(guild_id not in s.guild_ids for s in candidates):
            # A server without the bot (a user install's interaction): the shard its id falls to.
            for session in candidates:
                if session.shard is None or (guild_id >> 22) % session.shard[1] == session.shard[0]:
                    return session
        return None

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every connection with a resumable code (the bot should reconnect and RESUME)."""
        for session in self.live_sessions():
            assert session.connection is not None
            await self._close(session.connection.ws, code, "dropped by the test")

    async def dispatch(self, event: str, data: JSON, guild_id: int | None) -> bool:
        """Send ``event`` to the session owning ``guild_id``; False if none gets it (no session, or intents)."""
        session = self.session_for(guild_id)
        if session is None:
            return False
        filtered = filter_event(event, data, intents=session.intents, bot_id=self.state.world.bot.id, guild_id=guild_id)
        if filtered is None:
            return False
        await self._dispatch_to(session, event, filtered)
        return True

    async def _dispatch_to(self, session: Session, event: str, data: JSON) -> None:
        session.seq += 1
        frame = {"op": Op.DISPATCH, "t": event, "s": session.seq, "d": data}
        session.sent.append(frame)
        if session.connection is not None:
            await session.connection.send(frame)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT on every live connection (discord.py then RESUMEs)."""
        for session in self.live_sessions():
            assert session.connection is not None
            await session.connection.send({"op": Op.RECONNECT, "d": None, "s": None, "t": None})

    async def close_all(self, code: int = 1001) -> None:
        """Close every open connection (used when the fake shuts down)."""
        for connection in list(self.connections):
            if not connection.ws.closed:
                await self._close(connection.ws, code, "the fake is shutting down")

    # -- the websocket ---------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """One gateway connection, from HELLO until either side closes."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        try:
            compressor = make_compressor(request.query.get("compress"))
        except ValueError:
            await self._close(ws, 4000, "unsupported compression")
            return ws
        if request.query.get("v") != "10":
            await self._close(ws, 4012, "Invalid API version")
            return ws
        if request.query.get("encoding", "json") != "json":
            await self._close(ws, 4002, "Error while decoding payload")
            return ws
        connection = Connection(
            ws=ws, compression=request.query.get("compress"), compressor=compressor, path=request.path, log=self.log
        )
        self.connections.append(connection)
        hello = {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ['["fake-gateway",{"micros":0}]']}
        await connection.send({"op": Op.HELLO, "d": hello, "s": None, "t": None})
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    await self._close(ws, 4002, "Error while decoding payload")
                    break
                payload = json.loads(message.data)
                self.log.append(GatewayFrame("in", payload))
                await self._receive(connection, payload)
        finally:
            self.connections.remove(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                code = connection.closed_with or ws.close_code  # who closed first decides
                session.ended = code in (1000, 1001)  # a clean close ends the session
            self.state.changes.notify()
        return ws

    async def _close(self, ws: web.WebSocketResponse, code: int, reason: str) -> None:
        self.close_codes.append(code)
        for connection in self.connections:
            if connection.ws is ws:
                connection.closed_with = code
        await ws.close(code=code, message=reason.encode())

    async def _receive(self, connection: Connection, payload: JSON) -> None:
        op, data = payload.get("op"), payload.get("d")
        if op == Op.HEARTBEAT:
            connection.heartbeats += 1
            await connection.send({"op": Op.HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == Op.IDENTIFY:
            await self._identify(connection, data)
        elif op == Op.RESUME:
            await self._resume(connection, data)
        elif connection.session is None:
            await self._close(connection.ws, 4003, "Not authenticated")
        elif op == Op.PRESENCE_UPDATE:
            connection.session.presence = data
        elif op == Op.REQUEST_GUILD_MEMBERS:
            await self._members_chunk(connection.session, data)
        elif op != Op.VOICE_STATE_UPDATE:
            await self._close(connection.ws, 4001, "Unknown opcode")

    async def _identify(self, connection: Connection, data: JSON) -> None:
        if data.get("token") != self.state.token:
            await self._close(connection.ws, 4004, "Authentication failed")
            return
        if connection.session is not None:
            await self._close(connection.ws, 4005, "Already authenticated")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents & ~Intent.ALL:
            await self._close(connection.ws, 4013, "Invalid intent(s)")
            return
        if intents & Intent.PRIVILEGED & ~self.privileged_intents:
            await self._close(connection.ws, 4014, "Disallowed intent(s)")
            return
        shard = tuple(data["shard"]) if data.get("shard") else None
        if shard is not None and not 0 <= shard[0] < shard[1]:
            await self._close(connection.ws, 4010, "Invalid shard")
            return
        world = self.state.world
        guilds = [g for g in world.guilds if shard is None or (g.id >> 22) % shard[1] == shard[0]]
        guilds = [g for g in guilds if world.bot.id in g.members]  # a server reached by user installs only: unseen
        session = Session(
            id=secrets.token_hex(16),
            intents=intents,
            shard=shard,
            guild_ids={g.id for g in guilds},  # type: ignore[arg-type]
        )
        self.sessions[session.id] = session
        session.connection = connection
        connection.session = session
        ready = ready_payload(
            world,
            session_id=session.id,
            resume_url=self.ws_base + RESUME_PATH,
            guilds=guilds,
            shard=None if shard is None else list(shard),
        )
        await self._dispatch_to(session, "READY", ready)
        for guild in guilds:
            payload = guild_create_payload(guild, bot=world.bot, all_members=bool(intents & Intent.GUILD_MEMBERS))
            await self._dispatch_to(session, "GUILD_CREATE", payload)
        self.state.changes.notify()

    async def _resume(self, connection: Connection, data: JSON) -> None:
        session = self.sessions.get(data.get("session_id", ""))
        bad = session is None or session.ended or data.get("token") != self.state.token
        if bad or not isinstance(data.get("seq"), int):
            await connection.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        assert session is not None
        old = session.connection
        if old is not None and old is not connection and not old.ws.closed:
            await self._close(old.ws, 4000, "resumed elsewhere")
        session.connection = connection
        connection.session = session
        session.resumes += 1
        for frame in session.sent:
            if frame["s"] > data["seq"]:
                await connection.send(frame)
        await self._dispatch_to(session, "RESUMED", {"_trace": ['["fake-gateway",{"micros":0}]']})
        self.state.changes.notify()

    async def _members_chunk(self, session: Session, data: JSON) -> None:
        guild = self.state.world.guild(int(data["guild_id"]))
        if guild is None:
            return
        query = (data.get("query") or "").lower()
        wanted = {int(user_id) for user_id in data.get("user_ids") or []}
        if wanted:
            members = [m for m in guild.members.values() if m.user.id in wanted]
        else:
            members = [m for m in guild.members.values() if m.user.username.lower().startswith(query)]
        limit = data.get("limit") or 0
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [member_payload(m) for m in (members[:limit] if limit else members)],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(i) for i in wanted - {m.user.id for m in members}],
        }
        if data.get("presences"):
            chunk["presences"] = []
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)
