"""Close assault (close-assault.txt): one die per figure plus its weapon's Close Combat
Factor and the modifiers of Table 5, compared pair by pair, lowest results first.

API::

    resolve_assault(attackers, defenders, dice, *, pairs=None,
                    opportunity_fire=(), defender_has_fired=False) -> Assault
    check_assault(attackers, defenders, ...) -> pairs   # the same checks, before any die
    pair_up(attacker_ids, defender_ids) -> pairs   # each figure faces at least one opponent
    assault_result(attack_total, defence_total) -> AssaultResult   # the five outcomes

``Figure`` gives an id, its weapon's factor (``weapon_factor("melee")`` = 3,
``"improvised"`` = 1, or a number such as a pulse rifle's 3), its Table 5 modifiers
by name and whether it can move away if it breaks. The ``Assault`` holds every
figure's roll and total (``rolls``), every pairing in the order it was resolved
(results before contact first, then the rest, each from the lowest total up; RULINGS)
with its result (``combats``), and each figure's fate (``fates``). Opportunity fire
is not rolled here: ranged fire belongs to the game, so its casualties among the
attackers are an input, removed before contact.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.dice import Dice
from engine.core.errors import IllegalAction

Modifier = Literal[
    "untrained",
    "green",
    "veterans",
    "elite",
    "fanatics",
    "warriors",
    "aliens",
    "monsters",
    "armoured_infantry",
    "prepared_position",
    "wounded",
    "surprised",
]
# Table 5. Close Assault, the modifiers that belong to the figure itself.
MODIFIERS: dict[str, int] = {
    "untrained": -2,
    "green": -1,
    "veterans": 1,
    "elite": 1,
    "fanatics": 1,
    "warriors": 2,
    "aliens": 4,
    "monsters": 6,
    "armoured_infantry": 1,
    "prepared_position": 2,
    "wounded": -2,
    "surprised": -2,
}
# Table 5's weapon rows; any other weapon states its Close Combat Factor as a number.
WEAPONS: dict[str, int] = {"none": 0, "improvised": 1, "melee": 3}
OUTNUMBERED = -1
"""Table 5: each opponent after the first."""

AssaultResult = Literal[
    "defender_breaks", "defender_killed", "attacker_forced_back", "attacker_killed", "attacker_falls_back"
]
Fate = Literal["fights_on", "broken", "killed_or_captured", "forced_back", "killed", "fell_back", "shot_down"]
Side = Literal["attacker", "defender"]

RESULT_TEXT: dict[str, str] = {
    "defender_breaks": "the defender breaks and must move a full move away",
    "defender_killed": "the defender is killed or captured",
    "attacker_forced_back": "the attacker is forced back out of close combat range",
    "attacker_killed": "the attacker is killed",
    "attacker_falls_back": "the attacker falls back to its position at the start of the round",
}


class Figure(BaseModel):
    """One figure in a close assault."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    weapon: int = 0
    """The Close Combat Factor of its weapon."""
    weapon_name: str = ""
    modifiers: tuple[Modifier, ...] = ()
    can_move_away: bool = True
    """If it breaks and cannot move a full move away, it is killed or captured instead."""


class FigureRoll(BaseModel):
    """One figure's die and total, with every term named."""

    model_config = ConfigDict(frozen=True)

    id: str
    side: Side
    die: int
    terms: tuple[tuple[str, int], ...]
    opponents: int

    @property
    def total(self) -> int:
        """Die plus weapon plus modifiers."""
        return self.die + sum(v for _, v in self.terms)

    def text(self) -> str:
        """``Marine rolls 5 + 1 (veterans) + 3 (pulse rifle) - 1 (outnumbered) = 8``."""
        body = "".join(f" {'-' if v < 0 else '+'} {abs(v)} ({name})" for name, v in self.terms if v)
        return f"{self.id} rolls {self.die}{body} = {self.total}"


class Combat(BaseModel):
    """One pairing, as resolved."""

    model_config = ConfigDict(frozen=True)

    attacker: str
    defender: str
    attack_total: int
    defence_total: int
    result: AssaultResult | None
    """None when one of the pair was already out of the fight."""

    def text(self) -> str:
        """The pairing's totals and result as players read it."""
        head = f"{self.attacker} {self.attack_total} against {self.defender} {self.defence_total}"
        if self.result is None:
            return f"{head}: no combat, one of them is already out of the fight"
        return f"{head}: {RESULT_TEXT[self.result]}"


