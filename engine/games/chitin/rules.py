"""Chitin: I as a ``GameRules``: prompts, legal actions and their effects, step by step."""

from __future__ import annotations

from collections import OrderedDict

from pydantic import BaseModel

from engine.core.dice import Dice
from engine.core.errors import BadArguments
from engine.core.protocol import Action, Event, GameConfig, GameRules, Outcome, Prompt, VerbSpec, View
from engine.core.state import clone as deep_clone
from engine.games.chitin import dicecombat, explain, flow, movement, results, verbs
from engine.games.chitin import edit as editing
from engine.games.chitin.board import DIRS, Index, geo
from engine.games.chitin.combat import attack_choices, battles, preview, unmet
from engine.games.chitin.data import scenarios
from engine.games.chitin.flow import SEATS
from engine.games.chitin.food import kill
from engine.games.chitin.state import Pair, State
from engine.games.chitin.view import build

OPTIONS = {
    "turn_limit": "end the game after this many game turns and score it then (0: no limit)",
    "first_off": "the 'first off' endgame of rule 4.05 instead of 4.04 (advanced scenarios)",
    "combat": "crt (the Combat Results Table, rule 7.06) or dice (step-reduction dice in place of the table)",
}

ON_WORDS = ("on", "yes", "true", "1")
OFF_WORDS = ("off", "no", "false", "0")
MAX_TURN_LIMIT = 999

_CACHE: OrderedDict[tuple[str, str], list[Action]] = OrderedDict()
_ACTIONS: dict[tuple[str, tuple[tuple[str, str | int], ...]], Action] = {}


def _act(verb: str, **args: str | int) -> Action:
    key = (verb, tuple(args.items()))
    a = _ACTIONS.get(key)
    if a is None:
        if len(_ACTIONS) > 200_000:
            _ACTIONS.clear()
        a = _ACTIONS[key] = Action.model_construct(verb=verb, args=args)
    return a


_MOVES: dict[tuple[str, str, str], Action] = {}


def _move_act(move: tuple[str, str, str]) -> Action:
    """``_act(verb, stack=group, to=destination)`` for a ground move, looked up by the move itself:
    a movement phase lists some three hundred of them after every move."""
    a = _MOVES.get(move)
    if a is None:
        if len(_MOVES) > 200_000:
            _MOVES.clear()
        verb, gid, to = move
        a = _MOVES[move] = _act(verb, stack=gid, to=to)
    return a


def _without_dir(action: Action) -> Action:
    """The order without its facing: a /move dir:S is the /move, then the /face (6.06)."""
    return Action(verb=action.verb, args={k: v for k, v in action.args.items() if k != "dir"})


def clone(state: State) -> State:
    """A copy of the state to change (engine.core.state.clone: a deep copy, done fast)."""
    return deep_clone(state)


