"""The hint player of benchmarks/hint_player.py plays a lost game on, as the greedy player does."""

from hint_player import paired, play_out

from gatebot.rules import Game
from gatebot.solver import Outlook, registry
from tests.rules.builders import position


def test_a_game_the_hint_proves_lost_is_played_on_to_the_most_cards_home():
    # The 4♠ onto the 5♥ frees the 9♦, and the diamonds after it go up: 26 cards home at most,
    # though no win is left (the 3♠ is under the whole waste).
    game: Game = position(
        variant="little-gate",
        foundations="7C 8D 4H 2S",
        columns={1: "KS 5H", 2: "9D 4S", 3: "KD QD JD TD", 4: "8H"},
        waste="3S 5S 6S 7S 8S 9S TS JS QS 6H 7H 9H TH JH QH KH 8C 9C TC JC QC KC",
    )
    assert registry.hint(game, seconds=1.0).outlook is Outlook.LOST
    played: list[str] = []
    latencies, capped = play_out(game, moves=played)
    assert not capped
    assert game.score == 21 + 5  # the 9♦ to the K♦
    assert len(latencies) == len(game.moves) + 1  # the last hint has no move left
    assert played == [str(move) for move in game.moves]  # every move played, in order


def test_the_paired_comparison_counts_each_deal_once_for_the_player_that_scored_more():
    mean, low, high, better, same, worse = paired([10, 12, 8, 9], [9, 12, 10, 7])
    assert (better, same, worse) == (2, 1, 1)
    assert mean == (1 + 0 - 2 + 2) / 4
    assert low < mean < high
