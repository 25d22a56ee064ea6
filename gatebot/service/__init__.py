"""The service layer: the only code that loads, changes and saves games (no Discord types here)."""

from gatebot.service.games import BOARD_STYLES, GameDamaged, GameService, Preferences, replay
from gatebot.service.replies import Actor, Reply, ReplyKind

__all__ = [
    "BOARD_STYLES",
    "Actor",
    "GameDamaged",
    "GameService",
    "Preferences",
    "Reply",
    "ReplyKind",
    "replay",
]
