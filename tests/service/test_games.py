"""The game service on a real database (SQLite file and PostgreSQL): every request end to end."""

import logging
import random
import re
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from gatebot.rules import Game
from gatebot.service import Actor, GameService, ReplyKind, replay
from gatebot.service.changes import progress
from gatebot.store import Database, GameRecord, GameStatus

from ..rules.builders import position

ALICE = Actor("terminal", "alice", "Alice")
BOB = Actor("discord", "1180000000000000001", "Bob", guild_id=1180000000000000000, channel_id=42)


async def stored(db: Database, game_id: int) -> GameRecord:
    async with db.sessions() as session:
        record = await session.get(GameRecord, game_id)
        assert record is not None
        return record


async def test_a_new_game_is_dealt_and_saved(db: Database) -> None:
    service = GameService(db)
    reply = await service.new_game(ALICE, deal=1)
    assert reply.kind is ReplyKind.BOARD
    assert reply.game is not None and reply.game.to_text() == Game.new("gate", deal=1).to_text()
    assert set(reply.moves) == {"3f", "37", "45", "76", "d"}
    assert reply.actions == ("draw", "hint", "resign")
    record = await stored(db, reply.game_id)
    assert (record.variant, record.deal, record.log, record.status) == ("gate", 1, "", "active")
    assert record.position == reply.game.to_text()


async def test_a_random_deal_comes_from_the_picker(db: Database) -> None:
    service = GameService(db, deal_picker=lambda: 617)
    reply = await service.new_game(ALICE, "little-gate", options=("single-moves",))
    record = await stored(db, reply.game_id)
    assert (record.deal, record.variant, record.options) == (617, "little-gate", "single-moves")


async def test_moves_are_saved_and_survive_a_restart(db: Database) -> None:
    await GameService(db).new_game(BOB, deal=1)
    reply = await GameService(db).play(BOB, "3f 45 d")
    assert reply.played == ("3f", "45", "d")
    assert reply.message is None
    expected = Game.new("gate", deal=1)
    expected.play_line("3f 45 d")
    again = await GameService(db).show(BOB)  # a fresh service: nothing cached
    assert again.game is not None and again.game.to_text() == expected.to_text()
    record = await stored(db, reply.game_id)
    assert record.log == "3f 45 d"
    assert (record.move_count, record.score, record.guild_id, record.channel_id) == (3, 1, BOB.guild_id, 42)


async def test_an_illegal_move_changes_nothing_and_says_why(db: Database) -> None:
    service = GameService(db)
    first = await service.new_game(ALICE, deal=1)
    reply = await service.play(ALICE, "9f")
    assert reply.kind is ReplyKind.ERROR
    assert reply.message == "Column 9 doesn't exist: Gate has columns 1–8."
    assert reply.game is not None and reply.game.to_text() == first.game.to_text()
    record = await stored(db, first.game_id)
    assert (record.log, record.version) == ("", first.version)


async def test_a_line_keeps_the_moves_before_the_one_that_failed(db: Database) -> None:
    service = GameService(db)
    first = await service.new_game(ALICE, deal=1)
    reply = await service.play(ALICE, "3f 9f 45")
    assert reply.kind is ReplyKind.BOARD
    assert reply.played == ("3f",)
    assert reply.message == "Column 9 doesn't exist: Gate has columns 1–8."
    record = await stored(db, first.game_id)
    assert record.log == "3f"
    assert record.version == first.version + 1


async def test_a_new_game_over_a_running_one_needs_confirmation(db: Database) -> None:
    service = GameService(db)
    first = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f")
    ask = await service.new_game(ALICE, deal=2)
    assert ask.kind is ReplyKind.CONFIRM
    assert "deal 1" in ask.message and "score 1" in ask.message
    assert (await stored(db, first.game_id)).status == "active"
    done = await service.new_game(ALICE, deal=2, confirm=True)
    assert done.kind is ReplyKind.BOARD and done.game_id != first.game_id
    old = await stored(db, first.game_id)
    assert (old.status, old.score) == ("abandoned", 1)
    assert old.finished_at is not None
    assert "abandoned with a score of 1" in done.message


async def test_undo_is_logged_and_counted(db: Database) -> None:
    service = GameService(db)
    start = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f 45")
    reply = await service.undo(ALICE)
    expected = Game.new("gate", deal=1)
    expected.play("3f")
    assert reply.game.to_text() == expected.to_text()
    assert "undo" in reply.actions
    record = await stored(db, start.game_id)
    assert (record.log, record.undo_count, record.move_count) == ("3f 45 u", 1, 1)  # 45 was taken back
    assert replay(record).to_text() == expected.to_text()
    await service.undo(ALICE, 5)
    nothing = await service.undo(ALICE)
    assert nothing.kind is ReplyKind.ERROR and nothing.message == "There is no move to take back."


async def test_an_undo_says_what_it_took_back(db: Database) -> None:
    service = GameService(db)
    await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "d 3f")
    both = await service.undo(ALICE, 2)
    assert both.message == "Took back 3f and d."
    await service.play(ALICE, "3f 76")
    assert (await service.act(ALICE, "undo")).message == "Took back 76."
    assert (await service.undo(ALICE, 9)).message == "Took back 3f (that was every move)."


