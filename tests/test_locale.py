"""The catalogues and the translator: choosing a language, saying a message in it, and a complete German.

The completeness tests read the catalogues as files (Babel's ``read_po``), and run the same
extraction ``scripts/catalogue.py`` runs, so a sentence marked in the code but missing from
a catalogue, an untranslated or fuzzy entry, or a ``.mo`` that lags its ``.po`` fails here.
"""

from __future__ import annotations

import gettext
import importlib.util
import pickle
import re
import string
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.locale import LANGUAGES, language_of, terminal_locale, translator
from gatebot.messages import N_, Day, Number, Text, _, joined, message_of, n_
from gatebot.rules import Game, IllegalMove, Move
from gatebot.rules.cards import CARD_WORDS

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "gatebot" / "locale"
#: A placeholder a translation may use though its English doesn't: a card in a sentence is its symbol in English.
EXTRA_FIELDS = {("card in a sentence", "{symbol}"): {"rank", "suit"}}


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("catalogue", ROOT / "scripts" / "catalogue.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _catalogue(language: str) -> Catalog:
    with (LOCALE / language / "LC_MESSAGES" / "gatebot.po").open("rb") as po:
        return read_po(po, locale=language)


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.fixture(scope="module")
def template() -> Catalog:
    return _script().template()


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("de", "de"), ("de-DE", "de"), ("de-AT", "de"), ("de_CH.UTF-8", "de"), ("de_DE@euro", "de"),
        ("en-US", "en"), ("en-GB", "en"), ("pt-BR", "en"), ("fr", "en"), ("C", "en"), ("POSIX", "en"),
        ("C.UTF-8", "en"), ("", "en"), (None, "en"), ("not a locale!", "en"),
    ],
)
def test_a_locale_gets_its_language_or_english(locale: str | None, language: str) -> None:
    assert language_of(locale) == language
    assert translator(locale).language == language


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=20))
def test_any_locale_text_gets_a_language_and_never_an_error(text: str) -> None:
    assert language_of(text) in ("en", *LANGUAGES)


@pytest.mark.parametrize(
    ("environ", "locale"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de_DE.UTF-8"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "de_DE.UTF-8"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": "C"}, "C"),
        ({"LANG": "en_GB.UTF-8", "LANGUAGE": "fr:de"}, "de"),
        ({"LANGUAGE": "", "LANG": "de_AT.UTF-8"}, "de_AT.UTF-8"),
        ({}, None),
    ],
)
def test_the_terminal_asks_in_gettexts_order(environ: dict[str, str], locale: str | None) -> None:
    assert terminal_locale(environ) == locale


def test_every_catalogue_is_complete_with_nothing_fuzzy() -> None:
    languages = sorted(path.parent.parent.name for path in LOCALE.glob("*/LC_MESSAGES/gatebot.po"))
    assert languages == sorted(LANGUAGES) == ["de"]
    for language in languages:
        catalogue = _catalogue(language)
        assert len(catalogue) > 200
        untranslated = [m.id for m in catalogue if m.id and not all(m.string if isinstance(m.string, tuple)
                                                                     else [m.string])]
        fuzzy = [m.id for m in catalogue if m.id and m.fuzzy]
        assert untranslated == [] and fuzzy == [], (language, untranslated, fuzzy)


def test_every_message_the_code_marks_is_in_every_catalogue_and_the_committed_template(template: Catalog) -> None:
    wanted = {(m.context, m.id) for m in template if m.id}
    assert (None, "Dealt {game} deal {deal}.") in wanted  # the service's
    assert (None, "{card} can't go on {top}: nothing builds on an Ace") in wanted  # the rules'
    assert ("command", "new") in wanted  # a slash command's name
    for language in LANGUAGES:
        have = {(m.context, m.id) for m in _catalogue(language) if m.id}
        assert sorted(wanted - have, key=str) == [], f"{language} lacks these: run scripts/catalogue.py"
    with (LOCALE / "gatebot.pot").open("rb") as pot:
        committed = {(m.context, m.id) for m in read_po(pot) if m.id}
    assert committed == wanted, "gatebot.pot is stale: run scripts/catalogue.py"


def test_every_translation_fills_the_places_its_english_has() -> None:
    for language in LANGUAGES:
        for message in _catalogue(language):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            allowed = set().union(*map(_fields, ids)) | EXTRA_FIELDS.get((message.context, ids[0]), set())
            for text in strings:
                assert _fields(text) <= allowed, (language, message.id, text)


def test_each_compiled_catalogue_says_what_its_po_says() -> None:
    for language in LANGUAGES:
        with (LOCALE / language / "LC_MESSAGES" / "gatebot.mo").open("rb") as mo:
            compiled = gettext.GNUTranslations(mo)
        for message in _catalogue(language):
            if not message.id:
                continue
            if isinstance(message.id, tuple):
                for n, form in ((1, 0), (5, 1)):
                    assert compiled.ngettext(*message.id, n) == message.string[form], message.id
            elif message.context:
                assert compiled.pgettext(message.context, message.id) == message.string, message.id
            else:
                assert compiled.gettext(message.id) == message.string, message.id


