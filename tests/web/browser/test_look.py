"""How the table looks on a phone and on a desktop, against committed reference images, and axe-core's verdict.

Set ``GATEBOT_UPDATE_SCREENSHOTS=1`` to write new reference images (and the docs' copies) instead of
comparing; look at them before committing.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from PIL import Image, ImageChops, ImageStat
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from gatebot.rules import Game
from gatebot.solver.registry import solve
from tests.web.browser.conftest import Server, wait
from tests.web.browser.table import deal, open_table, post, shown_version

REFERENCE = Path(__file__).parent / "reference"
DOCS = Path(__file__).parents[3] / "docs" / "images"
UPDATE = os.environ.get("GATEBOT_UPDATE_SCREENSHOTS") == "1"
#: Room for font smoothing, not for a moved card or a changed size: the mean difference per channel (of 255),
#: and the share of pixels whose brightness differs by more than STRONG (a one-pixel-larger index is 0.3%).
MEAN_TOLERANCE = 1.0
STRONG = 40
STRONG_SHARE = 0.001
SIZES = {"phone": (390, 844, True), "desktop": (1280, 800, False)}
DOCS_COPIES = {"gate-phone.png": "web-phone.png", "gate-desktop.png": "web-desktop.png"}


def show(page: WebDriver, server: Server, size: str, variant: str, number: int, scheme: str = "light") -> None:
    """The page at ``size`` in ``scheme``, motion reduced, on a fixed deal, nothing focused."""
    width, height, mobile = SIZES[size]
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-reduced-motion", "value": "reduce"}, {"name": "prefers-color-scheme", "value": scheme}]})
    open_table(page, server)
    view = deal(page, server, variant, number)
    wait(page).until(lambda d: shown_version(d) == view["version"])
    page.execute_script("document.activeElement && document.activeElement.blur()")


@pytest.fixture
def sized(page: WebDriver) -> Iterator[WebDriver]:
    yield page
    page.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-reduced-motion", "value": "reduce"}, {"name": "prefers-color-scheme", "value": "light"}]})


@pytest.mark.parametrize(("variant", "number", "size", "scheme"), [
    ("gate", 1, "phone", "light"), ("gate", 1, "desktop", "light"), ("gate", 1, "phone", "dark"),
    ("canfield", 7, "phone", "light"), ("canfield", 7, "desktop", "light"),
])
def test_the_table_looks_as_its_reference_image(sized: WebDriver, server: Server, variant: str, number: int,
                                                 size: str, scheme: str) -> None:
    show(sized, server, size, variant, number, scheme)
    shot = Image.open(io.BytesIO(sized.get_screenshot_as_png())).convert("RGB")
    assert shot.size == SIZES[size][:2]
    name = f"{variant}-{size}{'-dark' if scheme == 'dark' else ''}.png"
    reference = REFERENCE / name
    if UPDATE:
        shot.save(reference, optimize=True)
        if name in DOCS_COPIES:
            shutil.copyfile(reference, DOCS / DOCS_COPIES[name])
    expected = Image.open(reference).convert("RGB")
    assert expected.size == shot.size
    difference = ImageChops.difference(shot, expected)
    mean = ImageStat.Stat(difference).mean
    assert max(mean) < MEAN_TOLERANCE, f"{reference.name}: mean difference {mean} per channel"
    strong = sum(difference.convert("L").histogram()[STRONG:]) / (shot.width * shot.height)
    assert strong < STRONG_SHARE, f"{reference.name}: {strong:.2%} of the pixels differ clearly"


def win(page: WebDriver, number: int) -> None:
    """Play Gate deal ``number`` to its win through the page's own requests, then wait for the win screen."""
    version = shown_version(page)
    moves = [str(move) for move in solve(Game.new("gate", deal=number)).line]
    for start in range(0, len(moves), 40):
        answer = post(page, "/api/play", {"move": " ".join(moves[start:start + 40]), "version": version})
        assert answer["status"] == 200, answer
        version = answer["body"]["view"]["version"]
    wait(page).until(lambda d: d.find_element(By.ID, "won").is_displayed())


@pytest.mark.parametrize(("size", "scheme", "state"), [
    ("phone", "light", "play"), ("desktop", "light", "play"), ("phone", "dark", "play"),
    ("desktop", "dark", "new deal"), ("phone", "light", "won"), ("phone", "dark", "won"),
])
def test_axe_finds_no_serious_or_critical_violation(sized: WebDriver, server: Server, size: str, scheme: str,
                                                    state: str) -> None:
    show(sized, server, size, "gate", 1, scheme)
    if state == "new deal":
        sized.find_element(By.ID, "new").click()
        wait(sized).until(lambda d: d.find_element(By.ID, "deal-dialog").is_displayed())
    elif state == "won":
        win(sized, 1)
    axe = Axe(sized)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    print(f"axe {size} {scheme} {state}: {len(results['passes'])} rules passed, {len(results['violations'])} violated "
          f"({', '.join(v['id'] + ':' + v['impact'] for v in results['violations']) or 'none'})")
    assert not serious, axe.report(serious)
