"""Solving many deals at once: the solver over a range of deals in parallel processes.

One :class:`DealResult` per deal (its verdict, the winning line's length, the nodes and
time the search took, the worker's peak memory), a :class:`Progress` bar for
stderr, the rows as CSV, and a :class:`Summary` with the winnable share's 95% Wilson
interval. This is the I/O side of the solver: ``gatebot analyse`` and
``benchmarks/solver_figures.py`` are thin wrappers around it.
"""

from __future__ import annotations

import csv
import itertools
import math
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import TextIO

from tqdm import tqdm

from gatebot.digits import parse_whole, shown
from gatebot.messages import _
from gatebot.rules import MAX_DEAL, Game, find_variant
from gatebot.solver import DEFAULT_NODES, DEFAULT_SECONDS, Verdict, registry

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959964
#: The most deals one analysis takes (a million deals at 10 s each is already months of CPU).
MAX_DEALS = 1_000_000
#: The CSV's columns, in order.
CSV_FIELDS = ("deal", "variant", "options", "verdict", "moves", "nodes", "seconds", "peak_kib")


class DealRangeError(ValueError):
    """A ``--deals`` text that does not name deal numbers; the message is one sentence."""


# -- which deals ----------------------------------------------------------------------------


def parse_deals(text: str) -> tuple[int, ...]:
    """The deals ``text`` names, sorted and without repeats: ``5``, ``1-1000``, ``1-10,20,30-40``."""
    deals: set[int] = set()
    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or not all(parts):
        raise DealRangeError(_("--deals takes deal numbers and ranges like 1-1000 or 1-10,20, not {text}",
                               text=shown(text)))
    for part in parts:
        first, dash, last = part.partition("-")
        low = _deal_number(first, text)
        high = _deal_number(last, text) if dash else low
        if high < low:
            raise DealRangeError(_("The deal range {part} runs backwards: write it as {high}-{low}",
                                   part=part, high=high, low=low))
        if len(deals) + (high - low + 1) > MAX_DEALS:
            raise DealRangeError(_("--deals {text} names more than {most} deals: analyse fewer at a time",
                                   text=shown(text), most=format(MAX_DEALS, ",")))
        deals.update(range(low, high + 1))
    return tuple(sorted(deals))


def _deal_number(word: str, text: str) -> int:
    number = parse_whole(word)
    if number is None or not 1 <= number <= MAX_DEAL:
        raise DealRangeError(_(
            "--deals takes deal numbers from 1 to {most} and ranges like 1-1000 or 1-10,20, not {text}",
            most=MAX_DEAL, text=shown(text),
        ))
    return number


def format_deals(deals: Iterable[int]) -> str:
    """The shortest ``--deals`` text for ``deals``: ``1-10,20,30-40``."""
    parts = []
    for _offset, run in itertools.groupby(enumerate(sorted(set(deals))), key=lambda pair: pair[1] - pair[0]):
        numbers = [deal for _index, deal in run]
        parts.append(str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}")
    return ",".join(parts)


# -- solving one deal, in a worker ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealTask:
    """One deal to solve, with the search budget: what a worker process is sent."""

    variant: str
    options: tuple[str, ...]
    deal: int
    max_nodes: int
    max_seconds: float


@dataclass(frozen=True, slots=True)
class DealResult:
    """What the solver found for one deal: one CSV row."""

    deal: int
    variant: str
    options: tuple[str, ...]
    verdict: Verdict
    #: The winning line's length (0 unless winnable).
    moves: int
    nodes: int
    seconds: float
    #: The peak resident memory of the process that solved it, so far, in KiB.
    peak_kib: int


def solve_deal(task: DealTask) -> DealResult:
    """Solve ``task``'s deal (in whichever process runs this) and report it as a row."""
    game = Game.new(task.variant, deal=task.deal, options=task.options)
    solution = registry.solve(game, max_nodes=task.max_nodes, max_seconds=task.max_seconds)
    return DealResult(
        deal=task.deal, variant=task.variant, options=task.options, verdict=solution.verdict,
        moves=len(solution.line), nodes=solution.nodes, seconds=solution.seconds, peak_kib=peak_memory_kib(),
    )


