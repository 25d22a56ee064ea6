"""The page's own words in the reader's language: its labels, and what its scripts say.

``index.html`` writes each label in English between double brackets (``[[Undo]]``, in text and
in attribute values alike); :func:`page` puts every one in the reader's language, escaped for
HTML, when the page is served. What the scripts say (a card's spoken name, "picked up", the
facts line) is :data:`SCRIPT`, handed to the page in its ``<body data-words>`` attribute as
JSON: data, not script, so the strict Content-Security-Policy (``script-src 'self'``) stands.
Every word is a message of gatebot's catalogue (``N_``, ``NN_`` and ``NP_`` here, so ``scripts/catalogue.py``
extracts it), translated like the server's own sentences.

A sentence that counts is sent as its two forms, ``one`` and ``other``, and the page picks by
``n === 1``: right for English and German, the languages gatebot has.
"""

from __future__ import annotations

import functools
import html
import json
import re

from gatebot.locale import Translator
from gatebot.messages import N_, NN_, NP_
from gatebot.render.spoken import RANK_NAMES, SUIT_NAMES
from gatebot.rules import VARIANTS
from gatebot.service.odds import chance_sentence, deal_odds

#: The labels of ``index.html``, each written there as ``[[...]]`` (a test checks the two lists agree).
PAGE = (
    N_("gatebot · the table"), N_("The table"), N_("You won!"), N_("Play again"), N_("Share"), N_("New deal"),
    N_("Game"), N_("Gate"), N_("Little Gate"), N_("Canfield"), N_("Archway"), N_("Deal number"), N_("any"),
    N_("Options"), N_("A deal that can be won"), N_("Cancel"), N_("Deal"), N_("Undo"), N_("Undo (u)"),
    N_("Hint"), N_("Hint (h)"), N_("Auto"), N_("End game"), N_("Move"), N_("Four-colour deck"), N_("Forget me"),
    N_("Replay"),
)
_LABEL = re.compile(r"\[\[(.+?)\]\]")

#: What the page's scripts say, by the name they use; a pair is a sentence's singular and plural.
SCRIPT: dict[str, str | tuple[str, str]] = {
    "column": N_("column {column}"),
    # TRANSLATORS: a foundation on the web page: {suit} is hearts, spades...
    "foundation": N_("{suit} foundation"),
    # TRANSLATORS: one of Archway's packets in the arch: {rank} is ace, 2, 3... king.
    "packet": N_("arch, {rank} packet"),
    "reserve": N_("the reserve"),
    "l": N_("left gatepost"),
    "r": N_("right gatepost"),
    "w": N_("the waste"),
    "s": N_("the stock"),
    # TRANSLATORS: a card's button: {card} "7 of hearts", {pile} "column 3".
    "onPile": N_("{card}, {pile}"),
    "onTop": N_("{card}, {pile}, top card"),
    "empty": N_("{pile}, empty"),
    "stock": NN_("the stock, {n} card: draw", "the stock, {n} cards: draw"),
    "stockCount": NN_("the stock, {n} card", "the stock, {n} cards"),
    "faceDown": NN_("{pile}, {n} face-down card", "{pile}, {n} face-down cards"),
    "noMove": N_("{card} has no move."),
    "pickedUp": NN_("{card} picked up: {n} place to put it.", "{card} picked up: {n} places to put it."),
    "noDraw": N_("The stock can't be drawn from now."),
    "badAnswer": N_("The table didn't answer properly: reload the page."),
    # TRANSLATORS: what the page calls a game: its deal number...
    "dealNamed": N_("deal {deal}"),
    # TRANSLATORS: ...or, while the challenge it is an attempt at is open (its deal a secret), the challenge's name.
    "challengeNamed": N_("challenge “{name}”"),
    # TRANSLATORS: the line under the game's name: "deal 5 · 12 moves · 8/52" ({game} is "deal 5" or a challenge).
    "facts": NN_("{game} · {n} move · {score}/{total}", "{game} · {n} moves · {score}/{total}"),
    # TRANSLATORS: under "You won!": the game won; its moves and time are in the message above it.
    "wonFacts": N_("{title}, {game}."),
    "played": N_("Played {move}."),
    # TRANSLATORS: said when a move leaves no legal move: the page's board has no line saying so, as chat's has.
    "lost": N_("Game over: no move left."),
    "undone": N_("Move taken back."),
    "shared": NN_("I won {title}, {game}, in {n} move on gatebot.",
                  "I won {title}, {game}, in {n} moves on gatebot."),
    "copied": N_("Copied to the clipboard."),
    "forget": N_("Delete everything stored about you: your games, results and settings?"),
    # TRANSLATORS: who else has the table open in the same Discord channel: {names} is "Alice, Bob".
    "alsoHere": N_("Also here: {names}"),
    "playChallenge": N_("Play the challenge"),
    "startAttempt": N_("Start my attempt"),
    "discordSilent": N_("Discord didn't answer the table, so it can't show your game: close it and open it again."),
    "discordRefused": N_("Discord didn't sign you in, so the table can't show your game: close it and open it "
                         "again to allow it."),
}
#: A card's name on the page: its rank in digits but for ace and the faces ("7 of hearts"), unlike a spoken board's.
# TRANSLATORS: a card's name on the web page: {rank} is 7, 10, ace, jack..., {suit} hearts...
CARD = NP_("web page", "{rank} of {suit}")
#: The cards' words the page needs: suits by letter, and the ranks it names in words (the rest are digits).
_SUITS = dict(zip("CDHS", SUIT_NAMES, strict=True))
_RANKS = {"A": RANK_NAMES[0], "J": RANK_NAMES[10], "Q": RANK_NAMES[11], "K": RANK_NAMES[12]}


def page(template: str, language: Translator) -> str:
    """``index.html`` with each ``[[label]]`` in ``language``, escaped, and its scripts' words in ``data-words``."""
    return _page(template, language)


@functools.lru_cache(maxsize=8)
def _page(template: str, language: Translator) -> str:
    words = html.escape(json.dumps(script_words(language), ensure_ascii=False, separators=(",", ":")))
    filled = _LABEL.sub(lambda match: html.escape(language.gettext(match.group(1))), template)
    return filled.replace("__WORDS__", words).replace("__LANG__", language.language)


def script_words(language: Translator) -> dict[str, object]:
    """:data:`SCRIPT` in ``language`` (a counting sentence as its ``one`` and ``other`` forms), and the cards' words."""
    said: dict[str, object] = {"card": language.pgettext("web page", CARD)}
    for key, message in SCRIPT.items():
        if isinstance(message, tuple):
            said[key] = {"one": language.ngettext(*message, 1), "other": language.ngettext(*message, 2)}
        else:
            said[key] = language.gettext(message)
    # The New deal dialog says how often a plain deal of the variant picked can be won (service/odds).
    said["odds"] = {cls.name: language.say(chance_sentence(cls, odds)) for cls in VARIANTS
                    if (odds := deal_odds(cls.name)) is not None}
    said["suits"] = {letter: language.pgettext("card", name) for letter, name in _SUITS.items()}
    said["ranks"] = {letter: language.pgettext("card", name) for letter, name in _RANKS.items()}
    return said