def test_a_rules_refusal_is_said_in_german_with_the_cards_named_and_stays_english_for_english() -> None:
    game = Game.new("gate", deal=5)  # column 1 holds 9♣, column 2 K♥
    with pytest.raises(IllegalMove) as caught:
        game.validate(Move.from_text("12"))
    message = message_of(caught.value)
    assert str(caught.value) == "9♣ can't go on K♥: it takes a black Q"
    assert translator("en-GB").say(message) == str(caught.value)
    assert translator("de").say(message) == "Kreuz-Neun kann nicht auf Herz-König: Darauf passt eine schwarze Dame"


def test_counts_take_the_languages_plural_and_parts_are_each_translated() -> None:
    de = translator("de")
    one, five = n_("{n} move", "{n} moves", 1), n_("{n} move", "{n} moves", 5)
    assert (one, five) == ("1 move", "5 moves")
    assert (de.say(one), de.say(five)) == ("1 Zug", "5 Züge")
    both = joined(_("Still winnable."), _("Win streak: {streak}.", streak=3))
    assert both == "Still winnable. Win streak: 3."
    assert de.say(both) == "Noch gewinnbar. Siegesserie: 3."
    reasons = joined(_("it empties the waste"), _("an Ace is always safe to put up"), sep=N_(", and "))
    assert reasons == "it empties the waste, and an Ace is always safe to put up"
    assert de.say(reasons) == "das leert den Abwurfstapel, und ein Ass kann immer gefahrlos abgelegt werden"


def test_a_players_own_words_are_never_looked_up() -> None:
    # "free" is a catalogue entry (a words board's), but here it is what someone typed.
    refusal = _("{game} has no pile called {name}", game="Gate", name="free")
    assert translator("de").say(refusal) == "Gate hat keinen Stapel namens free"


def test_a_plain_english_sentence_is_looked_up_and_an_unknown_one_stays_as_it_is() -> None:
    de = translator("de")
    assert de.say("Still winnable.") == "Noch gewinnbar."
    assert de.say("Nobody wrote this down.") == "Nobody wrote this down."
    assert de.say("") == ""


def test_a_message_crosses_a_process_boundary_whole() -> None:
    text = _("{card} is on top of {pile}", card=CARD_WORDS[0], pile=_("column {number}", number=3))
    copied = pickle.loads(pickle.dumps(text))
    assert isinstance(copied, Text) and copied == text == "A♣ is on top of column 3"
    assert translator("de").say(copied) == translator("de").say(text) == "Kreuz-Ass liegt oben auf Spalte 3"


def test_a_message_keeps_its_english_exactly_as_before() -> None:
    # The English of a Text is the format of its msgid: nothing else changes for English readers.
    text = _("Column {column} holds only {n} card", column=3, n=1)
    assert re.fullmatch(r"Column 3 holds only 1 card", text)
    assert message_of(ValueError(text)) is text
    assert message_of(ValueError("plain")) == "plain"


def test_canfields_refusals_are_german_too() -> None:
    game = Game.new("canfield", deal=1)
    with pytest.raises(IllegalMove) as caught:
        game.validate(Move.from_text("91"))
    assert str(caught.value) == "Pile 9 doesn't exist: Canfield has tableau piles 1–4"
    assert translator("de").say(message_of(caught.value)) == "Stapel 9 gibt es nicht: Canfield hat die Stapel 1–4"


@settings(max_examples=80, deadline=None)
@given(st.floats(0, 1), st.integers(0, 2), st.booleans())
def test_a_number_reads_alike_in_english_and_german_but_for_the_comma_and_the_space_before_percent(
    value: float, digits: int, percent: bool
) -> None:
    shown = value if percent else value * 52  # a share, or an average score out of 52: never a thousand
    said = _("Average {x}", x=Number(shown, digits, percent=percent))
    english = format(shown, f".{digits}{'%' if percent else 'f'}")
    assert said == translator("en").say(said) == f"Average {english}"
    german = english.replace(".", ",").replace("%", "\u00a0%")
    assert translator("de").say(said) == f"Average {german}"


def test_a_date_in_a_sentence_is_written_each_languages_way() -> None:
    said = _("Daily {day}", day=Day.of(date(2026, 3, 5)))
    assert said == translator("en").say(said) == "Daily 5 Mar 2026"
    assert translator("de").say(said) == "Tagesherausforderung 5. März 2026"
    december = _("Daily {day}", day=Day.of(date(2026, 12, 24)))
    assert translator("de").say(december) == "Tagesherausforderung 24. Dezember 2026"
