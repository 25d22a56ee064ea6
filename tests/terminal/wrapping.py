"""What a person sees of a wrapped text: lines within the screen, and no paragraph broken twice or early."""

from __future__ import annotations


def badly_wrapped(text: str, width: int) -> list[str]:
    """The lines of ``text`` that overflow ``width``, or that left room for the next line's first word.

    A line indented deeper than the first line of its paragraph continues it. Wrapped once and
    greedily, every line but a paragraph's last is full: the next word would not have fitted.
    A text wrapped twice (to about 80 columns, then again to the screen) leaves short lines
    between long ones, and every such line is named. A line ending in a colon is a heading
    (its list follows it, indented), so the line after it starts afresh.
    """
    problems = []
    lines = text.splitlines()
    start = 0  # the indentation of the current paragraph's first line
    for number, line in enumerate(lines):
        if len(line) > width:
            problems.append(f"{len(line)} columns: {line!r}")
        indent = len(line) - len(line.lstrip(" "))
        previous = lines[number - 1] if number else ""
        if number and line.strip() and indent > start and previous.strip() and not previous.endswith(":"):
            first = line.split()[0]
            if len(previous) + 1 + len(first) <= width:
                problems.append(f"ragged: {previous!r} had room for {first!r}")
        else:
            start = indent
    return problems
