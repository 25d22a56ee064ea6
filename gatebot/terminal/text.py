"""Service messages made fit for a terminal: Discord's markup taken out, lines wrapped to its width.

The service words its messages once, for every front end, with Discord's markdown in them
(```` `3f` ````, ``**12** cards``). A terminal shows such marks literally, so they are
removed here, at the terminal's edge, keeping every word; then long lines are wrapped to
the terminal's width, a continued line indented under the one it continues.
"""

from __future__ import annotations

import re
import textwrap

#: ``__underline__``, ``~~struck~~`` and ``||spoiler||`` around words: the pair goes, the words stay.
_PAIRED = re.compile(r"(?<![^\W_])(__|~~|\|\|)(?=\S)(.+?)(?<=\S)\1(?![^\W_])", re.DOTALL)
#: ``*italic*`` between words, not a lone star (``3 * 4``) nor one inside a word.
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])")
#: A code or bold mark between two letters or digits: it becomes a space, so the words stay apart.
_INSIDE = re.compile(r"(?<=[^\W_])(?:`|\*\*)+(?=[^\W_])")
#: A quote's ``> `` at the start of a line.
_QUOTE = re.compile(r"^> ", re.MULTILINE)


def plain(text: str) -> str:
    """``text`` without Discord's markup: no backtick and no ``**`` is left, and every word is.

    Code marks (inline and fenced) and bold marks are all dropped, since a terminal never
    needs them literally from the service (one between two words becomes a space rather
    than joining them); underline, strike-through, spoiler and italic pairs lose their marks.
    """
    # Code marks first, then bold: dropping a backtick can join two stars into a bold mark (a*`*a).
    text = _INSIDE.sub(" ", text).replace("`", "")
    text = _INSIDE.sub(" ", text).replace("**", "")
    previous = None
    while previous != text:  # nested pairs: __~~word~~__
        previous = text
        text = _PAIRED.sub(r"\2", text)
    text = _ITALIC.sub(r"\1", text)
    return _QUOTE.sub("", text)


def wrap(text: str, width: int | None) -> str:
    """Each line of ``text`` wrapped within ``width``, its continuations indented two places deeper.

    A line that fits is left exactly as it is (lists keep their columns); a word longer
    than the width is broken rather than allowed to overflow. No width: ``text`` as it is.
    """
    if width is None:
        return text
    lines = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        lines.extend(textwrap.wrap(line, max(width, len(indent) + 12), subsequent_indent=indent + "  ",
                                   break_on_hyphens=False))
    return "\n".join(lines)
