"""``gatebot solve`` and ``gatebot analyse``: one deal or position solved, or a range of deals in parallel.

Every argument (a budget, a position file, the CSV file) is checked before any search starts.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import textwrap
from typing import TYPE_CHECKING

from gatebot.cli.output import refuse, utf8
from gatebot.digits import parse_whole, shown
from gatebot.errors import UserError
from gatebot.rules import DEFAULT_VARIANT, MAX_DEAL, Game, RulesError, find_variant

if TYPE_CHECKING:
    from gatebot.analyse import Summary

#: The most worker processes ``gatebot analyse`` starts.
MAX_JOBS = 256
#: The most of a position file ``gatebot solve`` reads: a position is a few hundred bytes.
MAX_POSITION_BYTES = 64 * 1024


def _budget(args: argparse.Namespace) -> tuple[int, float] | None:
    """``--nodes`` and ``--seconds`` as numbers above zero, or None (after saying why) if they aren't."""
    try:
        nodes = int(args.nodes)
        if nodes < 1:
            raise ValueError(nodes)
    except ValueError:
        refuse(f"--nodes takes a whole number of positions, 1 or more, not {shown(args.nodes)}")
        return None
    try:
        seconds = float(args.seconds)
        if not 0 < seconds < math.inf:
            raise ValueError(seconds)
    except ValueError:
        refuse(f"--seconds takes a number of seconds above 0, like 10 or 0.5, not {shown(args.seconds)}")
        return None
    return nodes, seconds


def solve_command(args: argparse.Namespace) -> int:
    """``gatebot solve``: decide a deal or a position; print the verdict, the line and the cost.

    Exit codes: 0 decided, 1 out of budget, 2 bad arguments or a position that can't be solved.
    """
    from gatebot.analyse import format_seconds
    from gatebot.solver import Verdict, registry

    budget = _budget(args)
    if budget is None:
        return 2
    target: str = args.target
    digits = target.strip()
    if digits.isascii() and digits.isdigit():
        deal = parse_whole(digits) or 0
        if not 1 <= deal <= MAX_DEAL:
            named = digits if len(digits) <= 20 else f"of {len(digits):,} digits"
            return refuse(f"Deal numbers run from 1 to {MAX_DEAL}, so there is no deal {named}")
        try:
            game = Game.new(args.variant, deal=deal, options=args.option or ())
        except RulesError as error:
            return refuse(str(error))
        name = f"Deal {deal} of {game.title}" + (f" ({' '.join(game.options)})" if game.options else "")
    else:
        if args.option or args.variant != DEFAULT_VARIANT:
            return refuse("--variant and --option go with a deal number: a position names its variant "
                           "and options on its first line")
        game_or_code = _read_position(target)
        if isinstance(game_or_code, int):
            return game_or_code
        game, name = game_or_code, "The position"
    if not registry.thinks_about(game):
        return refuse(f"The solver doesn't play {game.title} yet")
    if not game.stock_known and game.stock_count:
        return refuse(f"The stock's order is hidden in this position (S: ?{game.stock_count}), so it can't be "
                       "solved: list the stock's cards in drawing order on the S: line")
    try:
        solution = registry.solve(game, max_nodes=budget[0], max_seconds=budget[1])
    except ValueError as error:  # a position with cards hidden elsewhere (Canfield's reserve)
        return refuse(str(error))
    stdout = utf8(sys.stdout)
    if solution.verdict is Verdict.WINNABLE and not solution.line:
        stdout.write(f"{name} is already won.\n")
    elif solution.verdict is Verdict.WINNABLE:
        plural = "s" if len(solution.line) != 1 else ""
        stdout.write(f"{name} is winnable: a win in {len(solution.line)} move{plural}.\n")
        stdout.write(textwrap.fill(" ".join(str(move) for move in solution.line), width=72) + "\n")
    elif solution.verdict is Verdict.LOST:
        stdout.write(f"{name} can't be won.\n")
    else:
        stdout.write(f"{name} is undecided after {solution.nodes:,} nodes ({format_seconds(solution.seconds)}): "
                     "try a bigger budget.\n")
    speed = solution.nodes / solution.seconds if solution.seconds > 0 else 0.0
    stdout.write(f"{solution.nodes:,} nodes in {format_seconds(solution.seconds)} ({speed:,.0f} nodes/s).\n")
    return 0 if solution.decided else 1


