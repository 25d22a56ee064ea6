"""The ``gatebot`` command: argument handling in process, and one real run as a subprocess."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

from gatebot.cli import main
from gatebot.render import render_text
from gatebot.rules import Game, GateGame

MAX_DEAL = 2**32 - 1


def engine_after(*lines: str, number: int = 1, variant: str = "gate") -> GateGame:
    game = Game.new(variant, deal=number)
    assert isinstance(game, GateGame)
    for line in lines:
        game.play_line(line)
    return game


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch):
    """Replace standard input with the given text."""

    def feed(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))

    return feed


def test_play_a_deal_from_piped_input(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("3f\n76\n")
    assert main(["play", "--deal", "1"]) == 0
    out = capsys.readouterr().out
    assert render_text(engine_after("3f", "76")) in out
    assert "\x1b[" not in out  # not a terminal, so no colour by default


@pytest.mark.parametrize("bad", ["0", "-5", "abc", "1.5", str(MAX_DEAL + 1), "", "١٢"])
def test_bad_deal_is_one_sentence_and_exit_2(bad: str, typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    assert main(["play", f"--deal={bad}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and str(MAX_DEAL) in lines[0] and lines[0].endswith(".")


@pytest.mark.parametrize("good", ["1", str(MAX_DEAL)])
def test_deal_range_ends_are_accepted(good: str, typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    assert main(["play", "--deal", good]) == 0
    assert f"deal {good}" in capsys.readouterr().out


def test_without_a_deal_a_random_one_is_dealt_and_named(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    assert main(["play"]) == 0
    out = capsys.readouterr().out
    named = re.search(r"deal (\d+)", out)
    assert named is not None
    number = int(named.group(1))
    assert 1 <= number <= MAX_DEAL
    assert render_text(engine_after(number=number)) in out


def test_variant_options_and_compact(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    argv = ["play", "--deal", "7", "--variant", "little-gate", "--option", "single-moves",
            "--option", "stock-fill", "--compact"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    game = Game.new("little-gate", deal=7, options=("single-moves", "stock-fill"))
    assert isinstance(game, GateGame)
    assert render_text(game, compact=True) in out
    assert all(len(line) <= 40 for line in out.splitlines())


def test_unknown_variant_is_refused(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    with pytest.raises(SystemExit) as exited:
        main(["play", "--variant", "klondike"])
    assert exited.value.code == 2


@pytest.mark.parametrize(("flag", "painted"), [("--colour", True), ("--no-colour", False), ("--color", True)])
def test_colour_flags(flag: str, painted: bool, typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    assert main(["play", "--deal", "1", flag]) == 0
    assert ("\x1b[31m" in capsys.readouterr().out) == painted


def test_no_subcommand_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "usage: gatebot" in out and "play" in out


def _subprocess(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "gatebot", *args], input=stdin, capture_output=True,
        text=True, encoding="utf-8", env=env, timeout=30, check=False,
    )


def test_python_m_gatebot_plays_piped_moves() -> None:
    result = _subprocess("play", "--deal", "1", stdin="3f\n76\nd\n")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.count("score") == 4
    assert render_text(engine_after("3f", "76", "d")) in result.stdout
    assert "gate>" not in result.stdout and "\x1b[" not in result.stdout


def test_python_m_gatebot_bad_deal_exits_2() -> None:
    result = _subprocess("play", "--deal", "99999999999", stdin="")
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