TAKEN_BACK = re.compile(r"Took back (?P<moves>.+?)(?P<every> \(that was every move\))?\.")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(played=st.integers(1, 6), wanted=st.integers(1, 8), seed=st.integers(0, 2**16))
async def test_an_undo_names_the_moves_it_took_back_last_first(
    db: Database, played: int, wanted: int, seed: int
) -> None:
    service = GameService(db)
    await service.new_game(ALICE, deal=1, confirm=True)
    game, rng = Game.new("gate", deal=1), random.Random(seed)
    tokens = []
    for _ in range(played):
        tokens.append(str(game.play(rng.choice(game.legal_moves()))))
    await service.play(ALICE, " ".join(tokens))
    reply = await service.undo(ALICE, wanted)
    said = TAKEN_BACK.fullmatch(reply.message)
    assert said is not None, reply.message
    assert re.split(r", | and ", said["moves"]) == tokens[::-1][:wanted]
    assert (said["every"] is not None) == (wanted > played)
    assert len(reply.game.moves) == max(0, played - wanted)


async def test_resigning_ends_the_game(db: Database) -> None:
    service = GameService(db)
    start = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f")
    reply = await service.resign(ALICE)
    assert reply.status is GameStatus.RESIGNED and reply.actions == () and reply.moves == ()
    assert (await stored(db, start.game_id)).status == "resigned"
    after = await service.play(ALICE, "d")
    assert after.kind is ReplyKind.ERROR and "no game in progress" in after.message


async def test_resign_asked_first_changes_nothing_until_confirmed(db: Database) -> None:
    service = GameService(db)
    start = await service.new_game(ALICE, deal=617)
    played = await service.play(ALICE, "d")
    asked = await service.resign(ALICE, confirm=False)
    assert asked.kind is ReplyKind.CONFIRM and asked.game_id == start.game_id
    assert asked.message == "Resign your game of Gate (deal 617)? It ends now, with a score of 0/52."
    record = await stored(db, start.game_id)
    assert (record.status, record.version) == ("active", played.version)
    assert (await service.resign(ALICE)).status is GameStatus.RESIGNED  # the yes
    refused = await service.resign(ALICE, confirm=False)  # no game left to ask about
    assert refused.kind is ReplyKind.ERROR and "no game in progress" in refused.message


async def test_restart_asks_then_takes_every_move_back_as_undos(db: Database) -> None:
    service = GameService(db)
    start = await service.new_game(ALICE, deal=1)
    nothing = await service.restart(ALICE)
    assert nothing.kind is ReplyKind.ERROR and nothing.message == (
        "There is no move to take back: the cards are as they were dealt."
    )
    played = await service.play(ALICE, "3f 45 d")
    asked = await service.restart(ALICE)
    assert asked.kind is ReplyKind.CONFIRM and asked.message == (
        "Restart deal 1? You keep the same cards; your 3 moves are taken back, counted as undos."
    )
    assert (await stored(db, start.game_id)).version == played.version  # asking changed nothing
    done = await service.restart(ALICE, confirm=True)
    assert done.kind is ReplyKind.BOARD and done.message == "Back to the deal as it was dealt: 3 moves taken back."
    assert done.game_id == start.game_id and done.game.to_text() == Game.new("gate", deal=1).to_text()
    record = await stored(db, start.game_id)
    # The same bookkeeping as undo with that many: each move logged as taken back and counted.
    assert (record.log, record.undo_count, record.move_count, record.status) == ("3f 45 d u u u", 3, 0, "active")
    again = await GameService(db).show(ALICE)  # a fresh service replays the log to the deal
    assert again.game.to_text() == Game.new("gate", deal=1).to_text()


async def test_a_button_on_an_old_board_is_refused_and_the_board_refreshed(db: Database) -> None:
    service = GameService(db)
    start = await service.new_game(ALICE, deal=1)
    await service.act(ALICE, "draw", expected_version=start.version)
    again = await service.act(ALICE, "draw", expected_version=start.version)  # a double click
    assert again.kind is ReplyKind.STALE
    record = await stored(db, start.game_id)
    assert record.log == "d"
    assert again.version == record.version and again.game.to_text() == record.position


async def test_with_no_game_in_progress_the_board_is_the_last_game_as_it_ended(db: Database) -> None:
    service = GameService(db, new_command="/gate new")
    assert (await service.show(ALICE)).kind is ReplyKind.ERROR  # never played: nothing to show
    start = await service.new_game(ALICE, deal=1)
    await service.play(ALICE, "3f 76")
    resigned = await service.resign(ALICE)
    for shown in (await service.show(ALICE), await GameService(db, new_command="/gate new").show(ALICE)):
        assert (shown.kind, shown.game_id, shown.status) == (ReplyKind.BOARD, start.game_id, GameStatus.RESIGNED)
        assert shown.game.to_text() == resigned.game.to_text() and shown.version == resigned.version
        assert shown.actions == () and shown.moves == ()  # nothing to play on it
        assert shown.message == "That game is over: start a new one with /gate new."
    refused = await service.play(ALICE, "d")
    assert refused.kind is ReplyKind.ERROR and "no game in progress" in refused.message

    again = await service.new_game(ALICE, deal=2)
    assert (await service.show(ALICE)).game_id == again.game_id  # a game in progress comes first
    async with db.sessions() as session, session.begin():
        await session.execute(update(GameRecord).where(GameRecord.id == again.game_id)
                              .values(log="9f", status=GameStatus.QUARANTINED))
    assert (await GameService(db).show(ALICE)).kind is ReplyKind.ERROR  # the latest can't be shown


