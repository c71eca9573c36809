"""The rules protocol, exercised with a toy game: two piles, take one to three stones."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from engine.core import registry
from engine.core.dice import Dice, FixedDice
from engine.core.errors import BadArguments, IllegalAction, NotYourTurn, RuleError
from engine.core.protocol import (
    Action,
    Event,
    GameConfig,
    GameRules,
    Outcome,
    Player,
    Prompt,
    Step,
    VerbSpec,
    View,
)


class PileState(BaseModel):
    piles: dict[str, int] = {"A": 3, "B": 1}
    turn: str = "RED"
    bids: dict[str, int] = {}
    taken: dict[str, int] = {"RED": 0, "BLUE": 0}


class Piles(GameRules):
    """Both seats first bid in secret; then they take stones in turn; whoever takes the last wins."""

    name = "piles"
    title = "Piles"
    seats = ("RED", "BLUE")

    def setup(self, config: GameConfig, dice: Dice) -> PileState:
        return PileState()

    def pending(self, state: BaseModel) -> list[Prompt]:
        assert isinstance(state, PileState)
        if len(state.bids) < 2:
            return [
                Prompt(seat=s, verbs=("bid",), text="Bid 0-2", secret=True, group="bid")
                for s in self.seats
                if s not in state.bids
            ]
        if sum(state.piles.values()) == 0:
            return []
        return [Prompt(seat=state.turn, verbs=("take", "shake"), text="Take 1-3 stones", rule="2.1")]

    def legal_actions(self, state: BaseModel, seat: str) -> list[Action]:
        assert isinstance(state, PileState)
        if not any(p.seat == seat for p in self.pending(state)):
            return []
        if len(state.bids) < 2:
            return [Action(verb="bid", args={"amount": n}) for n in range(3)]
        out = [
            Action(verb="take", args={"pile": pile, "n": n})
            for pile, left in sorted(state.piles.items())
            for n in range(1, min(3, left) + 1)
        ]
        return out + [Action(verb="shake")]

    def _apply(self, state: BaseModel, seat: str, action: Action, dice: Dice) -> tuple[BaseModel, list[Event]]:
        assert isinstance(state, PileState)
        new = state.model_copy(deep=True)
        if action.verb == "bid":
            new.bids[seat] = int(action.args["amount"])
            return new, [Event(kind="committed", text=f"{seat} has chosen")]
        if action.verb == "shake":
            die = dice.roll(6, "shake")
            return new, [Event(kind="shake", text=f"{seat} rolls {die}")]
        n, pile = int(action.args["n"]), str(action.args["pile"])
        new.piles[pile] -= n
        new.taken[seat] += n
        new.turn = "BLUE" if seat == "RED" else "RED"
        return new, [Event(kind="take", text=f"{seat} takes {n} from {pile}")]

    def explain_illegal(self, state: BaseModel, seat: str, action: Action) -> str:
        assert isinstance(state, PileState)
        pile = str(action.args.get("pile", ""))
        if action.verb == "take" and pile in state.piles:
            return f"Pile {pile} has {state.piles[pile]} stones; take 1 to {min(3, state.piles[pile])} (rule 2.1)"
        return super().explain_illegal(state, seat, action)

    def view(self, state: BaseModel, viewer: str | None) -> View:
        return View(game=self.name, map="none", title=self.title)

    def outcome(self, state: BaseModel) -> Outcome | None:
        assert isinstance(state, PileState)
        if self.pending(state):
            return None
        winner = "BLUE" if state.turn == "RED" else "RED"
        return Outcome(winner=winner, reason="took the last stone")

    def verbs(self) -> list[VerbSpec]:
        return [VerbSpec(verb="take", help="Take stones", rule="2.1"), VerbSpec(verb="bid", help="Bid", secret=True)]

    def state_model(self) -> type[BaseModel]:
        return PileState


RULES = Piles()
DICE = FixedDice([])


def playing() -> PileState:
    """Both bids in, RED to take."""
    return PileState(bids={"RED": 1, "BLUE": 0})


def test_apply_returns_a_new_state_and_leaves_the_old_one() -> None:
    state = playing()
    before = state.model_dump_json()
    new, events = RULES.apply(state, "RED", Action(verb="take", args={"pile": "A", "n": 2}), DICE)
    assert isinstance(new, PileState)
    assert new.piles == {"A": 1, "B": 1}
    assert new.turn == "BLUE"
    assert events == [Event(kind="take", text="RED takes 2 from A")]
    assert state.model_dump_json() == before


def test_argument_order_and_spelling_of_numbers_do_not_matter() -> None:
    # the bot hands arguments over as text, in whatever order they were typed
    new, _ = RULES.apply(playing(), "RED", Action(verb="take", args={"n": "3", "pile": "A"}), DICE)
    assert isinstance(new, PileState) and new.piles["A"] == 0


def test_wrong_seat() -> None:
    state = playing()
    before = state.model_dump_json()
    with pytest.raises(NotYourTurn, match="waiting on RED, not BLUE"):
        RULES.apply(state, "BLUE", Action(verb="take", args={"pile": "A", "n": 1}), DICE)
    assert state.model_dump_json() == before


def test_wrong_seat_while_both_bid_names_both() -> None:
    with pytest.raises(NotYourTurn, match="waiting on BLUE, RED, not GREEN"):
        RULES.apply(PileState(), "GREEN", Action(verb="bid", args={"amount": 1}), DICE)


def test_seat_that_has_already_answered_a_secret_prompt() -> None:
    state = PileState(bids={"RED": 2})
    with pytest.raises(NotYourTurn, match="waiting on BLUE, not RED"):
        RULES.apply(state, "RED", Action(verb="bid", args={"amount": 1}), DICE)


def test_game_over() -> None:
    state = PileState(piles={"A": 0, "B": 0}, bids={"RED": 0, "BLUE": 0})
    with pytest.raises(NotYourTurn, match="the game is over"):
        RULES.apply(state, "RED", Action(verb="take", args={"pile": "A", "n": 1}), DICE)


def test_unknown_verb_lists_the_allowed_verbs() -> None:
    state = playing()
    before = state.model_dump_json()
    with pytest.raises(BadArguments) as err:
        RULES.apply(state, "RED", Action(verb="fly", args={"to": "0507"}), DICE)
    assert str(err.value) == "/fly is not an answer now; you may use /shake, /take"
    assert state.model_dump_json() == before


def test_verb_of_another_phase_is_not_an_answer() -> None:
    with pytest.raises(BadArguments, match="you may use /bid"):
        RULES.apply(PileState(), "RED", Action(verb="take", args={"pile": "A", "n": 1}), DICE)


@pytest.mark.parametrize(
    "args",
    [{"pile": "B", "n": 2}, {"pile": "A", "n": 4}, {"pile": "A", "n": 0}, {"pile": "A"}, {"pile": "A", "n": 1, "x": 1}],
)
def test_illegal_action_is_refused_with_the_games_explanation(args: dict[str, str | int]) -> None:
    state = playing()
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as err:
        RULES.apply(state, "RED", Action(verb="take", args=args), DICE)
    assert str(err.value).startswith(f"Pile {args['pile']} has ")
    assert str(err.value).endswith("(rule 2.1)")
    assert state.model_dump_json() == before


def test_illegal_action_default_explanation() -> None:
    with pytest.raises(IllegalAction, match="/take pile:C n:1 is not a legal order now"):
        RULES.apply(playing(), "RED", Action(verb="take", args={"pile": "C", "n": 1}), DICE)


def test_apply_passes_the_dice_on() -> None:
    dice = FixedDice([5])
    _, events = RULES.apply(playing(), "RED", Action(verb="shake"), dice)
    assert events[0].text == "RED rolls 5"
    assert [r.why for r in dice.rolls] == ["shake"]


def test_a_whole_game() -> None:
    state: BaseModel = RULES.setup(GameConfig(game="piles"), DICE)
    state, _ = RULES.apply(state, "BLUE", Action(verb="bid", args={"amount": 2}), DICE)
    state, _ = RULES.apply(state, "RED", Action(verb="bid", args={"amount": 0}), DICE)
    for seat, pile, n in [("RED", "A", 3), ("BLUE", "B", 1)]:
        assert RULES.outcome(state) is None
        state, _ = RULES.apply(state, seat, Action(verb="take", args={"pile": pile, "n": n}), DICE)
    assert RULES.pending(state) == []
    assert RULES.outcome(state) == Outcome(winner="BLUE", reason="took the last stone")


# --- choices, prompts, actions -----------------------------------------------------------------


def test_choices_filters_by_the_arguments_given() -> None:
    state = playing()
    assert RULES.choices(state, "RED", "take", "n", {}) == ["1", "2", "3"]
    assert RULES.choices(state, "RED", "take", "n", {"pile": "A"}) == ["1", "2", "3"]
    assert RULES.choices(state, "RED", "take", "n", {"pile": "B"}) == ["1"]
    assert RULES.choices(state, "RED", "take", "pile", {}) == ["A", "B"]
    assert RULES.choices(state, "RED", "take", "pile", {"n": "2"}) == ["A"]
    assert RULES.choices(state, "RED", "take", "pile", {"n": "9"}) == []
    # the argument being completed is not a filter on itself
    assert RULES.choices(state, "RED", "take", "pile", {"pile": "B"}) == ["A", "B"]


def test_choices_for_others_or_other_verbs_are_empty() -> None:
    state = playing()
    assert RULES.choices(state, "BLUE", "take", "n", {}) == []
    assert RULES.choices(state, "RED", "bid", "amount", {}) == []
    assert RULES.choices(state, "RED", "take", "colour", {}) == []


def test_prompt_for() -> None:
    state = PileState(bids={"RED": 1})
    p = RULES.prompt_for(state, "BLUE", "bid")
    assert p is not None and p.secret and p.group == "bid"
    assert RULES.prompt_for(state, "RED", "bid") is None
    assert RULES.prompt_for(state, "BLUE", "take") is None


def test_action_key_ignores_argument_order() -> None:
    a = Action(verb="move", args={"unit": "B3", "to": "0608"})
    b = Action(verb="move", args={"to": "0608", "unit": "B3"})
    assert a.key() == b.key()
    assert len({a.key(), b.key()}) == 1
    assert a.key() != Action(verb="move", args={"unit": "B3", "to": "0609"}).key()
    assert a.key() != Action(verb="march", args={"unit": "B3", "to": "0608"}).key()
    assert Action(verb="take", args={"n": 2}).key() == Action(verb="take", args={"n": "2"}).key()


def test_action_text() -> None:
    assert Action(verb="move", args={"unit": "B3", "to": "0608"}).text() == "/move unit:B3 to:0608"
    assert Action(verb="pass").text() == "/pass"


def test_state_and_steps_round_trip_through_json() -> None:
    state = playing()
    assert PileState.model_validate_json(state.model_dump_json()) == state
    step = Step(seat="RED", action=Action(verb="take", args={"pile": "A", "n": 1}))
    assert Step.model_validate_json(step.model_dump_json()) == step


def test_event_public_and_config_names() -> None:
    assert Event(kind="take", text="x").public
    assert not Event(kind="committed", text="x", to=("RED",)).public
    config = GameConfig(game="piles", players=(Player(seat="RED", name="Ann"),))
    assert config.name_of("RED") == "Ann"
    assert config.name_of("BLUE") == "BLUE"


# --- errors ------------------------------------------------------------------------------------


def test_rule_error_appends_the_rule_once() -> None:
    assert str(RuleError("Stone cannot cross a Runeline", rule="6.2")) == "Stone cannot cross a Runeline (rule 6.2)"
    assert str(RuleError("Stone cannot cross a Runeline (rule 6.2)", rule="6.2")) == (
        "Stone cannot cross a Runeline (rule 6.2)"
    )
    assert str(RuleError("Blocked", rule=None)) == "Blocked"
    e = IllegalAction("Blocked", rule="7.05")
    assert e.rule == "7.05"
    assert e.message == str(e) == "Blocked (rule 7.05)"


def test_rule_error_does_not_mistake_another_section_for_its_own() -> None:
    assert str(RuleError("Blocked by rule 6.21", rule="6.2")) == "Blocked by rule 6.21 (rule 6.2)"
    assert str(RuleError("As in rule 6.2.", rule="6.2")) == "As in rule 6.2."
    assert str(RuleError("See Rule 6.2", rule="6.2")) == "See Rule 6.2"


def test_rule_errors_are_one_family() -> None:
    for cls in (IllegalAction, NotYourTurn, BadArguments):
        assert issubclass(cls, RuleError)
        with pytest.raises(RuleError):
            raise cls("x")


# --- registry ------------------------------------------------------------------------------------


def test_register_and_get(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_load_builtin", lambda: None)
    assert registry.register(RULES) is RULES
    assert registry.get("piles") is RULES
    assert registry.names() == ["piles"]
    with pytest.raises(BadArguments, match="no game called 'chess'; the games are: piles"):
        registry.get("chess")


def test_get_with_nothing_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_load_builtin", lambda: None)
    with pytest.raises(BadArguments, match="the games are: none"):
        registry.get("piles")


def test_built_in_games_register_under_their_names() -> None:
    names = registry.names()
    assert names == sorted(names)
    for n in names:
        assert registry.get(n).name == n


def test_pending_now_and_legal_now_remember_only_the_same_state_object():
    calls = {"pending": 0, "legal": 0}

    class Counting(Piles):
        def pending(self, state):
            calls["pending"] += 1
            return super().pending(state)

        def legal_actions(self, state, seat):
            calls["legal"] += 1
            return super().legal_actions(state, seat)

    rules = Counting()
    state = rules.setup(GameConfig(game="piles"), FixedDice([1, 1, 1, 1]))
    seat = rules.pending(state)[0].seat
    calls["pending"] = 0
    assert rules.pending_now(state) == rules.pending_now(state) == rules.pending(state)
    assert calls["pending"] == 2  # once remembered, once asked directly
    assert rules.legal_now(state, seat) == rules.legal_now(state, seat)
    assert calls["legal"] == 1
    before = calls["pending"]
    other = state.model_copy(deep=True)
    rules.pending_now(other)
    rules.pending_now(other)
    assert calls["pending"] == before + 1  # a different object is asked afresh, once
