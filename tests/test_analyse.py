"""Solving ranges of deals: deal ranges, the parallel runner, the CSV, the progress line, the summary."""

from __future__ import annotations

import csv
import fcntl
import io
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from gatebot.analyse import (
    CSV_FIELDS,
    MAX_DEALS,
    Z95,
    DealRangeError,
    DealResult,
    Progress,
    analyse,
    format_deals,
    parse_deals,
    percentile,
    summarise,
    wilson_interval,
    write_csv,
)
from gatebot.rules import Game, GateGame
from gatebot.solver import Verdict, solve

# -- deal ranges ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "deals"),
    [
        ("5", (5,)),
        ("1-4", (1, 2, 3, 4)),
        ("1-3,20,30-32", (1, 2, 3, 20, 30, 31, 32)),
        (" 7 - 8 , 2 ", (2, 7, 8)),
        ("3,1-4,2", (1, 2, 3, 4)),  # sorted, each deal once
        ("4294967295", (4294967295,)),
    ],
)
def test_deal_ranges_are_read(text: str, deals: tuple[int, ...]) -> None:
    assert parse_deals(text) == deals


@pytest.mark.parametrize(
    "text", ["", " ", "0", "1-", "-5", "5-3", "abc", "1,,2", "1.5", "1-4294967296", "٣", "1-2-3", "1,"]
)
def test_bad_deal_ranges_are_one_sentence(text: str) -> None:
    with pytest.raises(DealRangeError) as raised:
        parse_deals(text)
    message = str(raised.value)
    assert "\n" not in message and ("--deals" in message or "backwards" in message)


def test_backwards_range_says_how_to_write_it() -> None:
    with pytest.raises(DealRangeError, match="3-5"):
        parse_deals("5-3")


def test_too_many_deals_are_refused_before_any_list_is_built() -> None:
    assert len(parse_deals(f"1-{MAX_DEALS}")) == MAX_DEALS
    with pytest.raises(DealRangeError, match="more than"):
        parse_deals("1-4294967295")
    with pytest.raises(DealRangeError, match="more than"):
        parse_deals(f"1-{MAX_DEALS},{MAX_DEALS + 1}")


@pytest.mark.parametrize("text", ["5", "1-10,20,30-40", "1-2,4-5,7", "1-3,9999999-10000001"])
def test_format_deals_is_the_shortest_text_and_reads_back(text: str) -> None:
    assert format_deals(parse_deals(text)) == text


