"""Help that fits the moment: only the orders legal now, one unit's orders, the games' options, forgiving names."""

from __future__ import annotations

import re

import pytest

from bot import helpdesk, words
from bot.commands import make_core
from bot.store import Store
from tests.bot.test_undo import table
from tests.support.scripted import ONE_PER_GAME, play
from tests.support.table import open_table

NOW = re.compile(r"^You may use now: (.*?)(?: \(privately: in a direct message\))?\.$", re.M)


@pytest.fixture
async def core(tmp_path):
    store = await Store.open(tmp_path / "h.db")
    yield make_core(store)
    await store.close()


@pytest.mark.parametrize("script", ONE_PER_GAME)
async def test_game_help_at_each_prompt_lists_only_the_orders_legal_now(script, tmp_path):
    asked = 0
    async for _line, _replies, core in play(script, tmp_path / "g.db"):
        for g in list(core.live.values()):
            if g.state is None or g.row.status != "active":
                continue
            for p in g.pending():
                user = g.user_of(p.seat)
                r = await core.handle_line(user, g.row.place, f"/game help game:{g.id}")
                text = r[0].text
                legal = [a for a in g.rules.legal_now(g.state, p.seat) if a.verb in p.verbs]
                listed = NOW.findall(text)
                assert listed, text
                verbs = {v.strip().lstrip("/") for part in listed for v in part.split(",")}
                assert verbs <= {a.verb for a in legal}, (script, text, sorted({a.verb for a in legal}))
                shown = [ln.strip().split("   (")[0] for ln in text.splitlines() if ln.startswith("  /")]
                assert shown and all(s in {a.text() for a in legal} for s in shown), (script, text)
                assert len(shown) <= helpdesk.EXAMPLES * len(listed)
                assert "... and" not in text and "Orders of" not in text  # not the whole list
                asked += 1
    assert asked > 0


async def test_game_help_all_lists_every_order(core):
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic")
    r = await say("alice", "/game help all:yes")
    assert "/move" in r[0].text and "/advance" in r[0].text and "/undo" in r[0].text


async def test_game_new_without_a_game_lists_the_games_and_options_help_lists_the_options(core):
    r = await core.handle_line("alice", "console:#lobby", "/game new")
    assert r[0].to == "private" and "oneworld: OneWorld" in r[0].text and "chitin: Chitin: I" in r[0].text
    r = await core.handle_line("alice", "console:#lobby", "/game new game:OneWorld options:help")
    assert "god_powers:" in r[0].text and "scenario: standard (default standard)" in r[0].text
    r = await core.handle_line("alice", "console:#lobby", "/game options game:chitin")
    assert "scenario: learning, basic" in r[0].text and "(default learning)" in r[0].text
    assert "turn_limit:" in r[0].text and "seat: Red, Blue (default Red" in r[0].text
    assert not core.live


async def test_names_are_matched_forgivingly(core):
    r = await core.handle_line("alice", "console:#lobby", "/game new game:Chitin scenario:Basic opponent:bob")
    gid = r[0].game_id
    assert gid is not None and core.live[gid].config.scenario == "basic" and core.live[gid].config.game == "chitin"
    assert words.direction("south") == "S" and words.direction("North-East") == "NE"
    assert words.direction("s") == "S" and words.direction("northwest") == "NW"
    assert words.direction("0608") == "0608"


async def test_6_06_a_facing_given_as_a_word_is_understood(tmp_path):
    t, store = await table(tmp_path)
    try:
        await t.until("bob: /face stack:0818 dir:N")
        seq = t.game.seq
        r = await t.say("bob", "/face stack:0818 dir:north")
        assert t.game.seq == seq + 1, r[0].text
    finally:
        await store.close()


async def test_an_unknown_command_suggests_the_near_one(core):
    r = await core.handle_line("alice", "console:#lobby", "/gmae new game:chitin")
    assert r[0].text == "Sorry, there is no command /gmae; did you mean /game?"
    r = await core.handle_line("alice", "console:#lobby", "/mvoe stack:R1 to:0804")
    assert r[0].text == "Sorry, there is no command /mvoe; did you mean /move?"


