"""The bot core with the toy game: lifecycle, secrets, permissions, rollback, restart."""

from __future__ import annotations

import json

import pytest

from bot.commands import make_core
from bot.core import Core
from bot.live import full_replay
from bot.store import Store


async def say(core: Core, user: str, line: str, place: str = "p", mod: bool = False):
    return await core.handle_line(user, place, line, is_moderator=mod)


def texts(replies, to=None):
    return "\n".join(r.text for r in replies if to is None or r.to == to)


async def start_toy(core: Core, **opts) -> int:
    extra = " ".join(f"{k}:{v}" for k, v in opts.items())
    r = await say(core, "alice", f"/game new game:toy opponent:bob seed:1 {extra}", place="console:#t")
    gid = r[0].game_id
    assert gid is not None
    r = await say(core, "bob", "/game accept", place="console:#t")
    assert "begins" in texts(r)
    return gid


async def test_new_game_invites_the_opponent_and_mentions_only_them(core):
    r = await say(core, "alice", "/game new game:toy opponent:bob", place="console:#t")
    assert len(r) == 1 and r[0].to == "channel"
    assert r[0].mentions == ["bob"]
    assert "/game accept" in r[0].text


async def test_only_the_invited_player_accepts(core):
    await say(core, "alice", "/game new game:toy opponent:bob", place="console:#t")
    r = await say(core, "carol", "/game accept", place="console:#t")
    assert r[0].to == "private" and "only the invited player" in r[0].text
    r = await say(core, "alice", "/game accept", place="console:#t")
    assert r[0].to == "private"


async def test_bad_options_are_refused_before_a_game_exists(core, store):
    r = await say(core, "alice", "/game new game:toy opponent:bob pile:99")
    assert r[0].to == "private" and "pile must be" in r[0].text
    assert await store.games() == []
    r = await say(core, "alice", "/game new game:nosuch opponent:bob")
    assert "no game called" in r[0].text


async def test_secret_choice_shows_only_a_commitment_in_public(core):
    gid = await start_toy(core)
    r = await say(core, "alice", "/guess parity:odd", place="dm:alice")
    public = texts(r, "channel")
    assert "odd" not in public and "commitment" in public
    assert "odd" in texts(r, "private")
    r = await say(core, "bob", "/guess parity:even", place="dm:bob")
    public = texts(r, "channel")
    assert "A guessed odd, B guessed even" in public
    assert "nonce" in public
    assert core.live[gid].seq == 2


async def test_commitment_matches_the_revealed_nonce(core):
    import hashlib

    from engine.core.protocol import Action

    await start_toy(core)
    r1 = await say(core, "alice", "/guess parity:odd", place="dm:alice")
    digest = next(r.text for r in r1 if r.to == "channel" and "commitment" in r.text).split("`")[1]
    sealed = next(r.text for r in r1 if r.to == "private" and "sealed" in r.text)
    assert f"`{digest}`" in sealed  # the player sees privately the string the thread shows
    r2 = await say(core, "bob", "/guess parity:even", place="dm:bob")
    reveal = next(r.text for r in r2 if "Sealed choices opened" in r.text)
    line = next(ln for ln in reveal.splitlines() if ln.startswith("Sealed choices opened"))
    nonce = line.split("`#1 ")[1].split("`")[0]  # two choices: one line, the nonces folded in a spoiler
    assert "||" in line
    act = Action(verb="guess", args={"parity": "odd"})
    assert hashlib.sha256(f"{nonce}:{act.model_dump_json()}".encode()).hexdigest().startswith(digest)


async def test_a_stranger_cannot_order_and_nothing_changes(core, store):
    gid = await start_toy(core)
    before = core.live[gid].state.model_dump_json()
    r = await say(core, "mallory", f"/guess parity:odd game:{gid}")
    assert r[0].to == "private" and "not playing" in r[0].text
    assert core.live[gid].state.model_dump_json() == before
    assert await store.actions(gid, 1) == []


async def test_the_wrong_player_is_told_who_is_awaited(core):
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await say(core, "bob", "/guess parity:even", place="dm:bob")
    taker = core.live[gid].rules.pending(core.live[gid].state)[0].seat
    other = "bob" if taker == "A" else "alice"
    r = await say(core, other, "/take n:1", place="console:#t")
    assert "not your decision" in r[0].text and "take 1 to 3" in r[0].text


