"""Players to the service: their preferences and board messages, carried by every reply, in bounded caches."""

import asyncio
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event

from gatebot.locale import translator
from gatebot.messages import message_of
from gatebot.service import Actor, GameService, Preferences, ReplyKind
from gatebot.service import players as players_module
from gatebot.service.players import Players, PreferenceError
from gatebot.store import Database, GameRecord
from tests.conftest import create_schema

ALICE = Actor("discord", "1001", "Alice")
BOB = Actor("discord", "1002", "Bob")

#: A listening connection in pg_stat_activity: its last statement was its LISTEN, or (after the first
#: few seconds) the heartbeat it sends itself.
LISTENING = "(query LIKE 'LISTEN%' OR query LIKE 'NOTIFY gatebot_beat_%')"


async def test_the_board_message_is_remembered_without_outdating_the_buttons(db: Database) -> None:
    service = GameService(db)
    start = await service.new_game(ALICE, deal=1)
    await service.set_board_message(start.game_id, 555, 1180000000000000123)
    assert await service.board_message(start.game_id) == (555, 1180000000000000123)
    async with db.sessions() as session:
        record = await session.get(GameRecord, start.game_id)
    assert record.version == start.version
    pressed = await service.act(ALICE, "draw", game_id=start.game_id, expected_version=start.version)
    assert pressed.kind is ReplyKind.BOARD


async def test_preferences_are_saved_per_player(db: Database) -> None:
    service = GameService(db)
    # A new player starts with the compact text board, the one that fits a phone.
    assert await service.preferences(ALICE) == Preferences("text", True)
    assert await service.set_preferences(ALICE, board_style="image") == Preferences("image", True)
    assert await service.set_preferences(ALICE, compact=False) == Preferences("image", False)
    assert await GameService(db).preferences(ALICE) == Preferences("image", False)
    assert await service.preferences(BOB) == Preferences("text", True)


async def test_the_words_style_and_the_four_colour_deck_are_saved_and_carried_by_every_reply(db: Database) -> None:
    service = GameService(db)
    assert (await service.preferences(ALICE)).four_colour is False
    chosen = await service.set_preferences(ALICE, board_style="words", compact=False, four_colour=True)
    assert chosen == Preferences("words", False, four_colour=True)
    assert await service.set_preferences(ALICE, compact=True) == Preferences("words", True, four_colour=True)
    assert await GameService(db).preferences(ALICE) == Preferences("words", True, four_colour=True)  # from the row
    dealt = await service.new_game(ALICE, deal=1)
    assert dealt.preferences == Preferences("words", True, four_colour=True)
    assert (await GameService(db).show(ALICE)).preferences == Preferences("words", True, four_colour=True)
    assert await service.set_preferences(ALICE, four_colour=False) == Preferences("words", True)
    assert await service.preferences(BOB) == Preferences()


async def test_an_unknown_board_style_is_one_sentence_and_changes_nothing(db: Database) -> None:
    service = GameService(db)
    await service.set_preferences(ALICE, board_style="emoji", compact=False)
    with pytest.raises(PreferenceError, match=r"^Board styles are text, emoji, image, words; choose one of them\.$"):
        await service.set_preferences(ALICE, board_style="neon")
    assert await GameService(db).preferences(ALICE) == Preferences("emoji", False)


async def test_an_unknown_board_style_is_said_in_german_to_a_german_reader(db: Database) -> None:
    with pytest.raises(PreferenceError) as refused:
        await GameService(db).set_preferences(ALICE, board_style="neon")
    said = translator("de").say(message_of(refused.value))
    assert said == "Die Brettstile sind text, emoji, image, words; wähle einen davon.", "the names are what is typed"

