"""Every way of drawing a game, found through the variant's family: no branch on a game's class.

A family's package (``gatebot/render/<family>``: ``gate``, ``canfield``, ``archway``) exposes
``BOARDS``, a :class:`Boards` holding its drawing functions; :func:`boards_for` finds it by the
variant's :attr:`~gatebot.rules.game.Game.family`, so a new variant needs only its own package
(or none, when it is drawn like a family it belongs to) and its line in
:data:`gatebot.rules.variants.VARIANTS`. The entry points here (:func:`render_text`,
:func:`render_emoji`, :func:`render_spoken`, :func:`layout_board`, :func:`rules_text`, :func:`notation_guide`) draw any
variant through it;
a variant with no such drawing gets a :class:`MissingBoard` naming what is missing.

The PNG layout is imported only when a picture is asked for, so drawing text never loads Pillow.
"""

from __future__ import annotations

import importlib
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from gatebot.messages import ENGLISH, Language
from gatebot.render.emoji_rows import four_colour_suits
from gatebot.rules import Game

if TYPE_CHECKING:
    from gatebot.render.image_geometry import Layout
    from gatebot.render.view import Table

G = TypeVar("G", bound=Game)
G_contra = TypeVar("G_contra", bound=Game, contravariant=True)


class MissingBoard(TypeError):
    """A variant has no drawing of the kind asked for (the message says which, and for what)."""


class TextBoard(Protocol[G_contra]):
    """Draws a game as monospace text (see :func:`render_text`)."""

    def __call__(
        self, game: G_contra, *, compact: bool = False, colour: bool = False, language: Language = ENGLISH,
        label: str | None = None,
    ) -> str: ...


class EmojiBoard(Protocol[G_contra]):
    """Draws a game as a Discord message of emoji cards (see :func:`render_emoji`)."""

    def __call__(
        self, game: G_contra, *, compact: bool = False, language: Language = ENGLISH, label: str | None = None
    ) -> str: ...


class SpokenBoard(Protocol[G_contra]):
    """Draws a game as sentences for a screen reader (see :func:`render_spoken`)."""

    def __call__(self, game: G_contra, language: Language = ENGLISH, *, label: str | None = None) -> str: ...


class ImageLayout(Protocol[G_contra]):
    """Lays a game out for the PNG board (see :func:`layout_board`); imports Pillow only when called."""

    def __call__(
        self, game: G_contra, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None,
        phone: bool = False,
    ) -> Layout: ...


class TableView(Protocol[G_contra]):
    """Lists a game's piles as its player sees them, and where they sit (see :mod:`gatebot.render.view`)."""

    def __call__(self, game: G_contra) -> Table: ...


class RulesSummary(Protocol[G_contra]):
    """The rules a game is played by, options included, as plain paragraphs in a language (see :func:`rules_text`)."""

    def __call__(self, game: G_contra, language: Language = ENGLISH) -> list[str]: ...


class NotationGuide(Protocol[G_contra]):
    """How moves are written in a game: (as typed, what it does) pairs in a language (see :func:`notation_guide`)."""

    def __call__(self, game: G_contra, language: Language = ENGLISH) -> list[tuple[str, str]]: ...


@dataclass(frozen=True, slots=True)
class Boards(Generic[G]):
    """A family's drawings: one function for each board style, the rules summary and the notation guide.

    A field left None is a drawing the family doesn't have; asking for it raises
    :class:`MissingBoard` (the contract tests make sure every listed variant has them all).
    """

    text: TextBoard[G] | None = None
    emoji: EmojiBoard[G] | None = None
    layout: ImageLayout[G] | None = None
    rules: RulesSummary[G] | None = None
    notation: NotationGuide[G] | None = None
    spoken: SpokenBoard[G] | None = None
    view: TableView[G] | None = None


def boards_for(variant: Game | type[Game]) -> Boards[Any]:
    """The drawings of a variant (a game or its class), from ``gatebot.render.<family>.BOARDS``."""
    package = f"gatebot.render.{variant.family}"
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as error:
        if error.name != package:
            raise
        raise MissingBoard(f"There are no board drawings for {variant.title}: no package {package}") from None
    boards = getattr(module, "BOARDS", None)
    if not isinstance(boards, Boards):
        raise MissingBoard(f"There are no board drawings for {variant.title}: {package} has no BOARDS")
    return boards


def render_text(
    game: Game, *, compact: bool = False, colour: bool = False, language: Language = ENGLISH, label: str | None = None
) -> str:
    """Draw ``game`` as text: header, then its piles one a row, then the result once it is over.

    ``compact`` keeps every line within 36 characters (what a phone shows of a code block,
    :mod:`gatebot.render.phone`), otherwise 72 and the cards sit in a grid so ranks line up
    row under row. ``colour`` paints red cards with
    ANSI codes for terminals; widths ignore the codes. Every pile's row starts with the
    name players type for it, and nothing a player can't see is drawn. Its words (the
    header's, ``free``, the stock's) are in ``language``; the card symbols are the same in all.
    ``label``, when given, is what the header calls the game in place of its deal (every drawing
    takes it: a challenge still open is named, its deal kept secret).
    """
    draw = boards_for(game).text
    if draw is None:
        raise MissingBoard(f"There is no text board for {game.title} yet")
    return draw(game, compact=compact, colour=colour, language=language, label=label)


