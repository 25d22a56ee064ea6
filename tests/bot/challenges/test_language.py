"""Challenges in the reader's language: a German player's answers and refusals, and announcements in the server's.

The real bot, the fake Discord and a real SQLite file. A command's answer is said in its
user's client language; an announcement has no single reader, so it is said in the
server's ``preferred_locale``, and one in an English server stays English.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from gatebot.bot.challenges._announcements import server_line
from gatebot.locale import translator
from gatebot.service.challenges import ServerStanding
from tests.bot.challenges.test_challenges import create, play_button, posts
from tests.bot.gatebots import Running
from tests.bot.test_language import _walk
from tests.bot.test_questions import labels
from tests.fake_discord import FakeDiscord

#: Sentences of the English challenge texts: none may remain in a German one.
ENGLISH = re.compile(
    r"\b(is open|has closed|closed|closes|opens|One attempt|Your attempt|has begun|hints|undo|allowed|played|"
    r"Nobody|standings|challenges|Only members|already)\b"
)


async def test_a_german_player_gets_the_challenge_answers_and_refusals_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    announcement = await create(run, name="Freitag", deal=1, hours=3)
    assert "**Freitag** is open!" in announcement.content, "an English server's announcement stays English"

    started = await (await fake.send_command("challenge play", user=bob)).response()
    assert not started.ephemeral
    assert "Dein Versuch bei Freitag hat begonnen: Tipps erlaubt, Zurücknehmen erlaubt" in started.content
    assert "endet in 3 Stunden." in started.content
    assert "Punkte 0/52" in started.content  # the board beside it is drawn in German too
    assert not ENGLISH.search(started.content), started.content

    again = await (await fake.send_command("challenge play", user=bob)).response()
    assert again.ephemeral
    assert again.content == (
        "Du hast Freitag schon gespielt: Jeder hat nur einen Versuch; die Ergebnisse zeigt /herausforderung rangliste."
    )
    missing = await (await fake.send_command("challenge leaderboard", {"challenge": 99}, user=bob)).response()
    assert missing.content == "Dieser Server hat keine Herausforderung mit der Nummer 99: siehe /herausforderung liste."
    made = await (await fake.send_command("challenge-admin create", {"deal": 3}, user=bob)).response()
    assert made.ephemeral
    assert made.content == "Nur Mitglieder mit der Berechtigung „Server verwalten“ können Herausforderungen erstellen."

    listed = await (await fake.send_command("challenge list", user=bob)).response()
    assert listed.content.startswith("**Offene Herausforderungen**\n")
    assert "Freitag** — Gate · Tipps erlaubt" in listed.content and "1 hat gespielt" in listed.content
    assert not ENGLISH.search(listed.content), listed.content
    board = await (await fake.send_command("challenge leaderboard", user=bob)).response()
    assert not board.ephemeral, "public standings are the server's, said in its language whoever asks"
    assert "(challenge 1)" in board.content and "0 cards home · 0 moves · 0 hints" in board.content

    asked = await fake.send_autocomplete("challenge play", {"challenge": ""}, focused="challenge", user=bob)
    assert [choice["name"] for choice in (await asked.response()).choices] == ["1 — Freitag (offen, 1 gespielt)"]

    english = await (await fake.send_command("challenge list")).response()
    assert english.content.startswith("**Open challenges**\n") and "1 has played" in english.content


async def test_announcements_are_said_in_the_servers_language(fake: FakeDiscord, gatebot: Callable) -> None:
    fake.guild.preferred_locale = "de"  # what the bot is told of the server when it connects
    run: Running = await gatebot()
    games = fake.guild.channel("games")
    on = await (await fake.send_command("challenge-admin daily on", {"channel": games})).response()
    assert on.content.startswith("The daily challenge is on"), "the admin's own answer is in their language"
    await run.scheduler.run_once()
    [daily] = posts(fake, games)
    assert "ist eröffnet! (Herausforderung 1)" in daily.content and "Tipps erlaubt" in daily.content
    assert "Ein Versuch für jeden: Drück **Spielen**" in daily.content
    assert labels(daily) == ["Spielen"], "its button is worded like the announcement"
    assert not ENGLISH.search(daily.content), daily.content
    pressed = await fake.click(daily, play_button(daily))  # from an English client
    assert "Your attempt at" in (await pressed.response()).content
    await fake.wait_for(lambda: "1 hat gespielt" in fake.message(daily.id).content or None,
                        what="the announcement's count of players, in German")

    ended = await (await fake.send_command("challenge-admin end", {"challenge": 1})).response()
    assert "(Herausforderung 1) ist beendet: Gate, Spiel" in ended.content
    assert "Endstand (1 Spieler):" in ended.content and "Karten abgelegt" in ended.content
    assert not ENGLISH.search(ended.content), ended.content
    retired = await fake.wait_for(lambda: None if fake.message(daily.id).custom_ids()
                                  else fake.message(daily.id), what="the Play button removed")
    assert "(Herausforderung 1) wurde <t:" in retired.content and "Die Ergebnisse zeigt" in retired.content
    assert not ENGLISH.search(retired.content), retired.content


#: The months as German writes them in a date (5. März 2026).
MONTHS = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
          "November", "Dezember")


async def test_a_daily_challenge_on_a_german_server_is_named_in_german(fake: FakeDiscord, gatebot: Callable) -> None:
    fake.guild.preferred_locale = "de"
    run: Running = await gatebot()
    games = fake.guild.channel("games")
    await (await fake.send_command("challenge-admin daily on", {"channel": games})).response()
    await run.scheduler.run_once()
    today = datetime.now(UTC).date()
    name = f"Tagesherausforderung {today.day}. {MONTHS[today.month - 1]} {today.year}"
    [daily] = posts(fake, games)
    assert f"**{name}** ist eröffnet!" in daily.content, daily.content
    listed = await (await fake.send_command("challenge list")).response()
    assert name in listed.content, "the name is stored as said: an English reader sees it too"
    made = await (await fake.send_command("challenge-admin create", {"deal": 3})).response()
    assert "**Herausforderung 1** ist eröffnet!" in made.content, made.content


async def test_the_question_before_an_attempt_has_german_buttons_for_a_german_player(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    await create(run, name="Freitag", deal=1, hours=3)
    await (await fake.send_command("gate new", {"deal": 2}, user=bob)).response()
    question = await fake.send_command("challenge play", user=bob)  # a game is running: asked first
    assert (await question.response()).ephemeral
    assert labels(question.original) == ["Meinen Versuch starten", "Weiterspielen"]
    await (await fake.send_command("gate new", {"deal": 2})).response()
    english = await fake.send_command("challenge play")
    assert (await english.response()).ephemeral
    assert labels(english.original) == ["Start my attempt", "Keep playing"]


async def test_the_challenge_commands_are_named_and_described_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    synced = {command["name"]: command for command in run.fake.commands(run.fake.guild)}
    for top in ("challenge", "challenge-admin"):
        undescribed = [
            path for path, part in _walk(synced[top])
            if "description" in part and not (part.get("description_localizations") or {}).get("de")
        ]
        assert undescribed == [], top
        for path, part in _walk(synced[top]):  # within Discord's limits, or it refuses the whole sync
            german = (part.get("name_localizations") or {}).get("de")
            if german is not None and "=" not in path:
                assert re.fullmatch(r"[-_\w]{1,32}", german) and german == german.lower(), (path, german)
            described = (part.get("description_localizations") or {}).get("de")
            assert described is None or 1 <= len(described) <= 100, (path, described)
    parts = dict(_walk(synced["challenge"]) + _walk(synced["challenge-admin"]))
    assert parts["challenge leaderboard"]["name_localizations"]["de"] == "rangliste"
    assert parts["challenge-admin daily"]["name_localizations"]["de"] == "täglich"
    assert parts["challenge-admin create hours"]["name_localizations"]["de"] == "stunden"
    assert parts["challenge"]["description_localizations"]["de"] == (
        "Herausforderungen auf dem Server: ein Spiel, jeder einmal"
    )
    assert parts["challenge-admin create hints = Forbidden"]["name_localizations"]["de"] == "Verboten"


def test_the_all_time_leaderboard_writes_its_win_rate_the_readers_way() -> None:
    standing = ServerStanding(rank=1, name="Bob", user_id="2", played=3, wins=2, best_streak=1)
    assert server_line(standing, translator("de")).endswith("2 Siege bei 3 gespielten (67\u00a0%) · beste Serie 1")
    assert server_line(standing, translator("en")).endswith("2 wins of 3 played (67%) · best streak 1")


async def test_an_attempts_rules_refuse_a_german_player_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    await create(run, name="Freitag", deal=1, hints="forbidden", undo="forbidden")
    await (await fake.send_command("challenge play", user=bob)).response()
    await (await fake.send_command("gate move", {"moves": "3f"}, user=bob)).response()

    hint = (await (await fake.send_command("gate hint", user=bob)).original_edited()).content
    assert hint == "Tipps sind bei Freitag ausgeschaltet: Dieser Versuch ist ganz deine eigene Arbeit."
    undo = await (await fake.send_command("gate undo", user=bob)).response()
    assert undo.ephemeral and undo.content == "Zurücknehmen ist bei Freitag ausgeschaltet: Jeder Zug gilt."
    await (await fake.send_command("challenge play")).response()  # Alice, from an English client
    english = (await (await fake.send_command("gate hint")).original_edited()).content
    assert english == "Hints are off in Freitag: this attempt is all your own work."
    asked = await (await fake.send_command("gate new", {"deal": 2}, user=bob)).response()
    assert asked.ephemeral and asked.content == (
        "Du spielst Freitag (Punktestand 1/52): Ein neues Spiel starten und deinen Versuch beenden? Er behält seine "
        "Punkte, und einen zweiten Versuch gibt es nicht."
    )
    for said in (hint, undo.content, asked.content):
        assert not ENGLISH.search(said) and not re.search(r"\b(Hints|Undo|attempt|score|playing)\b", said), said


async def test_a_german_player_asking_for_an_open_challenges_deal_is_refused_in_german(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    bob = fake.user("bob")
    bob.locale = "de"
    await create(run, name="Freitag", deal=7)
    refused = await (await fake.send_command("gate new", {"deal": 7}, user=bob)).response()
    assert refused.ephemeral and refused.content == (
        "Spiel 7 ist eine Herausforderung, die gerade läuft: Nimm mit /herausforderung spielen daran teil "
        "oder wähle ein anderes Spiel."
    )
    english = await (await fake.send_command("gate new", {"deal": 7})).response()
    assert english.content == (
        "Deal 7 is a challenge being played right now: join it with /challenge play, or pick another deal."
    )
    assert [row.challenge_id for row in await run.games()] == [], "nothing was dealt"
