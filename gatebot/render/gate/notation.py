"""How moves are written in Gate and Little Gate, example by example, with this game's columns and options."""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.rules import GateGame


def gate_notation(game: GateGame, language: Language = ENGLISH) -> list[tuple[str, str]]:
    """Each way to write a move (as typed, then what it does), its columns the game's own, in ``language``.

    Little Gate's examples name its four columns; with single-moves no run moves, so no
    count of cards is shown.
    """
    gettext = language.gettext
    columns = len(game.columns)
    a, b, s = 3, min(7, columns), 5 if columns >= 5 else 2
    single = "single-moves" in game.options
    entries = [
        ("d 3f w5" if columns >= 5 else "d 3f w2",
         gettext("several moves in one line, played in turn")),
        ("d", gettext("draw: turn the next stock card onto the waste (also draw)")),
        (f"{a}f", gettext("the top card of column {a} to its foundation ({a} f, {a} up, {a} home)").format(a=a)),
        ("lf rf wf", gettext("the top card of the left reserve, the right reserve or the waste to its foundation")),
        (f"{a}{b}", (gettext("column {a}'s top card onto column {b} "
                             "({a} {b}, {a}>{b}, {a}-{b}, {a} to {b}, {a} onto {b})")
                     if single else
                     gettext("column {a} onto column {b} ({a} {b}, {a}>{b}, {a}-{b}, {a} to {b}, {a} onto {b}): "
                             "the top card moves with the cards built under it that fit")).format(a=a, b=b)),
        (f"l{s} r{s} w{s}",
         gettext("the top card of a reserve or the waste onto column {s} (W{s}, waste {s}, left to {s})").format(s=s)),
    ]
    if not single:
        entries.append((f"{a}{s}:2", gettext(
            "the top 2 cards of column {a} onto the free space {s} ({a} {s}:2): onto a free space, say how many "
            "cards go when more than one could").format(a=a, s=s)))
    entries += [
        ("7h 8s", gettext("cards by name, rank then suit in either case (7h, 7♥, 10d or td, QS): 7♥ onto 8♠ "
                          "(7h>8s, 7h on 8s)")),
        ("7h f", gettext("7♥ to its foundation (7h up, 7h home)")),
        ("7h", gettext("7♥ to the one place it can go; if there are several, I list them")),
        (f"{a}", gettext("column {a}'s top card or run, when it has one place to go (l, r and w too)").format(a=a)),
        ("", gettext('Words: left, right and waste are l, r and w; foundation, home and up are f; draw is d; '
                     'move, play, put, column and the are left out, so "move 7h onto 8s" works.')),
    ]
    return entries
