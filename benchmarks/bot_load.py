"""Bot load: N simulated Discord users playing Gate at once with the real bot, through the fake Discord.

The bot is the real thing, ``python -m gatebot run`` in its own process, pinned to one core
(``os.sched_setaffinity``) with a fresh SQLite file per configuration; it talks to the fake
Discord of the end-to-end tests (``tests/fake_discord``) over loopback, as it would to Discord:
the gateway websocket (zlib-stream) for events, REST for callbacks, edits and follow-ups. The
fake and the load generator share this process's event loop, pinned to another core, so the
bot's core does nothing but the bot.

Each user is a member of the fake's guild with a channel to play in (``--per-channel`` users
per channel). A user runs ``/gate new`` with a seeded deal, then plays as a person would, from
what their own board message offers: a move from its select menu (foundation moves favoured,
back-and-forth shuttles avoided), the Draw, Undo and Auto buttons, and now and then
``/gate move`` with a token taken from the menu. A game that ends is followed by ``/gate new``;
one that reaches ``--move-cap`` moves is resigned (``/gate resign``) first. A ``/gate new``
that got no answer in time is tried again, as a person would; the bot then asks whether to
abandon the game it did deal, and the user presses "Start the new game" (``confirm``).

Measured for every interaction: the fake's ``handle.latency``, from sending INTERACTION_CREATE
on the gateway to receiving the bot's callback (``POST /interactions/{id}/{token}/callback``).
The fake enforces Discord's 3-second deadline: a later callback is refused with 404 Unknown
interaction (10062), as on Discord, and counted as late (its arrival time is still recorded).

Two load models:

* ``think``: after each answer a user pauses for an exponential think time (mean ``--think``,
  2 s by default), so N users offer about N / think interactions a second (a little less, since
  each waits for its answer): the latency at a realistic load, for each of ``--users``;
* ``closed``: no think time (``--closed-users``): every user sends its next interaction as soon
  as the last is answered: the saturation throughput; its latency is only N / throughput.

Goals: on one core with SQLite, p99 under 100 ms at 100 users, and no interaction answered
after 3 s at 500 users (both with the default think time). About 3 minutes with the defaults,
from the repository root:

    .venv/bin/python benchmarks/bot_load.py
    .venv/bin/python benchmarks/bot_load.py --users 100 --seconds 20 --no-closed
    .venv/bin/python benchmarks/bot_load.py --users --closed-seconds 20    # the closed-loop run only

Each run also times a fixed Python loop on the bot's core before and after (``probe ms``):
on a shared virtual machine the speed of a core can change by half from one minute to the
next, and the bot's figures with it.

``--profile-bot DIR`` (or ``GATEBOT_LOAD_PROFILE=DIR``) runs the bot under ``python -m cProfile
-o DIR/<run>.prof`` and prints its hottest functions; ``--profiler pyinstrument`` samples it
instead (``pip install pyinstrument`` into the venv; not a project dependency). Profiling slows
the bot: compare its figures with an unprofiled run only.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import math
import os
import platform
import pstats
import random
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the fake Discord lives in tests/

from procstat import cpu_seconds  # noqa: E402  (run as a script: its folder is on the path)

from gatebot.bot.errors import APOLOGY  # noqa: E402
from gatebot.rules import MAX_DEAL  # noqa: E402
from tests.fake_discord import FakeDiscord, InteractionHandle, InteractionRefused, StoredMessage, World  # noqa: E402
from tests.fake_discord.crowd import AnswerFeed, add_crowd, watch_answers  # noqa: E402
from tests.fake_discord.model import FakeChannel, FakeUser  # noqa: E402

DEADLINE = 3.0  # Discord's: seconds to answer an interaction
GOAL_P99_MS = 100.0
GOAL_P99_USERS = 100
GOAL_LATE_USERS = 500
#: How long a user waits for an answer before giving up on it (past the deadline, to see late ones).
ANSWER_TIMEOUT = 10.0
PROFILE_VARIABLE = "GATEBOT_LOAD_PROFILE"
KINDS = ("new", "confirm", "select", "button", "slash", "resign")
CONFIRM_LABEL = "Start the new game"


# -- what a user does --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Board:
    """What a board message offers its owner: enabled buttons by action, and the move menu."""

    buttons: dict[str, str]  # "draw" / "undo" / "auto" -> custom id, enabled ones only
    menu: str | None  # the select's custom id
    moves: tuple[str, ...]  # the select's option values (legal move tokens)

    @property
    def live(self) -> bool:
        return bool(self.buttons or self.menu)


def read_board(message: StoredMessage) -> Board:
    buttons: dict[str, str] = {}
    menu, moves = None, ()
    for row in message.components:
        for component in row.get("components", []):
            custom_id = component.get("custom_id", "")
            if not custom_id.startswith("gate:") or component.get("disabled"):
                continue
            action = custom_id.split(":")[1]
            if component["type"] == 2:
                buttons[action] = custom_id
            elif component["type"] == 3 and action == "move":
                menu = custom_id
                moves = tuple(option["value"] for option in component.get("options", []))
    return Board(buttons, menu, moves)


def move_weight(token: str, recent: deque[tuple[str, str]]) -> float:
    """How likely a person is to pick ``token``: home moves first, shuttles almost never."""
    if token == "d":
        return 1.5
    source, target = token[0], token[1]
    if target == "f":
        return 12.0
    if source in "lrw":
        return 4.0
    if (target, source) in recent:
        return 0.02
    return 0.4 if ":" in token else 1.0


@dataclass(frozen=True, slots=True)
class Action:
    """One interaction to send: ``kind`` is one of KINDS."""

    kind: str
    custom_id: str | None = None
    value: str | None = None  # the move token, the button's action, or the deal number


@dataclass
class Seat:
    """One simulated user and what they know: their channel, their board message, their game."""

    index: int
    user: FakeUser
    channel: FakeChannel
    rng: random.Random
    board_id: int | None = None
    confirm: tuple[int, str] | None = None  # (message, button) of "start a new game and abandon this one?"
    moves: int = 0
    recent: deque[tuple[str, str]] = field(default_factory=lambda: deque(maxlen=6))


def choose(seat: Seat, board: Board | None, args: argparse.Namespace) -> Action:
    rng = seat.rng
    if seat.confirm is not None:
        message_id, custom_id = seat.confirm
        return Action("confirm", custom_id, str(message_id))
    if board is not None and board.live and seat.moves >= args.move_cap:
        return Action("resign")
    if board is None or not board.live:
        return Action("new", value=str(rng.randint(1, MAX_DEAL)))
    roll = rng.random()
    if "undo" in board.buttons and roll < args.undo_share:
        return Action("button", board.buttons["undo"], "undo")
    if "auto" in board.buttons and roll < args.undo_share + args.auto_share:
        return Action("button", board.buttons["auto"], "auto")
    if not board.moves:  # more than 25 legal moves: no menu, only the buttons
        action = "draw" if "draw" in board.buttons else "auto"
        return Action("button", board.buttons[action], action)
    token = rng.choices(board.moves, [move_weight(token, seat.recent) for token in board.moves])[0]
    if token != "d":
        seat.recent.append((token[0], token[1]))
    if rng.random() < args.slash_share:
        return Action("slash", value=token)
    if token == "d" and "draw" in board.buttons and rng.random() < 0.5:
        return Action("button", board.buttons["draw"], "draw")
    return Action("select", board.menu, token)


async def send(fake: FakeDiscord, seat: Seat, action: Action) -> InteractionHandle:
    where = {"user": seat.user, "channel": seat.channel}
    if action.kind == "new":
        return await fake.send_command("gate new", {"deal": int(action.value or 1)}, **where)
    if action.kind == "resign":
        return await fake.send_command("gate resign", **where)
    if action.kind == "slash":
        return await fake.send_command("gate move", {"moves": action.value}, **where)
    assert action.custom_id is not None
    if action.kind == "confirm":
        return await fake.click(fake.message(int(action.value or 0)), action.custom_id, user=seat.user)
    assert seat.board_id is not None
    board = fake.message(seat.board_id)
    if action.kind == "button":
        return await fake.click(board, action.custom_id, user=seat.user)
    return await fake.select(board, action.custom_id, [action.value or ""], user=seat.user)


# -- measuring -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Outcome:
    """One interaction: when it was sent, how long the answer took, and how it is judged."""

    kind: str
    sent_at: float
    latency: float | None  # seconds; None: no answer at all within ANSWER_TIMEOUT
    status: str  # ok, refused, error, late, unanswered
    detail: str = ""
    handle: InteractionHandle | None = None
    #: For a deferred answer (callback type 5 or 6): seconds until the real answer (board or follow-up) came.
    settled: float | None = None


@dataclass
class Config:
    model: str  # think / closed
    users: int
    seconds: float
    warmup: float
    think: float  # mean seconds between a user's interactions (0: closed loop)
    ramp: float  # users start at random moments over this many seconds

    @property
    def name(self) -> str:
        return f"{self.model}-{self.users}"


@dataclass
class Result:
    config: Config
    outcomes: list[Outcome]
    measure_from: float
    stop_at: float
    bot_cpu: float  # bot process CPU seconds per wall second over the window
    bot_main_cpu: float  # the same, its main thread only (the event loop; the rest is aiosqlite's threads)
    load_cpu: float  # this process's (fake + users) CPU seconds per wall second over the window
    bot_log: Counter[str]  # level -> count of WARNING/ERROR/CRITICAL lines and tracebacks
    log_examples: list[str]
    retries: int  # the service's "retrying a request" lines (lost optimistic-locking races)
    games: Counter[str]
    probe: tuple[float, float]  # probe_ms on the bot's core before and after the run
    profile: Path | None = None

    @property
    def window(self) -> float:
        return self.stop_at - self.measure_from

    def in_window(self) -> list[Outcome]:
        return [o for o in self.outcomes if self.measure_from <= o.sent_at < self.stop_at]

    def latencies(self, kind: str | None = None) -> list[float]:
        return sorted(
            o.latency for o in self.in_window() if o.latency is not None and (kind is None or o.kind == kind)
        )

    @property
    def sent_rate(self) -> float:
        return len(self.in_window()) / self.window

    @property
    def answered_rate(self) -> float:
        """Callbacks accepted in the window, per second (late ones are not answers)."""
        done = [o for o in self.outcomes if o.latency is not None and o.status != "late"]
        return sum(self.measure_from <= o.sent_at + (o.latency or 0) < self.stop_at for o in done) / self.window

    @property
    def offered_rate(self) -> float | None:
        return self.config.users / self.config.think if self.config.think else None

    def count(self, status: str) -> int:
        """Over the whole run (warm-up and drain included): nothing is left out of these."""
        return sum(o.status == status for o in self.outcomes)


def percentile(data: list[float], q: float) -> float:
    """Nearest-rank percentile of sorted ``data`` in ms (nan when empty)."""
    if not data:
        return math.nan
    return 1000 * data[min(len(data) - 1, max(0, math.ceil(q / 100 * len(data)) - 1))]


def judge(action: Action, handle: InteractionHandle) -> tuple[str, str, float | None]:
    """(status, detail, latency) of an interaction once its answer is in (or given up on)."""
    record = handle.record
    callback = record.callback
    if callback is None:
        if record.rejected:
            late = record.rejected[0]
            return "late", f"{action.kind}: callback refused as late", late.received_at - record.sent_at
        return "unanswered", f"{action.kind}: no callback within {ANSWER_TIMEOUT:g} s", None
    latency = callback.latency
    content = callback.content or ""
    if content.startswith(APOLOGY[:30]):
        return "error", f"{action.kind}: {content}", latency
    if callback.type == 5 and action.kind not in ("select", "button", "confirm"):
        return "ok", "", latency  # "thinking…": the answer follows (judged by reclassify_followups)
    if action.kind == "new":
        if callback.type == 4 and callback.components:  # a board, or (ephemeral) "abandon your game?"
            return "ok", "", latency
    elif action.kind in ("select", "button", "confirm"):
        if callback.type in (6, 7):  # the board edited now, or (6: deferred) by a later webhook edit
            return "ok", "", latency
    elif callback.type == 4 and callback.ephemeral and content.startswith(("Played", "You resigned")):
        return "ok", "", latency
    return "refused", f"{action.kind}: type {callback.type}: {content[:120]}", latency


def confirm_button(message: StoredMessage | None) -> tuple[int, str] | None:
    """The "start the new game" button of the bot's question, if ``message`` is that question."""
    if message is None:
        return None
    for row in message.components:
        for component in row.get("components", []):
            if component.get("label") == CONFIRM_LABEL and not component.get("disabled"):
                return message.id, component["custom_id"]
    return None


