"""Settings for ``gatebot run``, read once from the environment (and a ``.env`` file) in ``main()``.

Nothing here runs at import time: the CLI builds one :class:`Settings` and passes it on.
The token is kept out of ``repr()`` and never appears in a message.

The ``.env`` file is python-dotenv's to read; the checks are written out here rather than
declared for pydantic-settings, since nearly every one is the project's own sentence (whole
numbers as :func:`~gatebot.digits.parse_whole` reads them, "none is negative", secrets never
quoted), several depend on each other (``SHARD_IDS`` on ``SHARD_COUNT``, the client secret on
its id), and pydantic's import would add about 0.1 s to every ``gatebot run`` and ``health``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import yarl
from dotenv import dotenv_values

from gatebot.digits import parse_whole, shown
from gatebot.store.database import DatabaseError, database_url_from_env, default_database_path, parse_database_url

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: ``LOG_FORMAT``: lines for people (the default), or one JSON object a line for a log collector.
LOG_FORMATS = ("text", "json")
#: Discord's ids (snowflakes) are unsigned 64-bit numbers.
MAX_SNOWFLAKE = 2**64 - 1
#: More shards than any bot has (Discord asks for one per 1,000-odd servers).
MAX_SHARDS = 1_000_000
#: Longer than any Discord token (about 70 characters), short enough to read at once.
MAX_TOKEN_LENGTH = 1024
#: Hints and the solver's other work at once: one process each, beside the bot's own (2 cores).
HINT_WORKERS = 2


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and what to do, in one sentence."""


#: The web table's address when nobody says: this machine only.
WEB_HOST = "127.0.0.1"
WEB_PORT = 8080
#: The shortest ``WEB_SECRET_KEY`` taken: 32 characters.
MIN_SECRET_LENGTH = 32
#: Discord's HTTP API, where the Activity's sign-in codes are exchanged (``GATEBOT_DISCORD_API_BASE`` in tests).
DISCORD_API = "https://discord.com/api/v10"
#: Discord's authorisation page, where "Sign in with Discord" sends the browser (``GATEBOT_DISCORD_AUTHORIZE_URL`` in
#: tests).
DISCORD_AUTHORIZE = "https://discord.com/oauth2/authorize"


@dataclass(frozen=True, slots=True)
class ActivitySettings:
    """The table inside Discord (an Activity): the application's OAuth2 client, to sign players in.

    ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` (the Developer Portal's OAuth2 page); the
    secret is kept out of ``repr()`` and never logged, quoted back or put in a page.
    """

    client_id: str
    client_secret: str = field(repr=False)
    #: Discord's API base: ``{api_base}/oauth2/token`` and ``{api_base}/oauth2/@me``.
    api_base: str = DISCORD_API
    #: How long one call to Discord may take in all (seconds) before it is tried again.
    timeout: float = 10.0
    #: Who may frame the Activity's page: Discord's client (tests add their own stand-in for it).
    frame_ancestors: tuple[str, ...] = ("https://discord.com", "https://*.discord.com", "https://*.discordsays.com")
    #: Discord's authorisation page, where "Sign in with Discord" on the open web sends the browser.
    authorize_url: str = DISCORD_AUTHORIZE


@dataclass(frozen=True, slots=True)
class WebSettings:
    """Where the web table is served and how its cookies are sealed (``gatebot web``; ``run`` with WEB_PORT)."""

    host: str = WEB_HOST
    port: int = WEB_PORT
    #: ``WEB_SECRET_KEY`` made into the 32 bytes the cookies are encrypted with; None: the key file's.
    secret_key: bytes | None = field(default=None, repr=False)
    #: Where a key is kept when no WEB_SECRET_KEY is set: beside the SQLite database (mode 0600).
    key_file: Path = Path("gatebot-web.key")
    #: ``WEB_SECURE_COOKIES``: cookies only over https (set it when a proxy serves the table over https).
    secure_cookies: bool = False
    #: ``WEB_PUBLIC_URL``: the table's address as players reach it (``https://table.example.org/``), which
    #: ``/gate table`` links to; None: the bot offers no link.
    public_url: str | None = None
    #: The Activity's sign-in (DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET); None: no Activity is served.
    activity: ActivitySettings | None = None

    @classmethod
    def from_env(
        cls, values: Mapping[str, str], *, host: str | None = None, port: int | None = None, activity: bool = True
    ) -> WebSettings:
        """Read WEB_HOST, WEB_PORT, WEB_SECRET_KEY, WEB_SECURE_COOKIES and WEB_PUBLIC_URL; ``host`` and ``port`` win.

        With ``activity`` (a process that serves the table), DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET too.
        """
        raw_port = values.get("WEB_PORT", "").strip()
        env_port = _whole(raw_port, "WEB_PORT", low=0, high=65535, what="a TCP port") if raw_port else WEB_PORT
        secret = values.get("WEB_SECRET_KEY", "").strip()
        if secret and len(secret) < MIN_SECRET_LENGTH:
            # Never quoted back: it is a secret.
            raise SettingsError(f"WEB_SECRET_KEY must be at least {MIN_SECRET_LENGTH} characters: "
                                "make one with `python -c 'import secrets; print(secrets.token_urlsafe(32))'`")
        return cls(
            host=host or values.get("WEB_HOST", "").strip() or WEB_HOST,
            port=env_port if port is None else port,
            secret_key=hashlib.sha256(secret.encode()).digest() if secret else None,
            key_file=web_key_file(values),
            secure_cookies=_yes_or_no(values, "WEB_SECURE_COOKIES"),
            public_url=_public_url(values),
            activity=activity_settings(values) if activity else None,
        )


