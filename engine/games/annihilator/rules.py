"""The Annihilator game (Metagaming MicroGame 14): the GameRules object the registry serves."""

from __future__ import annotations

from typing import Any, cast

from pydantic import BaseModel

from engine.core.dice import Dice
from engine.core.errors import BadArguments
from engine.core.protocol import (
    Action,
    ArgSpec,
    Event,
    GameConfig,
    GameRules,
    Outcome,
    Prompt,
    VerbSpec,
    View,
)
from engine.games.annihilator import data
from engine.games.annihilator import edit as editing
from engine.games.annihilator.demolition import distinct_facings
from engine.games.annihilator.explain import canonical, why_not
from engine.games.annihilator.handlers import handle
from engine.games.annihilator.legal import STEPS, is_legal_fast, legal
from engine.games.annihilator.state import State, Unit
from engine.games.annihilator.view import build_view

OPTIONS = {
    "hidden_charges": "keep each charge's pattern secret until it goes off; only a charge marker shows (8.1)",
    "close_combat": "crt (the Combat Results Table, default) or assault (the close assault system)",
}

_TRUE = {True, "on", "true", "yes", "1"}
_FALSE = {False, "off", "false", "no", "0"}


def initial_units() -> dict[str, Unit]:
    """Every counter of both sides, none on the map yet (4.1, 4.2)."""
    out: dict[str, Unit] = {}
    for kind, t in data.units().types.items():
        for i in range(1, t.count + 1):
            uid = f"{t.prefix}{i}"
            out[uid] = Unit(id=uid, kind=kind, charges=t.charges)
    return out


