"""``resign`` and ``restart`` on a real terminal: each asks first, a no changes nothing, a yes does it.

The game runs on a pseudo-terminal (see :mod:`tests.terminal.test_ctrl_c`), as a person types
at it, and what was stored is read from its SQLite file afterwards.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gatebot.rules import Game
from gatebot.render import render_text
from tests.terminal.test_ctrl_c import Terminal

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc and ptys")


def rows(database: Path) -> list[tuple[str, str, int, int]]:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT status, log, undo_count, deal FROM games ORDER BY id").fetchall()


def answer(terminal: Terminal, line: bytes, then: bytes) -> bytes:
    """Type ``line`` and Enter, wait for ``then``; what the game showed in between, its words one space apart."""
    terminal.type(line + b"\r")
    terminal.read_until(then)
    return b" ".join(terminal.shown[terminal.typed_at:].split())


def test_resign_asks_and_a_no_keeps_the_game(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--deal", "617")
    terminal.read_until(b"gate> ")
    asked = answer(terminal, b"resign", b"yes or no? ")
    assert b"Resign your game of Gate (deal 617)? It ends now, with a score of 0." in asked
    kept = answer(terminal, b"n", b"gate> ")
    assert b"You keep your game: nothing has changed." in kept
    assert rows(tmp_path / "games.db") == [("active", "", 0, 617)]
    answer(terminal, b"resign", b"yes or no? ")
    ended = answer(terminal, b"y", b"Play again? [y/N] ")
    assert b"You resigned with a score of 0." in ended
    terminal.type(b"n\r")
    assert terminal.end() == (0, "")
    assert rows(tmp_path / "games.db") == [("resigned", "", 0, 617)]


def test_restart_asks_then_deals_the_same_cards_again(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    terminal = Terminal(database, "--deal", "1")
    terminal.read_until(b"gate> ")
    answer(terminal, b"3f d", b"gate> ")
    asked = answer(terminal, b"restart", b"yes or no? ")
    assert b"Restart deal 1? You keep the same cards; your 2 moves are taken back, counted as undos." in asked
    answer(terminal, b"no", b"gate> ")
    assert rows(database) == [("active", "3f d", 0, 1)]
    answer(terminal, b"restart", b"yes or no? ")
    restarted = answer(terminal, b"yes", b"gate> ").decode()
    assert "Back to the deal as it was dealt: 2 moves taken back." in restarted
    dealt = Game.new("gate", deal=1)
    boards = (" ".join(render_text(dealt, compact=compact).split()) for compact in (False, True))
    assert any(board in restarted for board in boards)  # the deal as dealt, drawn again (as wide as the screen)
    refused = answer(terminal, b"restart", b"gate> ")
    assert b"There is no move to take back: the cards are as they were dealt." in refused
    terminal.type(b"quit\r")
    assert terminal.end() == (0, "")
    assert rows(database) == [("active", "3f d u u", 2, 1)]  # the same game, its moves taken back as undos