def after_answer(fake: FakeDiscord, seat: Seat, action: Action, outcome: Outcome, games: Counter[str]) -> None:
    """What the user learns from the answer: their board message, and whether the game goes on."""
    handle = outcome.handle
    assert handle is not None
    callback = handle.record.callback
    if action.kind == "confirm":
        seat.confirm = None
    if outcome.status in ("late", "unanswered") or callback is None:
        if action.kind in ("new", "confirm"):
            seat.board_id = None  # "the application did not respond": try /gate new again
        return
    if action.kind == "new":
        if callback.type == 5 and handle.followups and handle.followups[0].custom_ids():
            seat.board_id, seat.moves = handle.followups[0].id, 0
            seat.recent.clear()
        elif outcome.status == "ok" and not callback.ephemeral and handle.original is not None:
            seat.board_id, seat.moves = handle.original.id, 0
            seat.recent.clear()
        elif outcome.status == "ok":
            seat.confirm = confirm_button(handle.original)  # a game is running (an earlier late deal): abandon it
            games["asked to confirm"] += 1
        return
    if action.kind == "resign":
        if outcome.status == "ok":
            games["resigned"] += 1
        elif "no game in progress" in (callback.content or ""):
            seat.board_id = None
        return
    if outcome.status == "ok" and (action.kind in ("select", "slash") or action.value == "draw"):
        seat.moves += 1
    if seat.board_id is not None and not read_board(fake.message(seat.board_id)).live:
        text = fake.message(seat.board_id).content
        games["won" if "You won" in text else "lost" if "No legal move" in text else "ended"] += 1


