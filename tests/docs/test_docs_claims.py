"""What the README and docs/ name exists: links, anchors, paths, commands, options and settings.

A page that names a file that moved, a `gatebot` subcommand or option that doesn't exist, or a
setting the code never reads sends its reader wrong; these tests read every page and check each
such name against the repository, the real argument parser and the bot's own command tree. The rules' citations in the
code point at docs/rules.md and its sections, and nothing cites the old rules file any more.
"""

from __future__ import annotations

import argparse
import re
from functools import cache
from pathlib import Path

import pytest

from gatebot.cli.parser import build_parser
from gatebot.locale import translator
from tests.bot.test_help import ANY_MENTION, mentioned, registered_commands

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
#: Where the code, tests and tools live: the files that may cite a page of docs/.
SOURCES = ("gatebot", "tests", "benchmarks", "migrations", "scripts", "docs", ".ci")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CITATION = re.compile(r"\bdocs/([\w-]+\.md)(?:#([\w-]+))?")
REPO_PATH = re.compile(r"`((?:gatebot|tests|docs|benchmarks|scripts|migrations|web-sdk|\.ci)/[^`\s]*)`")
INLINE_CODE = re.compile(r"`([^`\n]+)`")
COMMAND = re.compile(r"(?:^|&& |\| |\$ )(?:\.venv/bin/)?gatebot ([\w-][^\n|#;&]*)")
SETTING = re.compile(r"`[^`]*?\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b[^`]*`")
#: Names in capitals the pages use that are not gatebot's own: placeholders the reader fills in,
#: and the operating system's and Discord's names.
NOT_SETTINGS = frozenset({
    "YOUR_APP_ID", "SERVER_ID", "XDG_DATA_HOME", "LC_ALL", "LC_MESSAGES", "EX_TEMPFAIL",
    "LAUNCH_ACTIVITY", "PRIMARY_ENTRY_POINT", "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE",
})


def page_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@cache
def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    words = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", words).replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """Every heading anchor of a markdown file (duplicates numbered as GitHub numbers them)."""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCE.sub("", text(path)).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            name = slug(match.group(1))
            count = seen.get(name, 0)
            seen[name] = count + 1
            found.add(name if count == 0 else f"{name}-{count}")
    return frozenset(found)


@cache
def source_files() -> tuple[Path, ...]:
    files = [ROOT / "README.md"]
    for folder in SOURCES:
        files.extend(path for path in (ROOT / folder).rglob("*")
                     if path.is_file() and path.suffix in {".py", ".md", ".toml", ".ini", ".cfg", ".txt", ""}
                     and "__pycache__" not in path.parts)
    return tuple(sorted(files))


@cache
def source_text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


# -- links and citations ----------------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_link_of_a_page_reaches_a_file_and_its_heading(page: Path) -> None:
    broken = []
    for target in LINK.findall(FENCE.sub("", text(page))):
        if re.match(r"[a-z]+:", target):
            continue
        name, _, anchor = target.partition("#")
        file = (page.parent / name).resolve() if name else page
        if not file.exists() or (anchor and file.suffix == ".md" and anchor not in anchors(file)):
            broken.append(target)
    assert broken == []


def test_every_citation_of_a_docs_page_in_the_repository_reaches_the_page_and_its_section() -> None:
    broken = []
    for path in source_files():
        for match in CITATION.finditer(source_text(path)):
            page = ROOT / "docs" / match.group(1)
            if not page.exists() or (match.group(2) and match.group(2) not in anchors(page)):
                broken.append(f"{page_id(path)}: {match.group(0)}")
    assert broken == []


def test_nothing_cites_a_rules_file_outside_the_repository() -> None:
    old = "RULES" + ".md"
    citing = [page_id(path) for path in source_files() if old in source_text(path)]
    assert citing == []


def test_the_rules_citations_in_the_code_name_sections_of_docs_rules() -> None:
    cited = {match.group(2) for path in source_files() if path.suffix == ".py"
             for match in CITATION.finditer(source_text(path)) if match.group(1) == "rules.md"}
    assert {"deal-numbers", "position-text", "canonical-moves", "filling-an-emptied-column"} <= cited


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_repository_path_a_page_names_exists(page: Path) -> None:
    missing = []
    for match in REPO_PATH.finditer(text(page)):
        name = match.group(1).split("#")[0].split(":")[0].rstrip(".,)")
        placeholder = any(mark in name for mark in "<*…{") or name.endswith("-web.key")  # a file under $XDG_DATA_HOME
        if not placeholder and not (ROOT / name).exists():
            missing.append(name)
    assert missing == []


# -- commands and settings ----------------------------------------------------------------------

def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_gatebot_command_and_option_a_page_names_exists(page: Path) -> None:
    commands = subcommands(build_parser())
    wrong = []
    page_text = text(page)
    code = INLINE_CODE.findall(FENCE.sub("", page_text))
    code += [line for block in FENCE.findall(page_text) for line in block.splitlines()[1:-1]]
    for match in (found for line in code for found in COMMAND.finditer(line.strip())):
        words = match.group(1).split()
        if words[0].startswith("-"):
            continue
        parser = commands.get(words[0])
        if parser is None:
            wrong.append(" ".join(words))
            continue
        if (nested := subcommands(parser)) and len(words) > 1 and not words[1].startswith("-"):
            if words[1] not in nested:
                wrong.append(" ".join(words))
                continue
            parser = nested[words[1]]
        options = {option for action in parser._actions for option in action.option_strings}
        wrong.extend(f"{words[0]} {word}" for word in words if word.startswith("--")
                     and word.split("=")[0] not in options)
    assert wrong == []


@cache
def code_names() -> frozenset[str]:
    """Every name in capitals with an underscore that the code, tests, tools and container files use."""
    files = [path for path in source_files() if path.suffix != ".md"]
    files += [ROOT / "Dockerfile", ROOT / "pyproject.toml"]
    return frozenset(name for path in files if path.exists()
                     for name in re.findall(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b", source_text(path)))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_every_setting_or_constant_a_page_names_is_in_the_code(page: Path) -> None:
    names = set(SETTING.findall(FENCE.sub("", text(page)))) - NOT_SETTINGS
    assert sorted(names - code_names()) == []


async def test_every_slash_command_the_docs_pages_name_exists(tmp_path: Path) -> None:
    english = await registered_commands(tmp_path)
    german = translator("de")
    known = english | {" ".join(german.pgettext("command", part) for part in name.split()) for name in english}
    named = {page_id(page): mentioned(text(page), known, ANY_MENTION) - known for page in PAGES}
    assert {page: sorted(names) for page, names in named.items() if names} == {}


def test_the_readme_stays_short_and_sends_details_to_docs() -> None:
    readme = text(ROOT / "README.md")
    assert len(readme.splitlines()) <= 250
    assert "](docs/rules.md)" in readme and "](docs/playing.md)" in readme
