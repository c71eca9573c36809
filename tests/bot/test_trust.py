"""Trust: a game belongs to its community, commands on one game never interleave, every secret opens,
numbers and echoed text are handled in one place, and one member cannot flood a server.

The races start two commands at the same instant with ``asyncio.gather`` through the real core,
the way two members' clicks arrive on Discord.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.clocks import ClockKeeper
from bot.commands import make_core
from bot.core import Core, Limits
from bot.live import full_replay
from bot.store import Store

HOME, AWAY = "guild:1", "guild:2"
THREAD = "t-home"


async def say(core: Core, user: str, line: str, place: str = THREAD, mod: bool = False,
              community: str | None = HOME):
    return await core.handle_line(user, place, line, is_moderator=mod, community=community)


def texts(replies, to=None) -> str:
    return "\n".join(r.text for r in replies if to is None or r.to == to)


async def toy(core: Core, *, guessed: bool = True, **opts) -> int:
    """A toy game of community HOME in THREAD; with ``guessed``, both have guessed and one must take."""
    extra = " ".join(f"{k}:{v}" for k, v in opts.items())
    r = await say(core, "alice", f"/game new game:toy opponent:bob {extra}")
    gid = r[0].game_id
    assert gid is not None, r[0].text
    await say(core, "bob", "/game accept")
    if guessed:
        await say(core, "alice", f"/guess parity:odd game:{gid}", place="dm:alice", community="")
        await say(core, "bob", f"/guess parity:even game:{gid}", place="dm:bob", community="")
    return gid


def taker(core: Core, gid: int) -> str:
    g = core.live[gid]
    return g.user_of(g.state.taker)


async def fingerprint(store: Store, gid: int) -> tuple:
    row = await store.game(gid)
    assert row is not None
    return (row.status, row.branch, row.settings, len(await store.actions(gid, row.branch)),
            len(await store.modlog(gid)), len(await store.branches(gid)))


# --- 1. a game belongs to the community it was created in --------------------------------------------

MOD_LINES = ["/mod pause", "/mod end winner:A", "/mod replace seat:B user:mallory",
             "/mod rollback to:0 confirm:yes reason:x", "/mod edit op:pile n:3 reason:x", "/mod branches",
             "/mod log", "/mod restore branch:1"]


@pytest.mark.parametrize("line", MOD_LINES)
async def test_cross_guild_moderation_refused(core, store, line):
    gid = await toy(core)
    before = await fingerprint(store, gid)
    for place, community in (("t-away", AWAY), ("dm:mallory", "")):
        r = await say(core, "mallory", f"{line} game:{gid}", place=place, mod=True, community=community)
        assert len(r) == 1 and r[0].to == "private", r
        assert r[0].text.startswith("Sorry") and "seed" not in r[0].text
    assert await fingerprint(store, gid) == before
    r = await say(core, "mo", f"{line} game:{gid}", mod=True)  # its own server's moderator may
    assert not r[0].text.startswith("Sorry, only moderators"), r[0].text
    assert "another community" not in r[0].text


async def test_a_stranger_from_another_server_cannot_read_a_game_by_number(core):
    gid = await toy(core)
    for line in ("/game board", "/game export", "/game log", "/game status", "/game replay"):
        r = await say(core, "mallory", f"{line} game:{gid}", place="t-away", community=AWAY)
        assert len(r) == 1 and r[0].to == "private" and f"no game #{gid}" in r[0].text, (line, r)
        r = await say(core, "mallory", f"{line} game:{gid}", place="dm:mallory", community="")
        assert len(r) == 1 and r[0].to == "private" and f"no game #{gid}" in r[0].text, (line, r)
        r = await say(core, "carol", f"{line} game:{gid}", place="elsewhere-home")  # same server: may read
        assert not r[0].text.startswith("Sorry"), (line, r[0].text)


async def test_a_player_reads_their_game_from_anywhere_but_replay_never_posts_into_another_server(core):
    gid = await toy(core)
    for line in ("/game board", "/game export", "/game log", "/game status"):
        r = await say(core, "alice", f"{line} game:{gid}", place="t-away", community=AWAY)
        assert not r[0].text.startswith("Sorry"), (line, r[0].text)
    r = await say(core, "alice", f"/game replay game:{gid}", place="t-away", community=AWAY)
    assert [x.to for x in r] == ["private"] and r[0].animation and r[0].place == "t-away"
    r = await say(core, "alice", f"/game replay game:{gid}")
    assert r[0].to == "channel" and r[0].place == THREAD


async def test_a_dm_finds_only_the_askers_own_games(core):
    gid = await toy(core)
    r = await say(core, "mallory", f"/take n:1 game:{gid}", place="dm:mallory", community="")
    assert f"no game #{gid}" in r[0].text
    r = await say(core, taker(core, gid), "/take n:1", place=f"dm:{taker(core, gid)}", community="")
    assert "takes 1" in texts(r)


async def test_moderator_status_comes_from_the_games_own_community_for_the_clock_too(core, store):
    gid = await toy(core, on_timeout="forfeit", clock="1h")
    now = [datetime(2026, 12, 1, tzinfo=UTC)]
    keeper = ClockKeeper(core, now=lambda: now[0])
    await keeper.tick()
    now[0] += timedelta(hours=2)
    out = await keeper.tick()
    assert "ran out of time" in texts(out) and (await store.game(gid)).status == "over"


# --- 2. commands on one game never interleave ---------------------------------------------------------

async def test_race_move_and_resign(core, store):
    gid = await toy(core)
    mover = taker(core, gid)
    resigner = "bob" if mover == "alice" else "alice"
    r_resign, r_move = await asyncio.gather(say(core, resigner, "/game resign confirm:yes"), say(core, mover, "/take n:1"))
    assert "is over" in texts(r_resign, "channel")
    assert r_move[0].to == "private" and "over" in r_move[0].text and "nothing was changed" in r_move[0].text
    row = await store.game(gid)
    assert row.status == "over" and len(await store.actions(gid, row.branch)) == 2  # the two guesses only


async def test_race_move_then_resign_keeps_their_order(core, store):
    gid = await toy(core)
    mover = taker(core, gid)
    resigner = "bob" if mover == "alice" else "alice"
    r_move, r_resign = await asyncio.gather(say(core, mover, "/take n:1"), say(core, resigner, "/game resign confirm:yes"))
    assert "takes 1" in texts(r_move, "channel") and "is over" in texts(r_resign, "channel")
    row = await store.game(gid)
    assert row.status == "over" and len(await store.actions(gid, row.branch)) == 3


@pytest.mark.parametrize("second", ["bob: /game resign confirm:yes", "mo: /mod end winner:B"])
async def test_race_two_results_only_one_is_posted(core, store, second):
    gid = await toy(core)
    user, line = second.split(": ")
    r1, r2 = await asyncio.gather(say(core, "alice", "/game resign confirm:yes"), say(core, user, line, mod=user == "mo"))
    assert "is over" in texts(r1, "channel")
    assert [x.to for x in r2] == ["private"] and "over" in r2[0].text
    row = await store.game(gid)
    assert json.loads(row.settings)["result"]["winner"] == "B"
    assert sum("is over" in json.loads(p)["text"] for _, _, p in await store.unposted()) == 1


async def test_finishing_is_idempotent(core):
    gid = await toy(core)
    await say(core, "alice", "/game resign confirm:yes")
    r = await say(core, "bob", f"/game resign confirm:yes game:{gid}")
    assert r[0].to == "private" and r[0].text.startswith("Sorry")


async def test_race_rollback_and_move(core, store):
    gid = await toy(core)
    mover = taker(core, gid)
    old = core.live[gid].row.branch
    r_roll, r_move = await asyncio.gather(say(core, "mo", "/mod rollback to:0 confirm:yes reason:replay", mod=True),
                                          say(core, mover, "/take n:1"))
    assert "rolled game" in texts(r_roll)
    assert len(await store.actions(gid, old)) == 2  # nothing committed to the abandoned branch
    assert "takes" not in texts(r_move, "channel")
    row = await store.game(gid)
    assert row.branch != old and len(await store.actions(gid, row.branch)) == 0


@pytest.mark.parametrize("first", ["accept", "withdraw"])
async def test_race_accept_and_withdraw(tmp_path, first):
    store = await Store.open(tmp_path / "r.db")
    core = make_core(store)
    r = await say(core, "alice", "/game new game:toy opponent:bob")
    gid = r[0].game_id
    accept, withdraw = say(core, "bob", "/game accept"), say(core, "alice", "/game decline")
    r1, r2 = await asyncio.gather(*((accept, withdraw) if first == "accept" else (withdraw, accept)))
    assert [x.to for x in r2] == ["private"] and r2[0].text.startswith("Sorry"), r2
    row = await store.game(gid)
    assert row.status == ("active" if first == "accept" else "declined")
    assert (gid in core.live) == (row.status == "active")
    await store.close()
    store = await Store.open(tmp_path / "r.db")
    again = make_core(store)
    await again.start()
    assert (gid in again.live) == (first == "accept")
    await store.close()


# --- 3. secrets: sealed, then always opened -----------------------------------------------------------

async def test_secrets_open_when_game_ends(core, store):
    for ending in ("bob: /game resign confirm:yes", "mo: /mod end winner:draw"):
        gid = await toy(core, guessed=False)
        await say(core, "alice", f"/guess parity:odd game:{gid}", place="dm:alice", community="")
        user, line = ending.split(": ")
        r = await say(core, user, f"{line} game:{gid}", mod=user == "mo")
        public = texts(r, "channel")
        assert "Sealed choices opened" in public and "guess parity:odd" in public
        assert public.index("Sealed choices opened") < public.index("is over")
        row = await store.game(gid)
        assert await store.secrets(gid, row.branch, unrevealed=True) == []
        rec = json.loads((await say(core, "carol", f"/game export game:{gid}"))[0].file_text)
        assert rec["actions"][0]["action"] is not None and rec["actions"][0]["nonce"]


async def test_secrets_open_when_the_game_ends_by_its_own_rules(core, store):
    gid = await toy(core, guessed=False, pile=1)
    await say(core, "alice", f"/guess parity:odd game:{gid}", place="dm:alice", community="")
    await say(core, "bob", f"/guess parity:odd game:{gid}", place="dm:bob", community="")
    r = await say(core, taker(core, gid), "/take n:1")
    assert "is over" in texts(r)
    assert await store.secrets(gid, 1, unrevealed=True) == []


async def test_status_does_not_leak_private_steps(core, store):
    r = await say(core, "alice", "/game new game:chitin scenario:intermediate opponent:bob clock:72h")
    gid = r[0].game_id
    await say(core, "bob", "/game accept")
    now = [datetime(2026, 12, 1, tzinfo=UTC)]
    keeper = ClockKeeper(core, now=lambda: now[0])
    await keeper.tick()
    keeper.take_changed()
    first = keeper.line(gid)
    g = core.live[gid]
    red = next(s for s in g.seats if g.user_of(s) == "alice")
    for _ in range(4):
        now[0] += timedelta(hours=1)
        g = core.live[gid]
        pick = next(a for a in g.rules.legal_now(g.state, red) if a.verb == "pick")
        r = await say(core, "alice", pick.text(), place="dm:alice", community="")
        assert "sealed" in texts(r, "private")
        await keeper.tick()
        assert keeper.line(gid) == first
        assert keeper.take_changed() == set()


async def test_clock_not_reset_by_toggling(core, store):
    """A player facing a 72-hour forfeit clock toggles pick/drop every 48 hours: the clock runs out."""
    r = await say(core, "alice", "/game new game:chitin scenario:intermediate opponent:bob clock:72h "
                                 "on_timeout:forfeit")
    gid = r[0].game_id
    await say(core, "bob", "/game accept")
    now = [datetime(2026, 12, 1, tzinfo=UTC)]
    keeper = ClockKeeper(core, now=lambda: now[0])
    await keeper.tick()
    g = core.live[gid]
    for seat, user in g.seats.items():  # bob chooses his army at once; alice keeps toggling
        if user == "bob":
            for _ in range(40):
                g = core.live[gid]
                legal = g.rules.legal_now(g.state, seat)
                act = next((a for a in legal if a.verb == "ready"), None) or next(a for a in legal if a.verb == "pick")
                await say(core, "bob", act.text(), place="dm:bob", community="")
                if act.verb == "ready":
                    break
    red = next(s for s, u in core.live[gid].seats.items() if u == "alice")
    for day in range(15):
        now[0] += timedelta(hours=48)
        g = core.live[gid]
        verb = "pick" if day % 2 == 0 else "drop"
        act = next(a for a in g.rules.legal_now(g.state, red) if a.verb == verb)
        await say(core, "alice", act.text(), place="dm:alice", community="")
        await keeper.tick()
        if gid not in core.live:
            break
    row = await store.game(gid)
    assert row.status == "over" and "ran out of time" in json.loads(row.settings)["result"]["reason"]
    assert now[0] - datetime(2026, 12, 1, tzinfo=UTC) == timedelta(hours=96)  # the first tick past 72 h


async def test_moderator_who_plays_learns_no_count_of_sealed_steps(core):
    r = await say(core, "alice", "/game new game:chitin scenario:intermediate opponent:bob")
    gid = r[0].game_id
    await say(core, "bob", "/game accept")
    before = texts(await say(core, "alice", f"/mod branches game:{gid}", mod=True))
    err_before = texts(await say(core, "alice", f"/mod rollback to:99 game:{gid}", mod=True))
    g = core.live[gid]
    blue = next(s for s, u in g.seats.items() if u == "bob")
    for _ in range(3):
        g = core.live[gid]
        pick = next(a for a in g.rules.legal_now(g.state, blue) if a.verb == "pick")
        await say(core, "bob", pick.text(), place="dm:bob", community="")
    after = texts(await say(core, "alice", f"/mod branches game:{gid}", mod=True))
    err_after = texts(await say(core, "alice", f"/mod rollback to:99 game:{gid}", mod=True))
    assert after.replace(" and sealed choices being made", "") == before
    assert err_after == err_before


async def test_rollback_between_a_revealed_pair_needs_confirmation(core, store):
    gid = await toy(core)
    r = await say(core, "mo", f"/mod rollback to:1 game:{gid}", mod=True)
    assert "revealed together" in r[0].text and "to:0" in r[0].text
    assert core.live[gid].row.branch == 1
    r = await say(core, "mo", f"/mod rollback to:1 game:{gid} confirm:yes", mod=True)  # no reason: still refused
    assert r[0].to == "private" and core.live[gid].row.branch == 1
    r = await say(core, "mo", f"/mod rollback to:1 game:{gid} confirm:yes reason:\"a misclick, both agreed\"",
                  mod=True)
    assert "rolled game" in texts(r) and core.live[gid].row.branch == 2


async def test_rolling_back_a_resignation_that_opened_a_sealed_choice_needs_confirmation(core, store):
    """A game ended outside the rules (here a resignation) opens every choice still sealed, in the thread.
    Rolling it back to its last action would let the other player choose again knowing that choice: as
    for a rollback between choices revealed together, the moderator must confirm, with a reason."""
    gid = await toy(core, guessed=False)
    await say(core, "alice", f"/guess parity:odd game:{gid}", place="dm:alice", community="")
    r = await say(core, "bob", f"/game resign game:{gid} confirm:yes")
    assert "is over" in texts(r) and "parity:odd" in texts(r)  # alice's guess was opened with the result
    r = await say(core, "mo", f"/mod rollback to:1 game:{gid}", mod=True)
    assert r[0].to == "private" and r[0].text.startswith("Sorry") and "to:0" in r[0].text, r[0].text
    assert (await store.game(gid)).status == "over"
    r = await say(core, "mo", f"/mod rollback to:1 game:{gid} confirm:yes reason:\"bob resigned by mistake\"",
                  mod=True)
    assert "rolled game" in texts(r) and core.live[gid].row.status == "active"


async def _finished_and_rolled_back(core: Core) -> tuple[int, str]:
    """A toy game alice resigned (its seed posted in the thread), rolled back by a moderator: in play again."""
    import re

    gid = await toy(core)
    r = await say(core, "alice", f"/game resign game:{gid} confirm:yes")
    seed = re.search(r"Dice seed: `([^`]+)`", texts(r))
    assert seed is not None, texts(r)
    r = await say(core, "mo", f"/mod rollback to:2 game:{gid} reason:misclick", mod=True)
    assert "rolled game" in texts(r), texts(r)
    return gid, seed.group(1)


async def test_the_dice_of_a_finished_game_put_back_in_play_cannot_be_foreseen(core, store):
    """The seed of a finished game is posted at its end. A rollback put it back in play with a fresh
    dice key, and /game export gave that key to any member: with both, every later roll could be
    computed in advance. While a game is in play the record keeps the fresh keys back (they are
    published with the seed at its end) and they are too long to guess."""
    gid, seed = await _finished_and_rolled_back(core)
    key = core.live[gid].dice_key
    assert key != "main" and len(key) >= 33, key
    for viewer in ("carol", "alice"):
        rec = json.loads((await say(core, viewer, f"/game export game:{gid}"))[0].file_text)
        assert key not in json.dumps(rec), f"the export to {viewer} tells the fresh dice key"
        assert rec["seed"] is None
    await say(core, taker(core, gid), f"/take n:1 game:{gid}")
    await say(core, "bob", f"/game resign game:{gid} confirm:yes")
    rec = json.loads((await say(core, "carol", f"/game export game:{gid}"))[0].file_text)
    assert rec["seed"] == seed and rec["dice_keys"][-1]["key"] == key, "at the end every key is published"


async def test_a_restored_branch_of_a_game_whose_seed_was_posted_rolls_with_a_fresh_key(core, store):
    """Restoring the branch a finished game was rolled back from put it back on the key `main`, which
    everyone knows, with a seed everyone knows: its later rolls could be foreseen. Such a restore goes
    on from that branch's whole line of play on a new branch with a fresh key."""
    gid, _ = await _finished_and_rolled_back(core)
    r = await say(core, taker(core, gid), f"/take n:1 game:{gid}")
    r = await say(core, "mo", f"/mod rollback to:2 game:{gid} reason:again", mod=True)  # branch 3
    r = await say(core, "mo", f"/mod restore branch:1 game:{gid} reason:undo", mod=True)  # the line on `main`
    assert "restored" in texts(r) and "fresh key" in texts(r), texts(r)
    g = core.live[gid]
    assert g.dice_key != "main" and len(g.dice_key) >= 33, "the restored line rolls with a known key"
    assert len(await store.actions(gid, g.row.branch)) == len(await store.actions(gid, 1))
    r = await say(core, "mo", f"/mod restore branch:2 game:{gid} reason:undo", mod=True)  # a key kept secret so far
    g = core.live[gid]
    assert g.dice_key not in ("main", await _key_of(store, gid, 2)), "the restored line rolls with a known key"
    assert len(await store.actions(gid, g.row.branch)) == len(await store.actions(gid, 2)) == 3


