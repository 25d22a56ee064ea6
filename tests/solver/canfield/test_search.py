"""The Canfield solver against the rules engine: its moves are the engine's, its wins replay there."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.rules import Game
from gatebot.rules.canfield import CanfieldGame
from gatebot.rules.cards import CARDS, Card
from gatebot.solver.canfield.search import (
    Position,
    Verdict,
    closes_circle,
    deadlocked,
    laid,
    moves,
    play,
    position_of,
    solve,
    talon_tops,
    tokens,
)

#: Deals 1-40 as the search decided them before it was made faster (the file says how).
OLD_VERDICTS = Path(__file__).with_name("old_verdicts.txt")


def canfield(deal: int, *options: str) -> CanfieldGame:
    game = Game.new("canfield", deal=deal, options=options)
    assert isinstance(game, CanfieldGame)
    return game


@pytest.mark.parametrize("deal", range(1, 31))
def test_every_win_found_replays_through_the_engine(deal: int) -> None:
    game = canfield(deal)
    result = solve(position_of(game), max_seconds=0.5)
    if result.verdict is Verdict.WINNABLE:
        for token in tokens(result.line):
            game.play(token)
        assert game.is_won


def test_some_deals_are_won_and_some_proved_lost() -> None:
    verdicts = {solve(position_of(canfield(deal)), max_seconds=0.5).verdict for deal in range(1, 31)}
    assert {Verdict.WINNABLE, Verdict.LOST} <= verdicts


@pytest.mark.parametrize("options", [(), ("partial-moves",), ("draw-one",), ("draw-one", "passes-1")])
def test_each_move_of_the_search_is_a_legal_move_with_the_engines_result(options: tuple[str, ...]) -> None:
    """Random walks: every search move, spelt out, is legal in the engine and lands on the same position."""
    rng = random.Random(11)
    for deal in range(1, 25):
        game = canfield(deal, *options)
        for _ in range(60):
            here = position_of(game)
            found = moves(here, safe=False)
            if not found:
                break
            step = rng.choice(found)
            for token in tokens((step,)):
                assert token in {str(move) for move in game.legal_moves()}, (deal, step, token)
                game.play(token)
            after = play(here, step)
            mine = position_of(game)
            assert (after.reserve, after.foundations, after.piles, after.stock, after.waste, after.passes) == (
                mine.reserve, mine.foundations, mine.piles, mine.stock, mine.waste, mine.passes
            )


def test_the_talon_shows_the_engines_waste_tops_turn_by_turn() -> None:
    game = canfield(5)
    shown = talon_tops(position_of(game))
    seen = []
    for turns in range(len(shown) + 3):
        if game.raw().waste:
            seen.append((turns, game.raw().waste[-1]))
        if "d" not in {str(move) for move in game.legal_moves()}:
            break
        game.play("d")
    assert shown == seen[: len(shown)]


def deadlock_position() -> CanfieldGame:
    """2♣ lies on 3♥, and K♥ on A♣: 2♣ must go up before 3♥, which (A♥ … K♥) must go up before
    A♣, which must go up before 2♣ — a circle, so none of the four can ever go up."""
    placed = {"AS", "3H", "2C", "AC", "KH"}
    rest = [card for card in (rank + suit for rank in "A23456789TJQK" for suit in "CDHS") if card not in placed]
    text = "\n".join(["canfield", "R:", "F: - - - AS", "B: A", "1: 3H 2C", "2: AC KH", "3:", "4:", "W:",
                      "S: " + " ".join(rest), "P: 1"])
    game = Game.from_text(text)
    assert isinstance(game, CanfieldGame)
    return game


def test_a_circle_of_cards_that_must_go_up_first_is_a_deadlock_and_no_play_breaks_it() -> None:
    game = deadlock_position()
    assert deadlocked(position_of(game))
    assert solve(position_of(game), max_nodes=10).verdict is Verdict.LOST
    stuck = {"3H", "2C", "AC", "KH"}
    rng = random.Random(3)
    best = 0
    for _ in range(30):  # whatever is played, none of the circle's cards reaches a foundation
        board = game.copy()
        for _ in range(150):
            legal = board.legal_moves()
            if not legal:
                break
            board.play(rng.choice(legal))
        up = {str(card) for card in CARDS if str(card) not in _off_foundations(board)}
        assert not stuck & up
        best = max(best, len(up))
    assert best > 2  # other cards do go up: the walks get somewhere


def _off_foundations(game: CanfieldGame) -> set[str]:
    lines = game.to_text().splitlines()
    return {word for line in lines[1:] if line[:2] not in ("F:", "B:", "P:") for word in line.split()[1:]}


def test_the_deadlock_rule_only_ever_settles_deals_the_bare_search_would_settle_the_same_way() -> None:
    more = 0
    for deal in range(1, 31):
        start = position_of(canfield(deal))
        bare = solve(start, max_nodes=4_000, max_seconds=60, deadlocks=False).verdict
        pruned = solve(start, max_nodes=4_000, max_seconds=60).verdict
        if bare is not Verdict.UNRESOLVED:
            assert pruned is bare, deal
        more += bare is Verdict.UNRESOLVED and pruned is not Verdict.UNRESOLVED
    assert more > 0  # and it settles some the bare search can't within the budget


def test_every_deal_the_old_search_decided_is_decided_the_same_way_within_the_same_budget() -> None:
    """Against the verdicts the search gave before its speed-ups, in ``old_verdicts.txt``.

    Within the 1,500 nodes the old search had, every deal it decided is decided again, the same
    way; and none contradicts what it decided with 20,000 nodes.
    """
    rows = [line.split() for line in OLD_VERDICTS.read_text().splitlines() if not line.startswith("#")]
    assert len(rows) == 40
    decided_before = 0
    for deal, small, large in rows:
        found = solve(position_of(canfield(int(deal))), max_nodes=1_500, max_seconds=600).verdict
        if small != "unresolved":
            decided_before += 1
            assert found.value == small, deal
        if found is not Verdict.UNRESOLVED and large != "unresolved":
            assert found.value == large, deal
    assert decided_before >= 10  # the file holds both kinds of verdict to keep


def laying(text: str, token: str) -> tuple[Position, Position, tuple[int, int] | None]:
    """The search's position of ``text``, the position after ``token``, and the pair it laid."""
    game = Game.from_text(text)
    assert isinstance(game, CanfieldGame)
    before = position_of(game)
    step = next(step for step in moves(before, safe=False) if tokens((step,)) == [token])
    after = play(before, step)
    return before, after, laid(before, step, after)


