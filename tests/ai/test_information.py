"""``observe``: what a seat is given, built from the record as the bot keeps it."""

from __future__ import annotations

from engine.ai import observe
from engine.ai.info import Known, Sealed
from engine.ai.selfplay import Table
from tests.ai.helpers import drive


def _picking(t: Table) -> Table:
    for _ in range(2):
        for seat in ("Red", "Blue"):
            pick = next(a for a in t.rules.legal_now(t.state, seat) if a.verb == "pick")
            t.play(seat, pick)
    return t


def test_3_03_the_other_armys_picks_are_one_sealed_marker_a_run_and_the_own_are_known() -> None:
    t = _picking(Table("chitin", "basic", dice_seed="obs"))
    info = t.information("Blue")
    kinds = [(type(s).__name__, s.seat) for s in info.steps]
    assert kinds == [("Sealed", "Red"), ("Known", "Blue"), ("Sealed", "Red"), ("Known", "Blue")]
    assert all(s.events == () for s in info.steps if isinstance(s, Sealed))
    assert "pick" not in "".join(s.model_dump_json() for s in info.steps if isinstance(s, Sealed))


def test_replaying_the_record_gives_the_same_information_as_the_kept_positions() -> None:
    t = _picking(Table("chitin", "basic", dice_seed="obs"))
    replayed = observe(t.rules, t.config, t.setup_rolls, t.log, "Blue")
    assert replayed.model_dump_json() == t.information("Blue").model_dump_json()


def test_3_03_once_both_armies_are_revealed_everything_is_known_and_the_checkpoint_moves_on() -> None:
    t = drive(Table("chitin", "basic", dice_seed="obs"), lambda t: getattr(t.state, "step", "") != "forces")
    info = t.information("Red")
    assert not any(isinstance(s, Sealed) for s in info.steps)
    assert all(isinstance(s, Known) for s in info.steps)
    assert info.checkpoint == t.state.model_dump_json()
    assert info.action_no == len(t.log)
