"""Stand-alone combats on the fake Discord, each played through its own orders to its natural end."""

from __future__ import annotations

import pytest

from tests.discord.actors import BOB, Table, ephemeral, texts
from tests.fakediscord import payloads as P

RESOLVES = [
    ("dice", {"attack": "4,4", "defence": "3,3", "defence_advantages": "1"}),
    ("assault", {"attackers": "Bug1/teeth=4,Bug2/teeth=4", "defenders": "Marine/pulse_rifle=3/veterans"}),
]


@pytest.mark.parametrize(("kind", "options"), RESOLVES, ids=[r[0] for r in RESOLVES])
async def test_a_stand_alone_combat_to_its_end(fake, bot, core, kind, options):
    t = Table(fake, bot.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "resolve", {"opponent": ("user", BOB)} | options, sub=kind)
    invite = next(s for s in sent if "challenges you" in s.content)
    thread, gid = invite.channel, next(iter(core.live))
    await t.click("bob", invite.data, "Accept")
    name_of = {"101": "alice", "102": "bob"}
    for _ in range(60):
        g = core.live.get(gid)
        if g is None:
            break
        p = g.pending()[0]
        action = g.rules.legal_actions(g.state, p.seat)[0]
        sent = await t.slash(name_of[g.user_of(p.seat)], thread, action.verb,
                             {k: str(v) for k, v in action.args.items()})
        assert not any(s.content.startswith(("Sorry", "You are")) for s in ephemeral(sent)), texts(sent)
    assert gid not in core.live
    assert "is over" in texts(t.in_channel(thread))
