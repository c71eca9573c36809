"""``run_discord``'s server loop: logs in, syncs, stops cleanly on SIGTERM, and never logs the token."""

from __future__ import annotations

import asyncio
import logging
import os
import signal

from pydantic import SecretStr

from bot.discord_app import serve
from bot.settings import Settings
from tests.fakediscord import payloads as P

TOKEN = "not-a-real-token-3f9c1e"


async def test_serve_syncs_to_the_dev_guild_and_stops_on_sigterm(fake, tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    settings = Settings(_env_file=None, discord_token=SecretStr(TOKEN), database=tmp_path / "bot.db",
                        dev_guild_id=P.GUILD_ID)
    task = asyncio.create_task(serve(settings))
    await asyncio.wait_for(fake.ready.wait(), timeout=15)
    for _ in range(100):
        if str(P.GUILD_ID) in fake.commands:
            break
        await asyncio.sleep(0.02)
    assert {c["name"] for c in fake.commands[str(P.GUILD_ID)]} >= {"game", "mod", "resolve"}
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(task, timeout=15) == 0
    assert TOKEN not in caplog.text


async def test_serve_without_a_token_refuses_to_start(tmp_path):
    settings = Settings(_env_file=None, database=tmp_path / "bot.db")
    assert await serve(settings) == 2


async def test_a_refused_token_stops_with_a_clear_line_and_no_token(fake, tmp_path, caplog):
    fake.refused_tokens.add(TOKEN)
    settings = Settings(_env_file=None, discord_token=SecretStr(TOKEN), database=tmp_path / "bot.db")
    assert await asyncio.wait_for(serve(settings), timeout=15) == 2
    assert "refused the token" in caplog.text and TOKEN not in caplog.text
