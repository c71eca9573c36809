"""The "dice" mini-game: one step-reduction combat (step-reduction-combat.txt) between two players."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast, get_args

from pydantic import BaseModel

from engine.combat.stepdice import (
    AttackerChoice,
    DefenderChoice,
    Exchange,
    Side,
    StepOptions,
    choose_advance,
    choose_attack,
    choose_defence,
    hits_text,
    open_exchange,
    place_hit,
    reduced_hits,
    retreat_count,
)
from engine.combat.stepoptions import AdvanceRule, HitAllocation, ReducePer, StackingBy
from engine.combat.steps import Stack, Unit, land_hit
from engine.core.dice import Dice
from engine.core.errors import BadArguments, IllegalAction
from engine.core.protocol import (
    Action,
    ArgSpec,
    CounterView,
    Event,
    GameConfig,
    GameRules,
    Outcome,
    Prompt,
    VerbSpec,
    View,
)
from engine.games.resolve import options as opt

SIDES: tuple[Side, Side] = ("attacker", "defender")
PREFIX = {"attacker": "attack", "defender": "defence"}
# Sections of the combat text, written to read well after "rule " (the bot prints "(rule X)").
SEQUENCE_2 = "'Combat sequence', step 2"
TAKING_HITS = "'Taking hits'"
ADVANCING = "'Advancing'"
_UNIT = re.compile(r"^(?:([^=]+)=)?(\d+)([xs]*)$", re.IGNORECASE)

OPTIONS_HELP: dict[str, str] = {
    "attack": "the attacking stack, top first: strengths separated by commas, e.g. 8 or 4,4 or tank=4x,2s "
    "(x: extra defense, two hits a step; s: soft, two points a step)",
    "defence": "the defending stack, written as attack is",
    "attack_advantages": "re-rolls of all misses when the attacker rolls (0-5, default 0)",
    "defence_advantages": "re-rolls of all misses when the defender counter-attacks (0-5, default 0)",
    "attack_redoubt": "intrinsic strength of a redoubt the attacker holds, added to its dice (0-20)",
    "defence_redoubt": "intrinsic strength of a redoubt the defender holds, added to its counter-attack (0-20)",
    "attack_cover": "yes: the attacker's position (a city) gives every unit extra defense (default no)",
    "defence_cover": "yes: the defender's position (a city) gives every unit extra defense (default no)",
    "attack_retreat": "no: the attacker has no hex to retreat to (default yes)",
    "defence_retreat": "no: the defender has no hex to retreat to (default yes)",
    "hit_allocation": "who places hits: attacker (the side that rolled), defender (the owner) or stacking_order",
    "reduce_per": "note [1] ignores one hit per two retreating: strength (points, default) or units",
    "redoubt_absorbs": "yes: a redoubt absorbs its strength in hits before its units take any (default no)",
    "stacking": "stacking limit counted in: none (default), units or strength",
    "stacking_limit": "the stacking limit a hex (1-99), with stacking:units or stacking:strength",
    "advance": "on_retreat (default: advance only into a hex vacated by a retreat) or on_retreat_or_elimination",
}


class StepGameState(BaseModel):
    """A step-reduction combat in progress."""

    exchange: Exchange
    start: dict[str, int]
    """Each side's strength before the combat."""


def parse_stack(options: Mapping[str, Any], side: str) -> Stack:
    """A side's stack from its options (``attack``, ``attack_advantages``...)."""
    key = PREFIX[side]
    raw = opt.text(options, key)
    if not raw:
        raise BadArguments(f"give the {side}'s strength: {key}:8, or unit by unit like {key}:4,4x,2s")
    units = tuple(_parse_unit(item.strip(), i, side, key) for i, item in enumerate(raw.split(",")))
    ids = opt.number_repeats([u.id for u in units], key)
    units = tuple(u.model_copy(update={"id": i}) for u, i in zip(units, ids))
    stack = Stack(
        units=units,
        redoubt=opt.number(options, f"{key}_redoubt", 0, 0, 20),
        cover=opt.flag(options, f"{key}_cover", False),
        advantages=opt.number(options, f"{key}_advantages", 0, 0, 5),
    )
    if stack.strength + stack.redoubt > 99:
        raise BadArguments(
            f"{key} adds up to {stack.strength + stack.redoubt} dice; 99 is the most one roll may use"
        )
    return stack