async def settle(
    fake: FakeDiscord, feed: AnswerFeed, seat: Seat, handle: InteractionHandle, edits: int
) -> float | None:
    """After a deferred answer, wait (as the user does) for the real one; its delay from the event, in s."""
    callback = handle.record.callback
    if callback is None or callback.type not in (5, 6):
        return None
    if callback.type == 6 and seat.board_id is not None:
        board = fake.message(seat.board_id)
        arrived = await feed.until(lambda: len(board.edited_at) > edits, ANSWER_TIMEOUT)
        return board.edited_at[-1] - handle.sent_at if arrived else math.inf
    if await feed.followed_up(handle, ANSWER_TIMEOUT):
        return handle.followups[0].created_at - handle.sent_at
    return math.inf


class Clock:
    def __init__(self, config: Config) -> None:
        self.start = time.perf_counter()
        self.measure_from = self.start + config.warmup
        self.stop_at = self.measure_from + config.seconds


async def user(
    fake: FakeDiscord, feed: AnswerFeed, seat: Seat, config: Config, clock: Clock, args: argparse.Namespace,
    outcomes: list[Outcome], games: Counter[str],
) -> None:
    """One person: deal, then play from their board, pausing to think, until the time is up."""
    rng = seat.rng
    await asyncio.sleep(rng.uniform(0, config.ramp))  # people do not all start in the same instant
    while time.perf_counter() < clock.stop_at:
        board = None if seat.board_id is None else read_board(fake.message(seat.board_id))
        action = choose(seat, board, args)
        edits = 0 if seat.board_id is None else len(fake.message(seat.board_id).edited_at)
        try:
            handle = await send(fake, seat, action)
        except InteractionRefused as refusal:  # the generator's mistake, not the bot's: shown, never hidden
            outcomes.append(Outcome(action.kind, time.perf_counter(), None, "error", f"client refused: {refusal}"))
            seat.board_id = None
            continue
        await feed.answered(handle, ANSWER_TIMEOUT)
        status, detail, latency = judge(action, handle)
        outcome = Outcome(action.kind, handle.sent_at, latency, status, detail, handle)
        outcomes.append(outcome)
        if status == "ok":
            outcome.settled = await settle(fake, feed, seat, handle, edits)
        after_answer(fake, seat, action, outcome, games)
        if action.kind == "confirm" and outcome.status == "ok":
            # "Dealing…", then the new board comes as a follow-up: the user waits for it.
            if await feed.followed_up(handle, ANSWER_TIMEOUT) and handle.followups[0].custom_ids():
                seat.board_id, seat.moves = handle.followups[0].id, 0
                seat.recent.clear()
            else:
                games["no board after confirming"] += 1
        if config.think:
            pause = rng.expovariate(1 / config.think)
            await asyncio.sleep(max(0.0, min(pause, clock.stop_at - time.perf_counter())))
        else:
            await asyncio.sleep(0)


