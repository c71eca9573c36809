"""The ``combat: dice`` option: step-reduction dice in place of the CRT (RULINGS, "The two combat systems").

Dice are the attack strength as Chitin counts it (a charge doubles it); the rear attack (7.041) and
the class add (7.042) are each one re-roll advantage instead of points; each six is a hit and a hit
removes one unit, its owner choosing. The defender accepts and counter-attacks, or retreats (one hit
ignored for every two retreating units) with or without a counter-attack at half strength rounded
up; after a counter-attack the attacker accepts its hits or retreats the same way. Retreats and
advances follow 7.066; nothing is disrupted except chargers after their charge (8.024).
"""

from __future__ import annotations

from engine.combat.stepdice import half_strength, reduced_hits, roll_hits
from engine.core.dice import Dice
from engine.core.protocol import Event
from engine.games.chitin.board import is_ground, role, strength
from engine.games.chitin.results import advance_task, alive, retreat_choices, stacks_of
from engine.games.chitin.state import State, Task

DEFENCES = ("accept_and_counter", "retreat", "retreat_and_counter")
"""A stack of Workers only cannot counter-attack: it may ``accept`` or ``retreat``."""


def open_round(state: State, i: int, seat: str, dice: Dice, events: list[Event]) -> None:
    """The attacker rolls its dice; the defender is asked how to answer."""
    cb = state.combats[i]
    att, dfn = alive(state, cb.attackers), alive(state, cb.defenders)
    if not att or not dfn:
        cb.result = "none"
        return
    volley = roll_hits(dice, cb.dice, cb.rerolls, f"attack on {', '.join(sorted({c.hex for c in dfn}))}")
    cb.result = f"{volley.hits} hits"
    events.append(Event(kind="combat", text=f"{seat} attacks with {volley.text()}", hexes=tuple(sorted({c.hex for c in att + dfn}))))
    state.queue.append(Task(kind="defend", seat=dfn[0].side, n=volley.hits, combat=i, rule="7.06"))


def can_retreat(state: State, ids: list[str], seat: str) -> bool:
    """Whether every stack of these counters has somewhere to retreat to (7.066)."""
    return all(retreat_choices(state, Task(kind="retreat", seat=seat, units=st)) for st in stacks_of(state, ids))


def counter_strength(state: State, ids: list[str]) -> int:
    """Dice of a counter-attack: the defenders' strength without the Workers, who never attack (2.023, RULINGS Chitin 12)."""
    return sum(strength(c) for c in alive(state, ids) if role(c) != "worker")


def defence_choices(state: State, task: Task, attacker: str) -> list[str]:
    """The defender's answers; retreats only when a retreat is open, counter-attacks only with something to attack with."""
    cb = state.combats[task.combat]
    ok = can_retreat(state, cb.defenders, attacker)
    if not counter_strength(state, cb.defenders):
        return ["accept"] + (["retreat"] if ok else [])
    return [c for c in DEFENCES if ok or not c.startswith("retreat")]


def defend(state: State, task: Task, choice: str, attacker: str, dice: Dice, events: list[Event]) -> None:
    """The defender's answer: hits taken, perhaps a counter-attack, then the attacker's choice and advances."""
    cb = state.combats[task.combat]
    defender = task.seat
    dfn = alive(state, cb.defenders)
    retreating = choice not in ("accept_and_counter", "accept")
    hits = reduced_hits(task.n, sum(c.units for c in dfn)) if retreating else task.n
    events.append(Event(kind="defend", text=f"{defender} answers: {choice.replace('_', ' ')}, taking {hits} of {task.n} hits"))
    after = [Task(kind="loss", seat=defender, units=[c.id for c in dfn], n=hits, rule="7.063", combat=task.combat)]
    if retreating:
        after += [Task(kind="retreat", seat=attacker, units=st, rule="7.066", combat=task.combat) for st in stacks_of(state, cb.defenders)]
    if choice.endswith("counter"):
        full = counter_strength(state, cb.defenders)
        volley = roll_hits(dice, half_strength(full) if retreating else full, 0, "counter-attack")
        events.append(Event(kind="combat", text=f"{defender} counter-attacks with {volley.text()}"))
        cb.result += f", {volley.hits} back"
        if volley.hits:
            after.append(Task(kind="press", seat=attacker, n=volley.hits, combat=task.combat, rule="7.06"))
    # 5.00 (b), 7.066: the attacker may advance once all hits are in (the counter-attack's come first).
    after.append(_advance(state, attacker, cb.defenders, cb.attackers, task.combat))
    state.queue[1:1] = after


def attacker_choices(state: State, task: Task, defender: str) -> list[str]:
    """After a counter-attack: accept the hits, or retreat with reduced hits if a retreat is open."""
    cb = state.combats[task.combat]
    return ["accept"] + (["retreat"] if can_retreat(state, cb.attackers, defender) else [])


def press(state: State, task: Task, choice: str, defender: str, events: list[Event]) -> None:
    """The attacker takes the counter-attack's hits, or retreats with one ignored per two units."""
    cb = state.combats[task.combat]
    att = alive(state, cb.attackers)
    hits = reduced_hits(task.n, sum(c.units for c in att)) if choice == "retreat" else task.n
    events.append(Event(kind="press", text=f"{task.seat} {'retreats' if choice == 'retreat' else 'stands'}, taking {hits} of {task.n} hits"))
    after = [Task(kind="loss", seat=task.seat, units=[c.id for c in att], n=hits, rule="7.063", combat=task.combat)]
    if choice == "retreat":
        after += [Task(kind="retreat", seat=defender, units=st, rule="7.066", combat=task.combat) for st in stacks_of(state, cb.attackers)]
    after.append(_advance(state, defender, cb.attackers, cb.defenders, task.combat))
    state.queue[1:1] = after


def _advance(state: State, winner: str, losers: list[str], winners: list[str], i: int) -> Task:
    hexes = sorted({c.hex for c in alive(state, losers) if is_ground(c)})
    units = [c.id for c in alive(state, winners) if is_ground(c)]
    return advance_task(state, winner, units, losers, hexes, i)
