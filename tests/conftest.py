"""Shared fixtures: a registered toy game, a store in a temporary file, a core."""

from __future__ import annotations

import pytest

from engine.core import registry
from tests.support.toygame import ToyGame

registry.register(ToyGame())


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
