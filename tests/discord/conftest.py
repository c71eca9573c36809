"""Fixtures for the Discord tests: the fake Discord API and a bot logged in to it."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from pathlib import Path

import discord
import pytest
import yarl

from bot.core import Core
from bot.discord.client import HexhiveClient
from bot.ratelimit import RateLimiter
from bot.store import Store
from tests.fakediscord import payloads as P
from tests.fakediscord.server import FakeDiscord


@pytest.fixture
async def store(tmp_path):
    """The store in memory-backed storage where the machine has it: these tests commit thousands of times."""
    shm = Path("/dev/shm")
    where = Path(tempfile.mkdtemp(dir=shm)) if shm.is_dir() else tmp_path
    s = await Store.open(where / "test.db")
    yield s
    await s.close()
    if where != tmp_path:
        shutil.rmtree(where, ignore_errors=True)


@pytest.fixture
async def fake(monkeypatch):
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.rest_url)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url))
    yield server
    await server.stop()
    assert server.violations == [], "the bot sent what Discord refuses"


class Running:
    """A bot logged in to the fake, and a way to stop it."""

    def __init__(self, client: HexhiveClient, task: asyncio.Task) -> None:
        self.client = client
        self.task = task

    async def stop(self) -> None:
        await self.client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


async def start_bot(fake: FakeDiscord, core: Core, **kwargs) -> Running:
    """Log a hexhive client in to the fake and wait until its start-up is complete."""
    fake.ready.clear()
    kwargs.setdefault("limiter", RateLimiter(burst=100_000))
    client = HexhiveClient(core, dev_guild_id=P.GUILD_ID, guild_ready_timeout=0.05, **kwargs)
    task = asyncio.create_task(client.start("fake-token"))
    done, _ = await asyncio.wait({task, asyncio.ensure_future(client.started())}, timeout=15,
                                 return_when=asyncio.FIRST_COMPLETED)
    if task in done:
        task.result()
    assert client.is_ready()
    return Running(client, task)


@pytest.fixture
async def bot(fake, core):
    running = await start_bot(fake, core)
    yield running
    await running.stop()