def _parse_unit(item: str, i: int, side: str, key: str) -> Unit:
    m = _UNIT.match(item)
    if not m or int(m.group(2)) == 0:
        raise BadArguments(
            f"'{item}' in {key} is not a unit: write a strength from 1 up, optionally a name before '=' "
            "and x (extra defense) or s (soft) after, like 4, tank=4x or 8s"
        )
    name = opt.check_name(m.group(1).strip(), key) if m.group(1) else f"{side[0].upper()}{i + 1}"
    flags = m.group(3).lower()
    return Unit(id=name, strength=int(m.group(2)), extra_defence="x" in flags, soft="s" in flags)


def parse_step_options(options: Mapping[str, Any]) -> StepOptions:
    """The combat system's options from ``/resolve dice`` options; the values are StepOptions' own."""
    fields: dict[str, Any] = {}
    for key, values in (
        ("hit_allocation", HitAllocation),
        ("reduce_per", ReducePer),
        ("stacking", StackingBy),
        ("advance", AdvanceRule),
    ):
        fields[key] = opt.choice(options, key, get_args(values), StepOptions.model_fields[key].default)
    fields["redoubt_absorbs"] = opt.flag(options, "redoubt_absorbs", False)
    fields["stacking_limit"] = opt.number(options, "stacking_limit", 0, 0, 99)
    if fields["stacking"] != "none" and fields["stacking_limit"] < 1:
        raise BadArguments(f"stacking:{fields['stacking']} needs stacking_limit, a number from 1 to 99")
    if fields["stacking"] == "none" and fields["stacking_limit"]:
        raise BadArguments("stacking_limit counts something only with stacking:units or stacking:strength; "
                           "add one of them, or leave stacking_limit out")
    return StepOptions.model_validate(fields)


