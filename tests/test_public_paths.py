"""The names other code imports from a module that became several keep their old import paths.

Each old path must hand out the very object its new home defines, so code importing either
sees one class, one table, one constant.
"""

import importlib
import subprocess
import sys

import pytest

MOVED = {
    "gatebot.rules.canfield": {
        "gatebot.rules.canfield.checks": ["KEY", "TAKES", "PILE_COUNT"],
        "gatebot.rules.canfield.position": ["IDLE"],
    },
    "gatebot.rules.gate": {"gatebot.rules.gate.checks": ["KEY", "ACCEPTS"]},
    "gatebot.rules.archway": {"gatebot.rules.archway.checks": ["COLUMN_COUNT"]},
    "gatebot.service.challenges": {
        "gatebot.service.challenges.service": ["ChallengeService", "ChallengeError", "DEFAULT_HOURS", "MAX_HOURS"],
        "gatebot.service.challenges.info": [
            "ChallengeInfo", "Standing", "Leaderboard", "ServerStanding", "ServerBoard", "Happening",
            "Announcement", "DailySettings",
        ],
        "gatebot.service.challenges.standings": ["PAGE_SIZE"],
        "gatebot.service.challenges.daily": ["DAILY_LIST_MINIMUM", "daily_deal", "daily_name", "midnight"],
    },
}
STAYED = {
    "gatebot.rules.canfield": ["CanfieldGame", "RawCanfield", "DRAW_ONE", "PASSES_1", "PASSES_2", "PARTIAL_MOVES"],
    "gatebot.rules.gate": ["GateGame", "LittleGateGame", "RawPosition", "fill_column", "FILL_NONE", "SINGLE_MOVES"],
    "gatebot.rules.archway": ["ArchwayGame", "RawArchway", "DECK", "KIT"],
    "gatebot.cli": ["main", "version", "BROKEN_PIPE"],
}


@pytest.mark.parametrize(
    ("old", "new", "name"),
    [(old, new, name) for old, homes in MOVED.items() for new, names in homes.items() for name in names],
)
def test_a_moved_name_imports_from_its_old_path_as_the_same_object(old: str, new: str, name: str) -> None:
    assert getattr(importlib.import_module(old), name) is getattr(importlib.import_module(new), name)
    assert name in importlib.import_module(old).__all__


@pytest.mark.parametrize(("module", "name"), [(module, name) for module, names in STAYED.items() for name in names])
def test_a_name_that_stayed_still_imports(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name)


def test_the_classes_are_defined_where_their_module_path_says() -> None:
    from gatebot.rules.archway import ArchwayGame
    from gatebot.rules.canfield import CanfieldGame
    from gatebot.rules.gate import GateGame

    assert [cls.__module__ for cls in (CanfieldGame, GateGame, ArchwayGame)] == [
        "gatebot.rules.canfield", "gatebot.rules.gate", "gatebot.rules.archway",
    ]


def test_python_m_gatebot_cli_is_the_gatebot_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gatebot.cli", "--version"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0
    assert result.stdout.startswith("gatebot ")
