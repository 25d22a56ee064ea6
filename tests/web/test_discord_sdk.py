"""The web table's copy of Discord's Embedded App SDK is the build its record describes, from the pinned lock."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

from tests.web.conftest import Table

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "gatebot" / "web" / "static" / "vendor"
RECORD = json.loads((VENDOR / "discord-sdk.json").read_text())
LOCK = json.loads((ROOT / "web-sdk" / "package-lock.json").read_text())["packages"]


def test_the_bundle_is_the_recorded_build_and_its_gzip_is_the_same_bytes() -> None:
    bundle = (VENDOR / "discord-sdk.js").read_bytes()
    assert hashlib.sha256(bundle).hexdigest() == RECORD["sha256"], "rebuild it: python scripts/discord_sdk.py"
    packed = (VENDOR / "discord-sdk.js.gz").read_bytes()
    assert hashlib.sha256(packed).hexdigest() == RECORD["gzip_sha256"]
    assert gzip.decompress(packed) == bundle
    # One ES module that exports what the page imports, and no import of its own to resolve.
    assert re.search(rb"export\{[^}]*\bas DiscordSDK\b", bundle)
    assert not re.search(rb"(^|[;}])import[ {*]", bundle)


def test_the_record_names_the_sdk_and_esbuild_the_lock_pins_and_the_entry_built() -> None:
    sdk = LOCK[f"node_modules/{RECORD['package']}"]
    assert (RECORD["version"], RECORD["license"], RECORD["tarball_integrity"]) == (
        sdk["version"], sdk["license"], sdk["integrity"])
    assert RECORD["tarball_integrity"].startswith("sha512-")
    assert RECORD["esbuild"] == LOCK["node_modules/esbuild"]["version"]
    assert RECORD["entry"] == (ROOT / "web-sdk" / "entry.js").read_text().strip()
    # One pinned version, not a range: the lock and package.json agree.
    declared = json.loads((ROOT / "web-sdk" / "package.json").read_text())["dependencies"][RECORD["package"]]
    assert declared == RECORD["version"]


def test_every_package_bundled_has_its_licence_beside_the_bundle() -> None:
    licences = (VENDOR / "discord-sdk.LICENSES.txt").read_text()
    runtime = [path.removeprefix("node_modules/") for path, package in LOCK.items()
               if path.startswith("node_modules/") and not package.get("dev") and "@types/" not in path]
    assert RECORD["package"] in runtime and len(runtime) >= 5
    for name in runtime:
        assert re.search(rf"^{re.escape(name)} {re.escape(LOCK['node_modules/' + name]['version'])} ", licences,
                         re.MULTILINE), name


async def test_the_table_serves_the_bundle_gzipped_to_a_browser_that_accepts_it(table: Table) -> None:
    browser = await table.browser()
    response = await browser.client.get("/static/vendor/discord-sdk.js", headers={"Accept-Encoding": "gzip"},
                                        auto_decompress=False)
    assert response.status == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.headers["Content-Type"].startswith(("text/javascript", "application/javascript"))
    assert await response.read() == (VENDOR / "discord-sdk.js.gz").read_bytes()
