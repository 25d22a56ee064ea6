"""The text board: every visible card where the position has it, nothing hidden, within width.

The board is read back with a small parser written here from the layout contract (a pile's
row starts with its label at the margin, continuation lines are indented, a reserve's and
the waste's top card is in brackets), and compared with the engine's own view of the
position. Nothing is compared with text produced by the renderer itself.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.locale import translator
from gatebot.render import render_text
from gatebot.rules import Card, Game, GateGame
from tests.render import playouts
from tests.render.playouts import random_playout

CARD = re.compile(r"(\[)?((?:10|[2-9AJQK])[♣♦♥♠])(\])?")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# The widths docs/boards.md promises, not read from the renderer: 72, and for phones 36 (a 380 px
# phone leaves about 280 px inside a code block, at about 7.8 px a character of the code font).
PHONE_COLUMNS = 36
COMPACT_WIDTH = PHONE_COLUMNS
NORMAL_WIDTH = 72
RED_CARD = re.compile(r"\x1b\[31m((?:10|[2-9AJQK])[♦♥])\x1b\[0m")
GERMAN = translator("de")
LABELS = {"L", "R", "F", "W", "S", *map(str, range(1, 9))}


def rows(board: str) -> dict[str, str]:
    """Each pile's row text (continuation lines joined), by the label that starts it."""
    found: dict[str, str] = {}
    current: str | None = None
    for line in board.splitlines():
        if not line.strip():
            current = None
        elif line[0] != " ":
            label = line.split()[0]
            current = label if label in LABELS else None
            if current is not None:
                assert current not in found, f"row {current} appears twice"
                found[current] = line[len(label):]
        elif current is not None:
            found[current] += " " + line
    return found


def cards_in(text: str) -> list[tuple[str, bool]]:
    """The cards written in ``text``, in order, each with whether it is bracketed."""
    return [(match.group(2), bool(match.group(1) and match.group(3))) for match in CARD.finditer(text)]


def pretty(cards: tuple[Card, ...]) -> list[str]:
    return [card.pretty for card in cards]


def visible_cards(game: GateGame) -> Counter[str]:
    """Every card a player may see: reserves, foundation tops, columns and the waste's top."""
    left, right = game.reserves
    seen = [*left, *right, *(top for top in game.foundations if top is not None)]
    seen += [card for column in game.columns for card in column]
    seen += game.waste[-1:]
    return Counter(card.pretty for card in seen)


def check_board(game: GateGame, board: str, width: int) -> None:
    """Assert the board shows exactly the position ``game`` holds, within ``width``."""
    assert len(board) < 2000
    for line in board.splitlines():
        assert len(line) <= width, line
    found = rows(board)
    assert set(found) == {"L", "R", "F", "W", "S", *map(str, range(1, len(game.columns) + 1))}

    for label, reserve in zip("LR", game.reserves, strict=True):
        shown = cards_in(found[label])
        assert [name for name, _ in shown] == pretty(reserve)
        assert [marked for _, marked in shown] == [i == len(reserve) - 1 for i in range(len(reserve))]
        if not reserve:
            assert "empty" in found[label]

    tops = [top.pretty for top in game.foundations if top is not None]
    assert [name for name, _ in cards_in(found["F"])] == tops
    for suit, top in zip("♣♦♥♠", game.foundations, strict=True):
        if top is None:
            assert f"-{suit}" in found["F"]

    for number, column in enumerate(game.columns, start=1):
        shown = cards_in(found[str(number)])
        assert [name for name, _ in shown] == pretty(column)
        assert not any(marked for _, marked in shown)
        assert ("free" in found[str(number)]) == (not column)

    waste = cards_in(found["W"])
    if game.waste:
        assert waste == [(game.waste[-1].pretty, True)]
        under = len(game.waste) - 1
        assert (f"+{under} under" in found["W"]) == (under > 0)
    else:
        assert waste == []
        assert "empty" in found["W"]

    assert cards_in(found["S"]) == []
    stock_numbers = [int(n) for n in re.findall(r"\d+", found["S"])]
    assert stock_numbers == ([game.stock_count] if game.stock_count else [])

    assert Counter(name for name, _ in cards_in(board)) == visible_cards(game)

    header = board.split("\n\n")[0]
    assert game.title in header
    assert (f"deal {game.deal}" if game.deal is not None else "custom position") in header
    assert f"{len(game.moves)} move" in header
    assert f"score {game.score}/52" in header


