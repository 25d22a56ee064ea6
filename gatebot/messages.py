"""Sentences for people that a front end can say in its reader's language.

gatebot's sentences are written in English where they arise (the rules' refusals, the
service's answers) and translated only where they are read: the bot knows each reader's
Discord locale, the terminal its ``LANG``, and nothing below them knows either. A
:class:`Text` carries what that needs: it *is* its English sentence (a ``str``, so code and
tests that read it as English keep working), and it remembers its gettext message id, its
parameters and, for a count, the plural form, so :mod:`gatebot.locale` can look the id up in
the reader's catalogue and fill the parameters in, each translated in turn.

Mark a sentence with :func:`_` (its parameters as keywords, named in ``{braces}``),
:func:`n_` for one that counts, :func:`N_` (:func:`NP_` with a context, :func:`NN_` for a pair of
singular and plural) for a constant looked up later, and
build a longer answer from sentences with :func:`joined`: plain ``+`` or an f-string would
keep only the English. ``pybabel extract`` finds the ids through these names (see
``babel.cfg`` and ``scripts/catalogue.py``).

:class:`Language` is what a drawing needs to word itself: a translation's ``gettext``,
``ngettext`` and ``pgettext`` (the standard library's ``gettext.NullTranslations`` is one,
English). Like the rest of this floor, it imports nothing of gatebot's and does no I/O.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from datetime import date
from typing import Protocol


class Text(str):
    """An English sentence that knows its message id and parameters, to be translated where it is read."""

    msgid: str
    plural: str | None
    number: int | None
    params: Mapping[str, object]
    parts: tuple[str, ...] | None
    sep: str

    def __new__(
        cls,
        msgid: str,
        params: Mapping[str, object] | None = None,
        *,
        plural: str | None = None,
        count: int | None = None,
    ) -> Text:
        values = dict(params or {})
        if count is not None:
            values.setdefault("n", count)
        template = plural if plural is not None and count != 1 else msgid
        text = super().__new__(cls, template.format(**values) if values else template)
        text.msgid, text.plural, text.number, text.params = msgid, plural, count, values
        text.parts, text.sep = None, ""
        return text

    @classmethod
    def of_parts(cls, parts: tuple[str, ...], sep: str) -> Text:
        """Sentences said one after another, joined by ``sep``, each translated on its own."""
        text = super().__new__(cls, sep.join(parts))
        text.msgid, text.plural, text.number, text.params = "", None, None, {}
        text.parts, text.sep = parts, sep
        return text

    def recast(self, english: str) -> Text:
        """The same message with its English worded as ``english`` (a first letter lowered for mid-sentence)."""
        text = super().__new__(type(self), english)
        text.__dict__.update(self.__dict__)
        return text


class Number(float):
    """A measured number in a sentence, as each language writes it: ``digits`` after the point, or a percentage.

    In English it reads as Python formats it, thousands grouped (``26.5``, ``1,200``;
    ``percent``: a share of 0.52 reads ``52%``), which is how a :class:`Text` words it; a
    translator writes it its language's way (German ``26,5``, ``1.200`` and ``52 %``). Counts
    stay plain ``int`` (``1200``, the same in every language), and so do numbers that name
    something, like a deal or a game: only a Number is grouped.
    """

    digits: int
    percent: bool

    def __new__(cls, value: float, digits: int = 0, *, percent: bool = False) -> Number:
        number = super().__new__(cls, value)
        number.digits, number.percent = digits, percent
        return number

    def __str__(self) -> str:
        return format(float(self), f",.{self.digits}{'%' if self.percent else 'f'}")

    def __format__(self, spec: str) -> str:
        return format(float(self), spec) if spec else str(self)


class Name(str):
    """Words someone chose, a challenge's or a player's name: never looked up, shown as typed.

    A front end whose messages read markup (Discord's markdown and mentions) escapes them where
    they are said (:meth:`gatebot.locale.Translator.quoting`), so a name reads as its letters
    and never formats a message or pings anyone.
    """


class Day(date):
    """A date in a sentence, as each language writes it: ``5 Mar 2026`` in English, ``5. März 2026`` in German."""

    @classmethod
    def of(cls, day: date) -> Day:
        return cls(day.year, day.month, day.day)

    def __str__(self) -> str:
        return f"{self.day} {self:%b %Y}"

    def __format__(self, spec: str) -> str:
        return super().__format__(spec) if spec else str(self)


def _(msgid: str, /, **params: object) -> Text:
    """Mark ``msgid`` as a sentence to translate, ``{name}`` places filled from ``params``."""
    return Text(msgid, params)


def n_(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """A sentence that counts ``count`` things: ``{n}`` is the count, the form chosen by the reader's language."""
    return Text(singular, params, plural=plural, count=count)


def N_(msgid: str, /) -> str:
    """Mark a constant for extraction only: it is looked up in the catalogue when it is said."""
    return msgid


def NP_(context: str, msgid: str, /) -> str:
    """:func:`N_` for a word whose meaning needs a ``context`` (looked up with ``pgettext``)."""
    return msgid


def NN_(singular: str, plural: str, /) -> tuple[str, str]:
    """:func:`N_` for a sentence that counts: its singular and plural, looked up with ``ngettext`` when said."""
    return singular, plural


def joined(*parts: str | None, sep: str = " ") -> str:
    """``parts`` (the empty and None ones left out) as one answer, each part still translatable."""
    kept = tuple(part for part in parts if part)
    if len(kept) == 1:
        return kept[0]
    return Text.of_parts(kept, sep)


class Language(Protocol):
    """A catalogue's lookups, what a board needs to draw its words in a reader's language."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


#: English, gatebot's own language: every lookup gives back the message id.
ENGLISH: Language = gettext.NullTranslations()


def message_of(error: BaseException) -> str:
    """What ``error`` says, as the :class:`Text` it was raised with when it was (``str()`` keeps only the English)."""
    if error.args and isinstance(error.args[0], Text):
        return error.args[0]
    return str(error)