async def test_illegal_order_is_explained_with_the_rule(core):
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await say(core, "bob", "/guess parity:even", place="dm:bob")
    taker = core.live[gid].rules.pending(core.live[gid].state)[0].seat
    user = "alice" if taker == "A" else "bob"
    r = await say(core, user, "/take n:9", place="console:#t")
    assert r[0].to == "private" and "rule T.2" in r[0].text


async def test_restart_rebuilds_the_same_state_and_reposts_unposted(tmp_path):
    path = tmp_path / "g.db"
    store = await Store.open(path)
    core = make_core(store)
    gid = await start_toy(core)
    r = await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await core.posted(r)
    r = await say(core, "bob", "/guess parity:even", place="dm:bob")  # never marked posted
    state = core.live[gid].state.model_dump_json()
    await store.close()

    store2 = await Store.open(path)
    core2 = make_core(store2)
    unposted = await core2.start()
    assert core2.live[gid].state.model_dump_json() == state
    assert any("A guessed odd" in u.text for u in unposted)
    assert all(u.outbox_id is not None for u in unposted)
    await core2.posted(unposted)
    assert await core2.start() == [] or True
    assert await store2.unposted() == []
    await store2.close()


async def test_rollback_keeps_the_abandoned_branch_and_restore_brings_it_back(core, store):
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await say(core, "bob", "/guess parity:even", place="dm:bob")
    s2 = core.live[gid].state.model_dump_json()
    r = await say(core, "carol", f"/mod rollback to:1 game:{gid} confirm:yes reason:\"a retry\"", mod=True)
    assert "rolled game" in texts(r) and "branch 1 is kept" in texts(r)
    assert core.live[gid].seq == 1 and core.live[gid].row.branch == 2
    assert len(await store.actions(gid, 1)) == 2
    assert core.live[gid].dice_key != "main"
    r = await say(core, "carol", f"/mod restore branch:1 game:{gid}", mod=True)
    assert core.live[gid].state.model_dump_json() == s2


async def test_a_rollback_to_where_the_game_is_says_so(core):
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await say(core, "bob", "/guess parity:even", place="dm:bob")
    r = await say(core, "carol", f"/mod rollback to:2 game:{gid}", mod=True)
    assert f"game #{gid} is at action 2 already" in r[0].text and "0 to 1" in r[0].text, r[0].text
    assert core.live[gid].seq == 2


async def test_a_game_decided_by_its_rules_is_never_put_back_in_play_at_its_end(core):
    """Rolling a game that ended by its rules back to its last action (or restoring a branch that
    ended so) would leave it in play with nobody to move, for good: refused, nothing changed."""
    r = await say(core, "alice", "/game new game:toy opponent:bob seed:1 pile:2", place="console:#t")
    gid = r[0].game_id
    await say(core, "bob", "/game accept", place="console:#t")
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await say(core, "bob", "/guess parity:even", place="dm:bob")
    g = core.live[gid]
    taker = g.pending()[0].seat
    await say(core, g.user_of(taker), "/take n:2", place="console:#t")
    assert gid not in core.live  # over by the rules: the pile is empty
    r = await say(core, "carol", f"/mod rollback to:3 game:{gid} confirm:yes reason:x", mod=True)
    assert "already decided by its rules" in r[0].text and "Nothing was changed" in r[0].text, r[0].text
    assert gid not in core.live and (await core.store.game(gid)).status == "over"
    r = await say(core, "carol", f"/mod rollback to:2 game:{gid} confirm:yes reason:x", mod=True)
    assert core.live[gid].row.status == "active" and core.live[gid].seq == 2, r[0].text
    r = await say(core, "carol", f"/mod restore branch:1 game:{gid}", mod=True)
    assert "on branch 1 game" in r[0].text and "already decided" in r[0].text, r[0].text
    assert core.live[gid].row.branch == 2 and core.live[gid].seq == 2


async def test_moderator_commands_refuse_members(core):
    gid = await start_toy(core)
    r = await say(core, "alice", f"/mod pause game:{gid}")
    assert "only moderators" in r[0].text
    assert core.live[gid].row.status == "active"


async def test_pause_stops_orders_until_resume(core):
    gid = await start_toy(core)
    await say(core, "carol", f"/mod pause game:{gid}", mod=True)
    r = await say(core, "alice", "/guess parity:odd", place="dm:alice")
    assert "paused" in r[0].text
    await say(core, "carol", f"/mod resume game:{gid}", mod=True)
    r = await say(core, "alice", "/guess parity:odd", place="dm:alice")
    assert "sealed" in texts(r, "private")


