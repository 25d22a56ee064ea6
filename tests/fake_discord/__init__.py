"""A fake Discord for end-to-end tests: the real discord.py client connects to it over loopback.

dpytest cannot drive interactions, so this fake speaks Discord's actual protocol instead: REST
under ``/api/v10`` (aiohttp) and the gateway websocket (v10, JSON, ``zlib-stream`` or
``zstd-stream`` as discord.py negotiates), with the payload shapes Discord documents. The bot
under test runs unmodified except for one test-only setting that points it here.

Starting it and connecting a bot (pytest-asyncio: the fake and the bot share one event loop)::

    from tests.fake_discord import FakeDiscord, pointed_at
    from tests.bot.running import run_until_ready

    async with FakeDiscord() as fake:                   # 127.0.0.1, a free port
        with pointed_at(fake.api_base):                # Route.BASE + DiscordWebSocket.DEFAULT_GATEWAY
            bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(),
                               guild_ready_timeout=0.05)   # on_ready without discord.py's 2 s wait
            task = await run_until_ready(bot, fake.token)
            ...
            await bot.close()
            await task

In ``tests/bot`` the fixtures do this: ``fake`` (a started fake) and ``start_bot`` (``bot = await
start_bot(MyBot())``; closed, and discord.py restored, at teardown).

The default world (``World.default()``): the bot, "Test Guild" owned by ``alice`` with ``bob`` as
a member, text channels #general and #games. ``fake.guild``, ``fake.channel`` (#general),
``fake.user("bob")``, ``fake.dm_channel(user)``, ``fake.bot`` (``fake.bot.mention``); the world's
dataclasses can be changed before or during a test (roles, channel overwrites, new users).

Injecting what users do, each returning a handle to await the bot's answer::

    await bot.tree.sync(guild=discord.Object(fake.guild.id))   # the fake stores the commands
    handle = await fake.send_command("ping", {"text": "hi"})    # INTERACTION_CREATE, type 2
    callback = await handle.response(timeout=5)                 # POST /interactions/{id}/{token}/callback
    callback.type, callback.content, callback.flags, callback.files, callback.latency
    await handle.followup(0); await handle.original_edited()    # webhook follow-ups and edits
    handle.original                                             # the response message, kept with its edits
    await fake.send_command("game new", {"seed": 3, "opponent": fake.user("bob")})  # subcommands
    await fake.send_autocomplete("ping", {"text": "he"}, focused="text")  # type 4 -> callback 8
    await fake.click(message, "gate:move:7"); await fake.select(message, "menu", ["a"])  # type 3
    await fake.send_command("ping", {"text": "x"}, user=bob, dm=True)     # DM: user, no member
    fake.install_for_user(alice); group = fake.group_dm(alice, bob)      # a user install; a group DM
    fake.world.add_guild("Elsewhere", owner=alice, with_bot=False)     # a server that never added the bot
    await fake.send_command("ping", {"text": "x"}, user=alice, channel=group)  # context 2, owners {"1": alice}
    sent = await fake.send_message(f"{fake.bot.mention} hello")           # MESSAGE_CREATE
    reply = await sent.reply()                                  # the bot's next message there

``fake.send_interaction(kind, data, ...)`` is the raw door under these. ``handle.sent_at`` and
``callback.received_at`` are ``time.perf_counter()`` readings; ``callback.latency`` (and
``sent.latency(reply)``) is the difference. Options are typed from the commands the bot synced;
a Discord client would refuse an unsynced command, a missing or unknown option, a value outside
its choices or range, or a click on a missing or disabled component, and so does the fake
(``InteractionRefused``) unless ``strict=False``.

Inspecting what the bot did: ``fake.requests`` (every REST call: method, path, ``route``
template, query, headers, ``json`` body or multipart ``payload_json``, ``files`` with bytes,
``received_at``, status, response), ``fake.unexpected_requests`` (routes the fake does not
serve, answered with Discord's 404 body), ``fake.requests_to("POST /channels/{channel_id}/messages")``,
``fake.messages(channel)`` / ``fake.message(id)`` (stored messages: ``payload``, ``history`` of
earlier versions, ``files`` by attachment, ``reactions``, ``custom_ids()``), ``fake.commands(guild)``,
``fake.gateway.log`` (every gateway frame, both ways), ``fake.gateway.sessions`` (intents, shard,
sequence, resumes). ``await fake.wait_for(check)`` waits for any condition without sleeping.
``await fake.reconnect()`` (op 7, then RESUME) and ``await fake.gateway.drop_connections()``
(events meanwhile are replayed on RESUME) exercise reconnection.

Failures as Discord produces them (:mod:`tests.fake_discord.faults`)::

    fake.fail("PATCH /channels/{channel_id}/messages/{message_id}", 403, code=50013)  # next edit refused
    fake.fail("POST /interactions/{interaction_id}/{token}/callback", 500, processed=True)  # done, then 500
    fake.fail("POST /channels/{channel_id}/messages", 429, retry_after=0.2)   # rate limited once
    fake.fail(route, drop=True, times=5)   # the socket closes mid-request, five times
    fake.fail(route, 0, delay=2.5)         # a slow success
    fake.heal()                            # disarm what is left

A failed request is recorded with the status it got. discord.py retries 429s and 500s on its
own (500s after 1, 3, 5... seconds), so a fault meant to outlast its retries needs ``times``.

Discord's rules the fake enforces, so the bot is tested against them: the bot token (401, close
4004); privileged intents the app has not switched on (close 4014, so discord.py raises
``PrivilegedIntentsRequired``; ``FakeDiscord(privileged_intents=Intent.MESSAGE_CONTENT)`` switches
them on); guild messages that do not mention the bot reach it with empty content, embeds,
attachments and components unless it identified with MESSAGE_CONTENT (DMs and mentions keep
them); full member lists only with GUILD_MEMBERS; the 3-second deadline to answer an interaction
(``ack_deadline``; late answers get 404 Unknown interaction, 10062); one callback per
interaction (40060) of a type valid for it; follow-ups only after the callback; message limits
(2000 characters, 10 embeds of 4096-character descriptions, 5 rows of 5 components, 25
select options, labels of 80/100 characters: 50035) and empty messages (50006); and the bot's channel
permissions from roles and overwrites (403, 50013); where the
app is reached: a global command only in its ``contexts`` (0 server, 1 the bot's DM, 2 a private
channel) and through its ``integration_types`` (0 a server's install, 1 the user's own), with
``context`` and ``authorizing_integration_owners`` in every interaction; and a group DM, which
the bot is never in: no message there reaches it, and every channel call there is 403 Missing
Access (50001), so only the interaction's answers, follow-ups and their edits work.
The bot also receives MESSAGE_CREATE/UPDATE/DELETE for its own non-ephemeral messages, as on
Discord.

Discord's own API description as the referee
---------------------------------------------
``openapi/openapi.json`` is Discord's published OpenAPI description of its v10 HTTP API, vendored
unchanged with its MIT licence (``openapi/README.md`` names the commit). Every API request the fake
receives is checked against it (:mod:`tests.fake_discord.referee`): the operation is found from the
method and path (``POST /channels/{channel_id}/messages`` is ``create_message``), then the path
parameters, the query and the body (JSON, or multipart ``payload_json`` with its files) are
validated with ``jsonschema`` against that operation's schemas, and each JSON answer the fake
gives against the operation's response for that status. A request the description rejects is
answered as Discord would (404 for no such route, else 400 Invalid Form Body, 50035) and kept in
``fake.violations`` with its operation id, JSON path and the validator's message, e.g.
``create_message (POST /channels/1/messages): the bot sent $.embeds[0].color: 'red' is not of
type 'integer', 'null'``. The autouse ``discord_referee`` fixture in ``tests/bot/conftest.py`` fails
the test at teardown while any is left, for every fake the test started; a test that sends bad
traffic on purpose takes them with ``fake.take_violations()`` and asserts on them. Where the
description is stricter than Discord in practice (discord.py's integer snowflakes, text error
codes), ``referee.EXCEPTIONS`` allows it, one line each with the reason; never widen it for
something gatebot itself composes. ``GATEBOT_REFEREE_REPORT=path`` makes each test append the
counts it checked; ``python -m tests.fake_discord.referee_report path`` sums them.

What the bot's own code must do with its test-only setting
----------------------------------------------------------
``gatebot.settings.Settings.api_base`` holds ``GATEBOT_DISCORD_API_BASE`` (unset in production),
e.g. ``http://127.0.0.1:PORT/api/v10`` (``fake.api_base``). When it is set, ``gatebot run`` must,
before ``bot.start()``/``login()``, run the equivalent of :func:`use_base_url` (the package cannot
import from ``tests/``, so it carries these lines)::

    import yarl
    import discord.gateway
    import discord.http

    def point_at(api_base: str) -> None:
        url = yarl.URL(api_base.rstrip("/"))
        discord.http.Route.BASE = str(url)
        scheme = "wss" if url.scheme == "https" else "ws"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = url.with_scheme(scheme).with_path("/gateway")

``Route.BASE`` is where every REST call goes, interaction callbacks and webhook follow-ups
included; ``DEFAULT_GATEWAY`` is where a ``Client``/``Bot`` opens its gateway websocket (it never
asks GET /gateway/bot; an ``AutoShardedBot`` without a shard count does, and the fake answers
with the same URL). Nothing else differs from production: the token comes from ``DISCORD_TOKEN``
(``fake.token``), and intents, command sync and handlers are the real ones. ``fake.env()`` is the
environment for running ``gatebot run`` as a subprocess (``tests/bot/test_fake_discord.py`` runs
this very snippet in a subprocess to keep it honest).
"""

from tests.fake_discord.base_url import API_BASE_VARIABLE, gateway_url_for, pointed_at, use_base_url
from tests.fake_discord.handles import InteractionHandle, MessageHandle
from tests.fake_discord.intents import Intent
from tests.fake_discord.interactions import InteractionRefused
from tests.fake_discord.model import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    Overwrite,
    Permission,
    World,
)
from tests.fake_discord.records import InteractionCallback, RecordedFile, RecordedRequest, StoredMessage
from tests.fake_discord.server import FakeDiscord

__all__ = [
    "API_BASE_VARIABLE",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "Intent",
    "InteractionCallback",
    "InteractionHandle",
    "InteractionRefused",
    "MessageHandle",
    "Overwrite",
    "Permission",
    "RecordedFile",
    "RecordedRequest",
    "StoredMessage",
    "World",
    "gateway_url_for",
    "pointed_at",
    "use_base_url",
]
