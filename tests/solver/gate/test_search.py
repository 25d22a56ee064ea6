"""The search's own board: its key, its moves, playing and taking back, budgets and restarts."""

from __future__ import annotations

import dataclasses
import random

import pytest

from gatebot.rules import Game, GateGame
from gatebot.rules.cards import CARD_TEXT
from gatebot.solver.gate.search import DEFAULT_DOMINANCES, NO_DOMINANCES, OutOfBudget, Search
from gatebot.solver.gate.solve import to_move
from gatebot.solver.restarts import luby
from tests.lines import STOCK_OUT_DEAL_1, WIN_DEAL_1
from tests.render.playouts import random_playout
from tests.rules.builders import position


def gate(game: Game) -> GateGame:
    assert isinstance(game, GateGame)
    return game


def board_text(search: Search, game: GateGame) -> str:
    """The search's board as position text (docs/rules.md#position-text), to compare with the engine's."""

    def pile(label: str, cards: list[int]) -> str:
        return f"{label}:" + "".join(" " + CARD_TEXT[c] for c in cards)

    tops = " ".join(CARD_TEXT[(k - 1) * 4 + suit] if k else "-" for suit, k in enumerate(search.found))
    return "\n".join([
        " ".join((game.name, *game.options)),
        pile("L", search.reserves[0]),
        pile("R", search.reserves[1]),
        f"F: {tops}",
        *(pile(str(i + 1), column) for i, column in enumerate(search.columns)),
        pile("W", search.waste),
        pile("S", search.stock[::-1]),
    ])


def piles(search: Search) -> tuple:
    return (
        [c[:] for c in search.columns],
        [r[:] for r in search.reserves],
        search.waste[:],
        search.stock[:],
        search.found[:],
    )


def swap_columns(game: GateGame, a: int, b: int) -> GateGame:
    lines = game.to_text().splitlines()
    first, second = f"{a}:", f"{b}:"
    i = next(k for k, line in enumerate(lines) if line.startswith(first))
    j = next(k for k, line in enumerate(lines) if line.startswith(second))
    lines[i], lines[j] = first + lines[j][len(second):], second + lines[i][len(first):]
    return gate(Game.from_text("\n".join(lines)))


def playout_positions() -> list[GateGame]:
    """Positions along random games of each variant and option, and along a won deal 1."""
    positions = []
    for variant, options, seed in [
        ("gate", (), 1),
        ("gate", (), 2),
        ("gate", ("single-moves",), 3),
        ("gate", ("stock-fill",), 4),
        ("little-gate", (), 5),
        ("little-gate", ("single-moves",), 6),
    ]:
        positions += random_playout(random.Random(seed), variant, options, moves=120, every=6)
    game = gate(Game.new("gate", deal=1))
    for number, token in enumerate(WIN_DEAL_1):
        if number % 5 == 0:
            positions.append(game.copy())
        game.play(token)
    return positions


POSITIONS = playout_positions()


# -- the key --------------------------------------------------------------------------


def test_the_key_ignores_which_column_is_which():
    one = position(left="9C AS", right="2C 3C", columns={1: "7C 6D", 2: "8H", 5: "KS QH"}, waste="4C", stock="2D")
    other = position(left="9C AS", right="2C 3C", columns={4: "7C 6D", 1: "8H", 8: "KS QH"}, waste="4C", stock="2D")
    assert one.to_text() != other.to_text()
    assert Search(gate(one)).key() == Search(gate(other)).key()


@pytest.mark.parametrize("index", [0, 7, 20, 40])
def test_the_key_of_a_position_with_two_columns_swapped_is_the_same(index):
    game = POSITIONS[index]
    swapped = swap_columns(game, 1, game.column_count)
    assert swapped.to_text() != game.to_text()
    assert Search(swapped).key() == Search(game).key()


