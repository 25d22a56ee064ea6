"""After a forget-me, the player's name and id are nowhere in SQLite's files: not in free pages, not in the log."""

from __future__ import annotations

from pathlib import Path

from gatebot.service import Actor, GameService
from gatebot.store import Database
from tests.conftest import create_schema

#: A name and an id that appear nowhere else, so finding their bytes means finding this player.
NAME = "Quokka Vantablack 7731"
USER_ID = "998877665544332211"
OTHER = Actor("discord", "1001", "Bob Plain")


def files_holding(folder: Path, *needles: str) -> dict[str, list[str]]:
    """Each file of the database (``.db``, ``-wal``, ``-shm``) with the needles found in its bytes."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.glob("gatebot.db*")):
        data = path.read_bytes()
        hits = [needle for needle in needles if needle.encode() in data]
        if hits:
            found[path.name] = hits
    return found


async def test_a_forgotten_players_name_and_id_leave_the_database_files(tmp_path: Path) -> None:
    db = Database(f"sqlite+aiosqlite:///{tmp_path}/gatebot.db")
    service = GameService(db)
    try:
        await create_schema(db)
        player = Actor("discord", USER_ID, NAME)
        await service.set_preferences(player, board_style="emoji")
        for deal in (1, 2, 3):
            await service.new_game(player, deal=deal, confirm=True)
            await service.play(player, "d d 3f")
        await service.new_game(OTHER, deal=4)  # someone who stays: their rows share the pages
        await service.play(OTHER, "d")
        assert files_holding(tmp_path, NAME, USER_ID), "the player is stored before"

        assert await service.forget(player)
        assert files_holding(tmp_path, NAME, USER_ID) == {}
        assert files_holding(tmp_path, OTHER.display_name), "the other player's rows are kept"
        assert (await service.show(OTHER)).ok
    finally:
        service.close()
        await db.dispose()
