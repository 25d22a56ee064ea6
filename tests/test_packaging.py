"""The built wheel: it holds every module and revision, and once installed it upgrades a database.

The revisions live at the repository's top level (``migrations/``) and are mapped into the
package as ``gatebot.migrations`` when it is built; an editable install (what the other tests
run on) finds them another way, so only a real wheel shows that ``pip install .`` ships them.
The wheel goes into a fresh venv of its own (``--no-deps``: its dependencies come from this
venv's site-packages through a ``.pth`` file), and ``gatebot db upgrade`` runs from there on
a new SQLite file, away from the repository so nothing can be imported from the checkout.

Building and installing takes several seconds, so these tests are marked ``wheel`` and run
under ``CI=true`` (and with ``pytest -m wheel``); elsewhere they are skipped, visibly.

The lock files, read as text, run everywhere: every dependency pyproject.toml names is pinned
to one version with its hashes, so ``pip install --require-hashes`` installs what was tested.
"""

from __future__ import annotations

import os
import re
import site
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
#: A pin in a lock: ``name==version \`` then its ``--hash=sha256:...`` lines, then ``# via`` comments.
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+)")
HASH = re.compile(r"^--hash=sha256:[0-9a-f]{64}$")


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**{key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "DATABASE_URL")},
           **(env or {})}
    return subprocess.run([str(arg) for arg in args], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=120, check=False)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """gatebot built as a wheel from this checkout, as `pip install .` builds it (in an isolated build env)."""
    out = tmp_path_factory.mktemp("wheel")
    built = _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                 "--wheel-dir", out, ROOT, cwd=out)
    assert built.returncode == 0, built.stderr
    [found] = out.glob("gatebot-*.whl")
    return found


@pytest.mark.wheel
def test_the_wheel_holds_every_module_and_every_revision(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "gatebot").rglob("*.py")}
    assert modules and modules <= names, f"missing from the wheel: {sorted(modules - names)}"
    revisions = {f"gatebot/migrations/{path.relative_to(ROOT / 'migrations').as_posix()}"
                 for path in (ROOT / "migrations").rglob("*") if path.suffix in (".py", ".mako")}
    assert "gatebot/migrations/env.py" in revisions and "gatebot/migrations/script.py.mako" in revisions
    assert revisions <= names, f"missing from the wheel: {sorted(revisions - names)}"
    assert not any(name.startswith("migrations/") for name in names), "the revisions install inside gatebot only"


