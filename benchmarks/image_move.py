"""An image-style chat move: CPU per interaction of gatebot with picture boards, beside discord.py's floor, in one run.

The harness of ``benchmarks/chat_floor.py`` (its fake Discord, its moves, its CPU reading from
``/proc``, each bot in its own process pinned to one core), with players who chose picture boards
(``/gate settings style:image``): one with the wide picture (``compact:False``, #general) and one
with the phone picture (the default layout, #games). Beside them *floor A*, an unmodified
``discord.Client`` that answers each interaction with one fixed message, and with ``--compare DIR``
the gatebot of another checkout (``git archive`` of main, say) with the same two players. Rounds
interleave the bots; the report gives each cell's median CPU ms per interaction over the rounds,
slash, button and typed (a draw and its take-back in turn, on Gate deal 5), and the ratios::

    .venv/bin/python benchmarks/image_move.py --moves 100 --rounds 3 --compare /tmp/before

Every move sends a new picture: the bot draws it in a worker thread (``asyncio.to_thread``), so
the figure counts all of the process's threads; the event loop's own share is shown beside it.
``--profile DIR`` runs gatebot under cProfile and prints its hottest functions (the event loop's
thread only: cProfile does not follow the worker threads).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chat_floor import (
    DEAL,
    FLOOR_GUILD_VARIABLE,
    KINDS,
    REPO,
    Bot,
    Player,
    bot_command,
    measure,
    pin_harness,
    print_profile,
    quiet,
    stop,
)
from chat_floor import quiet as chat_quiet
from chat_floor import start as start_floor

#: The goal of issue 29 for an image-style move, CPU ms per interaction.
GOAL_MS = 10.0
#: Seconds without a REST call after which a warm-up move is taken as answered in full: longer than
#: the chat benchmark's, as a picture drawn on a loaded machine can hold a move's calls apart longer,
#: and a move's calls counted short would let the next moves overlap it.
QUIET = 1.0
chat_quiet.__defaults__ = (QUIET, 30)  # what chat_floor's moves wait for, when counting a kind's calls


async def start_gatebot(name: str, workdir: Path, core: int | None, source: Path, profile: Path | None = None) -> Bot:
    """``python -m gatebot run`` from ``source`` against its own fake Discord, two picture players' games dealt."""
    from tests.fake_discord import FakeDiscord, World

    fake = await FakeDiscord(World.default()).start()
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
            *bot_command("gatebot", profile), env=env, cwd=workdir, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL, stderr=log, preexec_fn=pin)
    try:
        await fake.wait_until_connected(timeout=60)
        await fake.wait_for_commands(fake.guild, timeout=30)
    except Exception as error:
        raise RuntimeError(f"{name} did not start; its log:\n{log_path.read_text()[-3000:]}") from error
    second = fake.guild.channel("games")
    players = [Player(f"{name} wide", fake.user("alice"), fake.channel),
               Player(f"{name} phone", fake.user("bob"), second)]
    for player, compact in zip(players, (False, True), strict=True):
        chosen = await fake.send_command("gate settings", {"style": "image", "compact": compact}, user=player.user,
                                         channel=player.channel)
        await chosen.settled(timeout=30)
    bot = Bot(name, fake, process, log_path, players)
    for player in players:
        handle = await fake.send_command("gate new", {"deal": DEAL}, user=player.user, channel=player.channel)
        await handle.settled(timeout=30)
        await quiet(fake)
        assert handle.original is not None and handle.original.attachments, f"{name} sent no picture"
        player.board_id = handle.original.id
    return bot


Results = dict[tuple[str, str], list[tuple[float, float]]]


async def run(args: argparse.Namespace, core: int | None, workdir: Path) -> Results:
    results: Results = {}
    bots: list[Bot] = []
    try:
        bots.append(await start_floor("floor-a", workdir, core, None))
        profile = args.profile / "gatebot.prof" if args.profile is not None else None
        bots.append(await start_gatebot("gatebot", workdir, core, REPO, profile))
        if args.compare is not None:
            bots.append(await start_gatebot("compared", workdir, core, args.compare.resolve()))
        for round_ in range(args.rounds):
            order = bots[round_ % len(bots):] + bots[:round_ % len(bots)]
            for bot in order:
                for player in bot.players:
                    for kind in KINDS:
                        await quiet(bot.fake)  # the calls a move before made late are not counted as this kind's
                        results.setdefault((player.cell, kind), []).append(
                            await measure(bot, player, kind, args.moves))
            print(f"round {round_ + 1}/{args.rounds}: " + ", ".join(
                f"{cell} {kind} {1000 * runs[-1][0]:.2f}" for (cell, kind), runs in results.items()), flush=True)
    finally:
        for bot in bots:
            await stop(bot)
            problems = [line for line in bot.log_path.read_text(errors="replace").splitlines()
                        if "ERROR" in line or "Traceback" in line]
            if problems:
                print(f"{bot.name}'s log has errors:\n  " + "\n  ".join(problems[:5]))
    return results


def report(results: Results, args: argparse.Namespace) -> None:
    cells = list(dict.fromkeys(cell for cell, _ in results))
    median = {key: statistics.median(run[0] for run in runs) for key, runs in results.items()}
    loop = {key: statistics.median(run[1] for run in runs) for key, runs in results.items()}
    print(f"\nCPU ms per interaction (all threads; the event loop's in brackets), median of {args.rounds} rounds "
          f"of {args.moves} moves (load average {os.getloadavg()[0]:.2f} at the end)")
    print(f"{'':<16} " + " ".join(f"{kind:>16}" for kind in KINDS))
    for cell in cells:
        print(f"{cell:<16} " + " ".join(
            f"{1000 * median[(cell, kind)]:>8.2f} ({1000 * loop[(cell, kind)]:>5.2f})" for kind in KINDS))
    for cell in cells:
        if cell.startswith("gatebot"):
            print(f"{cell} / floor A: " + ", ".join(
                f"{kind} {median[(cell, kind)] / median[('floor A', kind)]:.2f}x" for kind in KINDS))
            twin = cell.replace("gatebot", "compared")
            if (twin, KINDS[0]) in median:
                print(f"{cell} / {twin}: " + ", ".join(
                    f"{kind} {median[(cell, kind)] / median[(twin, kind)]:.2f}x" for kind in KINDS))
    worst = max(1000 * median[(cell, kind)] for cell in cells if cell.startswith("gatebot") for kind in KINDS)
    print(f"goal: at most {GOAL_MS:.0f} ms per interaction; gatebot's largest cell {worst:.2f} ms "
          f"({'met' if worst <= GOAL_MS else 'not met'})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=100, help="measured moves per kind, player and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the bots interleaved")
    parser.add_argument("--compare", type=Path, default=None, help="also run the gatebot of this checkout")
    parser.add_argument("--no-pin", action="store_true", help="pin nothing")
    parser.add_argument("--profile", type=Path, default=None,
                        help="run gatebot under cProfile (its CPU figures then not comparable), its profile here")
    args = parser.parse_args(argv)
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    core, pinning = pin_harness(args.no_pin)
    print(pinning, flush=True)
    with tempfile.TemporaryDirectory(prefix="image-move-") as folder:
        results = asyncio.run(run(args, core, Path(folder)))
    report(results, args)
    if args.profile is not None:
        print_profile(args.profile / "gatebot.prof", 30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
