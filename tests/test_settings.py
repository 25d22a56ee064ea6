"""Settings for gatebot run: the environment, .env files, the token and its secrecy."""

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
        ({"DISCORD_TOKEN": "t", "SHARD_IDS": "0,x"}, "SHARD_IDS"),
    ],
)
def test_bad_settings_are_one_sentence(environ: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings.from_env(environ, dotenv=None)
    assert words in str(caught.value)
    assert "\n" not in str(caught.value)


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
