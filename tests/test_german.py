"""German as a German player reads it: refusals that name a wanted card inflect it, the command words, the catalogue.

The grammar is checked against German's own rules, written out here rather than read from
gatebot: a rank's gender (der Bube, der König, das Ass, die Dame and die Zwei … Zehn) decides
its article and the adjective's ending, "ein schwarzer Bube", "ein rotes Ass", "eine schwarze
Zehn". Every refusal that names the card a pile takes goes through real moves in real deals.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.errors import UserError
from gatebot.locale import translator
from gatebot.locale.commands import GERMAN, WORDS, command_of, spelled_out
from gatebot.messages import message_of
from gatebot.rules import Game, IllegalMove, Move
from gatebot.rules.canfield.checks import why_not_on as canfield_why_not_on
from gatebot.rules.gate.checks import why_not_on as gate_why_not_on
from gatebot.rules.notation import split_phrases
from gatebot.terminal.guide import COMMANDS

ROOT = Path(__file__).resolve().parents[1]
DE = translator("de")
#: Each German rank noun and its gender: m (der), f (die) or n (das).
GENDER = {"Ass": "n", "Zwei": "f", "Drei": "f", "Vier": "f", "Fünf": "f", "Sechs": "f", "Sieben": "f",
          "Acht": "f", "Neun": "f", "Zehn": "f", "Bube": "m", "Dame": "f", "König": "m"}
#: The indefinite article and the adjective's ending after it, in the nominative, by gender.
NOMINATIVE = {"m": ("ein", "er"), "f": ("eine", "e"), "n": ("ein", "es")}
WANTED = re.compile(r"Darauf passt (\w+) (schwarz|rot)(\w*) (\w+)")
RANK_NOUNS = tuple(GENDER)


def _catalogue() -> list:
    with (ROOT / "gatebot" / "locale" / "de" / "LC_MESSAGES" / "gatebot.po").open("rb") as po:
        return [message for message in read_po(po, locale="de") if message.id]


def assert_grammatical(german: str, *, red_top: bool) -> None:
    """``german`` names the card a pile takes with its article and adjective agreeing with the rank's gender."""
    found = WANTED.search(german)
    assert found is not None, german
    article, colour, ending, noun = found.groups()
    assert noun in GENDER, german
    assert (article, ending) == NOMINATIVE[GENDER[noun]], german
    assert colour == ("schwarz" if red_top else "rot"), german  # a red card takes a black one, and so on
    assert not re.search(r"\b[AJQKT]\b|\b\d+\b", german.split("Darauf passt", 1)[1]), german  # no letter left


@settings(max_examples=300, deadline=None)
@given(card=st.integers(0, 51), top=st.integers(4, 51))
def test_every_gate_refusal_naming_a_wanted_card_is_grammatical(card: int, top: int) -> None:
    said = DE.say(gate_why_not_on(card, top))
    if "Darauf passt" in said:
        assert_grammatical(said, red_top=(top & 3) in (1, 2))


@settings(max_examples=300, deadline=None)
@given(card=st.integers(0, 51), top=st.integers(0, 51))
def test_every_canfield_refusal_naming_a_wanted_card_is_grammatical(card: int, top: int) -> None:
    said = DE.say(canfield_why_not_on(card, top))
    if "Darauf passt" in said:
        assert_grammatical(said, red_top=(top & 3) in (1, 2))


def test_every_rank_and_colour_is_asked_for_somewhere_and_reads_right() -> None:
    seen = set()
    for top in range(4, 52):
        said = DE.say(gate_why_not_on(0 if top >= 8 else 48, top))
        if "Darauf passt" in said:
            assert_grammatical(said, red_top=(top & 3) in (1, 2))
            seen.add(WANTED.search(said).group(2, 4))  # type: ignore[union-attr]
    assert seen == {(colour, noun) for colour in ("schwarz", "rot") for noun in RANK_NOUNS if noun != "König"}


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(["gate", "little-gate", "canfield"]), deal=st.integers(1, 30_000),
       move=st.sampled_from(["12", "13", "21", "24", "31", "34", "42", "43", "15", "51", "26", "62", "37", "73"]))
