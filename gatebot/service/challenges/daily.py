"""The daily challenge's deal, name and day: the deal a keyed hash of the date, the same on every machine."""

from __future__ import annotations

import hmac
from datetime import UTC, date, datetime, time

from gatebot.messages import Day, _
from gatebot.rules import MAX_DEAL
from gatebot.solver.deals import winnable_deals

#: The fewest proven deals a winnable daily may pick from (Archway's four would repeat every few days).
DAILY_LIST_MINIMUM = 10


def daily_deal(secret: str, day: date, variant: str, *, winnable: bool = False) -> int:
    """The deal a server's daily challenge plays on ``day``: a keyed hash of the date.

    The same on every machine and after any restart, for the server's secret, and not
    foreseeable without it. ``winnable`` picks from the variant's list of proven deals.
    """
    digest = hmac.new(secret.encode(), f"{variant}:{day.isoformat()}".encode(), "sha256").digest()
    number = int.from_bytes(digest[:8], "big")
    deals = winnable_deals(variant) if winnable else ()
    return deals[number % len(deals)] if deals else number % MAX_DEAL + 1


def daily_name(day: date) -> str:
    """The name of ``day``'s daily challenge, like ``Daily 5 Mar 2026``: a sentence, said in the server's language."""
    return _("Daily {day}", day=Day.of(day))


def midnight(day: date) -> datetime:
    """The start of ``day`` in UTC: when its daily challenge opens (and the day before's closes)."""
    return datetime.combine(day, time(0), tzinfo=UTC)
