"""Bot memory: what ``gatebot run`` and its hint workers hold, at ready and after 40 players, beside discord.py's floor.

Each bot runs in its own process tree against its own fake Discord of the end-to-end tests
(``tests/fake_discord``: gateway and REST, in this process), all of them alive together:

* ``floor A``: an unmodified minimal ``discord.Client`` answering every interaction with one fixed
  message (``chat_floor.py --floor a``): what any discord.py bot holds;
* ``gatebot``: ``python -m gatebot run`` of this checkout, as in production (SQLite, a fresh file,
  its default hint workers);
* ``before`` (with ``--against DIR``): the same of another checkout (``git archive`` of main, say),
  so a change is measured before and after in one run.

Each guild has ``--players`` members (40 by default). A bot is measured at *ready* (logged in,
warmed up, its hint workers started and settled), then its players play for ``--seconds``: as in
``bot_load.py``, each deals, plays moves from their board's menu and buttons, now and then types
``/gate move``, and presses Hint (``--hint-share`` of their turns), pausing ``--think`` s on
average between turns. Floor A's players send ``/gate new`` at the same pace (it has no boards).
Then the bot is measured again (*after*), and the peak over the load is reported too.

A process tree's memory is read from Linux's ``/proc``, for the bot and every process it started
(hint workers, multiprocessing's helpers):

* ``RSS``: resident pages, a page shared with another process counted in each (overstates);
* ``PSS`` (``smaps_rollup``): each resident page divided by the processes mapping it;
* ``USS``: the process's private pages only (what stopping it would free);
* ``tree``: the physical pages the whole tree holds, each counted once however many of its
  processes map it (``/proc/PID/pagemap``'s frame numbers; needs root, else ``-``). Shared
  libraries count in full here, as they would on a host running nothing else: the honest "in
  all", and the figure the goal is judged by (issue 29: at most 150 MB for 40 active players).

About two minutes with the defaults, from the repository root:

    .venv/bin/python benchmarks/bot_memory.py
    .venv/bin/python benchmarks/bot_memory.py --against /tmp/before      # git -C . archive main | tar -x -C /tmp/before
    .venv/bin/python benchmarks/bot_memory.py --players 40 --seconds 60 --hint-share 0.3
"""

from __future__ import annotations

import argparse
import array
import asyncio
import contextlib
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the fake Discord lives in tests/

from bot_load import (  # noqa: E402  (run as a script: its folder is on the path)
    ANSWER_TIMEOUT,
    Action,
    Seat,
    after_answer,
    choose,
    judge,
    read_board,
    scan_log,
    send,
    settle,
)
from bot_load import Outcome as _Outcome  # noqa: E402
from chat_floor import FLOOR_GUILD_VARIABLE  # noqa: E402

from gatebot.bot.errors import APOLOGY  # noqa: E402
from tests.fake_discord import FakeDiscord, InteractionRefused, World  # noqa: E402
from tests.fake_discord.crowd import AnswerFeed, add_crowd, watch_answers  # noqa: E402

#: The goal of issue 29: the bot with its hint workers at most this many MB in all for 40 active players.
GOAL_MB = 150.0
GOAL_PLAYERS = 40
PAGE = os.sysconf("SC_PAGE_SIZE")
MB = 1024 * 1024


# -- reading a process tree's memory -------------------------------------------------------------


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from every ``/proc/N/stat``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return sorted(found)


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it, parents first."""
    pids, index = [pid], 0
    while index < len(pids):
        pids.extend(children(pids[index]))
        index += 1
    return pids


def role(pid: int, root: int) -> str:
    """What a process of the tree is, from its command line."""
    if pid == root:
        return "bot"
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    if "resource_tracker" in command:
        return "tracker"
    if "forkserver" in command:
        parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        return "forkserver" if parent == root else "worker"
    if "spawn_main" in command:
        return "worker"
    return "other"


@dataclass(frozen=True, slots=True)
class Usage:
    """One process's memory, in bytes."""

    role: str
    rss: int
    pss: int
    uss: int


