"""The store fails loudly and at once; crafted records are refused promptly with one problem line each."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.commands import make_core
from bot.replay_tool import replay_record
from bot.store import Store, StoreError
from tests.support.table import play_toy

ROOT = Path(__file__).resolve().parents[2]


def _good(path: Path) -> None:
    c = sqlite3.connect(path)
    c.execute("CREATE TABLE t(x)")
    c.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 200)
    c.commit()
    c.close()


def make_bad(kind: str, path: Path) -> None:
    if kind == "empty":
        path.write_bytes(b"")
    elif kind == "not a database":
        path.write_text("these are somebody's notes, not a database\n" * 10)
    elif kind == "bad header":
        path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 4)
    elif kind == "truncated":
        _good(path.with_suffix(".full"))
        path.write_bytes(path.with_suffix(".full").read_bytes()[:8192])
    elif kind == "cannot be migrated":
        c = sqlite3.connect(path)
        c.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        c.execute("INSERT INTO schema_migrations VALUES (1, 'initial')")  # but no games table
        c.commit()
        c.close()
    elif kind == "a folder":
        path.mkdir()


KINDS = ["empty", "not a database", "bad header", "truncated", "cannot be migrated", "a folder"]


@pytest.mark.parametrize("kind", KINDS)
async def test_store_open_refuses_an_unusable_database_in_one_line(tmp_path, kind):
    db = tmp_path / "hexhive.db"
    make_bad(kind, db)
    with pytest.raises(StoreError) as err:
        await Store.open(db)
    text = str(err.value)
    assert "\n" not in text and str(db) in text
    assert "backup" in text or "folder" in text


async def test_an_empty_file_becomes_a_database_only_when_asked(tmp_path):
    db = tmp_path / "hexhive.db"
    db.write_bytes(b"")
    store = await Store.open(db, allow_empty=True)
    assert await store.games() == []
    await store.close()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", [["db", "check"], ["console", "--db", "{db}"]])
def test_corrupt_db_exits_cleanly(tmp_path, kind, command):
    """Start-up, the console and `hexhive db check` exit with one clear line and status 2, never hang."""
    db = tmp_path / "hexhive.db"
    make_bad(kind, db)
    env = dict(os.environ, HEXHIVE_DATABASE=str(db), HEXHIVE_DISCORD_TOKEN="")
    args = [a.replace("{db}", str(db)) for a in command]
    done = subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=tmp_path, env=env, input="",
                          capture_output=True, text=True, timeout=60)  # a guard against hanging, not a timing
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("hexhive: ") and "Traceback" not in done.stderr, lines


async def _played(tmp_path) -> tuple[Path, int]:
    db = tmp_path / "g.db"
    store = await Store.open(db)
    try:
        core = make_core(store)
        r = await core.handle_line("alice", "console:#t", "/game new game:toy opponent:bob pile:20")
        gid = r[0].game_id
        await core.handle_line("bob", "console:#t", "/game accept")
        await play_toy(core, gid, 55)
        assert await store.snapshots(gid, 1), "the game should be past its first snapshot"
    finally:
        await store.close()
    return db, gid


async def _damaged(tmp_path, damage: str):  # noqa: ANN202
    """A played game's store, then ``damage`` (SQL) done to it behind the bot's back."""
    db, gid = await _played(tmp_path)
    c = sqlite3.connect(db)
    c.execute(damage)
    c.commit()
    c.close()
    return db, gid


@pytest.mark.parametrize("damage", ["UPDATE actions SET action = 'garbage{' WHERE seq = 3",
                                    "UPDATE actions SET action = '{}' WHERE seq = 4",
                                    "DELETE FROM actions WHERE seq = 5",
                                    "UPDATE snapshots SET state = 'not json'"])
async def test_a_damaged_log_before_the_snapshot_is_found_at_start_up(tmp_path, damage):
    db, gid = await _damaged(tmp_path, damage)
    store = await Store.open(db)
    try:
        core = make_core(store)
        await core.start()
        assert gid in core.damaged and gid not in core.live
        r = await core.handle_line("alice", "console:#t", f"/game log game:{gid}")
        assert r[0].to == "private" and "cannot be played" in r[0].text and "backup" in r[0].text
        r = await core.handle_line("alice", "console:#t", f"/take n:1 game:{gid}")
        assert "cannot be played" in r[0].text and list(core.internal_errors) == []
    finally:
        await store.close()


# --- hexhive replay on crafted records ------------------------------------------------------------------

async def _record(tmp_path) -> dict:
    db, gid = await _played(tmp_path)
    store = await Store.open(db)
    try:
        core = make_core(store)
        await core.start()
        await core.handle_line("mo", "console:#t", f"/mod edit op:pile n:9 reason:recount game:{gid}", is_moderator=True)
        await core.handle_line("alice", "console:#t", f"/game resign confirm:yes game:{gid}")
        r = await core.handle_line("carol", "console:#t", f"/game export game:{gid}")
    finally:
        await store.close()
    return json.loads(r[0].file_text)


def _crafts(rec: dict) -> dict[str, dict]:
    def changed(fn) -> dict:  # noqa: ANN001
        r = json.loads(json.dumps(rec))
        fn(r)
        return r

    def roll(sides):  # noqa: ANN001, ANN202
        def fn(r):  # noqa: ANN001, ANN202
            with_rolls = next(a for a in r["actions"] if a["rolls"])
            with_rolls["rolls"][0]["sides"] = sides
        return fn

    return {
        "a 0-sided roll": changed(roll(0)),
        "a 10**30-sided roll": changed(roll(10**30)),
        "a duplicated action number": changed(lambda r: r["actions"].insert(1, r["actions"][0])),
        "a missing action number": changed(lambda r: r["actions"].pop(2)),
        "a dice key of its own": changed(lambda r: r["actions"][3].update(dice_key="lucky")),
        "an edit the moderation log does not hold": changed(lambda r: r.update(moderation=[])),
    }


async def test_replay_rejects_crafted_records(tmp_path, capsys):
    rec = await _record(tmp_path)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(rec))
    assert replay_record(good, tmp_path / "out") == 0, capsys.readouterr().out
    capsys.readouterr()
    for name, crafted in _crafts(rec).items():
        path = tmp_path / "crafted.json"
        path.write_text(json.dumps(crafted))
        code = replay_record(path, tmp_path / "out")
        out = capsys.readouterr().out
        assert code != 0, (name, out)
        assert "Traceback" not in out and out.strip(), name


@pytest.mark.parametrize("content", [b"", b"{", b"[1, 2, 3]", b'{"format": 1}', b"\xff\xfe\x00garbage",
                                     b"[" * 100_000 + b"]" * 100_000])
def test_replay_of_a_malformed_file_says_so_in_one_line(tmp_path, capsys, content):
    path = tmp_path / "r.json"
    path.write_bytes(content)
    assert replay_record(path, tmp_path / "out") == 2
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "not a game record" in out[0]


def test_replay_refuses_a_huge_file_without_reading_it(tmp_path, capsys):
    path = tmp_path / "big.json"
    with path.open("wb") as f:
        f.truncate(65 * 1024 * 1024)  # a sparse file: nothing is written
    assert replay_record(path, tmp_path / "out") == 2
    assert "too large" in capsys.readouterr().out


_RECORD: dict = {}


def _a_record(tmp_path_factory) -> dict:  # noqa: ANN001
    if not _RECORD:
        import asyncio

        _RECORD.update(asyncio.run(_record(tmp_path_factory.mktemp("rec"))))
    return json.loads(json.dumps(_RECORD))


MUTATIONS = st.sampled_from(["seq", "sides", "value", "dice_key", "drop", "duplicate", "swap", "events", "seat",
                             "verb", "seed"])


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fuzzed_crafted_records_get_a_clear_answer(tmp_path_factory, data):
    """Random damage to a real record: `hexhive replay` answers with problem lines and an exit status,
    never a traceback or a hang; any damage to numbering, dice or rolls is found."""
    import contextlib
    import io

    rec = _a_record(tmp_path_factory)
    acts = rec["actions"]
    kind = data.draw(MUTATIONS)
    i = data.draw(st.integers(0, len(acts) - 1))
    with_rolls = [a for a in acts if a["rolls"]]
    if kind == "seq":
        acts[i]["seq"] = data.draw(st.integers(-5, 10**6))
    elif kind in ("sides", "value") and with_rolls:
        r = data.draw(st.sampled_from(with_rolls))["rolls"][0]
        r[kind] = data.draw(st.one_of(st.integers(-10, 2000), st.integers(10**20, 10**40)))
    elif kind == "dice_key":
        acts[i]["dice_key"] = data.draw(st.text(max_size=12))
    elif kind == "drop":
        acts.pop(i)
    elif kind == "duplicate":
        acts.insert(i, json.loads(json.dumps(acts[i])))
    elif kind == "swap" and i + 1 < len(acts):
        acts[i], acts[i + 1] = acts[i + 1], acts[i]
    elif kind == "events":
        acts[i]["events"] = [data.draw(st.text(max_size=30))]
    elif kind == "seat":
        acts[i]["seat"] = data.draw(st.sampled_from(["A", "B", "@moderator", "nobody"]))
    elif kind == "verb":
        acts[i]["action"] = {"verb": data.draw(st.text(max_size=10)), "args": {}}
    elif kind == "seed":
        rec["seed"] = data.draw(st.text(max_size=20))
    path = tmp_path_factory.mktemp("crafted") / "r.json"
    path.write_text(json.dumps(rec))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = replay_record(path, path.parent / "boards")
    text = out.getvalue()
    assert "Traceback" not in text and text.strip()
    dropped_last = kind == "drop" and i == len(acts)  # an earlier record of the same game: nothing to find
    if kind in ("seq", "drop", "duplicate", "dice_key", "seed") and json.dumps(rec) != json.dumps(_RECORD) \
            and not dropped_last:
        assert code != 0, (kind, text)


async def test_a_damaged_game_is_as_unknown_to_a_stranger_as_a_number_never_used(tmp_path):
    """A damaged game's refusal, which says why it cannot be played, was given before the check of who
    may find it: a member of another server learnt that the number exists, and what is wrong with it."""
    from bot.replies import Command

    db, gid = await _damaged(tmp_path, "DELETE FROM actions WHERE seq = 5")
    store = await Store.open(db)
    try:
        core = make_core(store)
        await core.start()
        assert gid in core.damaged

        async def ask(n: int, user: str = "mallory", community: str = "guild:2") -> str:
            cmd = Command(user=user, place="9000", name="game log", args={"game": str(n)}, community=community)
            return (await core.handle(cmd))[0].text

        said = await ask(gid)
        assert "cannot be played" not in said and said == (await ask(999)).replace("999", str(gid)), said
        assert "cannot be played" in await ask(gid, "alice", "console")  # a player of it is told why
    finally:
        await store.close()
