"""The service layer: the only code that loads, changes and saves games (no Discord types here)."""

from gatebot.service.games import GameDamaged, GameService, replay
from gatebot.service.replies import Actor, Reply, ReplyKind

__all__ = ["Actor", "GameDamaged", "GameService", "Reply", "ReplyKind", "replay"]
