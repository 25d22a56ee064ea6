"""Canfield's rules in a few plain paragraphs, with the game's options and base rank."""

from __future__ import annotations

from gatebot.messages import ENGLISH, Language
from gatebot.render.text_rows import rank_word
from gatebot.rules import CanfieldGame


def canfield_rules(game: CanfieldGame, language: Language = ENGLISH) -> list[str]:
    """Canfield's rules (docs/canfield.md), with this game's options and base rank, worded in ``language``."""
    gettext = language.gettext
    base = rank_word(game.base_rank)
    below = rank_word((game.base_rank - 2) % 13 + 1)
    if "partial-moves" in game.options:
        moves = gettext(
            "Any number of cards from a pile's top move together (partial-moves), onto a pile "
            "the deepest of them fits; the top card alone may go to its foundation."
        )
    else:
        moves = gettext(
            "A pile moves only as a whole, onto a pile its bottom card fits; its top card alone "
            "may go to its foundation."
        )
    if game.draw_count == 1:
        passes = game.pass_number + (game.passes_left or 0)
        turn = gettext("d turns one card onto the waste W")
        if passes == 1:
            redeal = gettext("One pass through the stock, no redeal.")
        else:
            redeal = language.ngettext(
                "When the stock is out, d turns the waste over for another pass: {n} pass in all.",
                "When the stock is out, d turns the waste over for another pass: {n} passes in all.",
                passes,
            ).format(n=passes)
    else:
        turn = gettext("d turns three cards onto the waste W, the third on top (fewer when fewer are left)")
        redeal = gettext("When the stock is out, d turns the waste over for another pass, as often as you like.")
    return [
        gettext(
            "{title}: put all 52 cards on the four foundations (F), each built up in suit from the "
            "base rank, the rank of the card dealt to the first one ({base} in this game), turning the "
            "corner from King to Ace and ending at {below}. Cards never leave a foundation. "
            "Score: cards on the foundations."
        ).format(title=game.title, base=base, below=below),
        gettext(
            "Reserve R: 13 cards, face down but for the top card [in brackets], which plays to a "
            "foundation or onto a pile; the next one then turns up. Nothing is played onto the reserve."
        ),
        gettext("Tableau piles 1-4: build down in alternating colours, an Ace taking a King. {moves}").format(
            moves=moves
        ),
        gettext(
            "A pile that empties is filled at once from the reserve. With the reserve out it stays a "
            "space, which takes only the waste's top card."
        ),
        gettext("Stock S: {turn}; only the waste's top card plays, to a foundation or onto a pile. {redeal}").format(
            turn=turn, redeal=redeal
        ),
        gettext(
            "The game is over when every card is home, or when no legal move is left: also at the "
            "end of a whole pass in which no card could move, since the next would show the same cards."
        ),
    ]