def test_the_key_changes_when_a_card_moves():
    # Every legal move changes the position, but one: a whole column moved into a free space
    # when nothing fills its place is the same position with the columns in another order.
    checked = 0
    for game in POSITIONS:
        before = Search(game).key()
        for move in game.legal_moves():
            after = game.copy()
            after.play(move)
            raw = game.raw()
            source = int(move.source) - 1 if move.source.isdigit() else None
            relocates = (
                source is not None
                and move.target.isdigit()
                and not raw.columns[int(move.target) - 1]
                and (move.count or 1) == len(raw.columns[source])
                and not (raw.reserves[0] or raw.reserves[1] or raw.waste)
                and not ("stock-fill" in game.options and raw.stock)
            )
            if relocates:
                assert Search(after).key() == before, f"{move} in\n{game.to_text()}"
            else:
                assert Search(after).key() != before, f"{move} in\n{game.to_text()}"
                checked += 1
    assert checked > 300


def test_the_key_sees_the_foundations_the_reserves_and_the_stock():
    base = position(left="9C AS", right="2C 3C", columns={1: "7C"}, waste="4C", stock="2D")
    keys = {
        Search(gate(game)).key()
        for game in (
            base,
            position(left="9C", right="2C 3C", columns={1: "7C"}, waste="4C", stock="AS 2D"),
            position(left="9C AS", right="2C", columns={1: "7C"}, waste="4C 3C", stock="2D"),
            position(left="9C AS", right="2C 3C", columns={1: "7C"}, waste="4C 2D"),
            position(left="9C AS", right="2C 3C", foundations="- AD - -", columns={1: "7C"}, waste="4C", stock="2D"),
        )
    }
    assert len(keys) == 5


# -- moves, apply, revert ---------------------------------------------------------------


def test_applying_a_step_plays_the_same_move_as_the_rules_and_reverting_restores_everything():
    steps = 0
    for game in POSITIONS:
        search = Search(game, NO_DOMINANCES)
        key, before = search.key(), piles(search)
        assert board_text(search, game) == game.to_text()
        for step in search.moves():
            move = to_move(game, step)
            after = game.copy()
            after.play(move)
            fill = search.apply(*step)
            assert board_text(search, game) == after.to_text(), f"{step} ({move}) in\n{game.to_text()}"
            search.revert(*step, fill)
            assert search.key() == key
            assert piles(search) == before, f"{step} ({move}) in\n{game.to_text()}"
            steps += 1
    assert steps > 300


def test_the_search_knows_which_cards_are_in_the_stock_and_the_waste_after_every_step_and_its_reversal():
    rng = random.Random(5)
    steps = 0
    for game in POSITIONS:
        search = Search(game, NO_DOMINANCES)
        played = []
        for _ in range(30):
            moves = search.moves()
            if not moves:
                break
            step = rng.choice(moves)
            played.append((step, search.apply(*step)))
            in_talon = {card for card in range(52) if search.talon[card]}
            assert in_talon == {*search.stock, *search.waste}, f"after {played} from\n{game.to_text()}"
            steps += 1
        for step, fill in reversed(played):
            search.revert(*step, fill)
        assert {card for card in range(52) if search.talon[card]} == {*search.stock, *search.waste}
    assert steps > 100


# Kings at the bottom of every column, none of which can go up (their Aces are in the stock);
# the 2♣ on the waste can't go up (the A♣ is in the stock) and has nowhere to go (both red 3s
# are in the stock). Short of drawing, no column can empty and nothing can leave the waste.
STUCK = dict(
    variant="little-gate",
    left="JC",
    right="5D",
    columns={1: "KC QD", 2: "KD", 3: "KH", 4: "KS 4C"},
    waste="9S 2C",
    stock="AC AD AH AS 3D 3H",
)


def test_the_draw_is_the_only_move_when_nothing_can_leave_the_waste_before_it():
    game = gate(position(**STUCK))
    legal = {str(move) for move in game.legal_moves()}
    assert legal == {"d", "l1"}  # the J♣ could go onto the Q♦, but that can wait
    assert [str(to_move(game, step)) for step in Search(game).moves()] == ["d"]
    off = dataclasses.replace(DEFAULT_DOMINANCES, stuck_draw=False)
    assert len(Search(game, off).moves()) > 1


