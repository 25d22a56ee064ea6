"""The service layer: the only code that loads, changes and saves games (no Discord types here).

Its names are imported on first use (PEP 562), not with the package: a hint worker imports
:mod:`gatebot.service.workers`, which loads this package first, and must not load the games,
the store and SQLAlchemy with it (see :mod:`gatebot.service.workers`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gatebot.service.games import BOARD_STYLES, GameChange, GameDamaged, GameService, Preferences, replay
    from gatebot.service.replies import Actor, Reply, ReplyKind
    from gatebot.store.models import ChallengeKind, GameStatus, Rule

#: Each name this package gives, and the module it comes from.
_HOMES = {
    "BOARD_STYLES": "gatebot.service.games",
    "GameChange": "gatebot.service.games",
    "GameDamaged": "gatebot.service.games",
    "GameService": "gatebot.service.games",
    "Preferences": "gatebot.service.games",
    "replay": "gatebot.service.games",
    "Actor": "gatebot.service.replies",
    "Reply": "gatebot.service.replies",
    "ReplyKind": "gatebot.service.replies",
    "ChallengeKind": "gatebot.store.models",
    "GameStatus": "gatebot.store.models",
    "Rule": "gatebot.store.models",
}

__all__ = [
    "BOARD_STYLES",
    "Actor",
    "ChallengeKind",
    "GameChange",
    "GameDamaged",
    "GameService",
    "GameStatus",
    "Preferences",
    "Reply",
    "ReplyKind",
    "Rule",
    "replay",
]


def __getattr__(name: str) -> Any:
    """Import the module that holds ``name`` when it is first asked for (``from gatebot.service import X``)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