def _read_position(target: str) -> Game | int:
    """The position in file ``target`` (``-``: standard input), or the exit code of a refusal.

    At most :data:`MAX_POSITION_BYTES` are read, so a huge file (or ``/dev/zero``) is refused
    at once rather than read to its end; the text must be UTF-8. A position the rules refuse
    (any :class:`~gatebot.errors.UserError`) is refused with the rules' sentence; any other
    ``ValueError`` while reading it gets a sentence of its own, since its text is not meant
    for people.
    """
    if target == "-":
        source = "standard input"
        binary = getattr(sys.stdin, "buffer", None)
        data = binary.read(MAX_POSITION_BYTES + 1) if binary is not None else sys.stdin.read().encode()
    else:
        source = shown(target, 200)
        try:
            with open(target, "rb") as file:
                data = file.read(MAX_POSITION_BYTES + 1)
        except FileNotFoundError:
            return refuse(f"There is no file {source}, and it is not a deal number either")
        except IsADirectoryError:
            return refuse(f"{source} is a folder, not a position file")
        except (OSError, ValueError) as error:  # ValueError: a name with a NUL character
            return refuse(f"Can't read {source}: {getattr(error, 'strerror', None) or error}")
    if len(data) > MAX_POSITION_BYTES:
        return refuse(f"{source[:1].upper()}{source[1:]} is too big to be a position "
                       f"(more than {MAX_POSITION_BYTES // 1024} KiB; a position is a few hundred bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return refuse(f"{source[:1].upper()}{source[1:]} is not text in UTF-8, so it holds no position")
    try:
        return Game.from_text(text)
    except UserError as error:
        reason = str(error)
        return refuse(f"Can't read the position in {source}: {reason[:1].lower()}{reason[1:]}")
    except ValueError:
        return refuse(f"Can't read the position in {source}: it is not a position in gatebot's text form "
                       "(the README's \"Deal numbers and position text\" shows it)")


def analyse_command(args: argparse.Namespace) -> int:
    """``gatebot analyse``: solve a range of deals in parallel, write the CSV, print the summary.

    Every argument (the CSV file included) is checked before any deal is solved. Exit codes:
    0 done, 2 bad arguments, 130 interrupted (what finished is still summed up and written).
    """
    from gatebot.analyse import DealRangeError, DealResult, Progress, analyse, format_deals, parse_deals, summarise

    try:
        deals = parse_deals(args.deals)
        options = find_variant(args.variant).check_options(args.option or ())
    except (DealRangeError, RulesError) as error:
        return refuse(str(error))
    budget = _budget(args)
    if budget is None:
        return 2
    max_nodes, max_seconds = budget
    jobs = os.cpu_count() or 1
    if args.jobs is not None:
        jobs = parse_whole(args.jobs) or 0
        if not 1 <= jobs <= MAX_JOBS:
            return refuse(f"--jobs takes a number of processes from 1 to {MAX_JOBS}, not {shown(args.jobs)}")
    csv_file = None
    if args.csv is not None:
        try:
            csv_file = open(args.csv, "w", encoding="utf-8", newline="")  # noqa: SIM115 (closed below)
        except OSError as error:
            return refuse(f"Can't write the CSV file {args.csv!r}: {error.strerror or error}")

    rows: list[DealResult] = []
    progress = Progress(len(deals), sys.stderr)
    interrupted = False
    try:
        title = find_variant(args.variant).title + (f" ({' '.join(options)})" if options else "")
        sys.stdout.write(
            f"{title}, deals {format_deals(deals)}: {len(deals):,} deal{'s' if len(deals) != 1 else ''}, "
            f"at most {max_nodes:,} nodes or {max_seconds:g} s each, in {min(jobs, len(deals))} "
            f"process{'es' if min(jobs, len(deals)) != 1 else ''}.\n"
        )
        sys.stdout.flush()
        try:
            for row in analyse(args.variant, deals, options=options, jobs=jobs,
                               max_nodes=max_nodes, max_seconds=max_seconds):
                rows.append(row)
                progress.update(row)
        except KeyboardInterrupt:
            interrupted = True
        progress.finish()
        if interrupted:
            sys.stderr.write(f"gatebot: interrupted after {len(rows):,} of {len(deals):,} deals.\n")
        for line in _summary_lines(summarise(rows)):
            sys.stdout.write(line + "\n")
        if csv_file is not None:
            from gatebot.analyse import write_csv

            count = write_csv(rows, csv_file)
            sys.stdout.write(f"Wrote {count:,} row{'s' if count != 1 else ''} to {args.csv}.\n")
    finally:
        if csv_file is not None:
            csv_file.close()
    return 130 if interrupted else 0


def _summary_lines(summary: Summary) -> list[str]:
    """The summary of ``gatebot analyse``, one figure a line."""
    from gatebot.analyse import format_memory, format_seconds, format_share

    if not summary.deals:
        return ["No deal was finished."]
    lines = [
        f"Decided:     {summary.decided:,} of {summary.deals:,} ({format_share(summary.decided_share)}): "
        f"{summary.winnable:,} winnable, {summary.lost:,} lost, {summary.unresolved:,} unresolved.",
    ]
    interval = f"{format_share(summary.winnable_low)}–{format_share(summary.winnable_high)}"
    if summary.winnable_share is None:
        lines.append(f"Winnable:    unknown; 95% interval {interval}.")
    elif summary.unresolved:
        lines.append(f"Winnable:    {format_share(summary.winnable_share)} of the decided deals; 95% interval "
                     f"{interval} of all deals, counting the unresolved both ways.")
    else:
        lines.append(f"Winnable:    {format_share(summary.winnable_share)}; 95% interval {interval}.")
    lines += [
        f"Time:        median {format_seconds(summary.median_seconds)}, "
        f"95th percentile {format_seconds(summary.p95_seconds)} per deal.",
        f"Speed:       {summary.nodes_per_second:,.0f} nodes/s per process.",
        f"Peak memory: {format_memory(summary.peak_kib)} per process.",
    ]
    return lines
