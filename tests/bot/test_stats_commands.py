"""/gate stats, /gate share and /gate forget-me end to end: the real bot over the fake Discord."""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlalchemy import func, select

from gatebot.render.card import NEVER, THIRDS
from gatebot.store import GameRecord, Player
from tests.bot.gatebots import Running, resign
from tests.bot.test_gatebot import board_of
from tests.fake_discord import FakeUser, StoredMessage
from tests.lines import WIN_DEAL_1


async def win_deal_1(run: Running, user: FakeUser | None = None) -> None:
    await (await run.fake.send_command("gate new", {"deal": 1}, user=user)).response()
    played = await run.fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)}, user=user)
    await played.response()
    await run.fake.wait_for(lambda: "Win streak:" in board_of(run.fake).content or None, what="the board saying so")


async def rows_of(run: Running, user: FakeUser) -> tuple[int, int]:
    """How many player rows and game rows the database keeps for ``user``."""
    async with run.db.sessions() as session:
        players = await session.scalar(
            select(func.count()).select_from(Player).where(Player.platform_user_id == str(user.id))
        )
        games = await session.scalar(
            select(func.count()).select_from(GameRecord).join(Player).where(Player.platform_user_id == str(user.id))
        )
    return players, games


def labelled(message: StoredMessage, label: str) -> str:
    return next(c["custom_id"] for row in message.components for c in row["components"] if c.get("label") == label)


def share_button(board: StoredMessage) -> dict:
    """The Share result button of a board (StopIteration if it has none)."""
    return next(c for row in board.components for c in row["components"] if c.get("label") == "Share result")


def public(run: Running) -> list[StoredMessage]:
    """What everyone in #general sees."""
    return [m for m in run.fake.messages(run.fake.channel) if not m.ephemeral]


def check_card(content: str, header: str) -> list[str]:
    """A result card: its header, four rows of thirteen squares, a line of counts, and no card anywhere."""
    lines = content.splitlines()
    assert lines[0] == header and len(lines) == 7
    assert [len(line) for line in lines[1:5]] == [13] * 4
    assert all(set(line) <= {*THIRDS, NEVER} for line in lines[1:5])
    assert not any(suit in content for suit in "♣♦♥♠") and not any(rank in content for rank in ("A", "K", "Q", "J"))
    return lines


