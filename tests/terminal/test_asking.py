"""``resign``, ``restart``, ``help`` and ``rules`` on a real terminal, as a person types and reads them.

``resign`` and ``restart`` each ask first: a no changes nothing, a yes does it. ``help`` and
``rules`` fit the width the terminal reports, wrapped once, with only the game's own moves.

The game runs on a pseudo-terminal (see :mod:`tests.terminal.test_ctrl_c`), as a person types
at it, and what was stored is read from its SQLite file afterwards.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gatebot.render import render_text
from gatebot.rules import Game
from tests.terminal.test_ctrl_c import Terminal
from tests.terminal.wrapping import badly_wrapped

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
    assert b"Resign your game of Gate (deal 617)? It ends now, with a score of 0/52." in asked
    kept = answer(terminal, b"n", b"gate> ")
    assert b"You keep your game: nothing has changed." in kept
    assert rows(tmp_path / "games.db") == [("active", "", 0, 617)]
    answer(terminal, b"resign", b"yes or no? ")
    ended = answer(terminal, b"y", b"Play again? [y/N] ")
    assert b"You resigned with a score of 0/52." in ended
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


@pytest.mark.parametrize("columns", [80, 36])
@pytest.mark.parametrize("variant", ["gate", "archway"])
def test_help_and_rules_fit_the_terminal_and_show_only_this_games_moves(
    tmp_path: Path, columns: int, variant: str
) -> None:
    terminal = Terminal(tmp_path / "games.db", "--variant", variant, "--deal", "3", columns=columns)
    prompt = f"{variant}> ".encode()
    terminal.read_until(prompt)
    terminal.type(b"help\r")
    terminal.read_until(prompt)
    helped = terminal.shown[terminal.typed_at:].decode().replace("\r\n", "\n").split("\n", 1)[1].rsplit("\n", 1)[0]
    terminal.type(b"rules\r")
    terminal.read_until(prompt)
    ruled = terminal.shown[terminal.typed_at:].decode().replace("\r\n", "\n").split("\n", 1)[1].rsplit("\n", 1)[0]
    terminal.type(b"quit\r")
    assert terminal.end() == (0, "")

    for shown in (helped, ruled):
        assert badly_wrapped(shown, columns) == [], shown
        assert "docs/" not in shown
    moves = helped.split("\nCommands:")[0]
    if variant == "gate":
        mine, others = "3f", ("fhk", "Archway", "Canfield")
    else:
        mine, others = "fhk", ("lf rf wf", "35:2", "Canfield")
    assert mine in moves and not [word for word in others if word in moves]
    assert "restart" in helped.split("\nCommands:")[1]
