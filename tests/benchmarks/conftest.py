"""Each benchmark starts from a collected heap.

The benchmarks run one after another in one process, and each drops the cores, stores and event
loop it built: cyclic garbage a running bot never makes (tests/bot/test_costs.py checks that
commands, logs, exports, replays and boards leave none). Left alone, a later benchmark pays for
collecting it: a full collection of about 240,000 such objects stalled the event loop 300-450 ms
in the middle of the stall benchmark. Collecting before each benchmark charges every benchmark
with its own work only.
"""

from __future__ import annotations

import gc

import pytest


@pytest.fixture(autouse=True)
def _collected_heap() -> None:
    gc.collect()
