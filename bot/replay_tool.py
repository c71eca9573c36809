"""``hexhive replay RECORD.json --out DIR``: re-run a record, check every result, write the boards."""

from __future__ import annotations

from pathlib import Path

from bot.records import GameRecord, rules_for
from engine.core.dice import RecordedDice, verify_rolls


def replay_record(path: Path, out: Path) -> int:
    """Re-run a game record through the engine; 0 when every recorded outcome is reproduced."""
    record = GameRecord.model_validate_json(path.read_text())
    problems = check_record(record, out)
    for p in problems:
        print(p)
    print(f"{len(record.actions)} actions replayed; " + ("every result matches" if not problems
                                                          else f"{len(problems)} problem(s)"))
    return 0 if not problems else 1


def check_record(record: GameRecord, out: Path | None) -> list[str]:
    """Every way the record disagrees with the engine (empty when it all matches)."""
    rules = rules_for(record.config)
    problems: list[str] = []
    if record.seed is not None and record.setup_rolls and not verify_rolls(record.seed, "main", 0, record.setup_rolls):
        problems.append("setup: the rolls do not follow from the published seed")
    state = rules.setup(record.config, RecordedDice(record.setup_rolls))
    views = [rules.view(state, None)]
    for a in record.actions:
        if a.action is None:
            problems.append(f"#{a.seq}: the action is still sealed; the record cannot be replayed past it")
            break
        if record.seed is not None and not verify_rolls(record.seed, a.dice_key, a.seq, a.rolls):
            problems.append(f"#{a.seq}: the rolls do not follow from the published seed")
        dice = RecordedDice(a.rolls)
        try:
            state, events = rules.apply(state, a.seat, a.action, dice)
        except Exception as exc:
            problems.append(f"#{a.seq}: {a.action.text()} is refused: {exc}")
            break
        public = [e.text for e in events if e.public]
        if a.events and public != a.events:
            problems.append(f"#{a.seq}: results differ: recorded {a.events} but the engine says {public}")
        views.append(rules.view(state, None))
    out_come = rules.outcome(state)
    if record.outcome and out_come and out_come.model_dump() != record.outcome:
        problems.append(f"outcome differs: recorded {record.outcome}, engine {out_come.model_dump()}")
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        from render import board

        keys = None
        for n, v in enumerate(views):
            key = (v.turn, v.phase)
            if key != keys or n == len(views) - 1:
                (out / f"replay-{n:04d}.png").write_bytes(board(v))
                keys = key
    return problems
