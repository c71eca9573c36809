"""Turn flow: setup, force selection (3.0), first move (3.02), the phases of a turn (5.00), the endgame (4.0)."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.hexes import format_ccrr
from engine.core.protocol import Event
from engine.games.chitin import dicecombat, food, movement, results
from engine.games.chitin.board import Index, describe, geo, in_front
from engine.games.chitin.combat import attack_choices
from engine.games.chitin.data import (
    Scenario,
    board,
    chits,
    kind_code,
    kind_points,
    scenarios,
    sheet_kinds,
    unit_type,
)
from engine.games.chitin.state import Chit, Counter, State

SEATS = ("Red", "Blue")
PREFIX = {"Red": "R", "Blue": "B"}


def scenario(state: State) -> Scenario:
    """The scenario being played."""
    return scenarios().scenarios[state.scenario]


def new_state(name: str, turn_limit: int, first_off: bool, combat: str = "crt") -> State:
    """A fresh game: chits on their hexes (3.01), fixed forces placed in reserve."""
    sc = scenarios().scenarios[name]
    state = State(scenario=name, advanced=sc.advanced, turn_limit=turn_limit, first_off=first_off, combat=combat)
    state.ends = {s: "" for s in SEATS}
    state.next_id = {s: 1 for s in SEATS}
    state.lost = {s: 0 for s in SEATS}
    named = board().named
    for letter in sc.chits:
        state.chits[letter] = Chit(letter=letter, face=chits().lettered[letter], hex=format_ccrr(named[f"chit {letter}"]))
    if sc.points:
        state.picks = {s: [] for s in SEATS}
    else:
        kinds = sheet_kinds() if sc.fixed == ["sheet"] else sc.fixed
        for s in SEATS:
            _enlist(state, s, kinds)
    return state


def _enlist(state: State, seat: str, kinds: list[str]) -> None:
    """Put a side's counters (and its Workers, 2.023) in reserve beyond its end."""
    sc = scenario(state)
    for kind in list(kinds) + ["W"] * sc.workers:
        code, units = kind_code(kind)
        n = state.next_id[seat]
        state.next_id[seat] = n + 1
        cid = f"{PREFIX[seat]}{n}"
        state.counters[cid] = Counter(id=cid, side=seat, type=code, units=units)


def army_points(kinds: list[str]) -> tuple[int, int]:
    """Total combat strength points of a list of counters, and the Plunge part (3.032-3.035)."""
    total = sum(kind_points(k) for k in kinds)
    plunge = sum(kind_points(k) for k in kinds if kind_code(k)[0] == "PL")
    return total, plunge


def pick_kinds(state: State) -> list[str]:
    """Every counter a player may add to an army in this scenario."""
    out = []
    for code in scenario(state).types:
        if code == "B":
            out.append("B")
        else:
            out.extend(f"{code}{u}" for u in ((1, 2, 4) if code == "PL" else (1, 2, 3)))
    return out


def pick_problem(state: State, seat: str, kind: str) -> str:
    """Why adding ``kind`` to ``seat``'s army is refused, or ''."""
    sc = scenario(state)
    if kind not in pick_kinds(state):
        types = ", ".join(pick_kinds(state))
        sizes = [k for k in pick_kinds(state) if unit_type(kind_code(k)[0]).name.casefold() == kind.strip().casefold()]
        if len(sizes) > 1:  # a type's name: its counters differ in size and points (3.03)
            each = ", ".join(f"{k} ({kind_points(k)} points)" for k in sizes)
            return f"{unit_type(kind_code(sizes[0])[0]).name} comes in {len(sizes)} sizes: {each}; say which, like kind:{sizes[0]} (rule {sc.rule})"
        if sizes:  # a type of one size, named: the list writes it by its code
            only, points = sizes[0], kind_points(sizes[0])
            worth = "1 point" if points == 1 else f"{points} points"
            return f"{unit_type(kind_code(only)[0]).name} comes in one size, {only} ({worth}): write it kind:{only} (rule {sc.rule})"
        return f"{kind} is not a counter of this scenario; choose from {types} (rule {sc.rule})"
    total, plunge = army_points(state.picks[seat] + [kind])
    name = f"{unit_type(kind_code(kind)[0]).name} ({kind_points(kind)} points)"
    if total > sc.points:
        return (
            f"Adding a {name} would bring your army to {total} points; the {sc.title} allows {sc.points} "
            f"(rule {sc.rule}). Drop something first"
        )
    if sc.plunge_limit and plunge > sc.plunge_limit:
        return (
            f"Adding a {name} would give you {plunge} points of Plunge units; no more than {sc.plunge_limit} "
            f"may be used (rule {sc.rule})"
        )
    return ""


