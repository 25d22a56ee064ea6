"""docs/rules.md says what the code does: its examples are read out of the page and played.

The page is the contract for deal numbers, move notation and position text, so its examples
are test vectors: every position block must read and write back unchanged (and a dealt one be
that deal), every deal vector and the worked shuffle must agree with the deals the code makes,
every row of typed moves must play (or be refused) as the page says, and every option each
variant has must be in the page. Nothing expected here is copied from the code: it is read
from the page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from gatebot.rules import Game
from gatebot.rules.archway import DECK as ARCHWAY_DECK
from gatebot.rules.cards import CARD_TEXT, parse_card
from gatebot.rules.deal import shuffle, shuffled_deck
from gatebot.rules.errors import AmbiguousMove, DealNumberError
from gatebot.rules.gate import GateGame, LittleGateGame
from gatebot.rules.variants import VARIANTS

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rules.md"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`([^`]+)`")


@dataclass(frozen=True)
class Block:
    """One fenced block of the page: its info string's words and its text."""

    info: tuple[str, ...]
    text: str


@cache
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


@cache
def blocks() -> tuple[Block, ...]:
    return tuple(Block(tuple(match.group(1).split()), match.group(2).rstrip("\n")) for match in FENCE.finditer(page()))


def position_blocks() -> list[Block]:
    return [block for block in blocks() if block.info[:1] == ("position",)]


def named_positions() -> dict[str, str]:
    """The positions the tables of typed moves name: ``deal 1``, and each ``position X`` block."""
    named = {"deal 1": Game.new("gate", deal=1).to_text()}
    for block in position_blocks():
        for word in block.info[1:]:
            if not word.startswith("deal="):
                named[word] = block.text
    return named


def table(header: str) -> list[list[str]]:
    """The rows (cells stripped) of every table of the page whose header row is ``header``."""
    rows: list[list[str]] = []
    lines = page().splitlines()
    for number, line in enumerate(lines):
        if line.strip() != header:
            continue
        for row in lines[number + 2:]:
            if not row.startswith("|"):
                break
            rows.append([cell.strip() for cell in row.strip().strip("|").split("|")])
    return rows


def section(heading: str) -> str:
    """The text of the page's section with this heading, up to the next heading of its level or higher."""
    text = page()
    body = text.index(heading + "\n") + len(heading) + 1
    level = len(heading.split()[0])
    end = re.search(rf"^#{{1,{level}}} ", text[body:], re.MULTILINE)
    return text[body : body + end.start()] if end else text[body:]


# -- positions ------------------------------------------------------------------------------

def test_the_page_has_position_examples_for_the_tables_and_a_dealt_one() -> None:
    infos = [block.info for block in position_blocks()]
    assert ("position", "deal=1") in infos
    assert {"B", "C"} <= set(named_positions())


@pytest.mark.parametrize("block", position_blocks(), ids=lambda block: " ".join(block.info))
def test_each_position_block_reads_and_writes_back_unchanged(block: Block) -> None:
    game = Game.from_text(block.text)
    hidden = block.text.splitlines()[-1].startswith("S: ?")
    assert game.to_text(hide_stock=hidden) == block.text
    for word in block.info[1:]:
        if word.startswith("deal="):
            variant = block.text.split()[0]
            assert Game.new(variant, deal=int(word.removeprefix("deal="))).to_text() == block.text


def test_a_position_pasted_in_a_chat_code_fence_in_lower_case_reads_as_the_page_writes_it() -> None:
    text = named_positions()["C"]
    pasted = "```\n" + "\n".join("  " + line.lower() + "  " for line in text.splitlines()) + "\n```"
    assert Game.from_text(pasted).to_text() == text


def test_the_hidden_stock_example_is_position_c_as_its_player_sees_it() -> None:
    hidden = [block for block in position_blocks() if block.text.endswith("S: ?36")]
    assert len(hidden) == 1
    assert Game.from_text(named_positions()["C"]).to_text(hide_stock=True) == hidden[0].text


def test_the_listed_legal_moves_are_the_positions_legal_moves() -> None:
    deal_1 = re.search(r"in deal 1 of Gate they are `([^`]+)`", page())
    later = re.search(r"Its legal moves are `([^`]+)`", page())
    assert deal_1 is not None and later is not None
    assert [str(m) for m in Game.new("gate", deal=1).legal_moves()] == deal_1.group(1).split()
    assert [str(m) for m in Game.from_text(named_positions()["B"]).legal_moves()] == later.group(1).split()


# -- deal numbers ---------------------------------------------------------------------------

def deal_vectors() -> list[tuple[str, int, list[str]]]:
    (block,) = [block for block in blocks() if block.info == ("deals",)]
    vectors = []
    for line in block.text.splitlines():
        head, cards = line.split(":")
        variant, number = head.split()
        vectors.append((variant, int(number), cards.split()))
    return vectors


@pytest.mark.parametrize(("variant", "number", "cards"), deal_vectors(), ids=lambda v: str(v)[:12])
def test_each_deal_vector_is_the_start_of_that_deals_dealt_sequence(variant: str, number: int,
                                                                    cards: list[str]) -> None:
    deck = ARCHWAY_DECK if variant == "archway" else range(52)
    dealt = [CARD_TEXT[card] for card in shuffle(number, deck)]
    assert dealt[: len(cards)] == cards


