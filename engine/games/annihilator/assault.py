"""Close combat by the close assault system, the option ``close_combat: assault`` (RULINGS).

Only close combat (7.1) changes: auto-defend, the Mind Weapon and demolition keep the odds table.
The attacker pairs the figures and chooses which of its units attack (RULINGS, close assault):
``attack at:HEX pairs:A1-R1,A2-R1``; the legal actions offer the default pairing of every able
unit, and an ``attack`` without ``pairs`` takes that default.
"""

from __future__ import annotations

from typing import cast

from engine.combat.assault import RESULT_TEXT, Figure, Modifier, check_assault, pair_up, resolve_assault
from engine.core.dice import Dice
from engine.core.errors import IllegalAction
from engine.core.protocol import Event
from engine.games.annihilator import data
from engine.games.annihilator.combat import disrupt, eliminate
from engine.games.annihilator.state import Mark, State, Unit

# Fates that leave the figure in the hex, disrupted; "killed_or_captured" and "killed" eliminate it.
SHAKEN = ("broken", "forced_back", "fell_back")
LOST = ("killed_or_captured", "killed")


def figure(u: Unit) -> Figure:
    """A unit as one figure with its reconstructed factors."""
    spec = data.figures().figures[u.kind]
    mods = tuple(cast(Modifier, m) for m in spec.modifiers)
    return Figure(id=u.id, weapon=spec.weapon, weapon_name=spec.weapon_name, modifiers=mods)


def able(state: State, hex_no: str, side: str) -> list[Unit]:
    """Units of ``side`` in the hex that may attack: not disrupted, with an attack strength (7.1)."""
    return [u for u in state.at(hex_no) if u.side == side and not u.disrupted and u.utype.attack > 0]


def default_pairs(state: State, hex_no: str, side: str) -> str:
    """The pairing offered by default: every able unit, each figure facing at least one opponent."""
    defenders = [u.id for u in state.at(hex_no) if u.side != side]
    return ",".join(f"{a}-{d}" for a, d in pair_up([u.id for u in able(state, hex_no, side)], defenders))


def parse_pairs(state: State, hex_no: str, side: str, text: str) -> list[tuple[str, str]]:
    """``A1-R1,A2-R1`` as checked pairings; raises ``IllegalAction`` saying what is wrong."""
    pairs: list[tuple[str, str]] = []
    for item in text.split(","):
        parts = [p.strip().upper() for p in item.split("-")]
        if len(parts) != 2 or not all(parts):
            raise IllegalAction(f"'{item.strip()}' in pairs should be attacker-defender, like A1-R1 (close assault)")
        pairs.append((parts[0], parts[1]))
    mine = {u.id: u for u in state.at(hex_no) if u.side == side}
    fit = {u.id for u in able(state, hex_no, side)}
    for a, _ in pairs:
        if a in mine and a not in fit:
            why = "is disrupted" if mine[a].disrupted else "has no attack strength"
            raise IllegalAction(f"{mine[a].describe()} {why} and may not attack (rule 7.1, Combat Effect Table)")
    attackers = [figure(mine[a]) for a in dict.fromkeys(a for a, _ in pairs) if a in fit]
    defenders = [figure(u) for u in state.at(hex_no) if u.side != side]
    check_assault(attackers or [figure(u) for u in able(state, hex_no, side)], defenders, pairs=pairs)
    return pairs


def assault_combat(state: State, hex_no: str, side: str, dice: Dice, pairs_text: str = "") -> list[Event]:
    """The attacker's chosen figures assault every enemy figure in the hex (7.1 by close assault)."""
    pairs = parse_pairs(state, hex_no, side, pairs_text or default_pairs(state, hex_no, side))
    chosen = set(a for a, _ in pairs)
    attackers = [u for u in able(state, hex_no, side) if u.id in chosen]
    defenders = [u for u in state.at(hex_no) if u.side != side]
    result = resolve_assault([figure(u) for u in attackers], [figure(u) for u in defenders], dice, pairs=pairs)
    state.fought.append(hex_no)
    state.marks.append(Mark(hex=hex_no, kind="combat"))
    fates = []
    for u in attackers + defenders:
        fate = result.fates.get(u.id, "fights_on")
        if fate in LOST or (fate in SHAKEN and not u.human):
            eliminate(state, u, close_combat=True)  # a disrupted robot is eliminated (7.1)
            fates.append(f"{u.id} eliminated")
        elif fate in SHAKEN:
            disrupt(state, u)
            fates.append(f"{u.id} disrupted")
    lines = [r.text() for r in result.rolls]
    lines += [f"{c.attacker} {c.attack_total} against {c.defender} {c.defence_total}: "
              + (RESULT_TEXT[c.result] if c.result else "no combat") for c in result.combats]
    text = f"Close assault in {hex_no}: " + "; ".join(lines)
    text += (f" ({'; '.join(fates)})" if fates else "") + " (rule 7.1, close assault)"
    return [Event(kind="combat", text=text, hexes=(hex_no,),
                  data={"fates": dict(result.fates), "system": "assault",
                        "pairs": [list(p) for p in result.pairs]})]
