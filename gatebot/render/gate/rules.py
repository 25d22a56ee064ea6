"""The rules of a game in a few plain paragraphs, for any front end (``rules`` in the terminal, ``/gate rules``)."""

from __future__ import annotations

import textwrap

from gatebot.render.canfield.text import rank_word
from gatebot.rules import ArchwayGame, CanfieldGame, Game, GateGame


def rules_text(game: Game, width: int = 78) -> str:
    """A short, exact summary of the rules this game is played by, options included."""
    if isinstance(game, CanfieldGame):
        return _fill(_canfield_rules(game), width)
    if isinstance(game, ArchwayGame):
        return _fill(_archway_rules(game), width)
    if not isinstance(game, GateGame):
        raise TypeError(f"There is no summary of the rules of {game.title} yet")
    if "single-moves" in game.options:
        runs = "Only a column's top card moves (single-moves): runs never move together."
    else:
        runs = (
            "The top card, with the cards under it that follow that rule, moves as one run "
            "onto a column whose top card takes the run's deepest card."
        )
    if "stock-fill" in game.options:
        last_fill = (
            "when the waste is empty too, the next stock card (stock-fill); with no stock "
            "either, the column stays a free space"
        )
    else:
        last_fill = "when the waste is empty too, the column stays a free space"
    paragraphs = [
        f"{game.title}: put all 52 cards on the four foundations (F), each built up in suit, "
        "Ace to King. Cards never leave a foundation. Score: cards on the foundations.",
        "Reserves L and R: two piles of five, face up; only the top card [in brackets] plays, "
        "to a foundation or a column. Nothing is ever played onto a reserve.",
        f"Columns 1-{len(game.columns)}: build down in alternating colours, a black 7 on a red 8. {runs}",
        "Stock S: d turns one card onto the waste W, whose top card plays to a foundation or a "
        "column. One pass through the stock, no redeal.",
        "A column that empties is filled at once with one card: from the reserve with more cards "
        f"(the left when they are level); when both are empty, the top waste card; {last_fill}. "
        "A free space takes any card or run you move there, and stays free until you do: "
        "a later draw does not fill it.",
        "The game is over when every card is home, or when no legal move is left.",
    ]
    return _fill(paragraphs, width)


def _canfield_rules(game: CanfieldGame) -> list[str]:
    """Canfield's rules (docs/canfield.md), with this game's options and base rank."""
    base = rank_word(game.base_rank)
    below = rank_word((game.base_rank - 2) % 13 + 1)
    if "partial-moves" in game.options:
        moves = (
            "Any number of cards from a pile's top move together (partial-moves), onto a pile "
            "the deepest of them fits; the top card alone may go to its foundation."
        )
    else:
        moves = (
            "A pile moves only as a whole, onto a pile its bottom card fits; its top card alone "
            "may go to its foundation."
        )
    if game.draw_count == 1:
        passes = game.pass_number + (game.passes_left or 0)
        turn = "d turns one card onto the waste W"
        if passes == 1:
            redeal = "One pass through the stock, no redeal."
        else:
            redeal = f"When the stock is out, d turns the waste over for another pass: {passes} passes in all."
    else:
        turn = "d turns three cards onto the waste W, the third on top (fewer when fewer are left)"
        redeal = "When the stock is out, d turns the waste over for another pass, as often as you like."
    return [
        f"{game.title}: put all 52 cards on the four foundations (F), each built up in suit from the "
        f"base rank, the rank of the card dealt to the first one ({base} in this game), turning the "
        f"corner from King to Ace and ending at {below}. Cards never leave a foundation. "
        "Score: cards on the foundations.",
        "Reserve R: 13 cards, face down but for the top card [in brackets], which plays to a "
        "foundation or onto a pile; the next one then turns up. Nothing is played onto the reserve.",
        f"Tableau piles 1-4: build down in alternating colours, an Ace taking a King. {moves}",
        "A pile that empties is filled at once from the reserve. With the reserve out it stays a "
        "space, which takes only the waste's top card.",
        f"Stock S: {turn}; only the waste's top card plays, to a foundation or onto a pile. {redeal}",
        "The game is over when every card is home, or when no legal move is left: also at the "
        "end of a whole pass in which no card could move, since the next would show the same cards.",
    ]


def _archway_rules(game: ArchwayGame) -> list[str]:
    """Archway's rules (docs/archway.md), with the kit option when it is on."""
    if "kit" in game.options:
        where = (
            "to a foundation, into a space, or (kit) a column's exposed card back to the arch "
            "packet of its rank. Nothing is ever built on a column."
        )
    else:
        where = "to a foundation or into a space; nothing is ever built on a column or put back into the arch."
    return [
        f"{game.title}: two decks. Put all 104 cards on the eight foundations: the Ace foundations (A) "
        "build up in suit from Ace to King, the King foundations (K) down in suit from King to Ace, "
        "one of each per suit. Score: cards on the foundations, the eight bases included.",
        "Every card is face up. Available: the exposed card [in brackets] of each column 1-4 (when it "
        "moves, the card under it is exposed) and every card of the arch P, 13 packets by rank. "
        f"Cards go {where}",
        "A column emptied completely is a space: it takes one available card, from a column or the "
        "arch, which is then that column's exposed card. A space holds one card at most.",
        "Reversing: when a suit's Ace foundation reaches the card just below its King foundation's top "
        "(9 and 10 of hearts), the top card of either may move onto the other, one card a move "
        "(fhk, fha), as long as the order holds. The Ace and King bases never move.",
        "No stock, no redeal. Won when all eight foundations hold 13 cards; over when no legal move is left.",
    ]


def _fill(paragraphs: list[str], width: int) -> str:
    return "\n".join(textwrap.fill(text, width, subsequent_indent="  ") for text in paragraphs)
