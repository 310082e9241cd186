"""Shared fixtures: a scripted stand-in server process, a temp corpus and warehouse."""

from __future__ import annotations

import pytest

from textguard_pipeline_tests.standin.client import StandIn, standin_server


@pytest.fixture(scope="session")
def standin() -> StandIn:
    """One loopback stand-in server process for the session (script it per test)."""
    with standin_server() as s:
        yield s


@pytest.fixture
def fresh_standin(standin: StandIn) -> StandIn:
    standin.clear()
    return standin
