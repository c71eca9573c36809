"""The turn sequence (3.0): entering and leaving steps, skipping empty ones, ten turns, victory (10.0)."""

from __future__ import annotations

from engine.core.dice import Dice, FixedDice
from engine.core.protocol import Event
from engine.games.annihilator import data
from engine.games.annihilator.demolition import detonate, order_text
from engine.games.annihilator.legal import STEPS, has_choice
from engine.games.annihilator.state import State

LAST_TURN = 10  # 10.0

# 3.0: the seven steps of a game turn; "detonate" and "end_turn" need no decision.
NEXT = {
    "deploy": "land",
    "land": "h_move",
    "h_move": "h_combat",
    "h_combat": "detonate",
    "detonate": "h_advance",
    "h_advance": "a_advance",
    "a_advance": "h_demo",
    "h_demo": "a_move",
    "a_move": "a_combat",
    "a_combat": "a_repair",
    "a_repair": "end_turn",
    "end_turn": "h_move",
}

PHASE_NAMES = {
    "deploy": "Annihilator set-up (4.1)",
    "land": "impact rolls (4.2)",
    "h_move": "human movement (3.0 step 1)",
    "h_combat": "human close combat (step 2)",
    "h_advance": "human advance after demolition (step 3, 8.3)",
    "a_advance": "Annihilator advance after demolition (step 3, 8.3)",
    "h_demo": "demolition orders (step 3, 8.1)",
    "a_move": "Annihilator movement (step 4)",
    "a_combat": "Annihilator close combat and Mind Weapon (step 5)",
    "a_repair": "Annihilator repair (step 6)",
    "over": "game over",
}


def proceed(state: State, dice: Dice) -> list[Event]:
    """Leave the current step and enter the next one that waits on a decision (``state`` is a copy)."""
    events: list[Event] = []
    while True:
        _leave(state, events)
        step = NEXT[state.step]
        state.step = step
        _enter(state, dice, events)
        if check_victory(state, events) or (state.step in STEPS and has_choice(state)):
            break
        if state.step == "h_move" and state.side_units(data.MARINES):
            # the one skipped step a player would miss: say why the Marines do not move this turn
            why = (" (disrupted units may not move for one game turn: Combat Effect Table, RULINGS Annihilator 6)"
                   if all(u.disrupted for u in state.side_units(data.MARINES)) else "")
            events.append(Event(kind="status", text=f"Turn {state.turn}: no Marine can move{why}, so the human "
                                "movement is skipped"))
    if state.step != "over":
        turn = f"Turn {state.turn}: " if state.turn else ""
        events.append(Event(kind="phase", text=f"{turn}{PHASE_NAMES[state.step]}"))
    return events


def charges_go_off_next(state: State) -> bool:
    """Whether ending the human player's current step (movement or close combat) sets the charges
    off at once (8.1): every step between has nothing to decide and is skipped (3.0). Worked on a
    copy; no die is rolled."""
    if state.step not in ("h_move", "h_combat"):
        return False
    trial = state.model_copy(deep=True)
    events: list[Event] = []
    while True:
        _leave(trial, events)
        trial.step = NEXT[trial.step]
        if trial.step == "detonate":
            return True
        _enter(trial, FixedDice([]), events)
        if trial.step in STEPS and has_choice(trial):
            return False


def _leave(state: State, events: list[Event]) -> None:
    step = state.step
    if step in ("h_move", "a_move", "h_advance", "a_advance"):
        for u in state.units.values():
            u.mp = 0.0
            u.arrived = False
    if step == "a_advance":
        state.fresh = []
    if step == "h_demo":
        events.extend(_seal_orders(state))


# The order of the steps within a game turn, for lifting disruptions (RULINGS Annihilator 6).
TURN_ORDER = ("h_move", "h_combat", "detonate", "h_advance", "a_advance", "h_demo", "a_move", "a_combat",
              "a_repair", "end_turn")


def lift_disruption(state: State, events: list[Event]) -> None:
    """Combat Effect Table, D, "for one game turn" (RULINGS Annihilator 6): a human disrupted at a step of
    turn T is free again from that same step of turn T+1."""
    if state.step not in TURN_ORDER:
        return
    now = (state.turn, TURN_ORDER.index(state.step))
    freed = []
    for u in state.side_units(data.MARINES):
        if not u.disrupted:
            continue
        if u.disrupted_step in TURN_ORDER:
            due = now >= (u.disrupted_turn + 1, TURN_ORDER.index(u.disrupted_step))
        else:  # no record (a game saved before it was kept): after the human close combat phase, as it was
            due = state.step == "detonate"
        if due:
            u.disrupted, u.disrupted_turn, u.disrupted_step = False, 0, ""
            freed.append(u.id)
    if freed:
        events.append(Event(kind="status", text=f"{', '.join(freed)} no longer disrupted: a game turn has passed "
                            "(Combat Effect Table, RULINGS Annihilator 6)"))


