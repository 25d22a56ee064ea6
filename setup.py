"""Packaging that pyproject.toml can't say alone: the Alembic revisions ship inside the package.

They live at the repository's top level (``migrations/``, beside ``gatebot/`` and ``tests/``)
but install as :mod:`gatebot.migrations`, so an installed gatebot upgrades any database it is
given at start-up. Every other package is found under ``gatebot/``, so a new one needs no entry here.

The Archway, Canfield and Gate solvers' search cores are C (``gatebot/solver/<family>/_core.c``, sharing
``gatebot/solver/_search.h``), built with the machine's compiler. Each is optional: without a compiler
the build goes on without it, and that solver searches in Python (``search.COMPILED`` in each family's
package says which one runs).
"""

from setuptools import Extension, find_packages, setup

setup(
    packages=[
        *find_packages(include=["gatebot", "gatebot.*"]),
        "gatebot.migrations",
        *(f"gatebot.migrations.{name}" for name in find_packages("migrations")),
    ],
    package_dir={"gatebot.migrations": "migrations"},
    ext_modules=[
        Extension("gatebot.solver.archway._core", ["gatebot/solver/archway/_core.c"],
                  depends=["gatebot/solver/_search.h"], optional=True),
        Extension("gatebot.solver.canfield._core", ["gatebot/solver/canfield/_core.c"],
                  depends=["gatebot/solver/_search.h"], optional=True),
        Extension("gatebot.solver.gate._core", ["gatebot/solver/gate/_core.c"],
                  depends=["gatebot/solver/_search.h"], optional=True),
    ],
)
