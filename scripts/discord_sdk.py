"""Build the web table's copy of Discord's Embedded App SDK, and the record a test checks it against.

    python scripts/discord_sdk.py

The Activity page needs ``@discord/embedded-app-sdk``, an npm package whose ES module imports
other packages, so it can't be served as it is. This script installs the versions pinned in
``web-sdk/package-lock.json`` (``npm ci --ignore-scripts`` in a temporary folder: nothing runs but
esbuild), bundles ``web-sdk/entry.js`` into one minified ES module with esbuild, and writes beside
it in ``gatebot/web/static/vendor/``:

- ``discord-sdk.js`` and ``discord-sdk.js.gz`` (served to browsers that accept gzip);
- ``discord-sdk.json``: the SDK's version, licence and npm tarball integrity, esbuild's version,
  and the SHA-256 of the file built (``tests/web/test_discord_sdk.py`` fails when the file no
  longer matches it, or the record no longer matches the lock);
- ``discord-sdk.LICENSES.txt``: the licence of every package bundled.

Only rebuilding needs Node and npm; installing or running gatebot never does. The build is
reproducible: the same lock gives the same bytes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "web-sdk"
VENDOR = ROOT / "gatebot" / "web" / "static" / "vendor"
BUNDLE = VENDOR / "discord-sdk.js"
RECORD = VENDOR / "discord-sdk.json"
LICENSES = VENDOR / "discord-sdk.LICENSES.txt"
SDK = "@discord/embedded-app-sdk"
#: esbuild's flags: one ES module, minified, for the browsers Discord's clients embed.
ESBUILD = ["--bundle", "--format=esm", "--minify", "--target=es2020", "--legal-comments=eof", "--log-level=warning"]


def lock() -> dict[str, dict[str, str]]:
    """The lock's packages, by their path under ``node_modules``."""
    packages: dict[str, dict[str, str]] = json.loads((SOURCE / "package-lock.json").read_text())["packages"]
    return packages


def bundled(packages: dict[str, dict[str, str]]) -> list[str]:
    """The packages the bundle holds: the SDK and what it needs at run time (not esbuild, not types)."""
    return sorted(
        path for path, package in packages.items()
        if path.startswith("node_modules/") and not package.get("dev") and "/@types/" not in path
        and not path.startswith("node_modules/@types/")
    )


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build() -> None:
    packages = lock()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name in ("package.json", "package-lock.json", "entry.js"):
            shutil.copy(SOURCE / name, work / name)
        subprocess.run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=work, check=True)
        VENDOR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["node", "node_modules/esbuild/bin/esbuild", "entry.js", *ESBUILD, f"--outfile={BUNDLE}"],
                       cwd=work, check=True)
        texts = []
        for path in bundled(packages):
            folder_of = work / path
            found = sorted(p for p in folder_of.iterdir() if p.name.upper().startswith(("LICENSE", "LICENCE")))
            if not found:
                sys.exit(f"{path} has no licence file")
            package = packages[path]
            texts.append(f"{path.removeprefix('node_modules/')} {package['version']} ({package.get('license')})\n\n"
                         + found[0].read_text().strip() + "\n")
    LICENSES.write_text(("\n" + "=" * 72 + "\n\n").join(texts))
    # mtime 0 and no name: the same bundle always gives the same .gz.
    (VENDOR / "discord-sdk.js.gz").write_bytes(gzip.compress(BUNDLE.read_bytes(), 9, mtime=0))
    sdk = packages[f"node_modules/{SDK}"]
    record = {
        "package": SDK,
        "version": sdk["version"],
        "license": sdk["license"],
        "tarball_integrity": sdk["integrity"],
        "esbuild": packages["node_modules/esbuild"]["version"],
        "esbuild_flags": ESBUILD,
        "entry": (SOURCE / "entry.js").read_text().strip(),
        "sha256": sha256(BUNDLE),
        "gzip_sha256": sha256(VENDOR / "discord-sdk.js.gz"),
    }
    RECORD.write_text(json.dumps(record, indent=2) + "\n")
    print(f"{BUNDLE.relative_to(ROOT)}: {BUNDLE.stat().st_size:,} bytes, {SDK} {sdk['version']}")


if __name__ == "__main__":
    build()
