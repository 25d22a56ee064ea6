"""Importing a compiled search core, or the reason it can't be used (gatebot.solver.compiled)."""

from __future__ import annotations

import sys

import pytest

from gatebot.solver.compiled import import_core


def test_a_module_that_imports_comes_back_with_no_reason() -> None:
    module, why = import_core("gatebot.solver.restarts")
    assert why is None
    assert module is sys.modules["gatebot.solver.restarts"]


def test_a_core_set_to_none_in_sys_modules_comes_back_as_none_with_a_reason_naming_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gatebot.solver.gate._core", None)
    module, why = import_core("gatebot.solver.gate._core")
    assert module is None
    assert why is not None and "gatebot.solver.gate._core" in why


def test_a_core_never_built_comes_back_as_none_with_a_reason_naming_it() -> None:
    module, why = import_core("gatebot.solver.gate._no_such_core")
    assert module is None
    assert why is not None and "_no_such_core" in why
