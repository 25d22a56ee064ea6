"""A chat move beside discord.py's floor: CPU per interaction of gatebot and of two minimal bots, in one run.

Three bots, each in its own process pinned to one core (``os.sched_setaffinity``), each against
its own fake Discord of the end-to-end tests (``tests/fake_discord``: gateway and REST, all in
this process, pinned to the other cores, so the fake's CPU is never in a bot's figure):

* ``floor A``: an unmodified ``discord.Client`` (default intents and caches, no command tree) that
  answers every interaction with one fixed message (one callback) and every typed move with one
  fixed message in its channel: the least any discord.py bot can do per interaction;
* ``floor B``: the same client, making the REST calls gatebot makes for each kind of move, with
  fixed content (a board-sized text under a fixed row of buttons and a 25-option menu): for a
  slash move the board edited in the channel and a private one-line callback; for a button press
  one callback that edits the pressed message; for a typed move a reaction and the board edited,
  and for a typed take-back also a reply beside the message saying what was taken back (the board
  may be far up the channel: gatebot's note of a line that changed the game goes there too);
* ``gatebot``: ``python -m gatebot run``, as in production (SQLite, a fresh file), with two
  players: one with text boards (#general), one with emoji boards (#games).

Each player plays Gate deal 5 (floor bots: the same commands), three kinds of move, each a draw
and its take-back in turn so the game never ends: ``slash`` (``/gate move moves:d``, then
``/gate undo``), ``button`` (the board's Draw, then Undo, read from the board message as it now
is) and ``typed`` (``@Gate d``, then ``@Gate undo``, in the channel, mentioning the bot). One
interaction is sent at a time; the next waits until the bot has made all the REST calls that kind
of move takes (counted on warm-up moves, after which the bot fell quiet).

A bot's CPU is read from ``/proc/<pid>/stat`` (user + system, all threads) before and after
``--moves`` moves of one kind; CPU per interaction is that difference over the moves (the trailing
REST calls of the last move included). Rounds interleave the bots (and rotate their order; with
``--compare`` the two gatebots also swap places every other round: run an even number), and
within a round each kind of move is measured on every bot back to back, so all see the same
machine; the report gives each cell's median over the rounds and the ratios gatebot / floor A and
gatebot / floor B (with ``--compare``, also the median of each round's own ratio of the two
gatebots). About two minutes with the defaults on a quiet machine:

    .venv/bin/python benchmarks/chat_floor.py
    .venv/bin/python benchmarks/chat_floor.py --moves 200 --rounds 5
    .venv/bin/python benchmarks/chat_floor.py --profile /tmp/chat-floor    # gatebot under cProfile

``--profile DIR`` runs gatebot under cProfile, timed by the event loop thread's CPU time (not the
wall clock, which on a shared machine charges functions with other processes' turns; slower: its
CPU figures are not comparable with an unprofiled run's) and prints its hottest functions by own
time and by cumulative time. ``--compare DIR`` also runs the gatebot of another checkout (an
earlier commit's, say: ``git archive``), interleaved with the rest, so a change is measured before
and after in one run. ``--show-requests`` prints the REST calls each bot made for a draw and a
take-back of each kind.

The floor bots are this script too: ``chat_floor.py --floor a`` (or ``b``) runs one against the
fake named by ``GATEBOT_DISCORD_API_BASE`` and ``DISCORD_TOKEN``, syncing its ``/gate`` commands to
``FLOOR_GUILD_ID``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pstats
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # the fake Discord lives in tests/

import discord  # noqa: E402
from procstat import cpu_seconds  # noqa: E402  (run as a script: its folder is on the path)

from tests.fake_discord.base_url import API_BASE_VARIABLE, use_base_url  # noqa: E402

KINDS = ("slash", "button", "typed")
DEAL = 5
#: Seconds without a REST call after which a warm-up move is taken as answered in full.
QUIET = 0.25
#: Warm-up moves of each kind before each measured run (the first ones also count the calls a move takes). Enough
#: for the core to be busy a while before the CPU is read: a bot measured right after a light one read up to 1.5x
#: higher than the same code measured next (same-code runs with --compare, six warm-up moves).
WARMUP = 40
#: The goal of issue 29: a chat move at most this many times the minimal floor's CPU.
GOAL_RATIO = 1.5
FLOOR_GUILD_VARIABLE = "FLOOR_GUILD_ID"


# -- the floor bots (run as ``chat_floor.py --floor a|b``) -------------------------------------------

#: A text board's size: 8 lines of cards, as gatebot's text board has about.
FIXED_BOARD = "\n".join(f"`{i}` " + " ".join(["[K♠]", "[Q♥]", "[J♣]", "[T♦]"] * 3) for i in range(8))
FIXED_ANSWER = "Played d."
FIXED_UNDO = "Took back d."
FLOOR_COMMANDS: list[dict[str, Any]] = [{
    "name": "gate", "type": 1, "description": "Play the solitaire Gate",
    "options": [
        {"type": 1, "name": "new", "description": "Deal a new game", "options": [
            {"type": 4, "name": "deal", "description": "The deal", "required": False}]},
        {"type": 1, "name": "move", "description": "Play moves", "options": [
            {"type": 3, "name": "moves", "description": "The moves", "required": True}]},
        {"type": 1, "name": "undo", "description": "Take back your last move", "options": [
            {"type": 4, "name": "count", "description": "How many", "required": False}]},
    ],
}]


def fixed_view() -> discord.ui.View:
    """A board's components with fixed ids: Draw, Undo, Auto, Hint, Resign, and a menu of 25 moves."""
    view = discord.ui.View(timeout=None)
    for action in ("draw", "undo", "auto", "hint", "resign"):
        view.add_item(discord.ui.Button(label=action.title(), custom_id=f"floor:{action}"))
    options = [discord.SelectOption(label=f"Move the 7♠ from column {i % 9 + 1} onto the 8♥", value=f"m{i}")
               for i in range(25)]
    view.add_item(discord.ui.Select(custom_id="floor:move", placeholder="Move…", options=options))
    return view


