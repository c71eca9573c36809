"""``hexhive replay RECORD.json --out DIR``: re-run a record, check every result, write the boards."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from bot.records import RECORD_FORMAT, DiceKey, Folder, GameRecord, commitment, key_announced, rules_for
from engine.core.dice import RecordedDice, seed_hash, verify_rolls
from engine.core.errors import RuleError
from engine.core.protocol import MODERATOR

MAX_RECORD_BYTES = 64 * 1024 * 1024
"""A record this large is not one the bot wrote (a 5,000-action game is a few megabytes)."""


def replay_record(path: Path, out: Path) -> int:
    """Re-run a game record through the engine; 0 when every recorded result is reproduced."""
    try:
        size = path.stat().st_size
        if size > MAX_RECORD_BYTES:
            print(f"hexhive: {path} is {size // (1024 * 1024)} MiB, too large to be a game record "
                  f"(at most {MAX_RECORD_BYTES // (1024 * 1024)} MiB)")
            return 2
        record = GameRecord.model_validate_json(path.read_bytes())
    except OSError as exc:
        print(f"hexhive: cannot read {path}: {exc.strerror}")
        return 2
    except (ValidationError, ValueError) as exc:
        first = exc.errors()[0] if isinstance(exc, ValidationError) else None
        where = ".".join(str(p) for p in first["loc"]) if first else ""
        print(f"hexhive: {path} is not a game record (docs/record-format.md){': ' + where if where else ''}")
        return 2
    try:
        problems, notes = check_record(record, out)
    except (RuleError, KeyError, ValueError) as exc:
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
    if record.seed is None and record.status == "over":
        problems.append("seed: the game is over but its record does not publish the dice seed, so its "
                        "rolls cannot be checked (the bot publishes it at the end)")
    elif record.seed is None:
        notes.append("note: the dice seed is not published yet (the game is not over), so the rolls are "
                     "replayed as recorded but not checked against the seed")
    elif seed_hash(record.seed) != record.seed_hash:
        problems.append("seed: the published seed does not match the hash published when the game began")
    elif record.setup_rolls and not verify_rolls(record.seed, "main", 0, record.setup_rolls):
        problems.append("setup: the rolls do not follow from the published seed")
    problems += structure_problems(record)
    if problems:
        return problems, notes  # a record whose numbering or keys are wrong is not replayed further
    # With the seed published, a record without its dice keys is checked as a line of play never
    # rolled back (``main`` throughout): otherwise each action could name a key of its own choosing.
    listed = record.dice_keys if record.dice_keys is not None or record.seed is None else [DiceKey(from_seq=1, key="main")]
    keys = sorted(((k.from_seq, k.key) for k in listed or []), reverse=True)
    notes += [f"note: from #{start} the dice come from the key announced as '{key_announced(key, start)}' "
              "(compare it with the game's thread, or its moderation log)" for start, key in sorted(keys) if key != "main"]
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
        expected = next((k for start, k in keys if start <= a.seq), None)
        if expected is not None and a.dice_key != expected:
            problems.append(f"#{a.seq}: its dice key '{a.dice_key[:20]}' is not the one of that stretch of play "
                            f"('{expected}'): its rolls could have been chosen")
            break
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


def structure_problems(record: GameRecord) -> list[str]:
    """What is wrong with a record before any rule is applied: numbering, dice keys, edits."""
    problems = []
    if record.format != RECORD_FORMAT:
        problems.append(f"format: version {record.format} is not one this hexhive reads ({RECORD_FORMAT})")
    seqs = [a.seq for a in record.actions]
    if seqs != list(range(1, len(seqs) + 1)):
        dup = sorted({s for s in seqs if seqs.count(s) > 1})[:5] if len(seqs) < 20000 else []
        missing = sorted(set(range(1, max(seqs, default=0) + 1)) - set(seqs))[:5]
        problems.append("numbering: the actions must be numbered 1, 2, 3 ... without gaps or repeats"
                        + (f"; repeated: {dup}" if dup else "") + (f"; missing: {missing}" if missing else ""))
    if record.dice_keys is not None:
        starts = [k.from_seq for k in record.dice_keys]
        if not starts or starts[0] != 1 or starts != sorted(set(starts)):
            problems.append("dice keys: the line of play must have a key from action 1 ('main', or one a "
                            "rollback to the start announced), each later key from a later action")
    for k in record.dice_keys or []:
        said = key_announced(k.key, k.from_seq)
        if k.key != "main" and not any(said in m.what for m in record.moderation or []):
            problems.append(f"dice keys: the key from #{k.from_seq} was announced from that action by no rollback "
                            f"or restore of the moderation log ('{said}'): its rolls could have been chosen")
    if record.moderation is not None:
        edits = {m.seq for m in record.moderation if m.seq is not None}
        for a in record.actions:
            if a.seat == MODERATOR and a.seq not in edits:
                problems.append(f"#{a.seq}: a moderator's edit of the position that the moderation log does not hold")
    elif any(a.seat == MODERATOR for a in record.actions):
        problems.append("moderation: the record has position edits but no moderation log to check them against")
    return problems


def _write_boards(views: list, out: Path) -> None:
    from render import board

    out.mkdir(parents=True, exist_ok=True)
    keys = None
    for n, v in enumerate(views):
        key = (v.turn, v.phase)
        if key != keys or n == len(views) - 1:
            (out / f"replay-{n:04d}.png").write_bytes(board(v))
            keys = key