def usage(pid: int, root: int) -> Usage | None:
    """``pid``'s RSS, PSS and USS from ``/proc/PID/smaps_rollup``; None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    values = {}
    for line in text.splitlines()[1:]:
        name, _, rest = line.partition(":")
        values[name] = int(rest.split()[0]) * 1024
    return Usage(role(pid, root), values.get("Rss", 0), values.get("Pss", 0),
                 values.get("Private_Clean", 0) + values.get("Private_Dirty", 0))


def frames(pids: Sequence[int]) -> int | None:
    """Bytes of the distinct physical pages the processes ``pids`` hold: a page shared by several counted once.

    Read from ``/proc/PID/pagemap``: bit 63 says a page is present, bits 0-54 its frame number.
    Without CAP_SYS_ADMIN the kernel writes 0 for every frame: None then.
    """
    seen: set[int] = set()
    for pid in pids:
        try:
            maps = Path(f"/proc/{pid}/maps").read_text().splitlines()
            with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
                for line in maps:
                    start, end = (int(bound, 16) for bound in line.split()[0].split("-"))
                    if start >= 1 << 47:  # [vsyscall]: unreadable, and no memory of the process's
                        continue
                    pagemap.seek(start // PAGE * 8)
                    entries = array.array("Q")
                    entries.frombytes(pagemap.read((end - start) // PAGE * 8))
                    seen.update(entry & ((1 << 55) - 1) for entry in entries if entry >> 63)
        except OSError:  # the process ended meanwhile
            continue
    if seen and seen <= {0}:
        return None
    seen.discard(0)
    return len(seen) * PAGE


@dataclass
class Snapshot:
    """A bot's process tree at one moment."""

    processes: list[Usage]
    tree: int | None

    @property
    def rss(self) -> int:
        return sum(p.rss for p in self.processes)

    @property
    def pss(self) -> int:
        return sum(p.pss for p in self.processes)

    @property
    def uss(self) -> int:
        return sum(p.uss for p in self.processes)


def snapshot(root: int) -> Snapshot:
    pids = tree(root)
    found = [usage(pid, root) for pid in pids]
    return Snapshot([u for u in found if u is not None], frames(pids))


#: ``python -c`` this to run ``gatebot run`` under tracemalloc, a snapshot dumped on each SIGUSR1 (``--tracemalloc``).
TRACED = """
import itertools, runpy, signal, sys, tracemalloc
tracemalloc.start(1)
taken = itertools.count()
signal.signal(signal.SIGUSR1, lambda *_: tracemalloc.take_snapshot().dump({path!r}.format(next(taken))))
sys.argv = ["gatebot", "run"]
runpy.run_module("gatebot", run_name="__main__", alter_sys=True)
"""


async def allocations(bot: Bot, workdir: Path, number: int, top: int) -> str:
    """The top ``top`` places that allocated what the bot's Python heap holds now (under ``--tracemalloc``)."""
    import tracemalloc

    path = workdir / f"{bot.name.replace(' ', '-').lower()}-{number}.tracemalloc"
    bot.process.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 30
    while not path.exists() or path.stat().st_size == 0:
        if time.monotonic() > deadline:
            return "(no tracemalloc snapshot)"
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)  # written in full
    stats = tracemalloc.Snapshot.load(str(path)).statistics("filename")
    total = sum(stat.size for stat in stats)
    lines = [f"{bot.name}: Python allocations held, {total / MB:.1f} MB, by file (top {top}):"]
    for stat in stats[:top]:
        where = stat.traceback[0].filename
        for prefix in (str(REPO) + "/", sys.prefix + "/lib/python3.11/site-packages/"):
            where = where.removeprefix(prefix)
        lines.append(f"  {stat.size / MB:7.2f} MB {stat.count:>8} blocks  {where}")
    return "\n".join(lines)


# -- the bots ------------------------------------------------------------------------------------------


@dataclass
class Bot:
    name: str  # floor A, gatebot, before
    fake: FakeDiscord
    feed: AnswerFeed
    crowd: list[Seat]
    process: asyncio.subprocess.Process
    log_path: Path
    snapshots: dict[str, Snapshot] = field(default_factory=dict)
    peak_pss: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    hint_seconds: list[float] = field(default_factory=list)  #: from the press to the hint shown, each hint
    workers: int | None = None  #: GATEBOT_HINT_WORKERS given (None: the bot's default)

    @property
    def gatebot(self) -> bool:
        return self.name != "floor A"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


