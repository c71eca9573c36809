"""Resolving the announced combats (5.00, 7.05-7.066, 8.013, 8.024): die, results, losses, retreats."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.odds import odds
from engine.core.odds import result as crt_result
from engine.core.protocol import Event
from engine.games.chitin.board import DIRS, Index, T, describe, geo, in_rear, is_ground, role
from engine.games.chitin.combat import (
    attackers_of,
    battle_dice,
    battle_odds,
    battles,
    defenders_of,
    target_key,
)
from engine.games.chitin.data import crt
from engine.games.chitin.food import kill
from engine.games.chitin.movement import enemy_of, fits, group_id
from engine.games.chitin.state import Combat, Counter, State, Task


def _spot(state: State, key: str) -> str:
    """The hex an attacker or defender key is drawn at."""
    if key in state.counters:
        return state.counters[key].hex
    if key.startswith("air@"):
        return key[4:]
    return key


def lock_in(state: State, seat: str, events: list[Event]) -> None:
    """5.00 (a): the plan becomes the turn's combats, each with its odds announced."""
    idx = Index(state)
    state.combats = []
    for b in battles(state, idx, seat):
        lookup, _ = battle_odds(state, idx, seat, b)
        dice, rerolls, dfn_strength, _ = battle_dice(state, idx, seat, b)
        att = [c.id for k in b.attackers for c in attackers_of(state, idx, seat, k)]
        dfn = [c.id for k in b.defenders for c in defenders_of(state, idx, seat, k)]
        arrows = [(_spot(state, p.by), _spot(state, target_key(state, idx, p))) for p in b.pairs]
        arrows += [(_spot(state, p.by), x) for p in b.pairs if p.by in state.counters and p.on != "air" for x in b.extra]
        combat = Combat(
            attackers=att,
            defenders=dfn,
            arrows=sorted(set(arrows)),
            charge=[i for i in att if state.counters[i].charging],
            attack=lookup.attack,
            defence=lookup.defence,
            odds=lookup.label,
        )
        if state.combat == "dice":
            combat.dice, combat.rerolls, combat.attack, combat.defence = dice, rerolls, dice, dfn_strength
            combat.odds = f"{dice} dice" + (f", {rerolls} re-roll{'s' if rerolls > 1 else ''}" if rerolls else "")
        state.combats.append(combat)
        events.append(Event(kind="attack", text=f"{seat} attacks {', '.join(b.defenders)}: {combat.attack} to {combat.defence} ({combat.odds})", hexes=tuple(sorted({h for a in combat.arrows for h in a}))))
    state.plan = []
    state.current = 0


def alive(state: State, ids: list[str]) -> list[Counter]:
    """The counters of ``ids`` still on the map."""
    return [state.counters[i] for i in ids if state.counters[i].where == "map" and state.counters[i].units > 0]


def stacks_of(state: State, ids: list[str]) -> list[list[str]]:
    """The whole stacks holding these counters (7.066: a stack never splits in retreat); air units one by one."""
    out: list[list[str]] = []
    seen: set[str] = set()
    for c in alive(state, ids):
        if c.id in seen:
            continue
        if is_ground(c):
            st = [x.id for x in state.counters.values() if x.where == "map" and x.hex == c.hex and x.side == c.side and is_ground(x)]
        else:
            st = [c.id]
        seen.update(st)
        out.append(st)
    return out


