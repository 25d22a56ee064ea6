"""Whole numbers typed by people: ASCII digits only, and no conversion of thousands of digits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.digits import MAX_DIGITS, parse_whole, shown


@pytest.mark.parametrize(
    ("text", "number"),
    [("7", 7), (" 42 ", 42), ("007", 7), ("0", 0), ("000", 0), ("18446744073709551615", 2**64 - 1),
     ("0" * 5000 + "5", 5), ("", None), ("  ", None), ("-1", None), ("+1", None), ("1.5", None),
     ("1_000", None), ("١٢", None), ("²", None), ("9" * 4301, None), ("9" * (MAX_DIGITS + 1), None)],
)
def test_parse_whole(text: str, number: int | None) -> None:
    assert parse_whole(text) == number


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_is_a_number_or_none(text: str) -> None:
    number = parse_whole(text)
    stripped = text.strip()
    if number is None:
        assert not (stripped.isascii() and stripped.isdigit()) or len(stripped.lstrip("0")) > MAX_DIGITS
    else:
        assert str(number) == (stripped.lstrip("0") or "0")


def test_max_digits_is_the_callers_limit() -> None:
    assert parse_whole("12345", max_digits=4) is None
    assert parse_whole("01234", max_digits=4) == 1234


def test_shown_cuts_long_text_and_says_how_long() -> None:
    assert shown("abc") == "'abc'"
    long = shown("9" * 4301)
    assert len(long) < 80 and "4,301 characters" in long
