"""The referee: Discord's own API description judges every REST call made to the fake, and the fake's answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import discord
import pytest

from tests.bot.running import StartBot
from tests.bot.sample_bot import SampleBot
from tests.fake_discord import FakeDiscord
from tests.fake_discord.referee import Referee, Violation, description

ROOT = Path(__file__).resolve().parents[2]
PROBE = "GATEBOT_REFEREE_PROBE"
MESSAGES = "/channels/123/messages"
CALLBACK = "/interactions/456/a-token/callback"


def checked(method: str, path: str, *, query: dict[str, str] | None = None, body: object = None,
            content_type: str = "application/json", files: tuple[str, ...] = ()) -> list[Violation]:
    """What the referee finds wrong with one request."""
    return Referee().check_request(method, path, query or {}, content_type if body is not None else "", body, files)[1]


def test_a_valid_message_with_a_row_of_buttons_passes() -> None:
    body = {"content": "Your move", "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Draw", "custom_id": "gate:draw", "emoji": {"name": "🂠", "id": None}},
    ]}], "allowed_mentions": {"parse": []}}
    referee = Referee()
    operation, problems = referee.check_request("POST", MESSAGES, {}, "application/json", body, [])
    assert problems == [] and operation is not None and operation.id == "create_message"
    assert referee.tally.requests == 1 and referee.tally.operations == {"create_message"}


def test_a_field_of_the_wrong_type_is_named_with_its_path_and_the_operation() -> None:
    button = {"type": 2, "style": 1, "label": 7, "custom_id": "a"}
    body = {"content": "x", "components": [{"type": 1, "components": [button]}]}
    [problem] = checked("POST", MESSAGES, body=body)
    assert (problem.operation, problem.where) == ("create_message", "$.components[0].components[0].label")
    assert "7 is not of type 'string'" in problem.message
    assert str(problem).startswith("create_message (POST /channels/123/messages): the bot sent $.components[0]")


def test_a_component_of_an_unknown_kind_is_refused_by_its_type() -> None:
    body = {"components": [{"type": 1, "components": [{"type": 99, "custom_id": "a"}]}]}
    [problem] = checked("PATCH", MESSAGES + "/789", body=body)
    assert problem.operation == "update_message" and problem.where == "$.components[0].components[0].type"
    assert "99 is not one of" in problem.message


def test_a_path_no_operation_has_is_refused() -> None:
    [problem] = checked("GET", "/channels/123/messagez")
    assert problem.operation is None and "no operation of Discord's API has this method and path" in str(problem)
    [wrong_method] = checked("PUT", MESSAGES, body={"content": "x"})
    assert wrong_method.operation is None


def test_a_bad_path_parameter_and_bad_or_unknown_query_parameters_are_refused() -> None:
    problems = checked("GET", "/channels/12a/messages", query={"limit": "500", "sort": "new"})
    assert [(p.operation, p.where) for p in problems] == [
        ("list_messages", "path channel_id"), ("list_messages", "query limit"), ("list_messages", "query sort"),
    ]
    assert "does not match" in problems[0].message
    assert "500 is greater than the maximum of 100" in problems[1].message
    assert problems[2].message == "is not a parameter of this operation"
    assert checked("GET", MESSAGES, query={"limit": "50", "before": "99"}) == []


def test_discords_spellings_of_a_boolean_in_a_query_pass_and_others_do_not() -> None:
    body = {"type": 5}
    for spelling in ("1", "true", "False", "0"):
        assert checked("POST", CALLBACK, query={"with_response": spelling}, body=body) == []
    [problem] = checked("POST", CALLBACK, query={"with_response": "yes"}, body=body)
    assert problem.where == "query with_response" and "is not of type 'boolean'" in problem.message


def test_a_multipart_payload_json_is_checked_with_its_files() -> None:
    payload = {"content": "Replay", "attachments": [{"id": 0, "filename": "replay.gif"}]}
    assert checked("POST", MESSAGES, body=payload, content_type="multipart/form-data", files=("files[0]",)) == []
    bad = {**payload, "tts": "no"}
    [problem] = checked("POST", MESSAGES, body=bad, content_type="multipart/form-data", files=("files[0]",))
    assert (problem.operation, problem.where) == ("create_message", "$.tts")
    assert "'no' is not of type 'boolean'" in problem.message


def test_an_interaction_callback_is_judged_by_the_member_its_type_names() -> None:
    [problem] = checked("POST", CALLBACK, body={"type": 4, "data": {"content": "x", "flags": "ephemeral"}})
    assert (problem.operation, problem.where) == ("create_interaction_response", "$.data.flags")
    assert checked("POST", CALLBACK, body={"type": 4, "data": {"content": "x", "flags": 64}}) == []


def test_the_listed_exceptions_are_narrow() -> None:
    """discord.py's integer snowflakes pass where they are listed, and nowhere else."""
    reply = {"content": "x", "message_reference": {"channel_id": 123, "message_id": 456}}
    assert checked("POST", MESSAGES, body=reply) == []
    [problem] = checked("POST", MESSAGES, body={"content": "x", "sticker_ids": [123]})
    assert problem.where == "$.sticker_ids[0]"


