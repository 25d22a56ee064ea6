"""The bot's shape: features that import neither each other nor the client, no cycles, no store, no lookups.

The layers are bot → service → store: whatever the bot needs comes from the service. Each
feature (``gatebot.bot.games``, ``gatebot.bot.challenges``) is an extension handed the bot's
services, so no component reads them off ``interaction.client``.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import grimp

import gatebot.bot

BOT = Path(gatebot.bot.__file__).parent
FEATURES = ("gatebot.bot.games", "gatebot.bot.challenges")


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("gatebot", cache_dir=None)


def _sources() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(BOT)), ast.parse(path.read_text(encoding="utf-8"))) for path in BOT.rglob("*.py")]


def test_no_two_modules_of_the_bot_import_each_other() -> None:
    graph = _graph()
    modules = sorted(m for m in graph.modules if m.startswith("gatebot.bot"))
    assert {"gatebot.bot.client", "gatebot.bot.table"} <= set(modules)
    cycles = [
        (a, b) for a, b in itertools.combinations(modules, 2)
        if graph.find_shortest_chain(importer=a, imported=b) and graph.find_shortest_chain(importer=b, imported=a)
    ]
    assert cycles == []


def test_the_client_knows_no_feature_and_no_feature_knows_another() -> None:
    graph = _graph()
    timekeepers = [m for m in graph.modules if m.startswith("gatebot.bot") and ("herald" in m or "schedule" in m)]
    assert timekeepers
    assert [m for m in timekeepers if graph.chain_exists(importer="gatebot.bot.client", imported=m)] == []
    for feature in FEATURES:
        assert not graph.chain_exists(importer="gatebot.bot.client", imported=feature, as_packages=True), feature
        for other in FEATURES:
            if other != feature:
                assert not graph.chain_exists(importer=feature, imported=other, as_packages=True), (feature, other)


def test_the_bot_imports_nothing_from_the_store() -> None:
    found = []
    for name, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gatebot.store"):
                found.append(f"{name}: from {node.module}")
            elif isinstance(node, ast.Import):
                found += [f"{name}: import {a.name}" for a in node.names if a.name.startswith("gatebot.store")]
    assert found == []


def test_no_component_reads_the_services_off_interaction_client() -> None:
    found = [
        f"{name}:{node.lineno}"
        for name, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "client"
        and isinstance(node.value, ast.Name) and node.value.id == "interaction"
    ]
    assert found == []
