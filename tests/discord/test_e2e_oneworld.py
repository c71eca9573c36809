"""End to end on the fake Discord with OneWorld: real orders by slash command, sealed aspects by DM and
by the ephemeral fallback, boards as PNG attachments, and the game ended by a resignation."""

from __future__ import annotations

import random

import pytest

from engine.core import registry
from engine.core.dice import SeededDice
from engine.core.protocol import Action, GameConfig
from tests.discord.actors import BOB, Table, ephemeral, texts
from tests.fakediscord import payloads as P

MAX_ACTIONS = 250


def oneworld():
    if "oneworld" not in registry.names():
        pytest.skip("OneWorld is not registered")
    return registry.get("oneworld")


def plan(rules, config: GameConfig, seed: str, key: str, tries: int = 12) -> tuple[int, list[tuple[str, Action]]]:
    """The shortest of a few seeded random lines of play that reach a sealed choice, found offline."""
    best: tuple[int, list[tuple[str, Action]]] | None = None
    for rng_seed in range(tries):
        limit = len(best[1]) if best else MAX_ACTIONS
        line = _line(rules, config, seed, key, random.Random(rng_seed), limit)
        if line is not None:
            best = (rng_seed, line)
    if best is None:
        pytest.skip("no short line of OneWorld play reaches a sealed choice")
    return best


def _line(rules, config: GameConfig, seed: str, key: str, rng: random.Random, limit: int) -> list[tuple[str, Action]] | None:
    state = rules.setup(config, SeededDice(seed, 0, "main"))
    line: list[tuple[str, Action]] = []
    for seq in range(1, limit):
        prompts = rules.pending(state)
        if not prompts:
            return None
        if any(p.secret for p in prompts):
            return line
        p = rng.choice(prompts)
        a = rng.choice(rules.legal_actions(state, p.seat))
        line.append((p.seat, a))
        state, _ = rules.apply(state, p.seat, a, SeededDice(seed, seq, key))
    return None


async def test_oneworld_on_discord(fake, bot, core):
    rules = oneworld()
    fake.closed_dms.add(str(BOB))
    t = Table(fake, bot.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "oneworld", "opponent": ("user", BOB)}, sub="new")
    invite = next(s for s in sent if "challenges you" in s.content)
    thread, gid = invite.channel, next(iter(core.live))
    sent = await t.click("bob", invite.data, "Accept")
    assert "begins" in texts(sent)
    g = core.live[gid]
    user_name = {g.user_of(s): n for s, n in zip(rules.seats, ("alice", "bob"), strict=True)}
    rng_seed, line = plan(rules, g.config, g.row.seed, g.dice_key)
    completed: set[str] = set()
    for seat, action in line:
        who = user_name[g.user_of(seat)]
        args = {k: str(v) for k, v in action.args.items()}
        if action.verb not in completed and args:
            first = next(iter(args))
            offered = await t.complete(who, thread, action.verb, {first: ""}, focused=first)
            assert args[first] in offered or len(offered) == 25, (action.text(), offered)
            completed.add(action.verb)
        sent = await t.slash(who, thread, action.verb, args)
        assert not any(s.content.startswith(("Sorry", "You are")) for s in ephemeral(sent)), (action.text(), texts(sent))
    assert core.live[gid].seq == len(line)
    start = len(fake.sent)
    await sealed_round(t, fake, core, gid, thread)
    boards = [f for s in t.in_channel(thread) for f in s.files if f[0].endswith(".png")]
    assert boards and all(b[1].startswith(b"\x89PNG") for b in boards)
    assert start < len(fake.sent)
    sent = await t.slash("bob", thread, "game", {}, sub="resign")
    assert "is over" in texts(t.in_channel(thread)[-3:]) and gid not in core.live


async def sealed_round(t: Table, fake, core, gid: int, thread: str) -> None:
    """Alice answers her sealed prompt by DM, Bob through 'Choose privately'; nothing shows before the reveal."""
    g = core.live[gid]
    dm = [s for s in t.dms_to("alice") if P.buttons_of(s.data)][-1]
    panel_msg = [s for s in t.in_channel(thread) if P.buttons_of(s.data)
                 and P.buttons_of(s.data)[0]["label"] == "Choose privately"][-1]
    alice_choice = P.buttons_of(dm.data)[0]["label"]
    sent = await t.click("alice", dm.data, alice_choice)
    assert "sealed" in texts(ephemeral(sent))
    sealed_alice = texts(ephemeral(sent)).split("sealed: ")[1].split(". Commitment")[0]
    panel = ephemeral(await t.click("bob", panel_msg.data, "Choose privately"))[-1]
    before_reveal = [s.content for s in fake.channel_payloads()]
    assert not any(sealed_alice in c for c in before_reveal)
    bob_choice = P.buttons_of(panel.data)[0]["label"]
    sent = await t.click("bob", panel.data, bob_choice)
    assert "sealed" in texts(ephemeral(sent))
    assert g.seq == core.live[gid].seq
    opened = texts(t.in_channel(thread))
    assert "Sealed choices opened" in opened and sealed_alice in opened