class StepDiceGame(GameRules):
    """One attack and its answer: the defender's choice, the attacker's, the hits, the advance."""

    name = "dice"
    title = "Step-reduction combat"
    seats = SIDES
    scenarios = ("standard",)
    options_help = OPTIONS_HELP

    def setup(self, config: GameConfig, dice: Dice) -> BaseModel:
        """Read the forces and options, then roll the attack."""
        opt.check_known(config.options, OPTIONS_HELP)
        attacker, defender = parse_stack(config.options, "attacker"), parse_stack(config.options, "defender")
        names = [u.id for u in attacker.units + defender.units]
        if len(set(names)) != len(names):
            raise BadArguments("the attacking and defending units need different names")
        try:
            ex = open_exchange(
                attacker,
                defender,
                parse_step_options(config.options),
                dice,
                attacker_can_retreat=opt.flag(config.options, "attack_retreat", True),
                defender_can_retreat=opt.flag(config.options, "defence_retreat", True),
            )
        except IllegalAction as exc:  # a stack over the stacking limit is a bad option here
            raise BadArguments(str(exc)) from None
        return StepGameState(
            exchange=ex, start={"attacker": attacker.strength, "defender": defender.strength}
        )

    def pending(self, state: BaseModel) -> list[Prompt]:
        """The one decision the combat waits on."""
        ex = _ex(state)
        if ex.step == "defender_choice":
            return [
                Prompt(seat="defender", verbs=("defend",), text=_defender_text(ex), rule=SEQUENCE_2)
            ]
        if ex.step == "attacker_choice":
            return [
                Prompt(seat="attacker", verbs=("respond",), text=_attacker_text(ex), rule=SEQUENCE_2)
            ]
        if ex.step == "hits" and ex.placing is not None and ex.tally is not None:
            seat = ex.chooser() or ex.placing
            text = f"place the next of {hits_text(ex.tally.remaining)} on the {ex.placing}'s stack"
            return [Prompt(seat=seat, verbs=("hit",), text=text, rule=TAKING_HITS)]
        if ex.step == "advance" and ex.advancing is not None:
            text = "move into the hex the enemy left, or hold"
            return [Prompt(seat=ex.advancing, verbs=("advance",), text=text, rule=ADVANCING)]
        return []

    def legal_actions(self, state: BaseModel, seat: str) -> list[Action]:
        """Every answer open to ``seat`` now."""
        ex = _ex(state)
        if not any(p.seat == seat for p in self.pending(state)):
            return []
        if ex.step == "defender_choice":
            return [Action(verb="defend", args={"choice": c}) for c in ex.defender_options()]
        if ex.step == "attacker_choice":
            return [Action(verb="respond", args={"choice": c}) for c in ex.attacker_options()]
        if ex.step == "hits":
            return [Action(verb="hit", args={"unit": u}) for u in ex.targets()]
        return [Action(verb="advance", args={"choice": c}) for c in ("advance", "hold")]

    def explain_illegal(self, state: BaseModel, seat: str, action: Action) -> str:
        """Why an answer is refused, with the answers that are open."""
        ex = _ex(state)
        given = str(next(iter(action.args.values()), "")).strip()
        answers = self.legal_actions(state, seat)
        legal = ", ".join(a.text() for a in answers)
        for a in answers:
            if a.verb == action.verb and str(next(iter(a.args.values()), "")).lower() == given.lower():
                return f"Write it as {a.text()} (answers are written as the list offers them)"
        if action.verb == "hit" and ex.placing is not None and ex.tally is not None:
            ids = {u.id.lower(): u.id for u in ex.stack(ex.placing).units}
            given = ids.get(given.lower(), given)
            try:
                land_hit(ex.stack(ex.placing), ex.tally, given)
            except IllegalAction as exc:
                return f"{exc} (rule {TAKING_HITS})"
        if given.lower() in ("retreat", "retreat_and_counter"):
            who = "defender" if action.verb == "defend" else "attacker"
            return (
                f"the {who} has no hex to retreat to in this combat ({PREFIX[who]}_retreat:no); "
                f"you may answer: {legal}"
            )
        return f"{action.text()} is not an answer now; you may answer: {legal}"

    def _apply(
        self, state: BaseModel, seat: str, action: Action, dice: Dice
    ) -> tuple[BaseModel, list[Event]]:
        assert isinstance(state, StepGameState)
        ex = state.exchange
        arg = str(next(iter(action.args.values())))
        if action.verb == "defend":
            new = choose_defence(ex, cast(DefenderChoice, arg), dice)
        elif action.verb == "respond":
            new = choose_attack(ex, cast(AttackerChoice, arg))
        elif action.verb == "hit":
            new = place_hit(ex, arg)
        else:
            new = choose_advance(ex, arg == "advance")
        events = [Event(kind="combat", text=n) for n in new.notes[len(ex.notes) :]]
        result = state.model_copy(update={"exchange": new})
        out = self.outcome(result)
        if out is not None:
            events.append(Event(kind="end", text=out.reason))
        return result, events

    def view(self, state: BaseModel, viewer: str | None) -> View:
        """No map: the caption tells the whole combat."""
        ex = _ex(state)
        lines = [_forces(ex)] + list(ex.notes)
        prompts = self.pending(state)
        phase = ex.step.replace("_", " ")
        if prompts:
            lines.append(f"Waiting on the {prompts[0].seat}: {prompts[0].text}.")
        out = self.outcome(state)
        if out is not None:
            lines.append(out.reason)
        active = prompts[0].seat if prompts else ""
        sides = {"attacker": "red", "defender": "blue"}
        return View(
            game=self.name,
            map="",
            title=self.title,
            phase=phase,
            active=active,
            sides=sides,
            counters=_counters(ex),
            caption=tuple(lines),
        )

    def outcome(self, state: BaseModel) -> Outcome | None:
        """Done once the last decision is made: the side that destroyed more strength wins."""
        assert isinstance(state, StepGameState)
        ex = state.exchange
        if ex.step != "done":
            return None
        lost: dict[str, int] = {s: state.start[s] - ex.stack(s).strength for s in SIDES}
        score = {"attacker": lost["defender"], "defender": lost["attacker"]}
        winner = None if score["attacker"] == score["defender"] else max(score, key=lambda s: score[s])
        return Outcome(winner=winner, reason=_result_text(ex, lost), score=score)

    def verbs(self) -> list[VerbSpec]:
        """The four answers of the combat sequence."""
        return [
            VerbSpec(
                verb="defend",
                help="the defender's choice after the attack",
                rule=SEQUENCE_2,
                args=(ArgSpec(name="choice", help="accept_and_counter, retreat or retreat_and_counter"),),
            ),
            VerbSpec(
                verb="respond",
                help="the attacker's choice after a counter-attack",
                rule=SEQUENCE_2,
                args=(ArgSpec(name="choice", help="accept or retreat"),),
            ),
            VerbSpec(
                verb="hit",
                help="place the next hit on a unit",
                rule=TAKING_HITS,
                args=(ArgSpec(name="unit", help="the unit that takes the hit", kind="unit"),),
            ),
            VerbSpec(
                verb="advance",
                help="move into the vacated hex, or hold",
                rule=ADVANCING,
                args=(ArgSpec(name="choice", help="advance or hold"),),
            ),
        ]

    def state_model(self) -> type[BaseModel]:
        """The pydantic class of the state."""
        return StepGameState


