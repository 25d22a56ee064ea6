"""Differential tests: the Archway engine must agree with the independent reference model.

``archway_reference.py`` is a naive model written from the rules text; both are driven
through the same seeded random playouts and perft trees, and must agree at every step on the
position text, the set of canonical legal moves, the score and the end of the game; undo must
give back the earlier positions exactly. Only the public API is used.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from gatebot.rules import Game, Move
from tests.rules.runs import whole_file_ran_here

try:  # tests/ may or may not become a package; support both layouts
    from . import archway_reference as ref
except ImportError:
    import archway_reference as ref  # type: ignore[no-redef]

Policy = Callable[[ref.Position, list[str], random.Random], str]

#: What the playouts reached, checked at the end so coverage cannot silently vanish.
COVERAGE: dict[str, int] = {
    "steps": 0, "to a space": 0, "from a space": 0, "arch to a space": 0, "reversing up": 0,
    "reversing down": 0, "back to the arch": 0, "won": 0, "lost": 0, "both foundations fit": 0,
}

OPTION_SETS: list[tuple[str, ...]] = [(), ("kit",)]


def assert_agree(game: Game, pos: ref.Position, where: str) -> None:
    expected = ref.position_text(pos)
    assert game.to_text() == expected, f"{where}: text differs\nexpected:\n{expected}\nactual:\n{game.to_text()}"
    assert game.to_text(hide_stock=True) == expected, f"{where}: nothing is hidden in Archway"
    legal = game.legal_moves()
    moves = [str(m) for m in legal]
    tokens = ref.legal_tokens(pos)
    assert len(moves) == len(set(moves)), f"{where}: duplicate legal moves {moves}"
    assert set(moves) == tokens, (
        f"{where}: legal moves differ in\n{expected}\n  engine only: {sorted(set(moves) - tokens)}\n"
        f"  reference only: {sorted(tokens - set(moves))}"
    )
    ups = [m for m in moves if m[-1] in "ak"]
    assert moves[: len(ups)] == ups, f"{where}: foundation moves come first: {moves}"
    assert all(Move.from_text(str(m)) == m for m in legal), f"{where}: tokens round-trip"
    assert game.score == ref.score(pos)
    assert game.is_won == ref.is_won(pos)
    assert game.is_over == (not tokens), f"{where}: is_over"


def note(before: ref.Position, token: str, after: ref.Position) -> None:
    COVERAGE["steps"] += 1
    target, source = token[-1], token[:-1]
    COVERAGE["to a space"] += target.isdigit()
    COVERAGE["arch to a space"] += target.isdigit() and not source.isdigit()
    COVERAGE["from a space"] += source.isdigit() and len(before.columns[int(source) - 1]) == 1
    COVERAGE["reversing up"] += source.startswith("f") and target == "a"
    COVERAGE["reversing down"] += source.startswith("f") and target == "k"
    COVERAGE["back to the arch"] += target == "p"
    COVERAGE["both foundations fit"] += any(t[:-1] + "k" in ref.legal_tokens(after) and t.endswith("a")
                                            and not t.startswith("f") for t in ref.legal_tokens(after))
    if ref.is_won(after):
        COVERAGE["won"] += 1
    elif not ref.legal_tokens(after):
        COVERAGE["lost"] += 1


def uniform(pos: ref.Position, tokens: list[str], rng: random.Random) -> str:
    return rng.choice(tokens)


def eager(pos: ref.Position, tokens: list[str], rng: random.Random) -> str:
    """Mostly play to the foundations, from the columns first, so spaces appear and suits meet."""
    up = [t for t in tokens if t[-1] in "ak" and not t.startswith("f")]
    from_columns = [t for t in up if t[0].isdigit()]
    if from_columns and rng.random() < 0.8:
        return rng.choice(from_columns)
    if up and rng.random() < 0.9:
        return rng.choice(up)
    return rng.choice(tokens)


def playout(game: Game, pos: ref.Position, seed: int, steps: int, policy: Policy, label: str) -> None:
    """Walk both implementations through one random game, checking agreement at each step.

    Every few steps the text is round-tripped through ``Game.from_text``, and now and then
    one to four moves are undone and compared.
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
    while played:  # undo all the way back to the start
        assert str(game.undo()) == played.pop()
        history.pop()
    assert_agree(game, history[0], f"{label} seed {seed} undone to the start")


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: " ".join(o) or "default")
def test_uniform_playouts(options: tuple[str, ...]) -> None:
    for deal in range(1, 16):
        game = Game.new("archway", deal=deal, options=options)
        playout(game, ref.new_position(deal, options), deal, 60, uniform, f"archway {options} deal {deal}")


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: " ".join(o) or "default")
def test_eager_playouts(options: tuple[str, ...]) -> None:
    """Playouts that mostly play up, to clear columns, make spaces, meet suits and end games."""
    for deal in range(31, 46):
        game = Game.new("archway", deal=deal, options=options)
        playout(game, ref.new_position(deal, options), 500 + deal, 150, eager, f"archway {options} deal {deal}")


