"""Tests of the reference model itself, against facts stated in docs/rules.md.

The reference model is only worth comparing the engine against if it is right, so these
tests pin it to the checks and examples docs/rules.md states outright (the deal-1 check, the
example position lines, the fill order of section 3, the notation of section 5).
"""

from __future__ import annotations

import random

import pytest

try:  # tests/ may or may not become a package; support both layouts
    from . import reference as ref
except ImportError:
    import reference as ref  # type: ignore[no-redef]


def make(lines: dict[str, str], variant: str = "gate", options: str = "") -> ref.Position:
    """Build a position from a few named lines; every other pile is empty.

    Unless an ``S`` line is given, the cards placed nowhere else (and not on the
    foundations) form the stock in deck order, so the position holds all 52 cards.
    """
    labels = ["L", "R", "F"] + [str(i + 1) for i in range(ref.COLUMN_COUNTS[variant])]
    labels += ["W", "S"]
    body = {label: lines.get(label, "") for label in labels}
    body["F"] = body["F"] or "- - - -"
    if "S" not in lines:
        used = {ref.parse_card(word) for label in labels if label != "F" for word in body[label].split()}
        for word, suit in zip(body["F"].split(), ref.SUITS, strict=True):
            if word != "-":
                used.update(rank + suit for rank in ref.RANKS[: ref.rank_of(word)])
        body["S"] = " ".join(card for card in ref.full_deck() if card not in used)
    text = "\n".join(
        [f"{variant} {options}".strip()] + [f"{label}: {body[label]}".rstrip() for label in labels]
    )
    return ref.parse_position_text(text)


# ---------------------------------------------------------------- section 2: the deal


def test_deal_1_first_cards() -> None:
    """docs/rules.md#deal-numbers check: the first 18 cards of deal 1."""
    assert ref.deal_cards(1)[:18] == ("JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS".split())


def test_deal_is_a_permutation() -> None:
    """Every deal holds each of the 52 cards exactly once."""
    for n in (1, 2, 617, 11982, 2**32 - 1):
        assert sorted(ref.deal_cards(n)) == sorted(ref.full_deck())


def test_deal_number_range() -> None:
    """Deal numbers run from 1 to 2^32 - 1."""
    with pytest.raises(ValueError):
        ref.deal_cards(0)
    with pytest.raises(ValueError):
        ref.deal_cards(2**32)


def test_deal_1_layout() -> None:
    """Deal 1: the reserves, column 1 and the stock agree with docs/rules.md (its Gate layout, position text)."""
    pos = ref.new_position("gate", 1)
    assert pos.left == tuple("JD 9H 5D 7C KD".split())
    assert pos.columns[0] == ("9S",)
    text = ref.position_text(pos).splitlines()
    assert text[2] == "R: 2D JC 7H 5H KC"  # the example R line of section 6
    assert text[-1].startswith("S: 9D QD JS ")  # the example S line: first cards drawn
    assert len(pos.stock) == 34
    assert [c[0] for c in pos.columns] == "9S 5S AD QC KH 3H 2S KS".split()


def test_little_gate_layout() -> None:
    """Little Gate: 4 columns, stock 38."""
    pos = ref.new_position("little-gate", 1)
    assert [c[0] for c in pos.columns] == "9S 5S AD QC".split()
    assert len(pos.stock) == 38
    assert pos.stock[0] == "KH"


def test_start_text_deal_1() -> None:
    """The full position text of deal 1, section 6 layout."""
    assert ref.position_text(ref.new_position("gate", 1)) == "\n".join(
        [
            "gate",
            "L: JD 9H 5D 7C KD",
            "R: 2D JC 7H 5H KC",
            "F: - - - -",
            "1: 9S",
            "2: 5S",
            "3: AD",
            "4: QC",
            "5: KH",
            "6: 3H",
            "7: 2S",
            "8: KS",
            "W:",
            "S: " + " ".join(ref.deal_cards(1)[18:]),
        ]
    )


def test_options_header() -> None:
    """Options follow the variant on the first line."""
    pos = ref.new_position("little-gate", 5, ("stock-fill", "single-moves"))
    assert ref.position_text(pos).splitlines()[0] == "little-gate single-moves stock-fill"
    with pytest.raises(ValueError):
        ref.new_position("gate", 1, ("redeal",))


# ---------------------------------------------------------------- moves and notation


def test_deal_1_opening_moves() -> None:
    """Deal 1 opening: AD to foundation, and the builds that fit (checked by hand)."""
    pos = ref.new_position("gate", 1)
    # columns 9S 5S AD QC KH 3H 2S KS; reserve tops KD (left) KC (right)
    # builds: QC on KH (4->5), 2S on 3H (7->6), AD on 2S (3->7); AD to foundation.
    assert ref.legal_tokens(pos) == {"d", "3f", "45", "76", "37"}


