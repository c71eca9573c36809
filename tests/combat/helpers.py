"""Small builders for the combat tests: stacks from strengths, dice that miss."""

from __future__ import annotations

from engine.combat.steps import Stack, Unit

MISS = 1


def stack(*strengths: int, prefix: str = "u", **flags: object) -> Stack:
    """A stack of plain units named u1, u2... with these strengths, top first."""
    units = tuple(Unit(id=f"{prefix}{i + 1}", strength=s) for i, s in enumerate(strengths))
    return Stack(units=units, **flags)  # type: ignore[arg-type]


def faces(hits: int, total: int) -> list[int]:
    """``total`` dice of which the first ``hits`` are sixes."""
    return [6] * hits + [MISS] * (total - hits)