def peak_memory_kib() -> int:
    """The current process's peak resident memory so far, in KiB (0 where the platform can't say)."""
    try:
        import resource
    except ImportError:  # Windows
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak // 1024 if sys.platform == "darwin" else peak  # bytes on macOS, KiB on Linux


# -- many deals -----------------------------------------------------------------------------


def analyse(
    variant: str,
    deals: Iterable[int],
    *,
    options: Iterable[str] = (),
    jobs: int | None = None,
    max_nodes: int = DEFAULT_NODES,
    max_seconds: float = DEFAULT_SECONDS,
) -> Iterator[DealResult]:
    """Solve every deal in ``deals``, in ``jobs`` processes (default: one per CPU), yielding rows as they finish.

    With one job (or one deal) everything runs in this process. Rows come in the order the
    deals finish; sort by ``deal`` for a stable order. Closing the iterator early (or an
    exception such as ``KeyboardInterrupt`` while waiting) stops the workers at once.
    Raises :class:`~gatebot.rules.UnknownVariant` for a variant or option gatebot lacks.
    """
    options = find_variant(variant).check_options(options)
    tasks = [DealTask(variant, options, deal, max_nodes, max_seconds) for deal in deals]
    workers = min(jobs or os.cpu_count() or 1, len(tasks))
    if workers <= 1:
        for task in tasks:
            yield solve_deal(task)
        return
    yield from _in_processes(tasks, workers)


def _in_processes(tasks: Sequence[DealTask], workers: int) -> Iterator[DealResult]:
    """Solve ``tasks`` in a pool of ``workers`` processes, keeping only a few queued at a time."""
    waiting = iter(tasks)
    # Ctrl-C is the parent's to handle (it stops the workers itself), so workers ignore it.
    # signal.signal itself is the initializer: it runs before a worker imports gatebot, so a
    # Ctrl-C during that import can't print the worker's traceback either.
    executor = ProcessPoolExecutor(workers, initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN))
    running: set[Future[DealResult]] = set()
    try:
        for task in itertools.islice(waiting, 2 * workers):
            running.add(executor.submit(solve_deal, task))
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for task in itertools.islice(waiting, len(finished)):
                running.add(executor.submit(solve_deal, task))
            yield from sorted((future.result() for future in finished), key=lambda row: row.deal)
    finally:
        if running:  # stopped early: don't wait for searches nobody will read
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)


# -- progress -------------------------------------------------------------------------------


class Progress:
    """A progress bar for a long analysis: done/total, the verdicts so far and the time spent and left.

    On a terminal it is tqdm's bar, redrawn in place and fitted to the terminal's width; elsewhere
    (a log file, a pipe) it is the same line once at each tenth of the way, in ASCII, so a log
    shows progress without thousands of lines or carriage returns.
    """

    #: tqdm's line: ``10%|#         | 4/40 deals, 3 winnable, 1 lost, 0 unresolved [00:06<00:54]``.
    FORMAT = "{percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} deals{postfix} [{elapsed}<{remaining}]"

    def __init__(self, total: int, stream: TextIO, *, clock: Callable[[], float] = time.monotonic) -> None:
        """Start counting ``total`` deals now; draw on ``stream``."""
        self.total = total
        self.stream = stream
        self.clock = clock
        self.started = clock()
        self.done = 0
        self.counts = dict.fromkeys(Verdict, 0)
        self.tty = _isatty(stream)
        self._tenths = 0
        self._bar = tqdm(total=total, file=stream, bar_format=self.FORMAT, dynamic_ncols=True, disable=not self.tty,
                         postfix=self._verdicts())

    def update(self, result: DealResult) -> None:
        """Count one more finished deal and redraw."""
        self.done += 1
        self.counts[result.verdict] += 1
        if self.tty:
            self._bar.set_postfix_str(self._verdicts(), refresh=False)
            self._bar.update()
        elif self.total and self.done * 10 // self.total > self._tenths:
            self._tenths = self.done * 10 // self.total
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def finish(self) -> None:
        """End the bar, so what follows starts on a line of its own."""
        self._bar.close()

    def line(self) -> str:
        """The progress as one line of ASCII text."""
        return tqdm.format_meter(self.done, self.total, self.clock() - self.started, ascii=True,
                                 bar_format=self.FORMAT, postfix=self._verdicts())

    def _verdicts(self) -> str:
        return ", ".join(f"{self.counts[verdict]} {verdict.value}" for verdict in Verdict)


