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

from gatebot.cli.output import refuse, say, utf8
from gatebot.digits import parse_whole, shown
from gatebot.errors import UserError
from gatebot.locale import terminal_language
from gatebot.messages import Text, _, message_of, n_
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
        refuse(_("--nodes takes a whole number of positions, 1 or more, not {typed}", typed=shown(args.nodes)))
        return None
    try:
        seconds = float(args.seconds)
        if not 0 < seconds < math.inf:
            raise ValueError(seconds)
    except ValueError:
        refuse(_("--seconds takes a number of seconds above 0, like 10 or 0.5, not {typed}",
                 typed=shown(args.seconds)))
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
            if len(digits) <= 20:
                return refuse(_("Deal numbers run from 1 to {most}, so there is no deal {typed}", most=MAX_DEAL,
                                typed=digits))
            return refuse(_("Deal numbers run from 1 to {most}, so there is no deal of {count} digits",
                            most=MAX_DEAL, count=format(len(digits), ",")))
        try:
            game = Game.new(args.variant, deal=deal, options=args.option or ())
        except RulesError as error:
            return refuse(message_of(error))
        name: Text = _("Deal {deal} of {title}", deal=deal, title=game.title)
        if game.options:
            name = _("Deal {deal} of {title} ({options})", deal=deal, title=game.title, options=" ".join(game.options))
    else:
        if args.option or args.variant != DEFAULT_VARIANT:
            return refuse(_("--variant and --option go with a deal number: a position names its variant "
                            "and options on its first line"))
        game_or_code = _read_position(target)
        if isinstance(game_or_code, int):
            return game_or_code
        game, name = game_or_code, _("The position")
    if not registry.thinks_about(game):
        return refuse(_("The solver doesn't play {title} yet", title=game.title))
    if not game.stock_known and game.stock_count:
        return refuse(_("The stock's order is hidden in this position (S: ?{count}), so it can't be solved: list "
                        "the stock's cards in drawing order on the S: line", count=game.stock_count))
    try:
        solution = registry.solve(game, max_nodes=budget[0], max_seconds=budget[1])
    except ValueError as error:  # a position with cards hidden elsewhere (Canfield's reserve)
        return refuse(message_of(error))
    stdout = utf8(sys.stdout)
    nodes, seconds = format(solution.nodes, ","), format_seconds(solution.seconds)
    if solution.verdict is Verdict.WINNABLE and not solution.line:
        stdout.write(say(_("{name} is already won.", name=name)) + "\n")
    elif solution.verdict is Verdict.WINNABLE:
        stdout.write(say(n_("{name} is winnable: a win in {n} move.", "{name} is winnable: a win in {n} moves.",
                            len(solution.line), name=name)) + "\n")
        stdout.write(textwrap.fill(" ".join(str(move) for move in solution.line), width=72) + "\n")
    elif solution.verdict is Verdict.LOST:
        stdout.write(say(_("{name} can't be won.", name=name)) + "\n")
    else:
        stdout.write(say(_("{name} is undecided after {nodes} nodes ({seconds}): try a bigger budget.", name=name,
                           nodes=nodes, seconds=seconds)) + "\n")
    speed = solution.nodes / solution.seconds if solution.seconds > 0 else 0.0
    stdout.write(say(_("{nodes} nodes in {seconds} ({speed} nodes/s).", nodes=nodes, seconds=seconds,
                       speed=format(speed, ",.0f"))) + "\n")
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
        source: str = _("standard input")
        binary = getattr(sys.stdin, "buffer", None)
        data = binary.read(MAX_POSITION_BYTES + 1) if binary is not None else sys.stdin.read().encode()
    else:
        source = shown(target, 200)
        try:
            with open(target, "rb") as file:
                data = file.read(MAX_POSITION_BYTES + 1)
        except FileNotFoundError:
            return refuse(_("There is no file {source}, and it is not a deal number either", source=source))
        except IsADirectoryError:
            return refuse(_("{source} is a folder, not a position file", source=source))
        except (OSError, ValueError) as error:  # ValueError: a name with a NUL character
            return refuse(_("Can't read {source}: {reason}", source=source,
                            reason=getattr(error, "strerror", None) or str(error)))
    said = say(source)
    if len(data) > MAX_POSITION_BYTES:
        return refuse(_("{Source} is too big to be a position (more than {most} KiB; a position is a few hundred "
                        "bytes)", Source=said[:1].upper() + said[1:], most=MAX_POSITION_BYTES // 1024))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return refuse(_("{Source} is not text in UTF-8, so it holds no position", Source=said[:1].upper() + said[1:]))
    try:
        return Game.from_text(text)
    except UserError as error:
        reason = say(message_of(error))
        if terminal_language().language == "en":  # mid-sentence; German keeps its nouns' capitals
            reason = reason[:1].lower() + reason[1:]
        return refuse(_("Can't read the position in {source}: {reason}", source=source, reason=reason))
    except ValueError:
        return refuse(_("Can't read the position in {source}: it is not a position in gatebot's text form "
                        "(docs/rules.md shows it under \"Position text\")", source=source))


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
        return refuse(message_of(error))
    budget = _budget(args)
    if budget is None:
        return 2
    max_nodes, max_seconds = budget
    jobs = os.cpu_count() or 1
    if args.jobs is not None:
        jobs = parse_whole(args.jobs) or 0
        if not 1 <= jobs <= MAX_JOBS:
            return refuse(_("--jobs takes a number of processes from 1 to {most}, not {typed}", most=MAX_JOBS,
                            typed=shown(args.jobs)))
    csv_file = None
    if args.csv is not None:
        try:
            csv_file = open(args.csv, "w", encoding="utf-8", newline="")  # noqa: SIM115 (closed below)
        except OSError as error:
            return refuse(_("Can't write the CSV file {file}: {reason}", file=repr(args.csv),
                            reason=error.strerror or str(error)))

    rows: list[DealResult] = []
    interrupted = False
    try:
        title = find_variant(args.variant).title + (f" ({' '.join(options)})" if options else "")
        processes = min(jobs, len(deals))
        sys.stdout.write(say(_(
            "{title}, deals {deals}: {count}, at most {nodes} nodes or {seconds} s each, in {processes}.",
            title=title, deals=format_deals(deals), nodes=format(max_nodes, ","), seconds=format(max_seconds, "g"),
            count=n_("{n} deal", "{n} deals", len(deals), n=format(len(deals), ",")),
            processes=n_("{n} process", "{n} processes", processes),
        )) + "\n")
        sys.stdout.flush()
        progress = Progress(len(deals), sys.stderr)  # drawn at once: after the title, not before it
        try:
            for row in analyse(args.variant, deals, options=options, jobs=jobs,
                               max_nodes=max_nodes, max_seconds=max_seconds):
                rows.append(row)
                progress.update(row)
        except KeyboardInterrupt:
            interrupted = True
        progress.finish()
        if interrupted:
            sys.stderr.write(say(_("gatebot: interrupted after {done} of {count} deals.", done=format(len(rows), ","),
                                   count=format(len(deals), ","))) + "\n")
        for line in _summary_lines(summarise(rows)):
            sys.stdout.write(say(line) + "\n")
        if csv_file is not None:
            from gatebot.analyse import write_csv

            count = write_csv(rows, csv_file)
            sys.stdout.write(say(n_("Wrote {n} row to {file}.", "Wrote {n} rows to {file}.", count,
                                    n=format(count, ","), file=args.csv)) + "\n")
    finally:
        if csv_file is not None:
            csv_file.close()
    return 130 if interrupted else 0


def _summary_lines(summary: Summary) -> list[str]:
    """The summary of ``gatebot analyse``, one figure a line, each a marked sentence."""
    from gatebot.analyse import format_memory, format_seconds, format_share

    if not summary.deals:
        return [_("No deal was finished.")]
    lines: list[str] = [
        _("Decided:     {decided} of {deals} ({share}): {winnable} winnable, {lost} lost, {unresolved} unresolved.",
          decided=format(summary.decided, ","), deals=format(summary.deals, ","),
          share=format_share(summary.decided_share), winnable=format(summary.winnable, ","),
          lost=format(summary.lost, ","), unresolved=format(summary.unresolved, ",")),
    ]
    interval = f"{format_share(summary.winnable_low)}–{format_share(summary.winnable_high)}"
    if summary.winnable_share is None:
        lines.append(_("Winnable:    unknown; 95% interval {interval}.", interval=interval))
    elif summary.unresolved:
        lines.append(_("Winnable:    {share} of the decided deals; 95% interval {interval} of all deals, counting "
                       "the unresolved both ways.", share=format_share(summary.winnable_share), interval=interval))
    else:
        lines.append(_("Winnable:    {share}; 95% interval {interval}.", share=format_share(summary.winnable_share),
                       interval=interval))
    lines += [
        _("Time:        median {median}, 95th percentile {p95} per deal.",
          median=format_seconds(summary.median_seconds), p95=format_seconds(summary.p95_seconds)),
        _("Speed:       {speed} nodes/s per process.", speed=format(summary.nodes_per_second, ",.0f")),
        _("Peak memory: {memory} per process.", memory=format_memory(summary.peak_kib)),
    ]
    return lines