async def test_a_group_word_alone_lists_its_commands(core):
    r = await core.handle_line("alice", "console:#lobby", "/game")
    assert r[0].to == "private" and "/game new" in r[0].text and "/game accept" in r[0].text, r[0].text
    assert "there is no command" not in r[0].text
    r = await core.handle_line("alice", "console:#lobby", "/mod")
    assert "/mod pause" in r[0].text and "/mod rollback" in r[0].text, r[0].text
    r = await core.handle_line("alice", "console:#lobby", "/game nosuch")
    assert "there is no command /game nosuch" in r[0].text


async def test_game_moves_lists_one_units_orders(tmp_path):
    t, store = await table(tmp_path)
    try:
        await t.until("bob: /move stack:B1 to:0818")
        r = await t.say("bob", "/game moves unit:B1")
        assert r[0].text.startswith("Orders of B1 now")
        assert "B2" not in r[0].text
        n = int(r[0].text.split("(", 1)[1].split(")", 1)[0])
        assert n > helpdesk.MOVES_SHOWN and f"all {n} are in the attached file" in r[0].text, r[0].text
        listed = [line for line in r[0].file_text.splitlines() if line.startswith("  /move stack:B1 ")]
        assert len(listed) == n and "  /move stack:B1 to:0818" in r[0].file_text  # the ones past the 25th too
        assert r[0].file_name == "hexhive-game-1-orders-B1.txt"
        r = await t.say("bob", "/game moves unit:R1")
        assert r[0].text.startswith("Sorry, there is no R1 on the board") and "not in play yet" in r[0].text, r[0].text
        await t.until("alice: /move stack:R2 to:0904")  # R1 has entered the map (3.02)
        r = await t.say("alice", "/game moves unit:B1")
        assert r[0].text.startswith("Sorry, B1 is Blue's, not yours"), r[0].text
        r = await t.say("alice", "/game moves unit:Q9")
        assert r[0].text.startswith("Sorry, there is no Q9 on the board"), r[0].text
    finally:
        await store.close()


async def test_game_status_shows_the_clock(core):
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic clock:48h")
    r = await say("carol", "/game status")
    assert "Clock: 48 h a decision, running for" in r[0].text
    from datetime import UTC, datetime, timedelta

    deadline = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    async with core.store.transaction():
        await core.store.set_place_settings(f"clock:game:{g.id}", {
            "key": "k", "started": (deadline - timedelta(hours=48)).isoformat(), "deadline": deadline.isoformat()})
    r = await say("carol", "/game status")
    stamp = int(deadline.timestamp())
    assert f"due <t:{stamp}:R>" in r[0].text and "2026-12-01 12:00 UTC" in r[0].text


async def test_a_game_of_several_scenarios_names_its_scenario_when_it_begins_and_in_its_status(core):
    """Chitin: I has six scenarios (3.0): a spectator reading the thread learns which one is played;
    OneWorld has one, and its title stands alone."""
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic")
    r = await say("carol", "/game status")
    assert r[0].text.startswith(f"Game #{g.id} (Chitin: I, Basic scenario), "), r[0].text
    r = await core.handle_line("alice", "console:#lobby", "/game new game:chitin scenario:small opponent:bot")
    assert any("begins: Chitin: I, Small scenario." in x.text for x in r), [x.text for x in r]
    r = await core.handle_line("alice", "console:#lobby", "/game new game:oneworld opponent:bot")
    assert any("begins: OneWorld. " in x.text for x in r), [x.text for x in r]


async def test_a_finished_games_own_thread_knows_its_game(core):
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic")
    await say("alice", "/game resign confirm:yes")
    for line in ("/game export", "/game status", "/game replay", "/game log"):
        r = await say("carol", line)
        assert not r[0].text.startswith("Sorry"), (line, r[0].text)
        assert r[0].game_id in (g.id, None)
    r = await say("carol", "/game status")
    assert f"Game #{g.id}" in r[0].text and "over" in r[0].text


