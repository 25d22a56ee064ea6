"""The game service plays every variant of the rules: Canfield and Archway end to end on a real database."""

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from gatebot.render.card import DEALT
from gatebot.rules import Game, find_variant
from gatebot.service import Actor, GameService, ReplyKind, replay
from gatebot.service.stats import result_card
from gatebot.service.thinking import hint_for, solve_text
from gatebot.service.variants import deck_size, has_stock, variant_title
from gatebot.solver import registry
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
    assert dealt.message is not None and dealt.message.startswith(f"Dealt {find_variant(variant).title} deal 1.")
    assert "resign" in dealt.actions
    assert ("hint" in dealt.actions) is registry.thinks_about(dealt.game)  # Hint comes with the variant's solver

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
    assert resigned.message == f"You resigned with a score of {expected.score}/{expected.card_count}."
    record = await stored(db, dealt.game_id)
    assert (record.variant, record.log, record.status) == (variant, f"{line} u", GameStatus.RESIGNED)
    assert replay(record).to_text() == expected.to_text()
    card = result_card(record)
    assert card.title == find_variant(variant).title
    assert len(card.ascents) == rows
    assert {(row, place) for row, steps in enumerate(card.ascents) for place, step in enumerate(steps)
            if step not in (None, DEALT)} == ascended
    dealt = sum(step == DEALT for steps in card.ascents for step in steps)
    assert dealt == Game.new(variant, deal=1).score  # Canfield's first card, Archway's eight bases


async def test_a_variant_with_options_is_stored_with_them(db: Database) -> None:
    reply = await GameService(db).new_game(ALICE, "canfield", deal=1, options=("draw-one",))
    record = await stored(db, reply.game_id)
    assert (record.variant, record.options) == ("canfield", "draw-one")
    assert replay(record).options == ("draw-one",)


