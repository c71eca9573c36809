"""Close combat by the close assault system, the option ``close_combat: assault`` (RULINGS).

Only close combat (7.1) changes: auto-defend, the Mind Weapon and demolition keep the odds table.
"""

from __future__ import annotations

from typing import cast

from engine.combat.assault import RESULT_TEXT, Figure, Modifier, resolve_assault
from engine.core.dice import Dice
from engine.core.protocol import Event
from engine.games.annihilator import data
from engine.games.annihilator.combat import eliminate
from engine.games.annihilator.state import Mark, State, Unit

# Fates that leave the figure in the hex, disrupted; "killed_or_captured" and "killed" eliminate it.
SHAKEN = ("broken", "forced_back", "fell_back")
LOST = ("killed_or_captured", "killed")


def figure(u: Unit) -> Figure:
    """A unit as one figure with its reconstructed factors."""
    spec = data.figures().figures[u.kind]
    mods = tuple(cast(Modifier, m) for m in spec.modifiers)
    return Figure(id=u.id, weapon=spec.weapon, weapon_name=spec.weapon_name, modifiers=mods)


def assault_combat(state: State, hex_no: str, side: str, dice: Dice) -> list[Event]:
    """Every able attacker in the hex assaults the enemy figures there (7.1 by close assault)."""
    attackers = [u for u in state.at(hex_no) if u.side == side and not u.disrupted and u.utype.attack > 0]
    defenders = [u for u in state.at(hex_no) if u.side != side]
    result = resolve_assault([figure(u) for u in attackers], [figure(u) for u in defenders], dice)
    state.fought.append(hex_no)
    state.marks.append(Mark(hex=hex_no, kind="combat"))
    fates = []
    for u in attackers + defenders:
        fate = result.fates.get(u.id, "fights_on")
        if fate in LOST or (fate in SHAKEN and not u.human):
            eliminate(state, u, close_combat=True)  # a disrupted robot is eliminated (7.1)
            fates.append(f"{u.id} eliminated")
        elif fate in SHAKEN:
            u.disrupted = True
            u.mp = 0.0
            fates.append(f"{u.id} disrupted")
    lines = [r.text() for r in result.rolls]
    lines += [f"{c.attacker} {c.attack_total} against {c.defender} {c.defence_total}: "
              + (RESULT_TEXT[c.result] if c.result else "no combat") for c in result.combats]
    text = f"Close assault in {hex_no}: " + "; ".join(lines)
    text += (f" ({'; '.join(fates)})" if fates else "") + " (rule 7.1, close assault)"
    return [Event(kind="combat", text=text, hexes=(hex_no,),
                  data={"fates": dict(result.fates), "system": "assault"})]
