"""Which rules tests ran in this process, for the agreement files' coverage checks.

``pytest -n`` spreads a file's tests over workers; a coverage check that counts what the
file's playouts reached can judge them only in the process that ran every one of them.
The conftest beside this records each test as it starts.
"""

from __future__ import annotations

import pytest

#: The node ids of the tests under tests/rules that ran in this process.
RAN: set[str] = set()


def whole_file_ran_here(request: pytest.FixtureRequest) -> bool:
    """Whether every other test of the asking test's file ran in this process."""
    mine = {item.nodeid for item in request.session.items if item.path == request.node.path}
    return mine - {request.node.nodeid} <= RAN
