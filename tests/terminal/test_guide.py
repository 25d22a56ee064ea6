"""``help`` and ``rules`` as a person reads them: the game's own moves, wrapped once to any screen.

Every variant with each of its options, at any width a terminal may have, in English and
German: no line is longer than the screen, no paragraph is broken twice (the ragged look of
text pre-broken at 80 columns and wrapped again), every example of a move reads with the real
parser of the game being played, and nothing names a file the player doesn't have.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.errors import UserError
from gatebot.locale import translator
from gatebot.render import notation_guide
from gatebot.rules import Game
from gatebot.rules.notation import split_phrases
from gatebot.rules.variants import VARIANTS
from gatebot.terminal.guide import help_text, rules_said
from tests.terminal.wrapping import badly_wrapped

LANGUAGES = (translator("en"), translator("de"))


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
                    continue
    return found


GAMES = games()


def moves_part(text: str) -> str:
    """The help's moves: everything before its list of commands."""
    return text.split("\nCommands:", 1)[0].split("\nBefehle", 1)[0]


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), width=st.integers(20, 200), language=st.sampled_from(LANGUAGES))
def test_help_and_rules_are_wrapped_once_to_any_width(game: Game, width: int, language: object) -> None:
    for text in (help_text(game, language, width), rules_said(game, language, width)):  # type: ignore[arg-type]
        assert badly_wrapped(text, width) == []
        assert "docs/" not in text and ".md" not in text


@pytest.mark.parametrize("game", GAMES, ids=lambda game: f"{game.name}-{'-'.join(game.options) or 'plain'}")
def test_the_help_teaches_only_the_moves_of_the_game_being_played(game: Game) -> None:
    for typed, _ in notation_guide(game):
        for example in typed.split():  # "lf rf wf": three ways, each a move of this game
            assert list(split_phrases(example, type(game))), example
    moves = moves_part(help_text(game, translator("en"), None))
    shown = {line.split("  ")[0].strip() for line in moves.splitlines()[1:]}
    for other in GAMES:
        if other.family != game.family:
            assert other.title not in moves
            own = {typed for typed, _ in notation_guide(game)}
            foreign = {typed for typed, _ in notation_guide(other) if typed} - own
            assert not foreign & shown, f"{game.title}'s help shows {other.title}'s {foreign & shown}"


def test_little_gate_examples_name_its_own_columns() -> None:
    little = help_text(Game.new("little-gate", deal=1), translator("en"), None)
    assert "  34 " in little and "37" not in moves_part(little)
    single = moves_part(help_text(Game.new("gate", deal=1, options=("single-moves",)), translator("en"), None))
    assert ":2" not in single  # no run moves, so no count of cards is taught
