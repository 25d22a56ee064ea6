"""The hint engine: it reads only what the player sees, hints legal moves, and is exact once the stock is out."""

from __future__ import annotations

import importlib
import random

import pytest

from gatebot.locale import translator
from gatebot.rules import Game, GateGame
from gatebot.service.advice import hint_message
from gatebot.solver.gate.hint import hint, positions_behind
from gatebot.solver.gate.solve import solve
from gatebot.solver.results import Outlook, Verdict
from tests.lines import LOST_DEAL_10, NO_WIN_DEAL_1, STOCK_OUT_DEAL_1, WIN_DEAL_1
from tests.render.playouts import random_step
from tests.rules.builders import position

# Small budgets keep the tests fast. The positions whose hints are compared across stock
# orders are ones the hint decides by node budgets well inside this time, so the answer
# does not depend on how busy the machine is.
SECONDS = 1.0


def gate(game: Game) -> GateGame:
    assert isinstance(game, GateGame)
    return game


def walk(variant: str, deal: int, moves: int, options: tuple[str, ...] = ()) -> GateGame:
    """Deal ``deal`` played ``moves`` moves by a seeded random player that puts cards up when it can."""
    rng = random.Random(deal)
    game = gate(Game.new(variant, deal=deal, options=options))
    for _ in range(moves):
        assert random_step(game, rng, build_share=0.6)
    return game


def played(deal: int, tokens: list[str]) -> GateGame:
    """Deal ``deal`` after the moves ``tokens``."""
    game = gate(Game.new("gate", deal=deal))
    for token in tokens:
        game.play(token)
    return game


def restocked(game: GateGame, seed: int) -> GateGame:
    """The same position with its stock in another order."""
    *lines, stock = game.to_text().splitlines()
    cards = stock.split()[1:]
    shuffled = cards[:]
    random.Random(seed).shuffle(shuffled)
    assert shuffled != cards
    return gate(Game.from_text("\n".join([*lines, "S: " + " ".join(shuffled)])))


def answer(game: Game) -> tuple:
    found = hint(game, seconds=SECONDS)
    return found.move, found.reason, found.outlook, found.win_chance


MID_GAMES = {
    "gate-1": ("gate", 1, 20, ()),
    "gate-2": ("gate", 2, 10, ()),
    "gate-617": ("gate", 617, 40, ()),
    "gate-81-draw": ("gate", 81, 20, ()),
    "gate-single-2": ("gate", 2, 30, ("single-moves",)),
    "little-2": ("little-gate", 2, 20, ()),
    "little-single-2": ("little-gate", 2, 50, ("single-moves",)),
}


@pytest.mark.parametrize("name", list(MID_GAMES))
def test_a_hint_never_depends_on_the_order_of_the_stock(name):
    variant, deal, moves, options = MID_GAMES[name]
    game = walk(variant, deal, moves, options)
    assert game.stock_count > 1
    hidden = Game.from_text(game.to_text(hide_stock=True))
    assert hidden.to_text().splitlines()[-1] == f"S: ?{game.stock_count}"
    expected = answer(game)
    assert answer(restocked(game, 1)) == expected
    assert answer(restocked(game, 2)) == expected
    assert answer(hidden) == expected
    move, reason, outlook, chance = expected
    assert move in game.legal_moves()
    assert reason
    assert outlook is Outlook.OPEN
    assert chance is None or 0.0 <= chance <= 1.0


# The hint's module (the package's ``hint`` is the function), for its budgets.
HINT_MODULE = importlib.import_module("gatebot.solver.gate.hint")


@pytest.fixture
def small_weighing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets small enough that the weighing finishes far inside the test's seconds, however busy the machine."""
    monkeypatch.setattr(HINT_MODULE, "SAMPLE_NODES", 1_000)
    monkeypatch.setattr(HINT_MODULE, "MOVE_NODES", 100)
    monkeypatch.setattr(HINT_MODULE, "LITTLE_MOVE_NODES", 100)
    monkeypatch.setattr(HINT_MODULE, "WEIGH_NODES", 2_000)
    monkeypatch.setattr(HINT_MODULE, "LITTLE_WEIGH_NODES", 2_000)


