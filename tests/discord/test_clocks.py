"""Clocks: pure deadline logic with an injected time, and the keeper acting on a toy game."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from bot.clocks import ClockKeeper, ClockState, Decision, advance, downtime, extend
from bot.core import Core
from bot.replies import Reply

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


def run(hours, steps, paused_at=()):  # noqa: ANN001, ANN201
    """Advance a clock through the given hours after T0; returns events by hour."""
    state, seen = None, {}
    for h in steps:
        d = Decision(key="1:0:A", hours=hours, paused=h in paused_at)
        state, events = advance(state, d, T0 + h * H)
        if events:
            seen[h] = [(e.kind, e.hours) for e in events]
    return state, seen


def test_reminders_at_24_and_1_hours_then_expiry():
    _, seen = run(72, range(0, 80))
    assert seen == {48: [("reminder", 24)], 71: [("reminder", 1)], 72: [("expired", 0)]}


def test_a_late_check_sends_only_the_nearest_reminder():
    _, seen = run(72, [0, 71.5, 73])
    assert seen == {71.5: [("reminder", 1)], 73: [("expired", 0)]}


def test_a_short_clock_has_no_24_hour_reminder():
    _, seen = run(12, range(0, 14))
    assert seen == {11: [("reminder", 1)], 12: [("expired", 0)]}


def test_pausing_stops_the_clock():
    state, seen = run(72, list(range(0, 10)) + list(range(10, 30)), paused_at=set(range(10, 20)))
    assert state is not None and state.deadline == T0 + 82 * H
    assert 72 not in seen


def test_a_new_decision_starts_a_new_clock():
    s, _ = advance(None, Decision("1:0:A", 72, False), T0)
    s, _ = advance(s, Decision("1:1:B", 72, False), T0 + 5 * H)
    assert s is not None and s.started == T0 + 5 * H and s.deadline == T0 + 77 * H


def test_no_clock_without_a_time_control_or_a_decision():
    assert advance(None, Decision("1:0:A", None, False), T0) == (None, [])
    assert advance(None, Decision("", 72, False), T0) == (None, [])


def test_downtime_ignores_short_gaps():
    assert downtime(None, T0) == timedelta(0)
    assert downtime(T0 - timedelta(minutes=2), T0) == timedelta(0)
    assert downtime(T0 - 3 * H, T0) == 3 * H


@given(st.integers(min_value=0, max_value=10_000))
def test_extend_moves_only_live_deadlines(minutes):
    s = ClockState(key="k", started=T0, deadline=T0 + 72 * H)
    assert extend(s, timedelta(minutes=minutes)).deadline == T0 + 72 * H + timedelta(minutes=minutes)
    done = s.model_copy(update={"expired": True})
    assert extend(done, timedelta(minutes=minutes)).deadline == done.deadline


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


async def toy(core: Core, timeout: str) -> int:
    r = await core.handle_line("alice", "p", f"/game new game:toy opponent:bob clock:24h on_timeout:{timeout}")
    gid = r[0].game_id
    await core.handle_line("bob", "p", "/game accept")
    return gid


async def test_keeper_reminds_then_alerts_moderators_on_expiry(core):
    clock = Clock()
    keeper = ClockKeeper(core, now=clock)
    gid = await toy(core, "nothing")
    assert await keeper.tick() == []
    clock.now = T0 + 23 * H + timedelta(minutes=1)
    [reminder] = await keeper.tick()
    assert "1 h left" in reminder.text and sorted(reminder.mentions) == ["alice", "bob"]
    clock.now = T0 + 25 * H
    [alert] = await keeper.tick()
    assert alert.text.startswith("Moderators:") and not alert.mentions
    assert any("ran out" in r["what"] for r in await core.store.modlog(gid))
    assert await keeper.tick() == []


async def bob_to_guess(core: Core, timeout: str = "forfeit") -> tuple[Clock, ClockKeeper, int]:
    """A toy game on a clock (``forfeit`` on timeout) started at T0, alice's guess in, bob's awaited."""
    clock = Clock()
    keeper = ClockKeeper(core, now=clock)
    gid = await toy(core, timeout)
    await keeper.tick()
    await core.handle_line("alice", "p", "/guess parity:odd")
    await keeper.tick()
    return clock, keeper, gid


async def test_forfeit_on_timeout_ends_the_game(core):
    clock, keeper, gid = await bob_to_guess(core)
    clock.now = T0 + 25 * H
    out = await keeper.tick()
    assert any("is over" in r.text and "bob ran out of time" in r.text for r in out)
    assert gid not in core.live and (await core.store.game(gid)).status == "over"


async def test_default_on_timeout_plays_the_first_legal_answer(core):
    clock = Clock()
    keeper = ClockKeeper(core, now=clock)
    gid = await toy(core, "default")
    await keeper.tick()
    clock.now = T0 + 25 * H
    await keeper.tick()
    assert core.live[gid].seq == 2


async def test_paused_games_keep_their_clock_stopped(core):
    clock = Clock()
    keeper = ClockKeeper(core, now=clock)
    core.clock = clock
    gid = await toy(core, "forfeit")
    await keeper.tick()
    clock.now = T0 + 2 * H
    await core.handle_line("mo", "p", "/mod pause", is_moderator=True)
    clock.now = T0 + 100 * H
    assert await keeper.tick() == []
    assert "stopped" in keeper.line(gid)
    await core.handle_line("mo", "p", "/mod resume", is_moderator=True)
    await keeper.tick()
    assert keeper.states[gid].deadline == T0 + 122 * H
    assert gid in core.live


async def test_an_expiry_alert_also_goes_where_the_transport_says(core):
    clock = Clock()
    seen = []

    async def elsewhere(g, text):  # noqa: ANN001, ANN202
        seen.append((g.id, text))
        return [Reply(to="channel", place="mods", text=text)]

    keeper = ClockKeeper(core, now=clock, alert_elsewhere=elsewhere)
    gid = await toy(core, "nothing")
    await keeper.tick()
    clock.now = T0 + 25 * H
    out = await keeper.tick()
    assert [r.place for r in out] == ["p", "mods"]
    assert seen == [(gid, out[0].text)]


def while_saving(keeper: ClockKeeper, monkeypatch, order) -> list[asyncio.Task]:  # noqa: ANN001
    """The first time the keeper saves a run-out clock, ``order()`` (a member's command) is started, to run
    at the keeper's next wait: the two interleave as on the bot's event loop. Returns its task, once begun."""
    real = keeper._save
    started: list[asyncio.Task] = []

    async def save_then_order(gid: int) -> None:
        await real(gid)
        if not started and keeper.states[gid].expired:
            started.append(asyncio.create_task(order()))

    monkeypatch.setattr(keeper, "_save", save_then_order)
    return started


async def test_an_order_given_while_the_clock_runs_out_is_kept_and_nobody_forfeits(core, monkeypatch):
    """The keeper finds bob's clock run out, and bob's guess commits while the keeper saves that (the two
    interleave on the event loop). The decision that ran out was answered: the timeout action must not
    fall on the game as it is now (it would end it against whoever the game waits on next), and no
    moderator is told that a clock ran out for a decision that was made."""
    clock, keeper, gid = await bob_to_guess(core)
    # bob's order arrives as the keeper saves the run-out clock; it runs as soon as the keeper waits
    answered = while_saving(keeper, monkeypatch, lambda: core.handle_line("bob", "p", "/guess parity:even"))
    clock.now = T0 + 25 * H
    out = await keeper.tick()
    assert answered
    said = await answered[0]
    assert not said or not said[0].text.startswith("Sorry"), said
    assert gid in core.live, [r.text for r in out]
    assert (await core.store.game(gid)).status == "active"
    assert not [r for r in out if "ran out" in r.text or "is over" in r.text], [r.text for r in out]
    assert not any("ran out" in r["what"] for r in await core.store.modlog(gid))


async def test_reminders_and_alerts_are_in_the_outbox_so_a_post_discord_refuses_is_posted_again(core):
    """The keeper counts a reminder as given and a clock as run out when it says so; if Discord answered
    503 to that post it would be lost for good (an expired clock never fires again). They are queued in
    the outbox, in the same transaction as the clock, like every other post."""
    clock = Clock()
    keeper = ClockKeeper(core, now=clock)
    gid = await toy(core, "nothing")
    await keeper.tick()
    clock.now = T0 + 23 * H + timedelta(minutes=1)
    [reminder] = await keeper.tick()
    clock.now = T0 + 25 * H
    [alert] = await keeper.tick()
    waiting = {oid for oid, _, _ in await core.store.unposted()}
    assert reminder.outbox_id in waiting and alert.outbox_id in waiting, (reminder, alert)
    assert gid in core.live


async def test_downtime_is_credited_to_a_game_start_up_has_not_loaded_yet(core, monkeypatch):
    """Start-up loads the games in the background; the clocks resume meanwhile. A game not loaded yet
    must still have the time the bot was down added to its clock, or its first tick finds the clock run
    out and (here) forfeits a player who had most of a day left when the bot went down."""
    from bot.commands import make_core

    clock = Clock()
    keeper = ClockKeeper(core, now=clock)
    gid = await toy(core, "forfeit")
    await keeper.tick()  # the clock of the decision, saved, and the heartbeat at T0
    restarted = make_core(core.store)
    monkeypatch.setattr(restarted, "load_all", _never)  # the background loading has not come to it yet
    await restarted.start(background=True)
    assert gid not in restarted.live
    clock.now = T0 + 30 * H  # down for 30 hours, with 24 on the clock
    again = ClockKeeper(restarted, now=clock)
    notes = await again.start()
    assert any("was down for 30 h" in r.text for r in notes), [r.text for r in notes]
    assert again.states[gid].deadline == T0 + 54 * H
    assert gid not in restarted.live  # credited from its row: not replayed for it
    await restarted.load(gid)  # the background loading comes to it
    assert not [r for r in await again.tick() if "is over" in r.text or "ran out" in r.text]
    assert gid in restarted.live


async def _never() -> None:
    return None


async def test_a_command_before_the_clocks_resume_does_not_start_its_clock_afresh(core):
    """After a restart, commands are answered before the keeper has read the saved clocks (replies left
    unposted go first); a command's clock check then must not take the decision for a new one and write
    a fresh full clock over the saved one."""
    from bot.discord.hive import Hive

    clock = Clock()
    keeper = ClockKeeper(core, now=clock)
    gid = await toy(core, "nothing")
    await keeper.tick()
    saved = keeper.states[gid]
    clock.now = T0 + 20 * H
    fresh = ClockKeeper(core, now=clock)  # the restarted bot's keeper, not started yet
    hive = Hive.__new__(Hive)
    hive.core, hive.keeper = core, fresh
    replies = await core.handle_line("alice", "p", f"/game board game:{gid}")
    assert await hive.clocks_for(replies) == []
    await fresh.start()
    assert fresh.states[gid].deadline == saved.deadline + 20 * H  # the saved clock, with the 20 h down added


async def test_a_private_step_at_the_deadline_does_not_leave_the_decision_without_a_clock(core, monkeypatch):
    """3.03: an army is picked counter by counter, each pick a private step of the same decision. A pick
    at the deadline, while the keeper saves the run-out clock, makes the forfeit's position stale and it is
    refused; but the decision still waits on the late player, so the clock must not stay run out and
    silent: the next check forfeits (it used to stay expired with no action, alert or log, for good)."""
    clock = Clock()
    keeper = ClockKeeper(core, now=clock)
    r = await core.handle_line("alice", "p", "/game new game:chitin scenario:basic opponent:bob clock:24h "
                                             "on_timeout:forfeit")
    gid = r[0].game_id
    await core.handle_line("bob", "p", "/game accept")
    await keeper.tick()
    picked = while_saving(keeper, monkeypatch,
                          lambda: core.handle_line("alice", "dm:alice", f"/pick kind:GT3 game:{gid}"))
    clock.now = T0 + 25 * H
    first = await keeper.tick()
    assert picked and not (await picked[0])[0].text.startswith("Sorry")
    assert gid in core.live and not [x for x in first if "is over" in x.text], [x.text for x in first]
    clock.now = T0 + 25 * H + timedelta(minutes=1)
    later = await keeper.tick()
    assert any("is over" in x.text and "ran out of time" in x.text for x in later), [x.text for x in later]
    assert gid not in core.live


# --- a seat that changes hands (/mod replace) ----------------------------------------------------------------


async def test_a_seat_given_to_another_member_gets_a_fresh_clock_not_the_one_that_ran_for_the_old(core):
    """bob leaves 10 minutes before his deadline and a moderator gives his seat to carol: she was given
    those 10 minutes, and forfeited the game for bob's lateness. The decision is hers now, with a clock of
    its own, as when it first passed to bob."""
    clock, keeper, gid = await bob_to_guess(core)
    bob_seat = core.live[gid].seats_of("bob")[0]
    clock.now = T0 + 23 * H + timedelta(minutes=50)
    await keeper.tick()
    await core.handle_line("mo", "p", f"/mod replace seat:{bob_seat} user:carol", is_moderator=True)
    await keeper.tick()
    clock.now = T0 + 24 * H + timedelta(minutes=5)
    out = await keeper.tick()
    assert gid in core.live and not [r for r in out if "ran out" in r.text], [r.text for r in out]
    assert keeper.states[gid].deadline == T0 + 47 * H + timedelta(minutes=50)


async def test_a_clock_that_ran_out_for_a_member_does_not_stay_run_out_for_the_one_given_the_seat(core):
    """``on_timeout:nothing``: bob's clock runs out, and a moderator gives his seat to carol. The status said
    "Clock: ran out for carol" for good, with no deadline and no reminder for her."""
    clock, keeper, gid = await bob_to_guess(core, "nothing")
    clock.now = T0 + 25 * H
    await keeper.tick()
    assert keeper.states[gid].expired
    await core.handle_line("mo", "p", f"/mod replace seat:{core.live[gid].seats_of('bob')[0]} user:carol",
                           is_moderator=True)
    await keeper.tick()
    status = (await core.handle_line("carol", "p", f"/game status game:{gid}"))[0].text
    assert "ran out" not in status and "running for carol" in status, status
    clock.now = T0 + 48 * H + timedelta(minutes=30)
    assert any("reminder" in r.text and r.mentions == ["carol"] for r in await keeper.tick())


async def test_a_seat_given_away_as_its_clock_runs_out_is_not_forfeited_for_the_new_holder(core, monkeypatch):
    """The keeper finds bob's clock run out, and a moderator's ``/mod replace`` gives his seat to carol
    while the keeper saves that: the forfeit went ahead, against carol, who had had no time at all."""
    clock, keeper, gid = await bob_to_guess(core)
    bob_seat = core.live[gid].seats_of("bob")[0]
    given = while_saving(keeper, monkeypatch, lambda: core.handle_line(
        "mo", "p", f"/mod replace seat:{bob_seat} user:carol", is_moderator=True))
    clock.now = T0 + 25 * H
    out = await keeper.tick()
    assert given and not (await given[0])[0].text.startswith("Sorry")
    assert gid in core.live and (await core.store.game(gid)).status == "active", [r.text for r in out]
    assert not [r for r in out if "ran out" in r.text or "is over" in r.text], [r.text for r in out]
    await keeper.tick()
    assert keeper.states[gid].deadline == T0 + 49 * H  # carol's own clock, from the handover
