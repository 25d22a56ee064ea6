"""Alembic's environment and revisions for gatebot's tables, installed as the package gatebot.migrations.

They are kept at the repository's top level, beside ``gatebot/`` and ``tests/``, and mapped
into the package when it is built (see setup.py), so an installed gatebot (``pip install .``)
can bring any database it is given up to date at start-up; :mod:`gatebot.store.migrate` runs them.
"""
