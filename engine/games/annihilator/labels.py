"""Button words for Annihilator orders ("Move A1 to 1122", "Charge A1: pattern A at 1021 facing N")."""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.labels import default_label, default_style
from engine.core.protocol import Action, ButtonStyle


def label(action: Action) -> str:
    """The words on a button for one Annihilator order."""
    a = {k: str(v) for k, v in action.args.items()}
    v = action.verb
    if v in ("place", "move", "advance") and "unit" in a and ("at" in a or "to" in a):
        where = a.get("at") or a.get("to")
        return f"{v.capitalize()} {a['unit']} {'in' if v == 'place' else 'to'} {where}"
    if v in ("lift", "recover", "repair") and "unit" in a:
        return {"lift": "Lift {u} off the map", "recover": "Recover charges with {u}",
                "repair": "Repair with {u}"}[v].format(u=a["unit"])
    if v == "cancel" and "unit" in a:
        return f"Cancel {a['unit']}'s charge"
    if v == "autodeploy":
        return "Deploy the rest by default"
    if v == "ready":
        return "Ready: set-up done"
    if v == "land":
        return "Roll the impact hexes"
    if v == "attack" and "at" in a:
        return f"Attack in {a['at']}"
    if v == "mind" and "at" in a:
        return f"Mind Weapon on {a['at']}"
    if v == "charge" and {"unit", "pattern", "at"} <= a.keys():
        facing = f" facing {a['facing']}" if "facing" in a else ""
        return f"Charge {a['unit']}: pattern {a['pattern']} at {a['at']}{facing}"
    if v == "done":
        return "Done: end this step"
    return default_label(action)


def style(action: Action) -> ButtonStyle:
    if action.verb == "cancel":
        return "secondary"
    return default_style(action)


def caution(state: BaseModel, seat: str, action: Action) -> str:
    """8.1-8.2: ending the human close combat sets off last turn's charges, and so does ending the
    movement when no close combat is possible (3.0, the step skipped); say which would hit the Marines."""
    from engine.games.annihilator import data
    from engine.games.annihilator.demolition import order_text, pattern_numbers
    from engine.games.annihilator.flow import charges_go_off_next
    from engine.games.annihilator.state import State

    if action.verb != "done" or not isinstance(state, State) or seat != data.MARINES:
        return ""
    if not state.charges or not charges_go_off_next(state):
        return ""
    own: dict[str, list[str]] = {}
    for u in state.side_units(data.MARINES):
        own.setdefault(u.hex, []).append(u.id)
    hurt = []
    for c in (c for c in state.charges if c.turn < state.turn):
        hexes = [h for h in pattern_numbers(c.pattern, c.at, c.facing) if h in own]
        if hexes:
            where = "; ".join(f"{h} ({', '.join(own[h])})" for h in hexes)
            hurt.append(f"{order_text(c)} reaches your own units in {where}")
    if not hurt:
        return ""
    ends = ("close combat and sets off the charges" if state.step == "h_combat"
            else "the movement and, with no close combat possible (rule 3.0), sets off the charges at once")
    return (f"/done ends {ends} (rule 8.1): " + "; ".join(hurt)
            + ". Their results fall on your units too (rule 8.2)")
