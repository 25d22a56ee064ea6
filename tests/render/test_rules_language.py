"""The rules summaries in German: every variant, every combination of its options.

``rules_text(game, language=…)`` words each rule in the reader's language; the pile letters,
the moves written in them and the options' names are notation and read the same in both.
"""

from __future__ import annotations

import itertools
import re

import pytest

from gatebot.errors import UserError
from gatebot.locale import translator
from gatebot.render import rules_text
from gatebot.rules import Game
from gatebot.rules.variants import VARIANTS

GERMAN = translator("de")
#: Words only an English summary holds (an option's name such as partial-moves is notation, not English).
ENGLISH = re.compile(
    r"(?<![\w-])(the|a|an|and|or|to|of|on|when|cards?|foundations?|columns?|piles?|stock|waste|"
    r"space|redeal|pass|passes|moves?|build|game|over|Score)(?![\w-])"
)
#: Notation every summary shows as it is typed, in any language: the piles' letters in their places.
NOTATION = re.compile(r"\((?:F|A|K)\)|\b[LRSWP]\b|\b1-\d\b|\bd\b|\[|\]")


def unwrapped(text: str) -> str:
    """``text`` as one line: the wrapping undone, a word broken after its hyphen joined again."""
    return " ".join(re.sub(r"-\n\s+", "-", text).split())


def games() -> list[Game]:
    """A deal of every variant with each combination of its options that can be dealt."""
    found = []
    for variant in VARIANTS:
        names = [option.name for option in variant.rule_options]
        for size in range(len(names) + 1):
            for options in itertools.combinations(names, size):
                try:
                    found.append(Game.new(variant.name, deal=7, options=options))
                except UserError:
                    continue  # e.g. Canfield's passes-1 with passes-2
    return found


@pytest.mark.parametrize("game", games(), ids=lambda game: f"{game.name}-{'-'.join(game.options) or 'plain'}")
def test_every_summary_is_all_german_with_its_notation_kept(game: Game) -> None:
    german, english = rules_text(game, language=GERMAN), rules_text(game)
    words = unwrapped(german)
    assert words.startswith(f"{game.title}: "), german
    assert "Ablagestapel" in words and "Punkte: die Karten auf den Ablagestapeln" in words
    assert not ENGLISH.findall(words.replace(game.title, "")), german
    assert sorted(NOTATION.findall(german)) == sorted(NOTATION.findall(english))
    for option in game.options:
        if option not in ("passes-1", "passes-2", "draw-one"):  # these change the words, not a named rule
            assert f"({option})" in words
    assert all(len(line) <= 60 for line in rules_text(game, 60, language=GERMAN).splitlines())


def test_each_variant_says_its_own_piles_in_german() -> None:
    said = {name: unwrapped(rules_text(Game.new(name, deal=7), language=GERMAN))
            for name in ("gate", "little-gate", "canfield", "archway")}
    assert "Spalten 1-8" in said["gate"] and "Spalten 1-4" in said["little-gate"]
    assert "Reserven L und R" in said["gate"] and "Talon S" in said["little-gate"]
    assert "Reserve R: 13 Karten, verdeckt" in said["canfield"] and "Stapel 1-4" in said["canfield"]
    assert "Bogen" in said["archway"] and "Umlegen" in said["archway"] and "Kein Talon" in said["archway"]
    one = " ".join(rules_text(Game.new("canfield", deal=7, options=("draw-one", "passes-1")),
                              language=GERMAN).split())
    assert "Ein Durchgang durch den Talon, kein Neugeben." in one
    three = " ".join(rules_text(Game.new("canfield", deal=7, options=("draw-one",)), language=GERMAN).split())
    assert "3 Durchgänge insgesamt" in three


def test_english_stays_the_default() -> None:
    game = Game.new("gate", deal=7)
    assert "Gate: put all 52 cards on the four foundations (F)" in " ".join(rules_text(game).split())