async def test_a_player_may_still_resign_a_paused_game(core):
    """A pause stops orders, not a player's right to give the game up (docs/commands.md, /mod pause)."""
    gid = await start_toy(core)
    await say(core, "carol", f"/mod pause game:{gid}", mod=True)
    r = await say(core, "alice", f"/game resign game:{gid} confirm:yes")
    assert "resigned" in texts(r), texts(r)
    assert gid not in core.live and (await core.store.game(gid)).status == "over"


async def test_a_rollback_while_paused_prompts_nobody_until_the_game_resumes(core):
    """A moderator pauses a game and rolls it back: the players were pinged, with buttons every press of
    which was refused (the game is paused), and at ``/mod resume`` nobody was told the game waits on them.
    The prompts wait for the resume, which puts the decision to whoever it waits on."""
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await say(core, "bob", "/guess parity:odd", place="dm:bob")
    await say(core, "carol", f"/mod pause game:{gid}", mod=True)
    rolled = await say(core, "carol", f"/mod rollback to:0 game:{gid}", mod=True)
    assert "rolled game" in texts(rolled) and not [r for r in rolled if r.buttons or r.mentions], \
        [(r.to, r.text) for r in rolled]
    resumed = await say(core, "carol", f"/mod resume game:{gid}", mod=True)
    asked = [r for r in resumed if r.to == "dm" and r.buttons]
    assert sorted(r.user for r in asked) == ["alice", "bob"], [(r.to, r.user, r.text) for r in resumed]


async def test_a_seat_given_away_while_paused_is_put_to_its_new_holder_when_the_game_resumes(core):
    """The same for ``/mod replace`` while the game is paused: carol is asked nothing until the resume, and
    then only for the seat she holds (alice's guess is already in)."""
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await say(core, "carol", f"/mod pause game:{gid}", mod=True)
    seat = core.live[gid].seats_of("bob")[0]
    given = await say(core, "mo", f"/mod replace seat:{seat} user:dave game:{gid}", mod=True)
    assert "gave seat" in texts(given) and not [r for r in given if r.buttons or r.mentions or r.to == "dm"]
    resumed = await say(core, "carol", f"/mod resume game:{gid}", mod=True)
    assert [r.user for r in resumed if r.to == "dm" and r.buttons] == ["dave"], [(r.to, r.user) for r in resumed]


async def test_game_to_its_end_publishes_the_seed_and_the_log_replays(core, store):
    gid = await start_toy(core, pile=2)
    for _ in range(3):
        g = core.live.get(gid)
        if g is None:
            break
        await say(core, "alice", "/guess parity:odd", place="dm:alice")
        r = await say(core, "bob", "/guess parity:odd", place="dm:bob")
        g = core.live[gid]
        taker = g.rules.pending(g.state)[0].seat
        r = await say(core, "alice" if taker == "A" else "bob", "/take n:1", place="console:#t")
    assert "is over" in texts(r) and "Dice seed" in texts(r)
    row = await store.game(gid)
    assert row.status == "over"
    state, _ = await full_replay(store, row)
    assert core.live.get(gid) is None
    assert state.pile == 0


async def test_export_hides_sealed_choices_from_the_other_player(core):
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    r = await say(core, "bob", f"/game export game:{gid}")
    rec = json.loads(r[0].file_text)
    assert rec["actions"][0]["action"] is None and rec["actions"][0]["commitment"]
    assert rec["seed"] is None or rec["dice_secret"] is False
    r = await say(core, "alice", f"/game export game:{gid}")
    assert json.loads(r[0].file_text)["actions"][0]["action"]["args"] == {"parity": "odd"}


@pytest.mark.parametrize("line", ["", "move", "/", "/game", "/mod", "/take n", "/take :3",
                                  "/take n:1 n:2", '/take n:"1', "/game new game:toy", "/nosuch x:1"])
async def test_malformed_lines_get_a_polite_private_answer(core, line):
    r = await say(core, "alice", line)
    assert len(r) == 1 and r[0].to == "private" and r[0].text.startswith("Sorry")


async def test_autocomplete_offers_only_legal_values_filtered_by_what_was_typed(core):
    from bot.replies import Command

    await start_toy(core)
    cmd = Command(user="alice", place="dm:alice", name="guess")
    assert core.autocomplete(cmd, "parity", "") == ["even", "odd"]
    assert core.autocomplete(cmd, "parity", "od") == ["odd"]
    stranger = Command(user="mallory", place="dm:mallory", name="guess")
    assert core.autocomplete(stranger, "parity", "") == []


