"""The spoken board: every variant in words, every visible card named once, no hidden one, no symbols."""

from __future__ import annotations

import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.errors import UserError
from gatebot.render import render_spoken
from gatebot.rules import ArchwayGame, CanfieldGame, Card, Game, GateGame, Suit
from gatebot.rules.variants import VARIANTS
from tests.render.playouts import playout
from tests.rules.builders import archway, canfield, position

MESSAGE_LIMIT = 2000
RANKS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"]
SUITS = ["clubs", "diamonds", "hearts", "spades"]
_RANK = "|".join(RANKS)
_SUIT = "|".join(SUITS)
CARD = re.compile(rf"\b({_RANK}) of ({_SUIT})\b")
FOUNDATION = re.compile(rf"\b({_SUIT}) (?:up|down) to ({_RANK})\b")
ARCH = re.compile(r"^Arch (\w+): (.*)\.$")


def card(rank: str, suit: str) -> Card:
    return Card(RANKS.index(rank) + 1, Suit(SUITS.index(suit)))


def named_cards(board: str) -> Counter[Card]:
    """Every card the board names: "seven of clubs", a foundation's "clubs up to seven", an arch packet's suits."""
    named: Counter[Card] = Counter()
    for line in board.splitlines():
        packet = ARCH.match(line)
        if packet:
            rank = packet[1].removesuffix("es" if packet[1] == "sixes" else "s")
            named.update(card(rank, suit) for suit in packet[2].split(", ") if suit != "none")
            continue
        named.update(card(rank, suit) for rank, suit in CARD.findall(line))
        named.update(card(rank, suit) for suit, rank in FOUNDATION.findall(line))
    return named


def visible_cards(game: Game) -> Counter[Card]:
    """What a player sees of ``game``, read from its piles (not from any board)."""
    if isinstance(game, GateGame):
        left, right = game.reserves
        seen = [*left, *right, *(top for top in game.foundations if top is not None), *game.waste[-1:]]
        return Counter(seen + [c for column in game.columns for c in column])
    if isinstance(game, CanfieldGame):
        seen = [*game.reserve[-1:], *(top for top in game.foundations if top is not None)]
        seen += game.waste[-game.draw_count:] if game.waste else ()
        return Counter(seen + [c for pile in game.piles for c in pile])
    assert isinstance(game, ArchwayGame)
    seen = [*game.ace_foundations, *game.king_foundations, *(c for packet in game.arch for c in packet)]
    return Counter(seen + [c for column in game.columns for c in column])


def check(game: Game) -> str:
    board = render_spoken(game)
    assert named_cards(board) == visible_cards(game), board
    assert board.isascii(), board  # no suit symbols, regional-indicator letters or emoji
    assert len(board) <= MESSAGE_LIMIT
    assert all(line.endswith((".", "!")) for line in board.splitlines()), board
    return board


@settings(max_examples=24, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 150))
def test_every_visible_card_is_named_once_and_no_hidden_one_along_a_playout(
    variant: type[Game], seed: int, moves: int
) -> None:
    rng = random.Random(seed)
    options = tuple(option.name for option in variant.rule_options if rng.random() < 0.5)
    deal = rng.randint(1, 2**32 - 1)
    try:
        game = Game.new(variant.name, deal=deal, options=options)
    except UserError:  # options that don't go together: the plain variant
        game = Game.new(variant.name, deal=deal)
    for step in playout(game, rng, moves, every=10):
        check(step)


def test_gate_reads_a_pile_a_line_top_card_first() -> None:
    game = position(
        left="4C 7C", foundations="2C - AH -", columns={1: "KS QD", 3: "9H"}, waste="3D JH", stock="2S 3S"
    )
    board = check(game)
    lines = board.splitlines()
    assert lines[1] == "Left reserve, L: 2 cards, seven of clubs on four of clubs."
    assert lines[2] == "Right reserve, R: empty."
    assert lines[3] == "Foundations: clubs up to two, diamonds empty, hearts up to ace, spades empty."
    assert lines[4] == "Column 1: queen of diamonds on king of spades."
    assert lines[5] == "Column 2: free."
    assert "Waste, W: jack of hearts, 1 card under it." in lines
    assert lines[-1] == f"Stock, S: {game.stock_count} cards, face down."
    assert "three of diamonds" not in board and "two of spades" not in board


def test_canfield_counts_its_face_down_reserve_and_names_only_its_top() -> None:
    game = canfield(reserve="2H 3H 4H 5C", piles={1: "KS", 2: "KH", 3: "QS", 4: "QH"}, waste="8C 9C TC JC")
    board = check(game)
    assert "Reserve, R: five of clubs, 3 cards face down under it." in board.splitlines()
    assert "four of hearts" not in board and "two of hearts" not in board


def test_a_crowded_arch_is_read_by_rank_within_discords_limit() -> None:
    game = archway(options="kit", columns={1: "7H"})
    board = check(game)
    assert "Column 1: seven of hearts." in board.splitlines()
    assert sum(len(line) for line in board.splitlines() if line.startswith("Arch ")) > 0


def test_a_won_game_says_so_in_words() -> None:
    game = archway(aces="KC KD KH KS", kings="AC AD AH AS")
    assert render_spoken(game).splitlines()[-1] == "Won! Every card is home. Score 104 of 104."
