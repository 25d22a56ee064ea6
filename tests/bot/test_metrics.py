"""Counters a host can read: scraped over HTTP from /metrics while a real gatebot plays against the fake Discord."""

from __future__ import annotations

import asyncio
import math
import os
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gatebot.bot import metrics
from tests.bot.gatebots import Running
from tests.fake_discord import FakeDiscord, StoredMessage

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
def counters() -> Iterator[str]:
    """The URL of a metrics server on a free loopback port, stopped after the test."""
    server = metrics.serve(0, "127.0.0.1")
    try:
        yield f"http://127.0.0.1:{server.port}/metrics"
    finally:
        server.stop()


async def scrape(url: str) -> Samples:
    """Every sample at ``url``, by name and labels, parsed as Prometheus parses the text format."""
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200 and response.content_type == "text/plain"
        text = await response.text()
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def moved(url: str, before: Samples, name: str, by: float = 1, **labels: str) -> Samples:
    """Scrape until ``name`` has grown by ``by`` since ``before`` (a command is counted once answered)."""
    async with asyncio.timeout(5):
        while True:
            now = await scrape(url)
            if value(now, name, **labels) - value(before, name, **labels) >= by:
                return now
            await asyncio.sleep(0.01)


def board_of(fake: FakeDiscord) -> StoredMessage:
    return next(m for m in reversed(fake.messages(fake.channel)) if any(c.startswith("gate:") for c in m.custom_ids()))


async def test_a_command_a_press_and_a_hint_move_the_counters_a_host_scrapes(gatebot: Callable, counters: str) -> None:
    run: Running = await gatebot()
    metrics.watch_gateway(run.bot)
    fake = run.fake
    before = await scrape(counters)
    await (await fake.send_command("gate new", {"deal": 1})).response()
    after_new = await moved(counters, before, "gatebot_commands_total", kind="/gate new")
    board = board_of(fake)
    draw = next(cid for cid in board.custom_ids() if cid.startswith("gate:draw:"))
    await (await fake.click(board, draw)).response()
    after_press = await moved(counters, after_new, "gatebot_commands_total", kind="press")
    asked = await fake.send_command("gate hint")
    assert (await asked.original_edited()).content.startswith("Hint: ")
    after_hint = await moved(counters, after_press, "gatebot_hint_seconds_count")
    assert value(after_hint, "gatebot_hint_seconds_sum") > value(before, "gatebot_hint_seconds_sum")
    await moved(counters, after_press, "gatebot_commands_total", kind="/gate hint")
    assert value(after_hint, "gatebot_commands_total", kind="/gate new") == value(after_new, "gatebot_commands_total",
                                                                                   kind="/gate new"), "counted once"
    assert value(after_hint, "gatebot_errors_total", cause="bug") == value(before, "gatebot_errors_total", cause="bug")
    latency = value(after_hint, "gatebot_gateway_latency_seconds")
    assert math.isfinite(latency) and 0 <= latency < 5, "the gateway's heartbeat was acknowledged"


async def test_a_bug_is_counted_as_an_error_and_the_player_gets_the_apology(
    gatebot: Callable, counters: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    run: Running = await gatebot()
    fake = run.fake
    await (await fake.send_command("gate new", {"deal": 1})).response()
    before = await scrape(counters)

    async def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(run.bot.services.games, "play", broken)
    answer = await (await fake.send_command("gate move", {"moves": "45"})).response()
    assert answer.ephemeral and answer.content.startswith("Sorry, something went wrong on my side.")
    await moved(counters, before, "gatebot_errors_total", cause="bug")


def test_a_port_already_taken_is_one_sentence() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(metrics.MetricsError) as caught:
            metrics.serve(port, "127.0.0.1")
    message = str(caught.value)
    assert message.startswith(f"Can't serve metrics on port {port} (") and "METRICS_PORT" in message
    assert "\n" not in message


async def test_gatebot_run_on_a_taken_metrics_port_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "DISCORD_TOKEN": "t", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/gatebot.db",
               "METRICS_PORT": str(port), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "gatebot", "run", env=env, cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=20)
    assert process.returncode == 2
    last = stderr.decode().strip().splitlines()[-1]
    assert last.startswith(f"gatebot: Can't serve metrics on port {port} (") and last.endswith("or unset it.")
    assert "Traceback" not in stderr.decode()
    assert not (tmp_path / "gatebot.db").exists(), "refused before the database was opened"
