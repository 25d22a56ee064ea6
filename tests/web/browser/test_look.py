"""How the table looks on a phone and on a desktop, against committed reference images, and axe-core's verdict.

Set ``GATEBOT_UPDATE_SCREENSHOTS=1`` to write new reference images (and the docs' copies) instead of
comparing; look at them before committing.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from PIL import Image, ImageChops, ImageStat
from selenium.webdriver.remote.webdriver import WebDriver

from tests.web.browser.conftest import Server, wait
from tests.web.browser.table import deal, open_table, shown_version

REFERENCE = Path(__file__).parent / "reference"
DOCS = Path(__file__).parents[3] / "docs" / "images"
UPDATE = os.environ.get("GATEBOT_UPDATE_SCREENSHOTS") == "1"
#: Room for font smoothing, not for a moved card or a changed size: the mean difference per channel (of 255),
#: and the share of pixels whose brightness differs by more than STRONG (a one-pixel-larger index is 0.3%).
MEAN_TOLERANCE = 1.0
STRONG = 40
STRONG_SHARE = 0.001
SIZES = {"phone": (390, 844, True), "desktop": (1280, 800, False)}
DOCS_COPIES = {("gate", "phone"): "web-phone.png", ("gate", "desktop"): "web-desktop.png"}


def show(page: WebDriver, server: Server, size: str, variant: str, number: int) -> None:
    width, height, mobile = SIZES[size]
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                         {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-reduced-motion", "value": "reduce"}, {"name": "prefers-color-scheme", "value": "light"}]})
    open_table(page, server)
    view = deal(page, server, variant, number)
    wait(page).until(lambda d: shown_version(d) == view["version"])
    page.execute_script("document.activeElement && document.activeElement.blur()")


@pytest.fixture
def sized(page: WebDriver):  # type: ignore[no-untyped-def]
    yield page
    page.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("variant", "number"), [("gate", 1), ("canfield", 7)])
def test_the_table_looks_as_its_reference_image(sized: WebDriver, server: Server, size: str, variant: str,
                                                 number: int) -> None:
    show(sized, server, size, variant, number)
    shot = Image.open(io.BytesIO(sized.get_screenshot_as_png())).convert("RGB")
    assert shot.size == SIZES[size][:2]
    reference = REFERENCE / f"{variant}-{size}.png"
    if UPDATE:
        shot.save(reference, optimize=True)
        if (variant, size) in DOCS_COPIES:
            shutil.copyfile(reference, DOCS / DOCS_COPIES[variant, size])
    expected = Image.open(reference).convert("RGB")
    assert expected.size == shot.size
    difference = ImageChops.difference(shot, expected)
    mean = ImageStat.Stat(difference).mean
    assert max(mean) < MEAN_TOLERANCE, f"{reference.name}: mean difference {mean} per channel"
    strong = sum(difference.convert("L").histogram()[STRONG:]) / (shot.width * shot.height)
    assert strong < STRONG_SHARE, f"{reference.name}: {strong:.2%} of the pixels differ clearly"


@pytest.mark.parametrize("size", list(SIZES))
def test_axe_finds_no_serious_or_critical_violation(sized: WebDriver, server: Server, size: str) -> None:
    show(sized, server, size, "gate", 1)
    axe = Axe(sized)
    axe.inject()
    results = axe.run()
    serious = [v for v in results["violations"] if v["impact"] in ("serious", "critical")]
    print(f"axe {size}: {len(results['passes'])} rules passed, {len(results['violations'])} violated "
          f"({', '.join(v['id'] + ':' + v['impact'] for v in results['violations']) or 'none'})")
    assert not serious, axe.report(serious)
