"""What a front end sends the service (who and where) and what it gets back (a reply value).

A reply carries everything a front end needs to show it: the game, what can be done next, how
its player likes boards drawn and where the game's board message is, so answering a button
press is one request to the service, one drawing and one edit.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from gatebot.rules import Game
from gatebot.store.models import GameStatus


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is asking, and where: a platform's user, and the server and channel if any."""

    platform: str
    user_id: str
    display_name: str
    guild_id: int | None = None
    channel_id: int | None = None
    #: The language they read, as their front end names it (``de``, ``en-US``); the service
    #: never reads it, front ends say its replies in it.
    locale: str | None = None
    #: Whether ``locale`` is the front end's guess rather than the person's own (a typed message
    #: carries none, so it is its server's): a guess is never kept as the player's language.
    guessed_locale: bool = False


#: How a board can be drawn: monospace text, emoji cards, a PNG, or in words for a screen reader.
BOARD_STYLES = ("text", "emoji", "image", "words")


@dataclass(frozen=True, slots=True)
class Preferences:
    """How a player likes the board drawn."""

    board_style: str = "text"
    #: The compact layout fits a phone's 36 columns for every position, and an image board is
    #: then the phone picture, its ranks readable 320 px wide (see docs/boards.md), so a new
    #: player starts with it: a bot can't know which client will show the board.
    compact: bool = True
    #: A four-colour deck on image and emoji boards: clubs green, diamonds blue.
    four_colour: bool = False
    #: The language the player's own board is said in, whoever's message edits it: their own
    #: client's, as their last interaction named it (None: not known yet).
    locale: str | None = None


class ReplyKind(enum.StrEnum):
    """What kind of answer a reply is, so a front end knows how to show it."""

    BOARD = "board"  # something changed or was asked to be shown: draw the game
    CONFIRM = "confirm"  # the request needs the player's yes first (nothing changed yet)
    ERROR = "error"  # refused: nothing changed; ``message`` says why and what to do
    STALE = "stale"  # a button on an out-of-date board: show the current board instead
    HINT = "hint"  # advice for the asker alone (nothing changed): show ``message`` privately


@dataclass(frozen=True, slots=True)
class Reply:
    """The outcome of one request: a message, the game to draw, and what can be done next.

    ``game`` is the service's own copy of the position after the request: front ends draw
    it and may read it, but changes to it are never saved.
    """

    kind: ReplyKind
    message: str | None = None
    game: Game | None = None
    game_id: int | None = None
    version: int | None = None
    status: GameStatus | None = None
    played: tuple[str, ...] = ()
    #: What the player can do now, for buttons: "draw", "undo", "hint" (unless a challenge
    #: forbids them), "resign", and "end" once the solver proved no win is left (the
    #: resignation, worded End game).
    actions: tuple[str, ...] = ()
    #: The legal moves now, in canonical notation, most useful first.
    moves: tuple[str, ...] = field(default=())
    #: The move a hint suggests, in canonical notation (not played).
    suggestion: str | None = None
    #: Whether this request changed the stored game and the change was committed. A front end
    #: that fails to show the answer says so ("your move was saved…"), never that nothing changed.
    saved: bool = False
    #: How the asker likes boards drawn (None only for a reply no request made, like a test's).
    preferences: Preferences | None = None
    #: Where the board message of ``game_id`` is, as last set: its channel id and message id.
    board_channel_id: int | None = None
    board_message_id: int | None = None
    #: What the board calls the game in place of its deal: an attempt's challenge while it is
    #: open, whose deal nobody may see until it closes (None: the deal, as usual).
    label: str | None = None

    @property
    def ok(self) -> bool:
        return self.kind is ReplyKind.BOARD

    @property
    def private(self) -> bool:
        """Meant for the asker's eyes only: a hint, a refusal or a question (show it ephemerally)."""
        return self.kind in (ReplyKind.HINT, ReplyKind.ERROR, ReplyKind.CONFIRM)
