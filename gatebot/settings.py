"""Settings for ``gatebot run``, read once from the environment (and a ``.env`` file) in ``main()``.

Nothing here runs at import time: the CLI builds one :class:`Settings` and passes it on.
The token is kept out of ``repr()`` and never appears in a message.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from gatebot.store.database import database_url_from_env

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Hints and the solver's other work at once: one process each, beside the bot's own (2 cores).
HINT_WORKERS = 2


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and what to do, in one sentence."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything ``gatebot run`` needs to know about its deployment."""

    token: str = field(repr=False)
    database_url: str = field(repr=False)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    #: Channels where bare move tokens are read (needs the message-content intent).
    move_channel_ids: frozenset[int] = frozenset()
    #: Test-only: the REST base of a fake Discord (``http://127.0.0.1:PORT/api/v10``).
    api_base: str | None = None
    #: Worker processes for hints and the solver (``GATEBOT_HINT_WORKERS``), shared fairly between players.
    hint_workers: int = HINT_WORKERS

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, dotenv: Path | None = Path(".env")) -> Settings:
        """Read the settings from ``environ`` (default: the process environment) plus ``.env``.

        Values already in the environment win over the file, as with most ``.env`` loaders.
        """
        values = dict(read_dotenv(dotenv)) if dotenv is not None else {}
        values.update(os.environ if environ is None else environ)
        return cls(
            token=_token(values),
            database_url=database_url_from_env(values),
            dev_guild_id=_optional_int(values, "GATEBOT_DEV_GUILD_ID"),
            log_level=_log_level(values),
            shard_count=_optional_int(values, "SHARD_COUNT"),
            shard_ids=_int_list(values, "SHARD_IDS"),
            move_channel_ids=frozenset(_int_list(values, "GATEBOT_MOVE_CHANNELS") or ()),
            api_base=values.get("GATEBOT_DISCORD_API_BASE") or None,
            hint_workers=_hint_workers(values),
        )


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines of a ``.env`` file (quotes stripped, ``#`` comments skipped); {} if absent."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise SettingsError(f"Can't read {path} ({error.strerror}): fix its permissions or remove it") from None
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        values[key.strip()] = value.strip().strip("'\"")
    return values


def _token(values: Mapping[str, str]) -> str:
    token = values.get("DISCORD_TOKEN", "").strip()
    file_name = values.get("DISCORD_TOKEN_FILE", "").strip()
    if not token and file_name:
        try:
            token = Path(file_name).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise SettingsError(
                f"Can't read the token file named by DISCORD_TOKEN_FILE ({error.strerror}): check the path"
            ) from None
    if not token:
        raise SettingsError(
            "No Discord token: set DISCORD_TOKEN, or DISCORD_TOKEN_FILE to a file holding it "
            "(or play without Discord: gatebot play)"
        )
    return token


def _optional_int(values: Mapping[str, str], name: str) -> int | None:
    raw = values.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise SettingsError(f"{name} must be a whole number, not {raw!r}")
    return int(raw)


def _int_list(values: Mapping[str, str], name: str) -> tuple[int, ...] | None:
    raw = values.get(name, "").strip()
    if not raw:
        return None
    parts = [part.strip() for part in raw.replace(",", " ").split()]
    if not all(part.isdigit() for part in parts):
        raise SettingsError(f"{name} must list whole numbers separated by commas, not {raw!r}")
    return tuple(int(part) for part in parts)


def _log_level(values: Mapping[str, str]) -> str:
    level = values.get("LOG_LEVEL", "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    return level


def _hint_workers(values: Mapping[str, str]) -> int:
    raw = values.get("GATEBOT_HINT_WORKERS", "").strip()
    if not raw:
        return HINT_WORKERS
    if not (raw.isascii() and raw.isdigit()) or int(raw) < 1:
        raise SettingsError(f"GATEBOT_HINT_WORKERS must be a whole number of worker processes, 1 or more, not {raw!r}")
    return int(raw)
