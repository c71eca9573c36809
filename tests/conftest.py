"""Shared fixtures: a registered toy game, a store in a temporary file, a core."""

from __future__ import annotations

import pytest
from hypothesis import settings

from engine.core import registry
from tests.support.toygame import ToyGame

registry.register(ToyGame())

# Property tests judge results, not speed: with the suite spread over the cores an example may
# take longer than Hypothesis's default 200 ms deadline without anything being wrong.
settings.register_profile("hexhive", deadline=None)
settings.load_profile("hexhive")


@pytest.fixture
async def store(tmp_path):
    from bot.store import Store

    s = await Store.open(tmp_path / "test.db")
    yield s
    await s.close()


@pytest.fixture
async def core(store):
    from bot.commands import make_core

    counter = iter(range(1, 10**6))
    return make_core(store, new_seed=lambda: f"seed-{next(counter)}")
