"""Archway's boards (text, emoji): every card of the position, where the engine has it, within Discord's limits.

The boards are read back with small parsers written here from the layout contract: a pile's
row starts with its label (``A`` the Ace foundations, ``K`` the King foundations, ``P`` the
arch, ``1``-``4`` the columns), continuation lines are indented, the arch's packets come
Aces to Kings and a column's exposed (last) card is in brackets. Everything in Archway is
open, so every card off the foundations appears exactly as often as the engine has it.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import pairwise

import pytest

from gatebot.render import layout_board, render_emoji, render_png, render_text, rules_text
from gatebot.render.emoji_rows import display_width
from gatebot.render.image_geometry import Layout, SlotKind
from gatebot.rules import ArchwayGame, Card, Game
from tests.render.gate.test_image import check_pixels, decode
from tests.rules.builders import archway

DISCORD_MESSAGE = 2000
TEXT_WIDTH, TEXT_COMPACT = 72, 36  # 36: what a 380 px phone shows of a code block line
EMOJI_WIDTH, EMOJI_COMPACT = 80, 40
LABELS = {"A", "K", "P", "1", "2", "3", "4"}
RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

TEXT_CARD = re.compile(r"(\[)?((?:10|[2-9AJQK])[♣♦♥♠])(\])?")
TEXT_PACKET = re.compile(r"(10|[2-9AJQK]): (none|(?:(?:10|[2-9AJQK])[♣♦♥♠](?: |$))*)")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
EMOJI_RANKS = {"🇦": "A", **{f"{d}\ufe0f\u20e3": d for d in "23456789"}, "🔟": "10", "🇯": "J", "🇶": "Q", "🇰": "K"}
EMOJI_SUITS = {"♧": "♣", "♦\ufe0f": "♦", "♥\ufe0f": "♥", "♤": "♠"}
EMOJI_CARD = re.compile(
    r"(\[)?(" + "|".join(map(re.escape, EMOJI_RANKS)) + r")\u2060(" + "|".join(map(re.escape, EMOJI_SUITS)) + r")(\])?"
)
EMOJI_LABEL = re.compile(r"^`([AKP1-4])` ")


# -- reading boards back -------------------------------------------------------------------------


def text_cards(text: str) -> list[tuple[str, bool]]:
    return [(m.group(2), bool(m.group(1) and m.group(3))) for m in TEXT_CARD.finditer(text)]


def emoji_cards(text: str) -> list[tuple[str, bool]]:
    return [
        (EMOJI_RANKS[m.group(2)] + EMOJI_SUITS[m.group(3)], bool(m.group(1) and m.group(4)))
        for m in EMOJI_CARD.finditer(text)
    ]


def text_rows(board: str) -> dict[str, str]:
    """Each pile's row (continuation lines joined) by its label."""
    found: dict[str, str] = {}
    current: str | None = None
    for line in ANSI.sub("", board).splitlines():
        if not line.strip():
            current = None
        elif line[0] != " ":
            label = line.split()[0]
            current = label if label in LABELS else None
            if current is not None:
                assert current not in found, f"row {current} appears twice"
                found[current] = line[len(label):]
        elif current is not None:
            found[current] += " " + line.strip()
    return found


def emoji_rows(board: str) -> dict[str, str]:
    found: dict[str, str] = {}
    current: str | None = None
    for line in board.splitlines():
        match = EMOJI_LABEL.match(line)
        if match:
            current = match.group(1)
            assert current not in found, f"row {current} appears twice"
            found[current] = line[match.end():]
        elif not line.strip():
            current = None
        elif current is not None:
            assert line.startswith("\u2003"), f"continuation line not indented: {line!r}"
            found[current] += " " + line
    return found


def names(cards: tuple[Card, ...]) -> list[str]:
    return [card.pretty for card in cards]


# -- the checks every board passes -----------------------------------------------------------------


def check_text(game: ArchwayGame, *, compact: bool = False, colour: bool = False) -> str:
    board = render_text(game, compact=compact, colour=colour)
    width = TEXT_COMPACT if compact else TEXT_WIDTH
    assert all(len(ANSI.sub("", line)) <= width for line in board.splitlines())
    assert len(board) < DISCORD_MESSAGE
    rows = text_rows(board)
    assert set(rows) == LABELS
    assert text_cards(rows["A"]) == [(name, False) for name in names(game.ace_foundations)]
    assert text_cards(rows["K"]) == [(name, False) for name in names(game.king_foundations)]
    packets = TEXT_PACKET.findall(rows["P"])
    assert [rank for rank, _ in packets] == list(RANK_WORDS)
    for (_, shown), packet in zip(packets, game.arch, strict=True):
        assert shown.split() == (names(packet) or ["none"])
    for number, column in enumerate(game.columns, start=1):
        row = rows[str(number)]
        cards = text_cards(row)
        assert [name for name, _ in cards] == names(column)
        assert [top for _, top in cards] == [i == len(column) - 1 for i in range(len(column))]
        assert column or "·· space" in row
    shown = Counter(name for name, _ in text_cards(ANSI.sub("", board).split("\n\n", 1)[1]))
    assert shown == expected_cards(game)
    return board


