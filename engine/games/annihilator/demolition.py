"""Nuclear Demolition Charges: patterns, orders and detonation (8.0-8.4)."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.hexes import DIRECTION_NAMES, Hex, rotate_right
from engine.core.protocol import Event
from engine.games.annihilator import data
from engine.games.annihilator.board import hex_type
from engine.games.annihilator.combat import roll_at_odds, strike
from engine.games.annihilator.state import Charge, Mark, State

# Hex types a "reduced to clear" result leaves as they are: already open (8.2).
OPEN = ("passage", "clear", "breach")
FACING_WORDS = ("north", "north-east", "south-east", "south", "south-west", "north-west")


def facing_of(name: str) -> int:
    """Direction index of an orientation name (N, NE, SE, S, SW, NW)."""
    return DIRECTION_NAMES.index(name)


def pattern_hexes(pattern: str, at: Hex, facing: int) -> list[tuple[int, Hex, str]]:
    """(number, hex, odds) of each hex a charge attacks, turned to ``facing`` (8.2, RULINGS 4)."""
    out = []
    for ph in data.patterns().patterns[pattern].hexes:
        off = rotate_right(Hex(*ph.offset), facing)
        out.append((ph.n, at + off, ph.odds))
    return out


def distinct_facings(pattern: str) -> list[str]:
    """The facings of ``pattern`` that attack different hexes or at different odds: all six for A, B
    and D, only N for C, whose ring of 2-1 hexes is the same every way it is turned (8.2)."""
    seen: set[frozenset[tuple[Hex, str]]] = set()
    out = []
    for f, name in enumerate(DIRECTION_NAMES):
        shape = frozenset((h, odds) for _, h, odds in pattern_hexes(pattern, Hex(0, 0), f))
        if shape not in seen:
            seen.add(shape)
            out.append(name)
    return out


def pattern_numbers(pattern: str, at: str, facing: int) -> list[str]:
    """Printed numbers of the map hexes a charge would attack, hex 1 first."""
    nums = data.hex_numbers()
    start = data.hexes_by_number()[at]
    return [nums[h] for _, h, _ in pattern_hexes(pattern, start, facing) if h in nums]


def order_text(c: Charge) -> str:
    """``D1 sets pattern B at 0912 facing NE`` (8.1)."""
    return f"{c.unit} sets pattern {c.pattern} at {c.at} facing {DIRECTION_NAMES[c.facing]}"


def detonate(state: State, charge: Charge, dice: Dice) -> tuple[list[str], Event]:
    """Set off one charge on ``state`` (a copy): returns the hexes just cleared (8.2, 8.3).

    Every pattern hex that got a D or an X counts as just cleared (RULINGS Annihilator 7).
    """
    nums = data.hex_numbers()
    start = data.hexes_by_number()[charge.at]
    lines: list[str] = []
    opened: list[str] = []
    touched: list[str] = []
    for n, h, column in pattern_hexes(charge.pattern, start, charge.facing):
        hex_no = nums.get(h)
        if hex_no is None:
            continue  # the pattern runs off the map
        touched.append(hex_no)
        units = state.at(hex_no)
        if column == "clear":  # 8.2: hex no. 1 is always reduced to clear
            res, die_text = "X", "always cleared"
        else:
            res, die = roll_at_odds(column, dice, f"charge {charge.at} hex {n} ({hex_no})")
            die_text = f"{column}, die {die}"
        before = hex_type(state, hex_no)
        fates = strike(state, units, res, demolition=True, close_combat=False)
        after = _reduce(state, hex_no, res)
        if res in ("D", "X"):
            opened.append(hex_no)  # RULINGS Annihilator 7: just cleared, whatever it was, open to 8.3
        state.marks.append(Mark(hex=hex_no, kind="blast"))
        change = f", now {after}" if after and after != before else ""
        lines.append(f"{hex_no} ({die_text}): {res}{change}" + (f", {'; '.join(fates)}" if fates else ""))
    # The facing is spelt out: the results NE, D and X follow in the same line (NE is "no effect").
    text = f"Charge at {charge.at} goes off, pattern {charge.pattern} facing {FACING_WORDS[charge.facing]}: "
    text += "; ".join(lines) + " (rule 8.2)"
    return opened, Event(kind="blast", text=text, hexes=tuple(touched))


def _reduce(state: State, hex_no: str, res: str) -> str | None:
    """Apply the Combat Effect Table to a hex; returns its new type if it changed (8.2)."""
    before = hex_type(state, hex_no)
    if before == "destroyed":
        return None
    if before == "core":
        if res in ("D", "X"):  # RULINGS 5: a brain core reduced by D or X is destroyed
            state.destroyed.append(hex_no)
            return "destroyed"
        return None
    cls = data.hex_types().types[before].class_
    change = data.effects().results[res].hex[cls]
    if change is None or (change == "clear" and before in OPEN):
        return None
    state.markers[hex_no] = change
    return hex_type(state, hex_no)
