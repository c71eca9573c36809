"""End to end on the fake Discord with the toy game: invitation, secrets by DM and by the ephemeral fallback."""

from __future__ import annotations

import re

from tests.discord.actors import BOB, Table, ephemeral, texts
from tests.fakediscord import payloads as P

PNG = b"\x89PNG\r\n\x1a\n"


async def test_a_whole_toy_game(fake, bot, core):
    fake.closed_dms.add(str(BOB))
    t = Table(fake, bot.client)
    assert {"game", "mod", "resolve", "guess", "take"} <= {c["name"] for c in fake.commands[str(P.GUILD_ID)]}
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB),
                                                         "options": "pile:5"}, sub="new")
    invite = next(s for s in sent if "challenges you" in s.content)
    thread = invite.channel
    assert fake.channels[thread]["type"] == 11 and fake.channels[thread]["parent_id"] == str(P.CHANNEL_ID)
    assert fake.channels[thread]["name"] == "Toy: Alice vs Bob"
    assert invite.allowed_mentions["users"] == [BOB] and invite.allowed_mentions["parse"] == []
    assert any(s.content.startswith("**Status of game #") for s in t.in_channel(thread))
    gid = next(iter(core.live))

    sent = await t.click("bob", invite.data, "Accept")
    assert "begins" in texts(sent)
    assert any(f[0].endswith(".png") and f[1].startswith(PNG) for s in sent for f in s.files)
    status = next(s for s in t.in_channel(thread) if s.content.startswith("**Status"))
    live_status = fake.messages[status.data["id"]]["content"]
    assert "turn 1, guess" in live_status and "Clock: the decision is due <t:" in live_status
    assert "a private choice" in live_status
    seats = core.live[gid].seats
    name_of = {"101": "alice", "102": "bob"}
    rounds = 0
    while gid in core.live:
        rounds += 1
        await secret_round(t, fake, thread, rounds)
        taker = name_of[seats[core.live[gid].state.taker]]
        offered = await t.complete(taker, thread, "take", {"n": ""}, focused="n")
        assert offered and set(offered) <= {"1", "2", "3"}
        sent = await t.slash(taker, thread, "take", {"n": max(offered)})
        assert "takes" in texts(sent)
    end = texts(t.in_channel(thread))
    assert "is over" in end and "Dice seed" in end
    assert rounds == 2
    boards = [f for s in t.in_channel(thread) for f in s.files if f[0].endswith(".png")]
    assert len(boards) >= 3 and all(b[1].startswith(PNG) for b in boards)
    status = next(s for s in t.in_channel(thread) if s.content.startswith("**Status"))
    assert "over" in fake.messages[status.data["id"]]["content"]


WORD = re.compile(r"\b(odd|even)\b")


def leaks(fake, since: int) -> list[str]:
    """Channel payloads (and edits) since ``since`` that show a guess (text or button label)."""
    out = []
    for s in fake.channel_payloads(since):
        labels = " ".join(b.get("label", "") for b in P.buttons_of(s.data))
        if WORD.search(s.content) or WORD.search(labels):
            out.append(s.content)
    return out


async def secret_round(t: Table, fake, thread: str, n: int) -> None:
    """Alice chooses by DM; Bob, whose DMs are closed, through the ephemeral panel."""
    start = len(fake.sent)
    panel_msg = [s for s in t.in_channel(thread) if P.buttons_of(s.data)
                 and P.buttons_of(s.data)[0]["label"] == "Choose privately"]
    assert len(panel_msg) == n
    dm = [s for s in t.dms_to("alice") if P.buttons_of(s.data)]
    assert len(dm) == n and f"<#{thread}>" in dm[-1].content
    sent = await t.click("alice", dm[-1].data, "Guess odd")
    assert "sealed" in texts(ephemeral(sent))
    assert "has chosen" in texts(t.in_channel(thread)[-3:])
    refused = await t.click("alice", panel_msg[-1].data, "Choose privately")
    assert "for <@102> only" in texts(ephemeral(refused))
    sent = await t.click("bob", panel_msg[-1].data, "Choose privately")
    panel = ephemeral(sent)[-1]
    assert "your private choice" in panel.content
    assert not leaks(fake, start)
    sent = await t.click("bob", panel.data, "Guess even")
    assert "sealed" in texts(ephemeral(sent))
    assert "you guessed even" in texts(ephemeral(sent))
    assert "could not send you a direct message" not in texts(t.in_channel(thread))
    reveal = texts(sent)
    assert "A guessed odd, B guessed even" in reveal
    stale = await t.click("alice", dm[-1].data, "Guess even")
    assert "out of date" in texts(ephemeral(stale))



async def test_3_03_closed_dms_tell_the_thread_once_a_decision_not_once_a_private_pick(fake, bot, core):
    """3.03: how many picks a side has made is secret. With bob's direct messages closed, his private
    decision waits in the thread behind **Choose privately**; each of his picks changes his prompt (the
    points left), which used to post the 'direct messages are closed' line again, one per pick, for
    anyone to count. It is posted once for the decision."""
    fake.closed_dms.add(str(BOB))
    t = Table(fake, bot.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "chitin", "opponent": ("user", BOB),
                                                         "options": "scenario:basic"}, sub="new")
    invite = next(s for s in sent if "challenges you" in s.content)
    thread = invite.channel
    await t.click("bob", invite.data, "Accept")

    def closed_notes() -> int:
        return sum("direct messages are closed" in s.content for s in t.in_channel(thread))

    assert closed_notes() == 1
    for _ in range(3):
        said = await t.slash("bob", thread, "pick", {"kind": "GT3"})
        assert not any(s.content.startswith("Sorry") for s in said), texts(said)
    assert closed_notes() == 1
