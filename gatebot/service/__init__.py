"""The service layer: the only code that loads, changes and saves games (no Discord types here)."""

from gatebot.service.games import BOARD_STYLES, GameChange, GameDamaged, GameService, Preferences, replay
from gatebot.service.replies import Actor, Reply, ReplyKind
from gatebot.store.models import ChallengeKind, GameStatus, Rule

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
