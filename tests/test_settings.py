"""Settings for gatebot run: the environment, .env files, the token and its secrecy."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gatebot.settings import Settings, SettingsError


def test_settings_come_from_the_environment(tmp_path: Path) -> None:
    settings = Settings.from_env(
        {"DISCORD_TOKEN": "abc.def", "DATABASE_URL": "sqlite+aiosqlite:///x.db", "GATEBOT_DEV_GUILD_ID": "123",
         "LOG_LEVEL": "debug", "SHARD_COUNT": "4", "SHARD_IDS": "0, 1", "GATEBOT_MOVE_CHANNELS": "7,8"},
        dotenv=tmp_path / "missing.env",
    )
    assert settings.token == "abc.def"
    assert settings.database_url == "sqlite+aiosqlite:///x.db"
    assert (settings.dev_guild_id, settings.log_level, settings.shard_count) == (123, "DEBUG", 4)
    assert settings.shard_ids == (0, 1)
    assert settings.move_channel_ids == frozenset({7, 8})


def test_the_token_never_shows_in_repr() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "very-secret-token"}, dotenv=None)
    assert "very-secret-token" not in repr(settings)


def test_a_token_file_is_read(tmp_path: Path) -> None:
    secret = tmp_path / "token"
    secret.write_text("from-a-file\n")
    assert Settings.from_env({"DISCORD_TOKEN_FILE": str(secret)}, dotenv=None).token == "from-a-file"


def test_a_dotenv_file_fills_what_the_environment_lacks(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# settings\nexport DISCORD_TOKEN='file-token'\nLOG_LEVEL=warning\n")
    settings = Settings.from_env({"LOG_LEVEL": "error"}, dotenv=dotenv)
    assert settings.token == "file-token"
    assert settings.log_level == "ERROR"


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        ({}, "No Discord token"),
        ({"DISCORD_TOKEN_FILE": "/nonexistent/token"}, "DISCORD_TOKEN_FILE"),
        ({"DISCORD_TOKEN": "t", "GATEBOT_DEV_GUILD_ID": "abc"}, "GATEBOT_DEV_GUILD_ID must be a whole number"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "SHARD_IDS must list whole numbers"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "0,5"}, "SHARD_IDS names shard 5 but SHARD_COUNT=2"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "1,1,2"}, "shard 1 more than once"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0,-1"}, "none is negative"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, "SHARD_IDS must list"),
        ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number from 1"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "-2"}, "none is negative"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "٢"}, "SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "SHARD_COUNT": "9" * 4301}, "4,301 characters"),
        ({"DISCORD_TOKEN": "t", "GATEBOT_DEV_GUILD_ID": "0"}, "GATEBOT_DEV_GUILD_ID must be a whole number from 1"),
        ({"DISCORD_TOKEN": "t", "GATEBOT_DEV_GUILD_ID": str(2**64)}, "GATEBOT_DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": "t", "GATEBOT_MOVE_CHANNELS": "7,-8"}, "GATEBOT_MOVE_CHANNELS"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "verbose" * 1000}, "LOG_LEVEL must be one of"),
        ({"DISCORD_TOKEN": "t", "DATABASE_URL": "not a url"}, "DATABASE_URL is not a database URL"),
        ({"DISCORD_TOKEN": "t", "DATABASE_URL": "postgresql://u@h:port/db"}, "DATABASE_URL"),
        ({"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://u:hunter2@h/db"}, "can't store games with 'mysql'"),
        ({"DISCORD_TOKEN": "t", "GATEBOT_DISCORD_API_BASE": "ftp://h/api"}, "GATEBOT_DISCORD_API_BASE"),
        ({"DISCORD_TOKEN": "t", "GATEBOT_DISCORD_API_BASE": "http://h:99999/api"}, "GATEBOT_DISCORD_API_BASE"),
        ({"DISCORD_TOKEN": "two words"}, "is not a Discord token"),
        ({"DISCORD_TOKEN": "line\nbreak"}, "is not a Discord token"),
    ],
)
def test_bad_settings_are_one_sentence(environ: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(environ, dotenv=None)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_refused_setting_never_shows_the_token_or_a_password() -> None:
    for environ in ({"DISCORD_TOKEN": "secret token"}, {"DISCORD_TOKEN": "t", "DATABASE_URL": "mysql://u:hunter2@h/db"}):
        with pytest.raises(SettingsError) as caught:
            Settings.from_env(environ, dotenv=None)
        assert "secret" not in str(caught.value) and "hunter2" not in str(caught.value)


@pytest.mark.parametrize("content", [b"\xff\xfe binary", bytes(range(256))])
def test_an_unreadable_token_file_or_dotenv_is_one_sentence(content: bytes, tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_bytes(content)
    for environ, dotenv in (({"DISCORD_TOKEN_FILE": str(path)}, None), ({}, path)):
        with pytest.raises(SettingsError) as caught:
            Settings.from_env(environ, dotenv=dotenv)
        assert "\n" not in str(caught.value)


NAMES = ("DISCORD_TOKEN", "DATABASE_URL", "GATEBOT_DEV_GUILD_ID", "LOG_LEVEL", "SHARD_COUNT", "SHARD_IDS",
         "GATEBOT_MOVE_CHANNELS", "GATEBOT_DISCORD_API_BASE", "GATEBOT_HINT_WORKERS", "METRICS_PORT")


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), st.text(max_size=30) | st.from_regex(r"-?\d{1,5}(,\s?-?\d{1,5})*")))
def test_any_environment_is_settings_or_one_sentence(environ: dict[str, str]) -> None:
    environ = {"DISCORD_TOKEN": "t", **environ}
    try:
        found = Settings.from_env(environ, dotenv=None)
    except SettingsError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) < 400
        return
    if found.shard_ids is not None:
        assert found.shard_count is not None
        assert len(set(found.shard_ids)) == len(found.shard_ids)
        assert all(0 <= shard < found.shard_count for shard in found.shard_ids)
    assert found.dev_guild_id is None or found.dev_guild_id > 0


def test_hint_workers_default_to_two_and_come_from_the_environment() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "t"}, dotenv=None).hint_workers == 2
    assert Settings.from_env({"DISCORD_TOKEN": "t", "GATEBOT_HINT_WORKERS": " 3 "}, dotenv=None).hint_workers == 3


@pytest.mark.parametrize("raw", ["0", "-1", "two", "1.5", "2 3", "00", "²"])
def test_hint_workers_must_be_a_positive_whole_number(raw: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env({"DISCORD_TOKEN": "t", "GATEBOT_HINT_WORKERS": raw}, dotenv=None)
    message = str(caught.value)
    assert message.startswith("GATEBOT_HINT_WORKERS must be") and repr(raw) in message and "\n" not in message


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=6))
def test_any_hint_workers_text_is_a_positive_count_or_one_sentence(raw: str) -> None:
    try:
        workers = Settings.from_env({"DISCORD_TOKEN": "t", "GATEBOT_HINT_WORKERS": raw}, dotenv=None).hint_workers
    except SettingsError as error:
        assert "GATEBOT_HINT_WORKERS" in str(error) and "\n" not in str(error)
    else:
        assert workers >= 1
        assert workers == (int(raw) if raw.strip() else 2)


def test_metrics_are_served_only_when_a_port_is_set() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "t"}, dotenv=None).metrics_port is None
    assert Settings.from_env({"DISCORD_TOKEN": "t", "METRICS_PORT": " 9464 "}, dotenv=None).metrics_port == 9464


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=7) | st.integers(-70000, 140000).map(str))
def test_any_metrics_port_text_is_a_tcp_port_or_one_sentence(raw: str) -> None:
    try:
        port = Settings.from_env({"DISCORD_TOKEN": "t", "METRICS_PORT": raw}, dotenv=None).metrics_port
    except SettingsError as error:
        message = str(error)
        assert message.startswith("METRICS_PORT must be a whole number from 1 to 65535") and "\n" not in message
    else:
        assert port is None if not raw.strip() else 1 <= port <= 65535


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["text", "json", "JSON", " Json ", ""]) | st.text(max_size=12))
def test_log_format_is_text_or_json_in_any_case_or_one_sentence(raw: str) -> None:
    try:
        chosen = Settings.from_env({"DISCORD_TOKEN": "t", "LOG_FORMAT": raw}, dotenv=None).log_format
    except SettingsError as error:
        assert raw.strip().lower() not in ("", "text", "json")
        assert str(error).startswith("LOG_FORMAT must be text or json, not ") and "\n" not in str(error)
    else:
        assert chosen == (raw.strip().lower() or "text")


def test_the_heartbeat_file_is_in_the_data_directory_unless_health_file_names_one(tmp_path: Path) -> None:
    """The bot writes it where ``gatebot health``, reading the same environment, looks for it."""
    data = {"DISCORD_TOKEN": "t", "XDG_DATA_HOME": str(tmp_path)}
    assert Settings.from_env(data, dotenv=None).health_file == tmp_path / "gatebot" / "gatebot.health"
    named = Settings.from_env({**data, "HEALTH_FILE": " /data/gatebot.health "}, dotenv=None)
    assert named.health_file == Path("/data/gatebot.health")


def test_activities_are_enabled_by_the_client_id_and_the_secret_never_shows(tmp_path: Path) -> None:
    from gatebot.settings import WebSettings

    base = {"DISCORD_TOKEN": "t", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db"}
    assert not Settings.from_env(base, dotenv=None).activities
    enabled = {**base, "DISCORD_CLIENT_ID": "1234", "DISCORD_CLIENT_SECRET": "s3cret-of-the-app", "WEB_PORT": "0"}
    settings = Settings.from_env(enabled, dotenv=None)
    assert settings.activities and settings.web is not None and settings.web.activity is not None
    assert settings.web.activity.client_id == "1234" and settings.web.activity.api_base == "https://discord.com/api/v10"
    assert settings.web.activity.authorize_url == "https://discord.com/oauth2/authorize"
    pointed = WebSettings.from_env({**enabled, "GATEBOT_DISCORD_AUTHORIZE_URL": "http://127.0.0.1:5/oauth2/authorize"})
    assert pointed.activity is not None and pointed.activity.authorize_url == "http://127.0.0.1:5/oauth2/authorize"
    with pytest.raises(SettingsError, match="GATEBOT_DISCORD_AUTHORIZE_URL must be an http"):
        WebSettings.from_env({**enabled, "GATEBOT_DISCORD_AUTHORIZE_URL": "discord.com/oauth2/authorize"})
    assert "s3cret" not in repr(settings)
    # The bot alone (no table served here) needs no secret to launch the Activity.
    assert Settings.from_env({**base, "DISCORD_CLIENT_ID": "1234"}, dotenv=None).activities
    with pytest.raises(SettingsError, match="DISCORD_CLIENT_SECRET must be set") as refused:
        WebSettings.from_env({"DISCORD_CLIENT_ID": "1234"})
    assert str(refused.value).count(":") == 1
    with pytest.raises(SettingsError, match="DISCORD_CLIENT_ID must be the application's id"):
        WebSettings.from_env({"DISCORD_CLIENT_ID": "my-app", "DISCORD_CLIENT_SECRET": "x"})


def test_a_dotenv_file_is_read_as_people_write_it(tmp_path: Path) -> None:
    """Comments after values, quotes around a ``#``, escapes, a literal ``$``; a bad line skipped, not the rest."""
    dotenv = tmp_path / ".env"
    dotenv.write_text(
        "export DISCORD_TOKEN=abc.def   # the bot's token\n"
        "LOG_LEVEL = warning # quieter\n"
        "DATABASE_URL='postgresql://gate:pa${x}#ss@db/gatebot'\n"
        'WEB_PUBLIC_URL="https://table.example.org/" # where players go\n'
        "GATEBOT_MOVE_CHANNELS\n"
        'SHARD_IDS="0,1\n'
        "SHARD_COUNT=2\n",
        encoding="utf-8",
    )
    settings = Settings.from_env({}, dotenv=dotenv)
    assert settings.token == "abc.def" and settings.log_level == "WARNING"
    assert settings.database_url == "postgresql://gate:pa${x}#ss@db/gatebot"
    assert settings.web_link is not None and settings.web_link.public_url == "https://table.example.org/"
    assert settings.move_channel_ids == frozenset() and settings.shard_ids is None and settings.shard_count == 2