async def test_game_moves_board_outlines_the_hexes_the_unit_reaches(tmp_path):
    from bot.boards import board_view, render_board_png

    t, store = await table(tmp_path)
    try:
        await t.until("bob: /move stack:B1 to:0818")
        r = await t.say("bob", "/game moves unit:B1 board:yes")
        reply = r[0]
        assert reply.to == "private" and reply.board and reply.viewer == "Blue"
        assert "0818" in reply.highlights and all(len(h) == 4 for h in reply.highlights)
        plain = await render_board_png(t.core, 1, "Blue")
        marked = await render_board_png(t.core, 1, "Blue", reply.highlights)
        assert plain and marked and plain != marked
        view = await board_view(t.core, 1, "Blue")
        assert not any(h.kind == "legal" for h in view.highlights)  # the game's own board is not changed
    finally:
        await store.close()


async def test_12_0_help_offers_transform_and_flee_only_with_their_options(core):
    g, say = await open_table(core, "console:#t", "game:oneworld")
    r = await say("alice", "/game help all:yes")
    assert "/move" in r[0].text and "/transform" not in r[0].text and "/flee" not in r[0].text
    g2, say2 = await open_table(core, "console:#u", "game:oneworld god_powers:on flee_while_you_can:on")
    r = await say2("alice", f"/game help all:yes game:{g2.id}")
    assert "/transform" in r[0].text and "/flee" in r[0].text


def test_examples_put_an_order_that_needs_confirm_last():
    """OneWorld's help showed "Move B3 NE into Chaos (lost)" first: an order a player could regret
    (5.6, it needs confirm:lost) is no example while there are others."""
    from types import SimpleNamespace

    from engine.core.protocol import Action

    lost = Action(verb="move", args={"child": "B3", "dir": "NE", "confirm": "lost"})
    safe = [Action(verb="move", args={"child": "B3", "dir": d}) for d in ("N", "S", "SE")]
    rules = SimpleNamespace(legal_now=lambda state, seat: [lost, *safe])
    g = SimpleNamespace(state=object(), rules=rules)
    assert helpdesk.examples(g, "BORG", ["move"]) == safe  # type: ignore[arg-type]


@pytest.mark.parametrize("said, shown", [
    ("Adding a Gantua (12 points) would bring your army to 53 points", "Sorry, adding a Gantua"),
    ("Reaching 0717 costs 7 movement points and R7 has 6", "Sorry, reaching 0717"),
    ("Charges belong to the advanced rules", "Sorry, charges belong"),
    ("Stone B1 cannot move", "Sorry, Stone B1 cannot"),
    ("OneWorld has no such option", "Sorry, OneWorld has"),
    ("Facing is one of N, NE, SE, S, SW, NW (rule 6.06)", "Sorry, facing is one of"),
    ("Ground units may never attack air units (rule 8.015)", "Sorry, ground units may"),
    ("Overruns are made in the movement phase (rule 7.07)", "Sorry, overruns are"),
    ("Workers cannot attack (rule 2.023)", "Sorry, Workers cannot"),
])
def test_a_refusal_reads_as_one_sentence_after_sorry(said, shown):
    """The new-user review read "Sorry, Adding ...", "Sorry, Reaching ...": a plain opening word is
    lowered after "Sorry, "; a unit's or a game's name keeps its capital."""
    from bot.answers import polite

    assert polite(said).startswith(shown)


async def test_help_outside_a_games_thread_lists_the_commands_and_names_your_games(core):
    """``/help`` in a lobby or a DM is the command list, even for a member who plays one game (it
    names that game and how to ask about it); in the game's thread, and as ``/game help``
    anywhere, it is what that game waits on."""
    g, say = await open_table(core, "console:#t", "game:chitin scenario:basic")
    for place in ("console:#lobby", "dm:alice"):
        (r,) = await core.handle_line("alice", place, "/help")
        assert r.text.startswith("hexhive runs two-player") and "/mod " in r.text, r.text
        assert f"Your game: #{g.id}" in r.text and f"/game help game:{g.id}" in r.text, r.text
    (r,) = await core.handle_line("carol", "console:#lobby", "/help")
    assert r.text.startswith("hexhive runs two-player") and "Your game" not in r.text
    for place, line in ((g.row.place, "/help"), ("console:#lobby", "/game help")):
        (r,) = await core.handle_line("alice", place, line)
        assert not r.text.startswith("hexhive runs two-player"), (place, line, r.text)
