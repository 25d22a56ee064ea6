"""Command words in the languages gatebot speaks: a German player types ``tipp`` for ``hint``.

Every front end that reads typed commands (the terminal's ``help``, ``hint``, ``undo``,
``new``…, a hint or an undo typed in Discord chat) reads the word through :func:`command_of`,
which gives the command's English name, so the code that carries a command out names it
once. A word is read whatever the reader's language, since none of them clashes with a move
or with another command: a German player at an English terminal is understood too.

:data:`GERMAN` is the one table to extend: a new command gets its German words in one line,
and a word may be written without its umlaut (``zurueck``, ``zuege``), as on a keyboard
that lacks it. Words for commands a front end does not have yet are harmless: the front
end only acts on the English names it knows, and anything else goes to the move language.
The German commands a player is shown (the terminal's first tip, its help) are in the
catalogue; the ones there must be in this table, which ``tests/test_commands.py`` checks.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Each command by its English name, and the German words for it (the first is the one shown).
GERMAN: Mapping[str, tuple[str, ...]] = {
    "help": ("hilfe",),
    "hint": ("tipp",),
    "undo": ("zurück", "rückgängig"),
    "new": ("neu",),
    "rules": ("regeln",),
    "moves": ("züge",),
    "board": ("brett",),
    "resign": ("aufgeben",),
    "end": ("beenden",),  # ends a game that has no win left, as the End game button ("Spiel beenden") does
    "auto": ("automatisch",),
    "stats": ("statistik",),
    "card": ("karte",),
    "quit": ("schluss", "ende", "tschüss"),
    "winnable": ("gewinnbar",),
    "restart": ("neustart",),
    "games": ("spiele",),
}

_SPELLED_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def spelled_out(word: str) -> str:
    """``word`` with its umlauts and ß written out, as German is typed without them: ``zurück`` → ``zurueck``."""
    return word.translate(_SPELLED_OUT)


#: Every word that names a command in another language (also without umlauts), to its English name.
WORDS: Mapping[str, str] = {
    spelling: command
    for command, words in GERMAN.items()
    for word in words
    for spelling in (word, spelled_out(word))
}


def command_of(word: str) -> str:
    """The English name of the command ``word`` names in any language (lower case); else ``word``, lower-cased."""
    lowered = word.lower()
    return WORDS.get(lowered, lowered)


def words_for(commands: frozenset[str] | set[str]) -> tuple[str, ...]:
    """Every word, English or not, that names one of ``commands``: what a mistyped command is compared with."""
    return tuple(sorted(set(commands) | {word for word, command in WORDS.items() if command in commands}))