def _client_id(values: Mapping[str, str]) -> str | None:
    """``DISCORD_CLIENT_ID``: the application's id (digits), or None when unset."""
    client_id = values.get("DISCORD_CLIENT_ID", "").strip()
    if not client_id:
        return None
    if not client_id.isascii() or not client_id.isdigit() or not 0 < int(client_id) <= MAX_SNOWFLAKE:
        raise SettingsError(f"DISCORD_CLIENT_ID must be the application's id (digits), not {shown(client_id)}")
    return client_id


def activity_settings(values: Mapping[str, str]) -> ActivitySettings | None:
    """The Activity's OAuth2 client when DISCORD_CLIENT_ID is set (its secret then required); None when unset."""
    client_id = _client_id(values)
    if client_id is None:
        return None
    secret = values.get("DISCORD_CLIENT_SECRET", "").strip()
    if not secret:
        # The secret is never quoted back.
        raise SettingsError("DISCORD_CLIENT_SECRET must be set with DISCORD_CLIENT_ID: copy it from the "
                            "application's OAuth2 page in Discord's Developer Portal")
    return ActivitySettings(client_id, secret, _api_base(values) or DISCORD_API,
                            authorize_url=_api_base(values, "GATEBOT_DISCORD_AUTHORIZE_URL") or DISCORD_AUTHORIZE)


def _public_url(values: Mapping[str, str]) -> str | None:
    """``WEB_PUBLIC_URL``: an http(s) address with a host, kept with one ``/`` at its end; None when unset."""
    raw = values.get("WEB_PUBLIC_URL", "").strip()
    if not raw:
        return None
    try:
        url = yarl.URL(raw)
        usable = url.scheme in ("http", "https") and bool(url.host) and not url.query_string and not url.fragment
    except ValueError:
        usable = False
    if not usable:
        raise SettingsError(f"WEB_PUBLIC_URL must be the web table's address as players reach it, like "
                            f"https://table.example.org/, not {shown(raw)}")
    return str(url).rstrip("/") + "/"


class KeyFileError(Exception):
    """The web table's key file can't be read or made; the message says which file and what to do."""


def web_key(settings: WebSettings) -> bytes:
    """The 32 bytes that seal the web table's cookies and links: WEB_SECRET_KEY's, else the key file's.

    The key file is made now (mode 0600) when there is none. The bot reads it too, to seal the
    links of ``/gate table``, so both must find it the same way (:func:`web_key_file`).
    """
    if settings.secret_key is not None:
        return settings.secret_key
    path = settings.key_file
    try:
        return _read_key(path)
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_key(path)  # another process made it first
    except OSError as error:
        raise KeyFileError(f"Can't make the web table's key file {path} ({error.strerror}): "
                           "set WEB_SECRET_KEY, or make that directory writable") from None
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(base64.urlsafe_b64encode(key).decode() + "\n")
    return key


def _read_key(path: Path) -> bytes:
    try:
        text = path.read_text(encoding="ascii").strip()
        key = base64.urlsafe_b64decode(text)
    except FileNotFoundError:
        raise
    except (OSError, ValueError, binascii.Error):
        raise KeyFileError(f"The web table's key file {path} can't be read: remove it to make a new one "
                           "(everyone's guest session ends), or set WEB_SECRET_KEY") from None
    if len(key) != 32:
        raise KeyFileError(f"The web table's key file {path} is not a key: remove it to make a new one")
    return key


def web_key_file(values: Mapping[str, str]) -> Path:
    """The key file of the web table's cookies: beside the SQLite database, or the default one's place."""
    url = parse_database_url(database_url_from_env(values))
    if url.drivername.startswith("sqlite") and url.database not in (None, "", ":memory:"):
        return Path(str(url.database)).expanduser().parent / "gatebot-web.key"
    return default_database_path(values).parent / "gatebot-web.key"


