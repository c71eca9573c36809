"""Time controls: a deadline per decision, reminders 24 h and 1 h before it, an action when it passes.

The clock logic (``advance``, ``extend``, ``downtime``) is pure and takes the time as an
argument. ``ClockKeeper`` applies it to the games of a core and returns replies; a
transport only calls ``tick`` now and then and delivers what comes back. A clock stops
while its game is paused, and is extended by any time the bot itself was down.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from bot.replies import Command, Reply
from bot.store import COMMITTED

if TYPE_CHECKING:
    from bot.core import Core
    from bot.live import Live

log = logging.getLogger("hexhive.clocks")

REMINDERS = (24, 1)
"""Hours before a deadline at which the awaited player is reminded."""
DOWNTIME_GRACE = timedelta(minutes=5)
"""Shorter gaps between heartbeats are not counted as the bot being down."""
CLOCK_USER = "clock"
OUTBOX_KEEP = timedelta(days=1)
"""How long a posted reply stays in the outbox before it is pruned."""
HEARTBEAT_KEY = "clock:heartbeat"


class ClockState(BaseModel):
    """The clock of the decision a game waits on now."""

    key: str
    waiting: list[str] = []
    """The seats the decision waits on; a clock restarts only when a seat joins them."""
    holders: dict[str, str] = {}
    """Who held each of those seats: a seat given to someone else (``/mod replace``) gets a fresh clock."""
    started: datetime
    deadline: datetime
    reminded: list[int] = []
    expired: bool = False
    paused_since: datetime | None = None


@dataclass(frozen=True)
class Decision:
    """What a clock times: the decision a game waits on, and its time control."""

    key: str
    hours: int | None
    paused: bool
    waiting: tuple[str, ...] = ()
    holders: tuple[tuple[str, str], ...] = ()
    """(seat, user) of the seats waited on."""
    paused_at: datetime | None = None
    """When the game was paused, if known (else the clock stops when the pause is first seen)."""


@dataclass(frozen=True)
class ClockEvent:
    """A reminder (``hours`` left) or the deadline passing."""

    kind: Literal["reminder", "expired"]
    hours: int = 0


def advance(state: ClockState | None, d: Decision, now: datetime) -> tuple[ClockState | None, list[ClockEvent]]:
    """The clock after time ``now`` for decision ``d``, and the reminders or expiry now due."""
    if d.hours is None or not d.key:
        return None, []
    # a clock saved before holders were kept knows none: it is not restarted for that
    handed = state is not None and any(state.holders.get(seat, user) != user for seat, user in d.holders)
    if state is None or state.key != d.key or set(d.waiting) - set(state.waiting) or handed:
        # The decision passed to a player (or the line of play changed, or a moderator gave a seat
        # to someone else, who is not timed by the time the old holder took): a fresh clock. A
        # player's own further orders in the same decision, public or private, reversible or
        # not, leave the waiting seats as they are, so they neither restart it nor show.
        state = ClockState(key=d.key, waiting=list(d.waiting), started=now, deadline=now + timedelta(hours=d.hours))
    state = state.model_copy(deep=True)
    state.waiting = list(d.waiting)
    state.holders = dict(d.holders)
    if d.paused:
        if state.paused_since is None:
            state.paused_since = min(d.paused_at or now, now)
        return state, []
    if state.paused_since is not None:
        state = extend(state, now - state.paused_since)
        state.paused_since = None
    if state.expired:
        return state, []
    left = state.deadline - now
    if left <= timedelta(0):
        state.expired = True
        return state, [ClockEvent("expired")]
    due = [h for h in REMINDERS if h < d.hours and left <= timedelta(hours=h) and h not in state.reminded]
    if not due:
        return state, []
    state.reminded = sorted(set(state.reminded) | {h for h in REMINDERS if left <= timedelta(hours=h)})
    return state, [ClockEvent("reminder", min(due))]


def extend(state: ClockState, by: timedelta) -> ClockState:
    """The same clock with its deadline moved ``by`` later (an expired clock stays expired)."""
    if state.expired or by <= timedelta(0):
        return state
    return state.model_copy(update={"deadline": state.deadline + by})


def downtime(last_seen: datetime | None, now: datetime, grace: timedelta = DOWNTIME_GRACE) -> timedelta:
    """How long the bot was down since its last heartbeat (zero for short gaps or a first start)."""
    if last_seen is None:
        return timedelta(0)
    gap = now - last_seen
    return gap if gap > grace else timedelta(0)


def decision_of(g: Live) -> Decision:
    """The decision a game waits on now: the seats it waits on, on the current line of play.

    Keyed by the action that last passed a decision to a player (the core records it), not
    by the latest action: a private step (an army picked counter by counter) must not change
    anything public, and toggling an order must not buy time.
    """
    settings = g.row.settings_dict
    hours = settings.get("clock_hours")
    bots = settings.get("bots", {})  # the bot opponent answers at once: its seats are never timed
    waiting = tuple(sorted({p.seat for p in g.pending() if p.seat not in bots}))
    key = f"branch {g.row.branch}, decision from action {settings.get('decision_seq', 0)}" if waiting else ""
    paused = g.row.status == "paused"
    return Decision(key=key, hours=hours, paused=paused, waiting=waiting,
                    holders=tuple((seat, g.user_of(seat)) for seat in waiting),
                    paused_at=datetime.fromisoformat(g.row.updated_at) if paused else None)


def span(td: timedelta) -> str:
    """``2 h 5 min`` for people."""
    minutes = int(td.total_seconds() // 60)
    h, m = divmod(minutes, 60)
    return f"{h} h {m} min" if h else f"{m} min"


def _utcnow() -> datetime:
    return datetime.now(UTC)


AlertHook = Callable[["Live", str], Awaitable[list[Reply]]]


@dataclass
class ClockKeeper:
    """Keeps the clocks of a core's games; returns the replies a transport should deliver."""

    core: Core
    now: Callable[[], datetime] = _utcnow
    alert_elsewhere: AlertHook | None = None
    """Where else a moderators' alert goes (a transport's moderation channel), as extra replies."""
    states: dict[int, ClockState] = field(default_factory=dict)
    changed: set[int] = field(default_factory=set)
    """Games whose clock changed since the transport last looked (their status lines need redrawing)."""
    started: bool = False
    """``start`` has read the saved clocks and credited the downtime: before, a command's clock check
    would take a saved decision for a new one (``Hive.clocks_for`` waits for it)."""

    async def start(self) -> list[Reply]:
        """Load the clocks; extend them by the time the bot was down and say so in each game."""
        for gid in self.core.game_ids():
            raw = await self.core.store.place_settings(_key(gid))
            if raw:
                self.states[gid] = ClockState.model_validate(raw)
        beat = await self.core.store.place_settings(HEARTBEAT_KEY)
        last = datetime.fromisoformat(beat["at"]) if beat.get("at") else None
        gap = downtime(last, self.now())
        out: list[Reply] = []
        if gap:
            out = await self._extend_all(gap)
        await self.heartbeat()
        self.started = True
        return out

    async def _extend_all(self, gap: timedelta) -> list[Reply]:
        out = []
        now = self.core.now()
        running = [gid for gid, st in self.states.items() if not st.expired and st.paused_since is None]
        # a game start-up has not loaded yet (it loads in the background) counts too: its clock ran on
        # while the bot was down. Only its thread is needed, from its row: it is not replayed for this,
        # unless it is a game against the bot, whose decision may be the bot's alone (below).
        places: dict[int, str] = {}
        stale: list[int] = []
        for gid in running:
            g = self.core.live.get(gid)
            row = g.row if g is not None else self.core.unloaded.get(gid)
            if row is None and gid in self.core.game_ids():  # being loaded right now
                g = await self.core.load(gid)
                row = g.row if g is not None else None
            if row is not None and g is None and row.settings_dict.get("bots"):
                g = await self.core.load(gid)  # a game against the bot: is the decision the bot's alone?
            if g is not None and g.state is not None and not decision_of(g).key:
                # a clock an earlier release left saved when the decision passed to the bot, never timed
                stale.append(gid)
            elif row is not None:
                places[gid] = row.place
        async with self.core.store.transaction():
            for gid in stale:
                self.states.pop(gid, None)
                await self.core.store.set_place_settings(_key(gid), {})
            for gid, place in places.items():
                st = self.states[gid]
                self.states[gid] = extend(st, gap)
                self.changed.add(gid)
                await self._save(gid)
                what = f"extended the clock of game #{gid} by {span(gap)}"
                await self.core.store.add_modlog(gid, CLOCK_USER, what, "the bot was down", now)
                out += await self.core.queue(gid, [Reply(to="channel", place=place, game_id=gid, text=(
                    f"The bot was down for {span(gap)}; the clock of game #{gid} was extended by as much."))])
        return out

    async def heartbeat(self) -> None:
        """Record that the bot is up now (downtime is measured from the last heartbeat)."""
        async with self.core.store.transaction():
            await self.core.store.set_place_settings(HEARTBEAT_KEY, {"at": self.now().isoformat()})

    async def tick(self) -> list[Reply]:
        """Advance every game's clock to now; reminders, alerts and timeout actions as replies."""
        out: list[Reply] = []
        for gid in list(self.core.live):
            g = self.core.live.get(gid)
            if g is None or g.state is None:
                continue
            out += await self.check(g)
        in_play = set(self.core.game_ids())
        for gid in [gid for gid in self.states if gid not in in_play]:
            del self.states[gid]
        from bot.lifecycle import expire_invitations

        out += await expire_invitations(self.core)
        async with self.core.store.transaction():  # posted replies are kept a day for diagnosis, then forgotten
            await self.core.store.prune_outbox((self.now() - OUTBOX_KEEP).isoformat(timespec="seconds"))
        await self.heartbeat()
        return out

    async def check(self, g: Live) -> list[Reply]:
        """Advance one game's clock; act on what is due."""
        old = self.states.get(g.id)
        # The decision, as it is now: a member's order may be handled at any await below, and a timeout
        # acts on the decision that ran out, never on the game as it is after that order.
        at = (g.row.branch, g.seq)
        bots = g.row.settings_dict.get("bots", {})
        late = sorted({p.seat for p in g.pending() if p.seat not in bots})
        holders = {seat: g.user_of(seat) for seat in late}
        new, events = advance(old, decision_of(g), self.now())
        if new is None:
            if self.states.pop(g.id, None) is not None:
                # forgotten in the store too: read back (``/game status``, a restart), it would be taken
                # for a clock running, for the bot's seat, and be extended by the bot's downtime
                async with self.core.store.transaction():
                    await self.core.store.set_place_settings(_key(g.id), {})
            return []
        # A reminder goes in the outbox with the clock that says it was given (one transaction): a post
        # Discord does not take is posted again, never lost while the clock counts it as given.
        out = [r for e in events if e.kind != "expired" for r in self._remind(g, e.hours)]
        if new != old or out:
            self.states[g.id] = new
            self.changed.add(g.id)
            async with self.core.store.transaction():
                await self._save(g.id)
                out = await self.core.queue(g.id, out)
        for e in events:
            if e.kind == "expired":
                out += await self._expired(g, at, holders)
        return out

    async def _save(self, gid: int) -> None:
        await self.core.store.set_place_settings(_key(gid), self.states[gid].model_dump(mode="json"))

    def _remind(self, g: Live, hours: int) -> list[Reply]:
        users = _waiting_users(g)
        names = " ".join(f"<@{u}>" for u in users)
        text = f"{names} reminder: game #{g.id} waits on your decision; about {hours} h left on the clock."
        return [Reply(to="channel", place=g.row.place, game_id=g.id, seq=g.seq, mentions=users, text=text.strip())]

    async def _expired(self, g: Live, at: tuple[int, int], holders: dict[str, str]) -> list[Reply]:
        """The decision of ``holders`` (seat: user) at ``at`` (branch, action number) ran out: the timeout
        action, then the moderators' alert. Each order of the action carries ``at`` and ``holders``
        (``Command.at``, ``Command.holders``), so the core refuses it, changing nothing, if the game moved
        on or was paused meanwhile (an order at the last instant, a rollback) or a seat was given to
        someone else (``/mod replace``); then the decision was answered after all, or is the new holder's,
        with a clock of its own, and nothing is said."""
        seats = sorted(holders)
        who = " and ".join(f"{g.name_of(s)} ({s})" for s in seats)  # before the action: named as they ran out
        settings = g.row.settings_dict
        action = settings.get("on_timeout", "nothing")
        acted: list[Reply] = []
        done = False
        if action == "forfeit":
            acted, done = await self._forfeit(g, holders, at)
        elif action == "default":
            acted, done = await self._default(g, holders, at)
        acted = [r for r in acted if r.user != CLOCK_USER]  # what the core says to the clock itself
        async with self.core.lock_of(g.id):
            live = self.core.live.get(g.id)
            if not done and live is not None and ((live.row.branch, live.seq) != at or live.row.status != "active"
                                                  or any(live.user_of(s) != u for s, u in holders.items())):
                # The decision was answered at the last instant, or the game paused or rolled back: the
                # action is not taken and nothing is said. The clock is not left run out, so if the same
                # decision still waits (a private step was all that came in), the next check acts on it.
                await self._not_expired(g.id)
                return []
            text = f"Moderators: the clock of game #{g.id} ran out for {who}. On timeout: {action}."
            alerts = [Reply(to="channel", place=g.row.place, game_id=g.id, seq=at[1], text=text)]
            async with self.core.store.transaction():  # the alert in the outbox with its log line
                await self.core.store.add_modlog(g.id, CLOCK_USER, f"clock of game #{g.id} ran out for {who}",
                                                 f"on timeout: {action}", self.core.now())
                alerts = await self.core.queue(g.id, alerts)
        if self.alert_elsewhere is not None:
            elsewhere = await self.alert_elsewhere(g, text)
            async with self.core.store.transaction():
                alerts += await self.core.queue(g.id, elsewhere)
        return alerts + acted

    async def _not_expired(self, gid: int) -> None:
        st = self.states.get(gid)
        if st is not None and st.expired:
            self.states[gid] = st.model_copy(update={"expired": False})
            async with self.core.store.transaction():
                await self._save(gid)

    async def _forfeit(self, g: Live, holders: dict[str, str], at: tuple[int, int]) -> tuple[list[Reply], bool]:
        """End the game against the seats of ``holders``; and whether it was (the core committed it)."""
        seats = sorted(holders)
        others = [s for s in g.rules.seats if s not in seats]
        winner = others[0] if len(others) == 1 else "draw"
        who = " and ".join(g.name_of(s) for s in seats)
        cmd = Command(user=CLOCK_USER, place=g.row.place, name="mod end", is_moderator=True, community=g.row.community,
                      args={"game": str(g.id), "winner": winner, "reason": f"{who} ran out of time"}, at=at,
                      holders=holders)
        replies = await self.core.handle(cmd)
        return replies, COMMITTED.get()

    async def _default(self, g: Live, holders: dict[str, str], at: tuple[int, int]) -> tuple[list[Reply], bool]:
        """Play the first legal answer for each awaited seat (confirmed: the clock asks no one), each only if
        the game is where the one before left it (the first: where the decision ran out); and whether one
        was played."""
        out: list[Reply] = []
        played = False
        for seat in sorted(holders):
            live = self.core.live.get(g.id)
            if live is None or live.state is None or (live.row.branch, live.seq) != at:
                break
            legal = live.rules.legal_now(live.state, seat)
            if not legal:
                continue
            a = legal[0]
            args = {k: str(v) for k, v in a.args.items()} | {"game": str(g.id), "as": seat, "confirm": "yes"}
            cmd = Command(user=holders[seat], place=live.row.place, name=a.verb, args=args, display="clock",
                          at=at, holders=holders)
            out += await self.core.handle(cmd)
            if not COMMITTED.get():
                break
            played = True
            now = self.core.live.get(g.id)
            at = (now.row.branch, now.seq) if now is not None else at
        return out, played

    def take_changed(self) -> set[int]:
        """The games whose clock changed since the last call."""
        out, self.changed = self.changed, set()
        return out

    def line(self, gid: int) -> str:
        """The clock as one line for a status message."""
        st = self.states.get(gid)
        if st is None:
            return "Clock: none."
        if st.paused_since is not None:
            return "Clock: stopped while the game is paused."
        if st.expired:
            return "Clock: ran out."
        # Discord renders <t:...> in each reader's time zone and keeps the relative part current,
        # so the line changes only when the deadline does.
        stamp = int(st.deadline.timestamp())
        return f"Clock: the decision is due <t:{stamp}:R> (<t:{stamp}:f>)."


def _key(gid: int) -> str:
    return f"clock:game:{gid}"


def _waiting_users(g: Live) -> list[str]:
    bots = g.row.settings_dict.get("bots", {})  # the bot opponent is never reminded
    return sorted({g.user_of(p.seat) for p in g.pending() if g.user_of(p.seat) and p.seat not in bots})
