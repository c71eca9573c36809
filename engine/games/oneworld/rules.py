"""OneWorld as a ``GameRules``: prompts, legal actions and the dispatch of each verb by step."""

from __future__ import annotations

from typing import cast

from pydantic import BaseModel

from engine.core.dice import Dice
from engine.core.errors import BadArguments, NotYourTurn
from engine.core.protocol import Action, Event, GameConfig, GameRules, Outcome, Prompt, VerbSpec, View
from engine.games.oneworld import combat, edit, explain, gods, setup, turn, verbs, view
from engine.games.oneworld.options import OPTIONS_HELP, parse_options
from engine.games.oneworld.state import SEATS, Changes, State, action, fork, key_of, other

NO_CHANGES = Changes()


class OneWorld(GameRules):
    """The War between the Gods: BORG against CHEZ on OneWorld."""

    name = "oneworld"
    title = "OneWorld"
    seats = SEATS
    scenarios = ("standard",)
    options_help = OPTIONS_HELP

    def setup(self, config: GameConfig, dice: Dice) -> State:
        """3.0: a new game, with the set-up roll (3.2) already made."""
        if config.scenario not in ("", "standard"):
            raise BadArguments(f"OneWorld has no scenario '{config.scenario}'; the only one is: standard")
        return setup.new_state(parse_options(dict(config.options)), dice)

    def state_model(self) -> type[BaseModel]:
        return State

    def pending(self, state: BaseModel) -> list[Prompt]:
        """Who must decide what now."""
        s = cast(State, state)
        return _prompts(s)

    def legal_actions(self, state: BaseModel, seat: str) -> list[Action]:
        """Every legal action of ``seat`` now (cached on the state, which never changes)."""
        return legal_for(cast(State, state), seat)

    def is_legal(self, state: BaseModel, seat: str, action: Action) -> bool:
        """Membership in the legal actions, by a key set cached with them."""
        s = cast(State, state)
        keys = s._keys
        if keys is None:
            keys = {}
            s._keys = keys
        if seat not in keys:
            keys[seat] = {key_of(a) for a in self.legal_actions(s, seat)}
        return action.key() in keys[seat]

    def _apply(
        self, state: BaseModel, seat: str, action: Action, dice: Dice
    ) -> tuple[BaseModel, list[Event]]:
        s = cast(State, state)
        if s.previous != NO_CHANGES:
            s = fork(s, previous=NO_CHANGES)  # the board showed the last turn until this order
        return _dispatch(s, seat, action, dice)

    def apply(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> tuple[BaseModel, list[Event]]:
        """As every game; a second answer to a sealed choice already made is told to wait for the reveal."""
        held = explain.held_choice(cast(State, state), seat, action.verb)
        if held:
            raise NotYourTurn(held)
        return super().apply(state, seat, action, dice)

    def explain_illegal(self, state: BaseModel, seat: str, action: Action) -> str:
        """Why an order is refused, naming the Child, the hex and the rule."""
        return explain.why(cast(State, state), seat, action)

    def view(self, state: BaseModel, viewer: str | None) -> View:
        """What ``viewer`` may see; unrevealed aspects only to their chooser."""
        s = cast(State, state)
        return view.build(s, viewer, tuple(dict.fromkeys(p.seat for p in _prompts(s))))

    def outcome(self, state: BaseModel) -> Outcome | None:
        """11.2: the seat whose god survives, once a god's last life is gone."""
        s = cast(State, state)
        if s.step != "over":
            return None
        score = {seat: s.lives.get(seat, 0) for seat in SEATS}
        return Outcome(winner=s.winner or None, reason=s.end_reason, score=score)

    def verbs(self) -> list[VerbSpec]:
        """Every OneWorld command, with help text and the rule it applies."""
        return verbs.SPECS

    def edit_verbs(self) -> list[VerbSpec]:
        """/mod edit: place, remove or change a Child (in a movement phase)."""
        return edit.SPECS

    def edit(self, state: BaseModel, action: Action) -> tuple[BaseModel, list[Event]]:
        """A moderator's correction: place, remove or change a Child; see ``edit.edit``."""
        return edit.edit(cast(State, state), action)


def legal_for(s: State, seat: str) -> list[Action]:
    """The legal actions of ``seat``, through the cache on the state."""
    cache = s._legal
    if cache is None:
        cache = {}
        s._legal = cache
    if seat not in cache:
        cache[seat] = _legal(s, seat)
    return cache[seat]


def _prompts(s: State) -> list[Prompt]:
    step = s.step
    if step == "over":
        return []
    if step == "combat" and s.fight is not None:
        group = f"combat {s.fight.hex} round {s.fight.round}"
        return [
            Prompt(
                seat=seat,
                verbs=("aspects",),
                secret=True,
                group=group,
                rule="8.2",
                text=f"Choose the aspects of your Children in {s.fight.hex} (round {s.fight.round})",
            )
            for seat in SEATS
            if seat not in s.fight.chosen
        ]
    if step in ("accost_child", "accost_god") and s.accost is not None:
        seat = s.active if step == "accost_child" else other(s.active)
        what = f"your Child {s.accost.child}" if step == "accost_child" else "your god"
        return [
            Prompt(
                seat=seat,
                verbs=("aspect",),
                secret=True,
                group=f"accost {s.accost.hex} turn {s.turn}",
                rule="10.4",
                text=f"Choose the aspect of {what} in {s.accost.hex}",
            )
        ]
    texts: dict[str, tuple[tuple[str, ...], str, str]] = {
        "order": (("order",), "You won the set-up roll: set up first or second?", "3.2"),
        "end": (("defend",), "Choose the end of the map to defend", "3.3"),
        "tower": (("tower",), "Choose the hex of your Tower of Balance", "3.4"),
        "gods": (("gods",), f"Place your three gods in one hex within three hexes of {_home(s)}", "3.3"),
        "place": (_placing_verbs(s), _placing(s), "3.3"),
        "move": (("move", "transform", "flee", "end"), "Move your Children, then /end", "4.2"),
        "fight": (("fight",), "Choose the next combat to fight", "8.1"),
    }
    verbs_, text, rule = texts[step]
    return [Prompt(seat=s.active, verbs=verbs_, text=text, rule=rule)]


def _home(s: State) -> str:
    end = s.ends.get(s.active, "")
    return f"the {end} Tower site" if s.options.new_geography else f"the {end} end"


def _placing_verbs(s: State) -> tuple[str, ...]:
    """3.3: /place and /place_all while Children wait; once all thirteen are placed, only /done."""
    return ("place", "place_all", "done") if setup.unplaced(s, s.active) else ("done",)


def _placing(s: State) -> str:
    left = len(setup.unplaced(s, s.active))
    if not left:
        return "All thirteen Children are placed: /done to confirm"
    return f"Place your Children within seven hexes of your god ({left} of 13 still to place), or /place_all"


def _legal(s: State, seat: str) -> list[Action]:
    step = s.step
    if step in ("order", "end", "tower", "gods", "place"):
        return setup.legal(s, seat)
    if step == "move":
        return turn.legal(s, seat)
    if step == "fight":
        return [action("fight", {"hex": h}) for h in s.fights] if seat == s.active else []
    if step == "combat":
        return combat.legal_choices(s, seat)
    if step in ("accost_child", "accost_god"):
        return gods.accost_legal(s, seat)
    return []


def _dispatch(s: State, seat: str, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    verb, args = action.verb, action.args
    if verb in ("order", "defend", "tower", "gods", "place", "place_all", "done"):
        return setup.apply(s, seat, action)
    if verb == "move":
        return turn.apply_move(s, seat, action, dice)
    if verb == "transform":
        return gods.transform(s, seat, str(args["child"]), str(args["aspect"]))
    if verb == "flee":
        return gods.flee(s, seat, str(args["to"]))
    if verb == "end":
        return turn.end_movement(s, dice)
    if verb == "fight":
        return combat.start(s, str(args["hex"]))
    if verb == "aspect":
        return gods.choose(s, seat, str(args["aspect"]))
    if verb == "aspects":
        return _aspects(s, seat, action, dice)
    raise BadArguments(f"OneWorld has no command /{verb}")


def _aspects(s: State, seat: str, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    new, events, ready = combat.choose(s, seat, combat.from_args(dict(action.args)))
    if not ready:
        return new, events
    new, more, over = combat.resolve_round(new)
    events += more
    if over:
        new, rest = turn.next_fight(fork(new, step="combat"), dice)
        events += rest
    return new, events