def _yes_or_no(values: Mapping[str, str], name: str) -> bool:
    raw = values.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise SettingsError(f"{name} must be true or false, not {shown(raw)}")


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
    #: The port serving counters at /metrics (``METRICS_PORT``); None: not served.
    metrics_port: int | None = None
    #: ``LOG_FORMAT``: ``text`` or ``json`` (one object a line).
    log_format: str = "text"
    #: ``HEALTH_FILE``: where the running bot writes the time of its last gateway heartbeat (``gatebot health``).
    health_file: Path = Path("gatebot.health")
    #: The web table served from the bot's process, when WEB_PORT is set; None: not served.
    web: WebSettings | None = None
    #: The web table ``/gate table`` links to, when WEB_PUBLIC_URL is set (served here or by another
    #: process on the same key); None: the command says the table isn't set up.
    web_link: WebSettings | None = None
    #: ``DISCORD_CLIENT_ID`` is set: the app's Activity is enabled, so boards get an Open the table button that
    #: launches it, and the entry-point command is registered with the others.
    activities: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, *, dotenv: Path | None = Path(".env")) -> Settings:
        """Read the settings from ``environ`` (default: the process environment) plus ``.env``.

        Values already in the environment win over the file, as with most ``.env`` loaders.
        Everything is checked here, before anything connects: a value that can't work raises
        :class:`SettingsError` naming the variable, the first such one found.
        """
        values = dict(read_dotenv(dotenv)) if dotenv is not None else {}
        values.update(os.environ if environ is None else environ)
        shard_count = _optional_int(values, "SHARD_COUNT", low=1, high=MAX_SHARDS, what="a number of shards")
        return cls(
            token=_token(values),
            database_url=_database_url(values),
            dev_guild_id=_optional_int(values, "GATEBOT_DEV_GUILD_ID", low=1, high=MAX_SNOWFLAKE,
                                       what="a server id"),
            log_level=_log_level(values),
            shard_count=shard_count,
            shard_ids=_shard_ids(values, shard_count),
            move_channel_ids=frozenset(_int_list(values, "GATEBOT_MOVE_CHANNELS", low=1, high=MAX_SNOWFLAKE) or ()),
            api_base=_api_base(values),
            hint_workers=_hint_workers(values),
            metrics_port=_optional_int(values, "METRICS_PORT", low=1, high=65535, what="a TCP port"),
            log_format=_log_format(values),
            health_file=health_file_from_env(values),
            web=WebSettings.from_env(values) if values.get("WEB_PORT", "").strip() else None,
            web_link=WebSettings.from_env(values, activity=False) if values.get("WEB_PUBLIC_URL", "").strip() else None,
            activities=_client_id(values) is not None,
        )


def read_dotenv(path: Path) -> dict[str, str]:
    """The settings a ``.env`` file holds, read by python-dotenv; {} if there is none.

    It reads them as most tools do: ``export`` and ``#`` comments (after a value too), single
    or double quotes (escapes such as ``\\n`` in double ones), a quoted value over several
    lines. Values are taken as written, ``${NAME}`` not expanded (as ``docker run --env-file``
    takes them), so a password with a ``$`` stays whole; a name without ``=`` sets nothing. A
    line it can't read is skipped with a warning naming its number, never its text.
    """
    try:
        values = dotenv_values(path, interpolate=False, encoding="utf-8")
    except OSError as error:
        raise SettingsError(f"Can't read {path} ({error.strerror}): fix its permissions or remove it") from None
    except UnicodeDecodeError:
        raise SettingsError(f"{path} is not a text file in UTF-8: fix it or remove it") from None
    return {name: value for name, value in values.items() if value is not None}


def _token(values: Mapping[str, str]) -> str:
    token = values.get("DISCORD_TOKEN", "").strip()
    file_name = values.get("DISCORD_TOKEN_FILE", "").strip()
    source = "DISCORD_TOKEN"
    if not token and file_name:
        source = "the file DISCORD_TOKEN_FILE names"
        try:
            with open(file_name, "rb") as file:
                token = file.read(MAX_TOKEN_LENGTH + 1).decode("utf-8").strip()
        except (OSError, ValueError) as error:  # ValueError: not UTF-8, or a NUL in the name
            reason = getattr(error, "strerror", None) or "it is not a text file"
            raise SettingsError(
                f"Can't read the token file named by DISCORD_TOKEN_FILE ({reason}): check the path"
            ) from None
    if not token:
        raise SettingsError(
            "No Discord token: set DISCORD_TOKEN, or DISCORD_TOKEN_FILE to a file holding it "
            "(or play without Discord: gatebot play)"
        )
    if len(token) > MAX_TOKEN_LENGTH or not token.isascii() or not token.isprintable() or " " in token:
        # Never quoted back: even a mangled token is a secret.
        raise SettingsError(f"The token in {source} is not a Discord token (one line of letters, digits, "
                            "dots, dashes and underscores): copy it again from the developer portal")
    return token


