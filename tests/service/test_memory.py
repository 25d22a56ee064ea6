"""What the service keeps in memory is bounded, and never serves a game that changed in the database."""

from cachetools import Cache
from sqlalchemy import update

from gatebot.service import Actor, GameService, ReplyKind
from gatebot.service import attempts as attempts_module
from gatebot.service import memory as memory_module
from gatebot.store import Database, GameRecord

ALICE = Actor("discord", "1001", "Alice")


def player(number: int) -> Actor:
    return Actor("discord", str(3000 + number), f"Player {number}")


def caches(service: GameService) -> dict[str, object]:
    """Every dict-like attribute of the service and its parts, by name."""
    found = {}
    for owner in (service, service.players, service.memory, service.attempts, service.advice):
        for name in getattr(type(owner), "__slots__", ()) or vars(owner):
            value = getattr(owner, name)
            if hasattr(value, "keys") and hasattr(value, "__setitem__"):
                found[f"{type(owner).__name__}.{name}"] = value
    return found


def test_every_cache_has_a_size_and_only_requests_in_flight_are_plain_dicts(tmp_path) -> None:
    service = GameService(Database(f"sqlite+aiosqlite:///{tmp_path}/unused.db"))  # made, never connected
    found = caches(service)
    assert found, "the parts keep caches"
    in_flight = {"Advice._hinting", "Advice._counting"}  # each entry leaves when its request is answered
    unbounded = {name for name, cache in found.items() if not isinstance(cache, Cache)} - in_flight
    assert unbounded <= {"GameService._locks"}, unbounded  # weak: a lock nobody holds goes
    assert all(cache.maxsize > 0 for cache in found.values() if isinstance(cache, Cache))


async def test_the_games_in_memory_never_grow_past_their_size_and_the_rest_play_from_the_database(
    db: Database, monkeypatch
) -> None:
    monkeypatch.setattr(memory_module, "CURRENT_GAMES", 2)
    monkeypatch.setattr(memory_module, "KNOWN_GAMES", 3)
    monkeypatch.setattr(attempts_module, "KNOWN_ATTEMPTS", 2)
    service = GameService(db)
    for number in range(6):
        assert (await service.new_game(player(number), deal=1)).ok
        assert len(service.memory._current) <= 2 and len(service.memory._known) <= 3
        assert len(service.attempts._rules) <= 2
    for number in range(6):
        moved = await service.play(player(number), "45")
        assert moved.ok and moved.played == ("45",) and moved.version == 2
    assert len(service.memory._current) == 2 and len(service.memory._known) == 3


async def test_a_game_changed_behind_the_memory_is_read_again_not_served_from_it(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, deal=1)
    moved = await GameService(db).play(ALICE, "45")  # another service's move: log, position and version move on
    assert moved.version == dealt.version + 1
    async with db.engine.begin() as connection:  # and then a hand edit of the position cache, with the log kept
        await connection.execute(update(GameRecord).where(GameRecord.id == dealt.game_id).values(position="stale"))
    stale_press = await service.act(ALICE, "draw", game_id=dealt.game_id, expected_version=dealt.version)
    assert stale_press.kind is ReplyKind.STALE and stale_press.game.to_text() == moved.game.to_text()
    drawn = await service.play(ALICE, "d")
    assert drawn.ok and drawn.version == moved.version + 2  # the repair took a version, the draw another
    async with db.sessions() as session:
        record = await session.get(GameRecord, dealt.game_id)
    assert record.log == "45 d" and record.position == drawn.game.to_text()