def test_with_no_imagined_deal_won_every_move_is_weighed_on_the_same_deals_whatever_the_stock_order(small_weighing):
    # Little Gate deal 3 as dealt: four moves, and no imagined order of its 38 unseen cards is
    # won within the budget, so the moves are weighed by the cards they get home.
    game = gate(Game.new("little-gate", deal=3))
    found = hint(game, seconds=5.0)
    assert found.outlook is Outlook.OPEN and found.move in game.legal_moves()
    assert found.win_chance == 0.0
    assert found.samples >= 2, "every move is weighed on at least two of the same imagined deals"
    expected = answer(game)
    for shown in (restocked(game, 1), restocked(game, 2), Game.from_text(game.to_text(hide_stock=True))):
        assert answer(shown) == expected


def test_the_weighed_hint_does_not_lead_back_where_the_game_has_been(small_weighing):
    game = gate(Game.new("little-gate", deal=3))
    first = hint(game, seconds=5.0, behind=())
    assert first.move is not None and not first.move.is_draw
    back = after(game, str(first.move)).to_text(hide_stock=True)
    other = hint(game, seconds=5.0, behind=(back,))
    assert other.move is not None and other.move != first.move
    assert after(game, str(other.move)).to_text(hide_stock=True) != back
    assert other.win_chance == 0.0 and other.samples >= 2


@pytest.mark.parametrize(
    ("variant", "options", "seed"),
    [("gate", (), 11), ("gate", ("single-moves",), 12), ("little-gate", (), 13), ("gate", ("stock-fill",), 14)],
)
def test_the_hinted_move_is_legal(variant, options, seed):
    rng = random.Random(seed)
    for _ in range(3):
        game = walk(variant, rng.randint(1, 10_000), rng.randint(0, 60), options)
        found = hint(game, seconds=0.2)
        legal = game.legal_moves()
        if legal:
            assert found.move in legal, f"{found.move} in\n{game.to_text()}"
        else:
            assert found.move is None


def test_hinting_leaves_the_game_untouched():
    game = walk("gate", 1, 20)
    before, history = game.to_text(), game.moves
    hint(game, seconds=0.2)
    assert game.to_text() == before
    assert game.moves == history


# -- once the stock is out --------------------------------------------------------------


@pytest.mark.parametrize("moves", [101, 104, 108])
def test_with_the_stock_out_a_winnable_game_gets_a_move_that_keeps_the_win(moves):
    game = played(1, WIN_DEAL_1[:moves])
    assert game.stock_count == 0 and not game.is_won
    found = hint(game, seconds=SECONDS)
    assert found.outlook is Outlook.WINNABLE
    assert found.win_chance is None
    assert found.move in game.legal_moves()
    game.play(found.move)
    assert solve(game).verdict is Verdict.WINNABLE


def test_with_the_stock_out_following_the_hints_wins():
    game = played(1, STOCK_OUT_DEAL_1)
    visited = {game.to_text()}
    for _ in range(80):
        if game.is_won:
            break
        found = hint(game, seconds=SECONDS)
        assert found.outlook is Outlook.WINNABLE, game.to_text()
        game.play(found.move)
        assert game.to_text() not in visited, "the hints led back to a position already played"
        visited.add(game.to_text())
    assert game.is_won
    found = hint(game, seconds=0.2)
    assert found.move is None
    assert found.outlook is Outlook.WINNABLE


def test_with_the_stock_out_a_lost_game_says_so_and_hints_at_most_a_card_to_put_up():
    game = played(1, NO_WIN_DEAL_1)
    assert game.stock_count == 0 and game.legal_moves()
    found = hint(game, seconds=SECONDS)
    assert found.outlook is Outlook.LOST
    if found.move is not None:
        assert found.move.target == "f"
        assert found.move in game.legal_moves()


def test_a_lost_game_with_a_card_to_put_up_hints_that_card():
    # Clubs wait for the 8♣ under the K♣ on the waste; no column can empty to let the King
    # out, so nothing wins, but the K♠ can still go up.
    game = position(
        variant="little-gate",
        foundations="7C KD KH QS",
        columns={1: "9C KS", 2: "TC", 3: "JC", 4: "QC"},
        waste="8C KC",
    )
    found = hint(game, seconds=SECONDS)
    assert found.outlook is Outlook.LOST
    assert str(found.move) == "1f"
    assert "K♠" in found.reason


def most_home(game: Game) -> int:
    """The most cards on the foundations any line of play reaches from ``game``, by trying every legal move.

    Written on the rules engine alone (every position by its text, no pruning), for the small
    end games below, as a check on the solver's own count.
    """
    most = game.score
    seen = {game.to_text()}
    todo = [game]
    while todo:
        board = todo.pop()
        most = max(most, board.score)
        for move in board.legal_moves():
            after = board.copy()
            after.play(move)
            if after.to_text() not in seen:
                seen.add(after.to_text())
                todo.append(after)
    return most