def circle_text(waste: str, first: str, second: str) -> str:
    """A position with ``waste`` on the waste and piles 1 and 2 as given, the rest in the stock."""
    placed = {"AS", waste, *first.split(), *second.split()}
    rest = [card for card in (rank + suit for rank in "A23456789TJQK" for suit in "CDHS") if card not in placed]
    return "\n".join(["canfield", "R:", "F: - - - AS", "B: A", f"1: {first}", f"2: {second}",
                      "3:", "4:", f"W: {waste}", "S: " + " ".join(rest), "P: 1"])


def test_laying_the_card_that_closes_a_circle_is_seen_as_a_deadlock_from_that_card_alone() -> None:
    """2♣ laid on 3♥ while K♥ lies on A♣ closes the circle of :func:`deadlock_position`."""
    before, after, pair = laying(circle_text("2C", "3H", "AC KH"), "w1")
    assert not deadlocked(before)
    assert pair == (4, 10)  # 2♣ on 3♥, as card indices
    assert closes_circle(after, *pair)
    assert deadlocked(after)


def test_laying_the_last_rank_on_a_base_card_closes_a_circle_too() -> None:
    """The wrapping edge itself is the new one: K♥ laid on A♣ while 2♣ lies on 3♥."""
    before, after, pair = laying(circle_text("KH", "3H 2C", "AC"), "w2")
    assert not deadlocked(before) and pair == (50, 0)
    assert closes_circle(after, *pair)


