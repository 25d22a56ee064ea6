"""The player's view of a game as plain data (JSON-ready): what a browser may know, and nothing more.

A front end that draws the board itself (the web table) is handed this and only this. Each
family's part (``gatebot/render/<family>/view.py``, registered as ``Boards.view``) lists its piles
as a player sees them — face-up cards by name, face-down cards and the stock only as counts,
never their identities or order — and where each pile sits on the table, in card-sized cells,
so the page lays out any variant without knowing it. :func:`board_view` adds what every game
has: its name, deal and options, the version a move must name, the status, the legal moves
with the piles they leave and reach (so a page can light the targets), and what can be done.

Pure: no I/O, no service, the same input gives the same bytes (see ``tests/render/test_view.py``,
whose twins differ only in hidden cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gatebot.render.boards import MissingBoard, boards_for
from gatebot.rules import Card, Game, Move
from gatebot.rules.cards import CARDS

#: JSON as Python builds it: dicts, lists, strings, numbers, booleans and None.
Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Pile:
    """One place on the table as its player sees it.

    ``key`` names it uniquely on this board (``3``, ``w``, ``fh``, ``p7``); ``target`` is the
    notation that puts a card there (``f`` for any foundation), None where nothing may be put.
    ``cards`` are the face-up cards, bottom to top; ``hidden`` counts the face-down ones under
    them (the stock's cards, Canfield's reserve under its top); ``under`` counts face-up cards
    that are covered and not drawn (the waste under its top cards).
    """

    key: str
    kind: str
    cards: tuple[Card, ...] = ()
    hidden: int = 0
    under: int = 0
    target: str | None = None
    suit: str | None = None
    note: str | None = None

    def data(self) -> Json:
        out: Json = {"key": self.key, "kind": self.kind, "cards": [str(card) for card in self.cards]}
        for name in ("hidden", "under", "target", "suit", "note"):
            value = getattr(self, name)
            if value:
                out[name] = value
        return out


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a pile's bottom card sits, in cells (a card's width and height plus a gap), and its fan.

    ``fan`` is ``down`` (a column), ``right`` (a row of overlapping cards) or ``none`` (a stack).
    """

    x: float
    y: float
    fan: str = "none"


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Every pile's spot on a table ``width`` cells wide (its height follows from the fans)."""

    width: float
    spots: dict[str, Spot] = field(default_factory=dict)

    def data(self) -> Json:
        return {"width": self.width,
                "spots": {key: [spot.x, spot.y, spot.fan] for key, spot in self.spots.items()}}


@dataclass(frozen=True, slots=True)
class Table:
    """A family's view of one position: its piles, how they are laid out, and where moves go.

    ``narrow`` is the arrangement for a phone held upright when ``wide`` would make cards too
    small there (Gate's ten piles across); None when ``wide`` fits.
    """

    piles: tuple[Pile, ...]
    wide: Arrangement
    narrow: Arrangement | None = None
    facts: Json = field(default_factory=dict)
    #: Each legal move in order, with the keys of the piles it leaves and reaches (None for a draw's target).
    places: tuple[tuple[Move, str | None, str | None], ...] = ()


def card_of(index: int) -> Card:
    """The card with index ``index`` (what :meth:`Game.moved_card` returns)."""
    return CARDS[index]


def suit_key(card: Card) -> str:
    """A card's suit letter in lower case, as pile keys use it (``fh``)."""
    return card.suit.letter.lower()


def stock_places(game: Game, move: Move) -> tuple[str | None, str | None]:
    """The keys of the piles a legal move leaves and reaches, for a game dealt from a stock (Gate's, Canfield's).

    A draw leaves the stock ``s``; a card put up reaches its suit's foundation ``f<suit>``.
    """
    if move.is_draw:
        return "s", None
    if move.target == "f":
        return move.source, "f" + suit_key(card_of(game.moved_card(move)))
    return move.source, move.target


def board_view(
    game: Game, *, version: int | None, status: str, actions: Sequence[str] = (), label: str | None = None
) -> Json:
    """The whole view: the game's facts, its family's table, and each legal move with its source and target pile.

    ``status`` is the stored game's (``active``, ``won``...), ``actions`` what its player may do
    now (``undo``, ``hint``...). ``label``, when given, names the game in place of its deal (an
    attempt at a challenge still open): the view then has no deal number, as no board of it has.
    A variant whose family has no view raises :class:`MissingBoard`.
    """
    lay_out = boards_for(game).view
    if lay_out is None:
        raise MissingBoard(f"There is no web view of {game.title} yet")
    table = lay_out(game)
    legal = []
    for move, source, target in table.places:
        entry: Json = {"move": str(move), "from": source, "to": target}
        if not move.is_draw:
            entry["card"] = str(card_of(game.moved_card(move)))
            entry["count"] = game.cards_moved(move)
        legal.append(entry)
    outcome = game.outcome()
    view: Json = {
        "variant": game.name,
        "title": game.title,
        "deal": game.deal if label is None else None,
        "label": label,
        "options": list(game.options),
        "version": version,
        "status": status,
        "score": game.score,
        "card_count": game.card_count,
        "moves_played": len(game.moves),
        "over": None if outcome is None else outcome.termination.name.lower(),
        "piles": [pile.data() for pile in table.piles],
        "layout": {"wide": table.wide.data(), "narrow": None if table.narrow is None else table.narrow.data()},
        "facts": table.facts,
        "legal": legal if status == "active" else [],
        "actions": list(actions),
    }
    return view


def replay_view(games: Sequence[Game], steps: Sequence[int], *, status: str) -> Json:
    """The frames of a finished game's replay: position ``step`` of ``games`` for each of ``steps``, read-only.

    Each frame is what :func:`board_view` shows of that position (so never a face-down card nor
    the stock's order, exactly as the player saw it then) without its legal moves, version or
    actions: ``step``, ``piles``, ``score``, ``moves_played`` and ``over``, and ``layout`` on the
    first frame and wherever it changes (a page keeps the last one it was given). ``status`` is
    how the game ended. What every frame shares (variant, title, deal, options) is said once.
    """
    frames: list[Json] = []
    layout: Json | None = None
    first: Json = {}
    for step in steps:
        view = board_view(games[step], version=None, status=status)
        frame: Json = {"step": step, "piles": view["piles"], "score": view["score"],
                       "moves_played": view["moves_played"], "over": view["over"]}
        if view["layout"] != layout:
            layout = frame["layout"] = view["layout"]
        frames.append(frame)
        first = first or view
    return {"variant": first.get("variant"), "title": first.get("title"), "deal": first.get("deal"),
            "options": first.get("options", []), "status": status, "card_count": first.get("card_count"),
            "steps": len(games) - 1, "frames": frames}