class FloorA(discord.Client):
    """The minimal bot: one fixed message for each interaction and each message that mentions it."""

    async def setup_hook(self) -> None:
        assert self.application_id is not None
        await self.http.bulk_upsert_guild_commands(self.application_id, int(os.environ[FLOOR_GUILD_VARIABLE]),
                                                   FLOOR_COMMANDS)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(FIXED_ANSWER)

    async def on_message(self, message: discord.Message) -> None:
        if self.user is not None and self.user in message.mentions and not message.author.bot:
            await message.channel.send(FIXED_ANSWER)


class FloorB(FloorA):
    """gatebot's REST calls with fixed content: a board edited in place, and what each kind of move adds."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.boards: dict[int, int] = {}  # channel -> its board message
        self.view: discord.ui.View | None = None

    def board(self, channel_id: int | None) -> discord.PartialMessage:
        assert channel_id is not None
        return self.get_partial_messageable(channel_id).get_partial_message(self.boards[channel_id])

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if self.view is None:
            self.view = fixed_view()
        data: Any = interaction.data or {}
        if interaction.type is discord.InteractionType.component:  # the pressed board, edited by the callback
            await interaction.response.edit_message(content=FIXED_BOARD, view=self.view)
            return
        sub = data["options"][0]["name"]
        if sub == "new":  # a fresh board as the answer, remembered as the channel's board
            await interaction.response.send_message(FIXED_BOARD, view=self.view)
            assert interaction.channel_id is not None
            self.boards[interaction.channel_id] = (await interaction.original_response()).id
            return
        await self.board(interaction.channel_id).edit(content=FIXED_BOARD, view=self.view)
        await interaction.response.send_message(FIXED_ANSWER, ephemeral=True)

    async def on_message(self, message: discord.Message) -> None:
        if self.user is not None and self.user in message.mentions and not message.author.bot:
            if self.view is None:
                self.view = fixed_view()
            await message.add_reaction("✅")
            await self.board(message.channel.id).edit(content=FIXED_BOARD, view=self.view)
            if message.content.endswith("undo"):  # gatebot says what was taken back beside the message, too
                await message.reply(FIXED_UNDO, mention_author=False)


def run_floor(which: str) -> None:
    """Run floor bot ``which`` (a or b) against the fake the environment names, until SIGTERM."""
    use_base_url(os.environ[API_BASE_VARIABLE])
    client = (FloorA if which == "a" else FloorB)(intents=discord.Intents.default())

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(client.close()))
        async with client:
            await client.start(os.environ["DISCORD_TOKEN"])

    asyncio.run(main())


# -- the harness ---------------------------------------------------------------------------------


@dataclass
class Player:
    """One player of one bot: where they play, their board message, and the REST calls each kind of move takes."""

    cell: str  # what the figures are filed under: "floor A", "gatebot text", ...
    user: Any
    channel: Any
    board_id: int = 0
    calls: dict[str, int] = field(default_factory=dict)  # "typed draw", "typed take-back", ...
    turn: int = 0  # even: draw, odd: take it back


@dataclass
class Bot:
    name: str  # floor-a, floor-b, gatebot
    fake: Any
    process: asyncio.subprocess.Process
    log_path: Path
    players: list[Player]


#: gatebot run under cProfile timed by the event loop's own CPU (``time.thread_time``), not the wall clock: on a
#: shared machine a wall-clock profile charges whatever function was running with the time other processes had.
PROFILED = """
import cProfile, runpy, sys, time
profile = cProfile.Profile(time.thread_time)
sys.argv = ["gatebot", "run"]
try:
    profile.runcall(runpy.run_module, "gatebot", run_name="__main__", alter_sys=True)
