"""The protocol every game answers: setup, pending prompts, legal actions, apply, view, outcome.

A game is a ``GameRules`` object registered under its name (``engine.registry``).
Its state is a pydantic model that ``apply`` never mutates: it returns a new state
and the events that say what happened. Every action is checked against the legal
choices before it is applied, so the legal choices are the single source of input
(autocomplete, buttons and the random playouts all read them).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.dice import Dice, Roll
from engine.core.errors import BadArguments, IllegalAction, NotYourTurn

ButtonStyle = Literal["primary", "secondary", "danger"]
"""How a button looks: the usual choice, a side choice, or one that destroys or ends something."""

ArgValue = str | int
"""An argument as a player gives it: a hex number ``0507``, a unit id, a count."""


class Action(BaseModel):
    """One order: a verb and its arguments, e.g. ``move {unit: B3, to: 0608}``."""

    model_config = ConfigDict(frozen=True)

    verb: str
    args: dict[str, ArgValue] = Field(default_factory=dict)

    def key(self) -> tuple[str, tuple[tuple[str, str], ...]]:
        """A hashable, order-free identity used to compare with the legal choices."""
        return self.verb, tuple(sorted((k, str(v)) for k, v in self.args.items()))

    def text(self) -> str:
        """The action as a console line would write it: ``/move unit:B3 to:0608``."""
        parts = [f"/{self.verb}"] + [f"{k}:{v}" for k, v in self.args.items()]
        return " ".join(parts)


class ArgSpec(BaseModel):
    """One argument of a verb: its name, what it means, and how people write it."""

    model_config = ConfigDict(frozen=True)

    name: str
    help: str
    kind: Literal["hex", "unit", "choice", "int", "text", "direction", "list"] = "choice"
    required: bool = True


class VerbSpec(BaseModel):
    """A game command: its verb, a plain description, the rule it applies, its arguments."""

    model_config = ConfigDict(frozen=True)

    verb: str
    help: str
    rule: str = ""
    args: tuple[ArgSpec, ...] = ()
    secret: bool = False


class Prompt(BaseModel):
    """A decision the rules wait on: who must decide, which verbs answer it, in plain words."""

    model_config = ConfigDict(frozen=True)

    seat: str
    verbs: tuple[str, ...]
    text: str
    rule: str = ""
    secret: bool = False
    """Answered privately; the channel sees only a commitment until all are in."""
    group: str = ""
    """Prompts answered together (both players' aspects in one combat round) share a group."""


class Event(BaseModel):
    """Something that happened. ``to`` lists the seats that may read it; empty means everyone."""

    model_config = ConfigDict(frozen=True)

    kind: str
    text: str
    to: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    """Hex numbers the event touched, for the board's highlights."""
    data: dict[str, Any] = Field(default_factory=dict)

    @property
    def public(self) -> bool:
        return not self.to


class Outcome(BaseModel):
    """How a game ended."""

    model_config = ConfigDict(frozen=True)

    winner: str | None
    """The winning seat, or None for a draw."""
    reason: str
    score: dict[str, int] = Field(default_factory=dict)


class Player(BaseModel):
    """A seat and the person in it."""

    model_config = ConfigDict(frozen=True)

    seat: str
    name: str


class GameConfig(BaseModel):
    """Everything fixed when a game is created."""

    model_config = ConfigDict(frozen=True)

    game: str
    scenario: str = ""
    options: dict[str, Any] = Field(default_factory=dict)
    players: tuple[Player, ...] = ()

    def name_of(self, seat: str) -> str:
        for p in self.players:
            if p.seat == seat:
                return p.name
        return seat


# --- the view a renderer draws -----------------------------------------------------------


class CounterView(BaseModel):
    """One counter as a viewer may see it."""

    model_config = ConfigDict(frozen=True)

    hex: str
    side: str
    label: str
    sub: str = ""
    """A second line: strengths such as ``12-6``, a count, a unit type."""
    facing: int | None = None
    """Direction 0..5 (N, NE, SE, S, SW, NW) the counter faces, where facing matters."""
    disrupted: bool = False
    hidden: bool = False
    """Face down: the viewer may not see what it is."""
    id: str = ""


class MarkerView(BaseModel):
    """A marker in a hex: a harvest chit, a charge, a cleared hex."""

    model_config = ConfigDict(frozen=True)

    hex: str
    kind: str
    text: str = ""


class ArrowView(BaseModel):
    """An arrow from one hex to another, with a label (an attack and its odds)."""

    model_config = ConfigDict(frozen=True)

    src: str
    dst: str
    label: str = ""
    kind: str = "attack"


class HighlightView(BaseModel):
    """A hex outlined because something happened there: moved, combat, loss, blast, legal."""

    model_config = ConfigDict(frozen=True)

    hex: str
    kind: str


class View(BaseModel):
    """What one viewer may see of a game; the renderer draws it and the bot summarises it."""

    model_config = ConfigDict(frozen=True)

    game: str
    map: str
    title: str
    turn: int = 0
    phase: str = ""
    active: str = ""
    sides: dict[str, str] = Field(default_factory=dict)
    """Seat -> colour name used for its counters (e.g. ``{"BORG": "dark"}``)."""
    counters: tuple[CounterView, ...] = ()
    markers: tuple[MarkerView, ...] = ()
    arrows: tuple[ArrowView, ...] = ()
    highlights: tuple[HighlightView, ...] = ()
    boxes: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Off-map holding boxes and their contents ("BORG tower": 3 Children...)."""
    caption: tuple[str, ...] = ()
    """Lines of text under the board."""
    private: tuple[str, ...] = ()
    """Lines only this viewer may read (their own committed choices)."""


# --- the rules interface ---------------------------------------------------------------------


MODERATOR = "@moderator"
"""The seat of a moderator's correction in the log (``/mod edit``)."""


class GameRules(ABC):
    """The protocol every game implements; see DESIGN.md."""

    name: str
    title: str
    seats: tuple[str, ...]
    scenarios: tuple[str, ...] = ("standard",)
    options_help: dict[str, str] = {}

    @abstractmethod
    def setup(self, config: GameConfig, dice: Dice) -> BaseModel:
        """A new game; raise ``BadArguments`` naming any bad scenario or option."""

    def check_new(self, config: GameConfig) -> None:
        """Checks of a new game's options stricter than ``setup``'s, made only when a game is created:
        ``setup`` also rebuilds recorded games, which must load with what they were created with.
        Raise ``BadArguments`` naming the option and what it takes. Most games need none."""
        return None

    @abstractmethod
    def pending(self, state: BaseModel) -> list[Prompt]:
        """Who must decide what now. Empty exactly when the game is over."""

    @abstractmethod
    def legal_actions(self, state: BaseModel, seat: str) -> list[Action]:
        """Every legal action of ``seat`` now. Non-empty whenever ``seat`` has a prompt."""

    @abstractmethod
    def _apply(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> tuple[BaseModel, list[Event]]:
        """Apply an action already known to be legal."""

    @abstractmethod
    def view(self, state: BaseModel, viewer: str | None) -> View:
        """What ``viewer`` (a seat, or None for a spectator) may see."""

    @abstractmethod
    def outcome(self, state: BaseModel) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def verbs(self) -> list[VerbSpec]:
        """The game's commands, for help texts and slash-command registration."""

    def state_model(self) -> type[BaseModel]:
        """The pydantic class of this game's state (to load it from JSON)."""
        raise NotImplementedError

    # -- shared behaviour --------------------------------------------------------------------

    def pending_now(self, state: BaseModel) -> list[Prompt]:
        """``pending(state)``, remembered for the last state asked about.

        A state is never changed once ``apply`` has returned it, so the answer for the
        same object stays true; the bot asks several times per command.
        """
        cache = self.__dict__.get("_pending_cache")
        if cache is not None and cache[0] is state:
            return list(cache[1])
        prompts = self.pending(state)
        self.__dict__["_pending_cache"] = (state, prompts)
        return list(prompts)

    def legal_now(self, state: BaseModel, seat: str) -> list[Action]:
        """``legal_actions(state, seat)``, remembered for the last state asked about (as ``pending_now``)."""
        cache = self.__dict__.get("_legal_cache")
        if cache is None or cache[0] is not state:
            by_seat: dict[str, list[Action]] = {}
            cache = (state, by_seat)
            self.__dict__["_legal_cache"] = cache
        known: dict[str, list[Action]] = cache[1]
        if seat not in known:
            known[seat] = self.legal_actions(state, seat)
        return list(known[seat])

    def explain_illegal(self, state: BaseModel, seat: str, action: Action) -> str:
        """Why ``action`` is not legal; games override this to cite the exact rule."""
        return f"{action.text()} is not a legal order now"

    def edit(self, state: BaseModel, action: Action) -> tuple[BaseModel, list[Event]]:
        """A moderator's correction of the position: place, remove or change a unit (``/mod edit``).

        ``action.verb`` is the operation (``place``, ``remove``, ``change``) and its args name
        the unit, hex and values; games list them in ``edit_verbs``. Never mutates ``state``.
        Raises ``BadArguments`` with a readable message when the edit cannot be made.
        """
        raise BadArguments(f"{self.title} has no position editing; a moderator can roll back instead")

    def edit_verbs(self) -> list[VerbSpec]:
        """The operations ``edit`` understands, for /mod edit help."""
        return []

    def keeps_sealed(self, state: BaseModel) -> bool:
        """Whether sealed choices whose phase is over stay sealed for now (e.g. hidden charges
        until they go off); otherwise the transport opens every one as soon as no secret
        decision waits any more. A game's own "reveal" event opens them in any case."""
        return False

    # -- how the bot presents an action (engine/core/labels.py has the shared defaults) -------

    def label(self, action: Action) -> str:
        """The words on a button for ``action``, in the game's own terms ("Attack 0913 from 0914").

        A game names its verbs in ``engine/games/<game>/labels.py`` (``label(action)``);
        a game without one, or a verb it leaves out, gets the shared default.
        """
        from engine.core.labels import default_label, game_labels

        own = game_labels(self)
        return own.label(action) if own is not None else default_label(action)

    def button_style(self, action: Action) -> ButtonStyle:
        """``danger`` for a destructive or ending choice, ``primary`` for the usual one."""
        from engine.core.labels import default_style, game_labels

        own = game_labels(self)
        style: ButtonStyle = own.style(action) if own is not None else default_style(action)
        return style

    def offered_verbs(self, config: GameConfig) -> list[VerbSpec]:
        """The orders a game with these options has (help lists no order its options leave out)."""
        from engine.core.labels import game_labels

        own = game_labels(self)
        offered = getattr(own, "offered", None)
        return [v for v in self.verbs() if offered is None or offered(config, v.verb)]

    def caution(self, state: BaseModel, seat: str, action: Action) -> str:
        """A warning a player must confirm before a legal ``action`` that is easy to regret; empty when none.

        Games answer in ``engine/games/<game>/labels.py`` (``caution(state, seat, action)``).
        """
        from engine.core.labels import game_labels

        own = game_labels(self)
        check = getattr(own, "caution", None)
        return str(check(state, seat, action)) if check is not None else ""

    def apply(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> tuple[BaseModel, list[Event]]:
        """Check legality, then apply. Raises a ``RuleError`` and changes nothing when illegal."""
        if seat == MODERATOR:
            return self.edit(state, action)
        prompts = [p for p in self.pending_now(state) if p.seat == seat]
        if not prompts:
            waiting = sorted({p.seat for p in self.pending_now(state)})
            if not waiting:
                raise NotYourTurn("the game is over")
            raise NotYourTurn(f"the game is waiting on {', '.join(waiting)}, not {seat}")
        if not any(action.verb in p.verbs for p in prompts):
            allowed = sorted({v for p in prompts for v in p.verbs})
            raise BadArguments(f"/{action.verb} is not an answer now; you may use " + ", ".join("/" + v for v in allowed))
        if not self.is_legal(state, seat, action):
            raise IllegalAction(self.explain_illegal(state, seat, action))
        return self._apply(state, seat, action, dice)

    def is_legal(self, state: BaseModel, seat: str, action: Action) -> bool:
        """Whether ``action`` is among the legal actions; games may answer faster than by listing them all."""
        key = action.key()
        return any(a.key() == key for a in self.legal_now(state, seat) if a.verb == action.verb)

    def replay_step(self, state: BaseModel, seat: str, action: Action, dice: Dice, *,
                    owned: bool = False) -> tuple[BaseModel, list[Event]]:
        """Apply an action from a log that was checked when it was written (no second legality check).

        ``owned`` says the caller holds the only reference to ``state`` and will not look at it
        again: a game that can change a state in place (``_change``) then skips its copy.
        """
        if seat == MODERATOR:
            return self.edit(state, action)
        if owned:
            events = self._change(state, seat, action, dice)
            if events is not None:
                return state, events
        return self._apply(state, seat, action, dice)

    def _change(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> list[Event] | None:
        """Apply an action known to be legal to ``state`` itself; None (and nothing changed) where the
        game only applies to a copy. ``_apply`` is then ``_change`` of a copy."""
        return None

    def prompt_for(self, state: BaseModel, seat: str, verb: str) -> Prompt | None:
        """The pending prompt of ``seat`` that ``verb`` answers, if any."""
        for p in self.pending_now(state):
            if p.seat == seat and verb in p.verbs:
                return p
        return None

    def choices(self, state: BaseModel, seat: str, verb: str, arg: str, given: dict[str, str]) -> list[str]:
        """Legal values of ``arg`` for ``verb``, given the arguments already chosen (autocomplete)."""
        out: list[str] = []
        seen: set[str] = set()
        for a in self.legal_now(state, seat):
            if a.verb != verb or arg not in a.args:
                continue
            if any(k in a.args and str(a.args[k]) != str(v) for k, v in given.items() if k != arg):
                continue
            v = str(a.args[arg])
            if v not in seen:
                seen.add(v)
                out.append(v)
        return out


class Step(BaseModel):
    """A recorded action: who, what, and the dice it used."""

    model_config = ConfigDict(frozen=True)

    seat: str
    action: Action
    rolls: tuple[Roll, ...] = ()
