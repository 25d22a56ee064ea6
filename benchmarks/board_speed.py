"""CPU per image board and its bytes, for every variant wide and phone, and whether drawing blocks the event loop.

For each variant, ``--games`` seeded random games are played ``--moves`` moves and every
``--every``-th position is drawn as the bot draws it (:func:`gatebot.render.image.render_png`,
the wide board at scale 1 and the phone board at its scale), after one warm-up board per
layout (the card sprites and the palette are drawn once per scale, then kept). A game's boards
are drawn in its order, so each is painted over the game's board before it, as in play
(``gatebot.render.image`` keeps each game's last board). Reported per
variant and layout: the median CPU ms per board (``time.process_time``: this process's CPU,
so a busy machine slows the figure down less than the wall clock), the median and the largest
PNG in KB. Then the event loop's lag: the boards are drawn through ``asyncio.to_thread`` as
the bot draws them while a coroutine sleeps 1 ms at a time; the lag is how late it wakes
(median and largest), against the same coroutine with no boards drawn.

``--chat`` measures the chat boards instead, text and emoji, wide and compact
(:func:`gatebot.render.boards.render_text`, :func:`~gatebot.render.boards.render_emoji`): the
CPU of drawing all the positions in a style over the boards drawn, in µs, the least of
``--repeat`` passes (the pass least disturbed by the rest of the machine).

``--against DIR`` measures the gatebot in DIR too (a checkout, or ``git archive`` of one), each
in a fresh process, and prints them side by side; ``--rounds`` runs the checkouts that many times
in turns and gives each cell's median over the rounds::

    git -C /work/main archive HEAD gatebot | tar -x -C /tmp/before
    .venv/bin/python benchmarks/board_speed.py --against /tmp/before
    .venv/bin/python benchmarks/board_speed.py --chat --games 3 --rounds 3 --against /tmp/before
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gatebot.render.boards import render_emoji, render_text
from gatebot.render.image import PHONE_SCALE, render_png
from gatebot.rules import Game

VARIANTS = ("gate", "little-gate", "canfield", "archway")
LAYOUTS = ("wide", "phone")
#: The chat boards' styles and layouts (``--chat``).
CHAT: dict[str, Callable[[Game], str]] = {
    "text": lambda game: render_text(game),
    "text compact": lambda game: render_text(game, compact=True),
    "emoji": lambda game: render_emoji(game),
    "emoji compact": lambda game: render_emoji(game, compact=True),
}


def positions(variant: str, games: int, moves: int, every: int) -> list[Game]:
    """Every ``every``-th position of ``games`` seeded random games (building more than drawing)."""
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.new(variant, deal=rng.randint(1, 2**32 - 1))
        for number in range(moves + 1):
            if number % every == 0:
                found.append(game.copy())
            legal = game.legal_moves()
            if not legal:
                break
            builds = [move for move in legal if not move.is_draw]
            game.push(rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal))
    return found


def draw(game: Game, layout: str) -> bytes:
    phone = layout == "phone"
    return render_png(game, scale=PHONE_SCALE if phone else 1.0, phone=phone)


def measure(args: argparse.Namespace) -> dict[str, object]:
    """Per ``variant layout``: [median CPU ms, median KB, largest KB, boards]; and the loop's lag in ms."""
    boards: dict[str, list[float]] = {}
    every_board = []
    for variant in VARIANTS:
        found = positions(variant, args.games, args.moves, args.every)
        for layout in LAYOUTS:
            draw(found[0], layout)  # sprites and palette, once per scale
            times, sizes = [], []
            for game in found:
                start = time.process_time()
                sizes.append(len(draw(game, layout)))
                times.append(time.process_time() - start)
                every_board.append((game, layout))
            boards[f"{variant} {layout}"] = [statistics.median(times) * 1000, statistics.median(sizes) / 1000,
                                             max(sizes) / 1000, len(found)]
    return {"boards": boards, "lag": asyncio.run(loop_lag(every_board)), "idle": asyncio.run(loop_lag([]))}


def measure_chat(args: argparse.Namespace) -> dict[str, float]:
    """Per ``variant style``: µs of CPU per chat board, the least of ``--repeat`` passes over the positions."""
    figures = {}
    for variant in VARIANTS:
        found = positions(variant, args.games, args.moves, args.every)
        for style, draw_chat in CHAT.items():
            draw_chat(found[0])  # the first use of every path
            passes = []
            for _ in range(args.repeat):
                start = time.process_time()
                for game in found:
                    draw_chat(game)
                passes.append((time.process_time() - start) / len(found))
            figures[f"{variant} {style}"] = min(passes) * 1e6
    return figures


