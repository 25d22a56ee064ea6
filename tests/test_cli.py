"""The ``gatebot`` command: argument handling in process, and real runs as subprocesses.

Every test has its own SQLite file named by DATABASE_URL; what ``gatebot play`` stored is
read back with the store's models.
"""

from __future__ import annotations

import asyncio
import getpass
import io
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat, features
from sqlalchemy import select

from gatebot.cli import main
from gatebot.render import layout_board, render_text
from gatebot.render.image import draw_board
from gatebot.render.replay import REPLAY_SCALE
from gatebot.rules import Game, GateGame
from gatebot.rules.variants import VARIANTS
from gatebot.store import Database, GameRecord, Player, database_url_from_env
from tests.render.test_spoken import RANKS as RANK_WORDS
from tests.render.test_spoken import SUITS as SUIT_WORDS

MAX_DEAL = 2**32 - 1


@pytest.fixture(autouse=True)
def games_file(tmp_path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test plays on its own new SQLite file, named by DATABASE_URL; never in the real default."""
    path = tmp_path / "gatebot.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{path}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return path


def engine_after(*lines: str, number: int = 1, variant: str = "gate") -> GateGame:
    game = Game.new(variant, deal=number)
    assert isinstance(game, GateGame)
    for line in lines:
        game.play_line(line)
    return game


def stored_games() -> list[tuple[str, int, str, str]]:
    """(user, deal, log, status) of every stored game, oldest first, read with the store's models."""

    async def read() -> list[tuple[str, int, str, str]]:
        db = Database(database_url_from_env())
        try:
            async with db.sessions() as session:
                rows = await session.execute(
                    select(Player.platform_user_id, GameRecord.deal, GameRecord.log, GameRecord.status)
                    .join(GameRecord.player).order_by(GameRecord.id)
                )
                return [tuple(row) for row in rows]
        finally:
            await db.dispose()

    return asyncio.run(read())


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch):
    """Replace standard input with the given text."""

    def feed(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))

    return feed


