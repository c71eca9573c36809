"""Random and malformed commands from players, strangers and moderators, for every registered game:
no crash, every refusal a clear private message, and a refused command changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands import make_core
from bot.core import Core
from bot.live import full_replay
from bot.store import Store
from engine.core import registry
from tests.support.samples import playable_games, sample_options

USERS = ["alice", "bob", "carol", "eve"]  # carol is a moderator, eve a stranger
LIFECYCLE = ["/game board", "/game status", "/game log", "/game list", "/game help", "/help", "/game accept",
             "/game decline", "/game export", "/mod pause", "/mod resume", "/mod branches", "/mod rollback to:0",
             "/mod rollback to:x", "/mod restore branch:9", "/mod replace seat:Z user:q", "/mod end winner:nobody",
             "/game new game:nosuch opponent:bob", "/game new", "/resolve dice", "/mod log",
             "/mod edit", "/mod edit op:remove reason:x", "/mod edit op:place unit:Z9 hex:9999 reason:y"]
NOISE = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
ODD_NUMBERS = st.one_of(
    st.text(alphabet="²³¹١٢٣٤٥٦٧٨٩０１２３߀୧৩߃", min_size=1, max_size=6),  # digits Python's isdigit accepts
    st.integers(10**12, 10**40).map(str), st.integers(-10**6, -1).map(str), st.just("1e9"), st.just(" 7 "),
)
NUMBER_LINES = ["/game status game:{n}", "/game log last:{n}", "/game board game:{n}", "/mod rollback to:{n}",
                "/mod restore branch:{n}", "/game new game:toy opponent:dave clock:{n}h", "/game export game:{n}",
                "/take n:{n}", "/mod pause game:{n}"]


async def snapshot(core: Core, store: Store, gid: int):
    g = core.live.get(gid)
    async with store.db.execute("SELECT COUNT(*) FROM actions") as cur:
        n_actions = (await cur.fetchone())[0]
    async with store.db.execute("SELECT COUNT(*) FROM outbox") as cur:
        n_out = (await cur.fetchone())[0]
    async with store.db.execute("SELECT status, branch, settings FROM games") as cur:
        rows = [tuple(r) for r in await cur.fetchall()]
    return (g.state.model_dump_json() if g and g.state is not None else None, g.seq if g else None,
            n_actions, n_out, rows)


def command_strategy(core: Core, gid: int, data: st.DataObject) -> tuple[str, str]:
    g = core.live.get(gid)
    kind = data.draw(st.sampled_from(["legal", "legal", "legal", "mutated", "verb", "lifecycle", "noise",
                                      "number"]))
    user = data.draw(st.sampled_from(USERS))
    if g is not None and g.state is not None and kind in ("legal", "mutated"):
        prompts = g.pending()
        if prompts:
            p = data.draw(st.sampled_from(prompts))
            legal = g.rules.legal_actions(g.state, p.seat)
            a = data.draw(st.sampled_from(legal))
            args = dict(a.args)
            if kind == "mutated" and args:
                k = data.draw(st.sampled_from(sorted(args)))
                if data.draw(st.booleans()):
                    del args[k]
                else:
                    args[k] = data.draw(NOISE.filter(lambda s: ":" not in s and '"' not in s and s.strip() == s))
                user = data.draw(st.sampled_from(USERS))
            else:
                user = g.user_of(p.seat)
            text = f"/{a.verb} " + " ".join(f'{k}:"{v}"' for k, v in args.items())
            return user, text
    if kind == "verb" and g is not None:
        verb = data.draw(st.sampled_from([v.verb for v in g.rules.verbs()] or ["x"]))
        arg = data.draw(st.sampled_from(["to", "unit", "hex", "dir", "n", "aspect", "x"]))
        val = data.draw(NOISE.filter(lambda s: '"' not in s))
        return user, f'/{verb} {arg}:"{val}"'
    if kind == "lifecycle":
        return user, data.draw(st.sampled_from(LIFECYCLE))
    if kind == "number":  # non-ASCII digits, huge and negative values where a number is asked
        line = data.draw(st.sampled_from(NUMBER_LINES))
        return user, line.format(n=f'"{data.draw(ODD_NUMBERS)}"')
    return user, data.draw(NOISE)


@pytest.mark.parametrize("game", playable_games())
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
async def test_fuzzed_commands_never_crash_and_refusals_change_nothing(game, data):
    store = await Store.open(":memory:")
    try:
        core = make_core(store, new_seed=lambda: "fuzz")
        opts = " ".join(f"{k}:{v}" for k, v in sample_options(game).items())
        r = await core.handle_line("alice", "room", f"/game new game:{game} opponent:bob {opts}")
        gid = r[0].game_id
        assert gid is not None, r[0].text
        await core.handle_line("bob", "room", f"/game accept game:{gid}")
        for _ in range(data.draw(st.integers(5, 40))):
            user, line = command_strategy(core, gid, data)
            before = await snapshot(core, store, gid)
            replies = await core.handle_line(user, "room", line, is_moderator=user == "carol")
            assert not core.internal_errors, f"{user}: {line!r} raised an internal error"
            assert replies, f"{user}: {line!r} got no answer"
            refused = len(replies) == 1 and replies[0].to == "private" and replies[0].text.startswith("Sorry")
            if refused:
                assert await snapshot(core, store, gid) == before, f"{user}: {line!r} was refused but changed things"
                assert len(replies[0].text) < 1500
        row = await store.game(gid)
        if row.status in ("active", "paused", "over"):
            state, _ = await full_replay(store, row)
            live = core.live.get(gid)
            if live is not None:
                assert state.model_dump_json() == live.state.model_dump_json()
    finally:
        await store.close()


def test_every_registered_game_is_fuzzed():
    assert set(playable_games()) == set(registry.names())
