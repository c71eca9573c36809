"""The named options of the step-reduction dice system (step-reduction-combat.txt)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

HitAllocation = Literal["attacker", "defender", "stacking_order"]
RetreatPath = Literal["vacant_adjacent", "across_friends", "across_friends_in_zoc"]
RetreatOnto = Literal["no", "within_limits", "overstack"]
RetreatStack = Literal["together", "split"]
AdvanceRule = Literal["on_retreat", "on_retreat_or_elimination"]
StackingBy = Literal["none", "units", "strength"]
ReducePer = Literal["strength", "units"]


class StepOptions(BaseModel):
    """Every choice the text leaves to the players, by name; the defaults are the plainest reading."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hit_allocation: HitAllocation = "defender"
    """Taking hits 1 (the side that rolled chooses), 2 (the owner chooses) or 3 (stacking order)."""
    reduce_per: ReducePer = "strength"
    """Note [1]: one hit ignored for every two retreating strength points (its example) or units."""
    redoubt_absorbs: bool = False
    """Extra defense: a redoubt absorbs its intrinsic strength in hits before the units take any."""
    stacking: StackingBy = "none"
    """Stacking: a limit counted in units or in strength points per hex."""
    stacking_limit: int = Field(default=0, ge=0)
    retreat_path: RetreatPath = "vacant_adjacent"
    """Retreating 1 (vacant adjacent hex), 2 (across friends outside enemy zones) or 3 (across friends anywhere)."""
    retreat_onto: RetreatOnto = "no"
    """Retreating 4 (onto friends within stacking limits) or 5 (onto friends, overstacked until next move)."""
    retreat_stack: RetreatStack = "together"
    """Retreating 6 (the stack stays together) or 7 (the stack may split up)."""
    advance: AdvanceRule = "on_retreat"
    """Advancing 1 (only into a hex vacated by a retreat) or 2 (also when the enemy is eliminated in place)."""
