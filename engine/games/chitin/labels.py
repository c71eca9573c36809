"""Button words for Chitin: I orders ("Attack 0913 from 0914", "Cancel attack 0914→0913", "Face S at 0818")."""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.labels import default_label, default_style, is_hex
from engine.core.protocol import Action, ButtonStyle

_CHOICES = {"first": "Move first", "north": "North end", "south": "South end",
            "accept": "Accept the hits", "retreat": "Retreat", "accept_and_counter": "Accept and counter-attack",
            "retreat_and_counter": "Retreat and counter-attack"}


def _stack(text: object) -> str:
    """A stack named by its hex (``0818``) or by counter ids (``R3+R7``)."""
    return f"the stack in {text}" if is_hex(text) else str(text).replace("+", " + ")


def label(action: Action) -> str:
    """The words on a button for one Chitin order."""
    a = {k: str(v) for k, v in action.args.items()}
    v = action.verb
    if v in ("pick", "drop") and "kind" in a:
        from engine.games.chitin.data import kind_points

        return f"{v.capitalize()} {a['kind']} ({kind_points(a['kind'])} pts)"
    if v == "ready":
        return "Ready: commit my army"
    if v == "choose" and "pick" in a:
        return _CHOICES.get(a["pick"], f"Choose {a['pick']}")
    if v in ("move", "charge", "retreat") and {"stack", "to"} <= a.keys():
        where = "off the map" if a["to"] == "off" else f"to {a['to']}"
        return f"{v.capitalize()} {_stack(a['stack'])} {where}"
    if v == "fly" and {"unit", "to"} <= a.keys():
        return f"Fly {a['unit']} to {a['to']}"
    if v == "overrun" and {"stack", "on"} <= a.keys():
        return f"Overrun {a['on']} from {a['stack']}"
    if v == "face" and "dir" in a:
        return f"Face {a['dir']} at {a['stack']}" if "stack" in a else f"Face {a['dir']}"
    if v == "attack" and {"by", "on"} <= a.keys():
        target = "the air units" if a["on"] == "air" else a["on"]
        return f"Attack {target} from {a['by']}" if is_hex(a["by"]) else f"Attack {target} with {a['by']}"
    if v == "cancel" and {"by", "on"} <= a.keys():
        return f"Cancel attack {a['by']}→{a['on']}"
    if v == "lose" and "unit" in a:
        return f"Lose a unit of {a['unit']}"
    if v == "advance" and {"stack", "to"} <= a.keys():
        facing = f" facing {a['dir']}" if "dir" in a else ""
        return f"Advance {a['stack']} to {a['to']}{facing}"
    if v in ("defend", "press") and "choice" in a:
        return _CHOICES.get(a["choice"], a["choice"].replace("_", " ").capitalize())
    return default_label(action)


def style(action: Action) -> ButtonStyle:
    """Losses and ends of a step are red; a cancelled attack is a side choice."""
    if action.verb == "lose":
        return "danger"
    if action.verb == "cancel":
        return "secondary"
    return default_style(action)


def caution(state: BaseModel, seat: str, action: Action) -> str:
    """7.05: the ``/done`` that ends a player's movement, or their attack declarations, while a stack of
    theirs has enemy warriors behind it that are not (or cannot yet be) attacked: that stack will lose a
    unit at the end of the combat phase. Asked before, while facing and attacks can still change."""
    from engine.games.chitin import results
    from engine.games.chitin.board import Index
    from engine.games.chitin.combat import battles
    from engine.games.chitin.state import State

    if action.verb != "done" or not isinstance(state, State) or state.active != seat:
        return ""
    if state.step == "move":
        threats, targets = results.rear_threats(state, seat), set()
        when = "unless attacks you declare take them on"
    elif state.step == "attack":
        # the hexes the declared attacks fight, with the stacks an air attack draws in (8.015)
        threats, targets = state.rear_threats, {d for b in battles(state, Index(state), seat) for d in b.defenders}
        when = "as no attack is declared on them"
    else:
        return ""
    lines = []
    for key, enemies in sorted(threats.items()):
        left = sorted({state.counters[e].hex for e in enemies
                       if e in state.counters and state.counters[e].where == "map"
                       and state.counters[e].hex not in targets})
        if left and results.alive(state, key.split("+")):
            lines.append(f"your stack {key.replace('+', ' + ')} has enemies behind it in {', '.join(left)}: "
                         f"it will lose one unit at the end of combat {when} (rule 7.05)")
    return "; ".join(lines)