def _isatty(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal to draw the bar on.

    One that says it is 0 columns wide (a pseudo-terminal nobody sized) gets the log's lines
    instead: tqdm would draw the bar there as nothing.
    """
    try:
        if not stream.isatty():
            return False
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
    try:
        return os.get_terminal_size(stream.fileno()).columns > 0
    except (OSError, ValueError):  # a terminal that won't say its size: tqdm's own width
        return True


# -- CSV ------------------------------------------------------------------------------------


def write_csv(rows: Iterable[DealResult], stream: TextIO) -> int:
    """Write ``rows`` as CSV (header first, sorted by deal) to an open text stream; return the row count.

    Open the file with ``newline=""``, as the csv module asks.
    """
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    count = 0
    for row in sorted(rows, key=lambda row: row.deal):
        writer.writerow((
            row.deal, row.variant, " ".join(row.options), row.verdict.value, row.moves, row.nodes,
            f"{row.seconds:.6f}", row.peak_kib,
        ))
        count += 1
    return count


# -- summary --------------------------------------------------------------------------------


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` in ``trials`` (95% by default).

    Unlike the plain p ± z·se interval it stays within [0, 1] and is sensible near 0 and 1
    and for small samples. With no trials at all, nothing is known: (0, 1).
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials is not a proportion")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of them at or below it."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


@dataclass(frozen=True, slots=True)
class Summary:
    """The figures of an analysis: verdict counts, the winnable share, time, speed and memory."""

    deals: int
    winnable: int
    lost: int
    unresolved: int
    #: The 95% Wilson interval of the winnable share of all deals, counting the unresolved
    #: deals both ways: the lower bound as if they were all lost, the upper as if all winnable.
    winnable_low: float
    winnable_high: float
    median_seconds: float
    p95_seconds: float
    #: Total nodes over total search time: the speed of one process.
    nodes_per_second: float
    #: The largest peak memory of any worker, in KiB.
    peak_kib: int

    @property
    def decided(self) -> int:
        """Deals proved winnable or lost within the budget."""
        return self.winnable + self.lost

    @property
    def decided_share(self) -> float:
        """The share of the deals decided within the budget (0 with no deals)."""
        return self.decided / self.deals if self.deals else 0.0

    @property
    def winnable_share(self) -> float | None:
        """The winnable share of the decided deals; None when none was decided."""
        return self.winnable / self.decided if self.decided else None


def summarise(rows: Iterable[DealResult]) -> Summary:
    """The :class:`Summary` of an analysis's rows."""
    rows = list(rows)
    counts = {verdict: 0 for verdict in Verdict}
    for row in rows:
        counts[row.verdict] += 1
    winnable, unresolved = counts[Verdict.WINNABLE], counts[Verdict.UNRESOLVED]
    low, _high = wilson_interval(winnable, len(rows))
    _, high = wilson_interval(winnable + unresolved, len(rows))
    seconds = [row.seconds for row in rows]
    total_seconds = sum(seconds)
    return Summary(
        deals=len(rows), winnable=winnable, lost=counts[Verdict.LOST], unresolved=unresolved,
        winnable_low=low, winnable_high=high,
        median_seconds=statistics.median(seconds) if seconds else 0.0,
        p95_seconds=percentile(seconds, 0.95),
        nodes_per_second=sum(row.nodes for row in rows) / total_seconds if total_seconds > 0 else 0.0,
        peak_kib=max((row.peak_kib for row in rows), default=0),
    )


def format_seconds(seconds: float) -> str:
    """A duration to two or three significant figures: ``3.1 ms``, ``0.257 s``, ``2.02 s``, ``10.0 s``."""
    if seconds < 0.1:
        return f"{seconds * 1000:.2g} ms" if seconds < 0.001 else f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds:.3f} s"
    return f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s"


def format_memory(kib: int) -> str:
    """A memory size in MiB: ``48.1 MiB``."""
    return f"{kib / 1024:.1f} MiB"


def format_share(share: float) -> str:
    """A share as a percentage with one decimal: ``94.4%``."""
    return f"{100 * share:.1f}%"