async def test_8_2_autocomplete_reads_the_other_arguments_in_any_case(core):
    """The facing offered for an Annihilator charge depends on the pattern already given (8.2:
    pattern C's ring is the same every way, so only N is offered); ``pattern:c`` and ``unit:d1``
    are read as C and D1, as an order in that case is (a new user's review: none was offered)."""
    from bot.replies import Command

    r = await say(core, "alice", "/game new game:annihilator opponent:bob", place="console:#a")
    gid = r[0].game_id
    await say(core, "bob", "/game accept", place="console:#a")
    g = core.live[gid]
    for _ in range(400):
        if g.state.step == "h_demo":
            break
        p = g.pending()[0]
        legal = [a for a in g.rules.legal_now(g.state, p.seat) if a.verb in p.verbs]
        act = next((a for a in legal if a.verb in ("done", "end", "autodeploy", "ready")), legal[0])
        user = g.user_of(p.seat)
        await say(core, user, f"{act.text()} game:{gid}", place=f"dm:{user}" if p.secret else "console:#a")
    assert g.state.step == "h_demo"
    marines = g.user_of("Marines")
    # a Demolition Squad (Assault Squads carry pattern A only, 8.2)
    unit = next(str(a.args["unit"]) for a in g.rules.legal_now(g.state, "Marines")
                if a.verb == "charge" and a.args["pattern"] == "C")

    def offered(arg: str, **given: str) -> list[str]:
        cmd = Command(user=marines, place=f"dm:{marines}", name="charge", args={"game": str(gid), **given})
        return core.autocomplete(cmd, arg, "")

    assert offered("facing", unit=unit, pattern="C") == ["N"]
    assert offered("facing", unit=unit.lower(), pattern="c") == ["N"]
    assert offered("facing", unit=f" {unit.lower()} ", pattern="a") == offered("facing", unit=unit, pattern="A")
    assert len(offered("facing", unit=unit, pattern="A")) == 6
    assert offered("pattern", unit=unit.lower()) == offered("pattern", unit=unit) == ["A", "B", "C", "D"]
    # a facing written out is read as its letters, as in an order (north-east is NE)
    assert offered("pattern", unit=unit, facing="north-east") == offered("pattern", unit=unit, facing="NE") \
        == ["A", "B", "C", "D"]
    assert offered("pattern", unit=unit, facing="up") == []  # not a facing: nothing matches
    assert offered("facing", unit="nobody", pattern="c") == []  # nothing matches: nothing offered


async def test_an_argument_spelt_in_another_case_is_understood(core):
    gid = await start_toy(core)
    r = await say(core, "alice", "/guess parity:ODD", place="dm:alice")
    assert "sealed" in texts(r, "private")
    assert core.live[gid].seq == 1


async def test_the_opponent_is_named_by_display_name_not_by_id(core):
    r = await say(core, "101", "/game new game:toy opponent:102 opponent_name:Bob", place="console:#t")
    assert r[0].mentions == ["102"] and "<@102>" in r[0].text
    r = await say(core, "102", "/game accept", place="console:#t")
    assert "Bob plays B" in texts(r)


async def test_a_choice_made_in_private_steps_is_announced_once_with_a_hash_binding_every_step(core, store):
    """Chitin force selection (rule 3.032): picks are silent; /ready shows one commitment over them all."""
    import hashlib

    r = await say(core, "alice", "/game new game:chitin opponent:bob scenario:basic seed:4", place="console:#c")
    gid = r[0].game_id
    await say(core, "bob", "/game accept", place="console:#c")
    g = core.live[gid]
    while not any(p.secret for p in g.pending()):
        p = g.pending()[0]
        a = g.rules.legal_actions(g.state, p.seat)[0]
        await say(core, g.user_of(p.seat), a.text(), place="console:#c")
    seat = g.seats_of("alice")[0]
    gt3 = next(a for a in g.rules.legal_actions(g.state, seat) if a.verb == "pick" and a.args["kind"] == "GT3")
    picks = [gt3] * 4  # exactly the 48 points of the Basic Scenario: /ready needs them all (RULINGS Chitin 11)
    for a in picks:
        r = await say(core, "alice", a.text(), place="dm:alice")
        assert [x.to for x in r if x.to == "channel"] == [], "a single pick must not be announced"
    r = await say(core, "alice", "/ready confirm:yes", place="dm:alice")  # 2 picks: points left unspent
    line = next(x.text for x in r if x.to == "channel" and "commitment" in x.text)
    shown = line.split("commitment `")[1].split("`")[0]
    sealed = [s.commitment for s in await store.secrets(gid, 1, unrevealed=True)]
    assert len(sealed) == len(picks) + 1
    assert hashlib.sha256(":".join(sealed).encode()).hexdigest().startswith(shown)
    for a in picks:
        assert str(a.args["kind"]) not in line


