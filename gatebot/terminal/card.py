"""``gatebot card``: a player's finished terminal game as its result card, and with ``--out`` its picture.

The same database and player as ``gatebot play``: the card of the player's last finished
game, or of one by id (their own only). The text is printed, as the ``card`` command of
``gatebot play`` prints it; the picture (:func:`gatebot.render.card_image.render_card_png`)
is drawn off the event loop and written to the file asked for.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from gatebot.locale import terminal_language
from gatebot.messages import _, joined
from gatebot.render.card import render_card
from gatebot.render.card_image import render_card_png
from gatebot.service.stats import NoCard, Statistics
from gatebot.store import Database
from gatebot.store.migrate import ensure_schema
from gatebot.terminal.session import PLATFORM


@dataclass(frozen=True, slots=True)
class CardRequest:
    """Where the games are, whose game, which one (None: the last finished), where the picture goes (None: nowhere)."""

    database_url: str
    user: str
    out: Path | None = None
    game_id: int | None = None


async def share_card(request: CardRequest) -> str:
    """The requested game's result card as text; its picture written to ``request.out`` first, when asked.

    The sentences are marked, to be said in the reader's language where they are printed.

    Raises :class:`~gatebot.service.stats.NoCard` (one sentence, nothing written) when there
    is no card to give, :class:`~gatebot.store.DatabaseError` for a database that can't be
    used, and ``OSError`` when the file can't be written.
    """
    db = Database(request.database_url)
    try:
        await ensure_schema(db)
        statistics = Statistics(db)
        if request.game_id is None:
            card = await statistics.latest_result(PLATFORM, request.user)
        else:
            card = await statistics.card(request.game_id, PLATFORM, request.user)
    finally:
        await db.dispose()
    if card is None:
        raise NoCard(_("You have no finished game to share yet: finish one with gatebot play, then share it."))
    language = terminal_language()  # the card in the terminal's language, as gatebot play's
    text = render_card(card, language)
    if request.out is not None:
        picture = await asyncio.to_thread(render_card_png, card, language)
        request.out.write_bytes(picture)
        text = joined(text, _("Wrote the card's picture to {out}: {size} KB.", out=str(request.out),
                              size=max(1, round(len(picture) / 1024))), sep="\n")
    return text
