"""Replays on Discord: ``/gate replay``, the step buttons, Animation, and the Replay button of a finished board.

The real gatebot and the unmodified discord.py client over the fake Discord. A game is
played one command at a time, so the board message keeps one version per position (the
fake keeps every earlier version): each step of the replay is compared with the board the
player saw at that point.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from gatebot.bot.actors import PLATFORM
from gatebot.bot.replays import ANIMATION_ID, NOT_YOURS, REPLAY_APOLOGY, STEP_ID, ReplayScreen
from gatebot.locale import translator
from gatebot.render.replay import animate, positions
from gatebot.rules import Game
from gatebot.service import Actor, Preferences
from gatebot.service.changes import UNDO_TOKEN
from gatebot.service.replays import GameReplay
from gatebot.store import GameStatus
from tests.bot.gatebots import Running, resign
from tests.bot.test_gatebot import board_of
from tests.fake_discord import FakeDiscord, StoredMessage
from tests.fake_discord.handles import InteractionHandle

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
#: Deal 1 of Gate, one command at a time: six moves, one taken back and played another way.
COMMANDS = (("gate move", {"moves": "3f"}), ("gate draw", {}), ("gate draw", {}), ("gate move", {"moves": "w8"}),
            ("gate undo", {}), ("gate move", {"moves": "d"}))
#: The game's log as it is stored: the positions of the replay are the deal and one after each token.
LOG = ["3f", "d", "d", "w8", UNDO_TOKEN, "d"]


def board_part(content: str) -> str:
    """The drawn board of a text message: what is inside its code block."""
    found = re.search(r"```\n(.*?)\n```", content, re.S)
    assert found is not None, content
    return found[1]


def pretty(card: str) -> str:
    """``TD`` as the boards write it: ``10♦``."""
    rank, suit = card[:-1], card[-1]
    return ("10" if rank == "T" else rank) + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[suit]


def buttons(message: StoredMessage) -> dict[str, dict[str, Any]]:
    """The message's buttons by label."""
    return {c["label"]: c for row in message.components for c in row["components"]}


async def played(run: Running) -> tuple[StoredMessage, list[str]]:
    """Alice plays :data:`COMMANDS` on deal 1 and resigns: her board, and each position's board, the deal first."""
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    board = board_of(fake)
    for command, options in COMMANDS:
        answer = await (await fake.send_command(command, options)).response()
        assert answer.ephemeral, "the board was edited in place"
    assert (await resign(fake)).ephemeral
    board = fake.message(board.id)
    shown = [board_part(version["content"]) for version in [*board.history, board.payload]]
    assert shown[-1] == shown[-2], "resigning leaves the last position"
    row = await run.game_row()
    assert (row.log.split(), row.status) == (LOG, "resigned")
    return board, shown[:-1]


async def opened(fake: FakeDiscord, **options: Any) -> tuple[InteractionHandle, StoredMessage]:
    """``/gate replay`` as Alice (or ``user``): the handle and the message it answered with."""
    handle = await fake.send_command("gate replay", options.get("args", {}), user=options.get("user"))
    answer = await handle.response()
    assert answer.type == 4 and not answer.ephemeral
    assert handle.original is not None
    return handle, handle.original


async def press(fake: FakeDiscord, message: StoredMessage, label: str, **options: Any) -> InteractionHandle:
    return await fake.click(message, buttons(message)[label]["custom_id"], **options)


