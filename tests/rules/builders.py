"""Build Gate (and Canfield, Archway) positions for tests from just the piles a test cares about.

Every card a test does not place goes to the end of the stock (or, with ``rest="waste"``,
under the waste), so the position always holds the 52 cards exactly once, as the position
text requires (in Archway each card twice: unplaced copies go to the arch or under a column).
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import strategies as st

from gatebot.rules import MAX_DEAL, Game

RANKS = "A23456789TJQK"
ALL_CARDS = [rank + suit for rank in RANKS for suit in "CDHS"]


def position(
    *,
    variant: str = "gate",
    left: str = "",
    right: str = "",
    foundations: str = "- - - -",
    columns: dict[int, str] | None = None,
    waste: str = "",
    stock: str = "",
    rest: str = "stock",
    hidden_stock: bool = False,
) -> Game:
    """A game in the given position; ``stock`` is the first cards to draw, unnamed cards follow."""
    count = 4 if variant.startswith("little-gate") else 8
    columns = columns or {}
    used: set[str] = set()
    for pile in (left, right, waste, stock, *columns.values()):
        used.update(pile.split())
    for suit, top in zip("CDHS", foundations.split(), strict=True):
        if top != "-":
            used.update(rank + suit for rank in RANKS[: RANKS.index(top[0]) + 1])
    leftover = " ".join(card for card in ALL_CARDS if card not in used)
    if rest == "stock":
        stock = f"{stock} {leftover}"
    else:
        waste = f"{leftover} {waste}"
    lines = [
        variant,
        f"L: {left}".rstrip(),
        f"R: {right}".rstrip(),
        f"F: {foundations}",
        *(f"{i}: {columns.get(i, '')}".rstrip() for i in range(1, count + 1)),
        f"W: {waste}".rstrip(),
    ]
    if hidden_stock:
        lines.append(f"S: ?{len(stock.split())}" if stock.split() else "S:")
    else:
        lines.append(f"S: {stock}".rstrip())
    return Game.from_text("\n".join(lines))


#: Every variant with every option set worth telling apart, for tests that cover the family.
EVERY_VARIANT: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("gate", ()),
    ("gate", ("single-moves",)),
    ("gate", ("stock-fill",)),
    ("little-gate", ()),
    ("canfield", ()),
    ("canfield", ("draw-one",)),
    ("canfield", ("draw-one", "passes-1", "partial-moves")),
    ("archway", ()),
    ("archway", ("kit",)),
)


def midgame(variant: str, options: tuple[str, ...], deal: int, steps: int, seed: int) -> Game:
    """Deal ``deal`` after up to ``steps`` random legal moves (fewer if the game ends), chosen by ``seed``."""
    game = Game.new(variant, deal=deal, options=options)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(rng.choice(legal))
    return game


@st.composite
def games_in_play(draw: st.DrawFn, steps: int = 60) -> Game:
    """Any variant with any options, dealt at random and played up to ``steps`` random moves in."""
    variant, options = draw(st.sampled_from(EVERY_VARIANT), label="variant")
    deal = draw(st.integers(1, MAX_DEAL), label="deal")
    played = draw(st.integers(0, steps), label="steps")
    return midgame(variant, options, deal, played, draw(st.integers(0, 2**16), label="seed"))


def moves(game: Game) -> set[str]:
    return {str(move) for move in game.legal_moves()}


def canfield(
    *,
    options: str = "",
    reserve: str = "",
    foundations: str = "- - - -",
    base: str = "A",
    piles: dict[int, str] | None = None,
    waste: str = "",
    stock: str = "",
    rest: str = "stock",
    passes: str = "1",
    hidden_stock: bool = False,
) -> Game:
    """A Canfield game in the given position (docs/canfield.md); unnamed cards follow ``stock``.

    ``foundations`` gives each suit's top card, read from the base rank ``base``; ``passes``
    is the ``P:`` line (``"2"``, ``"1 idle"``); with ``rest="waste"`` the unnamed cards go
    under the waste instead.
    """
    piles = piles or {}
    used: set[str] = set()
    for pile in (reserve, waste, stock, *piles.values()):
        used.update(pile.split())
    start = RANKS.index(base)
    for suit, top in zip("CDHS", foundations.split(), strict=True):
        if top != "-":
            count = (RANKS.index(top[0]) - start) % 13 + 1
            used.update(RANKS[(start + k) % 13] + suit for k in range(count))
    leftover = " ".join(card for card in ALL_CARDS if card not in used)
    if rest == "stock":
        stock = f"{stock} {leftover}"
    else:
        waste = f"{leftover} {waste}"
    lines = [
        f"canfield {options}".rstrip(),
        f"R: {reserve}".rstrip(),
        f"F: {foundations}",
        f"B: {base}",
        *(f"{i}: {piles.get(i, '')}".rstrip() for i in range(1, 5)),
        f"W: {waste}".rstrip(),
        (f"S: ?{len(stock.split())}" if hidden_stock and stock.split() else f"S: {stock}".rstrip()),
        f"P: {passes}",
    ]
    return Game.from_text("\n".join(lines))


def archway(
    *,
    options: str = "",
    aces: str = "AC AD AH AS",
    kings: str = "KC KD KH KS",
    columns: dict[int, str] | None = None,
    arch: str = "",
    rest: str | int = "arch",
) -> Game:
    """An Archway game in the given position (docs/archway.md); each card exists twice.

    ``aces`` and ``kings`` give the top of each suit's Ace and King foundation (C D H S).
    Every copy not placed goes into the arch, or with ``rest=n`` under the cards named for
    column ``n`` (where only the exposed card can move).
    """
    columns = dict(columns or {})
    used: Counter[str] = Counter()
    for pile in (arch, *columns.values()):
        used.update(pile.split())
    for suit, top in zip("CDHS", aces.split(), strict=True):
        used.update(rank + suit for rank in RANKS[: RANKS.index(top[0]) + 1])
    for suit, top in zip("CDHS", kings.split(), strict=True):
        used.update(rank + suit for rank in RANKS[RANKS.index(top[0]) :])
    leftover = " ".join(card for card in ALL_CARDS for _ in range(2 - used[card]))
    if rest == "arch":
        arch = f"{arch} {leftover}"
    else:
        columns[int(rest)] = f"{leftover} {columns.get(int(rest), '')}"
    lines = [
        f"archway {options}".rstrip(),
        f"A: {aces}",
        f"K: {kings}",
        f"P: {arch}".rstrip(),
        *(f"{i}: {columns.get(i, '')}".rstrip() for i in range(1, 5)),
    ]
    return Game.from_text("\n".join(lines))


def hidden_places(game: Game) -> list[tuple[int, int]]:
    """The (line, word) of each card in ``game.to_text()`` that its player's view writes as ``?n``."""
    full = game.to_text().splitlines()
    view = game.to_text(hide_stock=True).splitlines()
    assert len(full) == len(view)
    places: list[tuple[int, int]] = []
    for number, (line, seen) in enumerate(zip(full, view, strict=True)):
        if line == seen:
            continue
        words, shown = line.split(), seen.split()
        assert shown[0] == words[0] and shown[1].startswith("?")
        unseen = int(shown[1][1:])
        assert words[1 + unseen :] == shown[2:]  # the rest of the line is shown as it is
        places.extend((number, 1 + k) for k in range(unseen))
    return places


def with_hidden_cards(game: Game, order: list[int]) -> Game:
    """``game`` with its hidden cards dealt back into their places in ``order`` (indices into them)."""
    lines = [line.split() for line in game.to_text().splitlines()]
    places = hidden_places(game)
    cards = [lines[line][word] for line, word in places]
    for (line, word), k in zip(places, order, strict=True):
        lines[line][word] = cards[k]
    return Game.from_text("\n".join(" ".join(words) for words in lines))