def test_the_draw_is_not_forced_when_a_column_could_empty_and_the_gateposts_run_dry():
    # Column 1's bottom card is a 6♥ that could go onto the 7♣ on column 4, and the gateposts
    # hold the A♦, which could go up, and the J♣, which could go onto the Q♦: only three
    # columns are held by stuck cards, and the fourth could empty after the gateposts.
    game = gate(position(**{**STUCK, "right": "AD", "stock": "AC AH AS 3D 3H",
                            "columns": {1: "6H", 2: "KD QD", 3: "KH", 4: "KS 7C"}}))
    assert [str(to_move(game, step)) for step in Search(game).moves()] == ["rf"]  # the A♦ up, not the draw


def test_the_draw_is_not_forced_when_the_waste_card_has_a_parent_within_reach():
    game = gate(position(**{**STUCK, "stock": "AC AD AH AS 3D", "right": "3H"}))
    assert len(Search(game).moves()) > 1


@pytest.mark.parametrize("setting", ["default", "none"])
def test_every_step_the_search_considers_is_a_legal_move(setting):
    dominances = DEFAULT_DOMINANCES if setting == "default" else NO_DOMINANCES
    for game in POSITIONS:
        legal = game.legal_moves()
        steps = Search(game, dominances).moves()
        assert steps or not legal
        for step in steps:
            assert to_move(game, step) in legal, f"{step} in\n{game.to_text()}"
        assert len(set(steps)) == len(steps)


def test_without_pruning_the_search_considers_every_move_except_other_free_spaces():
    # Which free space a card goes to does not matter: the search tries the first one only.
    for game in POSITIONS:
        considered = {str(to_move(game, step)) for step in Search(game, NO_DOMINANCES).moves()}
        raw = game.raw()
        for move in game.legal_moves():
            into_free_space = move.target.isdigit() and not raw.columns[int(move.target) - 1]
            if not into_free_space:
                assert str(move) in considered, f"{move} in\n{game.to_text()}"


def test_a_safe_card_from_a_column_of_two_or_more_is_the_only_move():
    game = gate(position(columns={1: "9D AS", 2: "TC", 3: "KH QS", 4: "8C"}, waste="7H", stock="2D"))
    assert len(game.legal_moves()) > 3
    steps = Search(game).moves()
    assert [str(to_move(game, step)) for step in steps] == ["1f"]
    # With every black 4 home, nothing can still want the 5♥.
    game = gate(position(foundations="4C 3D 4H 4S", columns={1: "KS QD", 3: "9C 5H", 5: "4D"}, waste="TD", stock="JS"))
    assert [str(to_move(game, step)) for step in Search(game).moves()] == ["3f"]


def test_a_safe_card_is_not_forced_when_that_rule_is_off():
    game = gate(position(columns={1: "9D AS", 2: "TC", 3: "KH QS", 4: "8C"}, waste="7H", stock="2D"))
    steps = Search(game, dataclasses.replace(DEFAULT_DOMINANCES, safe_column=False)).moves()
    tokens = [str(to_move(game, step)) for step in steps]
    assert "1f" in tokens and len(tokens) > 1


def test_a_card_a_lower_card_could_still_go_onto_is_not_forced():
    # Neither black 3 nor black 4 is home, so a black 4 could still want to go onto the 5♥:
    # the 5♥ may go up, but other moves are searched too.
    game = gate(position(foundations="2C 4D 4H 2S", columns={1: "KS QD", 3: "9C 5H", 5: "4C"}, waste="TD", stock="JS"))
    tokens = [str(to_move(game, step)) for step in Search(game).moves()]
    assert "3f" in tokens and len(tokens) > 1


def test_a_card_the_other_colour_one_rank_lower_still_needs_is_not_forced():
    # The 4♠ is not home (it is still in the stock) and can't go up when it comes (the 3♠ is
    # not home either): it may yet need to go onto the 5♥, so the 5♥ is not safe
    # (gatebot.rules.autoplay.is_safe_up agrees) and other moves are searched too.
    game = gate(position(foundations="4C 4D 4H 2S", columns={1: "KS QD", 3: "9C 5H"}, waste="TD", stock="JS 3S 4S"))
    tokens = [str(to_move(game, step)) for step in Search(game).moves()]
    assert "3f" in tokens and len(tokens) > 1


