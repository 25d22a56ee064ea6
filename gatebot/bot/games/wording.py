"""How the ``/gate`` commands are written in the sentences the service words for Discord."""

from __future__ import annotations

from gatebot.messages import _
from gatebot.rules import Game


def slash_deal_command(variant: type[Game], options: tuple[str, ...], winnable: bool) -> str:
    """``/gate new`` as typed for ``variant``: ``/gate new variant:Archway options:kit``, ``… winnable:True``.

    Said in the reader's language, as the command's German names read (``/gate neu variante:Archway``).
    """
    if options and winnable:
        return _("/gate new variant:{variant} options:{options} winnable:True", variant=variant.title,
                 options=" ".join(options))
    if options:
        return _("/gate new variant:{variant} options:{options}", variant=variant.title, options=" ".join(options))
    if winnable:
        return _("/gate new variant:{variant} winnable:True", variant=variant.title)
    return _("/gate new variant:{variant}", variant=variant.title)
