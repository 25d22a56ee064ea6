"""A result card posted in a channel: the text card with the same card drawn as a picture attached.

One message carries both, on purpose. The text is what pastes anywhere (copied into another
chat, a forum, a terminal) and what a screen reader reads; the picture is the same card
drawn the same way on every client, where emoji squares differ from one platform to the
next. Two messages could be split apart or half-posted, and a choice between them would
be one more question before a share. The picture shows nothing the text doesn't
(:mod:`gatebot.render.card_image`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import io

import discord

from gatebot.bot.language import escape_name, speaker
from gatebot.bot.timely import OnTime
from gatebot.render.card import ResultCard, render_card
from gatebot.render.card_image import render_card_png

#: The attachment's name: Discord shows the picture under the text.
CARD_FILENAME = "result.png"


async def post_card(answer: OnTime, card: ResultCard) -> None:
    """Answer with ``card`` for everyone in the channel: its text, its picture attached.

    The card is worded in the sharing player's language (:func:`speaker`), text and picture
    alike. The picture is drawn in a worker thread, off the event loop. A failed upload raises,
    for the caller's error boundary to apologise; the game the card is of is only read.
    """
    language = speaker(answer.interaction)
    picture = await asyncio.to_thread(render_card_png, card, language)
    if card.challenge is not None:  # a name is shown as typed: no markdown, no mention
        card = dataclasses.replace(card, challenge=escape_name(card.challenge))
    await answer.send(render_card(card, language), file=discord.File(io.BytesIO(picture), filename=CARD_FILENAME))