# -- the bot process ---------------------------------------------------------------------------


def probe_ms(core: int | None) -> float:
    """Milliseconds a fixed pure-Python loop takes on ``core`` (best of 3): how fast the machine is right now.

    Shared virtual machines change speed from minute to minute; this says how fast the bot's
    core was just before and after a run, so runs can be compared.
    """
    saved = os.sched_getaffinity(0) if core is not None else None
    if core is not None:
        os.sched_setaffinity(0, {core})
    try:
        best = math.inf
        for _ in range(3):
            started = time.perf_counter()
            total = 0
            for number in range(1_000_000):
                total += number
            best = min(best, time.perf_counter() - started)
        return 1000 * best
    finally:
        if saved is not None:
            os.sched_setaffinity(0, saved)


@dataclass
class BotProcess:
    process: asyncio.subprocess.Process
    log_path: Path
    profile: Path | None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


async def start_bot(fake: FakeDiscord, workdir: Path, core: int | None, profile: Path | None) -> BotProcess:
    """``python -m gatebot run`` against ``fake`` (optionally under cProfile), pinned to ``core``."""
    env = {
        **os.environ,
        **fake.env(),
        "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/gatebot.db",
        "GATEBOT_DEV_GUILD_ID": str(fake.guild.id),
        "PYTHONPATH": str(REPO),
        "LOG_LEVEL": "INFO",
    }
    command = [sys.executable]
    if profile is not None and profile.suffix == ".prof":
        command += ["-m", "cProfile", "-o", str(profile)]
    elif profile is not None:  # pyinstrument: a sampling profiler, not part of the project (pip install it)
        command += ["-m", "pyinstrument", "-r", "pyisession", "-o", str(profile)]
    command += ["-m", "gatebot", "run"]
    log_path = workdir / "bot.log"

    def pin() -> None:
        if core is not None:
            os.sched_setaffinity(0, {core})

    with log_path.open("wb") as log_file:
        process = await asyncio.create_subprocess_exec(
            *command, env=env, cwd=workdir, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=log_file, preexec_fn=pin,
        )
    bot = BotProcess(process, log_path, profile)
    deadline = time.perf_counter() + 60
    while "connected as" not in bot.log():  # GateBot.on_ready: synced, identified, guilds loaded
        if process.returncode is not None or time.perf_counter() > deadline:
            await stop_bot(bot)
            raise RuntimeError(f"the bot did not become ready; its log:\n{bot.log()[-3000:]}")
        await asyncio.sleep(0.05)
    await fake.wait_for_commands(fake.guild, timeout=10)
    return bot