def test_play_a_deal_from_piped_input(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("3f\n76\n")
    assert main(["play", "--deal", "1", "--user", "ann"]) == 0
    out = capsys.readouterr().out
    assert render_text(engine_after("3f", "76")) in out
    assert "\x1b[" not in out  # not a terminal, so no colour by default
    assert stored_games() == [("ann", 1, "3f 76", "active")]


def test_the_player_is_the_login_name_by_default(typed, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(getpass, "getuser", lambda: "zoe")
    typed("d\n")
    assert main(["play", "--deal", "1"]) == 0

    def no_login_name() -> str:
        raise OSError("No username set in the environment")

    monkeypatch.setattr(getpass, "getuser", no_login_name)
    typed("d\n")
    assert main(["play", "--deal", "2"]) == 0
    assert stored_games() == [("zoe", 1, "d", "active"), ("player", 2, "d", "active")]


@pytest.mark.parametrize("bad", ["0", "-5", "abc", "1.5", str(MAX_DEAL + 1), "", "١٢"])
def test_bad_deal_is_one_sentence_and_exit_2(
    bad: str, typed, games_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typed("")
    assert main(["play", f"--deal={bad}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and str(MAX_DEAL) in lines[0] and lines[0].endswith(".")
    assert not games_file.exists()  # refused before the database was opened


@pytest.mark.parametrize("bad", ["", "   ", "x" * 65])
def test_bad_user_is_one_sentence_and_exit_2(bad: str, typed, games_file: Path, capsys) -> None:
    typed("")
    assert main(["play", "--user", bad]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not games_file.exists()


@pytest.mark.parametrize("good", ["1", str(MAX_DEAL)])
def test_deal_range_ends_are_accepted(good: str, typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    assert main(["play", "--deal", good]) == 0
    assert f"deal {good}" in capsys.readouterr().out
    assert [deal for _, deal, _, _ in stored_games()] == [int(good)]


def test_without_a_deal_a_random_one_is_dealt_and_named(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    assert main(["play"]) == 0
    out = capsys.readouterr().out
    named = re.search(r"deal (\d+)", out)
    assert named is not None
    number = int(named.group(1))
    assert 1 <= number <= MAX_DEAL
    assert render_text(engine_after(number=number)) in out
    assert [deal for _, deal, _, _ in stored_games()] == [number]


def test_variant_options_and_compact(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    argv = ["play", "--deal", "7", "--variant", "little-gate", "--option", "single-moves",
            "--option", "stock-fill", "--compact"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    game = Game.new("little-gate", deal=7, options=("single-moves", "stock-fill"))
    assert isinstance(game, GateGame)
    assert render_text(game, compact=True) in out
    assert all(len(line) <= 40 for line in out.splitlines() if not line.startswith(("Your games are saved", "Dealt")))


def test_canfield_is_played_with_its_own_options(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("r3\n32\n")
    assert main(["play", "--deal", "1", "--variant", "canfield", "--option", "draw-one"]) == 0
    out = capsys.readouterr().out
    game = Game.new("canfield", deal=1, options=("draw-one",))
    game.play_line("r3 32")
    assert render_text(game) in out
    assert [(deal, log) for _, deal, log, _ in stored_games()] == [(1, "r3 32")]


def test_an_option_of_another_variant_is_refused(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    assert main(["play", "--variant", "canfield", "--option", "stock-fill"]) != 0
    assert "Canfield has no option 'stock-fill'" in capsys.readouterr().err


def test_unknown_variant_is_refused(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    with pytest.raises(SystemExit) as exited:
        main(["play", "--variant", "klondike"])
    assert exited.value.code == 2



def _gatebot(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``gatebot`` as a player would, with help unwrapped (a wide terminal)."""
    env = {**os.environ, "COLUMNS": "2000"}
    return subprocess.run([sys.executable, "-m", "gatebot", *args], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.parametrize(
    ("typed", "title"), [("Canfield", "Canfield"), ("demon", "Canfield"), ("LITTLE_GATE", "Little Gate")]
)
def test_the_cli_reads_a_variant_in_any_case_or_by_an_alias(typed: str, title: str) -> None:
    done = _gatebot("solve", "--variant", typed, "--nodes", "1", "1")
    assert f"Deal 1 of {title} is undecided" in done.stdout, done.stderr


def test_the_cli_refuses_an_unknown_variant_listing_them_all_and_its_help_lists_every_option() -> None:
    done = _gatebot("solve", "--variant", "klondike", "1")
    assert done.returncode == 2 and done.stdout == ""
    error = done.stderr.strip().splitlines()[-1]
    assert "klondike" in error and all(variant.name in error for variant in VARIANTS)
    helped = " ".join(_gatebot("play", "--help").stdout.split())
    for variant in VARIANTS:
        for option in variant.rule_options:
            assert option.name in helped
            assert " ".join(option.help.split()) in helped, option.help


@pytest.mark.parametrize(("flag", "painted"), [("--colour", True), ("--no-colour", False), ("--color", True)])
def test_colour_flags(flag: str, painted: bool, typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("")
    assert main(["play", "--deal", "1", flag]) == 0
    assert ("\x1b[31m" in capsys.readouterr().out) == painted


def test_new_abandons_the_running_game(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("3f\n")
    assert main(["play", "--deal", "1", "--user", "ann"]) == 0
    typed("")
    assert main(["play", "--deal", "2", "--user", "ann"]) == 0  # another deal: the running game goes on
    assert stored_games() == [("ann", 1, "3f", "active")]
    assert "--new" in capsys.readouterr().out
    typed("")
    assert main(["play", "--new", "--deal", "2", "--user", "ann"]) == 0
    assert stored_games() == [("ann", 1, "3f", "abandoned"), ("ann", 2, "", "active")]
    assert "abandoned" in capsys.readouterr().out


class Interrupted(io.StringIO):
    """Standard input on which the player presses Ctrl-C once the given lines are read."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline(size)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_exits_130_with_the_game_saved_and_the_engine_disposed(monkeypatch: pytest.MonkeyPatch) -> None:
    disposed = []
    dispose = Database.dispose

    async def counting_dispose(self: Database) -> None:
        disposed.append(self.url)
        await dispose(self)

    monkeypatch.setattr(Database, "dispose", counting_dispose)
    monkeypatch.setattr(sys, "stdin", Interrupted("3f\nd\n"))
    assert main(["play", "--deal", "1"]) == 130
    assert len(disposed) == 1
    assert [row[1:] for row in stored_games()] == [(1, "3f d", "active")]


def test_no_subcommand_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "usage: gatebot" in out and "play" in out


def _subprocess(*args: str, stdin: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "gatebot", *args], input=stdin, capture_output=True,
        text=True, encoding="utf-8", env=env, timeout=30, check=False,
    )


def test_python_m_gatebot_plays_piped_moves_and_a_second_run_resumes() -> None:
    first = _subprocess("play", "--deal", "1", stdin="d\n3f\n")
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""
    assert first.stdout.count("score") == 3  # the first board and one after each move
    after = engine_after("d", "3f")
    assert render_text(after) in first.stdout
    assert "gate>" not in first.stdout and "\x1b[" not in first.stdout

    second = _subprocess("play", stdin="")
    assert second.returncode == 0, second.stderr
    assert second.stdout.count("score") == 1 and render_text(after) in second.stdout
    waste = next(line for line in second.stdout.splitlines() if line.startswith("W"))
    assert after.waste[-1].pretty in waste  # the card the first run drew


def test_python_m_gatebot_play_words_draws_every_board_in_words() -> None:
    result = _subprocess("play", "--deal", "1", "--words", stdin="d\n")
    assert result.returncode == 0, result.stderr
    after = engine_after("d")
    top = after.waste[-1]
    lines = result.stdout.splitlines()
    assert lines.count("Gate, deal 1. 0 moves, score 0 of 52.") == 1
    assert lines.count("Gate, deal 1. 1 move, score 0 of 52.") == 1
    assert f"Waste, W: {RANK_WORDS[top.rank - 1]} of {SUIT_WORDS[top.suit]}." in lines
    assert top.pretty not in result.stdout  # no card symbols anywhere on the boards


def test_python_m_gatebot_bad_deal_exits_2() -> None:
    result = _subprocess("play", "--deal", "99999999999", stdin="")
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_python_m_gatebot_play_with_a_bad_database_url_exits_2() -> None:
    result = _subprocess("play", "--deal", "1", stdin="d\n", env={"DATABASE_URL": "mysql://u:hunter2@h/db"})
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gatebot: ") and "hunter2" not in lines[0]


# gatebot replay: a finished terminal game as an animated picture.


def _frames(path: Path) -> list[Image.Image]:
    """Every frame of an animated picture file, as RGB."""
    image = Image.open(path)
    found = []
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        found.append(image.convert("RGB"))
    return found


def _looks_like(frame: Image.Image, game: Game) -> bool:
    """Whether a replay frame shows ``game`` (its board drawn at the replay's scale; GIF colours are near)."""
    board = draw_board(replace(layout_board(game, REPLAY_SCALE), size=frame.size)).convert("RGB")
    return sum(ImageStat.Stat(ImageChops.difference(frame, board)).mean) / 3 < 2


def test_python_m_gatebot_replay_writes_the_last_finished_game_move_by_move(typed, tmp_path: Path) -> None:
    typed("3f\n45\nundo\nresign\ny\n")
    assert main(["play", "--deal", "1"]) == 0
    out = tmp_path / "game.gif"
    result = _subprocess("replay", "--out", str(out), stdin="")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == f"Wrote game #1, Gate deal 1 (resigned in 1 move), to {out}: 4 frames, " \
        f"{round(out.stat().st_size / 1024)} KB.\n"
    frames = _frames(out)
    assert Image.open(out).format == "GIF" and len(frames) == 4  # the deal, 3f, 45, and 45 taken back
    assert _looks_like(frames[0], Game.new("gate", deal=1))
    assert _looks_like(frames[2], engine_after("3f", "45"))
    assert _looks_like(frames[3], engine_after("3f")) and not _looks_like(frames[3], engine_after("3f", "45"))


def test_replay_refuses_a_game_still_running_and_writes_nothing(
    typed, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typed("3f\n")
    assert main(["play", "--deal", "1"]) == 0
    capsys.readouterr()
    out = tmp_path / "game.gif"
    assert main(["replay", "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "gatebot: Your game is still running: finish it first, then watch it back.\n"
    assert not out.exists()


def test_replay_without_out_names_the_file_after_the_game_and_webp_follows_the_name(
    typed, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    typed("3f\nresign\ny\n")
    assert main(["play", "--deal", "1"]) == 0
    monkeypatch.chdir(tmp_path)
    assert main(["replay"]) == 0
    assert Image.open(tmp_path / "gatebot-replay-1.gif").format == "GIF"
    if features.check("webp"):
        assert main(["replay", "--game", "#1", "--out", "shared.WEBP"]) == 0
        assert Image.open(tmp_path / "shared.WEBP").format == "WEBP"
    assert "gatebot-replay-1.gif: 2 frames" in capsys.readouterr().out


def test_replay_of_another_players_game_is_refused(typed, capsys: pytest.CaptureFixture[str]) -> None:
    typed("resign\ny\n")
    assert main(["play", "--deal", "1", "--user", "ann"]) == 0
    capsys.readouterr()
    assert main(["replay", "--user", "bob", "--game", "1"]) == 2
    assert "another player's" in capsys.readouterr().err
    assert main(["replay", "--user", "bob"]) == 2
    assert capsys.readouterr().err == "gatebot: You have no finished game to watch yet: play one first.\n"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--out", "replay.png"], "--out names a .gif or .webp file, not 'replay.png'"),
        (["--out", "."], "--out names a .gif or .webp file"),
        (["--game", "0"], "--game takes a game's number, like 12, not '0'"),
        (["--user", " "], "--user takes a name of 1 to 64 characters"),
    ],
)
def test_bad_replay_arguments_are_one_sentence_and_exit_2(
    args: list[str], says: str, games_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"gatebot: {says}")
    assert len(captured.err.splitlines()) == 1
    assert not games_file.exists()  # checked before the database was opened


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=30))
def test_any_game_number_is_a_game_or_one_sentence(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever --game says, the answer is one sentence and exit 2 (no game is stored), never a traceback."""
    assert main(["replay", f"--game={text}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gatebot: ") and len(err.splitlines()) == 1


# gatebot db: the schema of the database named by DATABASE_URL.


@pytest.fixture
def database_env(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """Point DATABASE_URL at the given URL (default: a new SQLite file in tmp_path)."""

    def point(url: str | None = None) -> str:
        url = url or f"sqlite+aiosqlite:///{tmp_path / 'gatebot.db'}"
        monkeypatch.setenv("DATABASE_URL", url)
        return url

    return point


def _one_sentence_on_stderr(captured: pytest.CaptureResult[str]) -> str:
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gatebot: ") and lines[0].endswith(".")
    return lines[0]


def test_db_upgrade_then_current_print_the_head(database_env, capsys: pytest.CaptureFixture[str]) -> None:
    from gatebot.store.migrate import head_revision

    database_env()
    head = head_revision()
    assert main(["db", "current"]) == 0
    assert capsys.readouterr().out.startswith("empty ")
    assert main(["db", "upgrade"]) == 0
    assert capsys.readouterr().out == f"Upgraded the database from empty to {head}.\n"
    assert main(["db", "upgrade"]) == 0
    assert capsys.readouterr().out == f"The database is up to date (revision {head}).\n"
    assert main(["db", "current"]) == 0
    captured = capsys.readouterr()
    assert captured.out == f"{head} (head)\n" and captured.err == ""


def test_db_current_names_a_revision_from_a_newer_gatebot(
    database_env, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    database_env()
    assert main(["db", "upgrade"]) == 0
    with sqlite3.connect(tmp_path / "gatebot.db") as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    capsys.readouterr()
    assert main(["db", "current"]) == 0
    assert capsys.readouterr().out.startswith("9999 (newer than this gatebot")
    assert main(["db", "upgrade"]) == 2
    assert "newer gatebot (revision 9999)" in _one_sentence_on_stderr(capsys.readouterr())


@pytest.mark.parametrize("url", ["not a url", "mysql://gatebot:hunter2-secret@localhost/gatebot"])
@pytest.mark.parametrize("action", ["upgrade", "current"])
def test_db_with_a_malformed_url_is_one_sentence_and_exit_2(
    url: str, action: str, database_env, capsys: pytest.CaptureFixture[str]
) -> None:
    database_env(url)
    assert main(["db", action]) == 2
    assert "hunter2" not in _one_sentence_on_stderr(capsys.readouterr())


def test_db_with_a_bad_port_is_one_sentence_and_exit_2(
    database_env, capsys: pytest.CaptureFixture[str]
) -> None:
    database_env("postgresql+asyncpg://gatebot:hunter2-secret@localhost:port/gatebot")
    assert main(["db", "current"]) == 2
    assert "hunter2" not in _one_sentence_on_stderr(capsys.readouterr())


def test_db_under_a_regular_file_is_one_sentence_and_exit_2(
    database_env, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unwritable even for root: the database's folder would have to be inside a plain file."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    database_env(f"sqlite+aiosqlite:///{blocker / 'gatebot.db'}")
    assert main(["db", "upgrade"]) == 2
    assert "not-a-folder" in _one_sentence_on_stderr(capsys.readouterr())


def test_db_on_a_folder_is_one_sentence_and_exit_2(
    database_env, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    database_env(f"sqlite+aiosqlite:///{tmp_path}")
    assert main(["db", "upgrade"]) == 2
    assert "is a folder" in _one_sentence_on_stderr(capsys.readouterr())


def test_db_with_an_unreachable_server_never_prints_the_password(
    database_env, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    database_env(f"postgresql+asyncpg://gatebot:hunter2-secret@127.0.0.1:{port}/gatebot")
    assert main(["db", "current"]) == 2
    line = _one_sentence_on_stderr(capsys.readouterr())
    assert "hunter2" not in line and "gatebot:***@127.0.0.1" in line


def test_python_m_gatebot_db_on_a_folder_prints_no_traceback(tmp_path) -> None:
    """A failed SQLite open must not leave aiosqlite's thread to die noisily after the message."""
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}"}
    result = subprocess.run(
        [sys.executable, "-m", "gatebot", "db", "current"], capture_output=True, text=True,
        env=env, timeout=30, check=False,
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


# gatebot play on a database it can't use: one sentence, exit 2, nothing changed.


@pytest.mark.parametrize("url", ["not a url", "mysql://gatebot:hunter2-secret@localhost/gatebot"])
def test_play_with_a_malformed_url_is_one_sentence_and_exit_2(
    url: str, database_env, typed, capsys: pytest.CaptureFixture[str]
) -> None:
    database_env(url)
    typed("d\n")
    assert main(["play", "--deal", "1"]) == 2
    assert "hunter2" not in _one_sentence_on_stderr(capsys.readouterr())


def test_play_under_a_regular_file_is_one_sentence_and_exit_2(
    database_env, tmp_path, typed, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    database_env(f"sqlite+aiosqlite:///{blocker / 'gatebot.db'}")
    typed("d\n")
    assert main(["play", "--deal", "1"]) == 2
    assert "not-a-folder" in _one_sentence_on_stderr(capsys.readouterr())
    assert blocker.read_text() == ""


def test_sync_under_a_regular_file_is_one_sentence_and_exit_2(
    database_env, tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    database_env(f"sqlite+aiosqlite:///{blocker / 'gatebot.db'}")
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("GATEBOT_DEV_GUILD_ID", "")
    monkeypatch.chdir(tmp_path)  # no .env file of the checkout's
    assert main(["sync"]) == 2
    assert "not-a-folder" in _one_sentence_on_stderr(capsys.readouterr())


def test_play_on_a_database_from_a_newer_gatebot_changes_nothing(
    database_env, tmp_path, typed, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    database_env()
    assert main(["db", "upgrade"]) == 0
    with sqlite3.connect(tmp_path / "gatebot.db") as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    capsys.readouterr()
    typed("d\n")
    assert main(["play", "--deal", "1"]) == 2
    assert "newer gatebot" in _one_sentence_on_stderr(capsys.readouterr())
    with sqlite3.connect(tmp_path / "gatebot.db") as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [("9999",)]
        assert connection.execute("SELECT count(*) FROM games").fetchone() == (0,)


# gatebot solve: a deal number or a position; the verdict, the line, the cost.


def _solved_line(out: str) -> tuple[str, list[str], str]:
    """The verdict sentence, the line's tokens and the cost line of ``gatebot solve``'s output."""
    lines = out.splitlines()
    assert all(len(line) <= 72 for line in lines[1:-1])
    return lines[0], " ".join(lines[1:-1]).split(), lines[-1]


def test_solve_a_deal_prints_a_line_that_replays_to_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "1"]) == 0
    verdict, tokens, cost = _solved_line(capsys.readouterr().out)
    assert verdict == f"Deal 1 of Gate is winnable: a win in {len(tokens)} moves."
    game = Game.new("gate", deal=1)
    for token in tokens:
        assert str(game.play(token)) == token  # canonical already
    assert game.is_won
    assert re.fullmatch(r"[\d,]+ nodes in [\d.]+ m?s \([\d,]+ nodes/s\)\.", cost)


def test_solve_a_lost_deal_of_a_variant_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    from gatebot.solver import solve

    game = Game.new("little-gate", deal=6, options=("stock-fill",))
    assert isinstance(game, GateGame)
    expected = solve(game).verdict.value
    assert main(["solve", "6", "--variant", "little-gate", "--option", "stock-fill"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Deal 6 of Little Gate (stock-fill) ")
    assert first.endswith({"lost": "can't be won.", "winnable": "moves."}[expected])


def test_solve_plays_canfield_and_archway_deals_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "11", "--variant", "canfield"]) == 0
    verdict, tokens, _ = _solved_line(capsys.readouterr().out)
    assert verdict == f"Deal 11 of Canfield is winnable: a win in {len(tokens)} moves."
    game = Game.new("canfield", deal=11)
    for token in tokens:
        game.play(token)
    assert game.is_won
    assert main(["solve", "3", "--variant", "archway"]) == 0
    assert capsys.readouterr().out.startswith("Deal 3 of Archway can't be won.\n")


def test_solve_refuses_a_canfield_view_whose_reserve_is_hidden(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new("canfield", deal=11)
    game.play_line("d " * 13)  # the stock is listed from the second pass; the reserve stays face down
    path = tmp_path / "seen.txt"
    path.write_text(game.to_text(hide_stock=True), encoding="utf-8")
    assert main(["solve", str(path)]) == 2
    assert "reserve's and the stock's order" in capsys.readouterr().err


def test_solve_out_of_budget_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "2", "--nodes", "10"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert re.fullmatch(r"Deal 2 of Gate is undecided after 10 nodes \(.+\): try a bigger budget\.", lines[0])


def test_solve_a_position_file_from_the_middle_of_a_game(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    start = engine_after("3f", "d", "d")
    path = tmp_path / "position.txt"
    path.write_text(start.to_text(), encoding="utf-8")
    assert main(["solve", str(path)]) == 0
    verdict, tokens, _ = _solved_line(capsys.readouterr().out)
    assert verdict == f"The position is winnable: a win in {len(tokens)} moves."
    game = Game.from_text(start.to_text())
    for token in tokens:
        game.play(token)
    assert game.is_won


def test_solve_a_position_from_standard_input(typed, capsys: pytest.CaptureFixture[str]) -> None:
    game = engine_after()
    for token in ("3f", "76"):
        game.play(token)
    typed(f"```\n{game.to_text()}\n```\n")  # as pasted from chat
    assert main(["solve", "-"]) == 0
    assert capsys.readouterr().out.startswith("The position is winnable")


def test_solve_a_won_position(typed, capsys: pytest.CaptureFixture[str]) -> None:
    from gatebot.solver import solve

    game = engine_after()
    for move in solve(game).line:
        game.play(move)
    typed(game.to_text())
    assert main(["solve", "-"]) == 0
    assert capsys.readouterr().out.startswith("The position is already won.\n")


def test_solve_a_hidden_stock_is_refused_in_one_sentence(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "seen.txt"
    path.write_text(engine_after("3f").to_text(hide_stock=True), encoding="utf-8")
    assert main(["solve", str(path)]) == 2
    line = _one_sentence_on_stderr(capsys.readouterr())
    assert "hidden" in line and "S: ?34" in line


def test_solve_a_hidden_but_empty_stock_is_fine(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    game = engine_after()
    while game.stock_count:
        game.play("d")
    path = tmp_path / "drawn.txt"
    path.write_text(game.to_text(hide_stock=True), encoding="utf-8")
    assert game.to_text(hide_stock=True).rstrip().endswith("S:")
    assert main(["solve", str(path)]) == 0
    assert capsys.readouterr().out.startswith("The position ")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["solve", "0"], "no deal 0"),
        (["solve", str(MAX_DEAL + 1)], str(MAX_DEAL)),
        (["solve", "no-such-file.txt"], "no file"),
        (["solve", "1", "--nodes", "0"], "--nodes"),
        (["solve", "1", "--nodes", "many"], "--nodes"),
        (["solve", "1", "--seconds", "-1"], "--seconds"),
        (["solve", "1", "--seconds", "nan"], "--seconds"),
        (["solve", "1", "--variant", "little-gate", "--option", "stock-fill", "--seconds", "inf"], "--seconds"),
    ],
)
def test_solve_mistakes_are_one_sentence_and_exit_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert words in _one_sentence_on_stderr(capsys.readouterr())


def test_solve_a_malformed_position_names_the_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "short.txt"
    path.write_text("gate\nL: JD 9H 5D 7C KD\n", encoding="utf-8")
    assert main(["solve", str(path)]) == 2
    assert "short.txt" in _one_sentence_on_stderr(capsys.readouterr())
    assert main(["solve", str(tmp_path)]) == 2
    assert "folder" in _one_sentence_on_stderr(capsys.readouterr())
    assert main(["solve", str(path), "--variant", "little-gate"]) == 2
    assert "first line" in _one_sentence_on_stderr(capsys.readouterr())


# gatebot analyse: a range of deals in parallel, a CSV and a summary.


def test_analyse_writes_a_sorted_csv_matching_solve(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv

    from gatebot.solver import solve

    out = tmp_path / "deals.csv"
    assert main(["analyse", "--deals", "4-5,1-2", "--jobs", "2", "--seconds", "5", "--csv", str(out)]) == 0
    captured = capsys.readouterr()
    with out.open(encoding="utf-8", newline="") as file:
        records = list(csv.DictReader(file))
    assert [int(r["deal"]) for r in records] == [1, 2, 4, 5]
    for record in records:
        game = Game.new("gate", deal=int(record["deal"]))
        assert isinstance(game, GateGame)
        solution = solve(game, max_seconds=5)
        assert record["verdict"] == solution.verdict.value
        assert int(record["moves"]) == len(solution.line) and int(record["nodes"]) == solution.nodes
        assert record["variant"] == "gate" and int(record["peak_kib"]) > 0
    winnable = sum(r["verdict"] == "winnable" for r in records)
    lines = captured.out.splitlines()
    assert lines[0] == "Gate, deals 1-2,4-5: 4 deals, at most 20,000,000 nodes or 5 s each, in 2 processes."
    assert f"Decided:     4 of 4 (100.0%): {winnable} winnable, 0 lost, 0 unresolved." in lines
    assert any(line.startswith("Winnable:    ") and "95% interval" in line for line in lines)
    assert lines[-1] == f"Wrote 4 rows to {out}."
    assert "4/4 deals" in captured.err  # the progress line (stderr is no terminal here)


def test_analyse_with_unresolved_deals_counts_them_both_ways(capsys: pytest.CaptureFixture[str]) -> None:
    """With 200 nodes, deal 1 is won (a straight line of 118 moves) and deal 2 is not decided yet."""
    from gatebot.analyse import wilson_interval
    from gatebot.solver import solve

    verdicts = []
    for deal in (1, 2):
        game = Game.new("gate", deal=deal)
        assert isinstance(game, GateGame)
        verdicts.append(solve(game, max_nodes=200).verdict.value)
    winnable, lost, unresolved = (verdicts.count(v) for v in ("winnable", "lost", "unresolved"))
    assert main(["analyse", "--deals", "1-2", "--jobs", "1", "--nodes", "200"]) == 0
    out = capsys.readouterr().out
    decided = winnable + lost
    assert (f"Decided:     {decided} of 2 ({50 * decided:.1f}%): {winnable} winnable, {lost} lost, "
            f"{unresolved} unresolved.") in out
    low, high = wilson_interval(winnable, 2)[0], wilson_interval(winnable + unresolved, 2)[1]
    interval = f"95% interval {100 * low:.1f}%–{100 * high:.1f}%"
    assert interval in out
    if verdicts == ["winnable", "unresolved"]:  # as the solver stands
        assert f"Winnable:    100.0% of the decided deals; {interval} of all deals" in out
        assert interval == "95% interval 9.5%–100.0%"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--deals", "0"], "--deals"),
        (["--deals", "5-3"], "backwards"),
        (["--deals", "1-x"], "--deals"),
        (["--deals", "1,,3"], "--deals"),
        (["--deals", "1", "--jobs", "0"], "--jobs"),
        (["--deals", "1", "--jobs", "two"], "--jobs"),
        (["--deals", "1", "--jobs", "100000"], "--jobs"),
        (["--deals", "1", "--seconds", "0"], "--seconds"),
        (["--deals", "1", "--variant", "little-gate", "--option", "stock-fill", "--nodes", "-3"], "--nodes"),
    ],
)
def test_analyse_mistakes_are_one_sentence_and_exit_2(
    argv: list[str], words: str, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "never.csv"
    assert main(["analyse", *argv, "--csv", str(out)]) == 2
    assert words in _one_sentence_on_stderr(capsys.readouterr())
    assert not out.exists()


def test_analyse_to_an_unwritable_csv_is_refused_before_solving(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--deals", "1", "--csv", str(tmp_path / "missing" / "out.csv")]) == 2
    assert "missing" in _one_sentence_on_stderr(capsys.readouterr())


def test_analyse_ctrl_c_stops_at_once_and_keeps_what_finished(tmp_path) -> None:
    """Deal 9 of Little Gate runs for the whole minute; Ctrl-C after deal 6 (lost at once) ends it all."""
    import signal

    out = tmp_path / "deals.csv"
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    process = subprocess.Popen(
        [sys.executable, "-m", "gatebot", "analyse", "--variant", "little-gate", "--deals", "6,9", "--jobs", "2",
         "--seconds", "60", "--nodes", "100000000", "--csv", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as typed at a terminal
    )
    try:
        assert process.stderr is not None
        assert "1/2 deals" in process.stderr.readline()
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=20)
    finally:
        process.kill()
    assert process.returncode == 130
    assert stderr == "gatebot: interrupted after 1 of 2 deals.\n"
    assert "Decided:     1 of 1 (100.0%)" in stdout
    assert [line.split(",")[:4] for line in out.read_text(encoding="utf-8").splitlines()[1:]] == [
        ["6", "little-gate", "", "lost"]
    ]


def test_analyse_ctrl_c_stops_canfield_s_compiled_search_at_once_too() -> None:
    """In one process, Canfield's deal 18 searches for the whole 10 s; Ctrl-C after deal 11 (won at once) ends it.

    The compiled search runs without the GIL, and takes it back a few times a second for the
    signal's handler, so Ctrl-C stops it as it stops the Python search.
    """
    import signal
    import time

    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    process = subprocess.Popen(
        [sys.executable, "-m", "gatebot", "analyse", "--variant", "canfield", "--deals", "11,18", "--jobs", "1",
         "--seconds", "10", "--nodes", "100000000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as typed at a terminal
    )
    try:
        assert process.stderr is not None
        assert "1/2 deals" in process.stderr.readline()
        sent = time.perf_counter()
        process.send_signal(signal.SIGINT)
        _stdout, stderr = process.communicate(timeout=20)
        waited = time.perf_counter() - sent
    finally:
        process.kill()
    assert process.returncode == 130
    assert stderr == "gatebot: interrupted after 1 of 2 deals.\n"
    assert waited < 4  # not the 10 s the deal had left


def test_db_forget_server_deletes_that_servers_challenges_only(
    database_env, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    database_env()
    assert main(["db", "upgrade"]) == 0
    with sqlite3.connect(tmp_path / "gatebot.db") as connection:
        for guild, day in ((111, "2026-11-28"), (111, "2026-11-29"), (222, "2026-11-29")):
            connection.execute(
                "INSERT INTO challenges (guild_id, kind, name, variant, options, deal, hints, undo, day, "
                "opens_at, closes_at, created_at) VALUES (?, 'daily', 'Daily', 'gate', '', 7, 'allowed', "
                "'allowed', ?, '2026-11-29 00:00:00', '2026-11-30 00:00:00', '2026-11-29 00:00:00')",
                (guild, day),
            )
        connection.execute(
            "INSERT INTO daily_schedules (guild_id, channel_id, variant, options, winnable, hints, undo, "
            "secret, enabled, updated_at) VALUES (111, 5, 'gate', '', 0, 'allowed', 'allowed', 'x', 1, "
            "'2026-11-29 00:00:00')"
        )
    capsys.readouterr()
    assert main(["db", "forget-server", "111"]) == 0
    assert capsys.readouterr().out == "Deleted 2 challenges and the daily schedule of server 111.\n"
    with sqlite3.connect(tmp_path / "gatebot.db") as connection:
        left = connection.execute("SELECT guild_id FROM challenges").fetchall()
        schedules = connection.execute("SELECT count(*) FROM daily_schedules").fetchone()[0]
    assert left == [(222,)] and schedules == 0


# Behaving like a Unix tool: --version, and output whose reader has gone.


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    result = _subprocess("--version", stdin="")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"gatebot {version('gatebot')}\n"
    assert re.fullmatch(r"gatebot \d+\.\d+\S*\n", result.stdout)


def _into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``gatebot args`` with standard output a pipe nobody reads: its read end is closed first.

    Every write then fails at once with EPIPE, as when ``| head -1`` has taken its line and gone.
    """
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "gatebot", *args], stdin=subprocess.DEVNULL, stdout=write_end,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", timeout=60, check=False,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "1"],
        ["analyse", "--deals", "1-2", "--jobs", "1", "--seconds", "5"],
        ["analyse", "--deals", "1-3", "--jobs", "2", "--seconds", "5"],
        ["play", "--deal", "1"],
        ["db", "current"],
    ],
)
def test_output_cut_short_exits_141_without_a_traceback(argv: list[str]) -> None:
    result = _into_a_closed_pipe(*argv)
    assert result.stderr == ""
    assert result.returncode == 141



# Any input, of any size: one sentence and exit code 2.


def _huge_files(folder: Path) -> dict[str, Path]:
    """Files that are no position: 10 MB of text, binary bytes, a 4,301-digit line, nothing at all."""
    files = {
        "ten-mb.txt": b"gate\n" + b"x" * 10_000_000,
        "binary.bin": bytes(range(256)) * 4,
        "digits.txt": b"9" * 4301 + b"\n",
        "deal-line.txt": b"gate\nL: JD 9H 5D 7C KD " + b"9" * 4301 + b"\n",
        "empty.txt": b"",
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return {name: folder / name for name in files}


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("ten-mb.txt", "too big"),
        ("binary.bin", "UTF-8"),
        ("digits.txt", "digits.txt"),
        ("deal-line.txt", "deal-line.txt"),
        ("empty.txt", "empty"),
        ("missing.txt", "no file"),
        (".", "folder"),
        ("9" * 4301, "no deal of 4,301 digits"),
        ("0" * 4301, "no deal of 4,301 digits"),
    ],
)
def test_solve_refuses_any_file_or_number_in_one_short_sentence(
    target: str, words: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _huge_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["solve", target]) == 2
    line = _one_sentence_on_stderr(capsys.readouterr())
    assert words in line and len(line) < 500


@pytest.mark.parametrize("name", ["ten-mb.txt", "binary.bin"])
def test_solve_refuses_huge_or_binary_standard_input(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _huge_files(tmp_path)[name].read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["solve", "-"]) == 2
    assert "Standard input" in _one_sentence_on_stderr(capsys.readouterr())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=600) | st.text(max_size=600).map(str.encode))
def test_solve_of_any_standard_input_is_a_verdict_or_one_sentence(
    data: bytes, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    code = main(["solve", "-", "--nodes", "1000"])
    captured = capsys.readouterr()
    if code == 2:
        _one_sentence_on_stderr(captured)
    else:
        assert code in (0, 1) and captured.err == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--deal", "9" * 4301],
        ["analyse", "--deals", "9" * 4301],
        ["analyse", "--deals", "1-" + "9" * 4301],
        ["analyse", "--deals", "1", "--jobs", "9" * 4301],
        ["solve", "1", "--nodes", "9" * 4301],
        ["solve", "1", "--seconds", "9" * 4301],
    ],
)
def test_numbers_of_thousands_of_digits_are_one_short_sentence(
    argv: list[str], typed, capsys: pytest.CaptureFixture[str]
) -> None:
    typed("")
    assert main(argv) == 2
    line = _one_sentence_on_stderr(capsys.readouterr())
    assert len(line) < 300 and argv[-2] in line


def test_python_m_gatebot_solve_of_a_huge_number_or_file_prints_no_traceback(tmp_path: Path) -> None:
    files = _huge_files(tmp_path)
    for target in ("9" * 4301, str(files["ten-mb.txt"])):
        result = _subprocess("solve", target, stdin="")
        assert result.returncode == 2
        assert result.stdout == "" and "Traceback" not in result.stderr
        assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", [("db", "upgrade"), ("run",)])
def test_a_database_stamped_behind_its_tables_is_one_sentence_of_advice(
    database_env, tmp_path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """Stamped 0001 with 0002's tables: no traceback about ``challenges`` existing, but what to stamp."""
    import sqlite3

    url = database_env()
    assert main(["db", "upgrade"]) == 0
    with sqlite3.connect(tmp_path / "gatebot.db") as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0001'")
    env = {"DATABASE_URL": url, "DISCORD_TOKEN": "not-a-real-token", "GATEBOT_DEV_GUILD_ID": ""}
    result = _subprocess(*command, stdin="", env=env)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    # gatebot run logs at INFO: the advice is its last line, and nothing was migrated before it.
    lines = result.stderr.strip().splitlines()
    # The earliest revision whose tables are head's: stamping it lets any later data migration still run.
    from gatebot.store import migrate

    head = migrate.tables_at(migrate.head_revision())
    matched = next(r for r in ("0002", "0003", "0004", "0005", "0006", "0007", migrate.head_revision())
                   if migrate.tables_at(r) == head)
    assert f"revision 0001 but its tables are already at {matched}'s" in lines[-1]
    assert f"db stamp {matched}`" in lines[-1]
    assert not any("Running upgrade" in line for line in lines)
    assert len(lines) == 1 or command == ("run",)
    capsys.readouterr()
    assert main(["db", "stamp", matched]) == 0
    assert capsys.readouterr().out == f"The database now says it is at revision {matched} (it said 0001).\n"
    assert main(["db", "upgrade"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Upgraded the database from {matched} to ") or matched == migrate.head_revision()


# gatebot card: a finished terminal game's result card, and its picture.


def test_python_m_gatebot_card_prints_the_last_finished_games_card_and_writes_its_picture(
    typed, tmp_path: Path
) -> None:
    typed("3f\nresign\ny\n")
    assert main(["play", "--deal", "1"]) == 0
    out = tmp_path / "card.png"
    result = _subprocess("card", "--out", str(out), stdin="")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "Gate · deal 1 · 1/52"
    assert "".join(lines[1:5]).count("⬛") == 51 and "⬛ never home" in lines[5]  # only A♦ went up
    assert lines[-1] == f"Wrote the card's picture to {out}: {round(out.stat().st_size / 1024)} KB."
    picture = Image.open(out)
    assert (picture.format, picture.mode) == ("PNG", "P") and out.stat().st_size < 10_000


def test_python_m_gatebot_card_prints_the_card_in_the_terminals_language(typed) -> None:
    typed("3f\nresign\ny\n")
    assert main(["play", "--deal", "1"]) == 0
    german = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}
    lines = _subprocess("card", stdin="", env=german).stdout.splitlines()
    assert lines[0] == "Gate · Spiel 1 · 1/52"
    assert lines[5] == "🟩 früh · 🟨 Spielmitte · 🟧 spät · ⬛ nie abgelegt"
    assert lines[6].startswith("1 Zug · keine Tipps · keine Rücknahmen")
    english = {**german, "LANG": "C.UTF-8"}
    assert _subprocess("card", stdin="", env=english).stdout.splitlines()[0] == "Gate · deal 1 · 1/52"


def test_card_without_a_finished_game_or_with_a_bad_file_name_says_so_and_writes_nothing(
    typed, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "card.png"
    assert main(["card", "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        "gatebot: You have no finished game to share yet: finish one with gatebot play, then share it.\n")
    typed("resign\ny\n")
    assert main(["play", "--deal", "1"]) == 0
    capsys.readouterr()
    assert main(["card", "--out", str(tmp_path / "card.gif")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("gatebot: --out names a .png file")
    assert not out.exists() and not (tmp_path / "card.gif").exists()


# gatebot invite: the two install links.


def test_invite_prints_a_server_link_and_a_user_link_for_the_application() -> None:
    from urllib.parse import parse_qs, urlsplit

    import discord

    done = _gatebot("invite", "1234567890123456789")
    assert done.returncode == 0 and done.stderr == ""
    links = re.findall(r"https://\S+", done.stdout)
    assert len(links) == 2
    server, user = (parse_qs(urlsplit(link).query) for link in links)
    assert all(urlsplit(link)[:3] == ("https", "discord.com", "/oauth2/authorize") for link in links)
    assert server["client_id"] == user["client_id"] == ["1234567890123456789"]
    assert server["integration_type"] == ["0"] and user["integration_type"] == ["1"]
    assert server["scope"] == ["bot applications.commands"] and user["scope"] == ["applications.commands"]
    assert "permissions" not in user  # a user install adds no bot anywhere
    granted = {name for name, on in discord.Permissions(int(server["permissions"][0])) if on}  # View Channel
    assert granted == {"read_messages", "send_messages", "embed_links", "attach_files", "read_message_history",
                       "add_reactions"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=25))
def test_invite_of_any_id_is_two_links_or_one_sentence(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["invite", "--", text])
    captured = capsys.readouterr()
    if code == 0:
        number = int(text.strip())  # any whitespace around it is let go, as str.strip knows it (\x1d too)
        assert number > 0 and captured.out.count(f"client_id={number}&") == 2
    else:
        assert code == 2
        _one_sentence_on_stderr(captured)