def test_a_card_put_into_a_space_lays_nothing_on_a_card_and_has_no_pair_to_check() -> None:
    _before, after, pair = laying(circle_text("2C", "3H", "AC KH"), "w3")
    assert after.piles[2] == bytes([4]) and pair is None


@settings(max_examples=25, deadline=None)
@given(deal=st.integers(1, 10**6), seed=st.integers(0, 2**32 - 1))
def test_the_check_from_the_laid_card_agrees_with_the_whole_graph_along_random_play(deal: int, seed: int) -> None:
    """From a position without a circle, a move has made one exactly when the laid card closes it."""
    rng = random.Random(seed)
    here = position_of(canfield(deal))
    for _ in range(80):
        if deadlocked(here):
            break
        found = moves(here, safe=False)
        if not found:
            break
        step = rng.choice(found)
        after = play(here, step)
        pair = laid(here, step, after)
        assert deadlocked(after) == (pair is not None and closes_circle(after, *pair)), (deal, seed, step)
        here = after


@settings(max_examples=12, deadline=None)
@given(
    deal=st.integers(1, 10**6),
    options=st.sampled_from([(), ("draw-one",), ("partial-moves",), ("draw-one", "passes-1")]),
    walk=st.lists(st.integers(0, 50), max_size=20),
)
def test_any_line_the_search_returns_wins_when_replayed_through_the_rules(
    deal: int, options: tuple[str, ...], walk: list[int]
) -> None:
    """From a deal, after some legal moves chosen by ``walk``, a winning line plays out to a win."""
    game = canfield(deal, *options)
    for choice in walk:
        legal = game.legal_moves()
        if not legal or game.is_over:
            break
        game.play(legal[choice % len(legal)])
    result = solve(position_of(game), max_nodes=1_500, max_seconds=600)
    if result.verdict is Verdict.WINNABLE:
        for token in tokens(result.line):
            game.play(token)
        assert game.is_won


#: 3♥ can go up from pile 1; of the cards that could be built on it, 2♠ is up and 2♣ lies on
#: another card (3♦), so neither can ever be laid on it: it goes up at once.
NEVER_LAID = """canfield
R:
F: AC - 2H 2S
B: A
1: 4S 3H
2: 3D 2C
3: KH
4: 5S
W:
S: {stock}
P: 1"""


def never_laid_position() -> Position:
    placed = {"AC", "AH", "2H", "AS", "2S", "4S", "3H", "3D", "2C", "KH", "5S"}
    stock = [card for card in (rank + suit for rank in "A23456789TJQK" for suit in "CDHS") if card not in placed]
    game = Game.from_text(NEVER_LAID.format(stock=" ".join(stock)))
    assert isinstance(game, CanfieldGame)
    return position_of(game)


def test_a_card_no_card_can_ever_be_laid_on_goes_up_at_once() -> None:
    position = never_laid_position()
    assert moves(position) == [("f", 0)]
    assert ("f", 0) in moves(position, safe=False) and len(moves(position, safe=False)) > 1
    # A card on another counts only while piles move whole: with partial moves 2♣ could be laid on 3♥.
    partial = dataclasses.replace(position, partial=True)
    assert len(moves(partial)) > 1
    # And a card of the talon could be laid on it: with 2♣ in the stock, 3♥ stays where it is.
    two_of_clubs, three_of_diamonds = CARDS.index(Card.from_text("2C")), CARDS.index(Card.from_text("3D"))
    piles = (position.piles[0], bytes((three_of_diamonds,)), *position.piles[2:])
    dealt = dataclasses.replace(position, piles=piles, stock=position.stock + bytes((two_of_clubs,)))
    assert len(moves(dealt)) > 1


def test_the_safe_plays_only_ever_settle_deals_the_bare_search_would_settle_the_same_way() -> None:
    for deal in range(1, 41):
        start = position_of(canfield(deal))
        bare = solve(start, max_nodes=20_000, max_seconds=60, safe=False).verdict
        pruned = solve(start, max_nodes=20_000, max_seconds=60).verdict
        if bare is not Verdict.UNRESOLVED and pruned is not Verdict.UNRESOLVED:
            assert pruned is bare, deal
