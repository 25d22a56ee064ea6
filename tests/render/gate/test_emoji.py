"""The emoji board: every visible card where the position has it, nothing hidden, within Discord's limits.

The board is read back with a parser written here from the contract: a pile's row starts
with its label in a code span, continuation lines don't; a card is a rank tile (regional
indicator letter, keycap digit or 🔟), a word joiner, then a suit (red emoji ``♥️ ♦️``,
outlined ``♤ ♧`` for black suits, which stay visible on Discord's dark theme); a reserve's
and the waste's top card is in brackets. Widths use the units the module documents (an
emoji 3, a black suit symbol 2, an en space 1, an em space 2, markup 0).
"""

from __future__ import annotations

import random
import re
from collections import Counter

from gatebot.render import render_emoji
from gatebot.rules import Card, Game, GateGame
from tests.render.playouts import random_playout

DISCORD_MESSAGE = 2000
DISCORD_EMBED_DESCRIPTION = 4096
# The widths promised (not read from the renderer): a phone line, and a desktop line.
COMPACT_WIDTH = 40
NORMAL_WIDTH = 80
COMPACT_CARDS_PER_LINE = 5

RANKS = {"🇦": "A", **{f"{d}\ufe0f\u20e3": d for d in "23456789"}, "🔟": "10", "🇯": "J", "🇶": "Q", "🇰": "K"}
SUITS = {"♧": "♣", "♦\ufe0f": "♦", "♥\ufe0f": "♥", "♤": "♠"}
CARD = re.compile(
    r"(\[)?(" + "|".join(map(re.escape, RANKS)) + r")\u2060(" + "|".join(map(re.escape, SUITS)) + r")(\])?"
)
BLANK = "🟦"
LABEL = re.compile(r"^`([LRFWS1-8])` ")
ZERO_WIDTH = re.compile("[\ufe0f\u20e3\u2060*`_]")
REGIONAL = re.compile(r"[\U0001F1E6-\U0001F1FF]{2}")


def width(line: str) -> int:
    """How wide a line is drawn, in the units the emoji module documents."""
    total = 0
    for char in ZERO_WIDTH.sub("", line):
        if ord(char) >= 0x1F000 or char in "♦♥":
            total += 3
        elif char in "♤♧\u2003":
            total += 2
        else:
            total += 1
    return total + 2 * line.count("\u20e3")  # a keycap's digit and its mark make one emoji


