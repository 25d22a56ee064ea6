"""``gatebot invite``: print the two install links of a gatebot application, for a server and for a user."""

from __future__ import annotations

import argparse

from gatebot.cli.output import refuse, say
from gatebot.digits import parse_whole, shown
from gatebot.messages import _


def invite_command(args: argparse.Namespace) -> int:
    """Print the server and the user install links; 2, with one sentence, for an id that is no application id."""
    application_id = parse_whole(args.application_id)
    if application_id is None or not 0 < application_id < 2**64:
        return refuse(_("APPLICATION_ID is the number on the developer portal's General Information page, not "
                        "{typed}", typed=shown(args.application_id)))
    from gatebot.bot.reach import invite_links

    server, user = invite_links(application_id)
    print(say(_("Add gatebot to a server (slash commands, typed moves, challenges):")) + f"\n  {server}")
    print(say(_("Add gatebot to your account (play in any DM or group DM, and in servers without it):"))
          + f"\n  {user}")
    return 0
