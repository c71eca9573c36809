"""Game records: export, then re-run through the engine checking every result and roll."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.dbtools import check_store
from bot.records import GameRecord
from bot.replay_tool import check_record

ROOT = Path(__file__).resolve().parents[2]


async def finished_toy_record(core, secret_seed: bool = True) -> GameRecord:
    seed = "" if secret_seed else "seed:5"
    r = await core.handle_line("alice", "console:#t", f"/game new game:toy opponent:bob pile:2 {seed}")
    gid = r[0].game_id
    await core.handle_line("bob", "console:#t", "/game accept")
    return await played_out(core, gid)


async def played_out(core, gid: int) -> GameRecord:
    """Game ``gid`` played to its end (each side its first legal action), and its record."""
    while gid in core.live:
        g = core.live[gid]
        p = g.pending()[0]
        a = g.rules.legal_actions(g.state, p.seat)[0]
        await core.handle_line(g.user_of(p.seat), "console:#t", a.text() + f" game:{gid}")
    r = await core.handle_line("alice", "console:#t", f"/game export game:{gid}")
    return GameRecord.model_validate_json(r[0].file_text)


async def test_a_finished_record_replays_with_every_result_and_roll_checked(core, tmp_path):
    rec = await finished_toy_record(core)
    assert rec.seed is not None and rec.status == "over" and rec.outcome is not None
    assert all(a.action is not None for a in rec.actions)
    assert check_record(rec, tmp_path / "boards") == ([], [])
    assert list((tmp_path / "boards").glob("*.png"))


async def test_a_changed_result_is_reported(core):
    rec = await finished_toy_record(core)
    first = next(a for a in rec.actions if a.events)
    first.events[0] = "something else happened"
    problems, _ = check_record(rec, None)
    assert any(f"#{first.seq}: results differ" in p for p in problems)


async def test_a_roll_that_does_not_follow_from_the_seed_is_reported(core):
    rec = await finished_toy_record(core)
    rolled = next(a for a in rec.actions if a.rolls)
    r = rolled.rolls[0]
    rolled.rolls[0] = r.model_copy(update={"value": r.value % 6 + 1})
    problems, _ = check_record(rec, None)
    assert any(f"#{rolled.seq}" in p for p in problems)


async def test_a_dice_key_not_of_its_stretch_is_reported_even_with_the_keys_left_out(core):
    """An action's rolls under a key of the forger's choosing (rolled again until they suit) are
    refused: against the published ``dice_keys``, and, when the record leaves them out, against
    ``main``, the one key of a line of play that was never rolled back."""
    from engine.core.dice import Roll, derive, verify_rolls

    for keys_left_out in (False, True):
        rec = await finished_toy_record(core)
        assert rec.dice_keys is not None and [k.key for k in rec.dice_keys] == ["main"]
        if keys_left_out:
            rec.dice_keys = None
        rolled = next(a for a in rec.actions if a.rolls)
        rolled.dice_key = "chosen"
        rolled.rolls = [Roll(sides=r.sides, value=derive(rec.seed, "chosen", rolled.seq, i, r.sides), why=r.why)
                        for i, r in enumerate(rolled.rolls)]
        assert verify_rolls(rec.seed, "chosen", rolled.seq, rolled.rolls)  # the rolls themselves check
        problems, _ = check_record(rec, None)
        assert any(f"#{rolled.seq}: its dice key 'chosen' is not the one of that stretch" in p for p in problems), (
            keys_left_out, problems)


async def test_a_dice_key_change_no_rollback_announced_is_refused(core):
    """With the seed published, a forger could start a key of their own at any action (one found to
    give the rolls they want) and list it in ``dice_keys``: a key is taken only as announced, by its
    hash, in the moderation log (and the thread) of the rollback that started it."""
    from bot.records import DiceKey
    from engine.core.dice import Roll, derive

    rec = await finished_toy_record(core)
    rolled = next(a for a in rec.actions if a.rolls and a.seq > 1)
    rec.dice_keys = [DiceKey(from_seq=1, key="main"), DiceKey(from_seq=rolled.seq, key="kchosen")]
    for a in rec.actions[rolled.seq - 1:]:
        a.dice_key = "kchosen"
        a.rolls = [Roll(sides=r.sides, value=derive(rec.seed, "kchosen", a.seq, i, r.sides), why=r.why)
                   for i, r in enumerate(a.rolls)]
        a.events = []  # left out, as a forger may
    rec.outcome = None
    problems, _ = check_record(rec, None)
    assert any(f"the key from #{rolled.seq} was announced from that action by no rollback" in p for p in problems), problems


async def test_a_finished_game_rolled_back_and_played_on_replays_with_its_keys_announced(core):
    from bot.records import key_announced

    rec = await finished_toy_record(core)
    gid = rec.game_id
    r = await core.handle_line("mod", "console:#t", f"/mod rollback to:2 game:{gid} confirm:yes reason:retry",
                               is_moderator=True)
    assert "dice key sha256 " in r[0].text, r[0].text  # announced in the thread
    again = await played_out(core, gid)
    assert again.dice_keys is not None and len(again.dice_keys) == 2
    fresh = again.dice_keys[1]
    problems, notes = check_record(again, None)
    assert problems == [] and any(key_announced(fresh.key, fresh.from_seq) in n for n in notes), (problems, notes)
    assert fresh.from_seq == 3
    moved = again.model_copy(deep=True)  # the announced key, said to start elsewhere: refused
    assert moved.dice_keys is not None
    moved.dice_keys[1] = fresh.model_copy(update={"from_seq": 4})
    for a in moved.actions:
        a.dice_key = "main" if a.seq < 4 else fresh.key
    assert any("announced from that action by no rollback" in p for p in check_record(moved, None)[0])


async def test_keys_made_before_rollbacks_announced_them_are_announced_once_at_start_up(tmp_path):
    """A game rolled back before announcements, finished after: its record named a key no moderation
    entry announced, and ``hexhive replay`` called its own genuine record forged."""
    from bot.commands import make_core
    from bot.store import Store

    store = await Store.open(tmp_path / "old.db")
    try:
        core = make_core(store)
        await core.start()
        rec = await finished_toy_record(core)
        gid = rec.game_id
        await core.handle_line("mod", "console:#t", f"/mod rollback to:0 game:{gid} confirm:yes reason:again",
                               is_moderator=True)
        await store.db.execute("DELETE FROM modlog WHERE game_id = ?", (gid,))  # as an older bot left it
        await store.db.execute("DELETE FROM place_settings WHERE place = 'store:keys-announced'")
        await store.db.commit()
        later = make_core(store)
        await later.start()
        await later.start()  # once: a second start announces nothing more
        assert sum("announced the dice key" in m["what"] for m in await store.modlog(gid)) == 1
        again = await played_out(later, gid)
        assert again.dice_keys is not None and [k.from_seq for k in again.dice_keys] == [1]  # rolled back to the start
        assert check_record(again, None)[0] == []
    finally:
        await store.close()


async def test_a_finished_record_without_its_seed_is_refused_not_only_noted(core):
    """Leaving the seed out of a finished game's record skipped every roll's check with a note that
    the game was not over."""
    rec = await finished_toy_record(core)
    rec.seed = None
    problems, _ = check_record(rec, None)
    assert any("the game is over but its record does not publish the dice seed" in p for p in problems), problems


async def test_a_record_of_another_format_version_is_refused(core):
    rec = await finished_toy_record(core)
    rec.format = 2
    problems, _ = check_record(rec, None)
    assert problems == ["format: version 2 is not one this hexhive reads (1)"]


async def test_a_seed_that_does_not_match_its_published_hash_is_reported(core):
    rec = await finished_toy_record(core)
    rec.seed_hash = "0" * 64
    problems, _ = check_record(rec, None)
    assert any("does not match the hash" in p for p in problems)


async def test_a_revealed_choice_that_does_not_match_its_commitment_is_reported(core):
    rec = await finished_toy_record(core)
    sealed = next(a for a in rec.actions if a.commitment)
    sealed.nonce = "f" * 32
    problems, _ = check_record(rec, None)
    assert any(f"#{sealed.seq}: the revealed choice does not match" in p for p in problems)


async def test_an_unfinished_record_replays_as_far_as_it_can_and_says_what_was_not_checked(core):
    r = await core.handle_line("alice", "console:#t", "/game new game:toy opponent:bob")
    gid = r[0].game_id
    await core.handle_line("bob", "console:#t", "/game accept")
    await core.handle_line("alice", "dm:alice", "/guess parity:odd")
    r = await core.handle_line("bob", "console:#t", f"/game export game:{gid}")
    rec = GameRecord.model_validate_json(r[0].file_text)
    problems, notes = check_record(rec, None)
    assert problems == []
    assert any("not published yet" in n for n in notes) and any("still sealed" in n for n in notes)


async def test_the_record_format_is_documented_field_by_field(core):
    rec = await finished_toy_record(core)
    doc = (ROOT / "docs" / "record-format.md").read_text()
    for field in json.loads(rec.model_dump_json()):
        assert f"`{field}`" in doc
    for field in json.loads(rec.actions[0].model_dump_json()):
        assert f"`{field}`" in doc


async def test_db_check_finds_nothing_wrong_in_a_healthy_store(core, store):
    await finished_toy_record(core)
    assert await check_store(store) == []


async def test_db_check_reports_a_snapshot_that_differs_from_the_log(core, store):
    r = await core.handle_line("alice", "console:#t", "/game new game:toy opponent:bob pile:9")
    gid = r[0].game_id
    await core.handle_line("bob", "console:#t", "/game accept")
    async with store.transaction():
        await store.put_snapshot(gid, 1, 0, core.live[gid].state.model_copy(update={"pile": 1}).model_dump_json())
    problems = await check_store(store)
    assert any(f"game #{gid}" in p and "differs" in p for p in problems)


def test_db_backup_and_check_commands(tmp_path):
    db = tmp_path / "h.db"
    env = {"PATH": "/usr/bin:/bin", "HEXHIVE_DATABASE": str(db), "HOME": str(tmp_path)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=60)

    assert run("db", "check").returncode == 2  # no database yet
    script = tmp_path / "s.txt"
    script.write_text("alice: /help\n")
    assert run("console", "--script", str(script), "--db", str(db)).returncode == 0
    p = run("db", "check")
    assert p.returncode == 0 and "ok" in p.stdout
    p = run("db", "backup", str(tmp_path / "copy.db"))
    assert p.returncode == 0 and (tmp_path / "copy.db").exists()
    p = run("db", "backup", str(tmp_path / "no" / "such" / "copy.db"))
    assert p.returncode == 2 and "does not exist" in p.stdout and "Traceback" not in p.stderr


def test_command_line_mistakes_get_one_clear_line_not_a_traceback(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    (tmp_path / "empty.json").write_text("{}")
    for args in (["replay", "missing.json"], ["replay", "empty.json"], ["console", "--script", "missing.txt"]):
        p = subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=tmp_path, env=env,
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2, args
        assert "Traceback" not in p.stdout + p.stderr and "hexhive:" in p.stdout + p.stderr, args


def test_hexhive_replay_command_rechecks_an_exported_game(tmp_path):
    script = (ROOT / "tests" / "scripts" / "resolve_dice.txt").read_text() + "alice: /game export game:1\n"
    (tmp_path / "s.txt").write_text(script)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=300)

    p = run("console", "--script", "s.txt", "--out", "out")
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    record = tmp_path / "out" / "hexhive-game-1.json"
    rec = json.loads(record.read_text())
    assert rec["seed"] == "11" and rec["outcome"] is not None
    p = run("replay", str(record), "--out", "boards")
    assert p.returncode == 0 and "every result matches" in p.stdout, p.stdout[-2000:]
    assert list((tmp_path / "boards").glob("*.png"))
    rec["actions"][-1]["events"] = ["the defender wins instead"]
    record.write_text(json.dumps(rec))
    p = run("replay", str(record), "--out", "boards2")
    assert p.returncode == 1 and "results differ" in p.stdout


async def test_an_exported_oneworld_game_replays_exactly(tmp_path):
    import io

    from bot.console import run_script

    lines = (ROOT / "tests" / "scripts" / "oneworld_full_game.txt").read_text().splitlines()
    rc = await run_script(lines + ["alice: /game export game:1"], tmp_path / "o.db", tmp_path / "out", io.StringIO(),
                          boards=False)
    assert rc == 0
    rec = GameRecord.model_validate_json((tmp_path / "out" / "hexhive-game-1.json").read_text())
    assert rec.outcome is not None and rec.seed == "1" and len(rec.actions) > 300
    assert check_record(rec, None) == ([], [])


async def _tamper(store, gid: int, seq: int, action: str) -> None:
    async with store.transaction():
        await store.db.execute("UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?", (action, gid, seq))


async def _toy_of(core, actions: int) -> int:
    from tests.bot.test_costs import _very_long_game

    return await _very_long_game(core, actions)


async def test_db_check_checks_the_legality_of_the_actions_after_the_last_snapshot(core, store):
    """A take of 7 stones (T.2 allows 1 to 3) after the last snapshot: no snapshot vouches for it, so
    the plain check replays it with its legality checked and reports it."""
    gid = await _toy_of(core, 60)  # a snapshot at 50, ten actions after it
    row = await store.db.execute_fetchall("SELECT COALESCE(MAX(seq), 0) FROM snapshots WHERE game_id = ?", (gid,))
    last_snapshot = row[0][0]
    takes = await store.db.execute_fetchall(
        "SELECT seq FROM actions WHERE game_id = ? AND seq > ? AND action LIKE '%take%'", (gid, last_snapshot))
    await _tamper(store, gid, takes[-1][0], '{"verb": "take", "args": {"n": "7"}}')
    problems = await check_store(store)
    assert any(f"game #{gid}" in p and "replay fails" in p for p in problems), problems


async def test_db_check_finds_a_changed_action_before_a_snapshot_by_the_snapshots_and_full_by_legality(
        core, store):
    gid = await _toy_of(core, 70)  # a snapshot every 50 actions: one at 50
    takes = await store.db.execute_fetchall(
        "SELECT seq FROM actions WHERE game_id = ? AND seq < 40 AND action LIKE '%take%'", (gid,))
    seq = takes[0][0]
    (row,) = await store.db.execute_fetchall("SELECT action FROM actions WHERE game_id = ? AND seq = ?", (gid, seq))
    n = json.loads(row[0])["args"]["n"]
    other = "1" if n != "1" else "2"
    await _tamper(store, gid, seq, json.dumps({"verb": "take", "args": {"n": other}}))
    plain = await check_store(store)
    assert any(f"game #{gid}" in p and "differs" in p for p in plain), plain
    await _tamper(store, gid, seq, '{"verb": "take", "args": {"n": "7"}}')
    full = await check_store(store, full=True)
    assert any(f"game #{gid}" in p and "replay fails" in p for p in full), full
