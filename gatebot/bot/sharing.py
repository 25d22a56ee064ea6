"""A result card posted in a channel: the text card with the same card drawn as a picture attached.

One message carries both, on purpose. The text is what pastes anywhere (copied into another
chat, a forum, a terminal) and what a screen reader reads; the picture is the same card
drawn the same way on every client, where emoji squares differ from one platform to the
next. Two messages could be split apart or half-posted, and a choice between them would
be one more question before a share. The picture shows nothing the text doesn't
(:mod:`gatebot.render.card_image`).

One press, one card: :class:`Shares` keeps a double click of Share result from posting twice.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import time
from collections.abc import Callable

import discord

from gatebot.bot.language import escape_name, speaker
from gatebot.bot.timely import OnTime
from gatebot.messages import N_
from gatebot.render.boards import DESCRIPTION_LIMIT
from gatebot.render.card import ResultCard, describe_card, render_card
from gatebot.render.card_image import render_card_png

#: The attachment's name: Discord shows the picture under the text.
CARD_FILENAME = "result.png"


async def post_card(answer: OnTime, card: ResultCard) -> None:
    """Answer with ``card`` for everyone in the channel: its text, its picture attached.

    The card is worded in the sharing player's language (:func:`speaker`), text and picture
    alike, and the picture carries the card in words as its description (alt text). The
    picture is drawn in a worker thread, off the event loop. A failed upload raises, for the
    caller's error boundary to apologise; the game the card is of is only read.
    """
    language = speaker(answer.interaction)
    picture = await asyncio.to_thread(render_card_png, card, language)
    alt = describe_card(card, language)  # alt text is not markdown: the name as typed
    if card.challenge is not None:  # a name is shown as typed: no markdown, no mention
        card = dataclasses.replace(card, challenge=escape_name(card.challenge))
    attached = discord.File(io.BytesIO(picture), filename=CARD_FILENAME, description=alt[:DESCRIPTION_LIMIT])
    await answer.send(render_card(card, language), file=attached)


#: Seconds after a card was posted during which the same result is not posted again in that channel.
SHARED_LATELY = 60.0
ALREADY_SHARED = N_("You shared this result here a moment ago: its card is in this channel.")


class Shares:
    """Which results are being shared or were shared lately, so one press of Share result posts one card.

    A double click sends two presses at once, and the Share button stays under the board; without
    this both would post a public card. A result is claimed per game, channel and presser before
    anything is awaited, so the second press finds the first in flight (or just posted) and is
    told so privately. A card that failed to post is not counted: pressing again tries again.
    """

    def __init__(self, *, lately: float = SHARED_LATELY, clock: Callable[[], float] = time.monotonic) -> None:
        self.lately = lately
        self.clock = clock
        #: Each claimed result: None while its card is on its way, else when it was posted.
        self._claims: dict[tuple[int, int, int], float | None] = {}

    def claim(self, game_id: int, channel_id: int, user_id: int) -> bool:
        """Claim a result for sharing; False when it is being shared, or was shared here lately."""
        now = self.clock()
        self._claims = {key: at for key, at in self._claims.items() if at is None or now - at < self.lately}
        key = (game_id, channel_id, user_id)
        if key in self._claims:
            return False
        self._claims[key] = None
        return True

    def release(self, game_id: int, channel_id: int, user_id: int, *, posted: bool) -> None:
        """The card was posted (so it stays claimed for a while), or it wasn't (so it may be tried again)."""
        key = (game_id, channel_id, user_id)
        if posted:
            self._claims[key] = self.clock()
        else:
            self._claims.pop(key, None)