async def test_every_reply_carries_its_players_preferences_and_where_the_board_is(db: Database) -> None:
    service = GameService(db)
    await service.set_preferences(ALICE, board_style="emoji", compact=True)
    dealt = await service.new_game(ALICE, deal=1)
    assert dealt.preferences == Preferences("emoji", True)
    assert (dealt.board_channel_id, dealt.board_message_id) == (None, None), "no board posted yet"
    await service.set_board_message(dealt.game_id, 555, 1180000000000000123)
    pressed = await service.act(ALICE, "draw", game_id=dealt.game_id, expected_version=dealt.version)
    typed = await service.play(ALICE, "45")
    for reply in (pressed, typed, await service.show(ALICE), await GameService(db).show(ALICE)):
        assert reply.kind is ReplyKind.BOARD
        assert reply.preferences == Preferences("emoji", True)
        assert (reply.board_channel_id, reply.board_message_id) == (555, 1180000000000000123)
    refused = await service.act(BOB, "draw", game_id=dealt.game_id, expected_version=typed.version)
    assert refused.kind is ReplyKind.ERROR and refused.preferences == Preferences()


async def test_a_press_is_one_connection_to_the_database(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, deal=1)
    await service.set_board_message(dealt.game_id, 555, 1180000000000000123)
    board = await service.show(ALICE)
    if not db.is_sqlite:
        # Until it hears other processes' changes it keeps nothing, and asks again each time.
        await _listening(service)
        board = await service.show(ALICE)
    checkouts: list[object] = []
    event.listen(db.engine.sync_engine, "checkout", lambda *_: checkouts.append(1))
    for action in ("draw", "45", "undo"):
        board = await service.act(ALICE, action, game_id=board.game_id, expected_version=board.version)
        assert board.saved and board.preferences is not None and board.board_message_id == 1180000000000000123
        assert len(checkouts) == 1, f"{action}: one transaction, and nothing more to ask"
        checkouts.clear()


async def test_the_preferences_cache_never_grows_past_its_size(db: Database, monkeypatch) -> None:
    monkeypatch.setattr(players_module, "PREFERENCES", 3)
    monkeypatch.setattr(players_module, "BOARD_MESSAGES", 2)
    players = Players(db)
    service = GameService(db)
    for number in range(8):
        actor = Actor("discord", str(2000 + number), f"P{number}")
        assert await players.preferences(actor) == Preferences()
        dealt = await service.new_game(actor, deal=number + 1)
        await players.set_board_message(dealt.game_id, 555, 10 + number)
        assert await players.board_message(dealt.game_id) == (555, 10 + number)
    assert len(players._preferences) <= 3 and players._preferences.maxsize == 3
    assert len(players._boards) <= 2
    first = await service.show(Actor("discord", "2000", "P0"))
    assert await players.board_message(first.game_id) == (555, 10), "a board pushed out is read again"


# -- two processes on one PostgreSQL: a change through one is honoured by the other at once --------------

ON_POSTGRES = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


async def _until(check, what: str, timeout: float = 5.0) -> None:
    """Wait for ``await check()`` to hold (a notice travels through the server), failing after ``timeout`` s."""
    try:
        async with asyncio.timeout(timeout):
            while not await check():
                await asyncio.sleep(0.005)
    except TimeoutError:
        pytest.fail(f"not within {timeout:g} s: {what}")


async def _listening(service: GameService) -> None:
    await service.preferences(Actor("discord", "0", "nobody"))  # the first read starts the listener

    async def hears() -> bool:
        return service.players.hears_changes

    await _until(hears, "the service listens for other processes' changes")


@ON_POSTGRES
async def test_a_preference_changed_through_one_process_is_honoured_by_another_at_once(database_url: str) -> None:
    first, second = Database(database_url), Database(database_url)  # one engine per process
    a, b = GameService(first), GameService(second)
    try:
        await create_schema(first)
        await _listening(b)
        assert await b.preferences(ALICE) == Preferences()  # kept by b
        assert await a.set_preferences(ALICE, board_style="emoji", compact=True) == Preferences("emoji", True)

        async def b_sees_it() -> bool:
            return await b.preferences(ALICE) == Preferences("emoji", True)

        await _until(b_sees_it, "b draws alice's boards her new way")  # within PREFERENCES_SECONDS before
        dealt = await b.new_game(ALICE, deal=1)
        assert dealt.preferences == Preferences("emoji", True)
        assert await b.preferences(BOB) == Preferences(), "only the changed player's answer was dropped"
    finally:
        a.close()
        b.close()
        await first.dispose()
        await second.dispose()