def roll(state: State, i: int, seat: str, dice: Dice, events: list[Event]) -> None:
    """5.00 (b), 7.062: the attacker rolls one die; the result becomes tasks for the players."""
    cb = state.combats[i]
    att, dfn = alive(state, cb.attackers), alive(state, cb.defenders)
    if not att or not dfn:
        cb.result = "none"
        return
    enemy = enemy_of(state, seat)
    table = crt()
    lookup = odds(table, cb.attack, cb.defence)
    spots = tuple(sorted({c.hex for c in att + dfn}))
    if lookup.column is None:
        # RULINGS Chitin 12: a result that needs no die (5-1 and better, 1-5 to 1-4) rolls none
        res = crt_result(table, lookup, 1)
        cb.die, cb.result = 0, res
        events.append(Event(kind="combat", text=f"{cb.attack} to {cb.defence}: {res} without a roll ({table.results.get(res, res)})", hexes=spots))
    else:
        die = dice.roll(6, f"combat on {', '.join(sorted({c.hex for c in dfn}))} at {cb.odds}")
        res = crt_result(table, lookup, die)
        cb.die, cb.result = die, res
        events.append(Event(kind="combat", text=f"{seat} rolls {die} at {cb.odds}: {res} ({table.results.get(res, res)})", hexes=spots))
    loser_ids, loser, winner = (cb.attackers, seat, enemy) if res.startswith("A") else (cb.defenders, enemy, seat)
    losing = alive(state, loser_ids)
    before = sorted({c.hex for c in losing if is_ground(c)})
    if res in ("AE", "DE"):
        for c in losing:
            kill(state, c, c.units, dice, events, "eliminated, rule 7.06")
    elif res[1] == "-":
        state.queue.append(Task(kind="loss", seat=loser, units=[c.id for c in losing], n=int(res[2:]), rule="7.063", combat=i))
    elif res in ("AR", "DR"):
        for st in stacks_of(state, loser_ids):
            state.queue.append(Task(kind="retreat", seat=winner, units=st, rule="7.066", combat=i))
    else:
        _disrupt(state, loser_ids, winner, i, events)
    winners = [c.id for c in alive(state, cb.defenders if loser != enemy else cb.attackers) if is_ground(c)]
    state.queue.append(advance_task(state, winner, winners, loser_ids, before, i))


def advance_task(state: State, seat: str, winners: list[str], losers: list[str], hexes: list[str], i: int) -> Task:
    """5.00 (b), 7.066: once the results are in, the winner may advance into a vacated hex or turn."""
    units = sum(c.units for c in alive(state, losers) if is_ground(c))
    return Task(kind="advance", seat=seat, units=winners, hexes=hexes, losers=losers, n=units, rule="7.066", combat=i)


def _disrupt(state: State, ids: list[str], mover: str, i: int, events: list[Event]) -> None:
    """7.064, 7.065, 8.013: warriors are disrupted; air units and stacks without warriors retreat instead."""
    for st in stacks_of(state, ids):
        units = [state.counters[x] for x in st]
        warriors = [c for c in units if role(c) == "warrior"]
        if warriors:
            for c in warriors:
                c.disrupted = True
            events.append(Event(kind="disrupt", text=f"Disrupted: {', '.join(describe(c) for c in warriors)} in {units[0].hex} (rule 7.064)", hexes=(units[0].hex,)))
        else:
            state.queue.append(Task(kind="retreat", seat=mover, units=st, rule="7.065", combat=i))


def retreat_choices(state: State, task: Task) -> list[str]:
    """Hexes (or megahexes, for air units) the enemy player may retreat this stack into (7.066, 8.013)."""
    g = geo()
    units = alive(state, task.units)
    if not units:
        return []
    here = g.hex_of[units[0].hex]
    if not is_ground(units[0]):
        return [T(g.anchor[m]) for m in g.mega_nbrs[g.mega[here]]]
    idx = Index(state)
    owner = units[0].side
    return [T(n) for n in g.nbrs[here] if idx.side_at(n) in (None, owner) and fits(idx, owner, units, n)]


def do_retreat(state: State, task: Task, to: str, events: list[Event]) -> None:
    """Move a retreating stack one hex (or megahex)."""
    units = alive(state, task.units)
    src = units[0].hex
    join = [c for c in state.counters.values() if c.where == "map" and c.hex == to and c.side == units[0].side and is_ground(c)]
    for c in units:
        c.hex = to
        if join:
            c.facing = join[0].facing  # 6.06: a stack retreating onto friends takes their facing
    events.append(Event(kind="retreat", text=f"{', '.join(describe(c) for c in units)} {'retreats' if len(units) == 1 else 'retreat'} from {src} to {to} (rule {task.rule})", hexes=(src, to)))


def vacated(state: State, task: Task) -> list[str]:
    """Hexes the loser held in this combat that are now empty of its ground units."""
    idx = Index(state)
    return [h for h in task.hexes if idx.side_at(geo().hex_of[h]) is None]


def advance_choices(state: State, task: Task) -> list[tuple[str, str]]:
    """(winner's stack, vacated hex) pairs open to an advance after combat (7.066)."""
    g = geo()
    idx = Index(state)
    free = vacated(state, task)
    out = []
    for h in sorted({c.hex for c in alive(state, task.units)}):
        members = [c for c in alive(state, task.units) if c.hex == h]
        for v in free:
            if g.hex_of[v] in g.nbrs[g.hex_of[h]] and fits(idx, task.seat, members, g.hex_of[v]):
                out.append((h, v))
    return out