def _enter(state: State, dice: Dice, events: list[Event]) -> None:
    step = state.step
    if step != "end_turn":
        lift_disruption(state, events)
    if step in ("h_move", "a_move"):
        side = data.MARINES if step == "h_move" else data.ANNIHILATOR
        state.last_marks, state.marks = state.marks, []
        _refill(state, side)
    elif step in ("h_advance", "a_advance"):
        _refill(state, data.MARINES if step == "h_advance" else data.ANNIHILATOR)
    elif step in ("h_combat", "a_combat"):
        state.fought = []
        state.mind_used = False
    elif step == "detonate":
        events.extend(_detonate_all(state, dice))
    elif step == "h_demo":
        state.orders = []
        state.sealed = False
    elif step == "a_repair":
        state.repaired = []
    elif step == "end_turn":
        if state.turn >= LAST_TURN:
            _finish(state, None, f"neither side won in {LAST_TURN} game turns: a draw (rule 10.0)", events)
        else:
            state.turn += 1


def _refill(state: State, side: str) -> None:
    """5.1: each unit may move up to its Movement Factor; 8.3: the same for an advance."""
    for u in state.side_units(side):
        u.mp = 0.0 if u.disrupted else float(u.utype.movement)
        u.arrived = False


def _seal_orders(state: State) -> list[Event]:
    """8.1: the orders become charges; announced now, or (hidden_charges) only as markers."""
    events: list[Event] = []
    for o in state.orders:
        state.units[o.unit].charges -= 1
        state.units[o.unit].leave = o.at
        state.charges.append(o)
    orders, state.orders = state.orders, []
    if orders and state.hidden_charges:
        hexes = ", ".join(o.at for o in orders)
        events.append(Event(kind="charges", text=f"Demolition charges are set in {hexes}; their patterns stay "
                            "hidden until they go off (option hidden_charges, rule 8.1)",
                            hexes=tuple(o.at for o in orders)))
        events.append(Event(kind="orders", to=(data.MARINES,), text="Your charges: "
                            + "; ".join(order_text(o) for o in orders)))
    elif orders or state.sealed:
        text = "; ".join(order_text(o) for o in orders) if orders else "no charges set"
        events.append(Event(kind="reveal", text=f"Demolition orders (rule 8.1): {text}",
                            hexes=tuple(o.at for o in orders)))
    state.sealed = False
    return events


def _detonate_all(state: State, dice: Dice) -> list[Event]:
    """8.1: the charges set in the previous demolition phase go off; 8.2 their effects."""
    events: list[Event] = []
    live = [c for c in state.charges if c.turn < state.turn]
    if live and state.hidden_charges:
        events.append(Event(kind="reveal", text="The hidden charges were (rule 8.1): "
                            + "; ".join(order_text(c) for c in live)))
    fresh: list[str] = []
    for c in live:
        opened, ev = detonate(state, c, dice)
        fresh.extend(h for h in opened if h not in fresh)
        events.append(ev)
        if state.units[c.unit].leave == c.at:
            state.units[c.unit].leave = ""
    state.charges = [c for c in state.charges if c.turn >= state.turn]
    state.fresh = fresh
    return events


def check_victory(state: State, events: list[Event]) -> bool:
    """10.0: both brain cores destroyed, or every human unit eliminated; True once the game is over."""
    if state.step == "over":
        return True
    if len(set(state.destroyed)) >= len(data.core_hexes()):
        _finish(state, data.MARINES, "both brain core hexes are destroyed: the Marines win (rule 10.0)", events)
    elif state.turn >= 1 and not state.side_units(data.MARINES):
        _finish(state, data.ANNIHILATOR, "every human unit is eliminated: the Annihilator wins (rule 10.0)", events)
    return state.step == "over"


def _finish(state: State, winner: str | None, reason: str, events: list[Event]) -> None:
    pending = state.charges + state.orders
    if pending and (state.hidden_charges or state.orders):
        events.append(Event(kind="reveal", text="Charges that never went off: "
                            + "; ".join(order_text(c) for c in pending)))
    state.step = "over"
    state.winner = winner
    state.reason = reason
    events.append(Event(kind="end", text=reason))
