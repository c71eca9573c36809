"""What a seat or a spectator sees: counters, markers, highlights and captions.

Sealed demolition orders (8.1) and, with ``hidden_charges``, the patterns of set
charges appear only in the Marines' own view.
"""

from __future__ import annotations

from engine.core.hexes import DIRECTION_NAMES, neighbor
from engine.core.protocol import ArrowView, CounterView, HighlightView, MarkerView, View
from engine.games.annihilator import data
from engine.games.annihilator.demolition import order_text, pattern_hexes, pattern_numbers
from engine.games.annihilator.flow import PHASE_NAMES
from engine.games.annihilator.legal import STEPS
from engine.games.annihilator.state import Charge, State

SIDE_COLOURS = {data.MARINES: "blue", data.ANNIHILATOR: "dark"}
MARKER_TEXT = {"clear": "CLEAR", "obpas": "OB-PAS"}


def build_view(state: State, viewer: str | None) -> View:
    """The board as ``viewer`` may see it."""
    own = viewer == data.MARINES
    seat = STEPS[state.step][0] if state.step in STEPS else ""
    return View(
        game="annihilator",
        map=data.MAP_ID,
        title="Annihilator",
        turn=state.turn,
        phase=PHASE_NAMES.get(state.step, state.step),
        active=seat,
        sides=dict(SIDE_COLOURS),
        counters=tuple(_counters(state)),
        markers=tuple(_markers(state, own)),
        highlights=tuple(_highlights(state, own)),
        arrows=tuple(_preview_arrows(state)) if own else (),
        boxes=_boxes(state),
        caption=tuple(_caption(state)),
        private=tuple(_private(state)) if own else (),
    )


def _counters(state: State) -> list[CounterView]:
    out = []
    for u in state.units.values():
        if not u.on_map:
            continue
        t = u.utype
        sub = f"{t.label} {t.attack}-{t.defence}-{t.movement}"
        out.append(CounterView(hex=u.hex, side=u.side, label=u.id, sub=sub, disrupted=u.disrupted, id=u.id))
    return out


def _charge_text(c: Charge, show: bool) -> str:
    return f"{c.pattern} {DIRECTION_NAMES[c.facing]}" if show else "charge"


def _markers(state: State, own: bool) -> list[MarkerView]:
    out = [MarkerView(hex=h, kind="impact", text="Assault ship") for h in state.impacts]
    out += [MarkerView(hex=h, kind=k, text=MARKER_TEXT[k]) for h, k in sorted(state.markers.items())]
    out += [MarkerView(hex=h, kind="destroyed", text="DESTROYED") for h in state.destroyed]
    show = own or not state.hidden_charges
    out += [MarkerView(hex=c.at, kind="charge", text=_charge_text(c, show)) for c in state.charges]
    out += [MarkerView(hex=h, kind="cache", text=f"{n} charges left") for h, n in sorted(state.caches.items())]
    out += [
        MarkerView(hex=u.hex, kind="charges", text=f"{u.id}: {u.charges}")
        for u in state.side_units(data.MARINES)
        if u.hex and u.utype.charges
    ]
    if own:
        out += _preview_markers(state)
    return out


def _highlights(state: State, own: bool) -> list[HighlightView]:
    out = [HighlightView(hex=m.hex, kind=m.kind) for m in state.last_marks + state.marks]
    out += [HighlightView(hex=h, kind="advance") for h in state.fresh]  # open to advance (8.3)
    show_set = own or not state.hidden_charges
    for c in state.charges:
        if show_set:
            out += [HighlightView(hex=h, kind="target") for h in pattern_numbers(c.pattern, c.at, c.facing)]
    if own:
        for i, o in enumerate(state.orders, start=1):
            out += [HighlightView(hex=h, kind=preview_kind(i)) for h in pattern_numbers(o.pattern, o.at, o.facing)]
    return out


def preview_kind(index: int) -> str:
    """``preview-1``, ``preview-2``...: the kind of everything drawn for one sealed order, one colour each
    (RULINGS Annihilator 4 and 11); a renderer that knows only ``preview`` may read the part before the dash."""
    return f"preview-{index}"


def _preview_markers(state: State) -> list[MarkerView]:
    """Each target hex of each sealed order, with its pattern number and odds (8.2, Demolition Charge Table)."""
    nums = data.hex_numbers()
    start = data.hexes_by_number()
    out = []
    for i, o in enumerate(state.orders, start=1):
        for n, h, column in pattern_hexes(o.pattern, start[o.at], o.facing):
            if h in nums:
                out.append(MarkerView(hex=nums[h], kind=preview_kind(i), text=f"{n}: {column}"))
    return out


def _preview_arrows(state: State) -> list[ArrowView]:
    """The orientation of each sealed order: from hex no. 1 towards its facing, labelled pattern and facing."""
    nums = data.hex_numbers()
    out = []
    for i, o in enumerate(state.orders, start=1):
        ahead = neighbor(data.hexes_by_number()[o.at], o.facing)
        dst = nums.get(ahead, o.at)
        out.append(ArrowView(src=o.at, dst=dst, kind=preview_kind(i),
                             label=f"{o.pattern} {DIRECTION_NAMES[o.facing]}"))
    return out


def _boxes(state: State) -> dict[str, tuple[str, ...]]:
    boxes: dict[str, tuple[str, ...]] = {}
    waiting = tuple(u.id for u in state.side_units(data.ANNIHILATOR) if not u.hex)
    if waiting:
        boxes["Annihilator: to set up"] = waiting
    if state.step == "deploy":
        boxes["Marines: in the assault ships"] = tuple(u.id for u in state.side_units(data.MARINES))
    for side in data.SEATS:
        gone = tuple(u.id for u in state.units.values() if u.side == side and not u.alive)
        if gone:
            boxes[f"{side}: eliminated"] = gone
    return boxes


def _caption(state: State) -> list[str]:
    lines = [f"Turn {state.turn} of 10: {PHASE_NAMES.get(state.step, state.step)}"]
    lines.append(f"Brain core hexes destroyed: {len(state.destroyed)} of 2")
    lines.append(f"Marines: {len(state.side_units(data.MARINES))} units; "
                 f"Annihilator: {len(state.side_units(data.ANNIHILATOR))} units")
    if state.step == "a_combat":
        lines.append("Mind Weapon: " + ("used this turn" if state.mind_used else "ready"))
    if state.charges:
        lines.append("Charges set: " + ", ".join(c.at for c in state.charges) + " (they go off next demolition phase)")
    if state.step == "over":  # the board's header and alt text read the result from this line
        result = {data.MARINES: "the Marines win", data.ANNIHILATOR: "the Annihilator wins"}.get(state.winner or "",
                                                                                              "a draw")
        why = state.reason.split(":")[0]
        lines.append(f"Game over: {result}: {why} (rule 10.0)")
    return lines


def _private(state: State) -> list[str]:
    lines = [f"Your sealed order: {order_text(o)}" for o in state.orders]
    if state.hidden_charges:
        lines += [f"Your hidden charge: {order_text(c)}" for c in state.charges]
    return lines
