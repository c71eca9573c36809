"""What each verb does to a copy of the state, once the action is known to be legal."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.dice import Dice
from engine.core.protocol import Action, Event
from engine.games.annihilator import data
from engine.games.annihilator.assault import assault_combat
from engine.games.annihilator.board import Board, is_auto_defend
from engine.games.annihilator.combat import auto_defend, close_combat, mind_weapon
from engine.games.annihilator.demolition import facing_of, order_text
from engine.games.annihilator.flow import check_victory, proceed
from engine.games.annihilator.legal import STEPS, placeable
from engine.games.annihilator.state import Charge, Mark, State, Unit

Handler = Callable[[State, Action, Dice], list[Event]]


def _arg(action: Action, name: str) -> str:
    return str(action.args[name])


def place(state: State, action: Action, dice: Dice) -> list[Event]:
    """4.1: set a robot up in any hex robots may enter."""
    u = state.unit(_arg(action, "unit"))
    u.hex = _arg(action, "at")
    return [Event(kind="setup", text=f"{u.describe()} is set up in {u.hex}", hexes=(u.hex,))]


def lift(state: State, action: Action, dice: Dice) -> list[Event]:
    """4.1: take a robot back off the map to set it up elsewhere."""
    u = state.unit(_arg(action, "unit"))
    old, u.hex = u.hex, ""
    return [Event(kind="setup", text=f"{u.describe()} is taken back from {old}", hexes=(old,))]


def autodeploy(state: State, action: Action, dice: Dice) -> list[Event]:
    """4.1: put every robot not yet set up in its default hex (or the first hex with room)."""
    board = Board(state)
    default = data.deployment().units
    placed = []
    for u in state.side_units(data.ANNIHILATOR):
        if u.hex:
            continue
        want = default.get(u.id, "")
        if not want or not board.room(want, data.ANNIHILATOR):
            want = next(h for h in placeable() if board.room(h, data.ANNIHILATOR))
        u.hex = want
        board.count[(want, data.ANNIHILATOR)] += 1
        placed.append(f"{u.id} {want}")
    return [Event(kind="setup", text="Default deployment: " + ", ".join(placed))]


def ready(state: State, action: Action, dice: Dice) -> list[Event]:
    """4.1 done: the human player rolls for the impacts next."""
    return [Event(kind="setup", text="The Annihilator is ready")] + proceed(state, dice)


def land(state: State, action: Action, dice: Dice) -> list[Event]:
    """4.2: three impacts, each a die for the side and two dice for the hull hex."""
    squads = [("A1", "A2", "D1"), ("A3", "A4", "D2"), ("A5", "A6", "D3")]
    lines = []
    for i, ids in enumerate(squads, start=1):
        side = dice.roll(6, f"impact {i}: side")
        number = dice.roll(6, f"impact {i}: hull hex") + dice.roll(6, f"impact {i}: hull hex")
        hex_no = data.impact_hex(side, number)
        if hex_no not in state.impacts:
            state.impacts.append(hex_no)
        for uid in ids:
            state.units[uid].hex = hex_no
        state.marks.append(Mark(hex=hex_no, kind="impact"))
        lines.append(f"impact {i}: side {side}, hull hex {number} = {hex_no} ({', '.join(ids)})")
    state.turn = 1
    events = [Event(kind="landing", text="Assault ships strike (rule 4.2): " + "; ".join(lines),
                    hexes=tuple(state.impacts))]
    return events + proceed(state, dice)


def _walk(state: State, u: Unit, path: tuple[str, ...], cost: float, dice: Dice, fire: bool) -> list[Event]:
    """Move ``u`` along ``path``; auto-defend hexes fire on humans as they enter (7.3)."""
    events: list[Event] = []
    start = u.hex
    for hex_no in path:
        u.hex = hex_no
        if fire and u.human and is_auto_defend(state, hex_no):
            res, ev = auto_defend(state, u, hex_no, dice)
            events.append(ev)
            if res != "NE":
                break  # disrupted or eliminated: it moves no further
    if u.alive and not u.disrupted:
        u.mp = max(0.0, u.mp - cost)
        if any(o.side != u.side for o in state.at(u.hex)):
            u.mp = 0.0  # 5.4: entering a hex with enemy units ends the move
    u.arrived = u.alive
    state.marks.append(Mark(hex=start, kind="moved"))
    state.marks.append(Mark(hex=u.hex, kind="moved"))
    text = f"{u.describe()} moves {start} to {u.hex}" if u.alive else f"{u.describe()} set out from {start}"
    return [Event(kind="move", text=text, hexes=(start, u.hex))] + events


def move(state: State, action: Action, dice: Dice) -> list[Event]:
    """5.1-5.4: move one unit along its cheapest route."""
    u = state.unit(_arg(action, "unit"))
    route = Board(state).route(u, u.mp, _arg(action, "to"))
    return _walk(state, u, route.path, route.cost, dice, fire=True)


def advance(state: State, action: Action, dice: Dice) -> list[Event]:
    """8.3: advance into hexes the demolition just cleared, at normal costs."""
    u = state.unit(_arg(action, "unit"))
    route = Board(state).route(u, u.mp, _arg(action, "to"), only=state.fresh)
    return _walk(state, u, route.path, route.cost, dice, fire=False)


def recover(state: State, action: Action, dice: Dice) -> list[Event]:
    """8.5: an Assault Squad tries to recover a fallen Demolition Squad's charges."""
    u = state.unit(_arg(action, "unit"))
    name = u.describe()
    cache = state.caches.pop(u.hex)
    die = dice.roll(6, f"{u.id} recovers charges in {u.hex}")
    if die % 2 == 1:
        text = f"{name} rolls {die}: the charges in {u.hex} are lost for good (rule 8.5)"
    else:
        own = u.charges
        u.kind = "demolition"
        u.charges = min(3, cache + own)
        text = (f"{name} rolls {die}: it is now a Demolition Squad with {u.charges} charges "
                "for any pattern (rule 8.5)")
    return [Event(kind="recover", text=text, hexes=(u.hex,))]


