"""The game service plays every variant of the rules: Canfield and Archway end to end on a real database."""

import pytest

from gatebot.rules import Game
from gatebot.service import Actor, GameService, ReplyKind, replay
from gatebot.service.stats import result_card
from gatebot.store import Database, GameRecord, GameStatus

ALICE = Actor("terminal", "alice", "Alice")

#: Each variant with legal opening moves of its deal 1 (the last is taken back), and the
#: foundation cards those moves leave played up, as (row, place) of the result card.
OPENINGS = [("canfield", "r3 32 d", 4, set()), ("archway", "2ca qck", 8, {(0, 1)})]


async def stored(db: Database, game_id: int) -> GameRecord:
    async with db.sessions() as session:
        record = await session.get(GameRecord, game_id)
        assert record is not None
        return record


@pytest.mark.parametrize(("variant", "line", "rows", "ascended"), OPENINGS)
async def test_a_variant_is_dealt_played_undone_resigned_and_replayed(
    db: Database, variant: str, line: str, rows: int, ascended: set[tuple[int, int]]
) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, variant, deal=1)
    assert dealt.kind is ReplyKind.BOARD
    assert dealt.game is not None and dealt.game.to_text() == Game.new(variant, deal=1).to_text()
    assert dealt.message == f"Dealt {Game.variant_class(variant).title} deal 1."
    assert "hint" not in dealt.actions and "resign" in dealt.actions

    played = await service.play(ALICE, line)
    assert played.kind is ReplyKind.BOARD and played.played == tuple(line.split())
    undone = await service.undo(ALICE)
    assert undone.ok
    expected = Game.new(variant, deal=1)
    expected.play_line(" ".join(line.split()[:-1]))
    again = await GameService(db).show(ALICE)  # a fresh service replays the log
    assert again.game is not None and again.game.to_text() == expected.to_text()

    resigned = await GameService(db).resign(ALICE)
    assert resigned.status is GameStatus.RESIGNED
    assert resigned.message == f"You resigned with a score of {expected.score}."
    record = await stored(db, dealt.game_id)
    assert (record.variant, record.log, record.status) == (variant, f"{line} u", GameStatus.RESIGNED)
    assert replay(record).to_text() == expected.to_text()
    card = result_card(record)
    assert card.title == Game.variant_class(variant).title
    assert len(card.ascents) == rows
    assert {(row, place) for row, steps in enumerate(card.ascents) for place, step in enumerate(steps)
            if step is not None} == ascended


async def test_a_variant_with_options_is_stored_with_them(db: Database) -> None:
    reply = await GameService(db).new_game(ALICE, "canfield", deal=1, options=("draw-one",))
    record = await stored(db, reply.game_id)
    assert (record.variant, record.options) == ("canfield", "draw-one")
    assert replay(record).options == ("draw-one",)


@pytest.mark.parametrize("variant", ["canfield", "archway"])
async def test_solver_features_are_for_gate_only(db: Database, variant: str) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, variant, deal=1)
    hint = await service.hint(ALICE)
    title = Game.variant_class(variant).title
    assert hint.kind is ReplyKind.ERROR
    assert hint.message == f"Hints exist for Gate and Little Gate so far, not for {title}."
    assert (await stored(db, dealt.game_id)).hint_count == 0
    auto = await service.auto(ALICE)
    assert auto.kind is ReplyKind.ERROR
    assert auto.message == "No card can go to the foundations safely right now."
    assert "end" not in auto.actions
    assert await service.end_offer(dealt) is None
    winnable = await service.new_game(ALICE, variant, winnable=True, confirm=True)
    assert winnable.kind is ReplyKind.ERROR
    assert winnable.message == f"Winnable deals exist for Gate and Little Gate so far, not for {title}."

