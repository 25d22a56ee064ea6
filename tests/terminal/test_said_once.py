"""Each event said once, on a real terminal: a win, an ended Archway game and a fresh Archway deal.

``gatebot play`` runs as a subprocess on a pseudo-terminal, as a player types into it (see
:class:`tests.terminal.test_ctrl_c.Terminal`): interactive, with its prompt and line editing.
What it shows after each typed line is read back and checked for repeats: a win announced once
with nothing between the board's last line and its message, one score at an ended game (the
board's), and a deal's note said once with no "No win is left" before anything was played.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.lines import WIN_DEAL_1
from tests.terminal.test_ctrl_c import Terminal

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc and ptys")


def after_typing(terminal: Terminal) -> str:
    """What the screen showed since keys were last typed, with the terminal's line ends made plain."""
    return terminal.shown[terminal.typed_at:].decode("utf-8", "replace").replace("\r\n", "\n")


def test_a_win_is_announced_once_and_nothing_comes_between_the_board_and_its_message(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--deal", "1")
    terminal.read_until(b"gate> ")
    *most, last = WIN_DEAL_1
    terminal.type((" ".join(most) + "\n").encode())
    terminal.read_until(b"gate> ")
    terminal.type(f"{last}\n".encode())
    terminal.read_until(b"Play again? [y/N] ")
    shown = after_typing(terminal)
    terminal.type(b"n\n")
    code, stderr = terminal.end()
    assert code == 0 and "Traceback" not in stderr
    lines = [line.rstrip() for line in shown.splitlines()]
    won = lines.index("Won! Every card is home. Score 52/52.")  # the board's last line
    assert lines[won + 1].startswith("That took ") and "Win streak: 1." in lines[won + 1], shown
    assert lines[won + 2] == "Play again? [y/N]", shown  # and nothing sums it up again
    assert shown.count("Every card is home") == 1 and "You won" not in shown, shown
    assert f"Played {last}." in lines[:won], shown  # what was played comes before the board, not in between
    assert not any(line.startswith("Played") for line in lines[won:]), shown


def test_an_archway_game_ended_at_the_deal_says_one_score_the_boards(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--variant", "archway", "--deal", "3")
    terminal.read_until(b"archway> ")
    terminal.type(b"end\n")
    terminal.read_until(b"Play again? [y/N] ")
    shown = after_typing(terminal)
    terminal.type(b"n\n")
    code, _ = terminal.end()
    assert code == 0
    header, said = shown.split("\n\n", 2)[1], shown.rsplit("\n\n", 1)[-1]
    assert "score 8/104" in header, shown  # the eight bases are home from the deal
    assert "You ended the game with a score of 8/104." in said, shown
    assert re.findall(r"\d+/\d+", said) == ["8/104"] and "score of 0" not in shown, said  # one number, once
    assert "cards home" not in said, said


def test_a_plain_archway_deal_says_its_note_once_and_no_win_is_not_said_before_a_move(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--deal", "1")
    terminal.read_until(b"gate> ")
    terminal.type(b"new archway 3\n")
    terminal.read_until(b"yes or no? ")
    terminal.type(b"yes\n")
    terminal.read_until(b"archway> ")
    shown = after_typing(terminal)
    terminal.type(b"quit\n")
    code, _ = terminal.end()
    assert code == 0
    flowing = " ".join(shown.split())  # the reply is wrapped to the terminal's width
    assert flowing.count("About 4 deals in 1,000 of Archway can be won.") == 1, shown
    assert flowing.count("Dealt Archway deal 3.") == 1, shown
    assert "No win is left" not in shown, shown  # the note says how seldom a deal is won; nothing was played


def test_new_winnable_says_the_deal_is_proven(tmp_path: Path) -> None:
    terminal = Terminal(tmp_path / "games.db", "--variant", "little-gate", "--deal", "3")
    terminal.read_until(b"little-gate> ")
    dealt = after_typing(terminal)
    assert "About 1 deal in 100 of Little Gate can be won." in " ".join(dealt.split()), dealt
    assert "new little-gate winnable" in " ".join(dealt.split()), dealt
    terminal.type(b"new winnable\n")
    terminal.read_until(b"little-gate> ")
    shown = " ".join(after_typing(terminal).split())
    terminal.type(b"quit\n")
    assert terminal.end()[0] == 0
    assert "This deal is proven winnable: the solver found a win." in shown, shown
    assert "About 1 deal in 100" not in shown and "abandon it?" not in shown, shown
