"""Every registered game starts on the fake Discord and takes its own orders by slash command (sealed ones too)."""

from __future__ import annotations

import random

import pytest

from engine.core import registry
from tests.discord.actors import BOB, Table, ephemeral, texts
from tests.fakediscord import payloads as P

GAMES = [n for n in ("oneworld", "chitin", "annihilator") if n in registry.names()]
ACTIONS = 30


@pytest.mark.parametrize("name", GAMES)
async def test_a_game_takes_its_orders_on_discord(fake, bot, core, name):
    t = Table(fake, bot.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": name, "opponent": ("user", BOB)}, sub="new")
    invite = next(s for s in sent if "challenges you" in s.content)
    thread, gid = invite.channel, next(iter(core.live))
    await t.click("bob", invite.data, "Accept")
    rng = random.Random(7)
    name_of = {"101": "alice", "102": "bob"}
    for _ in range(ACTIONS):
        g = core.live.get(gid)
        if g is None or not g.pending():
            break
        p = rng.choice(g.pending())
        action = rng.choice(g.rules.legal_actions(g.state, p.seat))
        seq = g.seq
        sent = await t.slash(name_of[g.user_of(p.seat)], thread, action.verb,
                             {k: str(v) for k, v in action.args.items()})
        assert not any(s.content.startswith(("Sorry", "You are")) for s in ephemeral(sent)), texts(sent)
        assert core.live[gid].seq == seq + 1 if gid in core.live else True
        if p.secret:
            assert not any(action.text() in s.content for s in sent if not s.ephemeral and s.channel == thread)
    assert any(f[0].endswith(".png") for s in t.in_channel(thread) for f in s.files)
    # Every board post carries the focus view, then the full map, each with its alt text.
    posts = [s for s in t.in_channel(thread) if any(f[0].endswith(".png") for f in s.files)]
    assert all([f[0] for f in s.files] == [f"game-{gid}-focus.png", f"game-{gid}-board.png"] for s in posts)
    bodies = [r.json for r in fake.requests if any(n == f"game-{gid}-focus.png" for n, _ in r.files)]
    assert len(bodies) >= len(posts) > 0
    for body in bodies:
        alts = [a.get("description") or "" for a in body["attachments"]]
        assert len(alts) == 2 and all(0 < len(a) <= 1024 for a in alts), alts
    if gid in core.live:
        sent = await t.slash("alice", thread, "game", {}, sub="resign")
        assert gid in core.live, "a resignation is confirmed first"
        ask = next(s for s in ephemeral(sent) if P.buttons_of(s.data))
        assert P.buttons_of(ask.data)[0]["style"] == 4  # red: it cannot be taken back
        await t.click("alice", ask.data, f"Resign game #{gid}")
    assert gid not in core.live