def after(game: Game, move: str) -> Game:
    board = game.copy()
    board.play(move)
    return board


# The 9♦ under the 4♠ can go up, and the rest of the diamonds after it, only once the 4♠ is on
# the 5♥: putting the 5♥ up first (the first card up in the solver's move order) leaves the
# 4♠ no red Five and buries the 9♦ for good. Nothing can win: the 3♠ is under the whole waste.
BURIED_NINE = position(
    variant="little-gate",
    foundations="7C 8D 4H 2S",
    columns={1: "KS 5H", 2: "9D 4S", 3: "KD QD JD TD", 4: "8H"},
    waste="3S 5S 6S 7S 8S 9S TS JS QS 6H 7H 9H TH JH QH KH 8C 9C TC JC QC KC",
)


def test_a_lost_game_hints_the_first_move_of_a_line_to_the_most_cards_home():
    game = BURIED_NINE
    most = most_home(game)
    assert most_home(after(game, "1f")) < most
    found = hint(game, seconds=SECONDS)
    assert found.outlook is Outlook.LOST
    assert str(found.move) == "21"
    assert most_home(after(game, "21")) == most
    assert found.reason.endswith(f"it leads to the most cards home still possible ({most})")
    assert translator("de").say(found.reason).endswith(
        f"so kommen noch die meisten Karten auf die Ablagestapel ({most})"
    )
    said = hint_message(game, found, "Press End game to finish")
    assert said.count("No win is left") == 1 and "no win is left" not in said, "the player is told once"


def test_following_the_hints_of_a_lost_game_gets_the_most_cards_home_and_never_comes_back():
    game = gate(BURIED_NINE.copy())
    most = most_home(game)
    visited = {game.to_text()}
    for _ in range(40):
        found = hint(game, seconds=SECONDS)
        if found.move is None:
            break
        assert found.outlook is Outlook.LOST
        game.play(found.move)
        assert game.to_text() not in visited, "the hints led back to a position already played"
        visited.add(game.to_text())
    assert found.move is None and found.outlook is Outlook.LOST
    assert game.score == most


def test_a_lost_game_hint_does_not_lead_back_where_the_game_has_been_while_another_line_gets_as_many_home():
    # Either red Five takes the 4♠ and frees the 8♣ and the clubs after it; the other Five goes up.
    game = position(
        variant="little-gate",
        foundations="7C 4D 4H 2S",
        columns={1: "KS 5H", 2: "8C 4S", 3: "KC QC JC TC 9C", 4: "KH 5D"},
        waste="3S 6D 6H 7D 7H 8D 8H 9D 9H TD TH JD JH QD QH KD 5S 6S 7S 8S 9S TS JS QS",
    )
    most = most_home(game)
    first = hint(game, seconds=SECONDS, behind=())
    assert first.outlook is Outlook.LOST and first.move is not None
    assert most_home(after(game, str(first.move))) == most
    back = after(game, str(first.move)).to_text(hide_stock=True)
    other = hint(game, seconds=SECONDS, behind=(back,))
    assert other.outlook is Outlook.LOST and other.move is not None
    assert after(game, str(other.move)).to_text(hide_stock=True) != back
    assert most_home(after(game, str(other.move))) == most


def test_a_won_game_has_no_hint():
    game = played(1, WIN_DEAL_1)
    assert game.is_won
    found = hint(game, seconds=0.2)
    assert found.move is None
    assert found.outlook is Outlook.WINNABLE


def test_a_game_with_no_move_left_has_no_hint():
    game = played(10, LOST_DEAL_10)
    assert not game.legal_moves() and not game.is_won
    found = hint(game, seconds=0.2)
    assert found.move is None
    assert found.outlook is Outlook.LOST


@pytest.mark.parametrize(("deal", "line", "english", "german"), [
    (1, WIN_DEAL_1, "The game is won: every card is on its foundation.",
     "Das Spiel ist gewonnen: Jede Karte liegt auf ihrem Ablagestapel."),
    (10, LOST_DEAL_10, "No move is left: the game is over.", "Kein Zug mehr möglich: Das Spiel ist vorbei."),
])
def test_the_hint_of_a_finished_game_is_said_in_the_readers_language(
    deal: int, line: str, english: str, german: str
) -> None:
    """Gate's hint says why it has no move as the other variants' hints do: a marked sentence, German in German."""
    found = hint(played(deal, line), seconds=0.2)
    said = hint_message(played(deal, line), found, "Press End game to finish")
    assert (said, translator("de").say(said)) == (english, german)


