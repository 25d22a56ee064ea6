"""Differential tests: the rules engine must agree with the independent reference model.

``reference.py`` is a naive model written from docs/rules.md alone; here both are driven through
the same seeded random playouts, perft trees and hand-built positions, and must agree on
the position text, the set of canonical legal moves, the score and the end of the game at
every step. Only the engine's public API (docs/library.md#the-rules-library) is used.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from gatebot.rules import Game
from tests.rules.runs import whole_file_ran_here

try:  # tests/ may or may not become a package; support both layouts
    from . import reference as ref
except ImportError:
    import reference as ref  # type: ignore[no-redef]

Policy = Callable[[ref.Position, list[str], random.Random], str]

# Counters of what the playouts covered, checked at the end so coverage cannot silently vanish.
COVERAGE: dict[str, int] = {"free space": 0, "colon token": 0, "waste fill": 0, "stock fill": 0, "steps": 0}


def describe(pos: ref.Position) -> str:
    """The reference position text, indented, for assertion messages."""
    return "\n    " + ref.position_text(pos).replace("\n", "\n    ")


def assert_agree(game: Game, pos: ref.Position, where: str) -> None:
    """Engine and reference agree on text, legal moves, score and game end."""
    expected_text = ref.position_text(pos)
    actual_text = game.to_text()
    assert actual_text == expected_text, (
        f"{where}: position text differs\nexpected:{describe(pos)}\n"
        f"actual:\n    " + actual_text.replace("\n", "\n    ")
    )
    moves = [str(m) for m in game.legal_moves()]
    expected = ref.legal_tokens(pos)
    assert len(moves) == len(set(moves)), f"{where}: duplicate legal moves {sorted(moves)}"
    assert set(moves) == expected, (
        f"{where}: legal moves differ in{describe(pos)}\n"
        f"  engine only: {sorted(set(moves) - expected)}\n"
        f"  reference only: {sorted(expected - set(moves))}"
    )
    assert game.score == ref.score(pos), f"{where}: score {game.score} != {ref.score(pos)}"
    assert game.is_won == ref.is_won(pos), f"{where}: is_won differs"
    assert game.is_over == (not expected), f"{where}: is_over differs"


def note_coverage(before: ref.Position, token: str, after: ref.Position) -> None:
    """Count the rare situations the playouts reach (free spaces, XY:n, non-reserve fills)."""
    COVERAGE["steps"] += 1
    if any(not column for column in after.columns):
        COVERAGE["free space"] += 1
    if any(":" in t for t in ref.legal_tokens(after)):
        COVERAGE["colon token"] += 1
    if token[0].isdigit() and not before.left and not before.right:
        COVERAGE["waste fill"] += len(after.waste) < len(before.waste)
        COVERAGE["stock fill"] += len(after.stock) < len(before.stock)


def uniform(pos: ref.Position, tokens: list[str], rng: random.Random) -> str:
    """Pick any legal move with equal chance."""
    return rng.choice(tokens)


def drains(pos: ref.Position, token: str) -> bool:
    """True when a move takes a card out of the reserves or waste, or empties a column."""
    after = ref.apply_token(pos, token)
    held = len(pos.left) + len(pos.right) + len(pos.waste)
    return len(after.left) + len(after.right) + len(after.waste) < held or any(
        not column for column in after.columns
    )


def draining(pos: ref.Position, tokens: list[str], rng: random.Random) -> str:
    """Mostly play to the foundations and drain reserves and waste, to reach free spaces."""
    home = [t for t in tokens if t.endswith("f")]
    if home and rng.random() < 0.9:
        return rng.choice(home)
    drainers = [t for t in tokens if t != "d" and drains(pos, t)]
    if drainers and rng.random() < 0.7:
        return rng.choice(drainers)
    return rng.choice(tokens)


def playout(
    game: Game, pos: ref.Position, seed: int, moves: int, policy: Policy = uniform, label: str = ""
) -> None:
    """Walk both implementations through one random game, checking agreement at each step.

    Every tenth step the text is also round-tripped through ``Game.from_text``, and now
    and then one to three moves are undone (and compared) before play goes on.
    """
    rng = random.Random(seed)
    history = [pos]
    played: list[str] = []
    for step in range(moves):
        where = f"{label} seed {seed} after {played}"
        assert_agree(game, pos, where)
        if step % 10 == 0:
            text = ref.position_text(pos)
            assert Game.from_text(text).to_text() == text, f"{where}: from_text round trip"
        tokens = sorted(ref.legal_tokens(pos))
        if not tokens:
            break
        if len(history) > 3 and rng.random() < 0.08:
            for _ in range(rng.randint(1, 3)):
                game.undo()
                history.pop()
                played.pop()
                pos = history[-1]
                assert_agree(game, pos, f"{label} seed {seed} undone to {played}")
            continue
        token = policy(pos, tokens, rng)
        move = game.play(token)
        assert str(move) == token, f"{where}: play({token!r}) returned {str(move)!r}"
        before, pos = pos, ref.apply_token(pos, token)
        note_coverage(before, token, pos)
        history.append(pos)
        played.append(token)
    assert_agree(game, pos, f"{label} seed {seed} final after {played}")


# ---------------------------------------------------------------- playouts from deals

SWEEPS = [
    # (variant, options, first deal, last deal, moves)
    ("gate", (), 1, 300, 75),
    ("little-gate", (), 1, 60, 100),
    ("gate", ("single-moves",), 1, 40, 100),
    ("little-gate", ("single-moves",), 1, 40, 100),
    ("gate", ("stock-fill",), 1, 40, 100),
    ("little-gate", ("stock-fill",), 1, 40, 100),
    ("gate", ("single-moves", "stock-fill"), 1, 15, 100),
    ("little-gate", ("single-moves", "stock-fill"), 1, 15, 100),
]


def sweep_chunks() -> list[tuple[str, tuple[str, ...], range, int]]:
    """Split the sweeps into chunks of 50 deals so failures point at a small range."""
    chunks = []
    for variant, options, first, last, moves in SWEEPS:
        for start in range(first, last + 1, 50):
            chunks.append((variant, options, range(start, min(start + 50, last + 1)), moves))
    return chunks


@pytest.mark.parametrize("variant,options,deals,moves", sweep_chunks(), ids=lambda v: str(v).replace(" ", ""))
def test_uniform_playouts(variant: str, options: tuple[str, ...], deals: range, moves: int) -> None:
    """Seeded uniformly random playouts from many deals."""
    for deal in deals:
        game = Game.new(variant, deal=deal, options=options)
        pos = ref.new_position(variant, deal, options)
        playout(game, pos, deal, moves, uniform, f"{variant}{options} deal {deal}")


@pytest.mark.parametrize(
    "variant,options",
    [
        ("gate", ()),
        ("little-gate", ()),
        ("gate", ("stock-fill",)),
        ("little-gate", ("stock-fill",)),
        ("gate", ("single-moves",)),
    ],
)
def test_draining_playouts(variant: str, options: tuple[str, ...]) -> None:
    """Playouts biased to empty reserves and waste, so free spaces and fills happen."""
    for deal in range(1, 16):
        game = Game.new(variant, deal=deal, options=options)
        pos = ref.new_position(variant, deal, options)
        playout(game, pos, 1000 + deal, 150, draining, f"{variant}{options} deal {deal}")


# ---------------------------------------------------------------- hand-built positions


def synthetic_position(rng: random.Random, variant: str, options: tuple[str, ...]) -> ref.Position:
    """A random position with empty reserves and 1-3 free spaces, columns topped by runs.

    It respects what play can reach: free spaces exist only once both reserves are empty,
    and with stock-fill only once the stock and the waste are empty too.
    """
    n_columns = ref.COLUMN_COUNTS[variant]
    heights = [rng.randint(0, 5) for _ in ref.SUITS]
    pool = [
        card for card in ref.full_deck() if ref.rank_of(card) > heights[ref.SUITS.index(ref.suit_of(card))]
    ]
    rng.shuffle(pool)
    free = set(rng.sample(range(n_columns), rng.randint(1, min(3, n_columns - 1))))
    columns: list[list[str]] = []
    for index in range(n_columns):
        column: list[str] = []
        if index not in free:
            column.append(pool.pop())
            while rng.random() < 0.85:
                fits = [card for card in pool if ref.builds_on(column[-1], card)]
                if not fits:
                    break
                card = rng.choice(fits)
                pool.remove(card)
                column.append(card)
        columns.append(column)
    waste: list[str] = []
    stock: list[str] = []
    if "stock-fill" in options:
        for card in pool:  # nowhere else to go: beneath the runs of random columns
            column = columns[rng.choice([i for i in range(n_columns) if i not in free])]
            column.insert(0, card)
    else:
        cut = rng.randint(0, len(pool))
        waste, stock = pool[:cut], pool[cut:]
    return ref.Position(
        variant,
        ref.normalise_options(options),
        (),
        (),
        (heights[0], heights[1], heights[2], heights[3]),
        tuple(tuple(column) for column in columns),
        tuple(waste),
        tuple(stock),
    )


@pytest.mark.parametrize(
    "variant,options",
    [
        ("gate", ()),
        ("little-gate", ()),
        ("gate", ("stock-fill",)),
        ("little-gate", ("single-moves",)),
        ("gate", ("single-moves", "stock-fill")),
    ],
)
def test_synthetic_free_space_positions(variant: str, options: tuple[str, ...]) -> None:
    """Positions with free spaces and long runs, loaded by text, then played on."""
    for seed in range(25):
        pos = synthetic_position(random.Random(seed), variant, options)
        text = ref.position_text(pos)
        game = Game.from_text(text)
        assert game.to_text() == text
        playout(game, pos, seed, 40, uniform, f"synthetic {variant}{options} #{seed}")


def position(lines: dict[str, str], variant: str = "gate", options: str = "") -> ref.Position:
    """A position from a few named lines; unnamed piles are empty, the rest is the stock."""
    labels = ["L", "R", "F"] + [str(i + 1) for i in range(ref.COLUMN_COUNTS[variant])]
    body = {label: lines.get(label, "") for label in [*labels, "W", "S"]}
    body["F"] = body["F"] or "- - - -"
    if "S" not in lines:
        used = {
            ref.parse_card(word) for label in [*labels, "W"] if label != "F" for word in body[label].split()
        }
        for word, suit in zip(body["F"].split(), ref.SUITS, strict=True):
            if word != "-":
                used.update(rank + suit for rank in ref.RANKS[: ref.rank_of(word)])
        body["S"] = " ".join(card for card in ref.full_deck() if card not in used)
    return ref.parse_position_text(
        "\n".join(
            [f"{variant} {options}".strip()] + [f"{label}: {text}".rstrip() for label, text in body.items()]
        )
    )


FILL_CASES = {
    "left deeper": ({"1": "AS", "2": "9D", "L": "2C 3C 6C", "R": "4C 5C"}, "", "1f"),
    "tie takes left": ({"1": "AS", "2": "9D", "L": "2C 3C", "R": "4C 5C"}, "", "1f"),
    "right deeper": ({"1": "AS", "2": "9D", "L": "2C", "R": "4C 5C"}, "", "1f"),
    "by column move": ({"1": "7D", "2": "8S", "R": "KC"}, "", "12"),
    "waste": ({"1": "AS", "2": "9D", "W": "2C 3C"}, "", "1f"),
    "waste beats stock-fill": ({"1": "AS", "2": "9D", "W": "2C 3C"}, "stock-fill", "1f"),
    "free space": ({"1": "AS", "2": "9D"}, "", "1f"),
    "stock-fill": ({"1": "AS", "2": "9D"}, "stock-fill", "1f"),
    "whole run to free space, waste fills": ({"1": "KS QH JC", "2": "", "3": "9D", "W": "2C"}, "", "12:3"),
    "whole run to free space, stays free": ({"1": "KS QH JC", "3": "9D"}, "", "12:3"),
    "part run to free space": ({"1": "KS QH JC", "3": "9D"}, "", "12:2"),
    "waste to free space": ({"1": "KS QH JC", "3": "9D", "W": "2C"}, "", "w2"),
}


@pytest.mark.parametrize("name", sorted(FILL_CASES))
def test_fill_cases(name: str) -> None:
    """Each fill rule of section 3, and moves onto free spaces, on a hand-built position."""
    lines, options, token = FILL_CASES[name]
    pos = position(lines, options=options)
    game = Game.from_text(ref.position_text(pos))
    assert_agree(game, pos, name)
    assert token in ref.legal_tokens(pos)
    assert str(game.play(token)) == token
    after = ref.apply_token(pos, token)
    assert_agree(game, after, f"{name} after {token}")
    game.undo()
    assert_agree(game, pos, f"{name} undone")
    if after.stock:  # drawing never fills a free space
        game.play(token)
        game.play("d")
        assert_agree(game, ref.apply_token(after, "d"), f"{name} after {token} d")


@pytest.mark.parametrize("variant", ["gate", "little-gate"])
def test_winning_move(variant: str) -> None:
    """The last card home wins and ends the game; its column is left a free space."""
    pos = position({"F": "QC KD KH KS", "2": "KC"}, variant, "stock-fill")
    game = Game.from_text(ref.position_text(pos))
    assert_agree(game, pos, "one card from the win")
    game.play("2f")
    won = ref.apply_token(pos, "2f")
    assert ref.is_won(won) and not ref.legal_tokens(won)
    assert_agree(game, won, "won")


# ---------------------------------------------------------------- perft


def ref_perft(pos: ref.Position, depth: int) -> int:
    """Leaves of the reference move tree to ``depth``."""
    if depth == 0:
        return 1
    return sum(ref_perft(ref.apply_token(pos, t), depth - 1) for t in ref.legal_tokens(pos))


def engine_perft(game: Game, depth: int) -> int:
    """Leaves of the engine move tree to ``depth``, by play and undo."""
    if depth == 0:
        return 1
    total = 0
    for move in [str(m) for m in game.legal_moves()]:
        game.play(move)
        total += engine_perft(game, depth - 1)
        game.undo()
    return total


@pytest.mark.parametrize(
    "variant,options,deal",
    [
        ("gate", (), 1),
        ("gate", (), 2),
        ("gate", (), 617),
        ("little-gate", (), 3),
        ("little-gate", ("single-moves",), 4),
        ("gate", ("stock-fill",), 5),
    ],
)
def test_perft_from_deals(variant: str, options: tuple[str, ...], deal: int) -> None:
    """Equal leaf counts at depths 1-4 from the deal; the start is unchanged afterwards."""
    game = Game.new(variant, deal=deal, options=options)
    pos = ref.new_position(variant, deal, options)
    engine = [engine_perft(game, depth) for depth in range(1, 5)]
    assert engine == [ref_perft(pos, depth) for depth in range(1, 5)]
    assert_agree(game, pos, "after perft")


@pytest.mark.parametrize(
    "variant,seed",
    [
        ("gate", 100),
        ("gate", 103),
        ("gate", 107),
        ("little-gate", 101),
        ("little-gate", 104),
        ("little-gate", 106),
    ],
)
def test_perft_free_spaces(variant: str, seed: int) -> None:
    """Equal leaf counts at depths 1-3 from positions with free spaces and XY:n moves."""
    pos = synthetic_position(random.Random(seed), variant, ())
    assert any(":" in token for token in ref.legal_tokens(pos))
    game = Game.from_text(ref.position_text(pos))
    engine = [engine_perft(game, depth) for depth in range(1, 4)]
    assert engine == [ref_perft(pos, depth) for depth in range(1, 4)], ref.position_text(pos)


def test_coverage(request: pytest.FixtureRequest) -> None:
    """The playouts above really reached free spaces, XY:n moves and the rarer fills.

    Runs last in this file (pytest keeps definition order); alone it checks nothing.
    """
    if not whole_file_ran_here(request):
        pytest.skip("not every playout of this file ran in this process (pytest -n spreads them): run it alone")
    if COVERAGE["steps"] < 1000:
        pytest.skip("run with the playout tests to check their coverage")
    minimum = {"free space": 100, "colon token": 100, "waste fill": 20, "stock fill": 5}
    for situation, count in minimum.items():
        assert COVERAGE[situation] >= count, f"too few {situation} steps: {COVERAGE}"