def check_emoji(game: ArchwayGame, *, compact: bool = False) -> str:
    board = render_emoji(game, compact=compact)
    width = EMOJI_COMPACT if compact else EMOJI_WIDTH
    assert all(display_width(line) <= width for line in board.splitlines())
    assert len(board) < DISCORD_MESSAGE
    rows = emoji_rows(board)
    assert set(rows) == LABELS
    assert emoji_cards(rows["A"]) == [(name, False) for name in names(game.ace_foundations)]
    assert emoji_cards(rows["K"]) == [(name, False) for name in names(game.king_foundations)]
    packets = rows["P"].split("· ")
    assert len(packets) == 13
    for rank, (shown, packet) in enumerate(zip(packets, game.arch, strict=True)):
        assert [name for name, _ in emoji_cards(shown)] == names(packet)
        assert packet or ("*none*" in shown and shown.strip().startswith(list(EMOJI_RANKS)[rank]))
    for number, column in enumerate(game.columns, start=1):
        cards = emoji_cards(rows[str(number)])
        assert [name for name, _ in cards] == names(column)
        assert [top for _, top in cards] == [i == len(column) - 1 for i in range(len(column))]
        assert column or "*space*" in rows[str(number)]
    shown = Counter(name for name, _ in emoji_cards(board.split("\n\n", 1)[1]))
    assert shown == expected_cards(game)
    return board


def expected_cards(game: ArchwayGame) -> Counter[str]:
    """Every card a board names: the eight foundation tops, the arch and the columns."""
    cards = [*game.ace_foundations, *game.king_foundations, *(c for p in game.arch for c in p)]
    cards += [card for column in game.columns for card in column]
    return Counter(card.pretty for card in cards)


def deal(number: int = 1, line: str = "", options: tuple[str, ...] = ()) -> ArchwayGame:
    game = Game.new("archway", deal=number, options=options)
    assert isinstance(game, ArchwayGame)
    if line:
        game.play_line(line)
    return game


def built(**kwargs: object) -> ArchwayGame:
    game = archway(**kwargs)  # type: ignore[arg-type]
    assert isinstance(game, ArchwayGame)
    return game


def playout(seed: int, moves: int = 150) -> list[ArchwayGame]:
    """Positions along one random game that plays to the foundations whenever it can."""
    rng = random.Random(seed)
    game = deal(rng.randint(1, 2**32 - 1), options=("kit",) if seed % 2 else ())
    positions = [game.copy()]
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        up = [move for move in legal if move.target in ("a", "k")]
        game.push(rng.choice(up) if up and rng.random() < 0.9 else rng.choice(legal))
        positions.append(game.copy())
    return positions


# -- text ----------------------------------------------------------------------------------------


def test_deal_1_shows_the_deal_of_the_docs() -> None:
    game = deal()
    for compact in (False, True):
        board = check_text(game, compact=compact)
        assert "Archway" in board.splitlines()[0]
        assert "deal 1 · 0 moves · score 8/104" in board
        rows = text_rows(board)
        assert text_cards(rows["1"])[-1] == ("A♦", True)
        assert "A: none" in rows["P"]
    rows = text_rows(check_text(game))
    assert rows["1"].split() == "Q♦ 10♦ 10♥ 5♦ 10♠ 5♠ 3♣ 6♥ 2♠ A♠ 9♠ [A♦]".split()
    assert rows["A"].split() == ["A♣", "A♦", "A♥", "A♠", "up", "to", "K"]


def test_moves_show_on_the_foundations_and_in_the_header() -> None:
    game = deal(line="2ca 2ha qhk")
    for compact in (False, True):
        board = check_text(game, compact=compact)
        assert "3 moves · score 11/104" in board
        assert text_cards(text_rows(board)["A"])[:3] == [("2♣", False), ("A♦", False), ("2♥", False)]
        assert ("Q♥", False) in text_cards(text_rows(board)["K"])


def test_empty_packets_and_spaces_are_shown_as_such() -> None:
    threes_fours = " ".join(rank + suit for rank in "34" for suit in "CCDDHHSS")
    game = built(columns={1: "7H", 3: threes_fours})
    assert not game.arch[2] and not game.columns[1]
    for compact in (False, True):
        rows = text_rows(check_text(game, compact=compact))
        assert "3: none" in rows["P"] and "4: none" in rows["P"]
        assert rows["2"].strip() == "·· space"
        emoji = emoji_rows(check_emoji(game, compact=compact))
        assert "*space*" in emoji["2"]


def test_random_playouts_show_every_card() -> None:
    for seed in range(6):
        for game in playout(seed)[::10]:
            for compact in (False, True):
                check_text(game, compact=compact)
                check_emoji(game, compact=compact)
            check_text(game, colour=True)