async def stop_bot(bot: BotProcess) -> int | None:
    if bot.process.returncode is None:
        bot.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(bot.process.wait(), 30)
        except TimeoutError:
            bot.process.kill()
            await bot.process.wait()
    return bot.process.returncode


ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: discord.py's log line, plain ("[time] [LEVEL   ] name: message") or coloured ("time LEVEL    name message").
LOG_LINE = re.compile(r"^(?:\[[^]]*\] \[|\S+ \S+ )(?P<level>DEBUG|INFO|WARNING|ERROR|CRITICAL)\s*\]? (?P<rest>.*)$")
#: Start-up warnings about optional voice libraries: nothing to do with load.
BENIGN = ("voice will NOT be supported",)


def scan_log(text: str) -> tuple[Counter[str], list[str], int]:
    """Problems in the bot's log (lines by level, tracebacks, a few examples) and the service's retries."""
    levels: Counter[str] = Counter()
    examples: list[str] = []
    retries = 0
    for raw in text.splitlines():
        line = ANSI.sub("", raw)
        if "retrying a request" in line:
            retries += 1
        match = LOG_LINE.match(line)
        if line.startswith("Traceback"):
            levels["traceback"] += 1
            continue
        if match is None or match["level"] in ("DEBUG", "INFO") or any(text in line for text in BENIGN):
            continue
        levels[match["level"]] += 1
        short = re.sub(r"\d{4,}", "…", match["rest"])[:160]  # ids vary; the kind of problem does not
        if len(examples) < 4 and short not in examples:
            examples.append(short)
    return levels, examples, retries


# -- one configuration ---------------------------------------------------------------------------


async def measure(config: Config, args: argparse.Namespace, workdir: Path, bot_core: int | None) -> Result:
    world = World.default()
    channels = max(1, math.ceil(config.users / args.per_channel))
    crowd = add_crowd(world, world.guilds[0], config.users, channels=channels)
    suffix = ".prof" if args.profiler == "cprofile" else ".pyisession"
    profile = args.profile_bot / f"{config.name}{suffix}" if args.profile_bot else None
    probe_before = probe_ms(bot_core)
    async with FakeDiscord(world) as fake:
        feed = watch_answers(fake)
        bot = await start_bot(fake, workdir, bot_core, profile)
        outcomes: list[Outcome] = []
        games: Counter[str] = Counter()
        try:
            clock = Clock(config)
            seats = [
                Seat(index, member, channel, random.Random(args.seed * 1_000_003 + index))
                for index, (member, channel) in enumerate(crowd)
            ]
            tasks = [
                asyncio.create_task(user(fake, feed, seat, config, clock, args, outcomes, games)) for seat in seats
            ]
            await asyncio.sleep(max(0.0, clock.measure_from - time.perf_counter()))
            bot_cpu0, load_cpu0, wall0 = cpu_seconds(bot.process.pid), time.process_time(), time.perf_counter()
            await asyncio.sleep(max(0.0, clock.stop_at - time.perf_counter()))
            bot_cpu1, load_cpu1, wall1 = cpu_seconds(bot.process.pid), time.process_time(), time.perf_counter()
            await asyncio.gather(*tasks)  # interactions in flight at the stop are answered (or time out)
            await asyncio.sleep(0.2)  # late follow-ups (stale boards, apologies) arrive
        finally:
            code = await stop_bot(bot)
        levels, examples, retries = scan_log(bot.log())
        if args.keep_logs:
            (args.keep_logs / f"{config.name}.log").write_text(bot.log())
        if code != 0:
            levels[f"exit code {code}"] += 1
            examples.append(bot.log()[-500:])
    reclassify_followups(outcomes)
    elapsed = max(wall1 - wall0, 1e-9)
    return Result(
        config, outcomes, clock.measure_from, clock.stop_at, (bot_cpu1[1] - bot_cpu0[1]) / elapsed,
        (bot_cpu1[0] - bot_cpu0[0]) / elapsed,
        (load_cpu1 - load_cpu0) / elapsed, levels, examples, retries, games, (probe_before, probe_ms(bot_core)),
        profile,
    )


