"""Whatever a page (or anyone) sends, the answer is JSON with one sentence or a board: never a failure inside."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import make_table

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
BODIES = st.one_of(
    JSON_VALUES.map(json.dumps),
    st.fixed_dictionaries({}, optional={
        "move": st.one_of(st.text(max_size=60), st.integers(), st.none()),
        "version": st.one_of(st.integers(-3, 5), st.text(max_size=3), st.booleans()),
        "variant": st.one_of(st.sampled_from(["gate", "Little Gate", "demon", "archway", "nope"]), st.integers()),
        "deal": st.one_of(st.integers(-5, 10**12), st.text(max_size=5), st.none()),
        "options": st.one_of(st.lists(st.sampled_from(["draw-one", "kit", "x", ""]), max_size=10), st.text()),
        "winnable": st.booleans(),
        "confirm": st.booleans(),
    }).map(json.dumps),
    st.binary(max_size=60).map(lambda raw: raw.decode("latin-1")),
)
PATHS = st.sampled_from(["/api/play", "/api/undo", "/api/hint", "/api/auto", "/api/new", "/api/preferences"])


async def test_any_body_to_any_endpoint_gets_a_board_or_one_sentence(tmp_path: Path) -> None:
    db, table = await make_table(tmp_path)
    try:
        browser = await table.browser()
        await browser.deal(5)

        @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
        @given(path=PATHS, body=BODIES)
        def check(path: str, body: str) -> None:
            answers.append((path, body))

        answers: list[tuple[str, str]] = []
        check()
        for path, body in answers:
            response = await browser.client.post(path, data=body.encode("utf-8", "surrogatepass"), headers={
                "X-CSRF-Token": browser.token, "Content-Type": "application/json"})
            assert response.status in (200, 400, 409, 422), (path, body, response.status)
            data = await response.json()
            if response.status == 200:
                assert "error" not in data
            else:
                assert isinstance(data["error"], str) and data["error"], (path, body)
                assert "Traceback" not in data["error"]
        assert (await browser.client.get("/api/game")).status == 200
    finally:
        for each in table.browsers:
            await each.client.close()
        table.service.close()
        await db.dispose()
