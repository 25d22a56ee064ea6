"""The rules of Gate and its family: pure game logic, no I/O (docs/library.md#the-rules-library shows the API).

>>> game = Game.new("gate", deal=1)
>>> game.play("3 > f")  # doctest: +SKIP
"""

from gatebot.rules.archway import ArchwayGame
from gatebot.rules.canfield import CanfieldGame
from gatebot.rules.cards import Card, Suit
from gatebot.rules.deal import MAX_DEAL
from gatebot.rules.errors import (
    AmbiguousMove,
    DealNumberError,
    IllegalMove,
    NotationError,
    PositionError,
    RulesError,
    UnknownVariant,
)
from gatebot.rules.game import Game, LinePlay, Outcome, RuleOption, Termination
from gatebot.rules.gate import GateGame, LittleGateGame
from gatebot.rules.move import DRAW, Move
from gatebot.rules.notation import describe_move
from gatebot.rules.variants import DEFAULT_VARIANT, VARIANTS, find_variant, variant_names

__all__ = [
    "DEFAULT_VARIANT",
    "DRAW",
    "MAX_DEAL",
    "VARIANTS",
    "AmbiguousMove",
    "ArchwayGame",
    "CanfieldGame",
    "Card",
    "DealNumberError",
    "Game",
    "GateGame",
    "IllegalMove",
    "LinePlay",
    "LittleGateGame",
    "Move",
    "NotationError",
    "Outcome",
    "PositionError",
    "RuleOption",
    "RulesError",
    "Suit",
    "Termination",
    "UnknownVariant",
    "describe_move",
    "find_variant",
    "variant_names",
]
