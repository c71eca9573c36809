"""Two members' interactions on one game arriving at the same instant, through the fake Discord API."""

from __future__ import annotations

import asyncio

from tests.discord.actors import BOB, Table
from tests.fakediscord import payloads as P

GUILD = f"guild:{P.GUILD_ID}"


async def test_race_move_and_resign_on_discord(fake, bot, core):
    t = Table(fake, bot.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB)}, sub="new")
    invite = next(s for s in sent if "challenges you" in s.content)
    thread, gid = invite.channel, next(iter(core.live))
    await t.click("bob", invite.data, "Accept")
    for user in ("101", "102"):
        await core.handle_line(user, f"dm:{user}", f"/guess parity:odd game:{gid}", community="")
    g = core.live[gid]
    mover = "alice" if g.user_of(g.state.taker) == "101" else "bob"
    resigner = "bob" if mover == "alice" else "alice"
    asked = await t.slash(resigner, thread, "game", {}, sub="resign")  # resigning asks first (a red button)
    ask = next(s for s in asked if s.ephemeral and s.data.get("components"))
    label = ask.data["components"][0]["components"][0]["label"]
    start = len(fake.sent)
    await asyncio.gather(t.click(resigner, ask.data, label), t.slash(mover, thread, "take", {"n": 1}))
    posts = [s.content for s in fake.sent[start:] if s.channel == thread and not s.ephemeral]
    over = [i for i, p in enumerate(posts) if "is over" in p]
    assert len(over) == 1, posts
    assert not any("takes" in p for p in posts[over[0]:]), posts  # nothing of the game after its result
    row = await core.store.game(gid)
    assert row.status == "over" and len(await core.store.actions(gid, row.branch)) in (2, 3)
    if not any("takes" in p for p in posts):
        refused = [s.content for s in fake.sent[start:] if s.ephemeral and "over" in s.content]
        assert refused, "the move that lost the race is refused privately"