async def test_a_game_rolled_back_before_keys_were_secret_gets_a_fresh_key_at_start_up(core, store):
    """A game rolled back before dice keys were kept secret in play has a 16-digit key that every
    export showed, and perhaps a posted seed: at start-up it goes on from a new branch with a fresh
    key (once), and the moderation log says so; a game rolled back since keeps its secret key."""
    gid, _ = await _finished_and_rolled_back(core)
    other = await toy(core)
    await say(core, "mo", f"/mod rollback to:1 game:{other} confirm:yes reason:x", mod=True)
    async with store.transaction():  # as the rollback of an older release made it, without the mark
        await store.db.execute("UPDATE branches SET dice_key = 'k0123456789abcdef' WHERE game_id = ? AND branch = 2",
                               (gid,))
        row = await store.game(gid)
        settings = json.loads(row.settings)
        settings.pop("seed_published")
        await store.update_game(gid, "2026-01-01T00:00:00+00:00", settings=json.dumps(settings))
    length = len(await store.actions(gid, 2))
    await core._renew_exposed_keys()  # a core holding the game in memory leaves it alone (memory would lie)
    assert (await store.game(gid)).branch == 2 == core.live[gid].row.branch
    again = make_core(store)
    await again.start()
    g = again.live[gid]
    assert g.row.branch == 3 and len(g.dice_key) == 33 and len(await store.actions(gid, 3)) == length
    assert any("renewed the dice key" in m["what"] for m in await store.modlog(gid))
    assert again.live[other].row.branch == 2, "a game rolled back since was renewed too"
    third = make_core(store)
    await third.start()
    assert third.live[gid].row.branch == 3, "renewed twice"


