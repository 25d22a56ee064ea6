"""gatebot's languages: the catalogues, choosing one for a reader, and saying a message in it.

The catalogues are gettext's, one a language, in ``gatebot/locale/<lang>/LC_MESSAGES/gatebot.po``
with its compiled ``gatebot.mo`` beside it (both committed and shipped as package data, so
a clean checkout and the wheel need no build step; ``scripts/catalogue.py`` extracts,
updates and compiles them, and the tests fail when a ``.mo`` lags its ``.po``). English is
gatebot's own language and needs no catalogue: a message id is its English sentence.

:func:`translator` gives the best catalogue for a locale as Discord or a terminal names it
(``de``, ``de-DE``, ``de_AT.UTF-8``, ``en-GB``), English when there is none.
:meth:`Translator.say` turns a message into the reader's words: a
:class:`~gatebot.messages.Text` by its id, its parameters translated too (a card named in
a sentence, a pile's name), a plain string by looking the English sentence up.
"""

from __future__ import annotations

import functools
import gettext
import os
from collections.abc import Callable, Mapping
from decimal import Decimal
from importlib.resources import files

from babel import Locale, UnknownLocaleError
from babel.dates import format_date
from babel.numbers import parse_pattern

from gatebot.messages import Day, Name, Number, Text
from gatebot.render.spoken import RANK_NAMES, SUIT_NAMES
from gatebot.rules.cards import CardWord, RankWord, WantedCard

DOMAIN = "gatebot"
#: The languages with a catalogue, besides English (the source language).
LANGUAGES = ("de",)
ENGLISH = "en"

def language_of(locale: str | None) -> str:
    """The language gatebot speaks to a reader of ``locale``: one it has a catalogue for, else English.

    ``locale`` is what Discord (``de``, ``en-US``, ``pt-BR``) or a terminal (``de_DE.UTF-8``,
    ``C``) calls it; an unknown or malformed one is English.
    """
    if not locale:
        return ENGLISH
    name = locale.split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    if name in ("C", "POSIX"):
        return ENGLISH
    try:
        language = Locale.parse(name).language
    except (ValueError, UnknownLocaleError):
        return ENGLISH
    return language if language in LANGUAGES else ENGLISH


class Translator:
    """One language's catalogue, and saying gatebot's messages in it."""

    def __init__(
        self, language: str, catalogue: gettext.NullTranslations, quote: Callable[[str], str] | None = None
    ) -> None:
        """``quote`` escapes a :class:`~gatebot.messages.Name` in a sentence for a reader whose messages read markup."""
        self.language = language
        self.catalogue = catalogue
        self.quote = quote

    def quoting(self, quote: Callable[[str], str]) -> Translator:
        """The same language, every :class:`~gatebot.messages.Name` in a sentence passed through ``quote``."""
        return Translator(self.language, self.catalogue, quote)

    def gettext(self, message: str, /) -> str:
        return self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int, /) -> str:
        return self.catalogue.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str, /) -> str:
        return self.catalogue.pgettext(context, message)

    def say(self, message: str) -> str:
        """``message`` in this language; what the catalogue lacks stays English."""
        if not isinstance(message, Text):
            return self.gettext(message) if message else message
        if message.parts is not None:
            return self.say(message.sep).join(self.say(part) for part in message.parts)
        if message.plural is not None and message.number is not None:
            template = self.ngettext(message.msgid, message.plural, message.number)
        else:
            template = self.gettext(message.msgid)
        return template.format(**self._params(message.params)) if message.params else template

    def card(self, card: CardWord) -> str:
        """A card named in a sentence: its symbol in English (``K♦``), its full name in German (``Karo-König``)."""
        rank = self.pgettext("card", RANK_NAMES[card.code >> 2])
        suit = self.pgettext("card", SUIT_NAMES[card.code & 3])
        # TRANSLATORS: a card in a sentence; {symbol} is K♦, {rank} "king", {suit} "diamonds".
        return self.pgettext("card in a sentence", "{symbol}").format(symbol=str.__str__(card), rank=rank, suit=suit)

    def rank(self, rank: RankWord) -> str:
        """A rank named in a sentence: its letter in English (``J``), its name in German (``Bube``)."""
        if self.language == ENGLISH:
            return rank
        return self.pgettext("card", RANK_NAMES[rank.rank])

    def wanted(self, wanted: WantedCard) -> str:
        """A card a pile takes: ``a black J`` in English, German ``ein schwarzer Bube``, inflected as the rank needs."""
        if self.language == ENGLISH:
            return wanted
        return self.pgettext("a card a pile takes", wanted.msgid)

    def number(self, number: Number) -> str:
        """A measured number in this language's way (German ``26,5``, ``52 %``), as Babel writes it."""
        locale = Locale.parse(self.language)
        pattern = parse_pattern((locale.percent_formats if number.percent else locale.decimal_formats)[None].pattern)
        pattern.frac_prec = (number.digits, number.digits)
        # Rounded as the English is (Python's float formatting), so a half reads alike in every language.
        rounded = Decimal(format(float(number) * 100 if number.percent else float(number), f".{number.digits}f"))
        return pattern.apply(rounded.scaleb(-2) if number.percent else rounded, locale)

    def _params(self, params: Mapping[str, object]) -> dict[str, object]:
        said: dict[str, object] = {}
        for name, value in params.items():
            if isinstance(value, CardWord):
                said[name] = self.card(value)
            elif isinstance(value, WantedCard):
                said[name] = self.wanted(value)
            elif isinstance(value, RankWord):
                said[name] = self.rank(value)
            elif isinstance(value, Text):
                said[name] = self.say(value)
            elif isinstance(value, Name):
                said[name] = self.quote(value) if self.quote is not None else value
            elif isinstance(value, Number) and self.language != ENGLISH:
                said[name] = self.number(value)
            elif isinstance(value, Day) and self.language != ENGLISH:
                # TRANSLATORS: a date in a sentence, as a Babel (CLDR) pattern: "d MMM y" reads 5 Mar 2026.
                said[name] = format_date(value, self.pgettext("date in a sentence", "d MMM y"), locale=self.language)
            else:
                said[name] = value  # a number, or a player's own words: never looked up
        return said


@functools.cache
def translator(locale: str | None = None) -> Translator:
    """The translator for a reader of ``locale`` (see :func:`language_of`); English by default."""
    language = language_of(locale)
    if language == ENGLISH:
        return Translator(ENGLISH, gettext.NullTranslations())
    directory = files(__name__) / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with directory.open("rb") as mo:
        return Translator(language, gettext.GNUTranslations(mo))


def terminal_locale(environ: Mapping[str, str]) -> str | None:
    """The locale a terminal asks for, in gettext's order: ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``.

    ``LANGUAGE`` is a colon-separated list; its first language gatebot has wins.
    """
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(variable)
        if not value:
            continue
        if variable == "LANGUAGE":
            for choice in value.split(":"):
                if language_of(choice) != ENGLISH or choice.startswith("en"):
                    return choice
            continue
        return value
    return None


def terminal_language(environ: Mapping[str, str] = os.environ) -> Translator:
    """The language of the person at this terminal (:func:`terminal_locale`), for every command that prints to them."""
    return translator(terminal_locale(environ))