def render_emoji(
    game: Game, *, compact: bool = False, four_colour: bool = False, language: Language = ENGLISH,
    label: str | None = None,
) -> str:
    """Draw ``game`` for a Discord message: header, then its piles one a row, then the result.

    Always under 2000 characters (Discord's message limit), whatever the position. Lines
    stay within :data:`~gatebot.render.emoji_rows.NORMAL_EMOJI_WIDTH` units and ten cards,
    or with ``compact`` :data:`~gatebot.render.emoji_rows.COMPACT_EMOJI_WIDTH` units and
    five cards, the title on a line of its own. ``four_colour`` draws clubs and diamonds
    in their four-colour deck glyphs (:func:`~gatebot.render.emoji_rows.four_colour_suits`).
    Its words (header, ``free space``, the stock's, the ending) are in ``language``.
    """
    draw = boards_for(game).emoji
    if draw is None:
        raise MissingBoard(f"There is no emoji board for {game.title} yet")
    board = draw(game, compact=compact, language=language, label=label)
    return four_colour_suits(board) if four_colour else board


def render_spoken(game: Game, language: Language = ENGLISH, *, label: str | None = None) -> str:
    """Draw ``game`` in words for a screen reader: a sentence a pile, every visible card named in full.

    No card symbols or emoji, nothing a player can't see (see :mod:`gatebot.render.spoken`);
    within Discord's 2000 characters for every position of every variant; in ``language``
    (German names cards "Karo-Dame").
    """
    speak = boards_for(game).spoken
    if speak is None:
        raise MissingBoard(f"There is no spoken board for {game.title} yet")
    return speak(game, language, label=label)


#: The most characters a picture's description may take (Discord's limit on an attachment's).
DESCRIPTION_LIMIT = 1024


def describe_board(
    game: Game, language: Language = ENGLISH, *, label: str | None = None, limit: int = DESCRIPTION_LIMIT
) -> str:
    """A picture of ``game`` described in words, for its alt text: at most ``limit`` characters, in ``language``.

    It is the spoken board (:func:`render_spoken`) on one line: the header (variant, deal or
    ``label``, moves, score, the result), then each pile. When that is longer than ``limit``
    (Archway's long columns), each pile is named by its top card, the one that plays, and
    ``…`` stands for the cards under it; whole sentences are left off the end only if it is
    still too long. Like every drawing it names nothing a player can't see.
    """
    lines = render_spoken(game, language, label=label).splitlines()
    text = " ".join(lines)
    if len(text) <= limit:
        return text
    joint = language.gettext(" on ")
    lines = [line.split(joint, 1)[0] + " …" if joint in line else line for line in lines]
    text = lines[0]
    for line in lines[1:]:
        if len(text) + len(line) + 3 > limit:
            return text + " …"
        text += " " + line
    return text[:limit]


def layout_board(
    game: Game, scale: float = 1.0, language: Language = ENGLISH, *, label: str | None = None, phone: bool = False
) -> Layout:
    """Lay out ``game`` at ``scale`` for the PNG board: every card, slot, badge and text with its box.

    The header's and captions' words, and the empty places' notes, are in ``language``. With
    ``phone`` it is the phone board: at most eight cards across with large indices, so a rank is
    at least 12 px tall when a phone shows the picture 320 px wide (docs/boards.md).
    """
    lay_out = boards_for(game).layout
    if lay_out is None:
        raise MissingBoard(f"There is no picture of a {game.title} board yet")
    return lay_out(game, scale, language, label=label, phone=phone)


def rules_paragraphs(game: Game, *, language: Language = ENGLISH) -> list[str]:
    """A short, exact summary of the rules this game is played by, options included: one paragraph a rule.

    Unbroken, for the front end to fit to its screen (a terminal wraps them to its width,
    Discord wraps by itself); worded in ``language`` (pile letters, moves and option names are
    notation and read the same in every language).
    """
    summary = boards_for(game).rules
    if summary is None:
        raise MissingBoard(f"There is no summary of the rules of {game.title} yet")
    return summary(game, language)


def rules_text(game: Game, width: int = 78, *, language: Language = ENGLISH) -> str:
    """:func:`rules_paragraphs` wrapped to ``width``, continuation lines indented: for a fixed-width block."""
    return "\n".join(textwrap.fill(text, width, subsequent_indent="  ")
                     for text in rules_paragraphs(game, language=language))


def notation_guide(game: Game, *, language: Language = ENGLISH) -> list[tuple[str, str]]:
    """How moves are written in this game (its variant's notation only, its columns and options), as examples.

    Each pair is a move as typed and what it does in ``language``; an empty first part is a
    paragraph of its own (the words the parser accepts). Every example reads with the real
    parser of the game's variant (a test makes sure), so the help never teaches a move that fails.
    """
    guide = boards_for(game).notation
    if guide is None:
        raise MissingBoard(f"There is no guide to the notation of {game.title} yet")
    return guide(game, language)
