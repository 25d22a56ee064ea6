"""Whether a name someone chose shows anything at all.

A challenge's name is read in announcements, standings and on every attempt's board. One made
only of characters that draw nothing — spaces of any width, zero-width and other format
characters, control characters, combining marks with no letter to sit on, and the few letters
fonts draw blank (the Hangul fillers, the blank Braille pattern) — would leave a gap where the
name should be, and is refused rather than stored.
"""

from __future__ import annotations

import unicodedata

#: Unicode categories that draw nothing by themselves: separators (spaces, line and paragraph
#: separators), controls, format characters (zero-width space and joiners, bidi marks, the BOM),
#: unassigned code points, surrogates, private use, and combining marks (shown only on a letter).
_UNSEEN_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Cn", "Cs", "Co", "Mn", "Me", "Mc"})
#: Letters and symbols that fonts draw as blank space.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u2062\u2063\u2064\u034f")


def visible(text: str) -> bool:
    """Whether ``text`` has at least one character that draws something on its own."""
    return any(char not in _BLANK and unicodedata.category(char) not in _UNSEEN_CATEGORIES for char in text)