def test_a_card_whose_would_be_children_could_go_up_instead_is_the_only_move():
    # The 4♠ could still go onto the 5♥, but it could as well go up (the 3♠ is home), and so
    # could a red 3 put onto it: the 5♥ goes up at once.
    game = gate(position(foundations="4C 2D 4H 3S", columns={1: "KS QD", 3: "9C 5H"}, waste="TD", stock="JS 4S 3D"))
    assert len(game.legal_moves()) > 2
    assert [str(to_move(game, step)) for step in Search(game).moves()] == ["3f"]
    # Not when that rule is off, nor when the red 3s could not go up (the 2♦ is not home).
    off = dataclasses.replace(DEFAULT_DOMINANCES, nearly_safe_column=False)
    assert len(Search(game, off).moves()) > 1
    lower = gate(position(foundations="4C AD 4H 3S", columns={1: "KS QD", 3: "9C 5H"}, waste="TD", stock="JS 4S 2D 3D"))
    assert len(Search(lower).moves()) > 1


# -- what the search is given -----------------------------------------------------------


def test_a_hidden_stock_needs_an_order_to_be_searched():
    hidden = gate(Game.from_text(Game.new("gate", deal=1).to_text(hide_stock=True)))
    with pytest.raises(ValueError):
        Search(hidden)
    order = list(gate(Game.new("gate", deal=1)).raw().stock)
    search = Search(hidden, stock=order)
    assert search.stock == order
    assert board_text(search, hidden) == Game.new("gate", deal=1).to_text()


def test_a_stock_that_is_out_needs_no_order():
    game = gate(Game.new("gate", deal=1))
    for token in STOCK_OUT_DEAL_1:
        game.play(token)
    hidden = gate(Game.from_text(game.to_text(hide_stock=True)))
    assert Search(hidden).key() == Search(game).key()


# -- budgets and restarts -------------------------------------------------------------


def winning_path_wins(game: GateGame, path: list) -> bool:
    board = game.copy()
    for step in path:
        move = to_move(board, step)
        assert move in board.legal_moves()
        board.play(move)
    return board.is_won


@pytest.mark.parametrize(("variant", "deal", "won"), [("gate", 2, True), ("little-gate", 10, False)])
def test_running_out_of_budget_puts_the_search_back_where_it_started(variant, deal, won):
    # Gate deal 2 takes about a thousand positions to win, Little Gate deal 10 thousands to lose.
    game = gate(Game.new(variant, deal=deal))
    search = Search(game)
    key, before = search.key(), piles(search)
    with pytest.raises(OutOfBudget):
        search.run(40, 60.0)
    assert search.key() == key
    assert piles(search) == before
    assert search.path == []
    assert search.nodes >= 40
    assert search.run(500_000, 60.0) is won
    fresh = Search(game)
    assert fresh.run(500_000, 60.0) is won
    if won:
        assert winning_path_wins(game, search.path)
        assert winning_path_wins(game, fresh.path)
    else:
        assert search.path == []


def test_an_interrupted_search_can_be_interrupted_again_and_still_decide():
    game = gate(Game.new("gate", deal=2))
    search = Search(game)
    key = search.key()
    for _ in range(5):
        with pytest.raises(OutOfBudget):
            search.run(30, 60.0)
        assert search.key() == key and search.path == []
    assert search.run(500_000, 60.0) is True
    assert winning_path_wins(game, search.path)


def test_a_won_position_needs_no_search():
    game = gate(position(foundations="KC KD KH KS"))
    search = Search(game)
    assert search.run(1, 60.0) is True
    assert search.path == []


# -- the restart schedule ---------------------------------------------------------------


def luby_by_definition(i: int) -> int:
    """t(i) = 2^(k-1) if i = 2^k - 1, else t(i - 2^(k-1) + 1) for 2^(k-1) <= i < 2^k - 1."""
    k = i.bit_length()
    if i == (1 << k) - 1:
        return 1 << (k - 1)
    return luby_by_definition(i - (1 << (k - 1)) + 1)


def test_the_restart_schedule_is_theluby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    assert [luby(i) for i in range(1, 300)] == [luby_by_definition(i) for i in range(1, 300)]
