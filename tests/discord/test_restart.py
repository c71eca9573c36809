"""Stopping the bot mid-game and starting it again: old buttons work, clocks resume, nothing is posted twice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.clocks import HEARTBEAT_KEY
from bot.commands import make_core
from bot.core import Core
from tests.discord.actors import BOB, Table, ephemeral, texts
from tests.discord.conftest import start_bot
from tests.fakediscord import payloads as P


async def begin(t: Table, core: Core) -> tuple[int, str]:
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB)}, sub="new")
    invite = next(s for s in sent if "challenges you" in s.content)
    await t.click("bob", invite.data, "Accept")
    return next(iter(core.live)), invite.channel


def panel_message(t: Table, thread: str):
    return next(s for s in t.in_channel(thread) if P.buttons_of(s.data)
                and P.buttons_of(s.data)[0]["label"] == "Choose privately")


async def test_restart_mid_game(fake, store):
    fake.closed_dms.add(str(BOB))
    first = await start_bot(fake, make_core(store, new_seed=lambda: "seed-r"))
    t = Table(fake, first.client)
    gid, thread = await begin(t, first.client.core)
    clock_before = first.client.keeper.states[gid]
    dm = [s for s in t.dms_to("alice") if P.buttons_of(s.data)][-1]
    await first.stop()

    posted = len(fake.sent)
    second = await start_bot(fake, make_core(store, new_seed=lambda: "seed-r2"))
    try:
        assert len(fake.sent) == posted
        assert second.client.keeper.states[gid].deadline == clock_before.deadline
        t = Table(fake, second.client)
        sent = await t.click("alice", dm.data, "Guess odd")
        assert "sealed" in texts(ephemeral(sent))
        panel = ephemeral(await t.click("bob", panel_message(t, thread).data, "Choose privately"))[-1]
        sent = await t.click("bob", panel.data, "Guess even")
        assert "A guessed odd, B guessed even" in texts(sent)
    finally:
        await second.stop()


async def test_unposted_replies_are_posted_once_after_a_restart(fake, store):
    core = make_core(store, new_seed=lambda: "seed-u")
    first = await start_bot(fake, core)
    t = Table(fake, first.client)
    gid, thread = await begin(t, core)
    await first.stop()
    # While the bot is down a command is committed but never delivered (a crash between commit and post).
    late = await core.handle_line("101", thread, "/guess parity:odd")
    public = [r for r in late if r.to == "channel"]
    assert public and all(r.outbox_id is not None for r in public)

    second = await start_bot(fake, make_core(store))
    await second.stop()
    reposted = [s for s in fake.sent if "A has chosen" in s.content]
    assert len(reposted) == 1 and reposted[0].channel == thread
    third = await start_bot(fake, make_core(store))
    await third.stop()
    assert len([s for s in fake.sent if "A has chosen" in s.content]) == 1


async def test_downtime_extends_the_clock_and_says_so(fake, store):
    first = await start_bot(fake, make_core(store, new_seed=lambda: "seed-d"))
    t = Table(fake, first.client)
    gid, thread = await begin(t, first.client.core)
    deadline = first.client.keeper.states[gid].deadline
    await first.stop()
    async with store.transaction():
        two_hours_ago = datetime.now(UTC) - timedelta(hours=2)
        await store.set_place_settings(HEARTBEAT_KEY, {"at": two_hours_ago.isoformat()})

    second = await start_bot(fake, make_core(store))
    try:
        moved = second.client.keeper.states[gid].deadline - deadline
        assert timedelta(hours=1, minutes=59) <= moved <= timedelta(hours=2, minutes=5)
        assert any("The bot was down" in s.content and s.channel == thread for s in fake.sent)
        log = await store.modlog(gid)
        assert any("extended the clock" in r["what"] for r in log)
    finally:
        await second.stop()
