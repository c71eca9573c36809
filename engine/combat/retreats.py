"""Stacking limits, retreats and advances of the step-reduction dice system
(step-reduction-combat.txt: Additional rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from engine.combat.stepoptions import StepOptions
from engine.combat.steps import Stack
from engine.core.errors import IllegalAction


class HexFacts(BaseModel):
    """What a retreat needs to know of one hex it enters."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = ""
    friendly_units: int = Field(default=0, ge=0)
    friendly_strength: int = Field(default=0, ge=0)
    enemy: bool = False
    enemy_zoc: bool = False
    """In an enemy zone of control."""


class RetreatVerdict(BaseModel):
    """Whether a retreat route is allowed, and why not."""

    model_config = ConfigDict(frozen=True)

    ok: bool
    reason: str = ""
    overstacked: bool = False
    """Retreating 5: allowed over the limit, but the stack must unstack at the first opportunity."""


def within_stacking(units: int, strength: int, options: StepOptions) -> bool:
    """Whether a hex holding ``units`` units of ``strength`` points keeps to the stacking limit."""
    if options.stacking == "units":
        return units <= options.stacking_limit
    if options.stacking == "strength":
        return strength <= options.stacking_limit
    return True


def check_stacking(stack: Stack, options: StepOptions, who: str) -> None:
    """Raise IllegalAction when ``stack`` breaks the stacking limit (Stacking)."""
    if within_stacking(len(stack.units), stack.strength, options):
        return
    if options.stacking == "units":
        have, what = len(stack.units), "units"
    else:
        have, what = stack.strength, "strength points"
    raise IllegalAction(
        f"the {who}'s stack has {have} {what}, over the stacking limit of {options.stacking_limit} {what} "
        "a hex (Stacking); make the stack smaller"
    )


def judge_retreat(route: Sequence[HexFacts], stack: Stack, options: StepOptions) -> RetreatVerdict:
    """Judge a retreat along ``route`` (the hexes entered, the last one the destination), Retreating 1-5."""
    if not route:
        return RetreatVerdict(ok=False, reason="a retreat must enter at least one hex")
    *through, dest = route
    for h in route:
        if h.enemy:
            return RetreatVerdict(ok=False, reason=f"{_name(h)} holds enemy units (Retreating)")
    if through and options.retreat_path == "vacant_adjacent":
        return RetreatVerdict(ok=False, reason="a retreat goes only to an adjacent hex (Retreating 1)")
    for h in through:
        if not h.friendly_units:
            return RetreatVerdict(
                ok=False, reason=f"{_name(h)} is empty: a retreat crosses only friendly stacks (Retreating 2)"
            )
        if h.enemy_zoc and options.retreat_path != "across_friends_in_zoc":
            return RetreatVerdict(
                ok=False, reason=f"{_name(h)} is in an enemy zone of control (Retreating 2)"
            )
    if dest.enemy_zoc:
        return RetreatVerdict(ok=False, reason=f"{_name(dest)} is in an enemy zone of control (Retreating 1)")
    return _judge_destination(dest, stack, options)


def _judge_destination(dest: HexFacts, stack: Stack, options: StepOptions) -> RetreatVerdict:
    if not dest.friendly_units:
        return RetreatVerdict(ok=True)
    if options.retreat_onto == "no":
        return RetreatVerdict(
            ok=False, reason=f"{_name(dest)} is occupied: a retreat ends in a vacant hex (Retreating 1)"
        )
    fits = within_stacking(
        dest.friendly_units + len(stack.units), dest.friendly_strength + stack.strength, options
    )
    if fits:
        return RetreatVerdict(ok=True)
    if options.retreat_onto == "within_limits":
        return RetreatVerdict(
            ok=False, reason=f"retreating onto {_name(dest)} would break the stacking limit (Retreating 4)"
        )
    return RetreatVerdict(ok=True, overstacked=True)


def check_split(destinations: Mapping[str, str], options: StepOptions) -> None:
    """Raise IllegalAction when a stack that must stay together retreats to several hexes (Retreating 6, 7)."""
    if options.retreat_stack == "together" and len(set(destinations.values())) > 1:
        raise IllegalAction(
            "the stack must stay together in retreating (Retreating 6): send every unit to one hex"
        )


def may_advance(
    options: StepOptions, *, enemy_retreated: bool, enemy_eliminated: bool, retreated: bool, survivors: bool
) -> bool:
    """Whether the attacker or counter-attacker may move into the enemy's hex (Advancing 1, 2)."""
    if retreated or not survivors:
        return False
    if enemy_retreated:
        return True
    return options.advance == "on_retreat_or_elimination" and enemy_eliminated


def _name(h: HexFacts) -> str:
    return h.name or "that hex"
