"""What ``gatebot play`` was asked for, and how its terminal is written to.

Built once by the CLI from its arguments and the environment, then passed in: nothing in
the terminal front end reads settings of its own.
"""

from __future__ import annotations

import getpass
import shutil
from dataclasses import dataclass, field

from gatebot.digits import parse_whole
from gatebot.locale import Translator, terminal_language, translator
from gatebot.messages import _
from gatebot.render.text_rows import NORMAL_WIDTH
from gatebot.rules import DEFAULT_VARIANT, MAX_DEAL, UnknownVariant, find_variant, variant_names

#: The longest user name a player row takes (``players.platform_user_id``).
MAX_USER_LENGTH = 64
#: Who plays when neither ``--user`` nor the login name says.
FALLBACK_USER = "player"


@dataclass(frozen=True, slots=True)
class PlayRequest:
    """Where the games are, who plays, and which game they asked for.

    ``variant``, ``deal`` and ``options`` are None when not asked for, so a running game is
    only said to differ from what was asked in what the player actually typed; a new game
    fills the gaps with Gate, a random deal and no options.
    """

    database_url: str
    user: str
    variant: str | None = None
    deal: int | None = None
    options: tuple[str, ...] | None = None
    #: Abandon the running game, if any, and deal the one asked for.
    new: bool = False

    @property
    def variant_or_default(self) -> str:
        return self.variant or DEFAULT_VARIANT

    @property
    def options_or_default(self) -> tuple[str, ...]:
        return self.options or ()


@dataclass(frozen=True, slots=True)
class Screen:
    """How boards and prompts are written: a prompt only for a person at a terminal.

    ``width`` is the terminal's, in columns: what messages are wrapped to; None when
    there is no terminal to fit (output to a file or a pipe), and lines are left whole.
    """

    interactive: bool = False
    colour: bool = False
    compact: bool = False
    #: Boards in words, a pile a sentence, for a screen reader (see :func:`gatebot.render.render_spoken`).
    words: bool = False
    width: int | None = None
    #: The language messages and boards are written in: the environment's (``LANG`` and the like).
    language: Translator = field(default_factory=translator)

    @classmethod
    def measured(cls, *, interactive: bool, colour: bool, compact: bool, words: bool = False) -> Screen:
        """The screen of the terminal this process writes to, its width as the terminal says.

        ``COLUMNS`` in the environment wins (as for every program that reads it), then the
        terminal's own size; output that goes to no terminal has no width. A screen
        narrower than the normal board gets the compact one without being asked. Its language
        is the one ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` asks for (gettext's order).
        """
        width = shutil.get_terminal_size((0, 0)).columns or None
        narrow = width is not None and width < NORMAL_WIDTH
        return cls(interactive=interactive, colour=colour, compact=compact or narrow, words=words, width=width,
                   language=terminal_language())


def parse_deal(text: str) -> int | None:
    """The deal number ``text`` names, or None if it is not one (docs/rules.md#deal-numbers: 1 to 2^32 − 1)."""
    number = parse_whole(text)
    return number if number is not None and 1 <= number <= MAX_DEAL else None


@dataclass(frozen=True, slots=True)
class NewGame:
    """What a ``new`` line asks for; None fields mean "as the game being played"."""

    variant: str | None = None
    options: tuple[str, ...] | None = None
    deal: int | None = None
    winnable: bool = False


def parse_new(words: list[str]) -> NewGame | None:
    """Read the words after ``new``: ``[variant] [option ...] [N | winnable]``; None if they aren't that.

    ``new`` alone, ``new 617``, ``new winnable``, ``new archway``, ``new archway kit``,
    ``new canfield draw-one passes-2 617``. The variant may be named by its title or an alias
    in any case (``new Little Gate``, ``new demon``). Options named without a variant are for
    the variant being played; whether the variant has them is the rules core's to say.
    """
    option_names = {option for name in variant_names() for option in find_variant(name).known_options}
    variant, words = _leading_variant(words)
    options: list[str] = []
    deal: int | None = None
    winnable = False
    for word in words:
        number = parse_deal(word)
        if word in option_names and deal is None and not winnable:
            options.append(word)
        elif word == "winnable" and deal is None and not winnable:
            winnable = True
        elif number is not None and deal is None and not winnable:
            deal = number
        else:
            return None
    chosen = tuple(options) if variant is not None or options else None
    return NewGame(variant, chosen, deal, winnable)


def default_user() -> str:
    """The login name, so each account on a shared machine has its own game; else ``player``."""
    try:
        name = getpass.getuser().strip()
    except (OSError, KeyError, ImportError):  # no LOGNAME/USER and no passwd entry (containers)
        return FALLBACK_USER
    return name[:MAX_USER_LENGTH] or FALLBACK_USER


def _leading_variant(words: list[str]) -> tuple[str | None, list[str]]:
    """The variant the first words name (two for a title like ``Little Gate``, else one), and the rest."""
    for length in (2, 1):
        if len(words) >= length:
            try:
                return find_variant(" ".join(words[:length])).name, words[length:]
            except UnknownVariant:
                pass
    return None, words


def replay_command(variant: str, deal: int, options: tuple[str, ...]) -> str:
    """The command that deals this game again, as a player would type it."""
    words = ["gatebot play --new", f"--deal {deal}"]
    if variant != DEFAULT_VARIANT:
        words.append(f"--variant {variant}")
    words.extend(f"--option {option}" for option in options)
    return " ".join(words)


def describe_game(variant: str, deal: int | None, options: tuple[str, ...]) -> str:
    """A game in words: ``Little Gate deal 5 with single-moves``, or ``a random deal of Gate``."""
    title = find_variant(variant).title
    if not options:
        return _("{title} deal {deal}", title=title, deal=deal) if deal is not None else _(
            "a random deal of {title}", title=title)
    listed = " and ".join(options)
    if deal is None:
        return _("a random deal of {title} with {options}", title=title, options=listed)
    return _("{title} deal {deal} with {options}", title=title, deal=deal, options=listed)