async def test_gate_replay_shows_the_deal_then_steps_through_the_board_as_it_was_played(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    _board, shown = await played(run)
    last = len(LOG)
    _handle, replay = await opened(fake)
    assert board_part(replay.content) == shown[0]
    assert "Step 0 of 6 · the deal" in replay.content
    assert "Alice's Gate deal 1, resigned after 4 moves" in replay.content
    state = {label: bool(c.get("disabled")) for label, c in buttons(replay).items()}
    assert state == {"⏮": True, "◀": True, "▶": False, "⏭": False, "Animation": False}
    step = await (await press(fake, replay, "▶")).response()
    assert step.type == 7, "the replay's own message is edited"
    replay = fake.message(replay.id)
    assert board_part(replay.content) == shown[1] != shown[0]
    assert "Step 1 of 6 · 3f — " in replay.content and "to the foundation" in replay.content
    assert not buttons(replay)["◀"].get("disabled") and not buttons(replay)["⏮"].get("disabled")
    await (await press(fake, replay, "⏭")).response()
    replay = fake.message(replay.id)
    assert board_part(replay.content) == shown[last]
    assert f"Step {last} of {last} · d — draw from the stock" in replay.content
    assert buttons(replay)["▶"]["disabled"] and buttons(replay)["⏭"]["disabled"]
    await (await press(fake, replay, "◀")).response()
    replay = fake.message(replay.id)
    assert "Step 5 of 6 · undo: took back w8" in replay.content and board_part(replay.content) == shown[5]
    assert shown[5] == shown[3], "the undo shows the position before w8 again"


async def test_every_step_is_the_board_the_player_saw_so_it_never_shows_more_of_the_stock(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    _board, shown = await played(run)
    _handle, replay = await opened(fake)
    seen = [board_part(replay.content)]
    for _ in LOG:
        await (await press(fake, replay, "▶")).response()
        replay = fake.message(replay.id)
        seen.append(board_part(replay.content))
    assert seen == shown
    # And on none of them is a card still in the stock named (the position text lists the stock in order).
    for step, position in enumerate(positions(Game.new("gate", deal=1), LOG, undo_token=UNDO_TOKEN)):
        [stock_line] = [line for line in position.to_text().splitlines() if line.startswith("S:")]
        in_stock = {pretty(card) for card in stock_line.split()[1:]}
        named = set(re.findall(r"(?:10|[2-9AJQK])[♣♦♥♠]", seen[step]))
        assert len(in_stock) >= 30 and len(named) >= 14
        assert not named & in_stock, step


async def test_animation_posts_a_gif_with_one_frame_per_position(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await played(run)
    _handle, replay = await opened(fake)
    pressed = await press(fake, replay, "Animation")
    assert (await pressed.response()).type == 6, "deferred before the picture is drawn"
    posted = await pressed.followup(0, timeout=20)
    assert not posted.ephemeral
    [attachment] = posted.attachments
    game_id = (await run.game_row()).id
    assert attachment["filename"] == f"gate-replay-{game_id}.gif"
    with Image.open(io.BytesIO(posted.file(attachment["filename"]).data)) as picture:
        assert picture.format == "GIF"
        assert picture.n_frames == len(LOG) + 1


async def test_a_german_players_animation_words_its_boards_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await played(run)
    _handle, replay = await opened(fake)
    fake.user("alice").locale = "de"  # the player herself, her client now set to German
    pressed = await press(fake, replay, "Animation")
    await pressed.response()
    posted = await pressed.followup(0, timeout=20)
    [attachment] = posted.attachments
    shown = positions(Game.new("gate", deal=1), LOG, undo_token=UNDO_TOKEN)
    assert posted.file(attachment["filename"]).data == animate(shown, language=translator("de")).data
    assert animate(shown, language=translator("de")).data != animate(shown).data


async def test_another_players_private_game_is_refused_privately_at_the_command_and_at_a_press(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await played(run)
    game_id = (await run.game_row()).id
    bob = fake.user("bob")
    asked = await (await fake.send_command("gate replay", {"game": game_id}, user=bob)).response()
    assert asked.type == 4 and asked.ephemeral
    assert asked.content.startswith(f"Game #{game_id} is another player's") and asked.content.count(". ") == 0
    _handle, replay = await opened(fake)
    before = replay.content
    step = await (await press(fake, replay, "▶", user=bob)).response()
    assert step.ephemeral and step.content == NOT_YOURS, "the step buttons are alice's, like her board's"
    animation = await press(fake, replay, "Animation", user=bob)
    await animation.response()
    told = await animation.followup(0)
    assert told.ephemeral and not told.attachments and told.content == asked.content
    assert fake.message(replay.id).content == before, "the replay is left as it was"


async def test_a_running_game_is_refused(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    await (await fake.send_command("gate move", {"moves": "3f"})).response()
    game_id = (await run.game_row()).id
    last = await (await fake.send_command("gate replay")).response()
    chosen = await (await fake.send_command("gate replay", {"game": game_id})).response()
    assert last.ephemeral and last.content == "Your game is still running: finish it first, then watch it back."
    assert chosen.ephemeral and chosen.content.startswith(f"Game #{game_id} is still running")
    missing = await (await fake.send_command("gate replay", {"game": game_id + 1})).response()
    assert missing.ephemeral and missing.content == f"There is no game #{game_id + 1}."


#: Words of the English replay refusals: none may remain in a German one.
ENGLISH_REFUSAL = re.compile(r"\b(game|watch|finished|running|player's|another|challenge|closed|There is)\b")


async def test_a_german_player_is_refused_a_replay_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    board, _shown = await played(run)
    game_id = (await run.game_row()).id

    refusals = {
        "none yet": await (await fake.send_command("gate replay", user=bob)).response(),
        "not his": await (await fake.send_command("gate replay", {"game": game_id}, user=bob)).response(),
        "no such": await (await fake.send_command("gate replay", {"game": game_id + 5}, user=bob)).response(),
        "his button": await (await fake.click(board, f"gate:replay:{game_id}", user=bob)).response(),
    }
    await (await fake.send_command("gate new", {"deal": 2}, user=bob)).response()
    bobs = (await run.game_row()).id  # the newest game: Bob's
    refusals["his own, running"] = await (await fake.send_command("gate replay", user=bob)).response()
    refusals["chosen, running"] = await (await fake.send_command("gate replay", {"game": bobs}, user=bob)).response()

    assert all(refused.ephemeral for refused in refusals.values())
    said = {what: refused.content for what, refused in refusals.items()}
    assert said["none yet"] == "Du hast noch kein beendetes Spiel zum Anschauen: Spiel zuerst eins."
    assert said["not his"] == (
        f"Spiel #{game_id} gehört einem anderen Spieler, und nur Versuche in Herausforderungen können andere "
        "anschauen, sobald ihre Herausforderung beendet ist."
    )
    assert said["his button"] == said["not his"], "a press on Alice's Replay button is refused alike"
    assert said["no such"] == f"Es gibt kein Spiel #{game_id + 5}."
    assert said["his own, running"] == "Dein Spiel läuft noch: Beende es zuerst, dann schau es dir noch einmal an."
    assert said["chosen, running"] == f"Spiel #{bobs} läuft noch: Beende es zuerst, dann schau es dir noch einmal an."
    for what, content in said.items():
        assert not ENGLISH_REFUSAL.search(content), (what, content)
    english = await (await fake.send_command("gate replay", {"game": game_id + 5})).response()
    assert english.content == f"There is no game #{game_id + 5}.", "Alice's English client keeps English"


async def test_the_replay_button_of_a_finished_board_opens_the_replay_as_a_new_message(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    board, shown = await played(run)
    game_id = (await run.game_row()).id
    row_of = {c["custom_id"]: index for index, row in enumerate(board.components) for c in row["components"]}
    assert row_of[f"gate:replay:{game_id}"] == row_of[f"gate:again:{game_id}"] == row_of[f"gate:share:{game_id}"]
    versions = len(board.history)
    bob = fake.user("bob")
    refused = await (await fake.click(board, f"gate:replay:{game_id}", user=bob)).response()
    assert refused.ephemeral and "another player's" in refused.content
    pressed = await fake.click(board, f"gate:replay:{game_id}")
    answer = await pressed.response()
    assert answer.type == 4 and not answer.ephemeral
    assert pressed.original is not None and pressed.original.id != board.id
    assert board_part(pressed.original.content) == shown[0] and "Step 0 of 6" in pressed.original.content
    assert len(fake.message(board.id).history) == versions, "the finished board is left as it was"


async def test_the_service_decides_who_watches_and_is_asked_again_at_every_press(
    gatebot: Callable, monkeypatch
) -> None:
    """Here the service lets bob watch Alice's game (as for a closed challenge's attempt): the bot only asks."""
    run: Running = await gatebot()
    fake = run.fake
    await played(run)
    game_id = (await run.game_row()).id
    replays = run.bot.services.games.replays
    alice = await replays.replay(Actor(PLATFORM, str(fake.user("alice").id), "Alice"), game_id)
    asked: list[Any] = []

    async def lets_watch(actor: Any, chosen: int | None = None) -> GameReplay:
        asked.append((actor.user_id, chosen))
        return alice

    monkeypatch.setattr(replays, "replay", lets_watch)
    bob = fake.user("bob")
    _handle, replay = await opened(fake, args={"game": game_id}, user=bob)
    await (await press(fake, replay, "▶", user=bob)).response()
    assert "Step 1 of 6" in fake.message(replay.id).content
    assert asked == [(str(bob.id), game_id)] * 2, "the service is asked again at each press"


async def test_a_step_whose_edit_fails_with_a_500_gets_a_short_apology_and_the_next_press_works(
    gatebot: Callable,
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await played(run)
    _handle, replay = await opened(fake)
    before = replay.content
    # The connection closes on the edit, and again when it is sent again (a 500 that arrives is retried: below).
    failing = fake.fail(CALLBACK, 500, drop=True, times=2)
    answer = await (await press(fake, replay, "▶")).response()
    assert failing.hits == 2
    assert answer.ephemeral and answer.content == REPLAY_APOLOGY
    assert fake.message(replay.id).content == before
    again = await (await press(fake, fake.message(replay.id), "▶")).response()
    assert again.type == 7 and "Step 1 of 6" in fake.message(replay.id).content


async def test_a_step_whose_edit_gets_one_500_is_retried_and_shown(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await played(run)
    _handle, replay = await opened(fake)
    failing = fake.fail(CALLBACK, 500)
    pressed = await press(fake, replay, "▶")
    answer = await pressed.response(timeout=10)
    assert failing.hits == 1 and answer.type == 7 and "Step 1 of 6" in fake.message(replay.id).content
    assert not pressed.followups, "no apology for a step that was shown"


async def test_the_step_buttons_work_after_a_restart(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    _board, shown = await played(run)
    _handle, replay = await opened(fake)
    await run.bot.close()
    await gatebot()  # only the database and the custom ids remain
    answer = await (await press(fake, fake.message(replay.id), "⏭")).response()
    assert answer.type == 7 and board_part(fake.message(replay.id).content) == shown[-1]


async def test_an_image_player_steps_through_pictures(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await played(run)
    await (await fake.send_command("gate settings", {"style": "image"})).response()
    _handle, replay = await opened(fake)
    first = replay.file("gate-board.png").data
    assert "Step 0 of 6" in replay.embeds[0]["description"]
    await (await press(fake, replay, "▶")).response()
    replay = fake.message(replay.id)
    assert "Step 1 of 6" in replay.embeds[0]["description"]
    with Image.open(io.BytesIO(replay.file("gate-board.png").data)) as picture:
        assert picture.format == "PNG"
    assert replay.file("gate-board.png").data != first


# -- any step a custom id may carry -----------------------------------------------------------------


def _replay() -> GameReplay:
    seen = positions(Game.new("gate", deal=1), LOG, undo_token=UNDO_TOKEN)
    return GameReplay(7, "Alice", "gate", 1, (), GameStatus.RESIGNED, tuple(seen))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(step=st.integers(min_value=0, max_value=10**9 - 1))
def test_any_step_in_a_custom_id_shows_a_step_of_the_game_with_buttons_that_lead_inside_it(step: int) -> None:
    replay = _replay()
    last = len(replay.positions) - 1
    screen = ReplayScreen(None)  # type: ignore[arg-type]  # drawing only: no press is answered

    async def draw() -> Any:
        return await screen.message(replay, step, Preferences("text", False))

    message = asyncio.run(draw())
    shown = min(step, last)
    assert message.content is not None and f"Step {shown} of {last} · " in message.content
    assert message.view is not None
    ids = [item.item.custom_id for item in message.view.children]  # type: ignore[attr-defined]
    assert len(set(ids)) == len(ids) == 5 and all(len(i) <= 100 for i in ids)
    targets = [int(m["step"]) for i in ids if (m := re.fullmatch(STEP_ID, i))]
    assert len(targets) == 4 and all(0 <= t <= last for t in targets)
    assert re.fullmatch(ANIMATION_ID, ids[-1])
    disabled = [item.item.disabled for item in message.view.children]  # type: ignore[attr-defined]
    assert disabled == [shown == 0, shown == 0, shown == last, shown == last, False]


async def test_a_german_reader_gets_the_replay_screen_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await played(run)
    fake.user("alice").locale = "de"
    _handle, replay = await opened(fake)
    content = replay.content
    assert "Wiederholung von Spiel #" in content and ": Gate von Alice, Spiel 1, aufgegeben nach 4 Zügen." in content
    assert "Schritt 0 von 6 · die Ausgangsstellung" in content
    assert "Spiel 1 · 0 Züge" in board_part(content), "the board is drawn in German too"
    assert set(buttons(replay)) == {"⏮", "◀", "▶", "⏭", "Animation"}
    await (await press(fake, replay, "⏭")).response()
    await (await press(fake, fake.message(replay.id), "◀")).response()
    content = fake.message(replay.id).content
    assert "Schritt 5 von 6 · zurück: w8 zurückgenommen" in content
    assert not re.search(r"\b(Step|Replay of|the deal|resigned|after|took back|moves)\b", content), content
