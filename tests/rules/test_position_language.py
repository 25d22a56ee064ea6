"""The rules' last plain sentences, said in German: position text errors, option conflicts, undo, deal numbers.

The rules mark what they refuse and a front end says it (``translator(locale).say(message_of(error))``,
as the terminal and the bot do). A refusal whose sentence, or a part of it, was never marked keeps
English words in German; these tests look for them, over malformed positions of every variant too.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gatebot.errors import UserError
from gatebot.locale import translator
from gatebot.messages import Text, message_of
from gatebot.rules import Game
from gatebot.rules.deal import MAX_DEAL, shuffle
from gatebot.rules.errors import DealNumberError, IllegalMove, PositionError, UnknownVariant

GERMAN = translator("de")
#: Words only the English of these sentences has; none is a card, a pile letter, a variant or an option.
ENGLISH = re.compile(r"(?<![\w-])(Line|line|the|is|has|give|cards?|foundations?|stock|reserve|pile|position|"
                     r"appears|empty|once|twice|not|only|options?|pass|passes|move|back|numbers?|run|and)(?![\w-])")
#: Words a malformed position may hold: cards, notation and numbers, never an English word.
WORDS = ["2H", "KD", "AS", "TC", "10", "XX", "-", "?3", "?0", "?99999999", "idle", "Q", "9S:", ":", "R:", "P:", "B:",
         "F:", "S:", "1:", "draw-one", "kit", "spider", "7h", "Ü"]


def german(error: Exception) -> str:
    """What ``error`` says in German, after checking it is a marked sentence with no English word left."""
    message = message_of(error)
    said = GERMAN.say(message)
    assert isinstance(message, Text) and "{" not in said and said != str(error), (str(error), said)
    assert not ENGLISH.search(said), (str(error), said)
    return said


def _refusal(text: str) -> PositionError:
    with pytest.raises(PositionError) as caught:
        Game.from_text(text)
    return caught.value


def test_undo_with_no_move_made_is_refused_in_german_by_gate_and_canfield() -> None:
    for variant in ("gate", "little-gate", "canfield"):
        with pytest.raises(IllegalMove) as caught:
            Game.new(variant, deal=5).undo()
        assert str(caught.value) == "There is no move to take back"
        assert german(caught.value) == "Es gibt keinen Zug zum Zurücknehmen"


@pytest.mark.parametrize(("options", "english", "said"), [
    (("passes-1", "passes-2", "draw-one"), "Canfield takes one of passes-1 and passes-2, not both",
     "Canfield nimmt entweder passes-1 oder passes-2, nicht beide"),
    (("passes-2",), "passes-1 and passes-2 go with draw-one: turning three at a time, the passes are unlimited",
     "passes-1 und passes-2 gehen nur mit draw-one: Wer je drei Karten umdreht, hat unbegrenzt viele Durchgänge"),
    (("kit",), "Canfield has no option 'kit': its options are draw-one, passes-1, passes-2, partial-moves",
     "Canfield hat keine Option 'kit': Seine Optionen sind draw-one, passes-1, passes-2, partial-moves"),
])
def test_canfields_option_conflicts_are_german(options: tuple[str, ...], english: str, said: str) -> None:
    with pytest.raises(UnknownVariant) as caught:
        Game.new("canfield", deal=1, options=options)
    assert str(caught.value) == english
    assert german(caught.value) == said


@pytest.mark.parametrize("deal", [0, -3, MAX_DEAL + 1])
def test_a_deal_number_outside_the_numbering_is_refused_in_german(deal: int) -> None:
    with pytest.raises(DealNumberError) as caught:
        shuffle(deal, range(52))
    assert str(caught.value) == f"Deal numbers run from 1 to {MAX_DEAL}, not {deal}."
    assert german(caught.value) == f"Spielnummern gehen von 1 bis {MAX_DEAL}, nicht {deal}."


def test_a_position_error_keeps_its_english_and_names_the_suit_in_german() -> None:
    lines = Game.new("gate", deal=1).to_text().splitlines()
    refused = _refusal("\n".join("F: AD - - -" if line.startswith("F:") else line for line in lines))
    assert str(refused) == "Line F: AD is in the clubs place; foundations are listed in the order C D H S"
    assert german(refused) == ("Zeile F: AD steht auf dem Platz für Kreuz; die Ablagestapel stehen in der "
                               "Reihenfolge C D H S")


def _mutated(draw: st.DrawFn) -> str:
    variant = draw(st.sampled_from(["gate", "little-gate", "canfield", "archway"]))
    options = {"canfield": ("draw-one", "passes-2"), "archway": ("kit",)}.get(variant, ())
    game = Game.new(variant, deal=draw(st.integers(1, 30)), options=draw(st.sampled_from([(), options])))
    lines = game.to_text().splitlines()
    for _edit in range(draw(st.integers(1, 3))):
        # Mostly a wrong word on a pile line, so the refusals of each line's contents come up often.
        kind = draw(st.sampled_from(["word"] * 4 + ["copy"] * 3 + ["drop", "line", "label"]))
        where = draw(st.integers(0 if kind in ("drop", "line", "label") else 1, len(lines) - 1))
        words = lines[where].split()
        if kind == "drop" and len(lines) > 1:
            del lines[where]
        elif kind == "word" and words:
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(WORDS))
            lines[where] = " ".join(words)
        elif kind == "copy":  # a card of one line written on another too
            other = draw(st.sampled_from(lines)).split()[1:] or ["-"]
            lines[where] = f"{lines[where]} {draw(st.sampled_from(other))}"
        elif kind == "line":
            lines.insert(where, " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=4))))
        elif words:
            lines[where] = " ".join([draw(st.sampled_from(WORDS)), *words[1:]])
    return "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.composite(_mutated)())
def test_every_refusal_of_a_malformed_position_is_all_german(text: str) -> None:
    """Whatever is wrong with a position, of whichever variant, its refusal has no English word in German."""
    try:
        Game.from_text(text)
    except UserError as error:
        assert isinstance(error, PositionError), error
        said = german(error)
        assert said.startswith(("Zeile ", "Eine Stellung von ", "Der Stellung fehlen ", "Die Stellung ist leer")), said