def reclassify_followups(outcomes: list[Outcome]) -> None:
    """An interaction answered in time can still carry bad news in a follow-up: a stale board, an apology."""
    for outcome in outcomes:
        if outcome.status != "ok" or outcome.handle is None:
            continue
        callback = outcome.handle.record.callback
        for index, message in enumerate(outcome.handle.followups):
            if not message.ephemeral:  # a board (after "start the new game"), not a complaint
                continue
            answer = index == 0 and callback is not None and callback.type == 5  # the deferred answer itself
            if answer and not message.content.startswith(APOLOGY[:30]):
                continue
            if message.content.startswith(APOLOGY[:30]):
                outcome.status, outcome.detail = "error", f"{outcome.kind}: follow-up: {message.content}"
            else:
                outcome.status, outcome.detail = "refused", f"{outcome.kind}: follow-up: {message.content[:120]}"
            break


# -- reporting -----------------------------------------------------------------------------------


HEADER = (
    f"{'model':<6} {'users':>5} {'think s':>7} {'offered/s':>9} {'sent/s':>7} {'answered/s':>10} {'p50 ms':>7} "
    f"{'p99 ms':>7} {'max ms':>7} {'>3s':>4} {'no ans':>6} {'errors':>6} {'refused':>7} {'bot cpu':>7} "
    f"{'gen cpu':>7} {'probe ms':>8} {'n':>6}  {'/'.join(KINDS)}"
)


def row(result: Result) -> str:
    config = result.config
    data = result.latencies()
    mix = Counter(o.kind for o in result.in_window())
    offered = "-" if result.offered_rate is None else f"{result.offered_rate:.0f}"
    think = "0" if not config.think else f"{config.think:g}"
    probe = f"{result.probe[0]:.0f}/{result.probe[1]:.0f}"
    kinds = "/".join(str(mix[kind]) for kind in KINDS)
    return (
        f"{config.model:<6} {config.users:>5} {think:>7} {offered:>9} {result.sent_rate:>7.1f} "
        f"{result.answered_rate:>10.1f} {percentile(data, 50):>7.1f} {percentile(data, 99):>7.1f} "
        f"{percentile(data, 100):>7.1f} {result.count('late'):>4} {result.count('unanswered'):>6} "
        f"{result.count('error'):>6} {result.count('refused'):>7} {result.bot_cpu:>7.0%} {result.load_cpu:>7.0%} "
        f"{probe:>8} {len(result.in_window()):>6}  {kinds}"
    )


def by_kind(result: Result) -> str:
    parts = []
    for kind in KINDS:
        data = result.latencies(kind)
        if data:
            parts.append(f"{kind} {percentile(data, 50):.1f}/{percentile(data, 99):.1f}")
    games = ", ".join(f"{count} {name}" for name, count in sorted(result.games.items())) or "nothing"
    settled = sorted(o.settled for o in result.in_window() if o.settled is not None)
    if settled:
        parts.append(
            f"deferred {len(settled)} (real answer after p50/max {percentile(settled, 50):.0f}/"
            f"{percentile(settled, 100):.0f} ms)"
        )
    return (
        f"  {result.config.name}: p50/p99 ms by kind: {'; '.join(parts)}; games: {games}; bot cpu "
        f"{result.bot_cpu:.0%} = event loop {result.bot_main_cpu:.0%} + other threads (SQLite) "
        f"{result.bot_cpu - result.bot_main_cpu:.0%}"
    )


def problems(result: Result) -> list[str]:
    lines = []
    details = Counter(o.detail for o in result.outcomes if o.status != "ok")
    for detail, count in details.most_common(6):
        lines.append(f"    {count:>6} x {detail}")
    if result.bot_log:
        lines.append(f"    bot log: {dict(result.bot_log)}")
        lines.extend(f"      {example}" for example in result.log_examples)
    if result.retries:
        lines.append(f"    the service retried {result.retries} request(s) after a lost race")
    return lines


def failures(result: Result) -> int:
    return sum(result.count(status) for status in ("late", "unanswered", "error", "refused"))


def find(results: list[Result], model: str, users: int) -> Result | None:
    return next((r for r in results if r.config.model == model and r.config.users == users), None)