async def test_a_public_decision_with_few_answers_gets_buttons_for_each(core):
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    r = await say(core, "bob", "/guess parity:even", place="dm:bob")
    prompt = next(x for x in r if x.to == "channel" and x.mentions)
    g = core.live[gid]
    legal = g.rules.legal_actions(g.state, g.pending()[0].seat)
    assert [b.command for b in prompt.buttons] == [f"{a.text()} game:{gid}" for a in legal]


async def test_the_log_and_the_record_stop_at_a_choice_still_sealed_from_the_reader(core):
    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    r = await say(core, "bob", f"/game log game:{gid}")
    assert "sealed choices are being made" in r[0].text and "odd" not in r[0].text
    r = await say(core, "alice", f"/game log game:{gid}")
    assert "/guess parity:odd" in r[0].text
    r = await say(core, "bob", f"/game export game:{gid}")
    rec = json.loads(r[0].file_text)
    assert [a["action"] for a in rec["actions"]] == [None]


async def test_a_finished_game_can_still_be_read(core):
    gid = await start_toy(core)
    await say(core, "alice", "/game resign confirm:yes")
    assert gid not in core.live
    for line in ("/game status", "/game log", "/game board", "/mod log", "/game replay"):
        r = await say(core, "carol", f"{line} game:{gid}", mod=True)
        assert not r[0].text.startswith("Sorry"), (line, r[0].text)
    r = await say(core, "carol", f"/game status game:{gid}")
    assert "is over" in r[0].text and "won" in r[0].text
    r = await say(core, "alice", f"/take n:1 game:{gid}")
    assert r[0].text.startswith("Sorry")


async def test_mod_replace_gives_the_seat_and_the_name_and_refuses_the_other_player(core):
    gid = await start_toy(core)
    r = await say(core, "carol", f"/mod replace seat:B user:erin user_name:Erin game:{gid}", mod=True)
    assert "gave seat B" in texts(r) and "(was bob)" in texts(r)
    assert core.live[gid].name_of("B") == "Erin" and core.live[gid].user_of("B") == "erin"
    r = await say(core, "bob", f"/guess parity:odd game:{gid}", place="console:#t")
    assert "not playing" in r[0].text and "Erin" in r[0].text
    r = await say(core, "bob", f"/guess parity:odd game:{gid}", place="dm:bob")
    assert "no game #" in r[0].text  # in a DM, a former player finds the game no more
    r = await say(core, "carol", f"/mod replace seat:A user:erin game:{gid}", mod=True)
    assert "already holds the other seat" in r[0].text


async def test_mod_replace_tells_the_new_holder_of_a_decision_waiting_on_the_seat_and_no_one_else(core):
    """A seat handed over while it has a decision pending: its new holder is asked for it (privately for a
    secret one, the toy's guess), as the old holder was when it began; the other player is not asked again."""
    gid = await start_toy(core)
    assert {p.seat for p in core.live[gid].pending()} == {"A", "B"}
    r = await say(core, "carol", f"/mod replace seat:B user:erin user_name:Erin game:{gid}", mod=True)
    assert "gave seat B of game #1 to Erin (was bob)" in texts(r), texts(r)
    asked = [x for x in r if x.user == "erin" and x.to == "dm"]
    assert len(asked) == 1 and "your private choice" in asked[0].text and asked[0].buttons, r
    assert not [x for x in r if x.user == "alice" or "alice" in x.mentions], r


async def test_game_new_reads_options_words_and_seats_in_any_case(core):
    r = await say(core, "alice", '/game new game:toy opponent:bob seat:b options:"pile:3"', place="console:#o")
    assert "you play A" in r[0].text and "pile:3" in r[0].text


async def test_nobody_can_challenge_themselves_and_a_second_accept_is_explained(core):
    r = await say(core, "alice", "/game new game:toy opponent:alice")
    assert "cannot challenge yourself" in r[0].text
    await start_toy(core)
    r = await say(core, "bob", "/game accept", place="console:#t")
    assert "already begun" in r[0].text


