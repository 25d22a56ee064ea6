"""The variants gatebot plays: one explicit list, and lookup by name or alias.

Adding a game of the family means writing its rules module, its board drawings
(``gatebot/render/<family>``) and, if it has one, its solver (``gatebot/solver/<family>``),
then adding its class to :data:`VARIANTS`; the contract tests (``tests/test_variants.py``)
walk this list, so a missing piece fails a test rather than a player.
"""

from __future__ import annotations

from gatebot.messages import _
from gatebot.rules.archway import ArchwayGame
from gatebot.rules.canfield import CanfieldGame
from gatebot.rules.errors import UnknownVariant, quoted
from gatebot.rules.game import Game
from gatebot.rules.gate import GateGame, LittleGateGame

#: Every variant, in the order menus list them (the first is the default).
VARIANTS: tuple[type[Game], ...] = (GateGame, LittleGateGame, CanfieldGame, ArchwayGame)
#: The variant a game is dealt in when nobody says.
DEFAULT_VARIANT = VARIANTS[0].name


def _key(name: str) -> str:
    """A typed name made comparable: any case, spaces and underscores as hyphens."""
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


_BY_NAME: dict[str, type[Game]] = {
    _key(word): variant
    for variant in VARIANTS
    for word in (variant.name, variant.title, *variant.aliases)
}


def variant_names() -> tuple[str, ...]:
    """The name of every variant, as position text and commands write it."""
    return tuple(variant.name for variant in VARIANTS)


def find_variant(name: str) -> type[Game]:
    """The class that plays ``name`` (a name, title or alias in any case); :class:`UnknownVariant` if none."""
    try:
        return _BY_NAME[_key(name)]
    except KeyError:
        known = ", ".join(variant_names())
        raise UnknownVariant(_("There is no variant called {name}: choose one of {known}", name=quoted(name),
                                 known=known)) from None


Game.find_variant = staticmethod(find_variant)