def verdicts(results: list[Result]) -> list[str]:
    lines = []
    goal = find(results, "think", GOAL_P99_USERS)
    label = f"GOAL p99 < {GOAL_P99_MS:.0f} ms at {GOAL_P99_USERS} users (one core, SQLite):"
    if goal is None:
        lines.append(f"{label} not measured (add {GOAL_P99_USERS} to --users)")
    else:
        p99 = percentile(goal.latencies(), 99)
        bad = failures(goal)
        met = p99 < GOAL_P99_MS and not bad
        lines.append(
            f"{label} {'PASS' if met else 'FAIL'} -- p99 {p99:.1f} ms over {len(goal.latencies())} interactions "
            f"at {goal.answered_rate:.0f}/s (think {goal.config.think:g} s), {bad} late/unanswered/error/refused"
        )
    goal = find(results, "think", GOAL_LATE_USERS)
    label = f"GOAL no interaction answered after {DEADLINE:g} s at {GOAL_LATE_USERS} users:"
    if goal is None:
        lines.append(f"{label} not measured (add {GOAL_LATE_USERS} to --users)")
    else:
        late, lost = goal.count("late"), goal.count("unanswered")
        late_in_window = sum(o.status == "late" for o in goal.in_window())
        others = goal.count("error") + goal.count("refused")
        met = late == 0 and lost == 0
        lines.append(
            f"{label} {'PASS' if met else 'FAIL'} -- {late} late ({late_in_window} in the measured window, the "
            f"rest in the ramp-up/warm-up and drain), {lost} unanswered, of {len(goal.outcomes)} interactions "
            f"(max {percentile(goal.latencies(), 100):.0f} ms, p99 {percentile(goal.latencies(), 99):.0f} ms); "
            f"{others} other errors/refusals"
        )
    for result in results:
        if result.config.model != "closed":
            continue
        rate = result.answered_rate
        cpu_ms = 1000 * result.bot_cpu / rate if rate else math.nan
        loop_ms = 1000 * result.bot_main_cpu / rate if rate else math.nan
        lines.append(
            f"SATURATION (closed loop, {result.config.users} users): {rate:.0f} interactions/s with the bot at "
            f"{result.bot_cpu:.0%} of its core = {cpu_ms:.1f} ms of bot CPU per interaction ({loop_ms:.1f} ms in "
            f"the event loop, the rest in SQLite's threads); latency there is "
            f"just N/X = {1000 * result.config.users / rate if rate else math.inf:.0f} ms (Little's law)"
        )
    return lines


def print_profile(path: Path, top: int) -> None:
    if not path.exists():
        print(f"  (no profile at {path}: the bot did not exit cleanly)")
        return
    if path.suffix != ".prof":
        render = [sys.executable, "-m", "pyinstrument", f"--load={path}", "-r", "text", "--no-color", "--unicode"]
        text = subprocess.run(render, capture_output=True, text=True, check=False).stdout
        print(f"\n  {path} (pyinstrument; all frames: {shlex.join([*render, '--show-all'])}):\n{text}")
        return
    for key in ("tottime", "cumulative"):
        print(f"\n  {path.name}: top {top} by {key}")
        stats = pstats.Stats(str(path), stream=sys.stdout)
        stats.strip_dirs().sort_stats(key).print_stats(top)


# -- main ----------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--users", type=int, nargs="*", default=[10, 100, 500],
                        help="users in the think-time runs (default 10 100 500)")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, s (default 2)")
    parser.add_argument("--seconds", type=float, default=36.0, help="measured seconds per think run (default 36)")
    parser.add_argument("--warmup", type=float, default=8.0, help="unmeasured seconds first (default 8)")
    parser.add_argument("--ramp", type=float, default=8.0,
                        help="users start (/gate new) at random moments over this many seconds (default 8)")
    parser.add_argument("--closed-users", type=int, default=100, help="users in the closed-loop run (default 100)")
    parser.add_argument("--closed-seconds", type=float, default=20.0, help="measured seconds, closed run (default 20)")
    parser.add_argument("--no-closed", action="store_true", help="skip the closed-loop run")
    parser.add_argument("--per-channel", type=int, default=25, help="users per text channel (default 25)")
    parser.add_argument("--slash-share", type=float, default=0.1, help="moves sent as /gate move (default 0.1)")
    parser.add_argument("--undo-share", type=float, default=0.03, help="Undo presses (default 0.03)")
    parser.add_argument("--auto-share", type=float, default=0.05, help="Auto presses (default 0.05)")
    parser.add_argument("--move-cap", type=int, default=150, help="moves before a game is resigned (default 150)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--bot-core", type=int, default=None, help="the bot's core (default: the lowest allowed)")
    parser.add_argument("--no-pin", action="store_true", help="pin nothing (bot and generator share all cores)")
    parser.add_argument("--profile-bot", type=Path, default=os.environ.get(PROFILE_VARIABLE) or None,
                        help=f"run the bot under cProfile, one .prof per run in this directory (${PROFILE_VARIABLE})")
    parser.add_argument("--keep-logs", type=Path, default=None, help="copy each run's bot log into this directory")
    parser.add_argument("--profiler", choices=("cprofile", "pyinstrument"), default="cprofile",
                        help="how --profile-bot profiles (pyinstrument must be pip-installed; default cprofile)")
    parser.add_argument("--profile-top", type=int, default=25, help="functions shown per profile (default 25)")
    return parser.parse_args(argv)


