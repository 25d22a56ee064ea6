"""The game interface every variant implements, the facts a variant declares, and game outcomes.

A variant is a subclass of :class:`Game` listed in :mod:`gatebot.rules.variants`. Its class
attributes are the facts other layers read instead of recognising the class (its name and
aliases, its rule options with their help, whether it has a stock, how many cards it plays
with, which board drawing and solver serve it). Front ends only use this interface:
``Game.new``, ``Game.from_text``, ``legal_moves``, ``play``, ``play_line``, ``undo``,
``to_text`` and the end-of-game properties.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Self

from gatebot.messages import _, message_of
from gatebot.rules.errors import PositionError, RulesError, UnknownVariant, quoted
from gatebot.rules.move import FOUNDATION, Move
from gatebot.rules.notation import parse_move, resolve, split_phrases


class Termination(enum.Enum):
    """Why a game is over."""

    WON = "won"
    NO_MOVES = "no legal move left"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended and what it scored (cards on the foundations)."""

    termination: Termination
    score: int

    @property
    def won(self) -> bool:
        return self.termination is Termination.WON


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One rule a variant may be dealt with, as position text and commands name it."""

    #: The option's name in position text and commands (``draw-one``, ``passes-1``).
    name: str
    #: One line saying what it changes, for command option lists and ``--help``: a marked
    #: sentence (:func:`~gatebot.messages._`), said in the reader's language where it is shown.
    help: str


@dataclass(frozen=True, slots=True)
class LinePlay:
    """What became of a line of typed moves: the moves played, then the error that stopped it."""

    played: tuple[Move, ...]
    error: RulesError | None = None


class Game(ABC):
    """A game in progress: a position plus the moves that led to it, with undo.

    Instances are mutable, like a chess board; use :meth:`copy` to branch. Subclasses set
    ``name`` (the variant's id in position text and commands), ``title`` and
    ``known_options``, and implement the abstract methods.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    #: Other names a player may type for the variant (``demon`` for Canfield); any case, and
    #: spaces or underscores for hyphens (``Little Gate``), are accepted anyway.
    aliases: ClassVar[tuple[str, ...]] = ()
    #: The rule options the variant may be dealt with, in canonical order.
    rule_options: ClassVar[tuple[RuleOption, ...]] = ()
    #: Their names (set from ``rule_options``).
    known_options: ClassVar[tuple[str, ...]] = ()
    #: The name of the board drawings and the solver that serve the variant
    #: (``gatebot/render/<family>``, ``gatebot/solver/<family>``): Little Gate is drawn and solved as Gate.
    family: ClassVar[str]
    #: How many cards the variant plays with: the score of a won game.
    card_count: ClassVar[int] = 52
    #: Whether the deal keeps a stock to draw from (False: every card is laid out).
    has_stock: ClassVar[bool] = True
    #: The option under which every deal can be won (Archway's ``kit``), if the variant has one.
    always_winnable_option: ClassVar[str | None] = None
    #: What a hint imagines when it can't see every card ("shuffles of the stock").
    unseen_words: ClassVar[str] = _("deals of the cards you can't see")
    #: Words this variant adds to the move language, each naming a pile (``"arch": "p"``).
    pile_words: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: Whether cards under a column's top card can ever move with it (False: one card at a time).
    moves_runs: ClassVar[bool] = True
    #: Examples of moves for messages about unreadable input.
    move_examples: ClassVar[str] = _("d, 3f, w5, 3>7, 35:2 or a card like 7h")
    #: Looks a variant up by name for :meth:`new` and :meth:`from_text`; :mod:`gatebot.rules.variants`,
    #: which lists the variants, sets it (this module can't import the variants it is the base of).
    find_variant: ClassVar[Callable[[str], type[Game]]]

    deal: int | None
    options: tuple[str, ...]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if "rule_options" in cls.__dict__:
            cls.known_options = tuple(option.name for option in cls.rule_options)

    # -- construction -------------------------------------------------------------------

    @classmethod
    def new(cls, variant: str | None = None, *, deal: int, options: Iterable[str] = ()) -> Game:
        """Deal numbered deal ``deal`` of ``variant`` (on a subclass, the variant may be omitted)."""
        target = Game.find_variant(variant) if variant is not None else cls
        if target is Game:
            raise UnknownVariant("Game.new needs a variant name, like 'gate'")
        return target._new(deal, target.check_options(options))

    @classmethod
    def from_text(cls, text: str) -> Game:
        """Read a position in the text form of docs/rules.md#position-text (chat code fences allowed)."""
        lines = [line.strip() for line in text.strip().strip("`").splitlines()]
        lines = [line for line in lines if line and not line.startswith("```")]
        if not lines:
            raise PositionError(_("The position is empty: its first line names the variant, like 'gate'"))
        words = lines[0].lower().split()
        try:
            target = Game.find_variant(words[0])
        except UnknownVariant as error:
            raise PositionError(_("Line 1: {reason}", reason=message_of(error))) from None
        try:
            options = target.check_options(words[1:])
        except UnknownVariant as error:
            raise PositionError(_("Line 1: {reason}", reason=message_of(error))) from None
        return target._from_lines(lines[1:], options)

    @classmethod
    def check_options(cls, options: Iterable[str]) -> tuple[str, ...]:
        """Validate option names and return them in this variant's canonical order."""
        if isinstance(options, str):
            options = (options,)
        wanted = {option.strip().lower() for option in options}
        unknown = wanted.difference(cls.known_options)
        if unknown:
            if not cls.known_options:
                raise UnknownVariant(_("{game} has no option {option}: its options are none", game=cls.title,
                                       option=quoted(sorted(unknown)[0])))
            raise UnknownVariant(_("{game} has no option {option}: its options are {known}", game=cls.title,
                                   option=quoted(sorted(unknown)[0]), known=", ".join(cls.known_options)))
        return tuple(option for option in cls.known_options if option in wanted)

    @classmethod
    @abstractmethod
    def _new(cls, deal: int, options: tuple[str, ...]) -> Self: ...

    @classmethod
    @abstractmethod
    def _from_lines(cls, lines: list[str], options: tuple[str, ...]) -> Self: ...

    # -- the position -------------------------------------------------------------------

    @property
    def variant(self) -> str:
        return self.name

    @abstractmethod
    def to_text(self, *, hide_stock: bool = False) -> str:
        """The position text; ``hide_stock`` writes the stock as ``S: ?n``, as a player sees it."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy, history included."""

    @property
    @abstractmethod
    def score(self) -> int:
        """Cards on the foundations."""

    @property
    @abstractmethod
    def is_won(self) -> bool: ...

    @property
    def stock_count(self) -> int:
        """Cards left in the stock (0 where the variant has none)."""
        return 0

    @property
    def hidden_count(self) -> int:
        """How many cards the player can't see: 0 means the position is wholly known to them.

        Gate hides the stock's order; a variant that hides more (Canfield's reserve) says so.
        """
        return self.stock_count

    @abstractmethod
    def foundation_heights(self) -> tuple[int, ...]:
        """How many cards each foundation holds, in the order the result card draws its rows."""

    @property
    def stock_known(self) -> bool:
        """Whether the stock's order is known (False for a position read with ``S: ?n``); True without a stock."""
        return True

    @property
    def last_move_showed_stock(self) -> bool:
        """Whether the last move turned up a card that was hidden, which a challenge doesn't let be taken back."""
        return False

    @property
    @abstractmethod
    def moves(self) -> tuple[Move, ...]:
        """The moves played so far (the ones :meth:`undo` takes back, last one last)."""

    # -- moves --------------------------------------------------------------------------

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move, in canonical form, the most useful first (foundation plays first)."""

    @abstractmethod
    def validate(self, move: Move) -> Move:
        """Return ``move`` in canonical form if legal, else raise :class:`IllegalMove` saying why."""

    @abstractmethod
    def push(self, move: Move) -> None:
        """Play a move already known to be legal and canonical, without checking it."""

    @abstractmethod
    def undo(self) -> Move:
        """Take back the last move, automatic fills included; return it."""

    def play(self, move: Move | str) -> Move:
        """Play one move, given as a :class:`Move` or as forgiving player text; return it canonical."""
        move = parse_move(self, move) if isinstance(move, str) else self.validate(move)
        self.push(move)
        return move

    def play_line(self, text: str) -> LinePlay:
        """Play the moves of one typed line in order, stopping at the first that fails."""
        played: list[Move] = []
        try:
            for phrase in split_phrases(text, type(self)):
                move = resolve(self, phrase)
                self.push(move)
                played.append(move)
        except RulesError as error:
            return LinePlay(tuple(played), error)
        return LinePlay(tuple(played))

    # -- what the move language needs to know ------------------------------------------

    @abstractmethod
    def check_pile(self, name: str, *, as_target: bool) -> None:
        """Raise :class:`IllegalMove` saying why ``name`` can't be a move's source (or target)."""

    @abstractmethod
    def pile_label(self, name: str) -> str:
        """A pile's name in words (``column 3``, ``the waste``)."""

    @abstractmethod
    def top_card(self, pile: str) -> int | None:
        """The index of the top card of a pile, None when it is empty or no such pile."""

    @abstractmethod
    def locate(self, card: int) -> tuple[str, int] | None:
        """Where a visible, playable-area card is: (pile name, cards above it), else None."""

    @abstractmethod
    def moved_card(self, move: Move) -> int:
        """The deepest card a legal, canonical move carries."""

    @abstractmethod
    def whereabouts(self, card: int) -> str:
        """Where a card is, in words, for messages that explain why it can't move."""

    @classmethod
    def read_token(cls, word: str) -> Move | None:
        """A typed word (lower case) that is a whole move in this variant's own tokens, else None.

        Gate's forms (``3f``, ``45``, ``35:2``) are read by the move language itself; a variant
        whose notation has more (Archway's ``7ha``, ``fhk``) reads those here.
        """
        return None

    def is_foundation(self, pile: str) -> bool:
        """Whether a move's target names a foundation (Gate's ``f``; a variant may have more)."""
        return pile == FOUNDATION

    def card_target(self, card: int, moving: int | None) -> str | None:
        """The target a player means by writing a move onto ``card`` (``7h 8h``).

        ``moving`` is the card to be moved, when the player's words say which. None lets the
        move language read ``card`` as the top of a column; a variant where cards go onto
        other piles names that pile, or raises :class:`IllegalMove` saying why it can't be.
        """
        return None

    def cards_moved(self, move: Move) -> int:
        """How many cards a legal, canonical move carries."""
        if move.count is not None:
            return move.count
        location = self.locate(self.moved_card(move))
        return 1 if location is None else location[1] + 1

    def describe(self, move: Move) -> str | None:
        """A variant's own words for a legal move, or None for the move language's (``describe_move``)."""
        return None

    def why_buried_card_stays(self, card: int) -> str:
        """Why a card with cards on it in a column has no move, when a player names it alone."""
        return _("{where}, and they aren't a run that moves with it", where=self.whereabouts(card))

    def fill_note(self, before: Game, move: Move) -> str | None:
        """What filled the column ``move`` just emptied, in words, or None (the default).

        ``before`` is this game just before ``move``. A variant that fills emptied columns by
        itself (Gate) says which card came from where, since a redrawn board doesn't show it;
        the others have nothing to add.
        """
        return None

    def is_safe_up(self, move: Move) -> bool:
        """Whether a legal foundation move can never cost a win, so Auto may play it (none, unless a variant says)."""
        return False

    # -- the end ------------------------------------------------------------------------

    def has_legal_move(self) -> bool:
        return bool(self.legal_moves())

    @property
    def is_over(self) -> bool:
        """Won, or no legal move left."""
        return self.is_won or not self.has_legal_move()

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        if self.is_won:
            return Outcome(Termination.WON, self.score)
        if not self.has_legal_move():
            return Outcome(Termination.NO_MOVES, self.score)
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({self.to_text()!r})"