def _run_in(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``gatebot run`` started in ``folder`` (its .env read from there), with ``env`` over no gatebot settings."""
    names = ("DISCORD_TOKEN", "DISCORD_TOKEN_FILE", "LOG_LEVEL", "DATABASE_URL")
    full = {key: value for key, value in os.environ.items() if key not in names}
    full.update(PYTHONPATH=str(Path(__file__).resolve().parents[1]), PYTHONIOENCODING="utf-8", **env)
    return subprocess.run([sys.executable, "-m", "gatebot", "run"], cwd=folder, env=full, capture_output=True,
                          text=True, encoding="utf-8", timeout=60, check=False)


def test_gatebot_run_reads_dotenv_in_its_folder_the_environment_winning_and_never_shows_the_token(
    tmp_path: Path,
) -> None:
    (tmp_path / ".env").write_text("# gatebot's settings\nexport DISCORD_TOKEN='abc.def'  # the token\n"
                                   "LOG_LEVEL=verbose  # too chatty for a level\n", encoding="utf-8")
    refused = _run_in(tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == "gatebot: LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'VERBOSE'.\n"
    overridden = _run_in(tmp_path, LOG_LEVEL="loud")
    assert overridden.returncode == 2 and "not 'LOUD'" in overridden.stderr
    (tmp_path / ".env").write_text('DISCORD_TOKEN="s3cret token" # pasted with a space\n', encoding="utf-8")
    secret = _run_in(tmp_path)
    assert secret.returncode == 2
    assert secret.stderr.startswith("gatebot: The token in DISCORD_TOKEN is not a Discord token")
    assert "s3cret" not in secret.stderr + secret.stdout and secret.stderr.count("\n") == 1