def test_runs_move_as_a_unit_and_only_whole_runs() -> None:
    """A run moves onto a column whose top accepts its deepest card; one length per pair."""
    pos = make(
        {
            "1": "KS 9H 8C 7D",
            "2": "TC",
            "3": "9S",
            "4": "8H",
            "5": "QD",
            "6": "JD",
            "7": "JH",
            "8": "5C",
            "L": "2C",
            "R": "3C",
        }
    )
    tokens = ref.legal_tokens(pos)
    assert "12" in tokens  # 9H 8C 7D onto TC
    assert "14" not in tokens and "13" not in tokens  # 8H and 9S fit no run base
    assert not any(":" in t for t in tokens)
    after = ref.apply_token(pos, "12")
    assert after.columns[0] == ("KS",)
    assert after.columns[1] == ("TC", "9H", "8C", "7D")


def test_single_moves_only_top_card() -> None:
    """Option single-moves: only the top card of a column moves."""
    lines = {
        "1": "KS 9H 8C 7D",
        "2": "TC",
        "3": "8S",
        "4": "8H",
        "5": "QD",
        "6": "JD",
        "7": "JH",
        "8": "5C",
        "L": "2C",
        "R": "3C",
    }
    runs = ref.legal_tokens(make(lines))
    single = ref.legal_tokens(make(lines, options="single-moves"))
    assert "12" in runs and "12" not in single
    assert "13" in runs and "13" in single  # 7D onto 8S is a single card either way


def test_free_space_run_lengths_use_colon_form() -> None:
    """Onto a free space every run length is legal and written XY:n."""
    pos = make(
        {
            "1": "KS 9H 8C 7D",
            "2": "",
            "3": "9S",
            "4": "8H",
            "5": "QD",
            "6": "JD",
            "7": "JH",
            "8": "5C",
            "W": "2C",
        }
    )
    tokens = ref.legal_tokens(pos)
    assert {"12:1", "12:2", "12:3"} <= tokens
    assert "12" not in tokens and "12:4" not in tokens
    for source in "345678w":
        assert source + "2" in tokens  # single cards keep the XY form
    after = ref.apply_token(pos, "12:2")
    assert after.columns[0] == ("KS", "9H") and after.columns[1] == ("8C", "7D")
    single = make(
        {"1": "KS 9H 8C 7D", "3": "9S", "4": "8H", "5": "QD", "6": "JD", "7": "JH", "8": "5C", "W": "2C"},
        options="single-moves",
    )
    assert "12" in ref.legal_tokens(single)


def test_no_move_onto_own_column_and_foundation_order() -> None:
    """Foundations build up in suit from the Ace; a pile never moves onto itself."""
    pos = make({"1": "2H", "2": "AH", "L": "3H", "R": "AS", "F": "- - - -"})
    tokens = ref.legal_tokens(pos)
    assert "2f" in tokens and "rf" in tokens and "1f" not in tokens
    assert not any(t[0] == t[1] for t in tokens if len(t) >= 2 and t[1].isdigit())
    after = ref.apply_token(ref.apply_token(pos, "2f"), "1f")
    assert ref.foundation_text(after) == "- - 2H -"


def test_illegal_token_rejected() -> None:
    """apply_token refuses moves that are not in legal_tokens, and never mutates."""
    pos = ref.new_position("gate", 1)
    before = ref.position_text(pos)
    for token in ("1f", "12", "33", "x", "3f:1"):
        with pytest.raises(ValueError):
            ref.apply_token(pos, token)
    ref.apply_token(pos, "3f")
    assert ref.position_text(pos) == before


# ---------------------------------------------------------------- section 3: the fill


def test_fill_from_deeper_reserve_left_on_tie() -> None:
    """An emptied column takes the deeper reserve's top card; the left one on a tie."""
    lines = {"1": "AS", "L": "2C 3C", "R": "4C 5C"}
    after = ref.apply_token(make(lines), "1f")
    assert after.columns[0] == ("3C",) and after.left == ("2C",)
    lines = {"1": "AS", "L": "2C", "R": "4C 5C"}
    after = ref.apply_token(make(lines), "1f")
    assert after.columns[0] == ("5C",) and after.right == ("4C",)
    lines = {"1": "AS", "L": "2C 3C 6C", "R": "4C 5C"}
    after = ref.apply_token(make(lines), "1f")
    assert after.columns[0] == ("6C",)