def test_the_deal_is_the_longest_board_and_fits_discord() -> None:
    for number in (1, 2, 617, 2**32 - 1):
        game = deal(number)
        assert sum(map(len, game.columns)) == 48 and sum(map(len, game.arch)) == 48
        normal, compact = check_text(game), check_text(game, compact=True)
        assert len(normal) < DISCORD_MESSAGE // 2 and len(compact) < DISCORD_MESSAGE // 2
        assert max(map(len, compact.splitlines())) < max(map(len, normal.splitlines()))
        for small in (False, True):
            assert len(check_emoji(game, compact=small)) < DISCORD_MESSAGE // 2


def test_a_crowded_arch_with_kit_still_fits() -> None:
    # With kit the arch can hold far more than at the deal: here every card off the foundations.
    game = built(options="kit", columns={1: "7H"})
    assert sum(map(len, game.arch)) == 95 and max(map(len, game.arch)) == 8
    for compact in (False, True):
        assert len(check_text(game, compact=compact)) < DISCORD_MESSAGE
        assert len(check_emoji(game, compact=compact)) < DISCORD_MESSAGE


def test_a_won_game_says_so() -> None:
    game = built(aces="KC KD KH KS", kings="AC AD AH AS")
    assert game.is_won
    for compact in (False, True):
        assert "104/104" in check_text(game, compact=compact).split("\n\n")[-1]
        assert "104/104" in check_emoji(game, compact=compact).split("\n\n")[-1]


# -- emoji ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("compact", [False, True])
def test_emoji_deal_1(compact: bool) -> None:
    board = check_emoji(deal(), compact=compact)
    assert board.startswith("**Archway**")
    assert "score 8/104" in board
    rows = emoji_rows(board)
    assert emoji_cards(rows["4"])[-1] == ("6♥", True)
    assert rows["P"].startswith("🇦 *none*")


# -- the PNG board -------------------------------------------------------------------------------


def check_layout(game: ArchwayGame, layout: Layout) -> None:
    """The layout holds exactly the cards the text board names, inside the image, each pile labelled."""
    assert Counter(spot.card.pretty for spot in layout.cards) == expected_cards(game)
    width, height = layout.size
    assert all(0 <= s.box[0] < s.box[2] <= width and 0 <= s.box[1] < s.box[3] <= height for s in layout.cards)
    assert {badge.text for badge in layout.badges} == LABELS - {"P"}  # the arch's packets carry their ranks
    assert [spot.card for spot in layout.spots("A")] == list(game.ace_foundations)
    assert [spot.card for spot in layout.spots("K")] == list(game.king_foundations)
    assert [spot.card for spot in layout.spots("P")] == [card for packet in game.arch for card in packet]
    empty = [slot.note for slot in layout.slots if slot.pile == "P"]
    assert empty == [RANK_WORDS[rank] for rank, packet in enumerate(game.arch) if not packet]
    for number, column in enumerate(game.columns, start=1):
        spots = layout.spots(str(number))
        assert [spot.card for spot in spots] == list(column)
        assert [spot.exposed for spot in spots] == [i == len(column) - 1 for i in range(len(column))]
        assert all(a.box[1] < b.box[1] for a, b in pairwise(spots))
        spaces = [slot for slot in layout.slots if slot.pile == str(number)]
        assert len(spaces) == (not column) and all(slot.kind is SlotKind.FREE for slot in spaces)


def test_png_of_deal_1_shows_every_card() -> None:
    game = deal()
    layout = layout_board(game)
    image = decode(render_png(game))
    assert image.size == layout.size and 800 <= image.width <= 1200
    check_layout(game, layout)
    check_pixels(game, layout, image)  # type: ignore[arg-type]
    header = " ".join(text.text for text in layout.texts)
    assert "Archway" in header and "deal 1" in header and "score 8/104" in header


def test_png_of_other_positions() -> None:
    threes_fours = " ".join(rank + suit for rank in "34" for suit in "CCDDHHSS")
    games = [built(columns={1: "7H", 3: threes_fours}), built(options="kit", columns={1: "7H"}), *playout(7)[::40]]
    for game in games:
        layout = layout_board(game)
        check_layout(game, layout)
        check_pixels(game, layout, decode(render_png(game)))  # type: ignore[arg-type]
    assert render_png(deal()) == render_png(deal())


# -- the rules -----------------------------------------------------------------------------------


def test_rules_say_the_foundations_the_arch_and_the_kit_option() -> None:
    text = rules_text(deal(), width=60)
    assert all(len(line) <= 60 for line in text.splitlines()) and len(text.splitlines()) <= 25
    plain = " ".join(text.split())
    assert "104 cards" in plain and "eight foundations" in plain and "13 packets" in plain
    assert "Ace to King" in plain and "King to Ace" in plain and "space" in plain and "Reversing" in plain
    assert "put back into the arch" in plain and "(kit)" not in plain
    kit = " ".join(rules_text(deal(options=("kit",))).split())
    assert "(kit)" in kit and "back to the arch packet" in kit
