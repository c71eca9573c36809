"""What a viewer may see of OneWorld: counters, Towers, the dead, this turn's changes, captions."""

from __future__ import annotations

from engine.core.protocol import ArrowView, CounterView, HighlightView, MarkerView, View
from engine.games.oneworld.combat import describe
from engine.games.oneworld.state import SEATS, State, other

COLOURS = {"BORG": "dark", "CHEZ": "light"}

GRASSES = (
    "The Singing Grasses hum a slow refrain beneath the Pylons.",
    "A soft lyric breeze runs through the Singing Grasses.",
    "The Grasses sing; the gods harmonise, content in the sunshine.",
    "Somewhere a Fog hums a thoughtful breeze psalm.",
)

STEP_NAMES = {
    "order": "set-up order",
    "end": "set-up",
    "tower": "set-up",
    "gods": "set-up",
    "place": "set-up",
    "move": "movement",
    "fight": "combat",
    "combat": "combat",
    "accost_child": "accost",
    "accost_god": "accost",
    "over": "game over",
}


def build(state: State, viewer: str | None, waiting: tuple[str, ...] = ()) -> View:
    """The view of ``viewer`` (a seat or None): no unrevealed choice of anyone else.

    ``waiting`` are the seats the game waits on (both, while both choose aspects in secret).
    """
    return View(
        game="oneworld",
        map="oneworld",
        title="OneWorld",
        turn=state.turn,
        phase=STEP_NAMES[state.step],
        active=" and ".join(waiting) if waiting else _deciding(state),
        sides=dict(COLOURS),
        counters=tuple(_counters(state)),
        markers=tuple(_markers(state)),
        arrows=tuple(_arrows(state)),
        highlights=tuple(_highlights(state)),
        boxes=_boxes(state),
        caption=tuple(_caption(state)),
        private=tuple(_private(state, viewer)),
    )


def _deciding(state: State) -> str:
    if state.step == "over":
        return ""
    if state.step == "combat" and state.fight is not None:
        return " and ".join(s for s in SEATS if s not in state.fight.chosen)
    return other(state.active) if state.step == "accost_god" else state.active


def _counters(state: State) -> list[CounterView]:
    out = [
        CounterView(hex=c.hex, side=c.side, label=c.aspect, sub=c.id, id=c.id)
        for c in state.children
        if c.where == "map"
    ]
    for seat in SEATS:
        if seat in state.god_hex and state.lives.get(seat, 0) > 0:
            lives = state.lives[seat]
            out.append(
                CounterView(
                    hex=state.god_hex[seat],
                    side=seat,
                    label=seat,
                    sub=f"god, {lives} {'life' if lives == 1 else 'lives'}",
                    id=f"{seat} god",
                )
            )
    return out


def _markers(state: State) -> list[MarkerView]:
    return [
        MarkerView(hex=h, kind="tower", text=f"{seat} Tower")
        for seat, h in sorted(state.tower_hex.items())
        if h
    ]


def _arrows(state: State) -> list[ArrowView]:
    arrows = state.previous.arrows + state.changes.arrows
    return [ArrowView(src=a, dst=b, kind="move") for a, b in arrows if a != b]


def _highlights(state: State) -> list[HighlightView]:
    out: list[HighlightView] = []
    seen: set[tuple[str, str]] = set()
    marks = [
        (kind, getattr(state.previous, field) + getattr(state.changes, field))
        for kind, field in (("moved", "moved"), ("combat", "combat"), ("loss", "losses"))
    ]
    if state.fight is not None:
        marks.append(("combat", (state.fight.hex,)))
    marks.append(("combat", state.fights))  # combats still to fight, in the mover's order (8.1)
    if state.accost is not None:
        marks.append(("accost", (state.accost.hex,)))  # the accosted god's hex while it chooses (10.4)
    for kind, hexes in marks:
        for h in hexes:
            if h and (h, kind) not in seen:
                seen.add((h, kind))
                out.append(HighlightView(hex=h, kind=kind))
    return out


def _boxes(state: State) -> dict[str, tuple[str, ...]]:
    # 8.4: the dead lie under their god's Tower; Children lost in Chaos Itself are out for good (5.6).
    boxes: dict[str, tuple[str, ...]] = {}
    for seat in SEATS:
        under = tuple(c.id for c in state.children if c.side == seat and c.where == "tower")
        lost = tuple(c.id for c in state.children if c.side == seat and c.where == "lost")
        boxes[f"{seat} Tower" if state.options.towers else f"{seat} dead"] = under
        if lost:
            boxes[f"{seat} lost in Chaos"] = lost
    return boxes


def _caption(state: State) -> list[str]:
    lines = []
    if state.step == "over":
        lines.append(
            f"Game over: {state.winner + ' wins' if state.winner else 'a draw'} ({state.end_reason})."
        )
    elif state.turn:
        lines.append(f"Turn {state.turn}: {state.active}, {STEP_NAMES[state.step]}.")
    else:
        lines.append(
            f"Set-up: {state.active} to act. Set-up roll BORG {state.setup_rolls.get('BORG')}, "
            f"CHEZ {state.setup_rolls.get('CHEZ')}."
        )
    lives = ", ".join(f"{s} {state.lives.get(s, 0)}" for s in SEATS)
    on_map = ", ".join(f"{s} {len(state.on_map(s))}" for s in SEATS)
    lines.append(f"God lives: {lives}. Children on the map: {on_map}. Stacking limit {state.stacking}.")
    if state.fight is not None:
        waiting = [s for s in SEATS if s not in state.fight.chosen]
        lines.append(
            f"Combat in {state.fight.hex}, round {state.fight.round}: waiting on {', '.join(waiting)}."
        )
    if state.accost is not None:
        lines.append(f"{state.accost.child} accosts the god in {state.accost.hex}.")
    if state.options.singing_grasses:
        lines.append(GRASSES[state.turn % len(GRASSES)])
    return lines


def _private(state: State, viewer: str | None) -> list[str]:
    if viewer is None:
        return []
    out = []
    if state.fight is not None and viewer in state.fight.chosen:
        out.append(f"You have chosen {describe(state.fight.chosen[viewer])} in {state.fight.hex}.")
    if state.accost is not None and state.accost.child_aspect and viewer == state.active:
        out.append(f"You have chosen {state.accost.child_aspect} for {state.accost.child}.")
    return out
