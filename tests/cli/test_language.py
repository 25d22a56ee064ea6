"""The command line's own sentences in the terminal's language: German under ``LANG=de_DE.UTF-8``, English under ``C``.

Run as a person runs them (subprocesses, the language from ``LANG`` with the variables that
would win over it unset), except where many inputs are tried: those call ``main`` in process
with the environment set the same way.
"""

from __future__ import annotations

import argparse
import io
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.cli import main
from gatebot.cli.parser import build_parser
from gatebot.locale import translator

ROOT = Path(__file__).resolve().parents[2]
GERMAN = "de_DE.UTF-8"
#: Variables that win over LANG in gettext's order: unset, so LANG alone chooses.
STRONGER = ("LANGUAGE", "LC_ALL", "LC_MESSAGES")


@pytest.fixture(autouse=True)
def games_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test on its own new SQLite file, never in the real default; help unwrapped (a wide terminal)."""
    path = tmp_path / "gatebot.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{path}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "2000")
    for variable in STRONGER:
        monkeypatch.delenv(variable, raising=False)
    return path


def gatebot(*args: str, lang: str, cwd: Path | None = None, **extra: str) -> subprocess.CompletedProcess[str]:
    """``gatebot ARGS`` in a terminal speaking ``lang`` (as ``LANG``), with ``extra`` in its environment."""
    env = {**os.environ, "LANG": lang, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(ROOT), **extra}
    return subprocess.run([sys.executable, "-m", "gatebot", *args], capture_output=True, text=True,
                          encoding="utf-8", env=env, cwd=cwd, timeout=60, check=False)


def english_help_lines() -> set[str]:
    """Every description and help line gatebot itself gives its parser (not argparse's own), in English."""
    lines: set[str] = set()
    pending = [build_parser(translator("C"))]
    while pending:
        parser = pending.pop()
        if parser.description:
            lines.add(parser.description)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending.extend(action.choices.values())
                lines.update(str(choice.help) for choice in action._choices_actions)
            elif action.help and not isinstance(action, argparse._HelpAction | argparse._VersionAction):
                lines.add(action.help)
    return lines


def german_help_of_every_command() -> list[str]:
    """The ``--help`` of ``gatebot`` and of each of its commands and subcommands, in German."""
    helps: list[str] = []
    pending = [build_parser(translator(GERMAN))]
    while pending:
        parser = pending.pop()
        helps.append(parser.format_help())
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                pending.extend(action.choices.values())
    return helps


def test_every_commands_help_is_german_with_no_english_help_line_left() -> None:
    english = english_help_lines()
    assert len(english) > 50
    helps = german_help_of_every_command()
    assert len(helps) >= 15  # gatebot, its eleven commands (analyse twice, as analyze), db's four
    for text in helps:
        assert not [line for line in english if line in text], text
    everything = "\n".join(helps)
    for word in ("Spiel", "Datenbank", "Standard", "Exit-Codes", "Befehle"):
        assert word in everything


def test_gatebot_help_and_a_commands_help_are_german_in_a_german_terminal() -> None:
    top = gatebot("--help", lang=GERMAN)
    assert top.returncode == 0, top.stderr
    assert "Befehle:" in top.stdout and "im Terminal spielen" in top.stdout
    assert "play a game in the terminal" not in top.stdout and "commands:" not in top.stdout
    solve = gatebot("solve", "--help", lang=GERMAN)
    assert solve.returncode == 0, solve.stderr
    assert "Stellung" in solve.stdout and "aufgeben (Standard: 20_000_000)" in solve.stdout
    assert "give up on a deal" not in solve.stdout and "(default:" not in solve.stdout


def test_the_same_help_stays_english_in_a_c_terminal() -> None:
    top = gatebot("--help", lang="C")
    assert top.returncode == 0, top.stderr
    assert "commands:" in top.stdout and "play a game in the terminal, saved as you play" in top.stdout
    assert "Befehle" not in top.stdout and "Spiel" not in top.stdout
    solve = gatebot("solve", "--help", lang="C")
    assert "give up on a deal after searching N positions (default: 20_000_000)" in solve.stdout
    assert "Stellung" not in solve.stdout


def test_a_bad_argument_is_one_german_sentence_and_changes_nothing(games_file: Path) -> None:
    result = gatebot("play", "--deal", "zwölf", lang=GERMAN)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("gatebot: --deal nimmt eine ganze Zahl von 1 bis ")
    assert result.stderr.endswith("nicht 'zwölf'.\n") and result.stderr.count("\n") == 1
    assert "takes" not in result.stderr and not games_file.exists()


def test_the_same_bad_argument_stays_english_in_a_c_terminal(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", "C")
    assert main(["play", "--deal", "zwölf"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gatebot: --deal takes a whole number from 1 to ") and "nimmt" not in err


def _positive_whole(text: str) -> bool:
    try:
        return int(text) >= 1
    except ValueError:
        return False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(typed=st.text(max_size=12).filter(lambda text: not _positive_whole(text)))
def test_any_bad_budget_is_refused_in_one_german_sentence(
    typed: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", GERMAN)
    assert main(["solve", "1", f"--nodes={typed}"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("gatebot: --nodes nimmt eine ganze Zahl von Stellungen, 1 oder mehr, nicht ")
    assert err.count("\n") == 1 and "takes" not in err


def test_solve_says_its_verdict_and_cost_in_german(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", GERMAN)
    assert main(["solve", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Gate, Spiel 1, ist gewinnbar: ein Sieg in ") and lines[0].endswith(" Zügen.")
    assert " Knoten in " in lines[-1] and "Knoten/s" in lines[-1]
    assert not [line for line in lines if "winnable" in line or "nodes" in line]


def _sqlite_file(path: Path) -> str:
    sqlite3.connect(path).close()
    return f"sqlite+aiosqlite:///{path}"


def test_health_says_its_verdicts_in_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    url = _sqlite_file(tmp_path / "bot.db")
    beat = tmp_path / "beat"
    beat.write_text(f"{time.time()}\n", encoding="ascii")
    healthy = gatebot("health", lang=GERMAN, cwd=tmp_path, DATABASE_URL=url, HEALTH_FILE=str(beat))
    assert (healthy.returncode, healthy.stderr) == (0, "")
    assert healthy.stdout.startswith("gesund: ") and "Datenbank antwortet" in healthy.stdout
    assert "healthy" not in healthy.stdout
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("HEALTH_FILE", str(beat))
    beat.write_text(f"{time.time() - 600}\n", encoding="ascii")
    for lang, said in ((GERMAN, "gatebot: nicht gesund: der letzte Gateway-Heartbeat des Bots war vor 60"),
                       ("C", "gatebot: unhealthy: the bot's last gateway heartbeat was 60")):
        monkeypatch.setenv("LANG", lang)
        assert main(["health"]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(said) and err.count("\n") == 1
    monkeypatch.setenv("LANG", GERMAN)
    beat.unlink()
    assert main(["health"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("gatebot: nicht gesund: keine Heartbeat-Datei") and "heartbeat file" not in err


def _finish_a_game(monkeypatch: pytest.MonkeyPatch, moves: str) -> None:
    """Play deal 1 of Gate in process with ``moves`` piped in (ending it), as gatebot play does."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(moves))
    assert main(["play", "--deal", "1"]) == 0


def test_card_and_replay_say_their_lines_in_german(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("LANG", GERMAN)
    assert main(["card"]) == 2
    none_yet = capsys.readouterr().err
    assert none_yet.startswith("gatebot: Du hast noch kein beendetes Spiel") and "You have" not in none_yet
    _finish_a_game(monkeypatch, "3f\nresign\ny\n")
    capsys.readouterr()
    assert main(["card", "--out", str(tmp_path / "card.png")]) == 0
    card = capsys.readouterr().out
    assert card.splitlines()[-1].startswith(f"Das Bild der Karte ist nach {tmp_path / 'card.png'} ")
    assert "Wrote" not in card
    replay = gatebot("replay", "--out", str(tmp_path / "game.gif"), lang=GERMAN)
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("Spiel #1, Gate, Spiel 1 (aufgegeben in 1 Zug), ist nach ")
    assert "Bilder" in replay.stdout
    assert not [word for word in ("Wrote", "resigned", "move", "frames") if word in replay.stdout]
    assert main(["replay", "--out", str(tmp_path / "game.png")]) == 2
    assert capsys.readouterr().err.startswith("gatebot: --out nennt eine .gif- oder .webp-Datei")


@pytest.mark.parametrize(("args", "environment", "german", "english"), [
    (("play", "--variant", "spider"), {}, "Eine Variante namens 'spider' gibt es nicht", "There is no variant called"),
    (("analyse", "--deals", "9-3"), {}, "Der Spielbereich 9-3 läuft rückwärts: Schreib ihn als 3-9", "runs backwards"),
    (("play",), {"DATABASE_URL": "mysql://gatebot@localhost/games"}, "gatebot kann mit 'mysql' keine Spiele speichern",
     "can't store games"),
])
def test_refusals_from_below_the_command_line_are_german_too(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...], environment: dict[str, str], german: str, english: str,
) -> None:
    """A variant that isn't one, a deal range backwards and a database gatebot can't use: the rules', the
    analysis's and the store's sentences, said in the terminal's language with nothing else printed."""
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("LANG", GERMAN)
    assert _exit_code(args) == 2
    out, err = capsys.readouterr()
    said = err.rstrip("\n").splitlines()[-1]  # argparse's own "usage:" line may come first
    assert out == "" and said.startswith("gatebot") and german in said and english not in err, err
    monkeypatch.setenv("LANG", "C")
    assert _exit_code(args) == 2
    assert english in capsys.readouterr().err


def _exit_code(args: tuple[str, ...]) -> int:
    """What ``gatebot ARGS`` exits with, whether main returns it or argparse exits with it."""
    try:
        return main(list(args))
    except SystemExit as exit:
        return int(exit.code or 0)
