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
from pathlib import Path

import pytest
from sqlalchemy import select

from gatebot.cli import main
from gatebot.render import render_text
from gatebot.rules import Game, GateGame
from gatebot.store import Database, GameRecord, Player, database_url_from_env

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
    assert all(len(line) <= 40 for line in out.splitlines() if not line.startswith(("Upgraded", "Dealt")))


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
