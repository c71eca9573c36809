"""The "assault" mini-game: one round of close assault (close-assault.txt) between two players."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from engine.combat.assault import MODIFIERS, WEAPONS, Assault, Figure, check_assault, resolve_assault
from engine.core.dice import Dice
from engine.core.errors import BadArguments, IllegalAction
from engine.core.protocol import (
    Action,
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

OUT_OF_FIGHT = {
    "attacker": ("killed", "forced_back", "fell_back", "shot_down"),
    "defender": ("broken", "killed_or_captured"),
}
FATE_TEXT = {
    "fights_on": "fights on",
    "broken": "broke and moves a full move away",
    "killed_or_captured": "killed or captured",
    "forced_back": "forced back out of close combat range",
    "killed": "killed",
    "fell_back": "fell back to its position at the start of the round",
    "shot_down": "fell to opportunity fire before contact",
}
_NAMED_WEAPON = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)=([+-]?\d+)$")

OPTIONS_HELP: dict[str, str] = {
    "attackers": "the attacking figures, separated by commas, each name/weapon/modifiers, e.g. "
    "Bug/4,Bug/4 (named Bug1, Bug2) or Sarge/pulse_rifle=3/veterans (weapon: melee, improvised, none or a factor)",
    "defenders": "the defending figures, written as attackers, e.g. Marine/pulse_rifle=3/veterans",
    "pairs": "who fights whom, attacker-defender, e.g. Bug1-Marine,Bug2-Marine (default: every figure faces "
    "at least one opponent, the larger side shared out in turn)",
    "opportunity_fire": "attacking figures downed by the defender's opportunity fire before contact, e.g. Bug2",
    "defender_fired": "yes: the defending unit has already made an attack this round, so no opportunity fire",
    "trapped": "defending figures that cannot move away if they break (then killed or captured), e.g. Marine",
}
MODIFIER_HELP = "Table 5 modifiers: " + ", ".join(f"{k} {v:+d}" for k, v in MODIFIERS.items())


class AssaultState(BaseModel):
    """The figures, the choices made when the assault was set up, and the result once rolled."""

    attackers: list[Figure]
    defenders: list[Figure]
    pairs: list[tuple[str, str]] | None = None
    opportunity_fire: tuple[str, ...] = ()
    defender_fired: bool = False
    result: Assault | None = None


def parse_figures(options: Mapping[str, Any], key: str, trapped: tuple[str, ...] = ()) -> list[Figure]:
    """Figures written ``name/weapon/modifier/...`` and separated by commas."""
    raw = opt.text(options, key)
    if not raw:
        raise BadArguments(f"give the {key}: {key}:Name/weapon/modifiers, for example {key}:Bug1/4,Bug2/4")
    figures = [_parse_figure(item.strip(), key) for item in raw.split(",")]
    ids = opt.number_repeats([f.id for f in figures], key)
    return [f.model_copy(update={"id": i, "can_move_away": i not in trapped}) for f, i in zip(figures, ids)]


def _parse_figure(item: str, key: str) -> Figure:
    name, *tokens = [t.strip() for t in item.split("/")]
    opt.check_name(name, key)
    weapon: int | None = None
    weapon_name = weapon_token = ""
    mods: list[str] = []
    for token in tokens:
        low = token.lower()
        named = _NAMED_WEAPON.match(token)
        if low in MODIFIERS:
            mods.append(low)
            continue
        if low in WEAPONS:
            given, given_name = WEAPONS[low], f"{low} weapon"
        elif named:
            given, given_name = int(named.group(2)), named.group(1).replace("_", " ")
        elif re.fullmatch(r"[+-]?\d+", token):
            given, given_name = int(token), "weapon"
        elif weapon is not None:
            raise BadArguments(
                f"'{token}' for {name} in {key} is not a known modifier (its weapon is '{weapon_token}'); "
                f"the known modifiers are {', '.join(MODIFIERS)} ({MODIFIER_HELP})"
            )
        else:
            raise BadArguments(
                f"'{token}' for {name} in {key} is neither a weapon (melee, improvised, none, a factor such as 3, "
                f"or name=factor such as pulse_rifle=3) nor a modifier; {MODIFIER_HELP}"
            )
        if weapon is not None:
            raise BadArguments(f"{name} in {key} has two weapons ('{weapon_token}' and '{token}'); give one")
        weapon, weapon_name, weapon_token = given, given_name, token
    return Figure.model_validate(
        {"id": name, "weapon": weapon or 0, "weapon_name": weapon_name, "modifiers": mods}
    )


def parse_pairs(options: Mapping[str, Any]) -> list[tuple[str, str]] | None:
    """``Bug1-Marine,Bug2-Marine`` as pairs, or None to pair automatically."""
    raw = opt.text(options, "pairs")
    if not raw:
        return None
    pairs = []
    for item in raw.split(","):
        parts = [p.strip() for p in item.split("-")]
        if len(parts) != 2 or not all(parts):
            raise BadArguments(f"'{item}' in pairs should be attacker-defender, like Bug1-Marine")
        pairs.append((parts[0], parts[1]))
    return pairs


class AssaultGame(GameRules):
    """One round of close assault: the attacker moves into contact and every figure rolls."""

    name = "assault"
    title = "Close assault"
    seats = ("attacker", "defender")
    scenarios = ("standard",)
    options_help = OPTIONS_HELP

    def setup(self, config: GameConfig, dice: Dice) -> BaseModel:
        """Read and check the figures; the dice wait for the attacker's order."""
        opt.check_known(config.options, OPTIONS_HELP)
        trapped = opt.names(config.options, "trapped")
        state = AssaultState(
            attackers=parse_figures(config.options, "attackers"),
            defenders=parse_figures(config.options, "defenders", trapped),
            pairs=parse_pairs(config.options),
            opportunity_fire=opt.names(config.options, "opportunity_fire"),
            defender_fired=opt.flag(config.options, "defender_fired", False),
        )
        unknown = sorted(set(trapped) - {f.id for f in state.defenders})
        if unknown:
            raise BadArguments(
                f"trapped names defending figures; {', '.join(unknown)} is not one of the defenders"
            )
        try:
            check_assault(
                state.attackers,
                state.defenders,
                pairs=state.pairs,
                opportunity_fire=state.opportunity_fire,
                defender_has_fired=state.defender_fired,
            )
        except IllegalAction as exc:
            raise BadArguments(str(exc)) from None
        return state

    def pending(self, state: BaseModel) -> list[Prompt]:
        """The attacker's order to close, until the assault is rolled."""
        assert isinstance(state, AssaultState)
        if state.result is not None:
            return []
        return [
            Prompt(
                seat="attacker",
                verbs=("assault",),
                text="move into contact and roll the close assault",
                rule="Close Assault",
            )
        ]

    def legal_actions(self, state: BaseModel, seat: str) -> list[Action]:
        """One order: assault."""
        return [Action(verb="assault")] if self.pending(state) and seat == "attacker" else []

    def _apply(
        self, state: BaseModel, seat: str, action: Action, dice: Dice
    ) -> tuple[BaseModel, list[Event]]:
        assert isinstance(state, AssaultState)
        result = _resolve(state, dice)
        new = state.model_copy(update={"result": result})
        events = [Event(kind="combat", text=line) for line in _story(new)]
        out = self.outcome(new)
        assert out is not None
        events.append(Event(kind="end", text=out.reason))
        return new, events

    def view(self, state: BaseModel, viewer: str | None) -> View:
        """No map: the caption lists the figures, then every roll and pairing."""
        assert isinstance(state, AssaultState)
        lines = [_roster("Attackers", state.attackers), _roster("Defenders", state.defenders)]
        lines += _story(state)
        out = self.outcome(state)
        lines.append(out.reason if out else "Waiting on the attacker to move into contact (/assault).")
        sides = {"attacker": "red", "defender": "blue"}
        active = "" if out else "attacker"
        return View(
            game=self.name,
            map="",
            title=self.title,
            phase="close assault",
            active=active,
            sides=sides,
            counters=_figure_counters(state),
            caption=tuple(lines),
        )

    def outcome(self, state: BaseModel) -> Outcome | None:
        """After the round: a side wins when every opponent is out of the fight and it is not."""
        assert isinstance(state, AssaultState)
        if state.result is None:
            return None
        fates = state.result.fates
        out_a = [f.id for f in state.attackers if fates[f.id] in OUT_OF_FIGHT["attacker"]]
        out_d = [f.id for f in state.defenders if fates[f.id] in OUT_OF_FIGHT["defender"]]
        score = {"attacker": len(out_d), "defender": len(out_a)}
        all_a, all_d = len(out_a) == len(state.attackers), len(out_d) == len(state.defenders)
        winner = "attacker" if all_d and not all_a else "defender" if all_a and not all_d else None
        fate_line = "; ".join(f"{k} {FATE_TEXT[v]}" for k, v in fates.items())
        tail = "" if winner else " Survivors make their activation test next round."
        return Outcome(winner=winner, reason=f"After the close assault: {fate_line}.{tail}", score=score)

    def verbs(self) -> list[VerbSpec]:
        """The attacker's one order."""
        return [
            VerbSpec(
                verb="assault", help="move into contact and roll the close assault", rule="Close Assault"
            )
        ]

    def state_model(self) -> type[BaseModel]:
        """The pydantic class of the state."""
        return AssaultState