async def loop_lag(boards: list[tuple[Game, str]]) -> list[float]:
    """How late (ms) a 1 ms sleep wakes while ``boards`` are drawn in a thread, one after another: median, largest."""
    lags: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        while not done.is_set() or len(lags) < 50:
            start = time.perf_counter()
            await asyncio.sleep(0.001)
            lags.append((time.perf_counter() - start - 0.001) * 1000)

    async def drawer() -> None:
        for game, layout in boards:
            await asyncio.to_thread(draw, game, layout)
        done.set()

    await asyncio.gather(ticker(), drawer())
    return [statistics.median(lags), max(lags)]


def in_fresh_process(args: argparse.Namespace, folder: Path) -> Any:
    """:func:`measure` (or :func:`measure_chat`) with the gatebot in ``folder``, in a fresh process."""
    command = [sys.executable, __file__, "--emit-json", "--games", str(args.games), "--moves", str(args.moves),
               "--every", str(args.every), "--repeat", str(args.repeat), *(["--chat"] if args.chat else [])]
    done = subprocess.run(command, env=dict(os.environ, PYTHONPATH=str(folder)), stdout=subprocess.PIPE,
                          check=True, text=True)
    return json.loads(done.stdout)


def print_chat(args: argparse.Namespace, rounds: dict[str, list[dict[str, float]]]) -> None:
    """The chat boards' table: each checkout's median µs per board, and the first's over the last's."""
    names = list(rounds)
    print(f"CPU µs per chat board, median of {args.rounds} rounds; {args.games} games × {args.moves} moves per "
          f"variant, every {args.every}th position, the least of {args.repeat} passes")
    header = f"{'variant':<12} {'style':<14}" + "".join(f" | {name[-14:]:>14}" for name in names)
    print(header + (" | ×" if len(names) > 1 else ""))
    for variant in VARIANTS:
        for style in CHAT:
            key = f"{variant} {style}"
            cells = [statistics.median(figures[key] for figures in rounds[name]) for name in names]
            row = f"{variant:<12} {style:<14}" + "".join(f" | {cell:14.1f}" for cell in cells)
            print(row + (f" | {cells[0] / cells[-1]:4.2f}" if len(cells) > 1 else ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2, help="random games per variant")
    parser.add_argument("--moves", type=int, default=120, help="moves per game")
    parser.add_argument("--every", type=int, default=4, help="draw every n-th position")
    parser.add_argument("--against", type=Path, action="append", default=[],
                        help="also measure the gatebot in this folder (repeatable)")
    parser.add_argument("--chat", action="store_true", help="the chat boards (text and emoji) instead of the images")
    parser.add_argument("--repeat", type=int, default=5, help="--chat: passes over the positions; the least is kept")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each checkout, in turns (medians)")
    parser.add_argument("--emit-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.emit_json:
        print(json.dumps(measure_chat(args) if args.chat else measure(args)))
        return 0
    here = Path(__file__).resolve().parents[1]
    checkouts = {**{str(folder): folder.resolve() for folder in args.against}, "this checkout": here}
    rounds: dict[str, list[Any]] = {name: [] for name in checkouts}
    for _ in range(args.rounds):
        for name, folder in checkouts.items():
            rounds[name].append(in_fresh_process(args, folder))
    if args.chat:
        print_chat(args, rounds)
        return 0
    results = {name: runs[-1] for name, runs in rounds.items()}  # sizes and lags of the last round
    for name, runs in rounds.items():
        for key, cell in results[name]["boards"].items():
            cell[0] = statistics.median(run["boards"][key][0] for run in runs)  # CPU: the rounds' median
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"{args.games} games × {args.moves} moves per variant, every {args.every}th position")
    names = list(results)
    header = f"{'variant':<12} {'layout':<6} {'boards':>6}"
    for name in names:
        header += f" | {name[-14:]:>14}: ms  KB (max)"
    if len(names) > 1:
        header += " | ms ×"
    print(header)
    for variant in VARIANTS:
        for layout in LAYOUTS:
            key = f"{variant} {layout}"
            cells = [results[name]["boards"][key] for name in names]
            row = f"{variant:<12} {layout:<6} {cells[0][3]:>6}"
            for ms, kb, largest, _ in cells:
                row += f" | {'':>12}{ms:5.1f} {kb:5.1f} ({largest:4.1f})"
            if len(cells) > 1:
                row += f" | {cells[0][0] / cells[-1][0]:4.2f}"
            print(row)
    for name in names:
        lag, idle = results[name]["lag"], results[name]["idle"]
        print(f"event loop lag, {name}: median {lag[0]:.2f} ms, largest {lag[1]:.2f} ms while drawing "
              f"(idle: {idle[0]:.2f}, {idle[1]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