def test_fresh_deal_1_shows_the_deal_of_rules_md() -> None:
    game = Game.new("gate", deal=1)
    found = rows(render_text(game))
    assert cards_in(found["L"]) == [("J♦", False), ("9♥", False), ("5♦", False), ("7♣", False), ("K♦", True)]
    assert [name for name, _ in cards_in(found["1"])] == ["9♠"]
    assert "34" in found["S"]


def test_random_playouts_show_every_card_in_place() -> None:
    rng = random.Random("render")
    saw_free = saw_long = saw_wasted = 0
    option_sets: list[tuple[str, ...]] = [(), ("single-moves",), ("stock-fill",)]
    for playout in range(200):
        variant = ("gate", "little-gate")[playout % 2]
        for game in random_playout(rng, variant, option_sets[playout % 3], 160, every=9):
            check_board(game, render_text(game), NORMAL_WIDTH)
            check_board(game, render_text(game, compact=True), COMPACT_WIDTH)
            saw_free += any(not column for column in game.columns)
            saw_long += max(map(len, game.columns)) >= 9
            saw_wasted += len(game.waste) > 1
    # The playouts must reach the layouts that are hard to draw, or this test proves little.
    assert saw_free and saw_long and saw_wasted


@settings(max_examples=20, deadline=None)
@given(
    variant=st.sampled_from(["gate", "little-gate"]),
    options=st.sets(st.sampled_from(["single-moves", "stock-fill"])),
    deal=st.integers(1, 2**32 - 1),
    seed=st.integers(0, 2**16),
    german=st.booleans(),
)
def test_every_reachable_compact_board_fits_a_phone_line(
    variant: str, options: set[str], deal: int, seed: int, german: bool
) -> None:
    # A random game to its end: the columns grow long and the header's numbers wide on the way;
    # German words are longer than English ones (the stock's, once it is out, most of all).
    game = Game.new(variant, deal=deal, options=tuple(sorted(options)))
    for position in playouts.playout(game, random.Random(seed), 400, every=3):
        assert isinstance(position, GateGame)
        if german:
            board = render_text(position, compact=True, language=GERMAN)
            assert all(len(line) <= PHONE_COLUMNS for line in board.splitlines()), board
        else:
            check_board(position, render_text(position, compact=True), PHONE_COLUMNS)


def test_a_german_compact_board_with_the_stock_out_fits_a_phone_line() -> None:
    for variant in ("gate", "little-gate"):
        game = Game.new(variant, deal=1)
        while any(move.is_draw for move in game.legal_moves()):
            game.play_line("d")
        board = render_text(game, compact=True, language=GERMAN)
        [stock] = [line for line in board.splitlines() if line.startswith("S ")]
        assert "leer" in stock and len(stock) <= PHONE_COLUMNS, stock


def test_colour_paints_red_cards_only_and_changes_nothing_else() -> None:
    rng = random.Random("colour")
    for game in random_playout(rng, "gate", (), 60, every=5):
        for compact in (False, True):
            plain = render_text(game, compact=compact)
            coloured = render_text(game, compact=compact, colour=True)
            assert ANSI.sub("", coloured) == plain
            painted = RED_CARD.findall(coloured)
            reds = [name for name, _ in cards_in(plain) if name[-1] in "♦♥"]
            assert painted == reds
            width = COMPACT_WIDTH if compact else NORMAL_WIDTH
            assert all(len(ANSI.sub("", line)) <= width for line in coloured.splitlines())


