"""How often each variant's deals can be won, as measured, and what a player is told of it at the deal.

The figures are the solver's, over whole runs of deals (each cited where it is listed), and
they live here only: the deal's note and the web's New deal dialog read them from
:func:`deal_odds`. A deal of a variant seldom won says so at once, with the command that deals
one proven winnable, so nobody plays a dozen lost deals before learning that most are lost.

Proven deals are offered, not dealt by default: for the variants under
:data:`PROVEN_DEFAULT_BELOW` the shipped lists hold a handful of deals (Little Gate 11, Archway
4) and a random deal is rarely proved on the spot, so a proven default would deal the same few
games again and again (docs/solver.md, "Proven deals at the deal").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

from gatebot.messages import Number, _, joined, n_
from gatebot.rules import Game
from gatebot.service.advice import DealCommand


@dataclass(frozen=True, slots=True)
class Odds:
    """About ``won`` deals in ``out_of`` can be won (rounded from a measured share, as a person says it)."""

    won: int
    out_of: int

    @property
    def share(self) -> float:
        return self.won / self.out_of


#: Measured winnability by (variant, options); a variant or option set not listed has no figure yet.
WINNABLE = MappingProxyType({
    # docs/solver.md, "Gate: the column-chains cut, and deals 1-10,000": 9,919 of the 9,958 deals the
    # compiled search decided within 10 s (two runs) are winnable, 39 lost (99.0%-99.7% of all deals).
    ("gate", ()): Odds(99, 100),
    # docs/solver.md, "How winnable is Little Gate?": 12 of the 999 decided deals 1-1000 are
    # winnable, 1.2% (0.7%-2.2% of all deals).
    ("little-gate", ()): Odds(1, 100),
    # docs/figures.md, Canfield deals 1-2000: 1,313 winnable, 676 lost, 11 undecided, 65.6%-66.2%;
    # Blake & Gent give 67.562% for the same rules.
    ("canfield", ()): Odds(2, 3),
    # docs/figures.md, "Archway, deals 1-1000": 4 winnable, 975 lost, 21 undecided, 0.41% of the
    # decided deals (0.16%-1.05%).
    ("archway", ()): Odds(4, 1000),
    # rules/archway: with kit a column's card may go back to the arch, and every deal can be won.
    ("archway", ("kit",)): Odds(1, 1),
})

#: A deal of a variant won less often than this says how often, and offers a proven deal.
TOLD_BELOW = 0.9
#: Below this share a proven deal would be the default if the lists were long enough (they aren't: see above).
PROVEN_DEFAULT_BELOW = 0.05


def deal_odds(variant: str, options: Iterable[str] = ()) -> Odds | None:
    """The measured winnability of ``variant`` dealt with ``options``; None where none was measured."""
    return WINNABLE.get((variant, tuple(options)))


def chance_sentence(game: type[Game], odds: Odds) -> str:
    """The deal's share as a person says it: ``About 1 deal in 100 of Little Gate can be won.``."""
    out_of = Number(odds.out_of)
    return n_("About {n} deal in {out_of} of {game} can be won.", "About {n} deals in {out_of} of {game} can be won.",
              odds.won, out_of=out_of, game=game.title)


def odds_note(game: Game, deal_command: DealCommand, *, proven_offered: bool) -> str | None:
    """For a fresh deal of a variant seldom won: how often it can be, and how to get a deal that can.

    ``proven_offered``: a proven deal can be dealt for this variant and options (its solver
    plays it), so the note names the command for one; the variant's always-winnable option,
    if it has one, is named too. None for a variant won often enough, or with no figure.
    """
    cls = type(game)
    odds = deal_odds(game.name, game.options)
    if odds is None or odds.share >= TOLD_BELOW:
        return None
    chance = chance_sentence(cls, odds)
    if not proven_offered:
        return chance
    proven = deal_command(cls, game.options, True)
    easier = cls.always_winnable_option
    if easier is not None and not game.options:
        return joined(chance, _("For a deal proven winnable, use {proven}; with {easier}, every deal can be won.",
                                proven=proven, easier=deal_command(cls, (easier,), False)))
    return joined(chance, _("For a deal proven winnable, use {proven}.", proven=proven))


def proven_sentence() -> str:
    """What a deal the solver proved winnable says of itself."""
    return _("This deal is proven winnable: the solver found a win.")
