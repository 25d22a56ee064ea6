"""Nothing gatebot sends breaks Discord's limits, whatever is typed into whichever command.

Every synced command (every subcommand of /gate and /challenge) is run with long and odd text in
each of its free-text options and odd values in the others, as members would type them, and
so are autocompletes and typed messages. The fake Discord refuses what real Discord refuses (2,000
characters of content, 4,096 of an embed's description, 25 choices of 100 characters, 5 rows of
5 components...), so a request the bot makes that breaks a limit shows as a status of 400. Each
interaction must get exactly one answer.

The inputs are the ones that have broken bots before plus texts drawn by hypothesis (with a
fixed seed, so a failure repeats; the bot is started once for all of them, which is why they are
drawn up front rather than by ``@given`` on the test).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from typing import Any

import hypothesis
from hypothesis import strategies as st

from tests.bot.gatebots import Running
from tests.bot.test_table import settled
from tests.fake_discord import FakeDiscord
from tests.fake_discord.handles import InteractionHandle

SUBCOMMAND, GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL = 1, 2, 3, 4, 5, 6, 7

KNOWN_BAD = [
    "x" * 3990,
    "9" * 5000,
    "3f " * 1300,
    "d" * 6000,
    "```" * 30 + " 3f",
    "@everyone @here <@1> <#2> <@&3>",
    "\u200b\u200e\u202e 3f \u0000 \x1b[31m",
    "ﷺ" * 300,
    "👩‍👩‍👧‍👦" * 200,
    "\n" * 50 + "3f",
    "K♣ Q♥ 10♦ ?12 R: W: S:",
    "",
    " ",
]


def odd_texts(count: int, seed: int) -> list[str]:
    """The known bad inputs, then ``count`` texts of all kinds and lengths drawn by hypothesis (seeded)."""
    drawn: list[str] = []

    @hypothesis.seed(seed)
    @hypothesis.settings(max_examples=count, database=None, phases=[hypothesis.Phase.generate], deadline=None)
    @hypothesis.given(st.text(min_size=0, max_size=200) | st.text(min_size=1000, max_size=4000), st.booleans())
    def collect(text: str, with_move: bool) -> None:
        drawn.append(text + " 3f" if with_move else text)

    collect()
    return KNOWN_BAD + drawn[:count]


def leaves(commands: list[dict[str, Any]]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Every runnable command path with its options: ``("gate move", [...])``."""
    for command in commands:
        options = command.get("options") or []
        subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            yield command["name"], options
            continue
        for sub in subs:
            for path, inner in leaves([sub]):
                yield f"{command['name']} {path}", inner


def fill(fake: FakeDiscord, options: list[dict[str, Any]], text: str, rng: random.Random) -> dict[str, Any]:
    """Values for a command's options: ``text`` (cut to its limit) in every free-text one, odd values elsewhere."""
    values: dict[str, Any] = {}
    for option in options:
        if option.get("autocomplete") and option["type"] == INTEGER:
            values[option["name"]] = rng.choice([1, 2**31, 2**53 - 1])
            continue
        if option.get("choices"):
            values[option["name"]] = rng.choice(option["choices"])["value"]
        elif option["type"] == STRING:
            low, high = option.get("min_length", 1), option.get("max_length", 6000)
            cut = (text or "x")[:high]
            values[option["name"]] = cut if len(cut) >= low else cut.ljust(low, "x")
        elif option["type"] == INTEGER:
            low, high = option.get("min_value", -(2**53) + 1), option.get("max_value", 2**53 - 1)
            values[option["name"]] = rng.choice([low, high])
        elif option["type"] == BOOLEAN:
            values[option["name"]] = rng.random() < 0.5
        elif option["type"] == USER:
            values[option["name"]] = fake.user(rng.choice(["alice", "bob"]))
        elif option["type"] == CHANNEL:
            values[option["name"]] = fake.channel
        elif option.get("required"):
            raise AssertionError(f"no odd value for option type {option['type']}")
    return values


def assert_within_limits(fake: FakeDiscord, handle: InteractionHandle, what: str) -> None:
    refused = [str(r) for r in fake.requests if r.status is not None and r.status >= 400]
    assert not refused, f"{what}: Discord refused {refused}"
    record = fake.state.interactions[handle.id]
    assert record.callback is not None, f"{what}: no answer"
    assert not record.rejected, f"{what}: answered more than once"


async def test_every_command_with_long_and_odd_input_stays_within_discords_limits(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    rng = random.Random(5)
    texts = odd_texts(4, seed=5)
    paths = list(leaves(fake.commands(fake.guild)))
    assert {"gate move", "gate new", "challenge-admin create"} <= {path for path, _ in paths}
    for path, options in paths:
        if path in ("gate forget-me", "challenge-admin forget-server"):
            continue  # they only ask a question; nothing to type
        free_text = any(o["type"] == STRING and not o.get("choices") for o in options)
        for text in texts if free_text else texts[:1]:
            handle = await fake.send_command(path, fill(fake, options, text, rng))
            await handle.response(timeout=10)
            await settled_quickly(fake)
            assert_within_limits(fake, handle, f"/{path} with {text[:30]!r}")


async def settled_quickly(fake: FakeDiscord) -> None:
    """Wait until the bot has stopped sending for a moment (follow-ups come after the first answer)."""
    count = -1
    while count != len(fake.requests):
        count = len(fake.requests)
        await asyncio.sleep(0.1)


async def test_autocomplete_with_odd_input_stays_within_discords_limits(gatebot: Callable) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    for text in odd_texts(8, seed=9):
        handle = await fake.send_autocomplete("gate move", {"moves": text[:6000]}, focused="moves")
        answer = await handle.response()
        assert answer.type == 8 and len(answer.choices) <= 25
        assert all(len(c["name"]) <= 100 and len(str(c["value"])) <= 100 for c in answer.choices)
        assert_within_limits(fake, handle, f"autocomplete {text[:30]!r}")


async def test_typed_messages_with_odd_input_get_one_mark_and_at_most_one_reply(gatebot: Callable) -> None:
    from tests.bot.test_table import replies_to

    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    for text in odd_texts(8, seed=11):
        sent = await fake.send_message(f"{fake.bot.mention} {text[:3900]}")
        if not text.strip():
            continue  # a bare mention is not a message for the game
        marks = await sent.reaction()
        await settled()
        assert marks in (["✅"], ["❌"]), marks
        assert len(replies_to(fake, sent)) <= 1
        refused = [str(r) for r in fake.requests if r.status is not None and r.status >= 400]
        assert not refused, f"typed {text[:30]!r}: Discord refused {refused}"