async def _key_of(store: Store, gid: int, branch: int) -> str:
    return next(b["dice_key"] for b in await store.branches(gid) if b["branch"] == branch)


async def test_the_bot_does_not_decide_as_foreseen_after_its_finished_game_is_rolled_back():
    """The bot's choices are drawn from the game's seed; once that seed is posted, a rolled-back game's
    bot would be foreseeable: its seed also depends on the branch's secret dice key."""
    from bot.opponent import decision_seed

    assert decision_seed("s", "main", 4, "B") == decision_seed("s", "main", 4, "B")
    assert decision_seed("s", "k" + "0" * 32, 4, "B") != decision_seed("s", "main", 4, "B")


# --- 5. bad input: a clear refusal, never an internal error ---------------------------------------------

@pytest.mark.parametrize("line", [
    "/game status game:²", "/game status game:99999999999999999999999", "/game log last:²",
    "/game log last:99999999999999999999999", "/game new game:toy opponent:bob clock:²h",
    "/mod rollback to:²", "/mod rollback to:99999999999999999999999", "/mod restore branch:²",
    "/take n:² game:1", "/game board game:١", "/mod pause game:-1",
])
async def test_odd_numbers_are_refused_politely(core, line):
    await toy(core)
    r = await say(core, "mo", line, mod=True)
    assert len(r) == 1 and r[0].to == "private" and r[0].text.startswith("Sorry"), r
    assert "went wrong" not in r[0].text and list(core.internal_errors) == []