class Chitin(GameRules):
    """Chitin: I, The Harvest Wars."""

    name = "chitin"
    title = "Chitin: I"
    seats = SEATS
    scenarios = tuple(scenarios().scenarios)
    options_help = OPTIONS

    # -- setup ---------------------------------------------------------------------------

    def setup(self, config: GameConfig, dice: Dice) -> State:
        """A new game of the chosen scenario (3.03)."""
        name = config.scenario or "learning"
        if name not in scenarios().scenarios:
            raise BadArguments(f"there is no Chitin scenario '{name}'; choose one of {', '.join(self.scenarios)}")
        unknown = sorted(set(config.options) - set(OPTIONS))
        if unknown:
            raise BadArguments(f"Chitin has no option '{unknown[0]}'; the options are {', '.join(OPTIONS)}")
        try:
            limit = int(config.options.get("turn_limit", 0))
        except (TypeError, ValueError):
            raise BadArguments("turn_limit must be a whole number of game turns, like 8") from None
        if limit < 0:
            raise BadArguments("turn_limit must be 0 (no limit) or more")
        first_off = str(config.options.get("first_off", "false")).lower() in ON_WORDS
        combat = str(config.options.get("combat", "crt")).lower()
        if combat not in ("crt", "dice"):
            raise BadArguments(f"combat must be 'crt' or 'dice', not '{combat}'")
        state = flow.new_state(name, limit, first_off, combat)
        if not state.picks:
            flow.roll_first(state, dice, [])
        return state

    def check_new(self, config: GameConfig) -> None:
        """What ``setup`` lets pass, as games created before these checks were played, refused at creation
        only: ``first_off`` (4.05) takes on or off, and only in an advanced scenario, whose endgame (4.04)
        it replaces; ``turn_limit`` at most ``MAX_TURN_LIMIT``."""
        value = config.options.get("first_off")
        if value is not None and str(value).lower() not in ON_WORDS + OFF_WORDS:
            raise BadArguments(f"first_off (the 'first off' endgame of rule 4.05) must be on or off, not '{value}'")
        name = config.scenario or "learning"
        if str(value).lower() in ON_WORDS and not scenarios().scenarios[name].advanced:
            advanced = [n for n, sc in scenarios().scenarios.items() if sc.advanced]
            raise BadArguments(f"first_off replaces the endgame of the advanced scenarios (rules 4.04, 4.05), "
                               f"and {name} is not one; choose one of {', '.join(advanced)}, or leave first_off out")
        if int(config.options.get("turn_limit", 0)) > MAX_TURN_LIMIT:
            raise BadArguments(f"turn_limit must be at most {MAX_TURN_LIMIT} game turns (0: no limit)")

    def state_model(self) -> type[BaseModel]:
        """The state class."""
        return State

    # -- prompts -------------------------------------------------------------------------

    def pending(self, state: BaseModel) -> list[Prompt]:
        """Who must decide what now."""
        assert isinstance(state, State)
        s = state.step
        if s == "forces":
            sc = flow.scenario(state)
            out = []
            # Secret prompts go only to their seat (others see "a private choice"), so each says its points left.
            for seat in SEATS:
                if seat not in state.ready:
                    used, _ = flow.army_points(state.picks[seat])
                    text = f"Choose your army in secret: exactly {sc.points} combat strength points"
                    if sc.plunge_limit:
                        text += f", no more than {sc.plunge_limit} in Plunge units"
                    text += f"; {sc.points - used} points left. /pick and /drop counters, /ready to commit when none are left"
                    out.append(Prompt(seat=seat, verbs=("pick", "drop", "ready"), text=text, rule=sc.rule, secret=True, group="forces"))
            return out
        if s == "order":
            return [Prompt(seat=state.high, verbs=("choose",), text="You rolled high: choose first move or an end of the map", rule="3.02")]
        if s == "order2":
            low = movement.enemy_of(state, state.high)
            return [Prompt(seat=low, verbs=("choose",), text=f"{state.high} moves first: choose your end of the map", rule="3.02")]
        if s == "move":
            # charge and fly stay listed in the basic game so that trying them explains rule 8.0
            verbs = ("move", "charge", "fly", "split", "overrun", "face", "done")
            return [Prompt(seat=state.active, verbs=verbs, text="Move your units, one counter or stack at a time (a dir: on /move faces it in the same order); /done when finished", rule="6.0")]
        if s == "face":
            return [Prompt(seat=state.active, verbs=("face",), text=f"Face the stack in {state.face_hex}", rule="6.06")]
        if s == "attack":
            # its lines cite their own rules
            return [Prompt(seat=state.active, verbs=("attack", "cancel", "done"), text=self._attack_text(state))]
        if s == "combat" and state.queue:
            return [self._task_prompt(state)]
        return []

    def acting(self, state: State) -> tuple[str, ...]:
        """The seats ``pending`` prompts, without the prompts' texts (an attack phase's works out
        every battle's odds): what listing the legal actions asks, after every action of a playout."""
        s = state.step
        if s == "forces":
            return tuple(seat for seat in SEATS if seat not in state.ready)
        if s == "order":
            return (state.high,)
        if s == "order2":
            return (movement.enemy_of(state, state.high),)
        if s in ("move", "face", "attack"):
            return (state.active,)
        if s == "combat" and state.queue:
            return (state.queue[0].seat,)
        return ()

    def _attack_text(self, state: State) -> str:
        idx = Index(state)
        lines = ["Declare your attacks, one pair at a time, then /done to roll (rules 7.02, 7.03)"]
        for b in battles(state, idx, state.active):
            lines.append(f"on {', '.join(b.defenders)}: {preview(state, idx, state.active, b)}")
        lines.extend(unmet(state, idx, state.active))
        return "\n".join(lines)

    def _task_prompt(self, state: State) -> Prompt:
        t = state.queue[0]
        if t.kind == "loss":
            return Prompt(seat=t.seat, verbs=("lose",), text=f"Choose {t.n} unit(s) to lose among {', '.join(t.units)}", rule=t.rule)
        if t.kind == "retreat":
            units = results.alive(state, t.units)
            return Prompt(seat=t.seat, verbs=("retreat",), text=f"Retreat the enemy stack in {units[0].hex} one hex", rule=t.rule)
        if t.kind == "defend":
            return Prompt(seat=t.seat, verbs=("defend",), text=f"{t.n} hits on your stack: accept them and counter-attack, or retreat (with or without a counter-attack)", rule="7.06")
        if t.kind == "press":
            return Prompt(seat=t.seat, verbs=("press",), text=f"The counter-attack scores {t.n} hits: accept them, or retreat with fewer", rule="7.06")
        if results.advance_choices(state, t):
            return Prompt(seat=t.seat, verbs=("advance", "face", "done"), text="You may advance into the vacated hex or change facing; /done when finished", rule="7.066")
        return Prompt(seat=t.seat, verbs=("advance", "face", "done"), text="You may change facing (no hex was vacated to advance into); /done when finished", rule="7.066")

    # -- legal actions -------------------------------------------------------------------

    def legal_actions(self, state: BaseModel, seat: str) -> list[Action]:
        """Every legal action of ``seat`` now."""
        assert isinstance(state, State)
        key = (seat, state.model_dump_json())
        hit = _CACHE.get(key)
        if hit is None:
            hit = self._legal(state, seat)
            _CACHE[key] = hit
            while len(_CACHE) > 16:
                _CACHE.popitem(last=False)
        return list(hit)

    def _legal(self, state: State, seat: str) -> list[Action]:
        if seat not in self.acting(state):
            return []
        s = state.step
        if s == "forces":
            out = [_act("pick", kind=k) for k in flow.pick_kinds(state) if not flow.pick_problem(state, seat, k)]
            out += [_act("drop", kind=k) for k in sorted(set(state.picks[seat]))]
            if not flow.ready_problem(state, seat):
                out.append(_act("ready"))
            return out
        if s == "order":
            return [_act("choose", pick=p) for p in ("first", "north", "south")]
        if s == "order2":
            return [_act("choose", pick=p) for p in ("north", "south")]
        idx = Index(state)
        if s == "move":
            return self._move_actions(state, idx, seat)
        if s == "face":
            return [_act("face", stack=state.face_hex, dir=DIRS[d]) for d in movement.facing_choices(state, idx, seat)]
        if s == "attack":
            out = [_act("attack", by=p.by, on=p.on) for p in attack_choices(state, idx, seat)]
            out += [_act("cancel", by=p.by, on=p.on) for p in state.plan]
            if not unmet(state, idx, seat):
                out.append(_act("done"))
            return out
        return self._task_actions(state)

    def _move_actions(self, state: State, idx: Index, seat: str) -> list[Action]:
        out = [_move_act(m) for m in movement.ground_moves(state, idx, seat)]
        if state.advanced:
            for c in sorted(state.mine(seat), key=movement.natural):
                if c.type == "PL" and c.where in ("map", "reserve"):
                    out += [_act("fly", unit=c.id, to=d) for d in movement.air_reach(state, seat, c, idx)]
            out += [_act("split", unit=c.id) for c in movement.splittable(state, seat)]
        out += [_act("overrun", stack=a, on=b) for a, b in movement.overruns(state, idx, seat)]
        for h, now in movement.turn_in_place_hexes(idx, seat):
            out += [_act("face", stack=h, dir=d) for i, d in enumerate(DIRS) if i != now]
        return out + [_act("done")]

    def is_legal(self, state: BaseModel, seat: str, action: Action) -> bool:
        """As listed; a /move or /charge may also name the facing it ends with (6.06)."""
        assert isinstance(state, State)
        if action.verb in ("move", "charge") and "dir" in action.args:
            return self._facing_problem(state, seat, action) == "" and super().is_legal(state, seat, _without_dir(action))
        return super().is_legal(state, seat, action)

    def _facing_problem(self, state: State, seat: str, action: Action) -> str:
        d = str(action.args.get("dir", ""))
        if d not in DIRS:
            if d.strip().upper() in DIRS:
                fixed = Action(verb=action.verb, args={**action.args, "dir": d.strip().upper()})
                return f"Write it as {fixed.text()} (names are written as the list offers them)"
            return "Facing is one of N, NE, SE, S, SW, NW (rule 6.06)"
        to = str(action.args.get("to", ""))
        if to == "off":
            return "A unit leaving the map takes no facing: leave dir: out (rule 6.07)"
        if action.verb == "charge" and to in geo().hex_of:
            trial = clone(state)
            for i in str(action.args.get("stack", "")).split("+"):
                if i in trial.counters:
                    trial.counters[i].hex, trial.counters[i].where = to, "map"
            if DIRS.index(d) not in movement.facing_choices(trial, Index(trial), seat, to, True):
                return f"A charging stack must face an enemy it will attack; facing {d} from {to} it faces none (rule 8.021)"
        return ""

    def choices(self, state: BaseModel, seat: str, verb: str, arg: str, given: dict[str, str]) -> list[str]:
        """Autocomplete; a move's or charge's facing may be any of the six (6.06)."""
        if verb in ("move", "charge") and arg == "dir":
            return list(DIRS)
        return super().choices(state, seat, verb, arg, given)

    def _task_actions(self, state: State) -> list[Action]:
        t = state.queue[0]
        if t.kind == "loss":
            return [_act("lose", unit=c.id) for c in results.alive(state, t.units)]
        if t.kind == "retreat":
            gid = movement.group_id(results.alive(state, t.units))
            return [_act("retreat", stack=gid, to=d) for d in results.retreat_choices(state, t)]
        if t.kind == "defend":
            return [_act("defend", choice=c) for c in dicecombat.defence_choices(state, t, state.active)]
        if t.kind == "press":
            return [_act("press", choice=c) for c in dicecombat.attacker_choices(state, t, movement.enemy_of(state, t.seat))]
        out = [_act("advance", stack=h, to=v, dir=d) for h, v in results.advance_choices(state, t) for d in DIRS]
        out += [_act("face", stack=h, dir=d) for h in sorted({c.hex for c in results.alive(state, t.units)}) for d in DIRS]
        return out + [_act("done")]

    # -- applying ------------------------------------------------------------------------

    def _apply(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> tuple[BaseModel, list[Event]]:
        assert isinstance(state, State)
        new = clone(state)
        return new, self._change(new, seat, action, dice)

    def _change(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> list[Event]:
        assert isinstance(state, State)
        state.last_moved, state.last_losses = [], []  # the board showed the last turn until this order
        events: list[Event] = []
        handler = getattr(self, f"_do_{state.step}")
        handler(state, seat, action, dice, events)
        flow.check_end(state, events)
        return events

    def _do_forces(self, state: State, seat: str, a: Action, dice: Dice, events: list[Event]) -> None:
        if a.verb == "ready":
            state.ready.append(seat)
            events.append(Event(kind="committed", text=f"{seat} has chosen"))
            events.append(Event(kind="secret", text=f"Your army: {flow.army_text(state.picks[seat])}", to=(seat,)))
            if len(state.ready) == len(SEATS):
                flow.reveal(state, dice, events)
            return
        kind = str(a.args["kind"])
        if a.verb == "pick":
            state.picks[seat].append(kind)
        else:
            state.picks[seat].remove(kind)
        events.append(Event(kind="secret", text=f"Your army so far: {flow.army_text(state.picks[seat])}", to=(seat,)))

    def _do_order(self, state: State, seat: str, a: Action, dice: Dice, events: list[Event]) -> None:
        flow.choose(state, seat, str(a.args["pick"]), events)

    _do_order2 = _do_order

    def _do_move(self, state: State, seat: str, a: Action, dice: Dice, events: list[Event]) -> None:
        args = {k: str(v) for k, v in a.args.items()}
        if a.verb in ("move", "charge"):
            facing = DIRS.index(args["dir"]) if args.get("dir") else None
            movement.do_move(state, seat, args["stack"], args["to"], a.verb == "charge", events, facing)
        elif a.verb == "fly":
            movement.do_fly(state, seat, state.counters[args["unit"]], args["to"], events)
        elif a.verb == "split":
            movement.split(state, seat, state.counters[args["unit"]], events)
        elif a.verb == "overrun":
            movement.overrun(state, seat, args["stack"], args["on"], dice, events)
        elif a.verb == "face":
            movement.turn_in_place(state, seat, args["stack"], DIRS.index(args["dir"]), events)  # 6.06: free
        else:
            flow.end_movement(state, seat, dice, events)

    def _do_face(self, state: State, seat: str, a: Action, dice: Dice, events: list[Event]) -> None:
        movement.face(state, seat, str(a.args["stack"]), DIRS.index(str(a.args["dir"])), events)
        state.step, state.face_hex, state.face_charge = "move", "", False

    def _do_attack(self, state: State, seat: str, a: Action, dice: Dice, events: list[Event]) -> None:
        if a.verb == "done":
            flow.start_combat(state, seat, dice, events)
            return
        pair = Pair(by=str(a.args["by"]), on=str(a.args["on"]))
        if a.verb == "attack":
            state.plan.append(pair)
        else:
            state.plan.remove(pair)
        idx = Index(state)
        for b in battles(state, idx, seat):
            if pair in b.pairs:
                events.append(Event(kind="plan", text=f"{seat} plans an attack on {', '.join(b.defenders)}: {preview(state, idx, seat, b)}", hexes=tuple(b.defenders)))
        if a.verb == "cancel":
            events.append(Event(kind="plan", text=f"{seat} cancels the attack by {pair.by} on {pair.on}"))

    def _do_combat(self, state: State, seat: str, a: Action, dice: Dice, events: list[Event]) -> None:
        t = state.queue[0]
        args = {k: str(v) for k, v in a.args.items()}
        if a.verb == "lose":
            kill(state, state.counters[args["unit"]], 1, dice, events, f"owner's choice, rule {t.rule}")
            t.n -= 1
            if t.n <= 0:
                state.queue.pop(0)
        elif a.verb == "defend":
            dicecombat.defend(state, t, args["choice"], state.active, dice, events)
            state.queue.pop(0)
        elif a.verb == "press":
            dicecombat.press(state, t, args["choice"], movement.enemy_of(state, seat), events)
            state.queue.pop(0)
        elif a.verb == "retreat":
            results.do_retreat(state, t, args["to"], events)
            state.queue.pop(0)
        elif a.verb == "advance":
            results.do_advance(state, t, args["stack"], args["to"], DIRS.index(args["dir"]), events)
        elif a.verb == "face":
            movement.face(state, seat, args["stack"], DIRS.index(args["dir"]), events)
            t.units = [i for i in t.units if state.counters[i].hex != args["stack"]]
        else:
            state.queue.pop(0)
        flow.run(state, dice, events)

    # -- refusals, view, outcome --------------------------------------------------------

    def explain_illegal(self, state: BaseModel, seat: str, action: Action) -> str:
        """Why an action is refused, naming the unit, the hex and the rule."""
        assert isinstance(state, State)
        prompt = self.prompt_for(state, seat, action.verb)
        if action.verb in ("move", "charge") and "dir" in action.args:
            base = _without_dir(action)
            if super().is_legal(state, seat, base):
                return self._facing_problem(state, seat, action)
            if str(action.args["dir"]).strip().upper() not in DIRS:
                return "Facing is one of N, NE, SE, S, SW, NW (rule 6.06)"
            action = base
        return explain.why(state, seat, action, self.legal_actions(state, seat), prompt.rule if prompt else "")

    def view(self, state: BaseModel, viewer: str | None) -> View:
        """What ``viewer`` may see."""
        assert isinstance(state, State)
        waiting = " and ".join(dict.fromkeys(p.seat for p in self.pending(state)))
        return build(state, viewer).model_copy(update={"active": waiting})

    def outcome(self, state: BaseModel) -> Outcome | None:
        """The result once the game is over."""
        assert isinstance(state, State)
        if state.step != "over":
            return None
        return Outcome(winner=state.winner or None, reason=state.over_reason, score=dict(state.score))

    def verbs(self) -> list[VerbSpec]:
        """The commands of Chitin: I."""
        return verbs.VERBS

    def edit_verbs(self) -> list[VerbSpec]:
        """/mod edit: place, remove or change a counter, or correct a Harvest Chit (in a movement phase)."""
        return editing.SPECS

    def edit(self, state: BaseModel, action: Action) -> tuple[BaseModel, list[Event]]:
        """A moderator's correction of the position; see ``edit.edit``."""
        assert isinstance(state, State)
        return editing.edit(state, action)