def test_the_worked_shuffle_follows_the_pages_formula_and_deals_what_the_code_deals() -> None:
    rows = table("| left | state | random | j | card dealt | card moved into position j |")
    assert len(rows) >= 5
    deck = list(range(52))
    state = 1
    dealt = shuffled_deck(1)
    for step, (left, row_state, random, j, card, moved) in enumerate(rows):
        state = (state * 214013 + 2531011) % 2**32
        assert int(row_state) == state
        assert int(random) == (state >> 16) & 32767
        assert int(j) == int(random) % int(left) and int(left) == 52 - step
        assert parse_card(card.strip("`")) == deck[int(j)] == dealt[step]
        deck[int(j)] = deck[int(left) - 1]
        assert parse_card(moved.strip("`")) == deck[int(j)]


def test_the_gate_layout_table_is_how_a_deal_is_laid_out() -> None:
    dealt = [CARD_TEXT[card] for card in shuffled_deck(1)]
    game = Game.new("gate", deal=1)
    assert isinstance(game, GateGame)
    left, right = game.reserves
    assert [str(card) for card in left] == dealt[0:10:2]
    assert [str(card) for card in right] == dealt[1:10:2]
    assert [str(column[0]) for column in game.columns] == dealt[10:18]
    assert game.to_text().splitlines()[-1] == "S: " + " ".join(dealt[18:])
    little = Game.new("little-gate", deal=1).to_text().splitlines()
    assert little[-1] == "S: " + " ".join(dealt[14:]) and len(dealt[14:]) == 38


@pytest.mark.parametrize("number", [0, -1, 2**32])
def test_deal_numbers_outside_the_pages_range_are_refused(number: int) -> None:
    assert "4,294,967,295 (2³² − 1)" in page()
    with pytest.raises(DealNumberError):
        Game.new("gate", deal=number)


# -- typed moves ----------------------------------------------------------------------------

def typed_rows() -> list[tuple[str, str, str]]:
    """Each (typed text, position name, what the page says it plays) of the typed-move tables."""
    rows = []
    for typed_cell, position, plays in table("| you type | position | plays |"):
        for typed in CODE.findall(typed_cell):
            rows.append((typed, position, plays))
    return rows


def test_the_tables_of_typed_moves_have_rows() -> None:
    assert len(typed_rows()) > 100


@pytest.mark.parametrize(("typed", "position", "plays"), typed_rows(), ids=lambda v: str(v)[:30])
def test_each_typed_move_plays_as_the_page_says(typed: str, position: str, plays: str) -> None:
    game = Game.from_text(named_positions()[position])
    before = game.to_text()
    result = game.play_line(typed)
    played = [str(move) for move in result.played]
    if plays.startswith("asks:"):
        assert played == []
        assert isinstance(result.error, AmbiguousMove)
        assert list(result.error.choices) == CODE.findall(plays)
        assert game.to_text() == before
        return
    tokens, refused, refusal = plays.partition("refused")
    assert played == CODE.findall(tokens)
    if not refused:
        assert result.error is None
        return
    assert result.error is not None and not isinstance(result.error, AmbiguousMove)
    if quoted := re.search(r'"(.+)"', refusal):
        assert str(result.error) == quoted.group(1)


# -- the words of the move language ------------------------------------------------------------

def test_every_word_the_words_table_lists_is_read_as_the_page_says() -> None:
    rows = {kind: CODE.findall(words) for kind, words in table("| kind | words |")}
    game = Game.from_text(named_positions()["C"])
    for word in rows["a draw"]:
        assert [str(m) for m in game.copy().play_line(word).played] == ["d"], word
    for word in rows["the foundation"]:
        assert str(game.copy().play("l " + word)) == "lf", word
    for word in rows['"onto"']:
        assert str(game.copy().play("r " + word + " 1")) == "r1", word
    for word in rows["ignored"]:
        assert str(game.copy().play(word + " r 1")) == "r1", word
    assert {"left", "right"} <= set(rows["the reserves"]) and "waste" in rows["the waste"]


# -- options ---------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS, ids=lambda variant: variant.name)
def test_every_option_of_every_variant_is_in_its_section_of_the_page(variant: type[Game]) -> None:
    if variant is LittleGateGame:
        assert variant.known_options == GateGame.known_options
        assert "[the same options](#gates-options)" in section("## Little Gate")
        return
    text = section("## " + variant.title)
    documented = [row[0].strip("`") for row in table("| option | what it changes |") if f"`{row[0].strip('`')}`" in text
                  and f"| {row[0]} |" in text]
    assert documented == list(variant.known_options)
    for option in variant.known_options:
        variant.check_options([option] + (["draw-one"] if option.startswith("passes-") else []))


def test_the_option_order_the_page_gives_is_the_canonical_one() -> None:
    game = Game.new("gate", deal=1, options=("stock-fill", "single-moves"))
    assert game.to_text().splitlines()[0] in page()