async def test_echoed_names_cannot_become_links_or_pings(core):
    from bot.replies import Command

    cmd = Command(user="alice", place=THREAD, name="game new", args={"game": "toy", "opponent": "bob"},
                  display="[x](http://e.vil) @everyone", community=HOME)
    r = await core.handle(cmd)
    assert "[x](http" not in r[0].text and r"\[x\]\(http" in r[0].text
    assert r[0].mentions == ["bob"]
    await say(core, "bob", "/game accept")
    r = await say(core, "alice", f"/game status game:{r[0].game_id}")
    assert "[x](http" not in r[0].text


async def test_a_huge_option_name_is_refused_without_echoing_it(core, store):
    name = "o" * 100_000
    r = await say(core, "alice", f"/game new game:toy opponent:bob {name}:1")
    assert r[0].to == "private" and len(r[0].text) < 300 and await store.games() == []
    r = await say(core, "alice", f"/game new game:toy opponent:bob options:\"{name}:1\"")
    assert r[0].to == "private" and len(r[0].text) < 300 and await store.games() == []


async def test_the_terms_of_a_game_are_told_before_it_is_accepted_and_when_it_begins(core, store):
    """The invitation listed the options without on_timeout and hints (both are words of /game new, not
    game options): bob could accept a game he would lose by missing a deadline, or one where alice may
    ask the bot for moves, without being told; a game against the bot never showed its options at all."""
    r = await say(core, "alice", "/game new game:toy opponent:bob clock:24h on_timeout:forfeit hints:on pile:9")
    invite = texts(r)
    for told in ("pile:9", "24 h a decision", "forfeits", "hints: on"):
        assert told in invite, (told, invite)
    r = await say(core, "bob", "/game accept")
    for told in ("pile:9", "forfeits", "hints: on"):
        assert told in texts(r, "channel"), (told, texts(r))
    status = texts(await say(core, "bob", "/game status"))
    assert "pile:9" in status and "forfeits" in status, status
    r = await say(core, "carol", "/game new game:toy opponent:bot level:easy pile:7", place="t-other")
    assert "pile:7" in texts(r, "channel"), texts(r)