def attack(state: State, action: Action, dice: Dice) -> list[Event]:
    """7.1: close combat in one hex."""
    side = STEPS[state.step][0]
    if state.close_combat == "assault":  # RULINGS: the close assault system replaces the CRT here only
        return assault_combat(state, _arg(action, "at"), side, dice, str(action.args.get("pairs", "")))
    return close_combat(state, _arg(action, "at"), side, dice)


def mind(state: State, action: Action, dice: Dice) -> list[Event]:
    """7.2: the Mind Weapon."""
    return mind_weapon(state, _arg(action, "at"), dice)


def charge(state: State, action: Action, dice: Dice) -> list[Event]:
    """8.1: a sealed demolition order."""
    order = Charge(unit=_arg(action, "unit"), pattern=_arg(action, "pattern"), at=_arg(action, "at"),
                   facing=facing_of(_arg(action, "facing")), turn=state.turn)
    state.orders.append(order)
    state.sealed = True
    return [Event(kind="committed", text=f"{data.MARINES} have given a demolition order"),
            Event(kind="order", to=(data.MARINES,), text=f"Your order: {order_text(order)}",
                  hexes=(order.at,))]


def cancel(state: State, action: Action, dice: Dice) -> list[Event]:
    """8.1: take back a sealed order before the phase ends."""
    uid = _arg(action, "unit")
    state.orders = [o for o in state.orders if o.unit != uid]
    state.sealed = True
    return [Event(kind="committed", text=f"{data.MARINES} have changed their demolition orders"),
            Event(kind="order", to=(data.MARINES,), text=f"Order of {uid} cancelled")]


def repair(state: State, action: Action, dice: Dice) -> list[Event]:
    """9.0: a Repairbot restores its hex; the marker goes."""
    u = state.unit(_arg(action, "unit"))
    old = state.markers.pop(u.hex)
    state.repaired.append(u.id)
    state.marks.append(Mark(hex=u.hex, kind="repair"))
    name = "Clear" if old == "clear" else "Obstructed Passable"
    return [Event(kind="repair", text=f"Repairbot {u.id} restores {u.hex}: the {name} marker is removed (rule 9.0)",
                  hexes=(u.hex,))]


def done(state: State, action: Action, dice: Dice) -> list[Event]:
    """End the current step."""
    return proceed(state, dice)


HANDLERS: dict[str, Handler] = {
    "place": place, "lift": lift, "autodeploy": autodeploy, "ready": ready, "land": land, "move": move,
    "advance": advance, "recover": recover, "attack": attack, "mind": mind, "charge": charge, "cancel": cancel,
    "repair": repair, "done": done,
}


def handle(state: State, action: Action, dice: Dice) -> list[Event]:
    """Apply a legal action to ``state`` (a copy), then check victory (10.0)."""
    events = HANDLERS[action.verb](state, action, dice)
    check_victory(state, events)
    return events
