"""The terminal's ``stats`` and ``card``: a player's statistics and last result card, on a real SQLite file."""

from __future__ import annotations

import io
import re

import pytest

from gatebot.render.card import NEVER, THIRDS
from gatebot.rules import Game
from gatebot.store import database_url_from_env
from gatebot.terminal import PlayRequest, Screen, play_in_terminal
from tests.lines import LOST_DEAL_10, WIN_DEAL_1


@pytest.fixture(autouse=True)
def sqlite_file(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


async def play(text: str, *, deal: int | None = 1, user: str = "alice", new: bool = False) -> str:
    """One ``gatebot play`` on ``text``; everything it printed."""
    stdout = io.StringIO()
    request = PlayRequest(database_url_from_env(), user, deal=deal, new=new)
    assert await play_in_terminal(request, io.StringIO(text), stdout, Screen(interactive=False)) == 0
    return stdout.getvalue()


def grid_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line and set(line) <= {*THIRDS, NEVER}]


async def test_before_any_game_ends_there_is_nothing_to_show() -> None:
    out = await play("stats\ncard\n")
    assert "Your games: none finished yet" in out
    assert "You have no finished game yet" in out
    assert not grid_lines(out)


async def test_stats_and_card_after_a_win_and_a_loss() -> None:
    await play(" ".join(WIN_DEAL_1) + "\n")
    await play(" ".join(LOST_DEAL_10) + "\n", deal=10)
    out = await play("stats\ncard\n", deal=2)
    assert "Gate: 2 games, 1 won (50%); streak 0, best 1" in out
    assert "fastest win" in out and f"in {len(WIN_DEAL_1)} moves" in out
    lost = Game.new("gate", deal=10)
    lost.play_line(" ".join(LOST_DEAL_10))
    assert f"Gate · deal 10 · {lost.score}/52" in out
    rows = grid_lines(out)
    assert len(rows) == 4 and all(len(row) == 13 for row in rows)
    assert sum(row.count(square) for row in rows for square in THIRDS) == lost.score


async def test_the_help_names_the_new_commands() -> None:
    out = await play("help\n")
    assert re.search(r"^  stats +your wins, streaks and best times$", out, re.MULTILINE)
    assert re.search(r"^  card +a spoiler-free card of your last finished game", out, re.MULTILINE)
