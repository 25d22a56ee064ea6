"""What the terminal says when asked: the move language and commands (``help``) and the rules (``rules``).

Both are written as paragraphs and wrapped once, here, to the terminal's width: a line is
never broken twice. The moves shown are the game's own variant's (its columns and options
too), from :func:`gatebot.render.notation_guide`, whose every example a test reads with the
real parser; the commands are the terminal's. Nothing names a file of the repository: a
player who installed gatebot with pip has none.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from gatebot.locale import Translator
from gatebot.messages import N_
from gatebot.render import notation_guide, rules_paragraphs
from gatebot.rules import DEFAULT_VARIANT, Game

#: The terminal's commands: the words a player types (in the terminal's language: German has its own, which
#: :mod:`gatebot.locale.commands` reads, and the English ones work too), and what each does.
COMMANDS: tuple[tuple[str, str], ...] = (
    # TRANSLATORS: the words of the terminal's commands, as a player types them: use the words
    # gatebot/locale/commands.py reads (the first of each command's), keeping u, h, ? and q as they are.
    (N_("undo, u"), N_("take back your last move; undo 3 takes back three")),
    (N_("restart"), N_("start this deal over: the same cards, every move taken back as undos (asks first)")),
    (N_("moves"), N_("the legal moves, in words")),
    (N_("hint"), N_("a good move and how the game looks after it; nothing is played")),
    (N_("auto"), N_("every card that can safely go up; once the stock is out, finishes a game the solver can win")),
    (N_("board"), N_("the board again")),
    (N_("rules"), N_("the rules of the game you play")),
    (N_("new"), N_("a new deal (asks first); new 617 for deal 617, new winnable for one proved winnable, another "
                   "variant with its options first: new canfield draw-one, new archway kit")),
    (N_("resign"), N_("end this game now, keeping its score (asks first); end, once I offer it when no win is left")),
    (N_("stats"), N_("your wins, streaks and best times")),
    (N_("games"), N_("your finished games, newest first, with the numbers gatebot replay --game takes; games 2 for "
                     "the next ten")),
    (N_("card"), N_("a spoiler-free card of your last finished game, to share")),
    (N_("help, h, ?"), N_("this help")),
    (N_("quit, q"), N_("stop here: your game is saved after every move, and gatebot play resumes it")),
)
#: Below this width an example and its meaning don't share a column: the meaning follows the example.
ALIGNED_WIDTH = 56
#: The widest example column; a longer example pushes its meaning along on its own line.
EXAMPLE_COLUMN = 12


def help_text(game: Game | None, language: Translator, width: int | None) -> str:
    """The terminal's help for ``game`` (plain Gate without one): its moves, then the commands, in ``language``.

    Wrapped to ``width`` (None: each entry on one line, for output to a file).
    """
    shown = game if game is not None else Game.new(DEFAULT_VARIANT, deal=1)
    say = language.say
    lines = [*_wrapped(say(N_("Moves in {title}:")).format(title=shown.title), width)]
    lines += _entries(notation_guide(shown, language=language), width)
    lines += _wrapped(say(N_("Commands:")), width)
    lines += _entries(((say(typed), say(meaning)) for typed, meaning in COMMANDS), width)
    return "\n".join(lines)


def rules_said(game: Game, language: Translator, width: int | None) -> str:
    """The rules of ``game`` in ``language``: a paragraph a rule, each wrapped to ``width``, continuations indented."""
    return "\n".join(line for paragraph in rules_paragraphs(game, language=language)
                     for line in _wrapped(paragraph, width, indent="  "))


def _entries(entries: Iterable[tuple[str, str]], width: int | None) -> list[str]:
    """Examples and their meanings, in two columns on a wide screen, one after the other on a narrow one."""
    listed = list(entries)
    column = min(EXAMPLE_COLUMN, max((len(typed) for typed, _ in listed), default=0)) + 2
    aligned = width is None or width >= ALIGNED_WIDTH
    lines: list[str] = []
    for typed, meaning in listed:
        if not typed:  # a paragraph of its own
            lines += _wrapped(meaning, width, first="  ", indent="    ")
        elif aligned:
            head = f"  {typed.ljust(column - 2)}  "  # longer than the column: the meaning follows it
            lines += _wrapped(meaning, width, first=head, indent=" " * (column + 2))
        else:
            lines += _wrapped(meaning, width, first=f"  {typed}  ", indent="      ")
    return lines


def _wrapped(text: str, width: int | None, *, first: str = "", indent: str = "") -> list[str]:
    """``text`` after ``first``, wrapped once to ``width`` with ``indent`` before every further line."""
    if width is None:
        return [first + text]
    return textwrap.wrap(text, max(width, len(indent) + 12), initial_indent=first, subsequent_indent=indent,
                         break_on_hyphens=False) or [first.rstrip()]


__all__ = ["COMMANDS", "help_text", "rules_said"]
