"""Deals the solver proved winnable, shipped with the package, for ``/gate new winnable:true``.

Each variant's list is ``gatebot/solver/data/<variant>-winnable.txt``: one deal number a
line, ``#`` starting a comment. The lists hold deals without options; a deal with options
plays differently and has to be checked on its own. ``benchmarks/winnable_list.py``
regenerates them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from importlib import resources

DATA_PACKAGE = "gatebot.solver"
DATA_FOLDER = "data"


def list_name(variant: str) -> str:
    """The file name of a variant's list: ``gate-winnable.txt``."""
    return f"{variant}-winnable.txt"


def parse_deal_list(text: str) -> tuple[int, ...]:
    """The deal numbers of a list's text, in order, without comments, blank lines or repeats."""
    seen: dict[int, None] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        word = line.split("#", 1)[0].strip()
        if not word:
            continue
        if not word.isdigit() or int(word) < 1:
            raise ValueError(f"line {number} of a winnable-deal list is not a deal number: {line!r}")
        seen.setdefault(int(word), None)
    return tuple(seen)


@functools.cache
def winnable_deals(variant: str) -> tuple[int, ...]:
    """The deals of ``variant`` (no options) the solver proved winnable; empty when none are listed."""
    path = resources.files(DATA_PACKAGE).joinpath(DATA_FOLDER, list_name(variant))
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ()
    return parse_deal_list(text)


def pick_winnable(variant: str, rng: random.Random, played: Sequence[int] = ()) -> int:
    """A deal of ``variant`` from its winnable list for a player who was dealt ``played`` (oldest first).

    A listed deal the player hasn't had yet, chosen by ``rng``; once they have had them all,
    the one they had longest ago. So a short list (Archway's: few deals are winnable at all)
    deals every listed deal once before any comes back, and a repeat is the deal least fresh
    in mind. ``LookupError`` if none is listed.
    """
    deals = winnable_deals(variant)
    if not deals:
        raise LookupError(f"No winnable deals of {variant} are listed")
    last_dealt = {deal: turn for turn, deal in enumerate(played)}
    fresh = [deal for deal in deals if deal not in last_dealt]
    if fresh:
        return rng.choice(fresh)
    return min(deals, key=last_dealt.__getitem__)