finally:
    profile.dump_stats(sys.orig_argv[-1])
"""


def bot_command(name: str, profile: Path | None) -> list[str]:
    if name.startswith("gatebot"):
        if profile is not None:
            return [sys.executable, "-c", PROFILED, str(profile)]
        return [sys.executable, "-m", "gatebot", "run"]
    return [sys.executable, str(Path(__file__).resolve()), "--floor", name[-1]]


async def start(name: str, workdir: Path, core: int | None, profile: Path | None, source: Path = REPO) -> Bot:
    """A fake Discord and bot ``name`` connected to it, with its players' games dealt.

    ``source``: the checkout whose gatebot runs (another one's, to compare two versions in one run).
    """
    from tests.fake_discord import FakeDiscord, World

    world = World.default()
    fake = await FakeDiscord(world).start()
    env = {**os.environ, **fake.env(), "DATABASE_URL": f"sqlite+aiosqlite:///{workdir}/{name}.db",
           "GATEBOT_DEV_GUILD_ID": str(fake.guild.id), FLOOR_GUILD_VARIABLE: str(fake.guild.id),
           "PYTHONPATH": str(source), "LOG_LEVEL": "WARNING"}
    env.pop("WEB_PORT", None)
    log_path = workdir / f"{name}.log"

    def pin() -> None:
        if core is not None:
            os.sched_setaffinity(0, {core})

    with log_path.open("wb") as log:
        process = await asyncio.create_subprocess_exec(
            *bot_command(name, profile), env=env, cwd=workdir, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=log, preexec_fn=pin)
    try:
        await fake.wait_until_connected(timeout=60)
        await fake.wait_for_commands(fake.guild, timeout=30)
    except Exception as error:
        raise RuntimeError(f"{name} did not start; its log:\n{log_path.read_text()[-3000:]}") from error
    players = [Player("floor " + name[-1].upper(), fake.user("alice"), fake.channel)]
    if name.startswith("gatebot"):
        second = fake.guild.channel("games")
        label = "gatebot" if source == REPO else "compared"
        players = [Player(f"{label} text", fake.user("alice"), fake.channel),
                   Player(f"{label} emoji", fake.user("bob"), second)]
        chosen = await fake.send_command("gate settings", {"style": "emoji"}, user=fake.user("bob"), channel=second)
        await chosen.settled(timeout=30)
    bot = Bot(name, fake, process, log_path, players)
    for player in players:
        handle = await fake.send_command("gate new", {"deal": DEAL}, user=player.user, channel=player.channel)
        await handle.settled(timeout=30)
        await quiet(fake)
        assert handle.original is not None, f"{name} answered /gate new with no message"
        player.board_id = handle.original.id
    return bot


async def stop(bot: Bot) -> None:
    if bot.process.returncode is None:
        bot.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(bot.process.wait(), 30)
        except TimeoutError:
            bot.process.kill()
            await bot.process.wait()
    await bot.fake.stop()


async def quiet(fake: Any, seconds: float | None = None, timeout: float = 30) -> None:
    """Wait until the bot has made no REST call for ``seconds`` (``QUIET`` unless given)."""
    seconds = QUIET if seconds is None else seconds
    deadline = time.perf_counter() + timeout
    count, since = len(fake.requests), time.perf_counter()
    while time.perf_counter() - since < seconds:
        if time.perf_counter() > deadline:
            raise RuntimeError("the bot never fell quiet")
        await asyncio.sleep(0.01)
        if len(fake.requests) != count:
            count, since = len(fake.requests), time.perf_counter()


def button_id(message: Any, action: str) -> str | None:
    return next((cid for cid in message.custom_ids() if cid.split(":")[1:2] == [action]), None)


async def move(bot: Bot, player: Player, kind: str) -> Any:
    """Send one move of ``kind`` (a draw or its take-back, in turn); the fake's handle of it."""
    fake = bot.fake
    draw = player.turn % 2 == 0
    player.turn += 1
    where = {"user": player.user, "channel": player.channel}
    if kind == "slash":
        if draw:
            return await fake.send_command("gate move", {"moves": "d"}, **where)
        return await fake.send_command("gate undo", **where)
    if kind == "typed":
        return await fake.send_message(f"{fake.bot.mention} {'d' if draw else 'undo'}", author=player.user,
                                       channel=player.channel)
    board = fake.message(player.board_id)
    action = "draw" if draw else "undo"
    custom_id = button_id(board, action)
    if custom_id is None:  # floor A's answer has no buttons: the press is sent all the same
        return await fake.click(board, f"floor:{action}", user=player.user, strict=False)
    return await fake.click(board, custom_id, user=player.user)


async def one(bot: Bot, player: Player, kind: str) -> None:
    """One move, waited for until the bot has made every REST call that kind takes."""
    fake = bot.fake
    before = len(fake.requests)
    key = f"{kind} {'draw' if player.turn % 2 == 0 else 'take-back'}"  # a take-back may take other calls
    await move(bot, player, kind)
    if key not in player.calls:
        await quiet(fake)
        player.calls[key] = len(fake.requests) - before
        return
    target = before + player.calls[key]
    await fake.wait_for(lambda: len(fake.requests) >= target or None, timeout=30,
                        what=f"{player.calls[key]} REST calls of a {key} from {bot.name}")


def check(bot: Bot, player: Player, kind: str) -> None:
    """The last moves were answered as they should be: no apology, no refusal, the board still live."""
    from gatebot.bot.errors import APOLOGY

    fake = bot.fake
    for request in fake.requests[-20:]:
        body = request.json if isinstance(request.json, dict) else {}
        content = str(body.get("content") or (body.get("data") or {}).get("content") or "")
        if content.startswith(APOLOGY[:30]) or request.status >= 400:
            raise RuntimeError(f"{bot.name} answered a {kind} move badly: {request.method} {request.path} "
                               f"{request.status} {content[:200]}")
    if bot.name.startswith("gatebot") and button_id(fake.message(player.board_id), "draw") is None:
        raise RuntimeError(f"gatebot's board for {player.cell} has no Draw button: {fake.message(player.board_id)}")


async def measure(bot: Bot, player: Player, kind: str, moves: int) -> tuple[float, float]:
    """CPU seconds per move of ``kind`` over ``moves`` moves (after a warm-up): (all threads, the event loop's)."""
    for _ in range(WARMUP if player.turn % 2 == 0 else WARMUP + 1):
        await one(bot, player, kind)
    await quiet(bot.fake, 0.05)
    check(bot, player, kind)
    loop, cpu = cpu_seconds(bot.process.pid)
    for _ in range(moves):
        await one(bot, player, kind)
    await quiet(bot.fake, 0.05)  # the last move's trailing work is counted
    loop_after, after = cpu_seconds(bot.process.pid)
    check(bot, player, kind)
    return (after - cpu) / moves, (loop_after - loop) / moves


def show_requests(bot: Bot, player: Player, kind: str) -> str:
    """The REST calls of the last move of ``kind`` (a draw or a take-back: the player's turn says which)."""
    fake = bot.fake
    before = len(fake.requests)
    key = f"{kind} {'take-back' if player.turn % 2 == 0 else 'draw'}"
    return f"{player.cell:>14} {key:<16}: " + ", ".join(
        r.route for r in fake.requests[before - player.calls[key]:before])


def pin_harness(no_pin: bool) -> tuple[int | None, str]:
    if no_pin or not hasattr(os, "sched_setaffinity"):
        return None, "not pinned"
    allowed = os.sched_getaffinity(0)
    core = min(allowed)
    others = allowed - {core}
    if not others:
        return core, f"one core only ({core}): bots and fakes share it"
    os.sched_setaffinity(0, others)
    return core, f"bots pinned to core {core}; the fakes and this harness on {sorted(others)}"


Results = dict[tuple[str, str], list[tuple[float, float]]]


async def run(args: argparse.Namespace, core: int | None, workdir: Path) -> Results:
    results: Results = {}
    names = ["floor-a", "floor-b", "gatebot"]
    bots: list[Bot] = []
    try:
        for name in names:
            profile = args.profile / "gatebot.prof" if args.profile is not None and name == "gatebot" else None
            bots.append(await start(name, workdir, core, profile))
        if args.compare is not None:
            bots.append(await start("gatebot-compared", workdir, core, None, args.compare.resolve()))
        for round_ in range(args.rounds):
            order = bots[round_ % len(bots):] + bots[:round_ % len(bots)]
            if round_ % 2 and len(bots) > 3:  # the two gatebots swap places every other round
                first, second = order.index(bots[2]), order.index(bots[3])
                order[first], order[second] = order[second], order[first]
            for kind in KINDS:  # each kind's cells measured back to back, so they see the same machine
                for bot in order:
                    for player in bot.players:
                        per_move = await measure(bot, player, kind, args.moves)
                        results.setdefault((player.cell, kind), []).append(per_move)
            print(f"round {round_ + 1}/{args.rounds}: " + ", ".join(
                f"{cell} {kind} {1000 * runs[-1][0]:.2f}" for (cell, kind), runs in results.items()), flush=True)
        if args.show_requests:
            print("\nREST calls of one move (a draw and a take-back of each kind):")
            for bot in bots:
                for player in bot.players:
                    for kind in KINDS:
                        for _ in range(2):  # a draw and a take-back
                            await one(bot, player, kind)
                            await quiet(bot.fake, 0.05)
                            print(show_requests(bot, player, kind))
    finally:
        for bot in bots:
            await stop(bot)
            problems = [line for line in bot.log_path.read_text(errors="replace").splitlines()
                        if ("ERROR" in line or "Traceback" in line)]
            if problems:
                print(f"{bot.name}'s log has errors:\n  " + "\n  ".join(problems[:5]))
    return results


def report(results: Results, args: argparse.Namespace) -> None:
    cells = list(dict.fromkeys(cell for cell, _ in results))
    median = {key: statistics.median(run[0] for run in runs) for key, runs in results.items()}
    loop = {key: statistics.median(run[1] for run in runs) for key, runs in results.items()}
    print(f"\nCPU ms per interaction, median of {args.rounds} rounds of {args.moves} moves "
          f"(load average {os.getloadavg()[0]:.2f} at the end)")
    print(f"{'':<14} " + " ".join(f"{kind:>8}" for kind in KINDS))
    for cell in cells:
        print(f"{cell:<14} " + " ".join(f"{1000 * median[(cell, kind)]:>8.2f}" for kind in KINDS))
    print("of which the event loop (the main thread; the rest is other threads: SQLite's for gatebot)")
    for cell in cells:
        print(f"{cell:<14} " + " ".join(f"{1000 * loop[(cell, kind)]:>8.2f}" for kind in KINDS))
    for floor in ("floor A", "floor B"):
        for cell in cells:
            if cell.startswith("floor"):
                continue
            ratios = [median[(cell, kind)] / median[(floor, kind)] for kind in KINDS]
            print(f"{cell} / {floor}: " + ", ".join(f"{kind} {r:.2f}x" for kind, r in zip(KINDS, ratios, strict=True)))
    for style in ("text", "emoji"):
        if (f"compared {style}", KINDS[0]) in median:
            ratios = [median[(f"gatebot {style}", kind)] / median[(f"compared {style}", kind)] for kind in KINDS]
            paired = [statistics.median(now[0] / then[0] for now, then in zip(
                results[(f"gatebot {style}", kind)], results[(f"compared {style}", kind)], strict=True))
                for kind in KINDS]
            print(f"gatebot {style} / compared {style}: "
                  + ", ".join(f"{kind} {r:.2f}x" for kind, r in zip(KINDS, ratios, strict=True))
                  + " (median of the rounds' own ratios: "
                  + ", ".join(f"{kind} {r:.2f}x" for kind, r in zip(KINDS, paired, strict=True)) + ")")
    worst = max(median[(cell, kind)] / median[("floor A", kind)]
                for cell in cells if cell.startswith("gatebot ") for kind in KINDS)
    verdict = "PASS" if worst <= GOAL_RATIO else "FAIL"
    print(f"GOAL a chat move at most {GOAL_RATIO}x floor A's CPU: {verdict} (worst {worst:.2f}x)")
    spread = max((max(runs)[0] - min(runs)[0]) / median[key] for key, runs in results.items())
    print(f"(widest spread of a cell over the rounds: {spread:.0%} of its median)")


def print_profile(path: Path, top: int) -> None:
    if not path.exists():
        print(f"(no profile at {path}: gatebot did not exit cleanly)")
        return
    for key in ("tottime", "cumulative"):
        print(f"\ngatebot under cProfile ({path}): top {top} by {key}")
        pstats.Stats(str(path), stream=sys.stdout).strip_dirs().sort_stats(key).print_stats(top)


def main(argv: Sequence[str] | None = None) -> int:
    global QUIET
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--moves", type=int, default=150, help="measured moves per kind, bot and round (default 150)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the bots interleaved (default 3)")
    parser.add_argument("--profile", type=Path, default=None, help="run gatebot under cProfile, its profile here")
    parser.add_argument("--profile-top", type=int, default=30, help="functions shown of the profile (default 30)")
    parser.add_argument("--compare", type=Path, default=None,
                        help="also run the gatebot of this checkout (its cells: compared text, compared emoji)")
    parser.add_argument("--show-requests", action="store_true", help="print the REST calls of a move of each kind")
    parser.add_argument("--no-pin", action="store_true", help="pin nothing")
    parser.add_argument("--quiet", type=float, default=None,
                        help=f"seconds without a REST call that end a warm-up move (default {QUIET}, {4 * QUIET} "
                             "under --profile): longer on a loaded machine, lest a move's calls be undercounted")
    parser.add_argument("--floor", choices=("a", "b"), help=argparse.SUPPRESS)  # run a floor bot
    args = parser.parse_args(argv)
    if args.floor:
        run_floor(args.floor)
        return 0
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    QUIET = args.quiet if args.quiet is not None else 4 * QUIET if args.profile is not None else QUIET
    core, note = pin_harness(args.no_pin)
    print(f"{note}; discord.py {discord.__version__}; load average {os.getloadavg()[0]:.2f} at the start")
    with tempfile.TemporaryDirectory(prefix="gatebot-chat-floor-") as workdir:
        results = asyncio.run(run(args, core, Path(workdir)))
    report(results, args)
    if args.profile is not None:
        print_profile(args.profile / "gatebot.prof", args.profile_top)
    compare = f" --compare {args.compare}" if args.compare is not None else ""
    print(f"\nreproduce: .venv/bin/python benchmarks/chat_floor.py --moves {args.moves} --rounds {args.rounds}"
          f"{compare}")
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
