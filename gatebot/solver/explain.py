"""Why a move is worth playing, in one sentence a player learns from."""

from __future__ import annotations

from gatebot.rules import GateGame, Move, describe_move


def explain(game: GateGame, move: Move) -> str:
    """One sentence saying what ``move`` does in ``game`` and why it helps."""
    text = describe_move(game, move)
    return text[0].upper() + text[1:]