@pytest.mark.wheel
def test_the_wheel_ships_its_licence_its_type_hints_marker_and_its_metadata(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    assert "gatebot/py.typed" in names, "PEP 561: type checkers read gatebot's hints only with py.typed"
    static = {f"gatebot/web/{path.relative_to(ROOT / 'gatebot' / 'web').as_posix()}"
              for path in (ROOT / "gatebot" / "web" / "static").rglob("*") if path.is_file()}
    assert static and static <= set(names), "the web table's page is served from the installed package"
    [licence] = [name for name in names if name.endswith(".dist-info/licenses/LICENSE")]
    assert archive.read(licence) == (ROOT / "LICENSE").read_bytes()
    [metadata] = [name for name in names if name.endswith(".dist-info/METADATA")]
    headers = archive.read(metadata).decode().split("\n\n", 1)[0].splitlines()
    assert "License-Expression: MIT" in headers
    assert {"Classifier: Typing :: Typed", "Classifier: Programming Language :: Python :: 3.11",
            "Classifier: Framework :: AsyncIO"} <= set(headers)
    assert {line.split(",")[0] for line in headers if line.startswith("Project-URL:")} == {
        "Project-URL: Homepage", "Project-URL: Documentation", "Project-URL: Issues"}


@pytest.mark.wheel
def test_the_wheel_carries_every_message_catalogue(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    catalogues = {path.relative_to(ROOT).as_posix() for path in (ROOT / "gatebot" / "locale").rglob("gatebot.[mp]o")}
    assert "gatebot/locale/de/LC_MESSAGES/gatebot.mo" in catalogues
    assert catalogues <= names, f"missing from the wheel: {sorted(catalogues - names)}"


@pytest.mark.wheel
def test_the_wheel_carries_the_pictures_font_and_its_licence(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    fonts = ROOT / "gatebot" / "render" / "fonts"
    shipped = {path.name for path in fonts.iterdir() if path.suffix == ".ttf"}
    assert shipped == {"DejaVuSans-Latin.ttf", "DejaVuSans-Bold-Latin.ttf"}
    for name in (*shipped, "LICENSE"):
        assert archive.read(f"gatebot/render/fonts/{name}") == (fonts / name).read_bytes(), name


@pytest.mark.wheel
@pytest.mark.parametrize("family", ["archway", "canfield", "gate"])
def test_the_wheel_carries_each_compiled_search_core_and_its_type_stub(wheel: Path, family: str) -> None:
    """Built where there is a compiler (CI has one): a wheel for this platform, not a pure one."""
    names = set(zipfile.ZipFile(wheel).namelist())
    assert f"gatebot/solver/{family}/_core.pyi" in names
    assert [name for name in names if re.fullmatch(rf"gatebot/solver/{family}/_core\.[\w.-]+\.(so|pyd)", name)], (
        f"the compiled {family} core is missing from the wheel")
    assert not wheel.name.endswith("-none-any.whl")


def test_an_installed_wheel_upgrades_a_new_database(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    ours = Path(sysconfig.get_paths(vars={"base": str(env_dir), "platbase": str(env_dir)})["purelib"])
    # Only this venv's site-packages directory: its .pth files (the editable install's finder) aren't read.
    (ours / "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    installed = _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", wheel,
                     cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr
    where = _run(python, "-c", "import gatebot.migrations; print(gatebot.migrations.__file__)", cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(ours), where

    database = tmp_path / "fresh.db"
    upgraded = _run(env_dir / "bin" / "gatebot", "db", "upgrade", cwd=tmp_path,
                    env={"DATABASE_URL": f"sqlite+aiosqlite:///{database}"})
    newest = max(re.match(r"\d{4}", path.name).group() for path in (ROOT / "migrations" / "versions").glob("0*.py"))
    assert upgraded.returncode == 0, upgraded.stderr
    assert upgraded.stdout.strip() == f"Upgraded the database from empty to {newest}."
    assert database.stat().st_size > 0


def _pins(lock: Path) -> dict[str, tuple[str, list[str]]]:
    """Each pinned package of ``lock`` (by canonical name): its version and its hash options."""
    pins: dict[str, tuple[str, list[str]]] = {}
    current: list[str] | None = None
    for raw in lock.read_text(encoding="utf-8").splitlines():
        line = raw.strip().removesuffix("\\").strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        if match:
            name = canonicalize_name(match["name"])
            assert name not in pins, f"{lock.name} pins {name} twice"
            current = []
            pins[name] = (match["version"], current)
            assert line == match.group(0), f"{lock.name}: a pin takes no markers or options here: {raw!r}"
        else:
            assert current is not None, f"{lock.name}: {raw!r} comes before any pin"
            assert HASH.match(line), f"{lock.name}: not a sha256 hash option: {raw!r}"
            current.append(line)
    return pins


def _declared(*extras: str) -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"], *(r for extra in extras for r in project["optional-dependencies"][extra])]
    names = {canonicalize_name(Requirement(requirement).name) for requirement in requirements}
    assert names
    return names


@pytest.mark.parametrize(("lock", "extras"), [("requirements.lock", ()), ("requirements-test.lock", ("test",))])
def test_every_dependency_is_pinned_in_the_lock_with_its_hashes(lock: str, extras: tuple[str, ...]) -> None:
    pins = _pins(ROOT / lock)
    missing = _declared(*extras) - pins.keys()
    assert not missing, f"{lock} doesn't pin {sorted(missing)}: regenerate it (docs/running.md)"
    unhashed = sorted(name for name, (_, hashes) in pins.items() if not hashes)
    assert not unhashed, f"{lock} pins {unhashed} without a hash"
    for name, (version, _) in pins.items():
        for requirement in (Requirement(r) for r in _requirements_named(name, extras)):
            assert requirement.specifier.contains(version, prereleases=True), f"{lock}: {name}=={version} " \
                f"is outside pyproject.toml's {requirement}"
    header = (ROOT / lock).read_text(encoding="utf-8").split("\n\n")[0]
    command = next(line for line in header.splitlines() if re.search(r"pip-compile\s+--", line))  # how to remake it
    assert "--generate-hashes" in command and re.search(rf"--output-file[= ]{re.escape(lock)}\b", command)
    assert bool(re.search(r"--extra[= ]test\b", command)) == bool(extras)


def _requirements_named(name: str, extras: tuple[str, ...]) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    every = [*project["dependencies"], *(r for extra in extras for r in project["optional-dependencies"][extra])]
    return [r for r in every if canonicalize_name(Requirement(r).name) == name]


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-test.lock"])
def test_each_lock_pins_the_build_backend_so_installing_gatebot_downloads_nothing_unhashed(lock: str) -> None:
    """The README's lines, CI and the image build gatebot with ``--no-build-isolation`` from the lock's setuptools."""
    build = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
    pins = _pins(ROOT / lock)
    for requirement in map(Requirement, build["requires"]):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{lock} doesn't pin the build requirement {requirement}: regenerate it (docs/running.md)"
        version, hashes = pins[name]
        assert requirement.specifier.contains(version) and hashes
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    installs = [line for line in readme.splitlines() if line.startswith("python3 -m venv")]
    assert len(installs) == 2 and all("--no-deps --no-build-isolation" in line for line in installs)


def test_the_test_lock_pins_the_runtime_set_at_the_same_versions() -> None:
    """Tests run on exactly what a deployment installs from requirements.lock."""
    runtime, test = _pins(ROOT / "requirements.lock"), _pins(ROOT / "requirements-test.lock")
    assert runtime.keys() <= test.keys()
    assert {name: runtime[name] for name in runtime} == {name: test[name] for name in runtime}


def test_ci_runs_the_readme_s_install_and_test_line_verbatim_from_the_test_lock() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [line] = [line for line in readme.splitlines() if line.startswith("python3 -m venv") and "pytest" in line]
    assert "--require-hashes -r requirements-test.lock" in line and "--no-deps" in line
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert line in ci
    [first] = [line for line in readme.splitlines() if line.startswith("python3 -m venv") and "pytest" not in line]
    assert "--require-hashes -r requirements.lock" in first and "--no-deps" in first
    assert first.endswith(".venv/bin/gatebot web"), "the first command ends at the web table, which prints its address"