@ON_POSTGRES
async def test_a_board_posted_through_one_process_is_where_the_other_edits_at_once(database_url: str) -> None:
    first, second = Database(database_url), Database(database_url)
    a, b = GameService(first), GameService(second)
    try:
        await create_schema(first)
        await _listening(b)
        dealt = await b.new_game(ALICE, deal=1)
        await b.set_board_message(dealt.game_id, 555, 1180000000000000123)
        assert await b.board_message(dealt.game_id) == (555, 1180000000000000123)
        await a.set_board_message(dealt.game_id, 777, 1180000000000000999)  # a posted a fresh board

        async def b_finds_it() -> bool:
            return await b.board_message(dealt.game_id) == (777, 1180000000000000999)

        await _until(b_finds_it, "b finds the board a posted")
        drawn = await b.play(ALICE, "d")  # b's remembered game carries the new place too
        assert (drawn.board_channel_id, drawn.board_message_id) == (777, 1180000000000000999)
    finally:
        a.close()
        b.close()
        await first.dispose()
        await second.dispose()


@ON_POSTGRES
async def test_while_another_process_cant_be_heard_nothing_is_kept(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gatebot.store import notices

    monkeypatch.setattr(notices, "RETRY_SECONDS", 60.0)  # stays deaf for the whole test once dropped
    first, second = Database(database_url), Database(database_url)
    a, b = GameService(first), GameService(second)
    admin = await asyncpg.connect(notices.listener_dsn(first.url))
    try:
        await create_schema(first)
        await _listening(b)
        assert await b.preferences(ALICE) == Preferences()
        # The listener connects again at once after a drop: its next connection is refused, so it stays deaf
        # (the engines' own connections, made without the listener's keepalive settings, go through).
        connect = asyncpg.connect

        async def refuse_listeners(*args: Any, **kwargs: Any) -> Any:
            if "tcp_keepalives_idle" in (kwargs.get("server_settings") or {}):
                raise OSError("refused by the test")
            return await connect(*args, **kwargs)

        monkeypatch.setattr(asyncpg, "connect", refuse_listeners)  # the module notices imports when connecting
        await admin.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE {LISTENING}"
                            " AND datname = current_database()")

        async def deaf() -> bool:
            return not b.players.hears_changes

        await _until(deaf, "b knows it can't hear")
        for style in ("image", "words"):
            await a.set_preferences(ALICE, board_style=style)  # unheard by b
            assert (await b.preferences(ALICE)).board_style == style, "read from the database, not kept"
        assert not b.players.hears_changes, "b stayed deaf throughout"
    finally:
        await admin.close()
        a.close()
        b.close()
        await first.dispose()
        await second.dispose()



@ON_POSTGRES
async def test_a_player_forgotten_through_one_process_gets_default_boards_from_the_other(database_url: str) -> None:
    first, second = Database(database_url), Database(database_url)
    a, b = GameService(first), GameService(second)
    try:
        await create_schema(first)
        await _listening(b)
        await a.set_preferences(ALICE, board_style="image")
        assert await b.preferences(ALICE) == Preferences("image", True)  # kept by b (compact, a new player's default)
        assert await a.forget(ALICE)

        async def b_forgot() -> bool:
            return await b.preferences(ALICE) == Preferences()

        await _until(b_forgot, "b no longer draws alice's boards as images")
    finally:
        a.close()
        b.close()
        await first.dispose()
        await second.dispose()