def _resolve(state: AssaultState, dice: Dice) -> Assault:
    return resolve_assault(
        state.attackers,
        state.defenders,
        dice,
        pairs=state.pairs,
        opportunity_fire=state.opportunity_fire,
        defender_has_fired=state.defender_fired,
    )


_FATE_WORD = {"fights_on": "fights", "broken": "broken", "killed_or_captured": "taken", "forced_back": "back",
              "killed": "killed", "fell_back": "fell back", "shot_down": "shot"}


def _figure_counters(state: AssaultState) -> tuple[CounterView, ...]:
    """Each figure as a counter for the card: its id, weapon factor and, after the round, its fate."""
    fates = state.result.fates if state.result is not None else {}
    out = []
    for seat, figures in (("attacker", state.attackers), ("defender", state.defenders)):
        for f in figures:
            fate = fates.get(f.id)
            sub = _FATE_WORD[fate] if fate else f"{f.weapon:+d}"
            out.append(CounterView(hex="", side=seat, label=f.id, sub=sub, id=f.id))
    return tuple(out)


def _roster(label: str, figures: list[Figure]) -> str:
    def one(f: Figure) -> str:
        bits = [f"{f.weapon_name or 'weapon'} {f.weapon:+d}"] + [
            f"{m.replace('_', ' ')} {MODIFIERS[m]:+d}" for m in f.modifiers
        ]
        return f"{f.id} ({', '.join(bits)})"

    return f"{label}: " + ", ".join(one(f) for f in figures) + "."


def _story(state: AssaultState) -> list[str]:
    r = state.result
    if r is None:
        return []
    lines = []
    if state.opportunity_fire:
        lines.append(f"Opportunity fire before contact downs {', '.join(state.opportunity_fire)}.")
    lines += [roll.text() + "." for roll in r.rolls]
    lines += [f"{n}. {c.text()}." for n, c in enumerate(r.combats, 1)]
    return lines