# --- 6. limits ------------------------------------------------------------------------------------------


async def test_a_member_may_have_only_so_many_games_against_the_bot_in_play(core, store):
    """A game against the bot has no invitation, so the invitation limits never applied: one member
    could start game after game, each a thread, and every bot decision of every server waits in one
    worker behind theirs. A member may have a few in play at once (and a server more), like invitations."""
    from bot.answers import Limits

    core.limits = Limits(bot_games_per_member=2, bot_games_per_community=3)
    for n in range(2):
        r = await say(core, "alice", "/game new game:toy opponent:bot level:easy", place=f"t{n}")
        assert "begins" in texts(r), texts(r)
    r = await say(core, "alice", "/game new game:toy opponent:bot level:easy", place="t2")
    assert "2 games against the bot in play" in texts(r) and "Nothing was changed" not in texts(r), texts(r)
    r = await say(core, "bob", "/game new game:toy opponent:bot level:easy", place="t3")
    assert "begins" in texts(r), texts(r)
    r = await say(core, "carol", "/game new game:toy opponent:bot level:easy", place="t4")
    assert "this server already has 3 games against the bot" in texts(r), texts(r)
    r = await say(core, "alice", "/game new game:toy opponent:bob", place="t5")  # a member is not limited by it
    assert "challenges you" in texts(r), texts(r)
    r = await say(core, "alice", "/game resign game:1 confirm:yes")
    r = await say(core, "alice", "/game new game:toy opponent:bot level:easy", place="t6")
    assert "begins" in texts(r), texts(r)

async def test_a_moderator_handing_a_seat_to_the_bot_is_held_to_the_servers_limit_of_bot_games(core, store):
    """``/mod replace user:bot`` made a game against the bot without counting it: a server's moderators could
    fill the one worker every server's bot decisions share. It is held to the server's limit like
    ``/game new ... opponent:bot``; a game the bot already plays in is counted already."""
    from bot.answers import Limits

    core.limits = Limits(bot_games_per_member=5, bot_games_per_community=2)
    r = await say(core, "alice", "/game new game:toy opponent:bot level:easy", place="t0")
    assert "begins" in texts(r), texts(r)
    gids = []
    for n in (1, 2):
        r = await say(core, "carol", f"/game new game:toy opponent:dave{n}", place=f"t{n}")
        gids.append(next(x.game_id for x in r if x.game_id is not None))
        await say(core, f"dave{n}", "/game accept", place=f"t{n}")
    r = await say(core, "mod", f"/mod replace seat:B user:bot game:{gids[0]} reason:left", place="t1", mod=True)
    assert "to hexhive" in texts(r, "channel"), texts(r)
    r = await say(core, "mod", f"/mod replace seat:A user:bot game:{gids[0]} reason:left", place="t1", mod=True)
    assert f"gave seat A of game #{gids[0]}" in texts(r), texts(r)  # a game counted already
    seats = (await store.game(gids[1])).settings
    r = await say(core, "mod", f"/mod replace seat:B user:bot game:{gids[1]} reason:left", place="t2", mod=True)
    assert "this server already has 2 games against the bot" in texts(r), texts(r)
    assert (await store.game(gids[1])).settings == seats  # refused: nothing changed