def reproduce_command(args: argparse.Namespace) -> str:
    command = [".venv/bin/python", "benchmarks/bot_load.py", "--users", *map(str, args.users)]
    for option in ("think", "seconds", "warmup", "ramp", "closed_users", "closed_seconds", "per_channel", "slash_share",
                   "undo_share", "auto_share", "move_cap", "seed"):
        value = getattr(args, option)
        command += [f"--{option.replace('_', '-')}", f"{value:g}" if isinstance(value, float) else str(value)]
    if args.no_closed:
        command.append("--no-closed")
    if args.bot_core is not None:
        command += ["--bot-core", str(args.bot_core)]
    if args.no_pin:
        command.append("--no-pin")
    if args.profile_bot:
        command += ["--profile-bot", str(args.profile_bot), "--profiler", args.profiler]
    return shlex.join(command)


def pin(args: argparse.Namespace) -> tuple[int | None, set[int], str]:
    """Pin this process to the cores the bot does not use; (bot core, our cores, a note)."""
    if args.no_pin or not hasattr(os, "sched_setaffinity"):
        return None, set(), "not pinned: the bot, the fake and the users share every core"
    allowed = os.sched_getaffinity(0)
    bot_core = min(allowed) if args.bot_core is None else args.bot_core
    others = allowed - {bot_core}
    if not others:
        return bot_core, set(), f"only core {bot_core} is available: the bot shares it with the fake and the users"
    os.sched_setaffinity(0, others)
    return bot_core, others, (
        f"the bot (python -m gatebot run, a separate process) pinned to core {bot_core}; "
        f"the fake Discord and the users (this process, one event loop) on core(s) {sorted(others)}"
    )


def code_state() -> str:
    """The commit measured, and whether gatebot/ had uncommitted changes (with a digest of them)."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
        diff = subprocess.run(["git", "diff", "HEAD", "--", "gatebot"], cwd=REPO, capture_output=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "code: not a git checkout"
    if not diff:
        return f"code: {head}, gatebot/ clean"
    return f"code: {head} + uncommitted changes to gatebot/ (diff sha1 {hashlib.sha1(diff).hexdigest()[:10]})"


def load_average() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


async def run_all(configs: list[Config], args: argparse.Namespace, bot_core: int | None) -> list[Result]:
    results = []
    for config in configs:
        with tempfile.TemporaryDirectory(prefix=f"gatebot-botload-{config.name}-") as workdir:
            result = await measure(config, args, Path(workdir), bot_core)
        print(row(result), flush=True)
        results.append(result)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    configs = [Config("think", users, args.seconds, args.warmup, args.think, args.ramp) for users in args.users]
    if not args.no_closed:
        short = min(args.warmup, 2.0)
        configs.append(Config("closed", args.closed_users, args.closed_seconds, short, 0.0, min(args.ramp, short)))
    for directory in (args.profile_bot, args.keep_logs):
        if directory:
            directory.mkdir(parents=True, exist_ok=True)
    bot_core, _, note = pin(args)
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, "
          f"load average {load_average()} at start; {code_state()}")
    print(f"{note}; SQLite, a fresh file, bot and fake per run")
    print(
        f"latency = fake sends INTERACTION_CREATE -> receives the callback; think = exponential pause, mean "
        f"{args.think:g} s (offered = users / think); closed = no pause; users start over {args.ramp:g} s; "
        f"{args.seconds:g} s measured ({args.closed_seconds:g} s closed) after {args.warmup:g} s warm-up "
        f"({min(args.warmup, 2.0):g} s closed); >3s, no ans, errors, refused count "
        f"the whole run; bot cpu / gen cpu = share of one core, bot process / fake+users process; probe = ms "
        f"a fixed Python loop takes on the bot's core before/after the run (this machine's speed varies; lower "
        f"is faster)"
    )
    if args.profile_bot:
        print(f"PROFILING: the bot runs under {args.profiler} ({args.profile_bot}): slower than unprofiled")
    print()
    print(HEADER, flush=True)
    try:
        results = asyncio.run(run_all(configs, args, bot_core))
    except Exception:
        traceback.print_exc()
        return 2
    print()
    for result in results:
        print(by_kind(result))
    for result in results:
        lines = problems(result)
        if lines:
            print(f"\n  problems in {result.config.name}:")
            print("\n".join(lines))
    busy = [r.config.name for r in results if r.load_cpu > 0.8]
    if busy:
        print(f"\n  WARNING: the fake+users process was above 80% of its core in {busy}: the figures there may be "
              "the generator's limit, not the bot's")
    print()
    for line in verdicts(results):
        print(line)
    print(f"\nreproduce: {reproduce_command(args)}")
    if args.profile_bot:
        for result in results:
            if result.profile is not None:
                print_profile(result.profile, args.profile_top)
    return 1 if any(failures(r) for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