async def test_a_second_sealed_choice_is_told_to_wait_for_the_reveal(core):
    await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    r = await say(core, "alice", "/guess parity:even", place="dm:alice")
    assert "already made your choice" in r[0].text and "bob" in r[0].text


async def test_mod_edit_corrects_the_position_with_a_reason_and_replays(core, store):
    gid = await start_toy(core)
    r = await say(core, "alice", f"/mod edit op:pile n:4 reason:misclick game:{gid}")
    assert "only moderators" in r[0].text
    r = await say(core, "carol", f"/mod edit op:pile n:4 game:{gid}", mod=True)
    assert "needs a reason" in r[0].text
    r = await say(core, "carol", f"/mod edit op:stones n:4 reason:x game:{gid}", mod=True)
    assert "op:pile n:INT" in r[0].text
    r = await say(core, "carol", f'/mod edit op:pile n:4 reason:"a misclick" game:{gid}', mod=True)
    assert "the pile now holds 4" in texts(r) and "Reason: a misclick" in texts(r)
    g = core.live[gid]
    assert g.state.pile == 4 and g.seq == 1
    row = await store.game(gid)
    replayed, _ = await full_replay(store, row)
    assert replayed.model_dump_json() == g.state.model_dump_json()
    assert any("edited game" in m["what"] for m in await store.modlog(gid))
    r = await say(core, "bob", f"/game log game:{gid}")
    assert "@moderator" in r[0].text and "the pile now holds 4" in r[0].text


async def test_after_a_restart_no_board_is_posted_again_for_the_same_phase(tmp_path):
    path = tmp_path / "b.db"
    store = await Store.open(path)
    core = make_core(store)
    gid = await start_toy(core)
    await store.close()
    store2 = await Store.open(path)
    core2 = make_core(store2)
    await core2.start()
    r = await core2.handle_line("alice", "dm:alice", "/guess parity:odd")
    assert not any(x.board for x in r), "the phase did not change, so no new board"
    assert core2.live[gid].seq == 1
    await store2.close()


async def _toy_in(core: Core, place: str) -> int:
    r = await say(core, "alice", "/game new game:toy opponent:bob seed:1", place=place)
    gid = r[0].game_id
    assert gid is not None
    return gid


@pytest.mark.parametrize("restart", [False, True], ids=["running", "after-restart"])
async def test_an_order_in_a_finished_games_thread_never_goes_to_another_game(tmp_path, restart):
    """A game's thread stays its game's: with that game over, an order there is refused, however
    many other games the player has elsewhere (it used to fall to the player's only game in play)."""
    path = tmp_path / "t.db"
    store = await Store.open(path)
    core = make_core(store)
    over = await _toy_in(core, "console:#one")
    await say(core, "bob", "/game accept", place="console:#one")
    await say(core, "alice", "/game resign confirm:yes", place="console:#one")
    other = await _toy_in(core, "console:#two")
    await say(core, "bob", "/game accept", place="console:#two")
    if restart:
        await store.close()
        store = await Store.open(path)
        core = make_core(store)
        await core.start()
    r = await say(core, "alice", "/guess parity:odd", place="console:#one")
    assert r[0].to == "private" and f"game #{over}" in r[0].text and "over" in r[0].text, r[0].text
    assert "nothing was changed" in r[0].text
    assert core.live[other].seq == 0
    r = await say(core, "alice", "/game status", place="console:#one")
    assert f"#{over}" in r[0].text and f"#{other}" not in r[0].text, r[0].text
    r = await say(core, "alice", f"/guess parity:odd game:{other}", place="console:#one")
    assert core.live[other].seq == 1, r[0].text  # named, another game may be played from here
    r = await say(core, "bob", "/guess parity:even", place="dm:bob")  # a DM still finds the only game
    assert core.live[other].seq == 2, r[0].text
    await store.close()


async def test_accepting_in_a_declined_challenges_thread_never_accepts_another(core):
    declined = await _toy_in(core, "console:#one")
    await say(core, "bob", "/game decline", place="console:#one")
    waiting = await _toy_in(core, "console:#two")
    r = await say(core, "bob", "/game accept", place="console:#one")
    assert f"game #{declined}" in r[0].text and "declined" in r[0].text, r[0].text
    assert core.live[waiting].row.status == "invited"
    for line in ("/game status", f"/game status game:{declined}"):  # it read "waiting ... to accept"
        r = await say(core, "bob", line, place="console:#one")
        assert r[0].text.startswith(f"Game #{declined} (Toy, Standard scenario) was declined"), (line, r[0].text)


