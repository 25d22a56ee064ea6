"""Whole numbers typed by people (arguments, settings, commands), read without surprises.

``int()`` accepts more than a person means (``"١٢"``, ``" 7 "``, ``"1_000"``) and refuses a
string of more than 4,300 digits with a ``ValueError`` about ``sys.set_int_max_str_digits``
instead of saying the number is too big. :func:`parse_whole` takes ASCII digits only and
reads no more of them than the caller's largest number can have, so every answer is a
number or None, whatever the text and however long. Pure: no I/O.
"""

from __future__ import annotations

#: Enough digits for any 64-bit number (Discord's snowflakes included): 18,446,744,073,709,551,615.
MAX_DIGITS = 20


def parse_whole(text: str, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` spells in ASCII digits (spaces around allowed), or None.

    None as well when it has more than ``max_digits`` digits after its leading zeros, so a
    caller checking a range never converts a number of thousands of digits.
    """
    text = text.strip()
    if not text or not (text.isascii() and text.isdigit()):
        return None
    significant = text.lstrip("0") or "0"
    if len(significant) > max_digits:
        return None
    return int(significant)


def shown(text: str, limit: int = 40) -> str:
    """``repr(text)`` for a message, cut to about ``limit`` characters with its length said when longer."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"