async def test_players_do_not_see_each_others_games(db: Database) -> None:
    service = GameService(db)
    await service.new_game(ALICE, deal=1)
    assert (await service.show(BOB)).kind is ReplyKind.ERROR
    await service.new_game(BOB, deal=2)
    await service.play(BOB, "d")
    alice = await service.show(ALICE)
    assert alice.game.to_text() == Game.new("gate", deal=1).to_text()


async def test_a_stale_position_cache_is_repaired_from_the_log(db: Database, caplog) -> None:
    start = await GameService(db).new_game(ALICE, deal=1)
    await GameService(db).play(ALICE, "3f")
    async with db.sessions() as session, session.begin():
        await session.execute(update(GameRecord).values(position="gate\nnonsense"))
    with caplog.at_level(logging.WARNING):
        reply = await GameService(db).show(ALICE)
    expected = Game.new("gate", deal=1)
    expected.play("3f")
    assert reply.kind is ReplyKind.BOARD and reply.game.to_text() == expected.to_text()
    assert "repaired" in caplog.text
    assert (await stored(db, start.game_id)).position == expected.to_text()


@pytest.mark.parametrize(
    "damage",
    [{"log": "3f zz"}, {"log": "45 45"}, {"log": "u"}],
)
async def test_a_game_that_cannot_be_replayed_is_set_aside_untouched(db: Database, damage: dict) -> None:
    start = await GameService(db).new_game(ALICE, deal=1)
    async with db.sessions() as session, session.begin():
        await session.execute(update(GameRecord).values(**damage))
    reply = await GameService(db).play(ALICE, "d")
    assert reply.kind is ReplyKind.ERROR
    assert "couldn't be read back" in reply.message and "new" in reply.message
    record = await stored(db, start.game_id)
    assert record.status == "quarantined" and record.problem
    for column, value in damage.items():
        assert getattr(record, column) == value
    fresh = await GameService(db).new_game(ALICE, deal=3)  # the slot is free: no confirmation needed
    assert fresh.kind is ReplyKind.BOARD


async def test_bad_requests_get_one_sentence(db: Database) -> None:
    service = GameService(db)
    assert (await service.new_game(ALICE, "spider")).message.startswith("There is no variant called 'spider'")
    assert "1 to 4294967295" in (await service.new_game(ALICE, deal=0)).message
    assert "has no option" in (await service.new_game(ALICE, options=("redeal",))).message
    async with db.sessions() as session:
        assert (await session.scalars(select(GameRecord))).all() == []


def test_progress_marks_won_and_lost_games() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    hearts = " ".join(rank + "H" for rank in "KQJT98765432")
    won = Game.from_text(f"gate\nL:\nR:\nF: KC KD - KS\n1: AH\n2: {hearts}\n3:\n4:\n5:\n6:\n7:\n8:\nW:\nS:")
    log = ""
    for _ in range(13):
        move = won.legal_moves()[0]
        won.play(move)
        change = progress(log, False, won, [str(move)], now)
        log = change.log
    assert (change.status, change.score, change.move_count) == ("won", 52, 13)
    assert len(change.log.split()) == 13 and change.position == won.to_text()
    tops = dict(enumerate("KC KS QC QS JC JS TC 3C".split(), start=1))
    dying = position(foundations="2C - - -", columns=tops, waste="5H 6H", rest="waste")
    assert [str(m) for m in dying.legal_moves()] == ["8f"]
    dying.play("8f")
    change = progress("", False, dying, ["8f"], now)
    assert (change.status, change.score) == ("lost", 3)


def test_progress_keeps_a_proof_of_loss_through_plays_and_drops_it_with_an_undo() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    game = Game.new("gate", deal=1)
    game.play("d")
    assert progress("", True, game, ["d"], now).proved_lost
    game.undo()
    undone = progress("d", True, game, ["u"], now)
    assert not undone.proved_lost and undone.undos == 1 and undone.log == "d u"
    assert progress("d", False, game, ["u"], now, proved=True).proved_lost


async def test_owner_of_names_a_games_player_and_nobody_for_no_game(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(BOB, deal=1)
    owner = await service.owner_of(dealt.game_id)
    assert owner is not None and (owner.platform, owner.user_id, owner.display_name) == (
        BOB.platform, BOB.user_id, BOB.display_name
    )
    for missing in (dealt.game_id + 1, 2**63, 10**30, -1):
        assert await service.owner_of(missing) is None
