"""The Dockerfile, read as text (no Docker engine here): what a host relies on when it runs the image.

Its base is Python by version and digest, the minor version CI tests; the locked dependencies are
installed, hashes checked, in a layer before any of gatebot's code is copied (so a code change
doesn't reinstall them); the health check runs ``gatebot health``; it runs as a user that isn't
root, and stops on SIGTERM.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of each line of the Dockerfile, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    logical: list[str] = []
    pending = ""
    for line in text.splitlines():
        if line.lstrip().startswith("#") or not line.strip():
            continue
        pending += line.rstrip().removesuffix("\\") + " "
        if not line.rstrip().endswith("\\"):
            logical.append(pending.strip())
            pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in logical]


@pytest.fixture(scope="module")
def instructions() -> list[tuple[str, str]]:
    return _instructions()


def _index(instructions: list[tuple[str, str]], what: str, pattern: str) -> int:
    found = [i for i, (name, args) in enumerate(instructions) if name == what and re.search(pattern, args)]
    assert found, f"no {what} matching {pattern!r} in the Dockerfile"
    return found[0]


def _stages(instructions: list[tuple[str, str]]) -> list[tuple[str, str | None, list[tuple[str, str]]]]:
    """Each build stage: (its base, its name or None, its instructions after FROM)."""
    stages: list[tuple[str, str | None, list[tuple[str, str]]]] = []
    for name, args in instructions:
        if name == "FROM":
            words = args.split()
            stages.append((words[0], words[2] if len(words) == 3 and words[1].upper() == "AS" else None, []))
        elif stages:
            stages[-1][2].append((name, args))
    return stages


def test_the_base_image_is_python_by_version_and_digest_of_the_minor_ci_tests(instructions) -> None:
    arguments = dict(args.split("=", 1) for name, args in instructions if name == "ARG" and "=" in args)
    [base] = {args.split()[0] for name, args in instructions if name == "FROM"}  # every stage's
    base = re.sub(r"\$\{(\w+)\}", lambda m: arguments[m[1]], base)
    match = re.fullmatch(r"python:(\d+)\.(\d+)\.(\d+)-slim-bookworm@sha256:[0-9a-f]{64}", base)
    assert match, f"{base} is not python:X.Y.Z-slim-bookworm@sha256:<digest>"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    tested = project["tool"]["mypy"]["python_version"]  # the Python CI checks and tests gatebot for
    assert f"{match[1]}.{match[2]}" == tested


def test_the_locked_dependencies_are_installed_before_gatebot_s_code_is_copied(instructions) -> None:
    copy_lock = _index(instructions, "COPY", r"^requirements\.lock\s")
    install = _index(instructions, "RUN", r"pip install .*--require-hashes -r \S*requirements\.lock")
    copy_code = _index(instructions, "COPY", r"^gatebot\s")
    assert copy_lock < install < copy_code
    assert not any(name == "COPY" and args.split()[0] in (".", "./") for name, args in instructions[:install])
    # gatebot itself adds no unlocked dependency, and is built by the locked setuptools, not a fresh download
    _index(instructions, "RUN", r"pip install .*--no-deps --no-build-isolation \.")


def test_the_compiled_core_is_built_in_a_builder_stage_and_the_image_that_runs_has_no_compiler(instructions) -> None:
    """The solvers' C cores need gcc to build; the final image (the slim base) gets only the venv."""
    *builders, (_base, _name, final) = _stages(instructions)
    [(_base, builder, steps)] = [stage for stage in builders if stage[1]]
    install = next(i for i, (name, args) in enumerate(steps)
                   if name == "RUN" and re.search(r"apt-get install .*\bgcc\b.*\blibc6-dev\b", args))
    build = next(i for i, (name, args) in enumerate(steps)
                 if name == "RUN" and re.search(r"pip install .*--no-deps --no-build-isolation \.", args))
    assert install < build
    # the build fails, rather than ship an image without the core, when the core didn't build
    assert ("import gatebot.solver.archway._core, gatebot.solver.canfield._core, gatebot.solver.gate._core"
            in steps[build][1])
    assert ("COPY", f"--from={builder} /opt/gatebot /opt/gatebot") in final
    assert not any(name == "RUN" and re.search(r"\bgcc\b|pip install", args) for name, args in final)


def test_every_file_copied_is_in_the_build_context(instructions) -> None:
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip()}
    for name, args in instructions:
        if name == "COPY" and not args.startswith("--from"):
            for source in shlex.split(args)[:-1]:
                assert (ROOT / source).exists(), f"COPY {source}: no such file"
                assert source.rstrip("/") not in ignored, f"COPY {source}: .dockerignore leaves it out"


def test_the_health_check_runs_gatebot_health(instructions) -> None:
    [check] = [args for name, args in instructions if name == "HEALTHCHECK"]
    command = check.split("CMD", 1)[1].strip()
    words = json.loads(command) if command.startswith("[") else shlex.split(command)
    assert words[-2:] == ["gatebot", "health"]


def test_it_runs_as_a_user_that_is_not_root_and_stops_on_sigterm(instructions) -> None:
    users = [args.split(":")[0] for name, args in instructions if name == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert users[-1] == "10001"  # docs/running.md: the UID that owns /data
    assert _index(instructions, "RUN", r"useradd .*--uid 10001") < _index(instructions, "USER", r".")
    assert [args for name, args in instructions if name == "STOPSIGNAL"] == ["SIGTERM"]
    assert any(name == "ENV" and "HEALTH_FILE=/data/" in args for name, args in instructions)