def ready_problem(state: State, seat: str) -> str:
    """Why ``seat`` may not commit its army yet, or '': it must spend exactly the points (3.03, RULINGS Chitin 11)."""
    sc = scenario(state)
    used, _ = army_points(state.picks.get(seat, []))
    if used == sc.points:
        return ""
    return (
        f"Your army uses {used} of {sc.points} points; it must use exactly {sc.points} "
        f"({sc.points - used} left) before /ready (rule {sc.rule}, RULINGS Chitin 11)"
    )


def army_text(kinds: list[str]) -> str:
    """An army as players read it."""
    total, _ = army_points(kinds)
    names = [f"{unit_type(kind_code(k)[0]).name} {k}" for k in sorted(kinds)]
    return f"{', '.join(names) or 'nothing'} ({total} points)"


def reveal(state: State, dice: Dice, events: list[Event]) -> None:
    """Both armies are in: put them in reserve and show both lists at once (RULINGS Chitin 5)."""
    lines = []
    for s in SEATS:
        _enlist(state, s, sorted(state.picks[s]))
        lines.append(f"{s}: {army_text(state.picks[s])}")
    events.append(Event(kind="reveal", text="Both armies are chosen. " + " | ".join(lines), data={"armies": dict(state.picks)}))
    roll_first(state, dice, events)


def roll_first(state: State, dice: Dice, events: list[Event]) -> None:
    """3.02: each player rolls; the high roller chooses first move or an end (ties roll again)."""
    while True:
        a = dice.roll(6, f"{SEATS[0]}'s roll for first move (rule 3.02)")
        b = dice.roll(6, f"{SEATS[1]}'s roll for first move (rule 3.02)")
        if a != b:
            break
    state.rolls = {SEATS[0]: a, SEATS[1]: b}
    state.high = SEATS[0] if a > b else SEATS[1]
    state.step = "order"
    events.append(Event(kind="roll", text=f"{SEATS[0]} rolls {a}, {SEATS[1]} rolls {b}: {state.high} chooses first move or an end (rule 3.02)"))


def choose(state: State, seat: str, pick: str, events: list[Event]) -> None:
    """3.02: first move, or an end; the low roller gets the other half of the choice."""
    low = movement.enemy_of(state, seat)
    if pick == "first":
        state.first = seat
        state.step = "order2"
        events.append(Event(kind="order", text=f"{seat} moves first; {low} chooses an end (rule 3.02)"))
        return
    state.ends[seat] = pick
    state.ends[low] = "south" if pick == "north" else "north"
    if not state.first:
        state.first = low
    events.append(Event(kind="order", text=f"{seat} starts from the {pick} end, {low} from the {state.ends[low]}; {state.first} moves first (rule 3.02)"))
    begin_turn(state, state.first, 1, events)


def game_turn(state: State) -> int:
    """The game turn as printed: both players' turns make one (5.00); ``state.turn`` counts player-turns."""
    return (state.turn + 1) // 2


def turn_text(state: State) -> str:
    """``Turn 11, Blue's player-turn`` (``Turn 3 of 8, ...`` under a turn limit)."""
    limit = f" of {state.turn_limit}" if state.turn_limit else ""
    return f"Turn {game_turn(state)}{limit}, {state.active}'s player-turn"


def begin_turn(state: State, seat: str, turn: int, events: list[Event]) -> None:
    """5.00: a player's turn starts with movement."""
    state.active, state.turn, state.step = seat, turn, "move"
    state.last_moved, state.last_losses = state.moved_hexes, state.loss_hexes
    state.moved_hexes, state.loss_hexes = [], []
    events.append(Event(kind="phase", text=f"{turn_text(state)}: {seat} moves ({state.ends[seat]} end)"))
    movement.start_movement(state, seat, events)