class Assault(BaseModel):
    """A whole close assault: the rolls, the pairings in the order resolved, and each figure's fate."""

    model_config = ConfigDict(frozen=True)

    rolls: tuple[FigureRoll, ...]
    combats: tuple[Combat, ...]
    fates: dict[str, Fate]
    pairs: tuple[tuple[str, str], ...]

    def roll_of(self, figure: str) -> FigureRoll:
        """The roll of one figure."""
        return next(r for r in self.rolls if r.id == figure)


def weapon_factor(name: str) -> int:
    """The Close Combat Factor of a Table 5 weapon name, or of a number written as text."""
    key = name.strip().lower()
    if key in WEAPONS:
        return WEAPONS[key]
    try:
        return int(key)
    except ValueError:
        allowed = ", ".join(WEAPONS)
        raise IllegalAction(
            f"'{name}' is not a weapon of Table 5 ({allowed}) nor a factor such as 3 or -1"
        ) from None


def assault_result(attack_total: int, defence_total: int) -> AssaultResult:
    """The result of one combat; a total below zero counts as zero."""
    a, d = max(attack_total, 0), max(defence_total, 0)
    if a == d:
        return "attacker_forced_back"
    if a > d:
        return "defender_breaks" if a >= 2 * d else "defender_killed"
    return "attacker_falls_back" if d >= 2 * a else "attacker_killed"


def pair_up(attackers: list[str], defenders: list[str]) -> tuple[tuple[str, str], ...]:
    """Pairings in which each figure faces at least one opponent, the larger side shared out in turn."""
    if not attackers or not defenders:
        return ()
    if len(attackers) >= len(defenders):
        return tuple((a, defenders[i % len(defenders)]) for i, a in enumerate(attackers))
    return tuple((attackers[i % len(attackers)], d) for i, d in enumerate(defenders))


def check_assault(
    attackers: list[Figure],
    defenders: list[Figure],
    *,
    pairs: list[tuple[str, str]] | None = None,
    opportunity_fire: tuple[str, ...] = (),
    defender_has_fired: bool = False,
) -> tuple[tuple[str, str], ...]:
    """Check the figures, opportunity fire and pairings before any die; return the pairings used."""
    _check_figures(attackers, defenders)
    _check_opportunity_fire(attackers, opportunity_fire, defender_has_fired)
    live_a = [f for f in attackers if f.id not in opportunity_fire]
    if not live_a:  # opportunity fire stopped the whole assault before contact
        return ()
    chosen = pair_up([f.id for f in live_a], [f.id for f in defenders]) if pairs is None else tuple(pairs)
    _check_pairs(chosen, live_a, defenders)
    return chosen


def resolve_assault(
    attackers: list[Figure],
    defenders: list[Figure],
    dice: Dice,
    *,
    pairs: list[tuple[str, str]] | None = None,
    opportunity_fire: tuple[str, ...] = (),
    defender_has_fired: bool = False,
) -> Assault:
    """Resolve one round of close assault; dice are rolled attackers first, in the order given."""
    chosen = check_assault(
        attackers,
        defenders,
        pairs=pairs,
        opportunity_fire=opportunity_fire,
        defender_has_fired=defender_has_fired,
    )
    fates: dict[str, Fate] = {f.id: "fights_on" for f in attackers + defenders}
    fates.update({f: "shot_down" for f in opportunity_fire})
    if not chosen:
        return Assault(rolls=(), combats=(), fates=fates, pairs=())
    live_a = [f for f in attackers if f.id not in opportunity_fire]
    rolls = [_roll(f, "attacker", chosen, dice) for f in live_a]
    rolls += [_roll(f, "defender", chosen, dice) for f in defenders]
    totals = {r.id: r.total for r in rolls}
    by_id = {f.id: f for f in attackers + defenders}
    combats = []
    for a, d in lowest_results_first(chosen, totals):
        combats.append(_fight(a, d, totals, fates, by_id))
    return Assault(rolls=tuple(rolls), combats=tuple(combats), fates=fates, pairs=chosen)


BEFORE_CONTACT = ("defender_breaks", "attacker_falls_back")


