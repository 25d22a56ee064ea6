"""The public pages as a visitor meets them: a challenge's standings and a finished game's replay, no sign-in.

Challenges are made and played through the services as chat makes and plays them (Discord
players in a server); the pages are read over HTTP by visitors with their own cookies. An open
challenge's deal and its attempts' moves are never shown; a forgotten player is on no page; every
refusal of a replay is the same 404 sentence, whatever the reason.
"""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from gatebot.service import Actor
from gatebot.service.challenges import ChallengeService
from gatebot.web.guard import CONTENT_SECURITY_POLICY
from tests.lines import WIN_DEAL_1
from tests.web.conftest import Browser, Table, make_table

GUILD = 1180000000000000000
#: The challenge's deal: a number long enough never to appear in a page by chance.
DEAL = 4064381782
ALICE = Actor("discord", "1180000000000000001", "Alice", guild_id=GUILD, channel_id=42)
#: A player whose display name is markup: it must show as its letters.
MALLORY = Actor("discord", "1180000000000000002", '<img src=x onerror="alert(1)">&amp;', guild_id=GUILD,
                channel_id=42)
BOB = Actor("discord", "1180000000000000003", "Bob", guild_id=GUILD, channel_id=42)
NAME = '<script>alert("x")</script> Friday & co'
#: The one sentence of a refused replay (the reader's English).
NO_REPLAY = "There is no replay to show here"


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


@dataclass
class Site:
    table: Table
    clock: Clock
    challenges: ChallengeService


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    clock = Clock()
    db, table = await make_table(tmp_path, clock=clock)
    try:
        yield Site(table, clock, ChallengeService(table.service))
    finally:
        for browser in table.browsers:
            await browser.client.close()
        await table.server.close()
        table.service.close()
        await db.dispose()


async def page(browser: Browser, path: str, status: int = 200, **headers: str) -> str:
    response = await browser.client.get(path, headers=headers)
    text = await response.text()
    assert response.status == status, text
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    if response.content_type == "text/html":
        assert "<script>" not in text.replace(html.escape("<script>"), "") and "style=" not in text
    return text


async def challenge_with_attempts(site: Site) -> tuple[int, int, int]:
    """A challenge on DEAL played by Mallory (resigned after moves) and Alice (still playing); their game ids."""
    info = await site.challenges.create(BOB, GUILD, channel_id=None, name=NAME, deal=DEAL, hours=2)
    service = site.table.service
    mallory = await site.challenges.play(MALLORY, GUILD, info.id)
    await service.play(MALLORY, "d d")
    await service.resign(MALLORY)
    alice = await site.challenges.play(ALICE, GUILD, info.id)
    await service.play(ALICE, "d")
    assert mallory.game_id is not None and alice.game_id is not None
    return info.id, mallory.game_id, alice.game_id


def cards_in(text: str) -> set[str]:
    """Every card name (``QD``, ``TC``) in a page or an answer."""
    return set(re.findall(r'"([2-9TJQKA][CDHS])"', text))


async def test_an_open_challenges_page_names_no_deal_links_no_replay_and_escapes_names(site: Site) -> None:
    number, mallory_game, alice_game = await challenge_with_attempts(site)
    visitor = await site.table.browser()
    text = await page(visitor, f"/challenges/{number}")
    assert html.escape(NAME) in text and NAME not in text
    assert html.escape(MALLORY.display_name) in text and MALLORY.display_name not in text
    assert "Alice" in text and "open, closes in 2 hours" in text
    assert str(DEAL) not in text and "/replay/" not in text
    # The attempts themselves are not to be watched, by anyone, while the challenge is open: one sentence, 404.
    for game in (mallory_game, alice_game):
        refused = await page(visitor, f"/replay/{game}", 404)
        assert NO_REPLAY in refused and str(DEAL) not in refused and "Mallory" not in refused
        answer = await visitor.client.get(f"/api/replay/{game}")
        assert answer.status == 404
        body = await answer.json()
        assert set(body) == {"error"} and body["error"].startswith(NO_REPLAY) and not cards_in(await answer.text())