async def test_stats_are_private_and_count_a_finished_game(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    before = await (await fake.send_command("gate stats")).response()
    assert before.ephemeral and before.content == "You haven't played yet: start a game with /gate new."
    await win_deal_1(run)
    mine = await (await fake.send_command("gate stats")).response()
    assert mine.ephemeral
    assert "Gate: 1 game, 1 won (100%)" in mine.content and "streak 1, best 1" in mine.content
    bob = fake.user("bob")
    theirs = await (await fake.send_command("gate stats", {"user": bob})).response()
    assert theirs.ephemeral and theirs.content == "Bob hasn't played yet."
    await (await fake.send_command("gate new", {"deal": 2}, user=bob)).response()
    await resign(fake, user=bob)
    theirs = await (await fake.send_command("gate stats", {"user": bob})).response()
    assert theirs.content.startswith("Bob's games:") and "1 game, 0 won (0%)" in theirs.content


async def test_share_posts_a_spoiler_free_card_in_the_channel(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    nothing = await (await fake.send_command("gate share")).response()
    assert nothing.ephemeral and "no finished game" in nothing.content
    await win_deal_1(run)
    shared = await fake.send_command("gate share")
    posted = await shared.response()
    assert posted.type == 4 and not posted.ephemeral
    lines = posted.content.splitlines()
    assert lines[0].startswith("Gate · deal 1 · won 52/52")
    assert [len(line) for line in lines[1:5]] == [13] * 4
    assert all(set(line) <= {*THIRDS} for line in lines[1:5])  # a win: every card went up
    assert NEVER not in posted.content and not any(suit in posted.content for suit in "♣♦♥♠")
    assert lines[5] == "🟩 early · 🟨 mid-game · 🟧 late"  # the legend, under the grid
    assert f"{len(WIN_DEAL_1)} moves" in lines[6]
    assert any(m.content == posted.content for m in fake.messages(fake.channel)), "posted for everyone"


async def ask_to_forget(run: Running) -> StoredMessage:
    asked = await run.fake.send_command("gate forget-me")
    question = await asked.response()
    assert question.ephemeral and "can't be undone" in question.content
    return asked.original


async def test_forget_me_deletes_only_the_askers_rows(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    alice, bob = fake.user("alice"), fake.user("bob")
    await win_deal_1(run)
    await (await fake.send_command("gate new", {"deal": 2})).response()  # and a game in progress
    await (await fake.send_command("gate new", {"deal": 3}, user=bob)).response()
    assert await rows_of(run, alice) == (1, 2)
    question = await ask_to_forget(run)
    stranger = await (await fake.click(question, labelled(question, "Delete everything"), user=bob)).response()
    assert stranger.ephemeral and "Only the one who asked" in stranger.content
    assert await rows_of(run, alice) == (1, 2)
    done = await (await fake.click(question, labelled(question, "Delete everything"))).response()
    assert done.type == 7 and "deleted" in done.content
    assert await rows_of(run, alice) == (0, 0)
    assert await rows_of(run, bob) == (1, 1)
    after = await (await fake.send_command("gate stats")).response()
    assert after.content == "You haven't played yet: start a game with /gate new."
    assert "no finished game" in (await (await fake.send_command("gate share")).response()).content


async def test_forget_me_cancelled_changes_nothing(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    question = await ask_to_forget(run)
    kept = await (await fake.click(question, labelled(question, "Keep my data"))).response()
    assert kept.type == 7 and "Nothing was deleted" in kept.content
    assert await rows_of(run, fake.user("alice")) == (1, 1)
    assert "1 won" in (await (await fake.send_command("gate stats")).response()).content


async def test_the_share_button_posts_a_won_games_card_for_its_player_only(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    assert not any(cid.startswith("gate:share:") for cid in board.custom_ids()), "no result while it is played"
    played = await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)})
    await played.response()
    board = fake.message(board.id)
    assert "Win streak:" in board.content
    share = share_button(board)
    game_id = (await run.game_row()).id
    assert share["custom_id"] == f"gate:share:{game_id}" and not share.get("disabled")
    before, edits = public(run), len(board.history)
    refused = await (await fake.click(board, share["custom_id"], user=fake.user("bob"))).response()
    assert refused.type == 4 and refused.ephemeral
    assert refused.content == "Only Alice can share their result."
    assert public(run) == before, "nothing posted for bob"
    pressed = await (await fake.click(board, share["custom_id"])).response()
    assert pressed.type == 4 and not pressed.ephemeral, "a new public message, not an edit of the board"
    lines = check_card(pressed.content, "Gate · deal 1 · won 52/52")
    assert all(set(line) <= {*THIRDS} for line in lines[1:5])  # a win: every card went up
    assert lines[6].startswith(f"{len(WIN_DEAL_1)} moves · no hints · no undos")
    [posted] = [m for m in public(run) if m not in before]
    assert posted.content == pressed.content and posted.id != board.id and not posted.components
    assert len(fake.message(board.id).history) == edits, "the board is left as it was"
    assert share_button(fake.message(board.id))["custom_id"] == share["custom_id"], "the board keeps its button"
    command = await (await fake.send_command("gate share")).response()
    assert command.content == pressed.content, "the same card as /gate share"


async def test_a_resigned_games_board_shares_its_card(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    await (await fake.send_command("gate move", {"moves": "3f d"})).response()
    await resign(fake)
    board = board_of(fake)
    assert (await run.game_row()).status == "resigned"
    pressed = await (await fake.click(board, share_button(board)["custom_id"])).response()
    assert not pressed.ephemeral
    lines = check_card(pressed.content, "Gate · deal 1 · 1/52")
    assert sum(line.count(NEVER) for line in lines[1:5]) == 51  # only A♦ went up, and nothing names it
    assert lines[6].startswith("2 moves")


async def test_the_share_button_works_after_a_restart(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    board = board_of(fake)
    await run.bot.close()
    again: Running = await gatebot()
    board = fake.message(board.id)
    answer = await (await fake.click(board, share_button(board)["custom_id"])).response()
    assert answer.type == 4 and not answer.ephemeral
    check_card(answer.content, "Gate · deal 1 · won 52/52")
    assert any(m.content == answer.content for m in public(again))


async def test_the_share_button_of_a_forgotten_game_posts_nothing(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await win_deal_1(run)
    board = board_of(fake)
    question = await ask_to_forget(run)
    await (await fake.click(question, labelled(question, "Delete everything"))).response()
    before = public(run)
    gone = await (await fake.click(fake.message(board.id), share_button(board)["custom_id"])).response()
    assert gone.ephemeral and gone.content == "That game is no longer stored, so there is no result to share."
    assert public(run) == before


async def test_a_german_player_reads_their_statistics_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    before = await (await fake.send_command("gate stats", user=bob)).response()
    assert before.content == "Du hast noch nicht gespielt: Starte ein Spiel mit /gate neu."
    theirs = await (await fake.send_command("gate stats", {"user": fake.user("alice")}, user=bob)).response()
    assert theirs.content == "Alice hat noch nicht gespielt."
    await (await fake.send_command("gate new", {"deal": 1}, user=bob)).response()
    await (await fake.send_command("gate move", {"moves": " ".join(WIN_DEAL_1)}, user=bob)).response()
    mine = (await (await fake.send_command("gate stats", user=bob)).response()).content
    # German numbers as Babel writes them: a space (no-break) before %, a decimal comma.
    assert mine.startswith("Deine Spiele:\nGate: 1 Spiel, 1 gewonnen (100\u00a0%); Serie 1, beste 1;"), mine
    assert "schnellster Sieg" in mine and "Punkte im Schnitt 52,0/52" in mine, mine
    assert not re.search(r"\d%|\d\.\d", mine), mine
    assert not re.search(r"\b(games?|won|streak|best|average|fastest|moves?)\b", mine), mine
    english = (await (await fake.send_command("gate stats", {"user": bob})).response()).content
    assert english.startswith("Bob's games:\nGate: 1 game, 1 won (100%)"), "alice reads it in English"


async def test_a_german_player_is_asked_and_answered_about_forgetting_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    await (await fake.send_command("gate new", {"deal": 1}, user=bob)).response()
    asked = await fake.send_command("gate forget-me", user=bob)
    answer = await asked.response()
    assert answer.ephemeral and "nicht rückgängig" in answer.content, answer.content
    question = asked.original
    labels = [c.get("label") for row in question.components for c in row["components"]]
    assert labels == ["Alles löschen", "Meine Daten behalten"]
    kept = await (await fake.click(question, labelled(question, "Meine Daten behalten"), user=bob)).response()
    assert kept.content == "Nichts wurde gelöscht: Deine Daten sind, wie sie waren."
    assert await rows_of(run, bob) == (1, 1)
    asked = await fake.send_command("gate forget-me", user=bob)
    await asked.response()
    question = asked.original
    done = await (await fake.click(question, labelled(question, "Alles löschen"), user=bob)).response()
    assert done.content.startswith("Erledigt:") and "gelöscht" in done.content
    assert await rows_of(run, bob) == (0, 0)
