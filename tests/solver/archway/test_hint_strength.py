"""Archway hints against the rules themselves: following them gets the most cards home there are.

The most cards home of a position is found here without the solver: every position the rules
engine can reach from it is listed (breadth first, by position text), and the highest score
among them is the most. A hint player then plays each position out, always taking the hint,
and must end on that score; a greedy player (the first move that puts a card up) is the
yardstick that shows the positions have choices that matter.
"""

from __future__ import annotations

import random

from gatebot.rules import Game, Move
from gatebot.solver.archway.search import hint
from gatebot.solver.results import Outlook
from tests.solver.archway.test_search import random_position

#: Clubs, diamonds and spades home; the hearts' foundations at 5♥ and 8♥, their other fifteen
#: cards in the columns. 6♥ is on top of columns 1 and 2: only column 2's uncovers the 7♥ the
#: foundation wants next (under column 1's lie Q♥ and K♥, which nothing can free).
TWO_SIXES = """archway
A: KC KD 5H KS
K: AC AD 8H AS
P:
1: KH QH 6H
2: 7H 7H 6H
3: JH TH 9H 8H
4: AH 2H 3H 4H 5H"""

#: Hearts meet (6♥ and 7♥) and their cards 2♥ 3♥ 4♥ lie in the arch, every other heart in a
#: column under a spade; the spades want the 7♠s buried in columns 1 and 2. Reversing down to
#: A♥ lets the three go up from the arch, and nothing else ever moves: 3 cards more.
STRANDED = """archway
A: KC KD 6H 6S
K: AC AD 7H 8S
P: AS 2H 3H 4H 4S 8S 9S TS JS QS KS
1: 7S 2S
2: 7S 3S
3: AH 5H 6H 7H 5S
4: 8H 9H TH JH QH KH 6S"""


def most_home(game: Game, limit: int = 100_000) -> int | None:
    """The highest score of any position the rules let ``game`` reach (every one of them is visited).

    None when they are more than ``limit`` positions.
    """
    start = game.to_text()
    seen = {start}
    todo = [start]
    best = game.score
    while todo:
        if len(seen) > limit:
            return None
        board = Game.from_text(todo.pop())
        best = max(best, board.score)
        for move in board.legal_moves():
            board.play(move)
            text = board.to_text()
            if text not in seen:
                seen.add(text)
                todo.append(text)
            board.undo()
    return best


def play_out(game: Game, choose) -> Game:  # type: ignore[no-untyped-def]
    """A copy of ``game`` played on with ``choose(board)`` until it returns None or the game is won."""
    board = Game.from_text(game.to_text())
    for _ in range(300):
        move = choose(board)
        if move is None or board.is_won:
            break
        board.play(move)
    return board


def greedy(board: Game) -> Move | None:
    """The first move that puts a card up, reversing included; None when there is none."""
    return next((move for move in board.legal_moves() if move.target in ("a", "k")), None)


def hinted(board: Game) -> Move | None:
    return hint(board, seconds=5.0).move


def test_of_two_sixes_the_hint_plays_the_one_over_the_card_wanted_next() -> None:
    game = Game.from_text(TWO_SIXES)
    given = hint(game, seconds=5.0)
    assert str(greedy(game)) == "1a"
    assert str(given.move) == "2a"
    assert given.outlook is Outlook.WINNABLE
    after_greedy = Game.from_text(TWO_SIXES)
    after_greedy.play("1a")
    assert (most_home(after_greedy) or 0) < 104
    assert most_home(game) == 104
    assert play_out(game, hinted).is_won
    assert play_out(game, greedy).score < 104


def test_a_lost_game_still_gets_a_meeting_suits_arch_run_home() -> None:
    game = Game.from_text(STRANDED)
    assert greedy(game) is not None and str(greedy(game)).startswith("fh")  # only reversing moves are legal
    given = hint(game, seconds=5.0)
    assert given.outlook is Outlook.LOST
    assert "80" in given.reason
    assert most_home(game) == game.score + 3 == 80
    assert play_out(game, hinted).score == 80


def test_following_hints_gets_the_most_cards_home_the_rules_allow() -> None:
    """Small positions, won and lost: every card in the columns (four of them) but a few in the arch."""
    rng = random.Random(29)
    played = below_most = 0
    while played < 12:
        game = random_position(rng, rng.randint(8, 14), kit=False)
        if not all(game.raw().columns) or sum(map(len, game.raw().arch)) > 3:
            continue
        most = most_home(game, limit=400)
        if most is None:
            continue
        played += 1
        assert play_out(game, hinted).score == most, game.to_text()
        below_most += play_out(game, greedy).score < most
    assert below_most >= 3  # the positions have choices a greedy player gets wrong


def test_a_hint_the_search_cannot_decide_is_the_same_every_time() -> None:
    game = Game.new("archway", deal=5014)  # not decided within the hint's budget: the look-ahead chooses
    first = hint(game, seconds=5.0)
    again = hint(Game.from_text(game.to_text()), seconds=5.0)
    assert first.outlook is Outlook.UNKNOWN
    assert first.move is not None and first.move in game.legal_moves()
    assert (again.move, again.reason, again.outlook) == (first.move, first.reason, first.outlook)
