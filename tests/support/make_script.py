"""Write a console script of a whole game, played by a simple greedy policy through the bot core.

Usage: python -m tests.support.make_script GAME SEED OUT.txt [option:value ...]
The script fixes the dice seed, so the console replays it exactly; the suite runs it
(tests/test_scripts.py). Orders answering secret prompts are given by direct message.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

import tests.support.annihilator_policy as annihilator_policy
from bot.commands import make_core
from bot.live import Live
from bot.store import Store
from engine.core.dice import SeededDice
from engine.core.hexes import distance, parse_ccrr
from engine.core.protocol import Action, View
from tests.support import chitin_policy

USERS = {0: "alice", 1: "bob"}


def oneworld_score(view: View, seat: str) -> float:
    """Lower is better: my Children close to the enemy god, the enemy god's lives, my losses."""
    enemy_god = next((c for c in view.counters if c.id.endswith(" god") and c.side != seat), None)
    if enemy_god is None:
        return -1000.0
    target = parse_ccrr(enemy_god.hex)
    mine = [c for c in view.counters if c.side == seat and not c.id.endswith(" god")]
    lives = int(enemy_god.sub.split(",")[1].split()[0]) if "," in enemy_god.sub else 3
    dist = sum(distance(parse_ccrr(c.hex), target) for c in mine)
    return dist + 60 * lives + 8 * (13 - len(mine))


def choose(g: Live, seat: str, legal: list[Action], rng: random.Random, seq: int) -> Action:
    """A greedy choice for OneWorld movement, the policy of chitin_policy.py for Chitin, a random one otherwise."""
    assert g.state is not None
    if g.rules.name == "chitin":
        return chitin_policy.choose(g.state, seat, legal)  # type: ignore[arg-type]
    moves = [a for a in legal if a.verb == "move"]
    if g.rules.name == "oneworld" and moves:
        base = oneworld_score(g.rules.view(g.state, seat), seat)
        best, best_score = None, base - 0.5
        for a in moves:
            try:
                new, _ = g.rules.apply(g.state, seat, a, SeededDice("probe", seq))
            except Exception:
                continue
            sc = oneworld_score(g.rules.view(new, seat), seat)
            if sc < best_score:
                best, best_score = a, sc
        if best is not None:
            return best
        ends = [a for a in legal if a.verb == "end"]
        if ends:
            return ends[0]
    if g.rules.name == "annihilator":
        return annihilator_policy.choose(g.state, seat, legal)  # type: ignore[arg-type]
    for verb in ("place_all", "done"):
        pick = [a for a in legal if a.verb == verb]
        if pick:
            return pick[0]
    return rng.choice(legal)


async def make(game: str, seed: int, options: list[str], max_actions: int = 4000) -> list[str]:
    """Play a game to its end; return the console lines that replay it."""
    store = await Store.open(Path(tempfile.mkdtemp()) / "m.db")
    core = make_core(store)
    rng = random.Random(seed)
    opts = " ".join(options)
    lines = [f"alice: /game new game:{game} opponent:bob seed:{seed} {opts}".rstrip(), "bob: /game accept"]
    r = await core.handle_line("alice", "console:#game-1", lines[0].split(": ", 1)[1])
    gid = r[0].game_id
    assert gid is not None, r[0].text
    await core.handle_line("bob", "console:#game-1", "/game accept")
    for _ in range(max_actions):
        g = core.live.get(gid)
        if g is None:
            break
        prompt = rng.choice(g.pending())
        assert g.state is not None
        action = choose(g, prompt.seat, g.rules.legal_actions(g.state, prompt.seat), rng, g.seq + 1)
        user = g.user_of(prompt.seat)
        where = f"{user} dm" if prompt.secret else user
        line = action.text()
        replies = await core.handle_line(user, f"dm:{user}" if prompt.secret else "console:#game-1", line)
        if g.seq == 0 or replies[0].text.startswith("Sorry"):
            raise RuntimeError(f"{line} was refused: {replies[0].text}")
        lines.append(f"{where}: {line}")
        if len(lines) % 200 == 0:
            v = g.rules.view(g.state, None) if g.state is not None else None
            print(len(lines), v.caption if v else "", file=sys.stderr)
    await store.close()
    return lines


def main() -> None:
    game, seed, out = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    lines = asyncio.run(make(game, seed, sys.argv[4:]))
    out.write_text("\n".join(lines) + "\n")
    print(f"{len(lines)} lines written to {out}")


if __name__ == "__main__":
    main()
