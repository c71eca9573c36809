"""Units, stacks and how hits become step losses (step-reduction-combat.txt: extra defense,
soft units, taking hits)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.core.errors import IllegalAction


class Unit(BaseModel):
    """A step-reduction counter: its strength and how it takes hits."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    strength: int = Field(gt=0)
    extra_defence: bool = False
    """Extra defense (armor): two hits reduce it by one step."""
    soft: bool = False
    """Soft units: one step is two strength points (8, 6, 4, 2, eliminated)."""
    step_points: int | None = Field(default=None, gt=0)
    """Strength points one step removes, where a game counts steps its own way (a whole unit)."""

    @property
    def step(self) -> int:
        """Strength points lost per step."""
        return self.step_points or (2 if self.soft else 1)


class Stack(BaseModel):
    """The units in one hex, top of the stack first, and what the hex gives them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    units: tuple[Unit, ...]
    redoubt: int = Field(default=0, ge=0)
    """Extra attack strength: the intrinsic strength of a redoubt the stack holds."""
    cover: bool = False
    """Extra defense from the position (a city): every unit takes hits as armor does."""
    advantages: int = Field(default=0, ge=0)
    """Re-rolls: advantages of this stack when it attacks or counter-attacks."""

    @property
    def strength(self) -> int:
        """The total combat strength of its units (the redoubt not included)."""
        return sum(u.strength for u in self.units)

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id; IllegalAction naming the units otherwise."""
        for u in self.units:
            if u.id == unit_id:
                return u
        names = ", ".join(u.id for u in self.units) or "none"
        raise IllegalAction(f"there is no unit '{unit_id}' in this stack; its units are: {names}")

    def tough(self, unit: Unit) -> bool:
        """Whether ``unit`` takes two hits per step here (its own armor or the position's)."""
        return unit.extra_defence or self.cover


class HitTally(BaseModel):
    """Hits being applied to one stack: how many remain and what they did so far."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hits: int
    remaining: int
    in_redoubt: bool = False
    absorbed: int = 0
    half: str | None = None
    """An armored unit that has taken the first hit of a pair."""
    wasted: int = 0
    redoubt_lost: int = 0
    losses: tuple[str, ...] = ()
    """Unit ids, one entry per step lost, in order."""
    eliminated: tuple[str, ...] = ()


def begin_hits(stack: Stack, hits: int, in_redoubt: bool, redoubt_absorbs: bool) -> tuple[Stack, HitTally]:
    """Start applying ``hits``: a redoubt that absorbs hits takes its intrinsic strength first."""
    absorbed = min(stack.redoubt, hits) if in_redoubt and redoubt_absorbs else 0
    tally = HitTally(hits=hits, remaining=hits - absorbed, in_redoubt=in_redoubt, absorbed=absorbed)
    return _settle(stack, tally)


def hit_targets(stack: Stack, tally: HitTally) -> list[str]:
    """Units the next hit may land on: an armored unit holding half a pair takes the next armored hit."""
    if tally.remaining <= 0:
        return []
    if tally.half is None:
        return [u.id for u in stack.units]
    return [u.id for u in stack.units if u.id == tally.half or not stack.tough(u)]


def land_forced(stack: Stack, tally: HitTally) -> tuple[Stack, HitTally]:
    """Land the hits whose place is forced: a lone target, or enough hits to eliminate every unit."""
    while tally.remaining > 0:
        if tally.remaining >= capacity(stack, tally):
            return land_all(stack, tally)
        targets = hit_targets(stack, tally)
        if len(targets) != 1:
            break
        stack, tally = land_hit(stack, tally, targets[0])
    return stack, tally


def capacity(stack: Stack, tally: HitTally) -> int:
    """Hits that would eliminate every unit (each hit lowers this by exactly one)."""
    total = 0
    for u in stack.units:
        per = 2 if stack.tough(u) else 1
        total += -(-u.strength // u.step) * per
    return total - (1 if tally.half is not None else 0)


def land_hit(stack: Stack, tally: HitTally, unit_id: str) -> tuple[Stack, HitTally]:
    """One hit on ``unit_id``; armored units lose a step on the second hit of a pair."""
    if unit_id not in hit_targets(stack, tally):
        raise IllegalAction(_refusal(stack, tally, unit_id))
    unit = stack.unit(unit_id)
    tally = tally.model_copy(update={"remaining": tally.remaining - 1})
    if stack.tough(unit) and tally.half != unit_id:
        return _settle(stack, tally.model_copy(update={"half": unit_id}))
    if tally.half == unit_id:  # the second hit of the pair
        tally = tally.model_copy(update={"half": None})
    return _settle(*_lose_step(stack, tally, unit))


def land_all(stack: Stack, tally: HitTally) -> tuple[Stack, HitTally]:
    """Land every remaining hit in stacking order: top down, two on an armored unit, then over again."""
    if tally.half is not None:
        stack, tally = land_hit(stack, tally, tally.half)
    pos = 0
    while tally.remaining > 0 and stack.units:
        pos %= len(stack.units)
        target = stack.units[pos].id
        stack, tally = land_hit(stack, tally, target)
        if tally.half == target:  # the second hit of the pair; a lone last hit was already dropped
            stack, tally = land_hit(stack, tally, target)
        if any(u.id == target for u in stack.units):
            pos += 1
    return stack, tally


def _lose_step(stack: Stack, tally: HitTally, unit: Unit) -> tuple[Stack, HitTally]:
    left = unit.strength - unit.step
    losses = tally.losses + (unit.id,)
    if left > 0:
        units = tuple(u.model_copy(update={"strength": left}) if u.id == unit.id else u for u in stack.units)
        return stack.model_copy(update={"units": units}), tally.model_copy(update={"losses": losses})
    units = tuple(u for u in stack.units if u.id != unit.id)
    tally = tally.model_copy(update={"losses": losses, "eliminated": tally.eliminated + (unit.id,)})
    return stack.model_copy(update={"units": units}), tally


def _settle(stack: Stack, tally: HitTally) -> tuple[Stack, HitTally]:
    # Extra attack strength: once the units are gone, further hits wear the redoubt down.
    if not stack.units and tally.remaining > 0:
        lost = min(stack.redoubt, tally.remaining) if tally.in_redoubt else 0
        stack = stack.model_copy(update={"redoubt": stack.redoubt - lost})
        tally = tally.model_copy(
            update={"redoubt_lost": lost, "wasted": tally.wasted + tally.remaining - lost, "remaining": 0}
        )
    # Extra defense: a lone hit left on an armored unit has no effect (halves, fraction dropped).
    if tally.remaining == 0 and tally.half is not None:
        tally = tally.model_copy(update={"half": None, "wasted": tally.wasted + 1})
    return stack, tally


def _refusal(stack: Stack, tally: HitTally, unit_id: str) -> str:
    if tally.remaining <= 0:
        return "there are no hits left to place on this stack"
    stack.unit(unit_id)
    return (
        f"{tally.half} has taken the first of two hits its extra defense needs, so the next hit on an "
        f"armored unit must go to {tally.half} (extra defense); {unit_id} cannot take it"
    )
