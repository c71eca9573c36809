"""Close combat (7.1), the Mind Weapon (7.2) and auto-defend hexes (7.3), on the odds CRT."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.odds import odds, result
from engine.core.protocol import Event
from engine.games.annihilator import data
from engine.games.annihilator.state import Mark, State, Unit


def roll_crt(attack: int, defence: int, dice: Dice, why: str) -> tuple[str, str, int | None]:
    """(column, result, die) of an attack, odds rounded in the defender's favour (7.1)."""
    table = data.crt()
    lookup = odds(table, attack, defence)
    if lookup.column is None:  # worse than 1-2: no effect, nothing to roll
        return lookup.label, result(table, lookup, 0), None
    die = dice.roll(6, why)
    return lookup.column, result(table, lookup, die), die


def roll_at_odds(column: str, dice: Dice, why: str) -> tuple[str, int]:
    """A roll on a fixed column: auto-defend 1-1, Mind Weapon 1-2, demolition (7.2, 7.3, 8.2)."""
    die = dice.roll(6, why)
    table = data.crt()
    return table.rows[die][table.columns.index(column)], die


CRT_WORDS = {"NE": "no effect", "D": "result D", "X": "result X"}


def result_text(res: str) -> str:
    """A Combat Effect Table result as players read it: "no effect", never "NE", which reads as a facing."""
    return CRT_WORDS.get(res, res)


def strike(state: State, victims: list[Unit], res: str, *, demolition: bool, close_combat: bool) -> list[str]:
    """Apply a CRT result to units (Combat Effect Table); returns what befell each, for the log."""
    eff = data.effects().results[res]
    what = eff.units_demolition if demolition else eff.units
    out: list[str] = []
    for u in victims:
        if what is None:
            continue
        if what == "disrupt" and u.human:
            disrupt(state, u)
            out.append(f"{u.id} disrupted")
            continue
        # X, a demolition D, or a D on robots: disrupted robots are eliminated (7.1).
        eliminate(state, u, close_combat=close_combat)
        out.append(f"{u.id} eliminated")
    return out


def disrupt(state: State, u: Unit) -> None:
    """Combat Effect Table, D: a human may not move or fire for one game turn (RULINGS Annihilator 6).

    The turn and step are recorded; the disruption lifts at the same step of the next game turn.
    """
    u.disrupted = True
    u.disrupted_turn = state.turn
    u.disrupted_step = state.step
    u.mp = 0.0


def eliminate(state: State, u: Unit, *, close_combat: bool) -> None:
    """Remove a unit; a Demolition Squad lost in close combat leaves its charges behind (8.5)."""
    if close_combat and u.kind == "demolition" and u.charges > 0:
        state.caches[u.hex] = state.caches.get(u.hex, 0) + u.charges
    u.alive = False
    u.disrupted, u.disrupted_turn, u.disrupted_step = False, 0, ""
    u.mp = 0.0


def attackers_in(state: State, hex_no: str, side: str) -> list[Unit]:
    """Units of ``side`` in the hex able to attack: not disrupted (Combat Effect Table)."""
    return [u for u in state.at(hex_no) if u.side == side and not u.disrupted]


def attack_strength(units: list[Unit]) -> int:
    """Total Attack Strength (7.1)."""
    return sum(u.utype.attack for u in units)


def defence_strength(units: list[Unit]) -> int:
    """Total Defense Strength (7.1)."""
    return sum(u.utype.defence for u in units)


def can_attack(state: State, hex_no: str, side: str) -> bool:
    """Whether ``side`` may start a close combat in the hex this phase (7.1)."""
    if hex_no in state.fought:
        return False
    other = [u for u in state.at(hex_no) if u.side != side]
    return bool(other) and attack_strength(attackers_in(state, hex_no, side)) > 0


def close_combat(state: State, hex_no: str, side: str, dice: Dice) -> list[Event]:
    """Every able unit of ``side`` in the hex attacks every enemy there (7.1); ``state`` is a copy."""
    attackers = attackers_in(state, hex_no, side)
    defenders = [u for u in state.at(hex_no) if u.side != side]
    a, d = attack_strength(attackers), defence_strength(defenders)
    column, res, die = roll_crt(a, d, dice, f"close combat in {hex_no}")
    state.fought.append(hex_no)
    fates = strike(state, defenders, res, demolition=False, close_combat=True)
    state.marks.append(Mark(hex=hex_no, kind="combat"))
    if die is None and column not in data.crt().columns:
        # CRT outer rule: worse than 1-2 is no effect, nothing rolled; "at NE" would read as a column.
        at = f": {a} to {d}, worse than {data.crt().columns[0]}"
    else:
        at = f" at {column}" + (f", die {die}" if die is not None else "")
    text = (
        f"Close combat in {hex_no}: {', '.join(u.id for u in attackers)} ({a}) against "
        f"{', '.join(u.id for u in defenders)} ({d}){at}: {result_text(res)}"
        + (f" ({'; '.join(fates)})" if fates else "")
        + " (rule 7.1)"
    )
    return [Event(kind="combat", text=text, hexes=(hex_no,), data={"odds": column, "die": die, "result": res})]


def mind_weapon(state: State, hex_no: str, dice: Dice) -> list[Event]:
    """The Mind Weapon attacks the humans in any one hex at 1-2 (7.2); ``state`` is a copy."""
    victims = [u for u in state.at(hex_no) if u.human]
    res, die = roll_at_odds("1-2", dice, f"mind weapon on {hex_no}")
    state.mind_used = True
    fates = strike(state, victims, res, demolition=False, close_combat=False)
    state.marks.append(Mark(hex=hex_no, kind="combat"))
    text = f"The Mind Weapon strikes {hex_no} at 1-2, die {die}: {result_text(res)}" + (f" ({'; '.join(fates)})" if fates else "")
    return [Event(kind="combat", text=text + " (rule 7.2)", hexes=(hex_no,), data={"die": die, "result": res})]


def auto_defend(state: State, u: Unit, hex_no: str, dice: Dice) -> tuple[str, Event]:
    """A human unit entering an auto-defend hex is attacked at 1-1 (7.3); ``state`` is a copy."""
    res, die = roll_at_odds("1-1", dice, f"auto-defend {hex_no} against {u.id}")
    fates = strike(state, [u], res, demolition=False, close_combat=False)
    state.marks.append(Mark(hex=hex_no, kind="combat"))
    text = f"Auto-defend hex {hex_no} fires on {u.describe()} at 1-1, die {die}: {result_text(res)}"
    text += (f" ({'; '.join(fates)})" if fates else "") + " (rule 7.3)"
    return res, Event(kind="combat", text=text, hexes=(hex_no,), data={"die": die, "result": res})
