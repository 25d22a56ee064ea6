"""The terminal front end: play Gate at a prompt or from piped input, saved as you play."""

from gatebot.terminal.request import PlayRequest, Screen
from gatebot.terminal.session import play_in_terminal

__all__ = ["PlayRequest", "Screen", "play_in_terminal"]
