"""What a seat knows: the only input of the player (no cheating by construction).

``observe`` is run by the caller, which holds the whole record; it hands the player an
``Information`` and nothing else. An ``Information`` holds:

- the game's configuration (public);
- ``checkpoint``: the position just before the first step this seat may not read. Every step
  before it is public, the seat's own or already revealed, so the position is a function of what
  the seat has seen (the same replay any spectator could make once those choices were opened);
- ``steps`` after the checkpoint: a ``Known`` step (public, the seat's own, or revealed) carries its
  action and rolls; a run of the other seat's sealed steps becomes one ``Sealed`` marker that
  carries only the public events those steps produced (a charge marker in a hex, "BORG has
  chosen"), never the actions, their private events or even how many steps there were.

The player rebuilds full positions from this by sampling the sealed choices (``determinize``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core.dice import RecordedDice, Roll
from engine.core.protocol import Action, Event, GameConfig, GameRules


class Known(BaseModel):
    """A step the seat may read: who acted, the action, the rolls."""

    model_config = ConfigDict(frozen=True)

    type: Literal["known"] = "known"
    seat: str
    action: Action
    rolls: tuple[Roll, ...] = ()


class Seen(BaseModel):
    """A public event, as the channel showed it."""

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str
    hexes: tuple[str, ...] = ()


class Sealed(BaseModel):
    """A run of the other seat's sealed steps: only the public events they caused."""

    model_config = ConfigDict(frozen=True)

    type: Literal["sealed"] = "sealed"
    seat: str
    events: tuple[Seen, ...] = ()


class Information(BaseModel):
    """Everything the player of ``seat`` is given at a decision."""

    model_config = ConfigDict(frozen=True)

    game: str
    seat: str
    config: GameConfig
    checkpoint: str
    """JSON of the position before the first step this seat may not read (or the current one)."""
    steps: tuple[Known | Sealed, ...] = ()
    action_no: int = 0
    """How many steps the game has taken (the record's length)."""


class LogEntry(BaseModel):
    """One step of the real record, as the caller holds it."""

    model_config = ConfigDict(frozen=True)

    seat: str
    action: Action
    rolls: tuple[Roll, ...] = ()
    sealed: bool = False
    """An answer to a secret prompt that has not been revealed yet."""


def observe(
    rules: GameRules,
    config: GameConfig,
    setup_rolls: Sequence[Roll],
    log: Sequence[LogEntry],
    seat: str,
    state_at: Callable[[int], object] | None = None,
) -> Information:
    """The ``Information`` of ``seat`` after the steps of ``log``.

    ``state_at(i)``, when given, returns the real position after the first ``i`` steps (a
    shortcut for callers that keep them, e.g. snapshots); otherwise the record is replayed.
    """
    hidden = [i for i, e in enumerate(log) if e.sealed and e.seat != seat]
    first = hidden[0] if hidden else len(log)
    if state_at is not None:
        state = state_at(first)
    else:
        state = rules.setup(config, RecordedDice(list(setup_rolls)))
        for e in log[:first]:
            state, _ = rules.replay_step(state, e.seat, e.action, RecordedDice(list(e.rolls)))  # type: ignore[arg-type]
    checkpoint = state.model_dump_json()  # type: ignore[attr-defined]
    steps: list[Known | Sealed] = []
    run: list[Seen] = []
    run_seat = ""
    for e in log[first:]:
        # the caller's real steps: replayed to learn the public events of the sealed ones
        state, events = rules.replay_step(state, e.seat, e.action, RecordedDice(list(e.rolls)))  # type: ignore[arg-type]
        if e.sealed and e.seat != seat:
            if run_seat and run_seat != e.seat:
                steps.append(Sealed(seat=run_seat, events=tuple(run)))
                run = []
            run_seat = e.seat
            run += [_seen(ev) for ev in events if ev.public]
            continue
        if run_seat:
            steps.append(Sealed(seat=run_seat, events=tuple(run)))
            run, run_seat = [], ""
        steps.append(Known(seat=e.seat, action=e.action, rolls=e.rolls))
    if run_seat:
        steps.append(Sealed(seat=run_seat, events=tuple(run)))
    return Information(game=rules.name, seat=seat, config=config, checkpoint=checkpoint,
                       steps=tuple(steps), action_no=len(log))


def _seen(ev: Event) -> Seen:
    return Seen(kind=ev.kind, text=ev.text, hexes=ev.hexes)