class AnnihilatorRules(GameRules):
    """Marines against the planet killer."""

    name = "annihilator"
    title = "Annihilator"
    seats = data.SEATS
    scenarios = ("standard",)
    options_help = OPTIONS

    def __init__(self) -> None:
        self._cache: list[tuple[State, tuple[object, ...], list[Action]]] = []

    def setup(self, config: GameConfig, dice: Dice) -> State:
        """A new game: the Annihilator player sets up first (4.1)."""
        if config.scenario not in ("", "standard"):
            raise BadArguments(f"Annihilator has one scenario, 'standard', not '{config.scenario}'")
        opts: dict[str, Any] = dict(config.options)
        unknown = sorted(set(opts) - set(OPTIONS))
        if unknown:
            raise BadArguments(f"Annihilator has no option '{unknown[0]}'; its options are: " + ", ".join(OPTIONS))
        hidden = opts.get("hidden_charges", False)
        if hidden not in _TRUE | _FALSE:
            raise BadArguments(f"hidden_charges must be on or off, not '{hidden}'")
        cc = str(opts.get("close_combat", "crt"))
        if cc not in ("crt", "assault"):
            raise BadArguments(f"close_combat must be crt or assault, not '{cc}'")
        return State(hidden_charges=hidden in _TRUE, close_combat=cc, units=initial_units())

    def pending(self, state: BaseModel) -> list[Prompt]:
        """The one prompt of the current step (3.0)."""
        s = cast(State, state)
        if s.step not in STEPS:
            return []
        seat, verbs, text, rule, secret = STEPS[s.step]
        return [Prompt(seat=seat, verbs=verbs, text=text, rule=rule, secret=secret,
                       group="demolition" if secret else "")]

    def legal_actions(self, state: BaseModel, seat: str) -> list[Action]:
        """Every legal action; the last few answers are kept, checked against a fingerprint of the state."""
        s = cast(State, state)
        key = _fingerprint(s, seat)
        for st, k, acts in self._cache:
            if st is s and k == key:
                return list(acts)
        acts = legal(s, seat)
        self._cache = [(s, key, acts)] + self._cache[:3]
        return list(acts)

    def choices(self, state: BaseModel, seat: str, verb: str, arg: str, given: dict[str, str]) -> list[str]:
        """As every game's, but a charge's facings are offered once for each different blast: pattern C
        hits the same hexes at the same odds whichever way it faces, so only N is offered for it (8.2);
        any of the six is still accepted."""
        out = super().choices(state, seat, verb, arg, given)
        pattern = given.get("pattern", "").upper()
        if verb == "charge" and arg == "facing" and pattern in data.patterns().patterns:
            distinct = distinct_facings(pattern)
            out = [f for f in out if f in distinct]
        return out

    def is_legal(self, state: BaseModel, seat: str, action: Action) -> bool:
        """Membership in the legal actions; moves and placements are checked directly."""
        fast = is_legal_fast(cast(State, state), seat, action)
        if fast is not None:
            return fast
        return super().is_legal(state, seat, action)

    def _apply(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> tuple[BaseModel, list[Event]]:
        new = cast(State, state).clone()
        return new, self._change(new, seat, action, dice)

    def _change(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> list[Event]:
        s = cast(State, state)
        s.last_marks = []  # the board showed the other side's last phases until this order
        return handle(s, action, dice)

    def explain_illegal(self, state: BaseModel, seat: str, action: Action) -> str:
        """Why an order is refused, naming unit, hex and rule."""
        s = cast(State, state)
        spelled = canonical(s, action)
        if spelled != action and self.is_legal(s, seat, spelled):
            return f"Write it as {spelled.text()} (names are written as the list offers them)"
        return why_not(s, seat, spelled)

    def view(self, state: BaseModel, viewer: str | None) -> View:
        """What a seat or a spectator may see."""
        return build_view(cast(State, state), viewer)

    def outcome(self, state: BaseModel) -> Outcome | None:
        """The result once the game is over (10.0)."""
        s = cast(State, state)
        if s.step != "over":
            return None
        return Outcome(winner=s.winner, reason=s.reason)

    def verbs(self) -> list[VerbSpec]:
        """The game's commands."""
        return VERBS

    def keeps_sealed(self, state: BaseModel) -> bool:
        """8.1 (option hidden_charges): set charges stay sealed until they go off; nothing else does."""
        s = cast(State, state)
        return s.hidden_charges and bool(s.charges)

    def edit_verbs(self) -> list[VerbSpec]:
        """/mod edit: place, remove or change a unit, or set a hex marker (in a movement phase)."""
        return editing.SPECS

    def edit(self, state: BaseModel, action: Action) -> tuple[BaseModel, list[Event]]:
        """A moderator's correction of the position; see ``edit.edit``."""
        return editing.edit(cast(State, state), action)

    def state_model(self) -> type[BaseModel]:
        return State


def _fingerprint(s: State, seat: str) -> tuple[object, ...]:
    units = tuple((u.hex, u.mp, u.alive, u.disrupted, u.charges, u.kind, u.leave, u.arrived) for u in s.units.values())
    return (seat, s.step, s.turn, units, tuple(s.markers.items()), tuple(s.caches.items()), len(s.orders),
            tuple(o.unit for o in s.orders), tuple(s.fought), tuple(s.fresh), s.mind_used, tuple(s.repaired),
            tuple(s.destroyed))


_UNIT = ArgSpec(name="unit", help="a unit id, e.g. R3 or A1", kind="unit")
VERBS = [
    VerbSpec(verb="place", help="set up a robot in a hex", rule="4.1",
             args=(_UNIT, ArgSpec(name="at", help="hex number", kind="hex"))),
    VerbSpec(verb="lift", help="take a robot back off the map to set it up again", rule="4.1", args=(_UNIT,)),
    VerbSpec(verb="autodeploy", help="set up every robot not yet placed at the default deployment", rule="4.1"),
    VerbSpec(verb="ready", help="finish the set-up", rule="4.1"),
    VerbSpec(verb="land", help="roll the three impact hexes", rule="4.2"),
    VerbSpec(verb="move", help="move a unit", rule="5.1",
             args=(_UNIT, ArgSpec(name="to", help="destination hex", kind="hex"))),
    VerbSpec(verb="advance", help="advance into a hex just cleared by demolition", rule="8.3",
             args=(_UNIT, ArgSpec(name="to", help="destination hex", kind="hex"))),
    VerbSpec(verb="recover", help="an Assault Squad tries to recover a fallen Demolition Squad's charges",
             rule="8.5", args=(_UNIT,)),
    VerbSpec(verb="attack", help="close combat in a hex", rule="7.1",
             args=(ArgSpec(name="at", help="hex number", kind="hex"),
                   ArgSpec(name="pairs", kind="text", required=False,
                           help="close_combat:assault only: who fights whom, attacker-defender, e.g. A1-R1,A2-R1; "
                                "units left out do not attack (default: every able unit)"))),
    VerbSpec(verb="mind", help="the Mind Weapon strikes the humans in a hex at 1-2", rule="7.2",
             args=(ArgSpec(name="at", help="hex number", kind="hex"),)),
    VerbSpec(verb="charge", help="order a Nuclear Demolition Charge (sealed)", rule="8.1", secret=True,
             args=(_UNIT, ArgSpec(name="pattern", help="A, B, C or D"),
                   ArgSpec(name="at", help="the unit's hex (hex no. 1 of the pattern)", kind="hex"),
                   ArgSpec(name="facing", help="N, NE, SE, S, SW or NW", kind="direction"))),
    VerbSpec(verb="cancel", help="take back a demolition order", rule="8.1", secret=True, args=(_UNIT,)),
    VerbSpec(verb="repair", help="a Repairbot restores its hex", rule="9.0", args=(_UNIT,)),
    VerbSpec(verb="done", help="end this step"),
]
