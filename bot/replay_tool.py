"""``hexhive replay RECORD.json --out DIR``: re-run a record, check every result, write the boards."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from bot.records import Folder, GameRecord, commitment, rules_for
from engine.core.dice import RecordedDice, seed_hash, verify_rolls
from engine.core.errors import RuleError


def replay_record(path: Path, out: Path) -> int:
    """Re-run a game record through the engine; 0 when every recorded result is reproduced."""
    try:
        record = GameRecord.model_validate_json(path.read_text())
    except OSError as exc:
        print(f"hexhive: cannot read {path}: {exc.strerror}")
        return 2
    except (ValidationError, json.JSONDecodeError) as exc:
        first = exc.errors()[0] if isinstance(exc, ValidationError) else None
        where = ".".join(str(p) for p in first["loc"]) if first else ""
        print(f"hexhive: {path} is not a game record (docs/record-format.md){': ' + where if where else ''}")
        return 2
    try:
        problems, notes = check_record(record, out)
    except RuleError as exc:
        print(f"hexhive: {path} cannot be set up: {exc}")
        return 1
    for n in notes:
        print(n)
    for p in problems:
        print(p)
    checked = sum(1 for a in record.actions if a.action is not None)
    print(f"{checked} actions replayed; " + ("every result matches" if not problems
                                               else f"{len(problems)} problem(s)"))
    return 0 if not problems else 1


def check_record(record: GameRecord, out: Path | None) -> tuple[list[str], list[str]]:
    """(problems, notes): every way the record disagrees with the engine, and what could not be checked."""
    rules = rules_for(record.config)
    problems: list[str] = []
    notes: list[str] = []
    if record.seed is None:
        notes.append("note: the dice seed is not published yet (the game is not over), so the rolls are "
                     "replayed as recorded but not checked against the seed")
    elif seed_hash(record.seed) != record.seed_hash:
        problems.append("seed: the published seed does not match the hash published when the game began")
    elif record.setup_rolls and not verify_rolls(record.seed, "main", 0, record.setup_rolls):
        problems.append("setup: the rolls do not follow from the published seed")
    state = rules.setup(record.config, RecordedDice(record.setup_rolls))
    views = [rules.view(state, None)]
    folder = Folder(rules, state, [a.action for a in record.actions if a.action is not None])
    for a in record.actions:
        if a.action is None:
            notes.append(f"note: the record stops at #{a.seq}, a choice still sealed; "
                         "it can be checked once the choice is revealed")
            break
        if a.commitment is not None and a.nonce is not None and commitment(a.nonce, a.action) != a.commitment:
            problems.append(f"#{a.seq}: the revealed choice does not match its commitment")
        if record.seed is not None and not verify_rolls(record.seed, a.dice_key, a.seq, a.rolls):
            problems.append(f"#{a.seq}: the rolls do not follow from the published seed")
        dice = RecordedDice(a.rolls)
        try:
            events = folder.step(a.seat, a.action, dice)  # a take-back restores the state before its action
            state = folder.state
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
        _write_boards(views, out)
    return problems, notes


def _write_boards(views: list, out: Path) -> None:
    from render import board

    out.mkdir(parents=True, exist_ok=True)
    keys = None
    for n, v in enumerate(views):
        key = (v.turn, v.phase)
        if key != keys or n == len(views) - 1:
            (out / f"replay-{n:04d}.png").write_bytes(board(v))
            keys = key
