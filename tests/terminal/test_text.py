"""Service messages made fit for a terminal: markup out, every word kept, lines within the width."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.terminal.text import plain, wrap

WORD = re.compile(r"[^\W_]+")
#: Text full of the marks that matter, among ordinary words and spaces.
marked = st.lists(st.sampled_from([*"ab7♥ \n*`_~|>", "**", "``", "```", "word"]), max_size=30).map("".join)


@settings(max_examples=150, deadline=None)
@given(st.one_of(marked, st.text(max_size=60)))
def test_no_code_or_bold_mark_survives_and_every_word_does(text: str) -> None:
    shown = plain(text)
    assert "`" not in shown and "**" not in shown
    assert WORD.findall(shown) == WORD.findall(text)


def test_the_service_s_markup_becomes_plain_words() -> None:
    assert plain("Hint: **12** cards, then `3f`.") == "Hint: 12 cards, then 3f."
    assert plain("*empty* (one pass, no redeal)") == "empty (one pass, no redeal)"
    assert plain("__first__ and ~~gone~~ and ||secret||") == "first and gone and secret"
    assert plain("3 * 4 and 2*3 stay") == "3 * 4 and 2*3 stay"
    assert plain("a*`*a") == "a a"  # the dropped backtick leaves a bold mark, which goes too


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=12), max_size=40),
       st.integers(min_value=20, max_value=90), st.sampled_from(["", "  ", "    "]))
def test_wrapped_lines_fit_and_keep_the_words_in_order(words: list[str], width: int, indent: str) -> None:
    text = indent + " ".join(words)
    lines = wrap(text, width).split("\n")
    assert all(len(line) <= width for line in lines)
    assert " ".join(lines).split() == text.split()
    assert all(line.startswith(indent + "  ") for line in lines[1:])  # continuations sit deeper


def test_without_a_width_nothing_is_wrapped() -> None:
    long = "word " * 40
    assert wrap(long, None) == long
