"""Differential tests: the Canfield engine must agree with the independent reference model.

``canfield_reference.py`` is a naive model written from the rules text; both are driven
through the same seeded random playouts and perft trees, and must agree at every step on the
position text (hidden and not), the set of canonical legal moves, the score and the end of
the game; undo must give back the earlier positions exactly. Only the public API is used.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from gatebot.rules import Game
from tests.rules.runs import whole_file_ran_here

try:  # tests/ may or may not become a package; support both layouts
    from . import canfield_reference as ref
except ImportError:
    import canfield_reference as ref  # type: ignore[no-redef]

Policy = Callable[[ref.Position, list[str], random.Random], str]

#: What the playouts reached, checked at the end so coverage cannot silently vanish.
COVERAGE: dict[str, int] = {
    "steps": 0, "turn over": 0, "fill": 0, "space": 0, "waste to space": 0, "idle": 0,
    "ended idle": 0, "ended out of passes": 0, "whole pile": 0, "part of a pile": 0, "won": 0,
}

OPTION_SETS: list[tuple[str, ...]] = [
    (),
    ("partial-moves",),
    ("draw-one",),
    ("draw-one", "passes-1"),
    ("draw-one", "passes-2", "partial-moves"),
]


def assert_agree(game: Game, pos: ref.Position, where: str) -> None:
    expected = ref.position_text(pos)
    assert game.to_text() == expected, f"{where}: text differs\nexpected:\n{expected}\nactual:\n{game.to_text()}"
    moves = [str(m) for m in game.legal_moves()]
    tokens = ref.legal_tokens(pos)
    assert len(moves) == len(set(moves)), f"{where}: duplicate legal moves {moves}"
    assert set(moves) == tokens, (
        f"{where}: legal moves differ in\n{expected}\n  engine only: {sorted(set(moves) - tokens)}\n"
        f"  reference only: {sorted(tokens - set(moves))}"
    )
    ups = [m for m in moves if m.endswith("f")]
    assert moves[: len(ups)] == ups, f"{where}: foundation moves come first: {moves}"
    assert game.score == ref.score(pos)
    assert game.is_won == ref.is_won(pos)
    assert game.is_over == (not tokens), f"{where}: is_over"


def note(before: ref.Position, token: str, after: ref.Position) -> None:
    COVERAGE["steps"] += 1
    COVERAGE["turn over"] += token == "d" and not before.stock
    COVERAGE["fill"] += len(after.reserve) < len(before.reserve) and not token.startswith("r")
    COVERAGE["space"] += any(not pile for pile in after.piles)
    COVERAGE["waste to space"] += token[0] == "w" and token[1:2].isdigit() and not before.piles[int(token[1]) - 1]
    COVERAGE["idle"] += not after.offered
    if token[0].isdigit() and token[1].isdigit():
        target = int(token[1]) - 1
        moved = len(after.piles[target]) - len(before.piles[target])
        COVERAGE["whole pile" if moved == len(before.piles[int(token[0]) - 1]) else "part of a pile"] += 1
    if not ref.legal_tokens(after):
        if ref.is_won(after):
            COVERAGE["won"] += 1
        elif not after.offered and after.waste and not after.stock:
            COVERAGE["ended idle"] += 1
        elif after.waste and not after.stock:
            COVERAGE["ended out of passes"] += 1


def uniform(pos: ref.Position, tokens: list[str], rng: random.Random) -> str:
    return rng.choice(tokens)


def eager(pos: ref.Position, tokens: list[str], rng: random.Random) -> str:
    """Mostly play cards (to the foundations first), so reserves run out and spaces appear."""
    up = [t for t in tokens if t.endswith("f")]
    if up and rng.random() < 0.9:
        return rng.choice(up)
    cards = [t for t in tokens if t != "d"]
    if cards and rng.random() < 0.8:
        reserve = [t for t in cards if t.startswith("r")]
        return rng.choice(reserve if reserve and rng.random() < 0.7 else cards)
    return rng.choice(tokens)


def playout(game: Game, pos: ref.Position, seed: int, steps: int, policy: Policy, label: str) -> None:
    """Walk both implementations through one random game, checking agreement at each step.

    Every few steps the text is round-tripped through ``Game.from_text`` (with the stock
    listed and hidden), and now and then one to four moves are undone and compared.
    """
    rng = random.Random(seed)
    history = [pos]
    played: list[str] = []
    for step in range(steps):
        where = f"{label} seed {seed} after {' '.join(played)}"
        assert_agree(game, pos, where)
        if step % 7 == 0:
            text = game.to_text()
            again = Game.from_text(text)
            assert again.to_text() == text, f"{where}: round trip"
            assert {str(m) for m in again.legal_moves()} == ref.legal_tokens(pos)
            hidden = game.to_text(hide_stock=True)
            assert hidden == ref.position_text(pos, hide_stock=True), f"{where}: hidden text"
            assert Game.from_text(hidden).to_text() == hidden, f"{where}: hidden round trip"
        tokens = sorted(ref.legal_tokens(pos))
        if not tokens:
            break
        if len(history) > 4 and rng.random() < 0.06:
            for _ in range(rng.randint(1, 4)):
                assert str(game.undo()) == played.pop()
                history.pop()
                pos = history[-1]
                assert_agree(game, pos, f"{label} seed {seed} undone to {' '.join(played)}")
            continue
        token = policy(pos, tokens, rng)
        assert str(game.play(token)) == token, f"{where}: play({token!r})"
        before, pos = pos, ref.apply_token(pos, token)
        note(before, token, pos)
        history.append(pos)
        played.append(token)
    assert_agree(game, pos, f"{label} seed {seed} final after {' '.join(played)}")
    while played:  # undo all the way back to the deal
        assert str(game.undo()) == played.pop()
        history.pop()
    assert_agree(game, history[0], f"{label} seed {seed} undone to the deal")


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: " ".join(o) or "default")
def test_uniform_playouts(options: tuple[str, ...]) -> None:
    for deal in range(1, 21):
        game = Game.new("canfield", deal=deal, options=options)
        playout(game, ref.new_position(deal, options), deal, 60, uniform, f"canfield {options} deal {deal}")


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: " ".join(o) or "default")
def test_eager_playouts(options: tuple[str, ...]) -> None:
    """Playouts that mostly move cards, to empty the reserve, make spaces and end games."""
    for deal in range(31, 51):
        game = Game.new("canfield", deal=deal, options=options)
        playout(game, ref.new_position(deal, options), 500 + deal, 100, eager, f"canfield {options} deal {deal}")


def synthetic_position(rng: random.Random) -> ref.Position:
    """A random reachable-looking position: built piles, maybe an empty reserve and spaces."""
    options = rng.choice(OPTION_SETS)
    base = rng.randint(1, 13)
    counts = [rng.randint(0, 6) for _ in ref.SUITS]
    up = {ref.RANKS[(base - 1 + k) % 13] + suit for suit, n in zip(ref.SUITS, counts, strict=True) for k in range(n)}
    pool = [card for card in ref.full_deck() if card not in up]
    rng.shuffle(pool)
    reserve = [pool.pop() for _ in range(rng.choice([0, 0, 1, 5]))]
    piles: list[tuple[str, ...]] = []
    for _ in range(ref.PILES):
        if not reserve and rng.random() < 0.35:
            piles.append(())
            continue
        pile = [pool.pop()]
        while rng.random() < 0.8 and (fits := [c for c in pool if ref.builds_on(pile[-1], c)]):
            card = rng.choice(fits)
            pool.remove(card)
            pile.append(card)
        piles.append(tuple(pile))
    cut = rng.randint(0, len(pool))
    limit = 3 if "draw-one" in options else 6
    limit = 1 if "passes-1" in options else 2 if "passes-2" in options else limit
    pos = ref.Position(
        options, base, tuple(reserve), (counts[0], counts[1], counts[2], counts[3]), tuple(piles),
        tuple(pool[:cut]), tuple(pool[cut:]), rng.randint(1, limit), True,
    )
    return ref.replace(pos, offered=ref.has_card_move(pos) or rng.random() < 0.5)


def test_synthetic_positions() -> None:
    """Positions with spaces, an empty or short reserve and long runs, read from text, then played on."""
    for seed in range(60):
        pos = synthetic_position(random.Random(seed))
        text = ref.position_text(pos)
        game = Game.from_text(text)
        assert game.to_text() == text
        playout(game, pos, seed, 40, uniform if seed % 2 else eager, f"synthetic #{seed}")


def perft_engine(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in [str(m) for m in game.legal_moves()]:
        game.play(move)
        total += perft_engine(game, depth - 1)
        game.undo()
    return total


def perft_ref(pos: ref.Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft_ref(ref.apply_token(pos, token), depth - 1) for token in ref.legal_tokens(pos))


#: Leaves of the move tree at depths 1 to 7, pinned: a change here is a change of the rules.
PERFT = {
    (1, ()): [3, 9, 23, 53, 111, 213, 379],
    (1, ("draw-one",)): [3, 9, 25, 72, 226, 620, 1601],
    (1, ("partial-moves",)): [3, 9, 23, 53, 111, 213, 379],
    (617, ()): [3, 7, 13, 22, 42, 86, 115],
}


@pytest.mark.parametrize(("deal", "options"), list(PERFT), ids=str)
def test_perft_from_deals(deal: int, options: tuple[str, ...]) -> None:
    """Equal leaf counts of the engine's and the reference's move trees, and the start unchanged."""
    game = Game.new("canfield", deal=deal, options=options)
    pos = ref.new_position(deal, options)
    counts = [perft_engine(game, d) for d in range(1, 8)]
    assert counts == [perft_ref(pos, d) for d in range(1, 8)]
    assert counts == PERFT[deal, options]
    assert_agree(game, pos, "after perft")


def test_coverage(request: pytest.FixtureRequest) -> None:
    """The playouts above reached every rare situation; runs last, checks nothing alone."""
    if not whole_file_ran_here(request):
        pytest.skip("not every playout of this file ran in this process (pytest -n spreads them): run it alone")
    if COVERAGE["steps"] < 3000:
        pytest.skip("run with the playout tests to check their coverage")
    minimum = {
        "turn over": 100, "fill": 100, "space": 50, "waste to space": 5, "idle": 50, "ended idle": 5,
        "ended out of passes": 5, "whole pile": 100, "part of a pile": 20,
    }
    for situation, count in minimum.items():
        assert COVERAGE[situation] >= count, f"too few {situation!r}: {COVERAGE}"