async def test_a_moderation_refused_for_the_games_state_names_the_game(core):
    gid = await start_toy(core)
    await say(core, "carol", "/mod pause", place="console:#t", mod=True)
    r = await say(core, "carol", "/mod pause", place="console:#t", mod=True)
    assert f"game #{gid}, the game of this thread, is paused" in r[0].text, r[0].text
    await say(core, "carol", "/mod resume", place="console:#t", mod=True)
    r = await say(core, "carol", "/mod resume", place="console:#t", mod=True)
    assert f"game #{gid}, the game of this thread, is already under way" in r[0].text, r[0].text


async def test_the_last_sealed_choice_is_told_it_opened_at_once(core):
    """The choice that completes a simultaneous prompt is opened by it: its private answer says so
    (it used to say "it opens when every choice is in" beside the line that had opened it)."""
    await start_toy(core)
    r = await say(core, "alice", "/guess parity:odd", place="dm:alice")
    assert "it opens when every choice is in" in texts(r, "private")
    r = await say(core, "bob", "/guess parity:even", place="dm:bob")
    mine = texts(r, "private")
    assert "Your choice is sealed: /guess parity:even" in mine and "opens at once" in mine, mine
    assert "it opens when every choice is in" not in mine


async def test_help_in_a_finished_games_thread_says_the_game_is_over(core):
    gid = await start_toy(core)
    await say(core, "alice", "/game resign confirm:yes", place="console:#t")
    r = await say(core, "bob", "/game help", place="console:#t")
    assert r[0].text.startswith(f"Game #{gid}, the game of this thread, is over"), r[0].text
    assert "/game new" in r[0].text  # the general help follows


async def test_a_threads_game_still_loading_after_a_restart_is_never_taken_for_another(core):
    """While start-up loads games in the background, a lookup that does not load first (autocomplete)
    in a thread whose game is not loaded yet says so, rather than offering the player's game elsewhere."""
    from bot.replies import Command

    first = await _toy_in(core, "console:#one")
    await say(core, "bob", "/game accept", place="console:#one")
    await _toy_in(core, "console:#two")
    await say(core, "bob", "/game accept", place="console:#two")
    core.unloaded[first] = core.live.pop(first).row  # as start(background=True) leaves a game not loaded yet
    guess = Command(user="alice", place="console:#one", name="guess", args={})
    with pytest.raises(Exception, match=f"game #{first} is still being loaded"):
        core.find_game(guess)
    await core.load(first)
    assert core.find_game(guess).id == first


async def test_t_2_a_required_count_left_out_is_never_taken_for_none(core, monkeypatch):
    """Only an optional count left out means none (OneWorld's /aspects): the toy's /take needs its
    n (T.2), so /take alone is refused even where a take of 0 were legal, and nothing changes."""
    from engine.core.protocol import Action

    gid = await start_toy(core)
    await say(core, "alice", "/guess parity:odd", place="dm:alice")
    await say(core, "bob", "/guess parity:even", place="dm:bob")
    g = core.live[gid]
    seat = next(p.seat for p in g.rules.pending_now(g.state))
    user = g.user_of(seat)
    legal = type(g.rules).legal_actions
    monkeypatch.setattr(type(g.rules), "legal_actions", lambda self, state, s: legal(self, state, s) + (
        [Action(verb="take", args={"n": 0})] if s == seat else []))
    g.rules.__dict__.pop("_legal_cache", None)  # the legal actions remembered for this state
    before = g.seq
    r = await say(core, user, "/take", place="console:#t")
    assert r and all(x.to == "private" for x in r) and "Sorry" in texts(r) and "(rule T.2)" in texts(r)
    assert core.live[gid].seq == before