async def test_a_finished_game_against_the_bot_rolled_back_into_play_is_held_to_the_servers_limit(core, store):
    """A moderator's rollback puts a finished game back in play: against the bot, it counts again."""
    from bot.answers import Limits

    core.limits = Limits(bot_games_per_member=5, bot_games_per_community=1)
    r = await say(core, "alice", "/game new game:toy opponent:bot level:easy", place="t0")
    first = next(x.game_id for x in r if x.game_id is not None)
    r = await say(core, "alice", f"/guess parity:odd game:{first}", place="t0")
    assert "A has chosen" in texts(r), texts(r)
    await say(core, "alice", f"/game resign game:{first} confirm:yes", place="t0")
    assert (await store.game(first)).status == "over"
    r = await say(core, "carol", "/game new game:toy opponent:bot level:easy", place="t1")
    assert "begins" in texts(r), texts(r)
    r = await say(core, "mod", f"/mod rollback to:0 game:{first} confirm:yes reason:misclick", place="t0", mod=True)
    assert "this server already has 1 game against the bot in play" in texts(r), texts(r)
    assert (await store.game(first)).status == "over"  # refused: nothing changed
    second = next(iter(g for g in core.live if g != first))
    await say(core, "carol", f"/game resign game:{second} confirm:yes", place="t1")
    r = await say(core, "mod", f"/mod rollback to:0 game:{first} confirm:yes reason:misclick", place="t0", mod=True)
    assert "rolled game" in texts(r), texts(r)
    assert (await store.game(first)).status == "active"


async def test_a_members_games_against_the_bot_are_those_they_play_not_those_they_started(core, store):
    """The limit per member counted the games a member had started: once a moderator handed their seat to
    another member, they were still refused for a game they no longer played, and the one playing it was
    not counted."""
    from bot.answers import Limits

    core.limits = Limits(bot_games_per_member=1, bot_games_per_community=10)
    r = await say(core, "alice", "/game new game:toy opponent:bot level:easy", place="t0")
    gid = next(x.game_id for x in r if x.game_id is not None)
    seat = core.live[gid].seats_of("alice")[0]
    r = await say(core, "mod", f"/mod replace seat:{seat} user:carol game:{gid} reason:swap", place="t0", mod=True)
    assert "gave seat" in texts(r), texts(r)
    r = await say(core, "alice", "/game new game:toy opponent:bot level:easy", place="t1")
    assert "begins" in texts(r), texts(r)
    r = await say(core, "carol", "/game new game:toy opponent:bot level:easy", place="t2")
    assert f"you already have 1 game against the bot in play (#{gid})" in texts(r), texts(r)


async def test_open_invitations_are_limited_per_member_and_per_community(store):
    core = make_core(store, limits=Limits(invites_per_member=2, invites_per_community=3))
    for _ in range(2):
        assert (await say(core, "alice", "/game new game:toy opponent:bob"))[0].to == "channel"
    r = await say(core, "alice", "/game new game:toy opponent:bob")
    assert r[0].to == "private" and "open invitations" in r[0].text
    assert (await say(core, "carol", "/game new game:toy opponent:bob"))[0].to == "channel"
    r = await say(core, "dave", "/game new game:toy opponent:bob")
    assert r[0].to == "private" and "this server" in r[0].text
    r = await say(core, "erin", "/game new game:toy opponent:bob", place="t-away", community=AWAY)
    assert r[0].to == "channel"
    assert len(await store.games()) == 4


async def test_invitations_expire_and_are_declined(store):
    now = [datetime(2026, 12, 1, tzinfo=UTC)]
    core = make_core(store, clock=lambda: now[0], limits=Limits(invite_days=7))
    r = await say(core, "alice", "/game new game:toy opponent:bob")
    gid = r[0].game_id
    keeper = ClockKeeper(core, now=lambda: now[0])
    now[0] += timedelta(days=6)
    assert await keeper.tick() == []
    now[0] += timedelta(days=2)
    out = await keeper.tick()
    assert "expired" in texts(out) and (await store.game(gid)).status == "declined" and gid not in core.live


async def test_the_dice_seed_hash_is_published_in_the_invitation(core, store):
    from engine.core.dice import seed_hash

    r = await say(core, "alice", "/game new game:toy opponent:bob")
    row = await store.game(r[0].game_id)
    assert seed_hash(row.seed) in r[0].text and row.seed not in r[0].text


async def test_internal_errors_are_bounded(core):
    core.internal_errors.extend(str(n) for n in range(10_000))
    assert len(core.internal_errors) <= 200


