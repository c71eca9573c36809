"""The store: numbered migrations, transactions, branches, backup, integrity check."""

from __future__ import annotations

import sqlite3

import pytest

from bot.store import Store, migrations


async def test_migrations_apply_to_an_empty_database_and_are_recorded(tmp_path):
    store = await Store.open(tmp_path / "a.db")
    async with store.db.execute("SELECT version, name FROM schema_migrations ORDER BY version") as cur:
        rows = [tuple(r) for r in await cur.fetchall()]
    assert rows == [(v, n) for v, n, _ in migrations()]
    assert await store.migrate() == []  # a second run applies nothing
    await store.close()


async def test_migration_versions_are_numbered_without_gaps():
    versions = [v for v, _, _ in migrations()]
    assert versions == list(range(1, len(versions) + 1))


async def test_wal_mode_and_full_sync(store):
    async with store.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    async with store.db.execute("PRAGMA synchronous") as cur:
        assert (await cur.fetchone())[0] == 2  # FULL


async def _game(store: Store) -> int:
    async with store.transaction():
        return await store.insert_game(place="p", parent="", game="toy", config="{}", status="active", seed="s",
                                       seed_public=False, setup_rolls="[]", settings="{}", created_by="a", now="t")


async def test_a_failed_transaction_leaves_nothing(store):
    gid = await _game(store)
    with pytest.raises(RuntimeError):
        async with store.transaction():
            await store.append_action(gid, 1, 1, seat="A", user="a", action="{}", rolls="[]", dice_key="main",
                                      dice_seq=1, secret=False, now="t")
            raise RuntimeError("boom")
    assert await store.actions(gid, 1) == []


async def test_an_action_number_cannot_be_appended_twice(store):
    gid = await _game(store)
    async with store.transaction():
        await store.append_action(gid, 1, 1, seat="A", user="a", action="{}", rolls="[]", dice_key="main",
                                  dice_seq=1, secret=False, now="t")
    with pytest.raises(sqlite3.IntegrityError):
        async with store.transaction():
            await store.append_action(gid, 1, 1, seat="A", user="a", action="{}", rolls="[]", dice_key="main",
                                      dice_seq=1, secret=False, now="t")
    assert len(await store.actions(gid, 1)) == 1


async def test_fork_copies_the_kept_actions_and_keeps_the_old_branch(store):
    gid = await _game(store)
    async with store.transaction():
        for seq in (1, 2, 3):
            await store.append_action(gid, 1, seq, seat="A", user="a", action=f'{{"n":{seq}}}', rolls="[]",
                                      dice_key="main", dice_seq=seq, secret=False, now="t")
        new = await store.fork(gid, 1, 2, "k2", "test", "t")
    assert new == 2
    assert [a.seq for a in await store.actions(gid, 2)] == [1, 2]
    assert [a.seq for a in await store.actions(gid, 1)] == [1, 2, 3]
    assert (await store.game(gid)).branch == 2
    assert (await store.branch_info(gid, 2))["dice_key"] == "k2"


async def test_secrets_revealed_after_the_fork_point_are_sealed_again_on_the_new_branch(store):
    gid = await _game(store)
    async with store.transaction():
        for seq in (1, 2):
            await store.append_action(gid, 1, seq, seat="A", user="a", action="{}", rolls="[]", dice_key="main",
                                      dice_seq=seq, secret=True, now="t")
        await store.add_secret(gid, 1, 1, "n1", "c1")
        await store.reveal_secrets(gid, 1, 2)
        await store.fork(gid, 1, 1, "k", "r", "t")
    assert [s.revealed_at for s in await store.secrets(gid, 2)] == [None]
    assert [s.revealed_at for s in await store.secrets(gid, 1)] == [2]


async def test_backup_is_a_consistent_copy(store, tmp_path):
    gid = await _game(store)
    await store.backup(tmp_path / "copy.db")
    copy = await Store.open(tmp_path / "copy.db")
    assert (await copy.game(gid)).game == "toy"
    assert await copy.integrity_check() == ["ok"]
    await copy.close()


async def test_outbox_rows_are_returned_until_marked_posted(store):
    async with store.transaction():
        a = await store.add_outbox(None, "x", "t")
        b = await store.add_outbox(None, "y", "t")
    assert [r[0] for r in await store.unposted()] == [a, b]
    async with store.transaction():
        await store.mark_posted([a])
    assert [r[0] for r in await store.unposted()] == [b]


async def test_games_made_before_the_bot_key_get_one_if_their_seed_is_public(tmp_path):
    """Migration 5: a game whose dice seed was fixed and posted (``seed:``) gets a secret key of its own for
    the bot's draws (bot/opponent.py ``decision_seed``); a game with a secret seed needs none."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as c:
        c.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        for version, name, sql in migrations()[:4]:
            c.executescript(sql)
            c.execute("INSERT INTO schema_migrations VALUES (?, ?)", (version, name))
        for seed, public in (("pub", 1), ("pub", 1), ("secret", 0)):
            c.execute("INSERT INTO games(place, game, config, status, seed, seed_public, created_by, created_at,"
                      " updated_at) VALUES ('p', 'toy', '{}', 'active', ?, ?, 'a', 't', 't')", (seed, public))
    store = await Store.open(path)
    try:
        keys = [row.bot_key for row in await store.games("1 = 1")]
    finally:
        await store.close()
    assert len(keys[0]) == len(keys[1]) == 32 and keys[0] != keys[1]
    assert keys[2] == ""
