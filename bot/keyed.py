"""Locks by key (a member, a message), each forgotten once nobody holds or waits on it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator


class KeyedLocks:
    """One asyncio lock a key; the table keeps only the keys in use, so it does not grow with every
    member or message ever seen."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    def __len__(self) -> int:
        """How many keys are held or waited on now."""
        return len(self._held)

    @contextlib.asynccontextmanager
    async def hold(self, *keys: str) -> AsyncIterator[None]:
        """Hold the locks of ``keys``, taken in a fixed order (two callers sharing keys cannot deadlock)."""
        names = sorted(set(keys))
        entries = [self._held.setdefault(k, (asyncio.Lock(), [0])) for k in names]
        for _, users in entries:
            users[0] += 1
        try:
            async with contextlib.AsyncExitStack() as stack:
                for lock, _ in entries:
                    await stack.enter_async_context(lock)
                yield
        finally:
            for name, (_, users) in zip(names, entries, strict=True):
                users[0] -= 1
                if not users[0]:
                    self._held.pop(name, None)