async def test_a_whole_game_still_replays_after_the_changes(core, store):
    gid = await toy(core, pile=2)
    while gid in core.live:
        g = core.live[gid]
        if g.state.step == "guess":
            for u in ("alice", "bob"):
                await say(core, u, f"/guess parity:odd game:{gid}", place=f"dm:{u}", community="")
        else:
            await say(core, taker(core, gid), f"/take n:1 game:{gid}")
    row = await store.game(gid)
    state, _ = await full_replay(store, row)
    assert state.pile == 0


async def drive(core: Core, gid: int, stop, limit: int = 400) -> None:
    """Play the first legal answer (preferring to end the step) until ``stop(live game)`` holds."""
    for _ in range(limit):
        g = core.live[gid]
        if stop(g):
            return
        p = g.pending()[0]
        legal = [a for a in g.rules.legal_now(g.state, p.seat) if a.verb in p.verbs]
        act = next((a for a in legal if a.verb in ("done", "end", "pass", "autodeploy", "ready")), legal[0])
        user = g.user_of(p.seat)
        place, community = (f"dm:{user}", "") if p.secret else (THREAD, HOME)
        r = await say(core, user, f"{act.text()} game:{gid}", place=place, community=community)
        assert not r[0].text.startswith("Sorry"), r[0].text
    raise AssertionError("the game never reached the wanted point")


@pytest.mark.parametrize("hidden", ["off", "on"])
async def test_sealed_done_opens_at_phase_end(core, store, hidden):
    """Annihilator 8.1: a demolition phase answered by a secret /done with no charge is opened when it ends,
    so the opponent's and spectators' log and record go on past it."""
    r = await say(core, "alice", f"/game new game:annihilator opponent:bob hidden_charges:{hidden}")
    gid = r[0].game_id
    await say(core, "bob", "/game accept")
    await drive(core, gid, lambda g: g.state.step == "h_demo")
    g = core.live[gid]
    marines = g.user_of("Marines")
    r = await say(core, marines, f"/done game:{gid}", place=f"dm:{marines}", community="")
    assert "sealed" in texts(r, "private")
    # the reply opening it said beside it "it opens when every choice is in" (a new user's review)
    assert "it opens when every choice is in" not in texts(r, "private"), texts(r, "private")
    if "Sealed choices opened" in texts(r, "private"):
        assert "opens at once" in texts(r, "private"), texts(r, "private")
    else:
        assert "stays sealed" in texts(r, "private"), texts(r, "private")
    seq_done = core.live[gid].seq
    await drive(core, gid, lambda g: g.seq >= seq_done + 3)
    assert await store.secrets(gid, 1, unrevealed=True) == []
    other = g.user_of("Annihilator")
    log = texts(await say(core, other, f"/game log last:500 game:{gid}"))
    # past the opened phase; a note that sealed choices are being made just when the Marines have a secret
    # decision open now (the next turn's orders), at the end
    assert f"#{seq_done + 3} " in log
    marines_deciding = any(p.secret and p.seat == "Marines" for p in core.live[gid].pending())
    assert ("sealed choices are being made" in log.splitlines()[-1]) == marines_deciding, log
    assert log.count("sealed choices are being made") == marines_deciding, log
    rec = json.loads((await say(core, "carol", f"/game export game:{gid}"))[0].file_text)
    assert len(rec["actions"]) == seq_done + 3 and all(a["action"] is not None for a in rec["actions"])


async def test_a_failure_after_the_commit_is_never_called_nothing_changed(core, store, monkeypatch):
    from contextlib import asynccontextmanager

    gid = await toy(core, guessed=False)
    real = store.transaction

    @asynccontextmanager
    async def then_fails():  # noqa: ANN202
        async with real():
            yield
        raise RuntimeError("the connection dropped right after the commit")

    monkeypatch.setattr(store, "transaction", then_fails)
    r = await say(core, "alice", f"/guess parity:odd game:{gid}", place="dm:alice", community="")
    assert "taken and saved" in r[0].text and "Nothing was changed" not in r[0].text
    assert len(await store.actions(gid, 1)) == 1
    monkeypatch.setattr(store, "transaction", real)
    r = await say(core, "mallory", "/game status game:²")
    assert "Nothing was changed" not in r[0].text  # a plain refusal is not an error either


@pytest.mark.parametrize("line", [
    "/mod pause game:{gid} reason:x", "/mod replace seat:B user:erin game:{gid}",
    "/mod rollback to:1 game:{gid} confirm:yes reason:x", "/mod end winner:A game:{gid}",
])
async def test_a_moderation_whose_transaction_fails_changes_nothing_in_memory_either(core, store, monkeypatch, line):
    """The database refuses the moderation's write (a full disk, a lock held too long): the member is told
    nothing was changed, and the game in memory must say so too, not go on paused, handed over, rolled back
    or ended while the database says otherwise (its next orders would be lost at the next restart)."""
    import sqlite3

    gid = await toy(core)
    taker = core.live[gid].user_of(core.live[gid].state.taker)
    await say(core, taker, f"/take n:1 game:{gid}")  # a public action: something to roll back to
    before = core.live[gid]
    memory = (before.row.status, before.row.branch, dict(before.seats), before.seq, before.state.model_dump_json())

    async def failing(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "add_modlog", failing)
    r = await say(core, "mo", line.format(gid=gid), mod=True)
    assert "Nothing was changed" in r[0].text, r[0].text
    monkeypatch.undo()
    g = core.live.get(gid)
    assert g is not None, "the game left memory though the database still has it in play"
    row = await store.game(gid)
    assert (g.row.status, g.row.branch, dict(g.seats), g.seq, g.state.model_dump_json()) == memory
    assert (row.status, row.branch) == memory[:2]