async def test_a_closed_challenge_names_its_deal_and_links_each_finished_attempt_to_its_replay(site: Site) -> None:
    number, mallory_game, alice_game = await challenge_with_attempts(site)
    site.clock.at += timedelta(hours=3)  # its time is up, though nothing has closed it yet
    visitor = await site.table.browser()
    text = await page(visitor, f"/challenges/{number}")
    assert f"deal {DEAL}" in text and "closed 1 Dec 2026" in text
    assert f'href="../replay/{mallory_game}"' in text
    assert f'href="../replay/{alice_game}"' not in text  # still running when time ran out: not over yet
    await site.challenges.end(GUILD, number)  # the tick closes it: Alice's attempt ends
    text = await page(visitor, f"/challenges/{number}")
    assert f'href="../replay/{alice_game}"' in text and "(time ran out)" in text
    viewer = await page(visitor, f"/replay/{mallory_game}")
    assert html.escape(MALLORY.display_name) in viewer and MALLORY.display_name not in viewer
    assert f"deal {DEAL}" in viewer and 'src="../static/replay.js"' in viewer
    frames = await (await visitor.client.get(f"/api/replay/{mallory_game}")).json()
    assert [frame["step"] for frame in frames["frames"]] == [0, 1, 2]
    assert frames["frames"][-1]["line"].startswith("Step 2 of 2 · d")


async def test_a_forgotten_player_is_on_no_page(site: Site) -> None:
    number, mallory_game, _ = await challenge_with_attempts(site)
    await site.challenges.end(GUILD, number)
    assert await site.table.service.forget(MALLORY)
    visitor = await site.table.browser()
    text = await page(visitor, f"/challenges/{number}")
    assert html.escape(MALLORY.display_name) not in text and "Alice" in text
    assert f"/replay/{mallory_game}" not in text
    assert NO_REPLAY in await page(visitor, f"/replay/{mallory_game}", 404)


@pytest.mark.parametrize("path", ["/challenges/999", "/challenges/0", "/challenges/9999999999999999999",
                                  "/challenges/99999999999999999999", "/replay/9999999999999999999"])
async def test_an_unknown_challenge_is_a_404_page_of_one_sentence(site: Site, path: str) -> None:
    visitor = await site.table.browser()
    text = await page(visitor, path, 404)
    assert "Traceback" not in text
    assert "no challenge by that number" in text or "nothing here" in text or NO_REPLAY in text


async def test_the_page_speaks_the_readers_language(site: Site) -> None:
    number, _, _ = await challenge_with_attempts(site)
    visitor = await site.table.browser()
    text = await page(visitor, f"/challenges/{number}", **{"Accept-Language": "de-DE,de;q=0.9"})
    assert 'lang="de"' in text and "offen, endet in 2 Stunden" in text and "Rang" in text


async def test_a_guest_watches_their_own_finished_game_as_they_saw_it_and_nobody_else_can(site: Site) -> None:
    player = await site.table.browser()
    await player.deal(7, "canfield")
    seen = [(await (await player.client.get("/api/game")).json())["view"]]
    for move in ("d", "d", "d", "d"):
        answer = await player.post("/api/play", {"move": move, "version": seen[-1]["version"]})
        assert answer.status == 200, await answer.text()
        seen.append((await answer.json())["view"])
    game = seen[-1]["game"]
    # Still running: not even its player may watch it yet.
    assert NO_REPLAY in await page(player, f"/replay/{game}", 404)
    await site.table.service.resign(site.table.owner())
    await page(player, f"/replay/{game}")
    answer = await player.client.get(f"/api/replay/{game}")
    replay = await answer.json()
    # Every frame is the board the player was shown at that step, and nothing else: no hidden card comes out.
    assert [frame["piles"] for frame in replay["frames"]] == [view["piles"] for view in seen]  # resigning moves nothing
    assert cards_in(await answer.text()) <= set().union(*(cards_in(str(view["piles"]).replace("'", '"'))
                                                          for view in seen))
    assert replay["frames"][0]["layout"] == seen[0]["layout"]
    someone = await site.table.browser()
    assert NO_REPLAY in await page(someone, f"/replay/{game}", 404)


async def test_the_win_screen_names_the_game_just_won_and_its_replay_opens(site: Site) -> None:
    player = await site.table.browser()
    dealt = await player.deal(1)
    answer = await player.post("/api/play", {"move": " ".join(WIN_DEAL_1), "version": dealt["version"]})
    won = (await answer.json())["view"]
    assert won["status"] == "won"
    replay = await (await player.client.get(f"/api/replay/{won['game']}")).json()
    assert len(replay["frames"]) == len(WIN_DEAL_1) + 1 and replay["frames"][-1]["score"] == 52
    assert replay["heading"].startswith(f"Replay of game #{won['game']}: Guest's Gate deal 1, won after")


async def test_a_challenge_made_to_open_later_names_no_deal(site: Site) -> None:
    info = await site.challenges.create(BOB, GUILD, channel_id=None, name="Weekend", deal=DEAL, hours=2, starts_in=5)
    visitor = await site.table.browser()
    text = await page(visitor, f"/challenges/{info.id}")
    assert "not open yet: it opens in 5 hours" in text and "Nobody has played it yet." in text
    assert str(DEAL) not in text