def rows(board: str) -> dict[str, list[str]]:
    """Each pile's lines (first line without its label), by label."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in board.splitlines():
        match = LABEL.match(line)
        if match:
            current = match.group(1)
            assert current not in found, f"row {current} appears twice"
            found[current] = [line[match.end():]]
        elif not line.strip():
            current = None
        elif current is not None:
            assert line.startswith("\u2003"), f"continuation line not indented: {line!r}"
            found[current].append(line)
    return found


def cards_in(text: str) -> list[tuple[str, bool]]:
    """The cards written in ``text`` as ``10♦`` names, in order, each with whether it is bracketed."""
    return [
        (RANKS[match.group(2)] + SUITS[match.group(3)], bool(match.group(1) and match.group(4)))
        for match in CARD.finditer(text)
    ]


def visible_cards(game: GateGame) -> Counter[str]:
    left, right = game.reserves
    seen = [*left, *right, *(top for top in game.foundations if top is not None)]
    seen += [card for column in game.columns for card in column]
    seen += game.waste[-1:]
    return Counter(card.pretty for card in seen)


def check_board(game: GateGame, board: str, *, compact: bool) -> None:
    """Assert the board shows exactly the position ``game`` holds, within Discord's limits."""
    assert len(board) < DISCORD_MESSAGE and len(board) < DISCORD_EMBED_DESCRIPTION
    limit = COMPACT_WIDTH if compact else NORMAL_WIDTH
    for line in board.splitlines():
        assert width(line) <= limit, (width(line), line)
        assert line.count("**") % 2 == 0 and line.count("`") % 2 == 0, line  # markup closes on its line
        if compact:
            assert len(cards_in(line)) <= COMPACT_CARDS_PER_LINE, line
    assert not REGIONAL.search(board), "two regional indicators side by side would draw a flag"
    assert "♠" not in board and "♣" not in board, "black suit emoji vanish on Discord's dark theme"

    found = {label: " ".join(lines) for label, lines in rows(board).items()}
    assert set(found) == {"L", "R", "F", "W", "S", *map(str, range(1, len(game.columns) + 1))}

    for label, reserve in zip("LR", game.reserves, strict=True):
        shown = cards_in(found[label])
        assert [name for name, _ in shown] == [card.pretty for card in reserve]
        assert [marked for _, marked in shown] == [i == len(reserve) - 1 for i in range(len(reserve))]
        assert ("empty" in found[label]) == (not reserve)

    foundation_cells = found["F"].split("\u2002")
    assert len(foundation_cells) == 4
    for cell, top, suit in zip(foundation_cells, game.foundations, SUITS, strict=True):
        if top is None:
            assert cell == BLANK + "\u2060" + suit
        else:
            assert cards_in(cell) == [(top.pretty, False)]

    for number, column in enumerate(game.columns, start=1):
        shown = cards_in(found[str(number)])
        assert [name for name, _ in shown] == [card.pretty for card in column]
        assert not any(marked for _, marked in shown)
        assert ("free" in found[str(number)]) == (not column)

    waste = cards_in(found["W"])
    if game.waste:
        assert waste == [(game.waste[-1].pretty, True)]
        under = len(game.waste) - 1
        assert (f"+{under} under" in found["W"]) == (under > 0)
    else:
        assert waste == [] and "empty" in found["W"]

    assert cards_in(found["S"]) == []
    assert [int(n) for n in re.findall(r"\d+", found["S"])] == ([game.stock_count] if game.stock_count else [])
    assert Counter(name for name, _ in cards_in(board)) == visible_cards(game)

    header = board.split("\n\n")[0]
    assert f"**{game.title}**" in header
    assert (f"deal {game.deal}" if game.deal is not None else "custom position") in header
    assert f"{len(game.moves)} move" in header
    assert f"score {game.score}/52" in header


def test_fresh_deal_1_shows_the_deal_of_rules_md() -> None:
    game = Game.new("gate", deal=1)
    assert isinstance(game, GateGame)
    board = render_emoji(game)
    found = rows(board)
    assert cards_in(found["L"][0]) == [("J♦", False), ("9♥", False), ("5♦", False), ("7♣", False), ("K♦", True)]
    assert found["L"][0] == "🇯\u2060♦️\u20029️⃣\u2060♥️\u20025️⃣\u2060♦️\u20027️⃣\u2060♧\u2002[🇰\u2060♦️]"
    assert cards_in(found["1"][0]) == [("9♠", False)]
    assert "**34** cards" in found["S"][0]
    check_board(game, board, compact=False)


def test_random_playouts_show_every_card_in_place() -> None:
    rng = random.Random("emoji")
    saw_free = saw_long = saw_wasted = saw_over = 0
    option_sets: list[tuple[str, ...]] = [(), ("single-moves",), ("stock-fill",), ("single-moves", "stock-fill")]
    for playout in range(200):
        variant = ("gate", "little-gate")[playout % 2]
        for game in random_playout(rng, variant, option_sets[playout % 4], 200, every=17):
            check_board(game, render_emoji(game), compact=False)
            check_board(game, render_emoji(game, compact=True), compact=True)
            saw_free += any(not column for column in game.columns)
            saw_long += max(map(len, game.columns)) >= 9
            saw_wasted += len(game.waste) > 1
            saw_over += game.outcome() is not None
    # The playouts must reach the layouts that are hard to draw, or this test proves little.
    assert saw_free and saw_long and saw_wasted and saw_over


def test_every_card_is_drawn_the_same_way_everywhere() -> None:
    deck = [Card.from_index(i) for i in range(52)]
    columns = [" ".join(str(card) for card in deck[i * 6:(i + 1) * 6]) for i in range(7)]
    text = "\n".join([
        "gate", "L: " + " ".join(map(str, deck[42:47])), "R: " + " ".join(map(str, deck[47:52])), "F: - - - -",
        *(f"{i}: {column}" for i, column in enumerate(columns, start=1)), "8:", "W:", "S:",
    ])
    game = Game.from_text(text)
    assert isinstance(game, GateGame)
    for compact in (False, True):
        board = render_emoji(game, compact=compact)
        check_board(game, board, compact=compact)
        assert sorted(name for name, _ in cards_in(board)) == sorted(card.pretty for card in deck)