def _ex(state: BaseModel) -> Exchange:
    assert isinstance(state, StepGameState)
    return state.exchange


def _defender_text(ex: Exchange) -> str:
    hits, d = ex.attack.hits, ex.defender
    parts = [
        f"the attack scored {hits_text(hits)}: accept them and counter-attack with {ex.counter_dice(False)}"
    ]
    if ex.defender_can_retreat:
        reduced = reduced_hits(hits, retreat_count(d, ex.options))
        parts.append(f"retreat taking {reduced}")
        parts.append(f"or retreat taking {reduced} and counter-attack with {ex.counter_dice(True)}")
    return ", ".join(parts)


def _attacker_text(ex: Exchange) -> str:
    hits = ex.counter.hits if ex.counter else 0
    text = f"the counter-attack scored {hits_text(hits)}: accept them"
    if ex.attacker_can_retreat:
        text += f", or retreat taking {reduced_hits(hits, retreat_count(ex.attacker, ex.options))}"
    return text


def _counters(ex: Exchange) -> tuple[CounterView, ...]:
    """Each side's units as counters for the card: id, strength left, armor or soft."""
    out = []
    for seat, stack in (("attacker", ex.attacker), ("defender", ex.defender)):
        for u in stack.units:
            kind = " armor" if u.extra_defence else (" soft" if u.soft else "")
            out.append(CounterView(hex="", side=seat, label=u.id, sub=f"{u.strength}{kind}", id=u.id))
    return tuple(out)


def _forces(ex: Exchange) -> str:
    def one(s: Stack) -> str:
        units = ", ".join(
            f"{u.id} {u.strength}{'x' if u.extra_defence else ''}{'s' if u.soft else ''}" for u in s.units
        )
        extra = (
            [f"redoubt {s.redoubt}"] * bool(s.redoubt)
            + ["cover"] * s.cover
            + [f"{s.advantages} re-rolls"] * bool(s.advantages)
        )
        return (units or "eliminated") + (f" ({', '.join(extra)})" if extra else "")

    return f"Attacker: {one(ex.attacker)}. Defender: {one(ex.defender)}."


def _result_text(ex: Exchange, lost: Mapping[str, int]) -> str:
    def fate(side: Side) -> str:
        stack = ex.stack(side)
        moved = " retreated," if ex.retreated(side) else (" advanced," if side in ex.advanced else "")
        left = f"{stack.strength} left" if stack.units else "eliminated"
        return f"the {side}{moved} lost {lost[side]} strength, {left}"

    return "Result: " + "; ".join(fate(s) for s in SIDES) + "."
