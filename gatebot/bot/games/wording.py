"""How the ``/gate`` commands are written in the sentences the service words for Discord."""

from __future__ import annotations

from gatebot.rules import Game


def slash_deal_command(variant: type[Game], options: tuple[str, ...], winnable: bool) -> str:
    """``/gate new`` as typed for ``variant``: ``/gate new variant:Archway options:kit``, ``… winnable:True``."""
    words = ["/gate new", f"variant:{variant.title}"]
    if options:
        words.append("options:" + " ".join(options))
    if winnable:
        words.append("winnable:True")
    return " ".join(words)