def end_movement(state: State, seat: str, dice: Dice, events: list[Event]) -> None:
    """5.00 step 2: disrupted units turn right side up; charges without a target lapse; attacks begin."""
    idx = Index(state)
    for c in state.mine(seat):
        c.disrupted = False
        if c.charging and c.where == "map":
            h = geo().hex_of[c.hex]
            if not any(in_front(h, c.facing, n) and idx.side_at(n) not in (None, seat) for n in geo().nbrs[h]):
                c.charging = False
                events.append(Event(kind="charge", text=f"{describe(c)} has no enemy in front: its charge lapses (rule 8.021)"))
    state.combats, state.plan, state.loss_hexes = [], [], []
    results.record_rear_threats(state, seat)
    state.step = "attack"
    events.append(Event(kind="phase", text=f"{turn_text(state)}: {seat} attacks"))
    if not attack_choices(state, Index(state), seat):
        start_combat(state, seat, dice, events)


def start_combat(state: State, seat: str, dice: Dice, events: list[Event]) -> None:
    """5.00 (b): the announced attacks are resolved one by one."""
    results.lock_in(state, seat, events)
    state.step = "combat"
    run(state, dice, events)


def run(state: State, dice: Dice, events: list[Event]) -> None:
    """Carry the combat phase on until a player must decide, then end the turn."""
    seat = state.active
    while state.step == "combat":
        if state.queue:
            if results.auto(state, state.queue[0], dice, events):
                state.queue.pop(0)
                continue
            return
        if state.current < len(state.combats):
            if not state.combats[state.current].result:
                if state.combat == "dice":
                    dicecombat.open_round(state, state.current, seat, dice, events)
                else:
                    results.roll(state, state.current, seat, dice, events)
            else:
                results.finish_combat(state, state.current, events)
                state.current += 1
            continue
        if state.rear_threats:
            results.rear_penalties(state, seat, events)
            continue
        end_turn(state, events)


def end_turn(state: State, events: list[Event]) -> None:
    """The other player's turn, unless the game is over (4.03-4.05, turn limit)."""
    nxt = movement.enemy_of(state, state.active)
    if state.turn_limit and state.turn >= 2 * state.turn_limit:
        finish(state, f"the agreed limit of {state.turn_limit} turns is reached", events)
        return
    if state.first_off and state.turn >= 2:
        # 4.05: gone once nothing of the side is on the map and no combat unit still waits to enter
        gone = [
            s for s in SEATS
            if not any(c.where == "map" or (c.where == "reserve" and c.type != "W") for c in state.mine(s))
        ]
        if gone:
            stay = [s for s in SEATS if s not in gone]
            for s in stay:
                # 4.05: the player still on the map credits every chit left on it.
                for ch in state.chits.values():
                    if not ch.off_by:
                        ch.off_by, ch.carriers, ch.hex = s, [], ""
            finish(state, f"all of {', '.join(gone)}'s units have left the map (rule 4.05)", events)
            return
    begin_turn(state, nxt, state.turn + 1, events)


def check_end(state: State, events: list[Event]) -> None:
    """4.01/4.03 and 4.04: the game ends when enough (or all) of the chits are off the map."""
    if state.step == "over" or not state.ends.get(SEATS[0]):
        return
    sc = scenario(state)
    originals = [ch for ch in state.chits.values() if ch.original]
    if not state.advanced:
        for s in SEATS:
            if food.chits_off(state, s) >= sc.chits_to_win:
                finish(state, f"{s} has carried {sc.chits_to_win} Harvest Chits off the map (rule {sc.rule})", events)
                return
        if originals and all(ch.off_by for ch in originals):
            finish(state, "all Harvest Chits are off the map (rule 4.03)", events)
    elif not state.first_off and originals and all(ch.off_by for ch in originals):
        finish(state, "all the Harvest Chits of the setup are off the map (rule 4.04)", events)


def finish(state: State, reason: str, events: list[Event]) -> None:
    """Score the game (4.01 or 4.02) and stop."""
    if state.advanced:
        state.score = {s: food.points(state, s) for s in SEATS}
    else:
        state.score = {s: food.chits_off(state, s) for s in SEATS}
    a, b = (state.score[s] for s in SEATS)
    state.winner = SEATS[0] if a > b else SEATS[1] if b > a else ""
    state.over_reason = reason
    state.step = "over"
    who = f"{state.winner} wins" if state.winner else "a draw"
    scores = ", ".join(f"{s} {v}" for s, v in state.score.items())
    events.append(Event(kind="end", text=f"The game is over: {reason}. {who} ({scores})."))
