"""benchmarks/canfield_winnability.py's --settle: an earlier run's verdicts kept, its undecided deals searched again."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
from canfield_winnability import settled_rows

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "canfield_winnability.py"


def earlier_run(path: Path, rows: list[tuple[int, str, int, float]]) -> Path:
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["deal", "verdict", "nodes", "seconds"])
        writer.writerows(rows)
    return path


def test_settling_keeps_the_decided_rows_and_leaves_out_the_undecided(tmp_path: Path) -> None:
    first = earlier_run(
        tmp_path / "first.csv", [(1, "winnable", 10, 0.1), (2, "unresolved", 99, 5.0), (3, "lost", 7, 0.2)]
    )
    assert settled_rows(str(first), [1, 2, 3]) == {1: (1, "winnable", 10, 0.1), 3: (3, "lost", 7, 0.2)}
    assert settled_rows(str(first), [2]) == {}
    with pytest.raises(SystemExit, match="no row for deals 4-5"):
        settled_rows(str(first), [1, 4, 5])


def test_the_script_searches_only_the_deals_left_undecided_and_counts_every_deal(tmp_path: Path) -> None:
    # Deal 2's "lost" is made up: were it searched again, the solver would say otherwise or count it twice.
    first = earlier_run(tmp_path / "first.csv", [(1, "unresolved", 1, 0.0), (2, "lost", 1, 0.0)])
    settled = tmp_path / "settled.csv"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--deals", "1-2", "--nodes", "200000", "--jobs", "1", "--blocked", "base",
         "--settle", str(first), "--csv", str(settled)],
        capture_output=True, text=True, timeout=120, check=True,
    )
    assert "1 of 2 deals decided in" in done.stdout and "; 1 searched again" in done.stdout
    rows = {int(row["deal"]): row for row in csv.DictReader(settled.open())}
    assert set(rows) == {1, 2}
    assert rows[2]["verdict"] == "lost" and rows[2]["nodes"] == "1", "kept as the earlier run had it"
    assert rows[1]["verdict"] != "unresolved" and int(rows[1]["nodes"]) > 1, "searched again with the new budget"
    assert "undecided 0 of 2" in done.stdout
