"""``hexhive discord``: run the bot until SIGTERM or SIGINT, then shut down cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal

import discord

from bot.commands import make_core
from bot.core import Core
from bot.settings import Settings
from bot.store import Store

log = logging.getLogger("hexhive.discord")


def run_discord(settings: Settings, *, force_sync: bool = False) -> int:
    """Run the bot on Discord; the exit status is 0 after a clean shutdown, 2 when the token or the
    configuration is refused (a service manager should not restart it in a loop)."""
    return asyncio.run(serve(settings, force_sync=force_sync))


async def serve(settings: Settings, stop: asyncio.Event | None = None, *, force_sync: bool = False) -> int:
    """Open the store, connect, and serve until ``stop`` is set or a termination signal arrives.

    The commands are synced only when they changed since the last sync, or with ``force_sync``."""
    from bot.discord.client import HexhiveClient

    if settings.discord_token is None:
        log.error("HEXHIVE_DISCORD_TOKEN is not set")
        return 2
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    store = await Store.open(settings.database)
    warm: asyncio.Task[None] | None = None
    try:
        core = make_core(store, limits=settings.limits())
        # The maps' terrain layers and the boards of the most recently active games, drawn in the
        # background: the first board after a start is then no slower than the next (boards.warm_up).
        warm = asyncio.create_task(_warm_up(core), name="hexhive-prewarm")
        client = HexhiveClient(core, dev_guild_id=settings.dev_guild_id, force_sync=force_sync)
        return await _run_until(client, settings.discord_token.get_secret_value(), stop)
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        if warm is not None and not warm.done():
            warm.cancel()
        await store.close()


async def _warm_up(core: Core) -> None:
    try:
        from bot.boards import warm_up

        log.info("board layers ready; boards of %d recent games drawn in advance", await warm_up(core))
        # What start-up built lives as long as the bot (modules, maps, board layers, the loaded games):
        # kept out of the collector's full passes, which then scan only what came after
        # (tests/benchmarks/test_startup_bench.py: 1,000 games, a full pass of 55-131 ms before, ~0 after).
        # Collected first, so no garbage of start-up is kept for good.
        gc.collect()
        gc.freeze()
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("could not build the board layers in advance (boards will build them on first use)")


async def _run_until(client: discord.Client, token: str, stop: asyncio.Event) -> int:
    async with client:
        runner = asyncio.create_task(client.start(token), name="hexhive-discord")
        waiter = asyncio.create_task(stop.wait(), name="hexhive-stop")
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if waiter in done:
            log.info("shutting down")
        await client.close()
        waiter.cancel()
        try:
            await runner
        except discord.LoginFailure:
            log.error("Discord refused the token (check HEXHIVE_DISCORD_TOKEN)")
            return 2
        except discord.PrivilegedIntentsRequired:
            log.error("Discord refused the gateway intents; see docs/discord-setup.md")
            return 2
        except asyncio.CancelledError:
            pass
    return 0
