"""The ``gatebot`` command: one subcommand per front end or tool (``play``, ``solve``, ``analyse``, ``db``).

``main`` parses arguments and hands over to the part that does the work; it returns the
exit code instead of exiting, so tests call it directly. The parts: the arguments
(:mod:`~gatebot.cli.parser`), the commands that start a front end (:mod:`~gatebot.cli.front_ends`),
solving (:mod:`~gatebot.cli.solving`), the database (:mod:`~gatebot.cli.database`), the running
bot's health check (:mod:`~gatebot.cli.health`), and how every command talks back (:mod:`~gatebot.cli.output`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gatebot.cli.parser import Handler


def main(argv: list[str] | None = None) -> int:
    """Run ``gatebot`` with ``argv`` (default: the command line); return the exit code.

    Output cut short by its reader (``gatebot solve 1 | head -1``) ends the command quietly
    with :data:`~gatebot.cli.output.BROKEN_PIPE`, as the Python docs recommend: the closed pipe's
    descriptor is pointed at /dev/null so that flushing it at exit raises nothing more.

    The commands are imported here, not with the package: the ``gatebot`` script imports this
    package, and so does each hint worker of ``gatebot run`` (``spawn`` runs the parent's main
    script in the worker, as ``__mp_main__``), which must not load the bot and the web table.
    """
    from gatebot.cli.output import BROKEN_PIPE, silence
    from gatebot.cli.parser import build_parser

    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        handler: Handler | None = getattr(args, "handler", None)
        if handler is None:
            parser.print_help()
            code = 0
        else:
            code = handler(args)
        sys.stdout.flush()  # inside the try: a reader gone early shows here, not at exit
    except BrokenPipeError:
        silence(sys.stdout)
        return BROKEN_PIPE
    return code


_LAZY = {"version": "gatebot.cli.parser", "BROKEN_PIPE": "gatebot.cli.output"}


def __getattr__(name: str) -> object:
    """Hand out ``version`` and ``BROKEN_PIPE`` from their modules on first use (PEP 562).

    Code that imported them from ``gatebot.cli`` before the commands moved out keeps working,
    and a hint worker, which imports this package, still loads neither the parser nor the output.
    """
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["main"]