def _database_url(values: Mapping[str, str]) -> str:
    """``DATABASE_URL`` (or the default SQLite file), checked as the store will read it."""
    url = database_url_from_env(values)
    try:
        parse_database_url(url)
    except DatabaseError as error:
        raise SettingsError(str(error)) from None
    return url


def _whole(raw: str, name: str, *, low: int, high: int, what: str) -> int:
    """``raw`` as a number from ``low`` to ``high``, or the sentence saying what ``name`` takes."""
    number = parse_whole(raw)
    if number is None or not low <= number <= high:
        sign = " (none is negative)" if raw.strip().startswith("-") else ""
        raise SettingsError(f"{name} must be a whole number from {low} to {high} ({what}){sign}, not {shown(raw)}")
    return number


def _optional_int(values: Mapping[str, str], name: str, *, low: int, high: int, what: str) -> int | None:
    raw = values.get(name, "").strip()
    if not raw:
        return None
    return _whole(raw, name, low=low, high=high, what=what)


def _int_list(values: Mapping[str, str], name: str, *, low: int, high: int) -> tuple[int, ...] | None:
    raw = values.get(name, "").strip()
    if not raw:
        return None
    parts = raw.replace(",", " ").split()
    numbers = tuple(parse_whole(part) for part in parts)
    if any(number is None or not low <= number <= high for number in numbers):
        negative = " (none is negative)" if any(part.startswith("-") for part in parts) else ""
        raise SettingsError(f"{name} must list whole numbers from {low} to {high} separated by commas"
                            f"{negative}, not {shown(raw)}")
    return tuple(number for number in numbers if number is not None)


def _shard_ids(values: Mapping[str, str], shard_count: int | None) -> tuple[int, ...] | None:
    """``SHARD_IDS``: shards of ``SHARD_COUNT`` (so it needs it), each once."""
    if not values.get("SHARD_IDS", "").strip():
        return None
    if shard_count is None:
        raise SettingsError("SHARD_IDS needs SHARD_COUNT, the number of shards of the whole bot: "
                            "set SHARD_COUNT too (or unset SHARD_IDS to run every shard here)")
    ids = _int_list(values, "SHARD_IDS", low=0, high=MAX_SHARDS - 1) or ()
    beyond = sorted({shard for shard in ids if shard >= shard_count})
    if beyond:
        raise SettingsError(f"SHARD_IDS names shard {', '.join(map(str, beyond))} but SHARD_COUNT={shard_count} "
                            f"numbers the shards 0 to {shard_count - 1}")
    twice = sorted({shard for shard in ids if ids.count(shard) > 1})
    if twice:
        raise SettingsError(f"SHARD_IDS names shard {', '.join(map(str, twice))} more than once: list each shard once")
    return ids


def _log_level(values: Mapping[str, str]) -> str:
    level = values.get("LOG_LEVEL", "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {shown(level)}")
    return level


def _api_base(values: Mapping[str, str], name: str = "GATEBOT_DISCORD_API_BASE") -> str | None:
    """``GATEBOT_DISCORD_API_BASE`` (or ``name``; tests only): an http(s) URL with a host, or None when unset."""
    raw = values.get(name, "").strip()
    if not raw:
        return None
    try:
        url = yarl.URL(raw)
        usable = url.scheme in ("http", "https") and bool(url.host) and url.port is not None
    except ValueError:
        usable = False
    if not usable:
        raise SettingsError(f"{name} must be an http(s) URL like "
                            f"http://127.0.0.1:8080/api/v10, not {shown(raw)}")
    return raw


def _hint_workers(values: Mapping[str, str]) -> int:
    raw = values.get("GATEBOT_HINT_WORKERS", "").strip()
    if not raw:
        return HINT_WORKERS
    workers = parse_whole(raw, max_digits=4)
    if workers is None or workers < 1:
        raise SettingsError(
            f"GATEBOT_HINT_WORKERS must be a whole number of worker processes, 1 or more, not {shown(raw)}"
        )
    return workers


def _log_format(values: Mapping[str, str]) -> str:
    log_format = values.get("LOG_FORMAT", "").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        raise SettingsError(f"LOG_FORMAT must be {' or '.join(LOG_FORMATS)}, not {shown(log_format)}")
    return log_format


def health_file_from_env(environ: Mapping[str, str] = os.environ) -> Path:
    """``HEALTH_FILE``, else ``gatebot.health`` in the default database's folder (the data directory).

    ``gatebot run`` writes it and ``gatebot health`` reads it, so both must find it the same way.
    """
    raw = environ.get("HEALTH_FILE", "").strip()
    return Path(raw).expanduser() if raw else default_database_path(environ).parent / "gatebot.health"
