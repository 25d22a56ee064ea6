"""The restart schedule the depth-first searches share (Gate's and Canfield's)."""

from __future__ import annotations


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence (1 1 2 1 1 2 4 1 1 2 …).

    A search that restarts after a budget times this sequence wastes least when nothing is
    known about how long a run needs.
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)