def test_fill_by_column_move() -> None:
    """A column emptied by a move onto another column is filled too."""
    pos = make({"1": "7D", "2": "8S", "R": "KC"})
    after = ref.apply_token(pos, "12")
    assert after.columns[0] == ("KC",) and after.columns[1] == ("8S", "7D")
    assert after.right == ()


def test_fill_from_waste_when_reserves_empty() -> None:
    """Both reserves empty: the top waste card fills the column (even with stock-fill)."""
    for options in ("", "stock-fill"):
        pos = make({"1": "AS", "W": "2C 3C"}, options=options)
        after = ref.apply_token(pos, "1f")
        assert after.columns[0] == ("3C",) and after.waste == ("2C",)
        assert after.stock == pos.stock


def test_free_space_when_waste_empty() -> None:
    """Reserves and waste empty: the column stays a free space (stock is not used)."""
    pos = make({"1": "AS", "2": "9D"})
    after = ref.apply_token(pos, "1f")
    assert after.columns[0] == () and after.stock == pos.stock
    assert ref.position_text(after).splitlines()[4] == "1:"
    # drawing does not fill the free space
    drawn = ref.apply_token(after, "d")
    assert drawn.columns[0] == () and drawn.waste == pos.stock[:1]
    # ...but the waste card may be moved into it
    assert "w1" in ref.legal_tokens(drawn)


def test_stock_fill_takes_next_stock_card() -> None:
    """Option stock-fill: with reserves and waste empty, the next stock card fills."""
    pos = make({"1": "AS", "2": "9D"}, options="stock-fill")
    after = ref.apply_token(pos, "1f")
    assert after.columns[0] == pos.stock[:1] and after.stock == pos.stock[1:]
    assert after.waste == ()


def test_stock_fill_with_stock_empty_leaves_free_space() -> None:
    """Option stock-fill with the stock out too: a free space after all."""
    placed = [c for c in ref.full_deck() if c not in ("AS", "9D")]
    # columns hold AS and 9D, the other 50 cards lie in column 3 (not a run, irrelevant)
    pos = make({"1": "AS", "2": "9D", "3": " ".join(placed), "S": ""}, options="stock-fill")
    after = ref.apply_token(pos, "1f")
    assert after.columns[0] == ()


def test_text_round_trip_and_rejects_bad_positions() -> None:
    """parse_position_text reads back position_text, and refuses a wrong card set."""
    pos = ref.new_position("gate", 7, ("single-moves",))
    assert ref.parse_position_text(ref.position_text(pos)) == pos
    text = ref.position_text(pos)
    with pytest.raises(ValueError):
        ref.parse_position_text(text.replace("W:", "W: " + pos.stock[0]))
    with pytest.raises(ValueError):
        ref.parse_position_text(text.replace("S: " + pos.stock[0] + " ", "S: "))


# ---------------------------------------------------------------- random playouts


def playout(pos: ref.Position, rng: random.Random, moves: int) -> list[ref.Position]:
    """A random walk through the legal moves; the positions visited."""
    visited = [pos]
    for _ in range(moves):
        tokens = sorted(ref.legal_tokens(pos))
        if not tokens:
            break
        pos = ref.apply_token(pos, rng.choice(tokens))
        visited.append(pos)
    return visited


@pytest.mark.parametrize(
    "variant,options",
    [
        ("gate", ()),
        ("little-gate", ()),
        ("gate", ("single-moves",)),
        ("gate", ("stock-fill",)),
        ("little-gate", ("single-moves", "stock-fill")),
    ],
)
def test_conservation_along_playouts(variant: str, options: tuple[str, ...]) -> None:
    """Every position reached holds the 52 cards exactly once; text round-trips."""
    for deal in range(1, 9):
        rng = random.Random(deal)
        previous = None
        for pos in playout(ref.new_position(variant, deal, options), rng, 150):
            assert sorted(ref.all_cards(pos)) == sorted(ref.full_deck())
            assert ref.parse_position_text(ref.position_text(pos)) == pos
            if previous is not None:
                assert ref.score(pos) >= ref.score(previous)
                assert len(pos.left) + len(pos.right) <= len(previous.left) + len(previous.right)
            # reachable columns are always one properly built run
            for column in pos.columns:
                assert ref.top_run_length(column) == len(column)
            previous = pos


def test_build_pairs_table() -> None:
    """The speed-up table of builds: each card from 2 up takes two cards, 96 pairs in all."""
    assert len(ref.BUILD_PAIRS) == 12 * 4 * 2
    assert ("8D", "7C") in ref.BUILD_PAIRS and ("8D", "7H") not in ref.BUILD_PAIRS
    assert ("AC", "KD") not in ref.BUILD_PAIRS  # no wrap
