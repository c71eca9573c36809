"""What a viewer sees of a game of Chitin: I: counters, chits, attacks, captions."""

from __future__ import annotations

from engine.core.protocol import ArrowView, CounterView, HighlightView, MarkerView, View
from engine.games.chitin import flow
from engine.games.chitin.board import label
from engine.games.chitin.food import chit_hex, chits_off, points
from engine.games.chitin.state import Combat, State

COLOURS = {"Red": "red", "Blue": "blue"}
# Coarse phases for the board: the bot posts one board a phase, not one per move and facing.
PHASES = {"forces": "choosing armies", "order": "first move", "order2": "first move", "move": "movement",
          "face": "movement", "attack": "combat", "combat": "combat", "over": "over"}


def build(state: State, viewer: str | None) -> View:
    """The board as ``viewer`` may see it; secret armies stay hidden until both are in."""
    counters = tuple(
        CounterView(hex=c.hex, side=c.side, label=c.id, sub=f"{c.type} {label(c)}" + (f" +{c.chit}" if c.chit else ""),
                    facing=c.facing if c.type != "PL" else None, disrupted=c.disrupted, id=c.id)
        for c in state.counters.values() if c.where == "map"
    )
    markers = tuple(
        MarkerView(hex=chit_hex(state, ch), kind="chit-carried" if ch.carriers else "chit", text=f"{ch.letter} {ch.value}")
        for ch in state.chits.values() if chit_hex(state, ch)
    )
    arrows = [ArrowView(src=a, dst=b, label=_result(cb)) for cb in state.combats for a, b in cb.arrows]
    arrows += [ArrowView(src=_spot(state, p.by), dst=p.on if p.on != "air" else _spot(state, p.by), label="planned")
               for p in state.plan]
    highlights = [HighlightView(hex=h, kind="moved") for h in dict.fromkeys(state.last_moved + state.moved_hexes)]
    highlights += [HighlightView(hex=h, kind="loss") for h in dict.fromkeys(state.last_losses + state.loss_hexes)]
    highlights += [HighlightView(hex=d, kind="combat") for cb in state.combats for d in sorted({b for _, b in cb.arrows})]
    return View(
        game="chitin", map="chitin", title=f"Chitin: I - {flow.scenario(state).title}", turn=flow.game_turn(state),
        phase=_phase(state), active=state.active, sides=dict(COLOURS), counters=counters, markers=markers,
        arrows=tuple(arrows), highlights=tuple(highlights), boxes=_boxes(state),
        caption=_caption(state), private=_private(state, viewer),
    )


def _phase(state: State) -> str:
    """The phase, and whose player-turn it is: a game turn is both players' turns (5.00)."""
    phase = PHASES.get(state.step, state.step)
    if state.active and state.step in ("move", "face", "attack", "combat"):
        return f"{state.active}'s player-turn, {phase}"
    return phase


def _result(cb: Combat) -> str:
    """An attack's label: its odds, then the die and the result once rolled."""
    if cb.die:
        return f"{cb.odds}, rolled {cb.die}: {cb.result}"
    if cb.result and cb.result == cb.odds:
        return f"{cb.result}, no roll needed"  # RULINGS Chitin 12: an automatic result
    return f"{cb.odds}: {cb.result}" if cb.result and cb.result != "none" else cb.odds


def _spot(state: State, key: str) -> str:
    return state.counters[key].hex if key in state.counters else key


def _boxes(state: State) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for s in flow.SEATS:
        waiting = [f"{c.id} {c.type} {label(c)}" for c in state.mine(s) if c.where == "reserve"]
        if waiting:
            out[f"{s} beyond the {state.ends.get(s) or '?'} end"] = tuple(waiting)
        off = [f"{ch.letter} ({ch.value})" for ch in state.chits.values() if ch.off_by == s]
        if off:
            out[f"{s} harvest"] = tuple(off)
    return out


def _caption(state: State) -> tuple[str, ...]:
    lines = []
    if state.step == "forces":
        lines.append("Both players are choosing their armies in secret: " + ", ".join(f"{s} {'ready' if s in state.ready else 'choosing'}" for s in flow.SEATS))
    if state.ends.get("Red"):
        lines.append(", ".join(f"{s}: {state.ends[s]} end" for s in flow.SEATS) + f"; {flow.turn_text(state)} ({state.step})")
    if state.advanced:
        lines.append("Victory points: " + ", ".join(f"{s} {points(state, s)} (lost {state.lost.get(s, 0)} units)" for s in flow.SEATS))
    else:
        lines.append("Chits carried off: " + ", ".join(f"{s} {chits_off(state, s)}" for s in flow.SEATS))
    for cb in state.combats:
        if cb.result and cb.result != "none":
            lines.append(f"{cb.attack} to {cb.defence}: {_result(cb)}")
    if state.over_reason:
        lines.append(f"Game over: {state.over_reason}; winner {state.winner or 'none (draw)'}")
    return tuple(lines)


def _private(state: State, viewer: str | None) -> tuple[str, ...]:
    if viewer is None or state.step != "forces" or viewer not in state.picks:
        return ()
    sc = flow.scenario(state)
    used, plunge = flow.army_points(state.picks[viewer])
    counter = f"{used} of {sc.points} points used" + (f", {plunge} of {sc.plunge_limit} in Plunge units" if sc.plunge_limit else "")
    return (f"Your army so far: {flow.army_text(state.picks[viewer])}", counter)
