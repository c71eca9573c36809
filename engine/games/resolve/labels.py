"""Button words for the stand-alone combat resolvers ("Accept and counter-attack", "Hit A1")."""

from __future__ import annotations

from engine.core.labels import default_label, default_style
from engine.core.protocol import Action, ButtonStyle

_CHOICES = {"accept_and_counter": "Accept and counter-attack", "retreat": "Retreat",
            "retreat_and_counter": "Retreat and counter-attack", "accept": "Accept the hits",
            "advance": "Advance", "hold": "Hold"}


def label(action: Action) -> str:
    """The words on a button for one resolver order."""
    a = {k: str(v) for k, v in action.args.items()}
    if action.verb in ("defend", "respond", "advance") and "choice" in a:
        return _CHOICES.get(a["choice"], a["choice"].replace("_", " ").capitalize())
    if action.verb == "hit" and "unit" in a:
        return f"Hit {a['unit']}"
    if action.verb == "assault":
        return "Roll the close assault"
    return default_label(action)


def style(action: Action) -> ButtonStyle:
    if action.verb == "hit":
        return "danger"
    return default_style(action)
