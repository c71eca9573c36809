"""A quiet thread: a scripted game read as a Discord thread posts little and pings only at hand-overs.

For each player-turn (the lines one player gives in a row) the test counts the posts in the
game's channel (an edit of the phase message is not a new post) and the pings, and prints
the counts, so a change that makes the thread noisier shows in the output (pytest -s).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.console import LINE
from tests.support.scripted import ONE_PER_GAME, play


@dataclass
class Turn:
    who: str
    lines: int = 0
    posts: int = 0
    pings: int = 0
    handovers: int = 0
    phases: set = field(default_factory=set)


def deciders(core) -> set[str]:
    """The users a public decision waits on now, in every game of the core."""
    out = set()
    for g in core.live.values():
        if g.state is not None and g.row.status == "active":
            out |= {g.user_of(p.seat) for p in g.pending() if not p.secret}
    return out


def phase_keys(core) -> set:
    return {(g.id, *g.board_key) for g in core.live.values() if g.board_key is not None}


@pytest.mark.parametrize("script", ONE_PER_GAME)
async def test_thread_noise_one_ping_per_hand_over_and_few_posts_per_turn(script, tmp_path):
    turns: list[Turn] = []
    seen_keys: set[str] = set()
    waiting: set[str] = set()
    async for line, replies, core in play(script, tmp_path / "g.db"):
        m = LINE.match(line)
        if m is None or m["cmd"].startswith(("/game new", "/resolve")):  # an invitation pings the invited
            continue
        who = m["user"]
        if not turns or turns[-1].who != who:
            turns.append(Turn(who))
        t = turns[-1]
        t.lines += 1
        t.phases |= phase_keys(core)
        now = deciders(core)
        new_deciders = now - waiting
        waiting = now
        channel = [r for r in replies if r.to == "channel" and not r.place.startswith("dm:")]
        posts = [r for r in channel if not r.edit_key or r.edit_key not in seen_keys]
        seen_keys |= {r.edit_key for r in channel if r.edit_key}
        pinged = [u for r in channel for u in r.mentions]
        over = any("is over" in r.text for r in channel)
        # a ping goes only to a player a decision has just passed to, once (the end of a game tells both)
        if not over and not m["cmd"].startswith("/game accept"):
            assert len(pinged) == len(set(pinged)) and set(pinged) <= new_deciders, (line, pinged, new_deciders)
        t.posts += len(posts)
        t.pings += len(pinged)
        t.handovers += len(new_deciders)
    print(f"\n{script}: player-turn  who  lines  phases  posts  pings  hand-overs")
    for n, t in enumerate(turns, 1):
        print(f"{script}: {n:>11}  {t.who:<5} {t.lines:>5}  {len(t.phases):>6}  {t.posts:>5}  {t.pings:>5}  "
              f"{t.handovers:>10}")
    for t in turns[1:-1]:  # the first (the invitation is answered) and the last (the result) post a little more
        assert t.posts <= len(t.phases) + 2, (script, t)
        assert t.pings <= max(t.handovers, 1), (script, t)
    assert turns and sum(t.lines for t in turns) > 0


def test_a_phase_message_goes_on_in_a_new_post_before_it_is_too_long_to_edit():
    from types import SimpleNamespace

    from bot import phaselog

    g = SimpleNamespace(id=1, row=SimpleNamespace(branch=1))
    pm = None
    keys = set()
    for seq in range(1, 80):
        pm = phaselog._append(g, pm, seq, [f"Blue: Worker 1d (B{seq}) moves reserve to 0{seq:03d}"])
        keys.add(pm["key"])
        assert len(pm["text"]) <= phaselog.EDIT_LIMIT
    assert len(keys) > 1
