"""A tiny two-seat game for testing the bot core: a pile of stones and a secret guess.

Each round both players secretly guess "odd" or "even" (a secret group); when both
are in, a die is rolled and each right guess scores a point. Then the leader takes
1-3 stones from the pile publicly. The game ends when the pile is empty; the higher
score wins. It exercises secret prompts, reveals, dice, phases and outcomes.
"""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.dice import Dice
from engine.core.errors import BadArguments
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


class ToyState(BaseModel):
    pile: int = 7
    round: int = 1
    step: str = "guess"
    guesses: dict[str, str] = {}
    score: dict[str, int] = {"A": 0, "B": 0}
    taker: str = "A"


class ToyGame(GameRules):
    name = "toy"
    title = "Toy"
    seats = ("A", "B")
    scenarios = ("standard", "short")
    options_help = {"pile": "stones in the pile (1-20)"}

    def setup(self, config: GameConfig, dice: Dice) -> BaseModel:
        pile = config.options.get("pile", "7" if config.scenario != "short" else "3")
        if not str(pile).isdigit() or not 1 <= int(pile) <= 20:
            raise BadArguments("pile must be a number from 1 to 20")
        unknown = set(config.options) - {"pile"}
        if unknown:
            raise BadArguments(f"unknown option {sorted(unknown)[0]}; the options are: pile")
        first = "A" if dice.roll(6, "who takes first") <= 3 else "B"
        return ToyState(pile=int(pile), taker=first)

    def pending(self, state: BaseModel) -> list[Prompt]:
        assert isinstance(state, ToyState)
        if state.pile <= 0:
            return []
        if state.step == "guess":
            return [Prompt(seat=s, verbs=("guess",), text="guess odd or even", secret=True, group=f"r{state.round}",
                           rule="T.1") for s in self.seats if s not in state.guesses]
        return [Prompt(seat=state.taker, verbs=("take",), text="take 1 to 3 stones", rule="T.2")]

    def legal_actions(self, state: BaseModel, seat: str) -> list[Action]:
        assert isinstance(state, ToyState)
        p = [x for x in self.pending(state) if x.seat == seat]
        if not p:
            return []
        if p[0].verbs == ("guess",):
            return [Action(verb="guess", args={"parity": v}) for v in ("odd", "even")]
        return [Action(verb="take", args={"n": str(n)}) for n in range(1, min(3, state.pile) + 1)]

    def explain_illegal(self, state: BaseModel, seat: str, action: Action) -> str:
        return f"you may take 1 to 3 stones, and no more than the pile holds (rule T.2): {action.text()} is not allowed"

    def _apply(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> tuple[BaseModel, list[Event]]:
        assert isinstance(state, ToyState)
        s = state.model_copy(deep=True)
        if action.verb == "guess":
            s.guesses[seat] = str(action.args["parity"])
            events = [Event(kind="committed", text=f"{seat} has chosen"),
                      Event(kind="private", text=f"you guessed {action.args['parity']}", to=(seat,))]
            if len(s.guesses) == 2:
                die = dice.roll(6, "parity")
                par = "odd" if die % 2 else "even"
                for k, g in s.guesses.items():
                    if g == par:
                        s.score[k] += 1
                events.append(Event(kind="reveal", text=f"A guessed {s.guesses['A']}, B guessed {s.guesses['B']}; "
                                    f"the die shows {die}"))
                s.guesses = {}
                s.step = "take"
                events.append(Event(kind="phase", text="taking"))
            return s, events
        n = int(action.args["n"])
        s.pile -= n
        s.step = "guess"
        s.round += 1
        s.taker = "B" if seat == "A" else "A"
        return s, [Event(kind="take", text=f"{seat} takes {n}; {s.pile} left")]

    def view(self, state: BaseModel, viewer: str | None) -> View:
        assert isinstance(state, ToyState)
        mine = tuple(f"your guess: {g}" for k, g in state.guesses.items() if k == viewer)
        return View(game="toy", map="", title="Toy", turn=state.round, phase=state.step,
                    counters=(CounterView(hex="0101", side="A", label=str(state.pile)),),
                    caption=(f"pile {state.pile}", f"score A {state.score['A']} B {state.score['B']}"),
                    private=mine)

    def outcome(self, state: BaseModel) -> Outcome | None:
        assert isinstance(state, ToyState)
        if state.pile > 0:
            return None
        a, b = state.score["A"], state.score["B"]
        return Outcome(winner=None if a == b else ("A" if a > b else "B"), reason="the pile is empty",
                       score=dict(state.score))

    def verbs(self) -> list[VerbSpec]:
        return [VerbSpec(verb="guess", help="guess the die's parity, privately", rule="T.1", secret=True,
                         args=(ArgSpec(name="parity", help="odd or even"),)),
                VerbSpec(verb="take", help="take stones", rule="T.2", args=(ArgSpec(name="n", help="1-3", kind="int"),))]

    def state_model(self) -> type[BaseModel]:
        return ToyState

    def edit_verbs(self) -> list[VerbSpec]:
        return [VerbSpec(verb="pile", help="set the number of stones", args=(ArgSpec(name="n", help="0-20", kind="int"),))]

    def edit(self, state: BaseModel, action: Action) -> tuple[BaseModel, list[Event]]:
        assert isinstance(state, ToyState)
        n = str(action.args.get("n", ""))
        if action.verb != "pile" or not n.isdigit() or int(n) > 20:
            raise BadArguments("write op:pile n:NUMBER (0-20)")
        s = state.model_copy(deep=True)
        s.pile = int(n)
        return s, [Event(kind="edit", text=f"the pile now holds {n}")]
