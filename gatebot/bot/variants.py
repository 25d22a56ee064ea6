"""The variants and their rule options as slash-command parameters, shared by ``/gate`` and ``/challenge``.

One list of variant choices and one set of option flags, so a new variant or option is
added once and every command that deals a game offers it. Each flag belongs to one
variant (the description says which); a flag the chosen variant lacks reaches the rules
core, which refuses it in one sentence ("Gate has no option 'kit': its options are …").
"""

from __future__ import annotations

from discord import app_commands

VARIANTS = [
    app_commands.Choice(name="Gate", value="gate"),
    app_commands.Choice(name="Little Gate", value="little-gate"),
    app_commands.Choice(name="Canfield", value="canfield"),
    app_commands.Choice(name="Archway", value="archway"),
]
#: What the ``variant`` parameter says.
VARIANT_HELP = "Gate, Little Gate, Canfield or Archway"
#: What each option flag says, by parameter name, for ``app_commands.describe``.
OPTION_HELP = {
    "single_moves": "Gate: only top cards move, no runs",
    "stock_fill": "Gate: an emptied column takes the next stock card once the waste is empty",
    "draw_one": "Canfield: turn the stock one card at a time (3 passes)",
    "passes": "Canfield with draw_one: 1 or 2 passes through the stock instead of 3",
    "partial_moves": "Canfield: part of a pile may move, not only the whole pile",
    "kit": "Archway: a column's card may go back to the arch",
}


def rule_options(
    *,
    single_moves: bool = False,
    stock_fill: bool = False,
    draw_one: bool = False,
    passes: int | None = None,
    partial_moves: bool = False,
    kit: bool = False,
) -> tuple[str, ...]:
    """The rule options the flags ask for, by their names in the rules (``draw-one``, ``passes-1``, ``kit``)."""
    chosen = {
        "single-moves": single_moves,
        "stock-fill": stock_fill,
        "draw-one": draw_one,
        f"passes-{passes}": passes is not None,
        "partial-moves": partial_moves,
        "kit": kit,
    }
    return tuple(name for name, wanted in chosen.items() if wanted)
