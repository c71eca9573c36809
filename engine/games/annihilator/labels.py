"""Button words for Annihilator orders ("Move A1 to 1122", "Charge A1: pattern A at 1021 facing N")."""

from __future__ import annotations

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