def test_long_piles_wrap_keep_their_order_and_stay_short() -> None:
    deck = [str(Card.from_index(i)) for i in range(52)]
    for column_cards, reserve_cards in ((deck[14:44], deck[:14]), (deck[:50], [])):
        rest = [card for card in deck if card not in column_cards and card not in reserve_cards]
        text = "\n".join([
            "little-gate single-moves stock-fill", "L: " + " ".join(reserve_cards), "R:", "F: - - - -",
            "1: " + " ".join(column_cards), "2:", "3: " + " ".join(rest[:-2]), "4:", "W: " + " ".join(rest[-2:]), "S:",
        ])
        game = Game.from_text(text)
        assert isinstance(game, GateGame)
        for compact in (False, True):
            board = render_emoji(game, compact=compact)
            check_board(game, board, compact=compact)
            assert len(rows(board)["1"]) > 1  # column 1 is too long for one line
            assert "custom position" in board


def test_worst_case_length_is_far_below_the_message_limit() -> None:
    # The longest board: all 52 cards face up, keycap ranks (the longest tiles) everywhere,
    # options in the title, a nine-digit move count.
    keycaps = [str(Card(rank, suit)) for rank in range(2, 10) for suit in range(4)]
    others = [str(Card(rank, suit)) for rank in (1, 10, 11, 12, 13) for suit in range(4)]
    text = "\n".join([
        "gate single-moves stock-fill", "L: " + " ".join(keycaps[:16]), "R: " + " ".join(keycaps[16:]), "F: - - - -",
        "1: " + " ".join(others[:10]), "2: " + " ".join(others[10:]), *(f"{i}:" for i in range(3, 9)), "W:", "S:",
    ])
    game = Game.from_text(text)
    assert isinstance(game, GateGame)
    for compact in (False, True):
        board = render_emoji(game, compact=compact)
        check_board(game, board, compact=compact)
        assert len(board) < DISCORD_MESSAGE // 2


def test_won_and_dead_positions_say_so() -> None:
    won = Game.from_text("gate\nL:\nR:\nF: KC KD KH KS\n" + "".join(f"{i}:\n" for i in range(1, 9)) + "W:\nS:")
    columns = [" ".join(f"{rank}{suit}" for rank in "TJQK") for suit in "CDHS"]
    dead = Game.from_text("little-gate\nL:\nR:\nF: 9C 9D 9H 9S\n" + "".join(
        f"{i}: {column}\n" for i, column in enumerate(columns, start=1)
    ) + "W:\nS:")
    for game, words, score in ((won, "Won", "52/52"), (dead, "Game over", "36/52")):
        assert isinstance(game, GateGame) and game.is_over
        for compact in (False, True):
            board = render_emoji(game, compact=compact)
            check_board(game, board, compact=compact)
            ending = board.split("\n\n")[-1]
            assert words in ending and score in ending
    assert "Won" not in render_emoji(Game.new("gate", deal=1))  # type: ignore[arg-type]


def test_hidden_stock_shows_only_its_size() -> None:
    game = Game.from_text(Game.new("gate", deal=1).to_text(hide_stock=True))
    assert isinstance(game, GateGame) and not game.stock_known
    board = render_emoji(game)
    check_board(game, board, compact=False)
    assert "draws" not in board and "order unknown" in board


def test_compact_header_splits_title_from_facts() -> None:
    game = Game.new("little-gate", deal=4294967295, options=("single-moves", "stock-fill"))
    assert isinstance(game, GateGame)
    lines = render_emoji(game, compact=True).splitlines()
    assert lines[0] == "**Little Gate** (single-moves, stock-fill)"
    assert lines[1] == "deal 4294967295 · 0 moves · score 0/52"
    assert render_emoji(game).splitlines()[0].startswith("**Little Gate** (single-moves, stock-fill) · deal")
