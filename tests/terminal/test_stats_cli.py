"""``gatebot stats`` and ``gatebot games`` as a person runs them: subprocesses on one SQLite file.

The numbers ``gatebot games`` lists are fed back to ``gatebot replay --game N``, which must
accept each one: the list is where a player finds them.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from PIL import Image

from gatebot.service import Actor, GameService
from gatebot.store import Database, GameStatus
from gatebot.store.migrate import ensure_schema
from tests.lines import WIN_DEAL_1

ROOT = Path(__file__).resolve().parents[2]


def gatebot(database: Path, *args: str, stdin: str = "", lang: str = "C.UTF-8") -> subprocess.CompletedProcess[str]:
    """One run of ``gatebot ARGS`` on its own database, the terminal speaking ``lang``."""
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{database}", "PYTHONIOENCODING": "utf-8",
           "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(database.parent / "data"), "LANG": lang}
    for variable in ("COLUMNS", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(variable, None)
    return subprocess.run([sys.executable, "-m", "gatebot", *args], input=stdin, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=60, check=False, cwd=database.parent)


async def played(database: Path, games: tuple[tuple[int, str], ...]) -> None:
    """Ann's games as ``gatebot play`` saves them: each deal played with its moves, then resigned unless won."""
    db = Database(f"sqlite+aiosqlite:///{database}")
    await ensure_schema(db)
    service = GameService(db)
    ann = Actor("terminal", "ann", "ann")
    for deal, moves in games:
        await service.new_game(ann, deal=deal)
        if (await service.play(ann, moves)).status is not GameStatus.WON:
            await service.resign(ann)
    await db.dispose()


def test_stats_draw_a_picture_and_games_lists_the_numbers_replay_takes(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    asyncio.run(played(database, ((2, "d"), (1, " ".join(WIN_DEAL_1)), (2, "d d"))))
    stats = gatebot(database, "stats", "--user", "ann", "--out", str(tmp_path / "stats.png"))
    assert stats.returncode == 0, stats.stderr
    assert "Gate: 3 games, 1 won (33%); streak 0, best 1" in stats.stdout
    assert "Gate deals played more than once: deal 2, 2 times, best 0/52." in stats.stdout
    assert "Statistics picture of Gate: 3 games, 1 won (33%)." in stats.stdout
    data = (tmp_path / "stats.png").read_bytes()
    assert len(data) < 40_000
    with Image.open(io.BytesIO(data)) as picture:
        assert picture.format == "PNG" and picture.width == 640
    games = gatebot(database, "games", "--user", "ann")
    assert games.returncode == 0, games.stderr
    ids = [int(number) for number in re.findall(r"^#(\d+) · ", games.stdout, re.MULTILINE)]
    assert len(ids) == 3 and ids == sorted(ids, reverse=True)
    assert re.search(rf"^#{ids[0]} · Gate deal 2 · resigned 0/52 · 2 moves · ", games.stdout, re.MULTILINE)
    assert re.search(rf"^#{ids[1]} · Gate deal 1 · won 52/52 · {len(WIN_DEAL_1)} moves · ", games.stdout,
                     re.MULTILINE)
    assert games.stdout.rstrip().endswith(f"gatebot replay --game {ids[0]}")
    # A listed number is one replay takes (a short game: an animation of the win's every move takes long to draw).
    replay = gatebot(database, "replay", "--user", "ann", "--game", str(ids[2]), "--out", str(tmp_path / "r.gif"))
    assert replay.returncode == 0 and f"#{ids[2]}" in replay.stdout, replay.stderr
    # Someone else on the machine has no games: no picture of ann's, and nothing written.
    nothing = gatebot(database, "stats", "--user", "bo", "--out", str(tmp_path / "bo.png"))
    assert nothing.returncode == 2 and nothing.stderr.count("\n") == 1 and not (tmp_path / "bo.png").exists()


def test_bad_arguments_are_one_sentence_in_german_too(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    page = gatebot(database, "games", "--page", "zwei")
    assert page.returncode == 2 and page.stderr == "gatebot: --page takes a page's number, like 2, not 'zwei'.\n"
    german = gatebot(database, "stats", "--out", "stats.gif", lang="de_DE.UTF-8")
    assert german.returncode == 2 and "png" in german.stderr and german.stderr.count("\n") == 1
    assert "--out" in german.stderr and "names" not in german.stderr


def test_games_inside_play_lists_the_numbers_replay_takes_in_english_and_german(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    asyncio.run(played(database, ((2, "d"), (3, "d d"))))
    english = gatebot(database, "play", "--user", "ann", stdin="games\ngames two\nquit\n")
    assert english.returncode == 0, english.stderr
    ids = [int(number) for number in re.findall(r"^#(\d+) · ", english.stdout, re.MULTILINE)]
    assert len(ids) == 2 and ids[0] > ids[1]  # newest first
    assert re.search(rf"^#{ids[0]} · Gate deal 3 · resigned 0/52 · 2 moves · ", english.stdout, re.MULTILINE)
    assert "Say games for your latest finished games, or games and a page, like games 2." in english.stdout
    replay = gatebot(database, "replay", "--user", "ann", "--game", str(ids[1]))
    assert replay.returncode == 0, replay.stderr
    german = gatebot(database, "play", "--user", "ann", stdin="spiele\nschluss\n", lang="de_DE.UTF-8")
    assert german.returncode == 0, german.stderr
    assert "Deine Spiele, die neuesten zuerst (Seite 1 von 1, 2 insgesamt):" in german.stdout
    assert [int(n) for n in re.findall(r"^#(\d+) · ", german.stdout, re.MULTILINE)] == ids


def test_games_inside_play_before_any_game_ended_says_so(tmp_path: Path) -> None:
    played_nothing = gatebot(tmp_path / "games.db", "play", "--user", "bo", stdin="games\nquit\n")
    assert played_nothing.returncode == 0, played_nothing.stderr
    assert "You have no finished games yet: start one with new." in played_nothing.stdout
