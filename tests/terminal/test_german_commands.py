"""A German player types gatebot play's commands in German: hilfe, tipp, zurück, neu, schluss.

On a pseudo-terminal under ``LANG=de_DE.UTF-8`` the first tip lists the German words, and each
one does what its English name does; the words work at an English terminal too, and without
their umlauts (``zurueck``), since a keyboard may lack them.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from gatebot.locale.commands import command_of
from tests.terminal.test_cli_terminal import gatebot_play, stored
from tests.terminal.test_ctrl_c import Terminal

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc and ptys")


def test_a_german_terminal_lists_the_german_commands_and_each_one_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    database = tmp_path / "games.db"
    terminal = Terminal(database, "--deal", "3")
    terminal.read_until(b"gate> ")
    shown = " ".join(terminal.shown.decode().split())  # the tip wrapped to the terminal's width, joined again
    tip = shown[shown.index("Tippe einen Zug"):shown.index("gate>")]
    listed = tip.rsplit(") oder ", 1)[1].strip().rstrip(".").split(", ")
    assert {"hilfe", "tipp", "zurück", "neu"} <= set(listed), tip
    commands = {"help", "moves", "hint", "undo", "restart", "new", "resign", "stats", "games", "card", "quit"}
    assert {command_of(word) for word in listed} <= commands, tip  # each one a command the terminal has
    terminal.type(b"hilfe\r")
    terminal.read_until(b"Befehle (die englischen gehen auch):")
    terminal.read_until("zurück, u".encode())
    terminal.type(b"tipp\r")
    terminal.read_until(b"Tipp: ")
    terminal.type(b"d\r")
    terminal.read_until(b"Gespielt: d.")
    terminal.type("zurück\r".encode())
    terminal.read_until("Zurückgenommen: d".encode())
    terminal.type(b"neu\r")
    terminal.read_until(b"ja oder nein? ")
    terminal.type(b"ja\r")
    terminal.read_until(b"ist ausgeteilt.")
    terminal.type(b"schluss\r")
    code, stderr = terminal.end()
    assert (code, stderr) == (0, "")
    with sqlite3.connect(database) as connection:
        games = connection.execute("SELECT deal, status, log FROM games ORDER BY id").fetchall()
    assert len(games) == 2 and games[0][:2] == (3, "abandoned") and games[1][1] == "active", games
    shown = terminal.shown.decode()
    assert "neither a move" not in shown and "ist weder ein Zug" not in shown, shown


def test_german_words_work_at_an_english_terminal_and_without_umlauts(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    out = gatebot_play(database, "--deal", "5", stdin="hilfe\nd\nzurueck\nstatistik\nneu 617\nja\nende\n").stdout
    assert "\nCommands:\n  undo, u" in out  # the English help, asked for in German
    assert "Took back d." in out
    assert "Your games: none finished yet" in out
    assert "Dealt Gate deal 617." in out
    assert [(row[2], row[3]) for row in stored(database)] == [(5, "abandoned"), (617, "active")]
    assert "neither a move nor a command" not in out


def test_a_mistyped_german_command_gets_a_german_guess(tmp_path: Path) -> None:
    out = gatebot_play(tmp_path / "games.db", "--deal", "5", stdin="hilfr\nzuruck\nschluss\n",
                       lang="de_DE.UTF-8").stdout
    assert "„hilfr“ ist weder ein Zug noch ein Befehl. Meintest du hilfe?" in out
    assert re.search(r"„zuruck“ ist weder ein Zug noch ein Befehl\. Meintest du zur(ü|ue)ck\?", out), out
