"""The built wheel: it holds every module and revision, and once installed it upgrades a database.

The revisions live at the repository's top level (``migrations/``) and are mapped into the
package as ``gatebot.migrations`` when it is built; an editable install (what the other tests
run on) finds them another way, so only a real wheel shows that ``pip install .`` ships them.
The wheel goes into a fresh venv of its own (``--no-deps``: its dependencies come from this
venv's site-packages through a ``.pth`` file), and ``gatebot db upgrade`` runs from there on
a new SQLite file, away from the repository so nothing can be imported from the checkout.

Building and installing takes several seconds, so these tests are marked ``wheel`` and run
under ``CI=true`` (and with ``pytest -m wheel``); elsewhere they are skipped, visibly.
"""

from __future__ import annotations

import os
import re
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.wheel


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


def test_the_wheel_holds_every_module_and_every_revision(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "gatebot").rglob("*.py")}
    assert modules and modules <= names, f"missing from the wheel: {sorted(modules - names)}"
    revisions = {f"gatebot/migrations/{path.relative_to(ROOT / 'migrations').as_posix()}"
                 for path in (ROOT / "migrations").rglob("*") if path.suffix in (".py", ".mako")}
    assert "gatebot/migrations/env.py" in revisions and "gatebot/migrations/script.py.mako" in revisions
    assert revisions <= names, f"missing from the wheel: {sorted(revisions - names)}"
    assert not any(name.startswith("migrations/") for name in names), "the revisions install inside gatebot only"


def test_the_wheel_carries_every_message_catalogue(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    catalogues = {path.relative_to(ROOT).as_posix() for path in (ROOT / "gatebot" / "locale").rglob("gatebot.[mp]o")}
    assert "gatebot/locale/de/LC_MESSAGES/gatebot.mo" in catalogues
    assert catalogues <= names, f"missing from the wheel: {sorted(catalogues - names)}"


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
