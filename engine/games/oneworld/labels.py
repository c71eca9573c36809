"""Button words for OneWorld orders ("Stone ×1", "Blade ×2, Fog ×1", "Move B2 NW into Chaos")."""

from __future__ import annotations

from engine.core.labels import default_label, default_style
from engine.core.protocol import Action, ButtonStyle, GameConfig

_ASPECTS = ("stone", "blade", "fog")


def aspects_label(args: dict[str, str]) -> str:
    """``stone:0 blade:2 fog:1`` -> ``Blade ×2, Fog ×1`` (8.2)."""
    parts = [f"{k.capitalize()} ×{args[k]}" for k in _ASPECTS if str(args.get(k, "0")) not in ("0", "")]
    return ", ".join(parts) or "No Children"


def label(action: Action) -> str:
    """The words on a button for one OneWorld order."""
    a = {k: str(v) for k, v in action.args.items()}
    v = action.verb
    if v == "aspects":
        return aspects_label(a)
    if v == "aspect" and "aspect" in a:
        return a["aspect"].capitalize()
    if v == "order" and "setup" in a:
        return f"Set up {a['setup']}"
    if v == "defend" and "end" in a:
        return f"Defend the {a['end']} end"
    if v == "tower" and "hex" in a:
        return f"Tower in {a['hex']}"
    if v == "gods" and "hex" in a:
        return f"Gods in {a['hex']}"
    if v == "place" and {"hex", "aspect"} <= a.keys():
        return f"Place {a['aspect'].capitalize()} in {a['hex']}"
    if v == "place_all":
        return "Place all remaining Children"
    if v == "done":
        return "Done: set-up complete"
    if v == "end":
        return "End movement"
    if v == "move" and "child" in a:
        if "dir" in a:
            steps = f", stop after {a['steps']}" if "steps" in a else ""
            chaos = " into Chaos (lost)" if a.get("confirm") == "lost" else ""
            return f"Move {a['child']} {a['dir']}{steps}{chaos}"
        if "to" in a:
            return f"Move {a['child']} to {a['to']}"
    if v == "transform" and {"child", "aspect"} <= a.keys():
        return f"Transform {a['child']} to {a['aspect'].capitalize()}"
    if v == "flee" and "to" in a:
        return f"Flee to {a['to']}"
    if v == "fight" and "hex" in a:
        return f"Fight in {a['hex']}"
    return default_label(action)


def style(action: Action) -> ButtonStyle:
    """A Blade run into Chaos (5.6) and the end of a movement are red."""
    if action.verb == "move" and str(action.args.get("confirm", "")) == "lost":
        return "danger"
    return default_style(action)


def offered(config: GameConfig, verb: str) -> bool:
    """God Powers' /transform and Flee While You Can's /flee exist only with their options (12.0)."""
    from engine.games.oneworld.options import parse_options

    if verb not in ("transform", "flee"):
        return True
    try:
        options = parse_options(dict(config.options))
    except Exception:  # a config the set-up refused never gets this far; list everything
        return True
    return options.god_powers != "off" if verb == "transform" else options.flee_while_you_can