class Recording(ThreadPoolExecutor):
    """A thread pool that remembers what it was asked to run (the solver's worker, in a thread)."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.calls: list[object] = []

    def submit(self, fn, /, *args, **kwargs) -> Future:
        self.calls.append(fn)
        return super().submit(fn, *args, **kwargs)


@pytest.fixture
def solver() -> Iterator[Recording]:
    with Recording() as pool:
        yield pool


@pytest.fixture
def unsolved(monkeypatch: pytest.MonkeyPatch) -> None:
    """Canfield and Archway without a solver, whatever ``gatebot.solver.registry`` registers by now."""
    for name in ("canfield", "archway"):
        monkeypatch.setitem(registry._SOLVERS, name, None)


@pytest.mark.parametrize("variant", ["canfield", "archway"])
async def test_solver_features_of_a_variant_without_a_solver_say_so_and_ask_nothing(
    db: Database, solver: Recording, unsolved: None, variant: str
) -> None:
    service = GameService(db, solver=solver)
    dealt = await service.new_game(ALICE, variant, deal=1)
    title = find_variant(variant).title
    assert "hint" not in dealt.actions
    hint = await service.hint(ALICE)
    assert hint.kind is ReplyKind.ERROR
    assert hint.message == f"Hints don't exist for {title} yet."
    assert (await stored(db, dealt.game_id)).hint_count == 0
    auto = await service.auto(ALICE)
    assert auto.kind is ReplyKind.ERROR
    assert auto.message == "No card can go to the foundations safely right now."
    assert "end" not in auto.actions
    assert await service.end_offer(dealt) is None
    winnable = await service.new_game(ALICE, variant, winnable=True, confirm=True)
    assert winnable.kind is ReplyKind.ERROR
    assert winnable.message == f"Winnable deals don't exist for {title} yet."
    assert await service.find_winnable_deal(variant) is None
    assert solver.calls == []  # nothing was handed to the solver's worker


async def test_gate_still_gets_hints_and_winnable_deals_through_the_family_door(
    db: Database, solver: Recording
) -> None:
    service = GameService(db, solver=solver, winnable_tries=1, deal_picker=lambda: 1)
    dealt = await service.new_game(ALICE, "gate", winnable=True)
    assert dealt.ok and dealt.game is not None and dealt.game.deal == 1  # deal 1 proved on the spot
    assert solver.calls == [solve_text]
    assert "hint" in dealt.actions
    hint = await service.hint(ALICE)
    assert hint.kind is ReplyKind.HINT and hint.message.startswith("Hint: ")
    assert solver.calls == [solve_text, hint_for]


async def test_canfield_and_archway_hints_come_from_their_own_solvers_seeing_only_the_view(
    db: Database, solver: Recording
) -> None:
    service = GameService(db, solver=solver)
    dealt = await service.new_game(ALICE, "canfield", deal=10)
    assert "hint" in dealt.actions
    hint = await service.hint(ALICE)
    assert hint.kind is ReplyKind.HINT and hint.message.startswith("Hint: ") and hint.suggestion is not None
    assert hint.suggestion in {str(move) for move in dealt.game.legal_moves()}
    assert "imagined deals of the cards you can't see" in hint.message or "Still winnable" in hint.message
    assert solver.calls == [hint_for]
    assert (await stored(db, dealt.game_id)).hint_count == 1
    assert dealt.game.hidden_count == 12 + 34  # the reserve under its top, the first pass's stock
    dealt = await service.new_game(ALICE, "archway", deal=3, confirm=True)
    hint = await service.hint(ALICE)
    assert hint.kind is ReplyKind.HINT and hint.suggestion is not None
    assert hint.suggestion in {str(move) for move in dealt.game.legal_moves()}


def test_the_worker_takes_only_what_a_player_sees_of_any_variant() -> None:
    gate = Game.new("gate", deal=5)
    with pytest.raises(ValueError, match="sees"):
        hint_for(gate.to_text())  # the stock's order is written: refused before any search
    archway = Game.new("archway", deal=1)
    assert archway.to_text(hide_stock=True) == archway.to_text()  # nothing hidden: the full text is what it sees
    canfield = Game.new("canfield", deal=1)
    with pytest.raises(ValueError, match="sees"):
        hint_for(canfield.to_text())  # the first pass's stock written out
    if not registry.thinks_about(canfield):
        with pytest.raises(registry.NotSolved, match="Canfield"):
            hint_for(canfield.to_text(hide_stock=True))


def test_each_variant_has_its_deck_its_stock_and_its_name() -> None:
    assert [deck_size(name) for name in ("gate", "little-gate", "canfield", "archway")] == [52, 52, 52, 104]
    assert [has_stock(name) for name in ("gate", "little-gate", "canfield", "archway")] == [True, True, True, False]
    assert variant_title("archway", ("kit",)) == "Archway (kit)"
    assert variant_title("canfield", ("draw-one", "passes-2")) == "Canfield (draw-one, passes-2)"
    assert (deck_size("no-such-game"), variant_title("no-such-game")) == (52, "no-such-game")


async def test_archway_with_kit_is_played_by_the_words_players_type(db: Database) -> None:
    service = GameService(db)
    dealt = await service.new_game(ALICE, "archway", deal=1, options=("kit",))
    assert dealt.ok and dealt.game is not None and dealt.game.options == ("kit",)
    assert "draw" not in dealt.actions
    # docs/archway.md §5: canonical tokens and forgiving input alike.
    played = await service.play(ALICE, "2ca, 2d > ace; q♥ king")
    assert played.kind is ReplyKind.BOARD and played.played == ("2ca", "2da", "qhk")
    back = await service.play(ALICE, "3 arch")
    assert back.played == ("3p",)
    drawn = await service.play(ALICE, "d")
    assert drawn.kind is ReplyKind.ERROR
    assert drawn.message == (
        "Archway has no stock: every card is dealt face up at the start, so there is nothing to draw."
    )
    expected = Game.new("archway", deal=1, options=("kit",))
    expected.play_line("2ca 2da qhk 3p")
    record = await stored(db, dealt.game_id)
    assert (record.options, record.log, record.score) == ("kit", "2ca 2da qhk 3p", expected.score)
    assert replay(record).to_text() == expected.to_text()
