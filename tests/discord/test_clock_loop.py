"""The client schedules the clocks: a due reminder is posted in the game's thread, pinging only the player."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.commands import make_core
from tests.discord.actors import BOB, Table
from tests.discord.conftest import start_bot
from tests.fakediscord import payloads as P


async def test_the_clock_loop_posts_reminders(fake, store):
    running = await start_bot(fake, make_core(store), tick_seconds=0.02)
    try:
        t = Table(fake, running.client)
        sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB),
                                                             "clock": "48h"}, sub="new")
        invite = next(s for s in sent if "challenges you" in s.content)
        await t.click("bob", invite.data, "Accept")
        later = datetime.now(UTC) + timedelta(hours=47, minutes=30)
        running.client.keeper.now = lambda: later
        for _ in range(250):
            reminders = [s for s in fake.sent if "reminder" in s.content]
            if reminders:
                break
            await asyncio.sleep(0.02)
        [reminder] = reminders
        assert reminder.channel == invite.channel and "1 h left" in reminder.content
        assert sorted(reminder.allowed_mentions["users"]) == [101, 102]
    finally:
        await running.stop()


async def test_expiry_alerts_go_to_the_servers_alerts_channel(fake, store):
    running = await start_bot(fake, make_core(store))
    try:
        t = Table(fake, running.client)
        sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB)}, sub="new")
        invite = next(s for s in sent if "challenges you" in s.content)
        await t.click("bob", invite.data, "Accept")
        g = next(iter(running.client.core.live.values()))
        assert await running.client.alert_moderators(g, "late") == []
        async with store.transaction():
            await store.set_place_settings(f"guild:{P.GUILD_ID}", {"alerts_channel": "777"})
        [alert] = await running.client.alert_moderators(g, "late")
        assert alert.place == "777" and f"<#{invite.channel}>" in alert.text
    finally:
        await running.stop()