def test_long_piles_wrap_and_keep_their_order() -> None:
    deck = [str(Card.from_index(i)) for i in range(52)]
    text = "\n".join([
        "little-gate single-moves stock-fill",
        "L: " + " ".join(deck[:14]),
        "R:",
        "F: - - - -",
        "1: " + " ".join(deck[14:44]),
        "2:",
        "3: " + " ".join(deck[44:50]),
        "4:",
        "W: " + " ".join(deck[50:]),
        "S:",
    ])
    game = Game.from_text(text)
    assert isinstance(game, GateGame)
    for compact, width in ((False, NORMAL_WIDTH), (True, COMPACT_WIDTH)):
        board = render_text(game, compact=compact)
        check_board(game, board, width)
        continued = [line for line in board.splitlines() if line.startswith(" ") and CARD.search(line)]
        assert continued  # column 1 is too long for one line
        assert "custom position" in board


def test_won_position_says_so_with_the_score() -> None:
    text = "gate\nL:\nR:\nF: KC KD KH KS\n" + "".join(f"{i}:\n" for i in range(1, 9)) + "W:\nS:"
    game = Game.from_text(text)
    assert isinstance(game, GateGame) and game.is_won
    for compact in (False, True):
        board = render_text(game, compact=compact)
        check_board(game, board, COMPACT_WIDTH if compact else NORMAL_WIDTH)
        ending = board.split("\n\n")[-1]
        assert "Won" in ending and "52/52" in ending


def test_dead_position_says_the_game_is_over() -> None:
    columns = [" ".join(f"{rank}{suit}" for rank in "TJQK") for suit in "CDHS"]
    text = "little-gate\nL:\nR:\nF: 9C 9D 9H 9S\n" + "".join(
        f"{i}: {column}\n" for i, column in enumerate(columns, start=1)
    ) + "W:\nS:"
    game = Game.from_text(text)
    assert isinstance(game, GateGame) and game.is_over and not game.is_won
    board = render_text(game)
    check_board(game, board, NORMAL_WIDTH)
    ending = board.split("\n\n")[-1]
    assert "over" in ending and "36/52" in ending


def test_game_in_progress_has_no_ending_line() -> None:
    board = render_text(Game.new("gate", deal=1))  # type: ignore[arg-type]
    assert "Won" not in board and "over" not in board


def test_hidden_stock_shows_only_its_size() -> None:
    game = Game.from_text(Game.new("gate", deal=1).to_text(hide_stock=True))
    assert isinstance(game, GateGame) and not game.stock_known
    board = render_text(game)
    check_board(game, board, NORMAL_WIDTH)
    assert "d draws" not in board  # nothing can be drawn from a stock of unknown order


def suit_columns(board: str) -> list[list[int]]:
    """For each line holding cards, where each card not in brackets ends (its suit's column)."""
    found = []
    for line in board.splitlines():
        ends = [match.end(2) - 1 for match in CARD.finditer(line) if not match.group(1)]
        if ends:
            found.append(ends)
    return found


def test_compact_cards_sit_on_one_grid_whatever_their_rank() -> None:
    # 10♦ 9♠ in one row and 8♥ 7♠ in the next: the suits must still fall in the same columns.
    placed = "TD 9S 8H 7S TC 9H 8C 5D 4S 3H".split()
    stock = [str(Card.from_index(i)) for i in range(52) if str(Card.from_index(i)) not in placed]
    text = "gate\nL: TD 9S\nR: 8H 7S\nF: - - - -\n1: TC 9H 8C\n2: 5D 4S 3H\n" + "".join(
        f"{i}:\n" for i in range(3, 9)) + "W:\nS: " + " ".join(stock)
    game = Game.from_text(text)
    rng = random.Random("grid")
    for board in [render_text(game, compact=True),
                  *(render_text(g, compact=True) for g in random_playout(rng, "gate", (), 120, every=6))]:
        lines = suit_columns(board)
        assert lines
        for ends in lines:
            assert all(b - a == 4 for a, b in itertools.pairwise(ends)), board
        assert len({end % 4 for ends in lines for end in ends}) == 1, board
        assert all(len(line) <= COMPACT_WIDTH for line in board.splitlines())