# -- forced plays -----------------------------------------------------------------------


def test_an_ace_on_a_column_of_two_is_the_hint():
    game = position(columns={1: "9D AS", 2: "TC", 3: "KH QS", 4: "8C"}, waste="7H", stock="2D 5C")
    assert len(game.legal_moves()) > 3
    hidden = position(columns={1: "9D AS", 2: "TC", 3: "KH QS", 4: "8C"}, waste="7H", stock="2D 5C", hidden_stock=True)
    for shown in (game, hidden):
        found = hint(shown, seconds=0.2)
        assert str(found.move) == "1f"
        assert "A♠" in found.reason
        assert found.outlook is Outlook.OPEN


def test_a_safe_card_is_the_hint_with_the_stock_out_too():
    # Every black 4 is home, so nothing can want the 5♥. The waste, top first, holds the 6♥
    # and then every other card in the order they go up, with the K♠ last under the 5♥: the
    # game is won by putting cards up one by one, so the hint is exact.
    order = ["6H", "5C", "5D", "5S", "6C", "6D", "6S", *(r + s for r in "789TJQ" for s in "CDHS"), "KC", "KD", "KH"]
    game = position(foundations="4C 4D 4H 4S", columns={3: "KS 5H"}, waste=" ".join(reversed(order)))
    assert game.stock_count == 0
    found = hint(game, seconds=SECONDS)
    assert str(found.move) == "3f"
    assert "5♥" in found.reason
    assert found.outlook is Outlook.WINNABLE


def test_a_winnable_end_game_that_needs_an_unsafe_card_as_a_parent_is_called_winnable():
    # The 3♠ with the 2♦ on it must go onto the 4♥ to free the A♦ (see test_solve.UNSAFE_FOUR).
    waste = ["3D", "4C", "4S", *(r + s for r in "56789TJQ" for s in "CDHS"), "KD"]
    game = position(
        variant="little-gate",
        foundations="3C - 3H 2S",
        columns={1: "KC 4H", 2: "4D AD 3S 2D", 3: "KH", 4: "KS"},
        waste=" ".join(reversed(waste)),
    )
    found = hint(game, seconds=SECONDS)
    assert found.outlook is Outlook.WINNABLE
    assert str(found.move) == "21"


# -- going forward --------------------------------------------------------------------


def test_positions_behind_are_the_hidden_positions_since_the_last_draw_most_recent_first():
    game = gate(Game.new("gate", deal=1))
    assert positions_behind(game) == ()
    game.play("3f")  # A♦ up
    game.play("d")
    game.play("43")  # Q♣ onto K♦
    game.play("76")  # 2♠ onto 3♥
    behind = positions_behind(game)
    board = game.copy()
    board.undo()
    second = board.to_text(hide_stock=True)
    board.undo()
    assert behind == (second, board.to_text(hide_stock=True))
    assert all("S: ?" in text for text in behind)


STOCK_OUT_DEAL_2 = (
    "78 68 63 r4 d d 36 74 r4 54 l5 85 d d d d d d d d d d d wf 7f d d wf w5 d d d d d w6 47 w4 d d wf w6 d "
    "wf d wf 7f 7f 3f 7f d d wf d wf 2f 2f 5f 6f d w5 d d d wf 3f 4f 4f 4f d w4 d wf d"
)


def test_a_hint_does_not_lead_back_where_the_game_has_been_while_another_win_is_known():
    # Deal 2 with its stock just out, in a position with more than one way to win.
    game = played(2, STOCK_OUT_DEAL_2.split())
    assert game.stock_count == 0
    first = hint(game, seconds=SECONDS, behind=())
    assert first.move is not None and first.outlook is Outlook.WINNABLE
    after = game.copy()
    after.play(first.move)
    # As if the game had come from where the first hint leads: that way is now "back".
    other = hint(game, seconds=SECONDS, behind=(after.to_text(hide_stock=True),))
    assert other.move != first.move
    assert other.outlook is Outlook.WINNABLE
    game.play(other.move)
    assert solve(game).verdict is Verdict.WINNABLE