def synthetic_position(rng: random.Random) -> ref.Position:
    """A random position: foundations apart, met or passed, few cards left, spaces likely."""
    options = rng.choice(OPTION_SETS)
    aces, kings = [], []
    out: list[str] = []
    for suit in ref.SUITS:
        shape = rng.random()
        if shape < 0.4:  # met: one copy of every rank still out
            up = rng.randint(1, 12)
            down = 13 - up
        elif shape < 0.7:  # passed each other
            up = rng.randint(7, 13)
            down = rng.randint(14 - up, 13)
        else:
            up, down = rng.randint(1, 13), rng.randint(1, 13)
        aces.append(tuple(ref.RANKS[r] + suit for r in range(up)))
        kings.append(tuple(ref.RANKS[12 - r] + suit for r in range(down)))
        for r in range(13):
            copies = 2 - (r < up) - (r >= 13 - down)
            out += [ref.RANKS[r] + suit] * copies
    rng.shuffle(out)
    columns: list[list[str]] = [[] for _ in range(ref.COLUMNS)]
    arch: list[str] = []
    in_arch = rng.random()
    for card in out:
        if rng.random() < in_arch:
            arch.append(card)
        else:
            columns[rng.randrange(ref.COLUMNS)].append(card)
    return ref.Position(
        options, tuple(aces), tuple(kings), tuple(sorted(arch, key=ref.card_order)),
        tuple(tuple(column) for column in columns),
    )


def test_synthetic_positions() -> None:
    """Positions with met and passed foundations and spaces, read from text, then played on."""
    for seed in range(50):
        pos = synthetic_position(random.Random(seed))
        text = ref.position_text(pos)
        game = Game.from_text(text)
        assert game.to_text() == text
        playout(game, pos, seed, 60, uniform if seed % 2 else eager, f"synthetic #{seed}")


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


#: Leaves of the move tree at depths 1, 2, ..., pinned: a change here is a change of the rules.
PERFT: dict[tuple[int, tuple[str, ...]], list[int]] = {
    (1, ()): [8, 64, 510, 4036],
    (1, ("kit",)): [12, 145, 1759],
    (617, ()): [7, 47, 306, 1950],
}


@pytest.mark.parametrize(("deal", "options"), list(PERFT), ids=str)
def test_perft_from_deals(deal: int, options: tuple[str, ...]) -> None:
    """Equal leaf counts of the engine's and the reference's move trees, and the start unchanged."""
    game = Game.new("archway", deal=deal, options=options)
    pos = ref.new_position(deal, options)
    depths = range(1, len(PERFT[deal, options]) + 1)
    counts = [perft_engine(game, d) for d in depths]
    assert counts == [perft_ref(pos, d) for d in depths]
    assert counts == PERFT[deal, options]
    assert_agree(game, pos, "after perft")


def test_perft_from_a_position_with_spaces_and_met_suits() -> None:
    """A late position where spaces, reversing and the kit returns all branch the tree."""
    pos = synthetic_position(random.Random(7))
    game = Game.from_text(ref.position_text(pos))
    counts = [perft_engine(game, d) for d in range(1, 4)]
    assert counts == [perft_ref(pos, d) for d in range(1, 4)]
    assert_agree(game, pos, "after perft")


def test_coverage(request: pytest.FixtureRequest) -> None:
    """The playouts above reached every rare situation; runs last, checks nothing alone."""
    if not whole_file_ran_here(request):
        pytest.skip("not every playout of this file ran in this process (pytest -n spreads them): run it alone")
    if COVERAGE["steps"] < 3000:
        pytest.skip("run with the playout tests to check their coverage")
    minimum = {
        "to a space": 50, "from a space": 10, "arch to a space": 20, "reversing up": 10, "reversing down": 10,
        "back to the arch": 20, "won": 1, "lost": 5, "both foundations fit": 5,
    }
    for situation, count in minimum.items():
        assert COVERAGE[situation] >= count, f"too few {situation!r}: {COVERAGE}"