async def start(
    name: str, source: Path | None, workdir: Path, args: argparse.Namespace, workers: int | None = None
) -> Bot:
    """A fake Discord with ``args.players`` members, and bot ``name`` connected to it, ready.

    ``source``: the checkout whose gatebot runs (None: floor A); ``workers``: its GATEBOT_HINT_WORKERS.
    """
    world = World.default()
    members = add_crowd(world, world.guilds[0], args.players, channels=max(1, -(-args.players // args.per_channel)))
    fake = await FakeDiscord(world).start()
    feed = watch_answers(fake)
    slug = name.replace(" ", "-").lower()
    env = {**os.environ, **fake.env(), "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/{slug}.db",
           "GATEBOT_DEV_GUILD_ID": str(fake.guild.id), FLOOR_GUILD_VARIABLE: str(fake.guild.id),
           "LOG_LEVEL": "INFO", "PYTHONPATH": str(source or REPO)}
    env.pop("WEB_PORT", None)
    env.pop("METRICS_PORT", None)
    env.pop("GATEBOT_HINT_WORKERS", None)
    if workers is not None:
        env["GATEBOT_HINT_WORKERS"] = str(workers)
    if source is None:
        command = [sys.executable, str(Path(__file__).with_name("chat_floor.py")), "--floor", "a"]
    elif args.tracemalloc:
        command = [sys.executable, "-c", TRACED.format(path=str(workdir / f"{slug}-{{}}.tracemalloc"))]
    else:
        command = [sys.executable, "-m", "gatebot", "run"]
    log_path = workdir / f"{slug}.log"
    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            *command, env=env, cwd=workdir, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=log)
    seats = [Seat(index, user, channel, random.Random(args.seed * 1_000_003 + index))
             for index, (user, channel) in enumerate(members)]
    bot = Bot(name, fake, feed, seats, process, log_path, workers=workers)
    try:
        await fake.wait_until_connected(timeout=90)
        await fake.wait_for_commands(fake.guild, timeout=60)
        if bot.gatebot:
            await wait_for_log(bot, "warmed up in", 90)
    except Exception as error:
        await stop(bot)
        raise RuntimeError(f"{name} did not start; its log:\n{bot.log()[-3000:]}") from error
    return bot


async def wait_for_log(bot: Bot, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in bot.log():
        if bot.process.returncode is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{bot.name} never logged {text!r}")
        await asyncio.sleep(0.1)


async def settled(bot: Bot, timeout: float = 60.0) -> Snapshot:
    """The tree's memory once it stops changing: the workers have started and imported what they import."""
    deadline = time.monotonic() + timeout
    last = snapshot(bot.process.pid)
    while time.monotonic() < deadline:
        await asyncio.sleep(1.0)
        now = snapshot(bot.process.pid)
        if len(now.processes) == len(last.processes) and abs(now.rss - last.rss) < MB:
            return now
        last = now
    return last


async def stop(bot: Bot) -> None:
    if bot.process.returncode is None:
        bot.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(bot.process.wait(), 30)
        except TimeoutError:
            bot.process.kill()
            await bot.process.wait()
    await bot.fake.stop()


# -- the players ---------------------------------------------------------------------------------------


async def hint(bot: Bot, seat: Seat, custom_id: str) -> str:
    """Press the board's Hint and wait for the answer; how it went."""
    fake, feed = bot.fake, bot.feed
    assert seat.board_id is not None
    pressed = time.monotonic()
    handle = await fake.click(fake.message(seat.board_id), custom_id, user=seat.user)
    await feed.answered(handle, ANSWER_TIMEOUT)
    callback = handle.record.callback
    if callback is None:
        return "hint unanswered"
    content = callback.content or ""
    if callback.type == 5:  # "thinking…", then the hint in its place (``@original`` edited) or a follow-up
        def done() -> bool:
            original = handle.original
            return bool(handle.followups) or (original is not None and bool(original.edited_at))

        if not await feed.until(done, ANSWER_TIMEOUT):
            return "hint unanswered"
        original = handle.original
        content = handle.followups[0].content if handle.followups else original.content if original else ""
    if content.startswith(APOLOGY[:30]):
        return "hint error"
    bot.hint_seconds.append(time.monotonic() - pressed)
    return "hint"


async def player(bot: Bot, seat: Seat, stop_at: float, args: argparse.Namespace) -> None:
    """One person at ``bot``: plays (floor A: sends commands) and asks hints until ``stop_at``."""
    fake, feed, rng = bot.fake, bot.feed, seat.rng
    await asyncio.sleep(rng.uniform(0, min(args.think * 2, args.seconds / 4)))
    while time.monotonic() < stop_at:
        if not bot.gatebot:
            handle = await fake.send_command("gate new", {"deal": 1}, user=seat.user, channel=seat.channel)
            await feed.answered(handle, ANSWER_TIMEOUT)
            bot.outcomes["ok" if handle.record.callback is not None else "unanswered"] += 1
        else:
            board = None if seat.board_id is None else read_board(fake.message(seat.board_id))
            hint_id = next((cid for cid in fake.message(seat.board_id).custom_ids()
                            if cid.startswith("gate:hint:")), None) if board is not None and board.live else None
            if hint_id is not None and seat.confirm is None and rng.random() < args.hint_share:
                bot.outcomes[await hint(bot, seat, hint_id)] += 1
            else:
                await play(bot, seat, choose(seat, board, args))
        await asyncio.sleep(rng.expovariate(1 / args.think))


async def play(bot: Bot, seat: Seat, action: Action) -> None:
    """One turn of ``bot_load.py``'s player: send it, judge the answer, learn the board."""
    fake, feed = bot.fake, bot.feed
    edits = 0 if seat.board_id is None else len(fake.message(seat.board_id).edited_at)
    try:
        handle = await send(fake, seat, action)
    except InteractionRefused:
        bot.outcomes["client refused"] += 1
        seat.board_id = None
        return
    await feed.answered(handle, ANSWER_TIMEOUT)
    status, _, latency = judge(action, handle)
    outcome = _Outcome(action.kind, handle.sent_at, latency, status, "", handle)
    if status == "ok":
        outcome.settled = await settle(fake, feed, seat, handle, edits)
    games: Counter[str] = Counter()
    after_answer(fake, seat, action, outcome, games)
    confirmed = action.kind == "confirm" and status == "ok" and await feed.followed_up(handle, ANSWER_TIMEOUT)
    if confirmed and handle.followups[0].custom_ids():  # "Dealing…", then the new board as a follow-up
        seat.board_id, seat.moves = handle.followups[0].id, 0
    bot.outcomes[status] += 1


async def load(bot: Bot, args: argparse.Namespace) -> None:
    """``args.players`` players at ``bot`` for ``args.seconds``, the tree's PSS sampled for its peak."""
    stop_at = time.monotonic() + args.seconds
    tasks = [asyncio.create_task(player(bot, seat, stop_at, args)) for seat in bot.crowd]
    while time.monotonic() < stop_at:
        await asyncio.sleep(2.0)
        bot.peak_pss = max(bot.peak_pss, sum(u.pss for pid in tree(bot.process.pid)
                                             if (u := usage(pid, bot.process.pid)) is not None))
    await asyncio.gather(*tasks)


# -- the run -------------------------------------------------------------------------------------------


async def run(args: argparse.Namespace, workdir: Path) -> list[Bot]:
    bots: list[Bot] = []
    try:
        plan: list[tuple[str, Path | None, int | None]] = [("floor A", None, None), ("gatebot", REPO, None)]
        if args.against is not None:
            plan.append(("before", args.against.resolve(), None))
        plan += [(f"gatebot {n}w", REPO, n) for n in args.also_workers]
        for name, source, workers in plan:
            bots.append(await start(name, source, workdir, args, workers))
            print(f"{name} ready", flush=True)
        for bot in bots:  # measured together: every bot alive, none under load
            bot.snapshots["ready"] = await settled(bot)
        if args.tracemalloc:
            for bot in bots:
                if bot.gatebot:
                    print(await allocations(bot, workdir, 0, args.tracemalloc), flush=True)
        for bot in bots:
            await load(bot, args)
            await asyncio.sleep(1.0)  # answers still in flight settle
            bot.snapshots["after"] = await settled(bot, timeout=10)
            print(f"{bot.name} after {args.seconds:g} s of {args.players} players: "
                  + ", ".join(f"{kind} {count}" for kind, count in sorted(bot.outcomes.items())), flush=True)
            if args.tracemalloc and bot.gatebot:
                print(await allocations(bot, workdir, 1, args.tracemalloc), flush=True)
    finally:
        for bot in bots:
            await stop(bot)
            levels, examples, _ = scan_log(bot.log())
            if levels:
                print(f"{bot.name}'s log: {dict(levels)}: " + " | ".join(examples))
    return bots


def mb(value: int | None) -> str:
    return "-" if value is None else f"{value / MB:.1f}"


def report(bots: list[Bot], args: argparse.Namespace) -> None:
    print("\nMemory, MB (RSS: resident, shared pages in each process; PSS: shared pages divided; "
          "USS: private; tree: the tree's pages, each once)")
    print(f"{'bot':<10} {'stage':<6} {'procs':>5} {'RSS':>7} {'PSS':>7} {'USS':>7} {'tree':>7}   "
          f"per process: role RSS/PSS/USS")
    for bot in bots:
        for stage, shot in bot.snapshots.items():
            each = ", ".join(f"{p.role} {p.rss / MB:.0f}/{p.pss / MB:.0f}/{p.uss / MB:.0f}" for p in shot.processes)
            print(f"{bot.name:<10} {stage:<6} {len(shot.processes):>5} {mb(shot.rss):>7} {mb(shot.pss):>7} "
                  f"{mb(shot.uss):>7} {mb(shot.tree):>7}   {each}")
        print(f"{bot.name:<10} {'peak':<6} {'':>5} {'':>7} {mb(bot.peak_pss):>7}   (PSS, sampled every 2 s under load)")
    print("\nHints, seconds from the press to the hint shown (the workers' share of the load)")
    for bot in bots:
        if bot.hint_seconds:
            times = sorted(bot.hint_seconds)
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            workers = "default" if bot.workers is None else str(bot.workers)
            print(f"{bot.name:<12} workers {workers:<8} {len(times):>4} hints  median {statistics.median(times):.3f}  "
                  f"p95 {p95:.3f}  max {times[-1]:.3f}")
    floor = next(bot for bot in bots if not bot.gatebot)
    for bot in bots:
        if not bot.gatebot or "after" not in bot.snapshots:
            continue
        after, base = bot.snapshots["after"], floor.snapshots.get("after")
        if base is not None and after.tree is not None and base.tree is not None:
            print(f"{bot.name} / floor A after the load: tree {after.tree / base.tree:.2f}x, "
                  f"PSS {after.pss / base.pss:.2f}x")
        workers = [p for p in after.processes if p.role == "worker"]
        if workers:
            print(f"{bot.name}: a worker after the load holds {statistics.median(p.uss for p in workers) / MB:.1f} MB "
                  f"of its own (USS, median of {len(workers)})")
    gatebot = next(bot for bot in bots if bot.name == "gatebot")
    shot = gatebot.snapshots.get("after")
    if shot is not None:
        total = shot.tree if shot.tree is not None else shot.pss
        verdict = "PASS" if total <= GOAL_MB * MB and args.players >= GOAL_PLAYERS else "FAIL"
        verdict += " (not judged: run under tracemalloc, which holds as much again)" if args.tracemalloc else ""
        print(f"GOAL the bot with its hint workers at most {GOAL_MB:g} MB in all for {GOAL_PLAYERS} active players: "
              f"{verdict} ({mb(total)} MB {'tree' if shot.tree is not None else 'PSS'} after {args.players} players)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=GOAL_PLAYERS, help=f"players per bot (default {GOAL_PLAYERS})")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds of play per bot (default 30)")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time between turns, s (default 2)")
    parser.add_argument("--hint-share", type=float, default=0.2, help="turns that press Hint (default 0.2)")
    parser.add_argument("--against", type=Path, default=None, help="also run the gatebot of this checkout")
    parser.add_argument("--also-workers", type=int, nargs="*", default=[], metavar="N",
                        help="also run this checkout's gatebot with GATEBOT_HINT_WORKERS=N, for each N")
    parser.add_argument("--per-channel", type=int, default=10, help="players per text channel (default 10)")
    parser.add_argument("--slash-share", type=float, default=0.1, help="moves sent as /gate move (default 0.1)")
    parser.add_argument("--undo-share", type=float, default=0.03, help="Undo presses (default 0.03)")
    parser.add_argument("--auto-share", type=float, default=0.05, help="Auto presses (default 0.05)")
    parser.add_argument("--move-cap", type=int, default=150, help="moves before a game is resigned (default 150)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--tracemalloc", type=int, default=0, metavar="N",
                        help="run gatebot under tracemalloc and print the N files that allocated most of what it "
                             "holds, at ready and after (slower, more memory: to find where it goes, not for figures)")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    with tempfile.TemporaryDirectory(prefix="gatebot-memory-") as workdir:
        bots = asyncio.run(run(args, Path(workdir)))
    report(bots, args)
    against = f" --against {args.against}" if args.against is not None else ""
    against += f" --also-workers {' '.join(map(str, args.also_workers))}" if args.also_workers else ""
    print(f"\nreproduce: .venv/bin/python benchmarks/bot_memory.py --players {args.players} --seconds {args.seconds:g} "
          f"--think {args.think:g} --hint-share {args.hint_share:g}{against}")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
