"""Whether a chosen name shows anything: property tests on :func:`gatebot.service.names.visible`."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from gatebot.service.names import visible

#: Characters that draw nothing on their own, by category, and the blank letters fonts leave empty.
UNSEEN = st.characters(categories=("Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me")) | st.sampled_from(
    "\u3164\u115f\u1160\uffa0\u2800\u200b\u200c\u200d\u2060\ufeff"
)
#: Letters, digits, punctuation and symbols that draw something.
SEEN = st.characters(categories=("Lu", "Ll", "Lt", "Lo", "Nd", "Po", "Sm", "So")).filter(
    lambda char: char not in "\u3164\u115f\u1160\uffa0\u2800"
)


@given(st.text(UNSEEN, min_size=1, max_size=40))
def test_a_name_of_only_unseen_characters_is_not_visible(name: str) -> None:
    assert not visible(name)


@given(st.text(UNSEEN, max_size=20), SEEN, st.text(UNSEEN, max_size=20))
def test_one_character_that_shows_makes_a_name_visible(before: str, seen: str, after: str) -> None:
    assert visible(before + seen + after), unicodedata.name(seen, hex(ord(seen)))


def test_letters_with_combining_marks_are_visible_and_marks_alone_are_not() -> None:
    assert visible("Cafe\u0301") and visible("Zürich Cup")
    assert not visible("\u0301\u0308") and not visible("")
