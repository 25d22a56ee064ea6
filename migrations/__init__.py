"""Alembic's environment and revisions for gatebot's tables, shipped inside the package.

They live here, not beside the repository, so an installed gatebot (``pip install .``) can
bring any database it is given up to date at start-up; :mod:`gatebot.store.migrate` runs them.
"""