def test_a_refused_move_in_a_real_deal_names_the_wanted_card_grammatically(variant: str, deal: int, move: str) -> None:
    game = Game.new(variant, deal=deal)
    try:
        game.validate(Move.from_text(move))
    except (IllegalMove, UserError) as refused:
        said = DE.say(message_of(refused))
        assert "{" not in said and " it takes " not in said, said
        if "Darauf passt" in said and "(auf ein Ass passt ein König)" not in said:
            assert WANTED.search(said) is not None, said
            article, _, ending, noun = WANTED.search(said).groups()  # type: ignore[union-attr]
            assert (article, ending) == NOMINATIVE[GENDER[noun]], said


# -- command words ---------------------------------------------------------------------------------


@given(command=st.sampled_from(sorted(GERMAN)), data=st.data())
def test_every_german_word_names_its_command_in_any_case_and_without_umlauts(command: str, data: st.DataObject) -> None:
    word = data.draw(st.sampled_from(GERMAN[command]))
    typed = data.draw(st.sampled_from([word, spelled_out(word), word.upper(), spelled_out(word).title()]))
    assert command_of(typed) == command
    assert command_of(command.upper()) == command  # the English name stays itself


def test_no_german_word_is_a_move_or_another_commands_english_name() -> None:
    english = set(GERMAN)
    for word, command in WORDS.items():
        assert word not in english - {command}, word
        with pytest.raises(UserError):
            list(split_phrases(word, None))


def test_the_terminals_german_command_list_names_only_commands() -> None:
    listed = DE.say("help, moves, hint, undo, restart, new, resign, stats, games, card, quit").split(", ")
    assert {command_of(word) for word in listed} == {"help", "moves", "hint", "undo", "restart", "new", "resign",
                                                     "stats", "games", "card", "quit"}
    assert all(word in WORDS for word in listed), listed


# -- the catalogue ---------------------------------------------------------------------------------


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_translation_keeps_every_place_of_its_english() -> None:
    for message in _catalogue():
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        needed = set().union(*map(_fields, ids))
        if message.context == "card in a sentence":
            continue  # the symbol in English, the suit and rank in German
        for form, text in enumerate(strings):
            if isinstance(message.id, tuple) and form == 0:
                needed_here = needed - {"n"}  # "eine Karte": the singular may leave the count out
                assert needed_here <= _fields(text) <= needed, (message.id, text)
            else:
                assert _fields(text) == needed, (message.id, text)


def test_command_names_are_what_discord_takes() -> None:
    for message in _catalogue():
        if message.context == "command" and re.fullmatch(r"[-_a-z]+", message.id):
            assert re.fullmatch(r"[-_\w]{1,32}", message.string) and message.string == message.string.lower(), (
                message.id, message.string)


#: Words the glossary (docs/german.md) replaced, as they must not come back in a German sentence.
RETIRED = re.compile(r"\b(Challenges?|DMs?|Layout|Upgrade|Leaderboard|Hints?|Undo|Replay|Deal)\b|Share-")


def test_no_retired_anglicism_is_left_in_a_german_sentence() -> None:
    for message in _catalogue():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            prose = re.sub(r"`[^`]*`|\{[^}]*\}|„[^“]*“", "", text)  # commands, places and quoted names are not prose
            assert not RETIRED.search(prose), (message.id, text)


def test_a_sentence_after_a_colon_starts_with_a_capital_when_it_is_an_order() -> None:
    orders = re.compile(r": (bitte|versuch|drück|wähl|schließ|schick|gib|sag|nimm|starte|beende|öffne|lade) ")
    for message in _catalogue():
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            assert not orders.search(text), (message.id, text)


def test_the_terminals_help_names_each_command_by_words_that_work() -> None:
    for typed, _ in COMMANDS:
        for language in (DE, translator("en")):
            words = [word for word in language.say(typed).split(", ") if word not in ("u", "h", "?", "q")]
            english = command_of(typed.split(", ")[0])
            assert {command_of(word) for word in words} == {english}, (typed, language.say(typed))