def lowest_results_first(
    pairs: tuple[tuple[str, str], ...], totals: dict[str, int]
) -> list[tuple[str, str]]:
    """The order the pairings are resolved in: "In multiple combats apply lowest results first", as
    RULINGS reads it: first the results that happen before contact (the defender breaks, the attacker
    falls back), then the rest (killed or captured, forced back, attacker killed); each group from the
    lowest total up. A figure put out of the fight takes no part in its later pairings."""

    def key(item: tuple[int, tuple[str, str]]) -> tuple[bool, int, int, int]:
        i, (a, d) = item
        early = assault_result(totals[a], totals[d]) in BEFORE_CONTACT
        return (not early, min(totals[a], totals[d]), max(totals[a], totals[d]), i)

    return [p for _, p in sorted(enumerate(pairs), key=key)]


def _fight(
    a: str, d: str, totals: dict[str, int], fates: dict[str, Fate], by_id: dict[str, Figure]
) -> Combat:
    if fates[a] != "fights_on" or fates[d] != "fights_on":
        return Combat(attacker=a, defender=d, attack_total=totals[a], defence_total=totals[d], result=None)
    result = assault_result(totals[a], totals[d])
    if result == "defender_breaks":
        fates[d] = "broken" if by_id[d].can_move_away else "killed_or_captured"
    elif result == "defender_killed":
        fates[d] = "killed_or_captured"
    elif result == "attacker_forced_back":
        fates[a] = "forced_back"
    elif result == "attacker_killed":
        fates[a] = "killed"
    else:
        fates[a] = "fell_back"
    return Combat(attacker=a, defender=d, attack_total=totals[a], defence_total=totals[d], result=result)


def _roll(f: Figure, side: Side, pairs: tuple[tuple[str, str], ...], dice: Dice) -> FigureRoll:
    opponents = sum(f.id in p for p in pairs)
    terms: list[tuple[str, int]] = [(m.replace("_", " "), MODIFIERS[m]) for m in f.modifiers]
    terms.insert(0, (f.weapon_name or "weapon", f.weapon))
    if opponents > 1:
        terms.append(("outnumbered", OUTNUMBERED * (opponents - 1)))
    die = dice.roll(6, f"close assault: {f.id}")
    return FigureRoll(id=f.id, side=side, die=die, terms=tuple(terms), opponents=opponents)


def _check_figures(attackers: list[Figure], defenders: list[Figure]) -> None:
    if not attackers or not defenders:
        raise IllegalAction("a close assault needs at least one attacking and one defending figure")
    ids = [f.id for f in attackers + defenders]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise IllegalAction(f"each figure needs its own name; used more than once: {', '.join(twice)}")
    for f in attackers:
        if "prepared_position" in f.modifiers:
            raise IllegalAction(
                f"{f.id} is attacking: only a defender gains 'defending a prepared position' (Table 5)"
            )


def _check_opportunity_fire(attackers: list[Figure], casualties: tuple[str, ...], has_fired: bool) -> None:
    if not casualties:
        return
    if has_fired:
        raise IllegalAction(
            "the defending unit has already made an attack this round, so it has no opportunity fire (Close Assault)"
        )
    known = {f.id for f in attackers}
    stray = [c for c in casualties if c not in known]
    if stray:
        raise IllegalAction(
            f"opportunity fire hits only the attacking figures ({', '.join(sorted(known))}); not: {', '.join(stray)}"
        )


def _check_pairs(
    pairs: tuple[tuple[str, str], ...], attackers: list[Figure], defenders: list[Figure]
) -> None:
    a_ids, d_ids = {f.id for f in attackers}, {f.id for f in defenders}
    for a, d in pairs:
        if a not in a_ids or d not in d_ids:
            raise IllegalAction(
                f"the pairing {a}-{d} must name a fighting attacker ({', '.join(sorted(a_ids)) or 'none'}) "
                f"then a defender ({', '.join(sorted(d_ids))})"
            )
    if len(set(pairs)) != len(pairs):
        raise IllegalAction("a pairing is listed twice; name each attacker-defender pair once")
    alone = [f for f in sorted(a_ids | d_ids) if not any(f in p for p in pairs)]
    if alone:
        raise IllegalAction(
            f"every figure must face at least one opponent (Close Assault); unpaired: {', '.join(alone)}"
        )
