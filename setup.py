"""Packaging that pyproject.toml can't say alone: the Alembic revisions ship inside the package.

They live at the repository's top level (``migrations/``, beside ``gatebot/`` and ``tests/``)
but install as :mod:`gatebot.migrations`, so an installed gatebot upgrades any database it is
given at start-up. Every other package is found under ``gatebot/``, so a new one needs no entry here.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["gatebot", "gatebot.*"]),
        "gatebot.migrations",
        *(f"gatebot.migrations.{name}" for name in find_packages("migrations")),
    ],
    package_dir={"gatebot.migrations": "migrations"},
)