def do_advance(state: State, task: Task, src: str, to: str, facing: int, events: list[Event]) -> None:
    """7.066: the winner's stack from ``src`` moves into the vacated hex and takes a facing."""
    moving = {c.id for c in alive(state, task.units) if c.hex == src}
    for c in state.counters.values():
        if c.id in moving or (c.where == "map" and c.hex == to and c.side == task.seat and is_ground(c)):
            c.hex, c.facing = to, facing  # 6.06: one facing for the whole stack
    task.units = [i for i in task.units if i not in moving]
    events.append(Event(kind="advance", text=f"{task.seat} advances from {src} into {to}, facing {DIRS[facing]} (rule 7.066)", hexes=(src, to)))


def auto(state: State, task: Task, dice: Dice, events: list[Event]) -> bool:
    """Settle a task that leaves no choice; True when it is finished."""
    if task.kind == "loss":
        units = alive(state, task.units)
        total = sum(c.units for c in units)
        if task.n <= 0 or not units:
            return True
        if task.n >= total:
            for c in units:
                kill(state, c, c.units, dice, events, f"rule {task.rule}")
            return True
        if len(units) == 1:
            kill(state, units[0], task.n, dice, events, f"rule {task.rule}")
            return True
        return False
    if task.kind == "retreat":
        units = alive(state, task.units)
        if not units:
            return True
        if not retreat_choices(state, task):
            # 7.066: a stack with nowhere to go loses one unit instead.
            owner = units[0].side
            events.append(Event(kind="surrounded", text=f"The stack in {units[0].hex} cannot retreat and loses one unit instead (rule 7.066)", hexes=(units[0].hex,)))
            state.queue.insert(1, Task(kind="loss", seat=owner, units=[c.id for c in units], n=1, rule="7.066", combat=task.combat))
            return True
        return False
    if task.kind in ("defend", "press"):
        return False  # the dice option's choices (dicecombat)
    if not alive(state, task.units):
        return True
    # Only stacks that eliminated or drove off enemy ground units may advance or turn (5.00 b).
    left = sum(c.units for c in alive(state, task.losers) if is_ground(c) and c.hex in task.hexes)
    return not vacated(state, task) and left >= task.n


def finish_combat(state: State, i: int, events: list[Event]) -> None:
    """8.024: chargers are disrupted once results and advances are done."""
    chargers = alive(state, state.combats[i].charge)
    for c in chargers:
        c.disrupted, c.charging = True, False
    if chargers:
        events.append(Event(kind="disrupt", text=f"After the charge: {', '.join(describe(c) for c in chargers)} disrupted (rule 8.024)"))


def record_rear_threats(state: State, seat: str) -> None:
    """7.05: note every stack that begins the attack phase with an undisrupted enemy warrior behind it."""
    state.rear_threats = rear_threats(state, seat)


def rear_threats(state: State, seat: str) -> dict[str, list[str]]:
    """7.05: each of ``seat``'s stacks with undisrupted enemy warriors behind it now -> their ids."""
    idx = Index(state)
    g = geo()
    out: dict[str, list[str]] = {}
    for h, st in sorted(idx.ground.items()):
        mine = [c for c in st if c.side == seat]
        if not mine:
            continue
        behind = [
            c.id
            for n in g.nbrs[h]
            if in_rear(h, mine[0].facing, n)
            for c in idx.ground.get(n, [])
            if c.side != seat and role(c) == "warrior" and not c.disrupted
        ]
        if behind:
            out[group_id(mine)] = behind
    return out


def rear_penalties(state: State, seat: str, events: list[Event]) -> None:
    """7.05: a stack whose rear enemies were not all attacked loses one unit, its owner choosing."""
    attacked = {d for cb in state.combats for d in cb.defenders}
    for key, enemies in sorted(state.rear_threats.items()):
        survivors = alive(state, key.split("+"))
        if survivors and not all(e in attacked for e in enemies):
            events.append(Event(kind="rear", text=f"{seat}'s stack {key} had enemies behind it that were not attacked: it loses one unit (rule 7.05)", hexes=(survivors[0].hex,)))
            state.queue.append(Task(kind="loss", seat=seat, units=[c.id for c in survivors], n=1, rule="7.05"))
    state.rear_threats = {}
