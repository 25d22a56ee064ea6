"""``gatebot web`` as a person runs it: a subprocess that prints its address and answers there."""

from __future__ import annotations

import os
import re
import signal
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from gatebot.settings import SettingsError, WebSettings

ROOT = Path(__file__).resolve().parents[2]


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("WEB_", "DATABASE_URL"))}
    return env | {"XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8", **extra}


def test_gatebot_web_prints_its_address_answers_there_and_keeps_its_key_private(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "gatebot", "web", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=environment(tmp_path))
    try:
        address = None
        deadline = time.monotonic() + 60
        assert process.stdout is not None
        while address is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            assert line, process.stderr.read() if process.stderr else "no output"
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            address = found.group(0) if found else None
        assert address is not None
        with urllib.request.urlopen(address, timeout=10) as response:
            page = response.read().decode()
            assert response.status == 200
            assert "default-src 'none'" in response.headers["Content-Security-Policy"]
        assert 'name="csrf-token"' in page
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        opener.open(address, timeout=10).read()
        stream = opener.open(address + "api/events", timeout=10)  # an open page: Ctrl-C must not wait for it
        assert stream.readline().startswith(b"event: view")
        key = tmp_path / "data" / "gatebot" / "gatebot-web.key"
        assert stat.S_IMODE(key.stat().st_mode) == 0o600
        assert (tmp_path / "data" / "gatebot" / "gatebot.db").exists()  # the same default as gatebot play
    finally:
        process.send_signal(signal.SIGINT)
        try:
            assert process.wait(timeout=10) == 0
        finally:
            process.kill()


def test_gatebot_web_refuses_a_bad_port_and_a_short_secret_in_one_sentence(tmp_path: Path) -> None:
    bad_port = subprocess.run([sys.executable, "-m", "gatebot", "web", "--port", "99999"], capture_output=True,
                              text=True, env=environment(tmp_path), timeout=60, check=False)
    assert bad_port.returncode == 2 and "65535" in bad_port.stderr
    short = subprocess.run([sys.executable, "-m", "gatebot", "web", "--port", "0"], capture_output=True, text=True,
                           env=environment(tmp_path, WEB_SECRET_KEY="too short"), timeout=60, check=False)
    assert short.returncode == 2
    assert "WEB_SECRET_KEY must be at least 32 characters" in short.stderr
    assert "too short" not in short.stderr  # a secret is never quoted back


def test_web_settings_read_the_environment_and_flags_win() -> None:
    secret = "s" * 40
    settings = WebSettings.from_env({"WEB_HOST": "0.0.0.0", "WEB_PORT": "9000", "WEB_SECRET_KEY": secret,
                                     "WEB_SECURE_COOKIES": "true"}, port=7000)
    assert (settings.host, settings.port, settings.secure_cookies) == ("0.0.0.0", 7000, True)
    assert settings.secret_key is not None and len(settings.secret_key) == 32
    assert secret not in repr(settings)
    with pytest.raises(SettingsError, match="WEB_PORT"):
        WebSettings.from_env({"WEB_PORT": "http"})
    with pytest.raises(SettingsError, match="WEB_SECURE_COOKIES"):
        WebSettings.from_env({"WEB_SECURE_COOKIES": "maybe"})
    beside = WebSettings.from_env({"DATABASE_URL": "sqlite+aiosqlite:////srv/games/gatebot.db"})
    assert beside.key_file == Path("/srv/games/gatebot-web.key")


def test_the_public_address_is_what_gate_table_links_to_and_a_bad_one_is_one_sentence() -> None:
    from gatebot.settings import Settings

    run = Settings.from_env({"DISCORD_TOKEN": "abc.def", "WEB_PUBLIC_URL": "https://table.example.org/gate"},
                            dotenv=None)
    assert run.web is None  # not served by the bot: another process may serve it
    assert run.web_link is not None and run.web_link.public_url == "https://table.example.org/gate/"
    assert Settings.from_env({"DISCORD_TOKEN": "abc.def"}, dotenv=None).web_link is None
    for bad in ("table.example.org", "ftp://table.example.org/", "https://table.example.org/?a=1"):
        with pytest.raises(SettingsError, match="WEB_PUBLIC_URL") as refused:
            WebSettings.from_env({"WEB_PUBLIC_URL": bad})
        assert "\n" not in str(refused.value)
