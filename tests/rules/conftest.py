"""Every rules test is recorded as it runs (:mod:`tests.rules.runs`), for the coverage checks."""

from __future__ import annotations

import pytest

from tests.rules.runs import RAN


@pytest.fixture(autouse=True)
def _counted(request: pytest.FixtureRequest) -> None:
    RAN.add(request.node.nodeid)