@pytest.mark.parametrize("game", ["chitin", "oneworld", "annihilator"])
async def test_an_order_without_an_argument_its_verb_needs_is_refused_by_naming_it(core, game):
    """``/move stack:R3`` with no ``to:`` (or ``to:`` left empty) was refused as "Sorry,  is not a hex of the
    map" or "there is no counter ;": the game read the empty value. The refusal now names what is missing,
    with how the order is written, and nothing changes. Every verb with a needed argument that the
    first public decisions of a game offer is tried, each argument left out in turn."""
    r = await say(core, "alice", f"/game new game:{game} opponent:bob seed:4", place="console:#g")
    gid = r[0].game_id
    await say(core, "bob", "/game accept", place="console:#g")
    g = core.live[gid]
    tried: set[str] = set()
    for _ in range(60):
        pending = [p for p in g.pending() if not p.secret]
        if not pending:
            break
        p = pending[0]
        user = g.user_of(p.seat)
        legal = g.rules.legal_actions(g.state, p.seat)
        specs = {v.verb: v for v in g.rules.verbs()}
        for a in reversed(legal):  # the last of a verb's orders: the first would be the example anyway
            if a.verb in tried or not any(x.required for x in specs[a.verb].args):
                continue
            tried.add(a.verb)
            optional = {x.name: "N" for x in specs[a.verb].args if not x.required and x.kind == "direction"}
            for arg in (x for x in specs[a.verb].args if x.required):
                kept = {k: v for k, v in a.args.items() if k != arg.name}
                for left in (kept, {**a.args, arg.name: ""}, {**kept, **optional}):
                    line = " ".join([f"/{a.verb}"] + [f"{k}:{v}" for k, v in left.items()])
                    seq = g.seq
                    out = await say(core, user, line, place="console:#g")
                    text = texts(out)
                    assert f"/{a.verb} needs {arg.name}: (" in text and "write it as /" in text, (line, text)
                    assert g.seq == seq and not any(x.to == "channel" for x in out)
                    # the example keeps what was given of what the verb needs (the unit named)
                    example = text.split("for example ")[1]
                    assert all(f"{k}:{v}" in example for k, v in kept.items()), (line, text)
        await say(core, user, legal[0].text(), place="console:#g")
    assert len(tried) >= 2, tried


async def test_an_option_written_without_its_value_is_refused_with_the_values_it_takes(core):
    """``options:flee_while_you_can`` was refused with "should be written name:value, for example to:0507",
    an order's argument, not an option. The refusal names the option's values, or the game's options."""
    out = texts(await say(core, "alice", "/game new game:oneworld opponent:bob options:flee_while_you_can"))
    assert "to:0507" not in out and "flee_while_you_can:VALUE" in out and "on/off" in out, out
    out = texts(await say(core, "alice", "/game new game:oneworld opponent:bob options:'god_lives: 2'"))
    assert "write god_lives:2 with no space after the colon" in out, out
    out = texts(await say(core, "alice", "/game new game:oneworld opponent:bob options:wrapround"))
    assert "to:0507" not in out and "god_lives" in out and "/game options game:oneworld" in out, out
    assert not await core.store.games()


async def test_the_log_of_a_finished_game_ends_with_how_it_ended(core):
    """A game ended by a resignation (not an action of the log) said "Nothing has happened yet." in
    /game log; the log now ends with the result, as /game status gives it."""
    gid = await start_toy(core)
    await say(core, "alice", f"/game resign game:{gid} confirm:yes")
    out = texts(await say(core, "alice", f"/game log game:{gid}"))
    assert "Nothing has happened yet" not in out and "bob (" in out and "won" in out and "resigned" in out, out
    out = texts(await say(core, "bob", f"/game log game:{gid} last:1"))
    assert out.splitlines()[-1].startswith("Game over:") and "resigned" in out, out


@pytest.mark.parametrize("winner, reason, said", [
    ("Marines", "both brain core hexes are destroyed: the Marines win (rule 10.0)",
     "bob (Marines) wins: both brain core hexes are destroyed (rule 10.0)."),
    ("Annihilator", "every human unit is eliminated: the Annihilator wins (rule 10.0)",
     "bob (Annihilator) wins: every human unit is eliminated (rule 10.0)."),
    ("BORG", "CHEZ's god has lost all its lives", "bob (BORG) wins: CHEZ's god has lost all its lives."),
])
def test_the_end_of_a_game_says_who_wins_once(winner, reason, said):
    """The Annihilator's reasons say who wins (10.0), and the end line said it twice: "hexhive (Marines)
    wins: both brain core hexes are destroyed: the Marines win (rule 10.0)"."""
    from types import SimpleNamespace

    g = SimpleNamespace(id=1, name_of=lambda seat: "bob", rules=SimpleNamespace(name="annihilator"), seats={},
                        seq=9, row=SimpleNamespace(place="p", seed="s", seed_public=True))
    (line,) = Core.end_lines(None, g, winner, reason)  # type: ignore[arg-type]
    assert line.text.splitlines()[0] == f"Game #1 is over. {said}", line.text