async def test_two_challenges_at_once_cannot_pass_the_invitation_limit_together(core, store):
    """Each /game new checks the member's open invitations, then opens the game's thread (a call to
    Discord) before the game is written: two at once both saw room for one more. Of four challenges sent
    at the same instant by a member allowed three open invitations, one is refused."""
    import asyncio

    from bot.answers import Limits

    core.limits = Limits(invites_per_member=3)

    async def slow_thread(place: str, name: str) -> str:
        await asyncio.sleep(0.01)  # Discord answering the thread's creation
        return place

    core.open_thread = slow_thread
    said = await asyncio.gather(*(say(core, "alice", f"/game new game:toy opponent:p{n}") for n in range(4)))
    made = await store.games("status = 'invited' AND created_by = ?", ("alice",))
    assert len(made) == 3, [r[0].text for r in said]
    assert sum("open invitations" in r[0].text for r in said) == 1
    assert not core.creating, "a finished challenge's lock is kept"


async def test_rolling_back_a_resignation_after_choices_the_game_itself_revealed_needs_no_confirmation(core, store):
    """Both guesses were in, and the second opened them (the game's own reveal, action 2); then bob
    resigned, which opened nothing more. Rolling back to action 2 only undoes the resignation: nobody can
    choose again knowing anything, so no confirmation is asked."""
    gid = await toy(core, guessed=True)
    r = await say(core, "bob", f"/game resign game:{gid} confirm:yes")
    assert "is over" in texts(r)
    r = await say(core, "mo", f"/mod rollback to:2 game:{gid}", mod=True)
    assert "rolled game" in texts(r), texts(r)


async def test_a_mod_edit_and_its_note_to_the_players_are_written_together(core, store, monkeypatch):
    """/mod edit changes the position and tells the thread why. The note was queued in a second
    transaction: a failure (or a crash) between the two kept the edit and lost the note, so the players
    saw their position change with no word from the moderator. Now both are kept or neither."""
    import sqlite3

    gid = await toy(core)
    before, logged = core.live[gid].state.model_dump_json(), len(await store.actions(gid, 1))
    add = store.add_outbox

    async def refuse_the_note(game_id, payload, now):  # noqa: ANN001, ANN202
        if "Moderation:" in payload:
            raise sqlite3.OperationalError("disk I/O error")
        return await add(game_id, payload, now)

    monkeypatch.setattr(store, "add_outbox", refuse_the_note)
    r = await say(core, "mo", f'/mod edit op:pile n:4 reason:"a misclick" game:{gid}', mod=True)
    assert "Nothing was changed" in r[0].text, r[0].text
    monkeypatch.undo()
    assert len(await store.actions(gid, 1)) == logged and core.live[gid].state.model_dump_json() == before
    r = await say(core, "mo", f'/mod edit op:pile n:4 reason:"a misclick" game:{gid}', mod=True)
    queued = [json.loads(payload)["text"] for _, _, payload in await store.unposted()]
    assert any(t.startswith("Moderation: mo edited game") and "a misclick" in t for t in queued), queued
    assert core.live[gid].state.pile == 4 and len(await store.actions(gid, 1)) == logged + 1


async def test_an_accept_whose_write_fails_leaves_the_game_invited_in_memory_too(core, store, monkeypatch):
    """/game accept sets the game up in memory and writes it; the database refuses the write (a full disk).
    Bob is told nothing was changed, and memory must agree: the game was left active in memory while the
    database said invited, so a second accept was refused ("already begun"), orders were taken against an
    invited row, and after a restart the game waited for bob again and every order failed."""
    import sqlite3

    r = await say(core, "alice", "/game new game:toy opponent:bob")
    gid = r[0].game_id

    async def failing(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "add_outbox", failing)
    r = await say(core, "bob", "/game accept")
    assert "Nothing was changed" in r[0].text, r[0].text
    monkeypatch.undo()
    row = await store.game(gid)
    assert row is not None and row.status == "invited"
    g = core.live[gid]
    assert g.row.status == "invited" and g.state is None, "memory says the game began; the database does not"
    r = await say(core, "bob", "/game accept")
    assert "begins" in texts(r), texts(r)
    await say(core, "alice", f"/guess parity:odd game:{gid}", place="dm:alice", community="")
    assert [a.seat for a in await store.actions(gid, 1)] == ["A"]


async def test_a_game_against_the_bot_whose_write_fails_is_not_left_in_memory(core, store, monkeypatch):
    """A game against the bot is created and begun in one transaction; when its commit fails, the
    member is told nothing was changed and no game without a row stays in play in memory (it was put
    there before the commit)."""
    import sqlite3
    from contextlib import asynccontextmanager

    real = store.transaction

    @asynccontextmanager
    async def commit_fails():  # noqa: ANN202
        async with real():
            yield
            raise sqlite3.OperationalError("disk I/O error")  # inside: the transaction is rolled back

    monkeypatch.setattr(store, "transaction", commit_fails)
    r = await say(core, "alice", "/game new game:toy opponent:bot level:easy")
    assert "Nothing was changed" in r[0].text, r[0].text
    monkeypatch.undo()
    assert await store.games("1 = 1", ()) == []
    assert core.live == {} and not core.places, (core.live, core.places)