def test_a_wrongly_shaped_answer_of_the_fake_is_caught() -> None:
    referee = Referee()
    operation, _ = referee.check_request("GET", "/users/@me", {}, "", None, [])
    assert operation is not None
    [problem] = referee.check_response(operation, "GET", "/users/@me", 200, {"id": "1", "username": "gatebot"})
    assert problem.in_response and "the fake answered" in str(problem) and "is a required property" in problem.message
    assert referee.check_response(operation, "GET", "/users/@me", 404, {"message": "Unknown User", "code": 10013}) == []
    [undocumented] = referee.check_response(operation, "GET", "/users/@me", 302, None)
    assert "status 302 is not documented" in undocumented.message


def test_the_description_is_read_once_per_process() -> None:
    assert description() is description()
    assert description().validator("/components/schemas/UserResponse") is description().validator(
        "/components/schemas/UserResponse"
    )


async def test_a_rejected_request_is_answered_like_discord_and_kept_until_taken(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    channel = fake.channel.id
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_base}/channels/{channel}/messages"
        async with session.post(url, json={"content": 5}, headers=headers) as answer:
            assert answer.status == 400
            body = await answer.json()
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps({"content": "hi", "embeds": {"title": "x"}}))
        form.add_field("files[0]", b"GIF89a", filename="a.gif", content_type="image/gif")
        async with session.post(url, data=form, headers=headers) as answer:
            assert answer.status == 400
        async with session.get(f"{fake.api_base}/channels/{channel}/nothing-here", headers=headers) as answer:
            assert answer.status == 404
    assert body["code"] == 50035 and "content" in body["errors"]
    assert fake.messages(fake.channel) == []  # nothing a rejected request asked for happened
    problems = fake.take_violations()
    assert [(p.operation, p.where) for p in problems] == [
        ("create_message", "$.content"), ("create_message", "$.embeds"), (None, "$"),
    ]
    assert fake.violations == []  # taken: this test sent them on purpose


async def test_the_real_bots_traffic_is_checked_and_passes(fake: FakeDiscord, start_bot: StartBot[SampleBot]) -> None:
    bot = await start_bot(SampleBot())
    await bot.tree.sync(guild=discord.Object(fake.guild.id))
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("hello")
    await sent.add_reaction("✅")
    await sent.edit(content="edited")
    tally = fake.state.referee.tally
    assert {"get_my_user", "bulk_set_guild_application_commands", "create_message", "add_my_message_reaction",
            "update_message"} <= tally.operations
    assert tally.requests == len(fake.requests) and tally.responses == len(fake.requests)
    assert fake.violations == []


@pytest.mark.parametrize("status", [400, 403, 404, 429])
async def test_the_fakes_injected_failures_are_described_answers(fake: FakeDiscord, status: int) -> None:
    fake.fail("POST /channels/{channel_id}/messages", status, code=50013 if status == 403 else 0, retry_after=0.01)
    url, headers = f"{fake.api_base}/channels/{fake.channel.id}/messages", {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as session, session.post(url, json={"content": "x"}, headers=headers) as answer:
        assert answer.status == status
    assert fake.state.referee.tally.responses == 1 and fake.violations == []


@pytest.mark.skipif(not os.environ.get(PROBE), reason="run by the test below, in a pytest of its own")
async def test_probe_a_bad_request_left_unclaimed(fake: FakeDiscord) -> None:
    """Sends a request Discord would refuse and passes on its own: only the referee's fixture can fail it."""
    async with aiohttp.ClientSession() as session, session.post(
        f"{fake.api_base}/channels/{fake.channel.id}/messages", json={"content": "x", "tts": "yes"},
        headers={"Authorization": f"Bot {fake.token}"},
    ) as answer:
        assert answer.status == 400


def test_a_violation_no_test_claims_fails_the_test_that_caused_it() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
         "tests/bot/test_referee.py::test_probe_a_bad_request_left_unclaimed"],
        cwd=ROOT, env={**os.environ, PROBE: "1"}, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "ERROR at teardown of test_probe_a_bad_request_left_unclaimed" in result.stdout
    assert "1 request(s) or answer(s) Discord's API description rejects" in result.stdout
    assert "create_message (POST /channels/" in result.stdout
    assert "the bot sent $.tts: 'yes' is not of type 'boolean'" in result.stdout
