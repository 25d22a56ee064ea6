"""The terminal front end: play Gate at a prompt or from piped input."""

from gatebot.terminal.play import run_game

__all__ = ["run_game"]