# -- the Wilson interval --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson, no correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # By hand: all or none of 10 gives 1 / (1 + z²/10) = 0.7225 as the far bound.
        (10, 10, 0.7225, 1.0),
        (0, 10, 0.0, 0.2775),
        # p = 1/2: centre 1/2, half-width z·sqrt(1/4n + z²/4n²)/(1 + z²/n) = 0.06151 for n = 250.
        (125, 250, 0.43849, 0.56151),
    ],
)
def test_wilson_interval_matches_known_values(successes: int, trials: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(successes, trials)
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_interval_properties() -> None:
    assert Z95 == 1.959964
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for trials in (1, 7, 100):
        for successes in range(trials + 1):
            low, high = wilson_interval(successes, trials)
            assert 0.0 <= low <= successes / trials <= high <= 1.0
            mirrored = wilson_interval(trials - successes, trials)
            assert mirrored == pytest.approx((1 - high, 1 - low))
    wide, narrow = wilson_interval(5, 10), wilson_interval(500, 1000)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert wilson_interval(5, 10, z=1.0)[0] > wide[0]
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


# -- summary --------------------------------------------------------------------------------


def row(deal: int, verdict: Verdict, nodes: int = 100, seconds: float = 1.0, peak_kib: int = 1000) -> DealResult:
    return DealResult(deal, "gate", (), verdict, 100 if verdict is Verdict.WINNABLE else 0, nodes, seconds, peak_kib)


def test_summary_counts_the_unresolved_both_ways() -> None:
    rows = (
        [row(d, Verdict.WINNABLE, seconds=d / 10) for d in range(1, 15)]
        + [row(d, Verdict.LOST, nodes=500, seconds=2.0, peak_kib=4000) for d in range(15, 18)]
        + [row(d, Verdict.UNRESOLVED, nodes=1000, seconds=10.0) for d in range(18, 21)]
    )
    summary = summarise(reversed(rows))
    assert (summary.deals, summary.winnable, summary.lost, summary.unresolved) == (20, 14, 3, 3)
    assert summary.decided == 17 and summary.decided_share == pytest.approx(0.85)
    assert summary.winnable_share == pytest.approx(14 / 17)
    assert summary.winnable_low == pytest.approx(wilson_interval(14, 20)[0])  # unresolved counted lost
    assert summary.winnable_high == pytest.approx(wilson_interval(17, 20)[1])  # unresolved counted won
    assert summary.winnable_low < 14 / 20 and summary.winnable_high > 17 / 20
    seconds = sorted(r.seconds for r in rows)
    assert summary.median_seconds == pytest.approx((seconds[9] + seconds[10]) / 2)
    assert summary.p95_seconds == 10.0  # nearest rank: the 19th of 20
    total_nodes = 14 * 100 + 3 * 500 + 3 * 1000
    assert summary.nodes_per_second == pytest.approx(total_nodes / sum(seconds))
    assert summary.peak_kib == 4000
    with pytest.raises(AttributeError):
        summary.deals = 3  # type: ignore[misc]


def test_summary_of_nothing_and_of_nothing_decided() -> None:
    empty = summarise([])
    assert (empty.deals, empty.decided_share, empty.winnable_share, empty.nodes_per_second) == (0, 0.0, None, 0.0)
    assert (empty.winnable_low, empty.winnable_high) == (0.0, 1.0)
    undecided = summarise([row(1, Verdict.UNRESOLVED), row(2, Verdict.UNRESOLVED)])
    assert undecided.winnable_share is None
    assert undecided.winnable_low == 0.0 and undecided.winnable_high == 1.0


def test_percentile_is_nearest_rank() -> None:
    values = list(range(1, 101))
    assert percentile(values, 0.95) == 95
    assert percentile(values, 0.5) == 50
    assert percentile([3.0], 0.95) == 3.0
    assert percentile([], 0.95) == 0.0
    assert percentile([5, 1, 4, 2, 3], 0.95) == 5


# -- running the solver over deals ----------------------------------------------------------


def test_rows_match_the_solver_and_parallel_agrees_with_one_process() -> None:
    deals = [5, 3, 1, 4, 2]
    alone = sorted(analyse("gate", deals, jobs=1, max_seconds=5), key=lambda r: r.deal)
    parallel = sorted(analyse("gate", deals, jobs=2, max_seconds=5), key=lambda r: r.deal)
    assert [r.deal for r in alone] == [1, 2, 3, 4, 5]

    def facts(rows: list[DealResult]) -> list[tuple[object, ...]]:
        return [(r.deal, r.variant, r.options, r.verdict, r.moves, r.nodes) for r in rows]

    assert facts(parallel) == facts(alone)
    for result in alone:
        game = Game.new("gate", deal=result.deal)
        assert isinstance(game, GateGame)
        solution = solve(game, max_seconds=5)
        assert (result.verdict, result.moves, result.nodes) == (solution.verdict, len(solution.line), solution.nodes)
        assert result.seconds > 0 and result.peak_kib > 1000  # a Python process needs more than 1 MiB


def test_options_reach_the_solver() -> None:
    [result] = analyse("little-gate", [6], options=["stock-fill"], jobs=1, max_seconds=5)
    game = Game.new("little-gate", deal=6, options=("stock-fill",))
    assert isinstance(game, GateGame)
    solution = solve(game, max_seconds=5)
    assert result.options == ("stock-fill",)
    assert (result.verdict, result.nodes) == (solution.verdict, solution.nodes)


def test_budgets_reach_the_solver() -> None:
    [result] = analyse("gate", [2], jobs=1, max_nodes=10)
    assert result.verdict is Verdict.UNRESOLVED and result.moves == 0


def test_unknown_variant_or_option_is_refused_before_solving() -> None:
    with pytest.raises(ValueError, match="klondike"):
        next(analyse("klondike", [1]))
    with pytest.raises(ValueError, match="no-such"):
        next(analyse("gate", [1], options=["no-such"]))


def test_closing_early_stops_the_workers_at_once() -> None:
    """Gate deal 1 is won in a fraction of a second; the others, undecided after a minute, run for the whole budget."""
    started = time.monotonic()
    rows = analyse("gate", [1, 388, 421, 733, 906], jobs=2, max_nodes=10**9, max_seconds=60)
    first = next(rows)
    rows.close()
    assert first.deal == 1
    assert time.monotonic() - started < 20


# -- CSV ------------------------------------------------------------------------------------


def test_csv_has_a_header_and_one_row_per_deal_sorted() -> None:
    rows = [row(3, Verdict.LOST), row(1, Verdict.WINNABLE), row(2, Verdict.UNRESOLVED, seconds=0.25)]
    out = io.StringIO()
    assert write_csv(rows, out) == 3
    records = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert tuple(records[0]) == CSV_FIELDS
    assert [r["deal"] for r in records] == ["1", "2", "3"]
    assert [r["verdict"] for r in records] == ["winnable", "unresolved", "lost"]
    assert [r["moves"] for r in records] == ["100", "0", "0"]
    assert float(records[1]["seconds"]) == 0.25 and records[1]["peak_kib"] == "1000"
    options = io.StringIO()
    write_csv([DealResult(1, "gate", ("single-moves", "stock-fill"), Verdict.LOST, 0, 1, 0.1, 1)], options)
    assert next(csv.DictReader(io.StringIO(options.getvalue())))["options"] == "single-moves stock-fill"


# -- progress -------------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_off_a_terminal_is_a_line_per_tenth() -> None:
    stream, clock = io.StringIO(), FakeClock()
    progress = Progress(40, stream, clock=clock)
    for deal in range(1, 41):
        clock.now += 1.5
        progress.update(row(deal, Verdict.LOST if deal % 4 == 0 else Verdict.WINNABLE))
    progress.finish()
    text = stream.getvalue()
    lines = text.splitlines()
    assert len(lines) == 10 and "\r" not in text and text.isascii()
    assert lines[0] == " 10%|#         | 4/40 deals, 3 winnable, 1 lost, 0 unresolved [00:06<00:54]"  # 54 s for 36 more
    assert lines[-1] == "100%|##########| 40/40 deals, 30 winnable, 10 lost, 0 unresolved [01:00<00:00]"


def test_progress_on_a_terminal_redraws_one_line() -> None:
    stream = Terminal()
    progress = Progress(3, stream)
    for deal, verdict in enumerate((Verdict.WINNABLE, Verdict.UNRESOLVED, Verdict.WINNABLE), start=1):
        progress.update(row(deal, verdict))
    progress.finish()
    text = stream.getvalue()
    assert text.endswith("\n") and text.count("\n") == 1
    drawn = text.rstrip("\n").split("\r")[1:]
    assert len(drawn) >= 2
    assert drawn[0].lstrip().startswith("0%") and "0/3 deals" in drawn[0]
    assert "3/3 deals, 2 winnable, 0 lost, 1 unresolved" in drawn[-1] and drawn[-1].startswith("100%")


def _screen(master: int) -> str:
    """Everything written to the terminal ``master`` until its other end closes (or nothing came for 30 s)."""
    shown = b""
    while True:
        ready, _, _ = select.select([master], [], [], 30)
        assert ready, f"nothing more was drawn: {shown[-300:]!r}"
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        shown += chunk
    return shown.decode("utf-8").replace("\r\n", "\n")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's ptys")
def test_gatebot_analyse_draws_its_bar_on_the_terminal_at_the_terminal_s_width() -> None:
    """On a terminal 50 columns wide: the title, then one line redrawn in place, never wider, then the summary."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 50, 0, 0))
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    process = subprocess.Popen(
        [sys.executable, "-m", "gatebot", "analyse", "--deals", "1-3", "--jobs", "1", "--nodes", "200"],
        stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, close_fds=True,
    )
    os.close(slave)
    try:
        screen = _screen(master)
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        os.close(master)
    title, bar, summary = screen.split("\n", 2)
    assert title.startswith("Gate, deals 1-3: 3 deals") and summary.startswith("Decided:")
    drawn = [line for line in bar.split("\r") if line]
    assert all(len(line) <= 50 for line in drawn) and len(drawn) >= 2
    assert drawn[0].lstrip().startswith("0%") and "0/3 deals" in drawn[0]
    assert "3/3 deals" in drawn[-1] and drawn[-1].startswith("100%")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's ptys")
def test_a_terminal_of_no_width_gets_the_log_s_lines() -> None:
    """A pseudo-terminal nobody sized says it is 0 columns wide: a line at each tenth, not a bar of nothing."""
    master, slave = pty.openpty()
    with open(slave, "w", encoding="utf-8") as stream:
        progress = Progress(2, stream)
        progress.update(row(1, Verdict.WINNABLE))
        progress.update(row(2, Verdict.LOST))
        progress.finish()
    try:
        lines = _screen(master).splitlines()
    finally:
        os.close(master)
    assert len(lines) == 2 and lines[-1].startswith("100%|##########| 2/2 deals, 1 winnable, 1 lost, 0 unresolved")
