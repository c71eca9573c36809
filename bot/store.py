"""The SQLite store: the action log is the truth, everything else is rebuilt from it.

One command is one transaction (``async with store.transaction():``). WAL mode with
full sync: once ``transaction()`` has returned, the action survives a crash.
A rollback never deletes: it copies the kept actions into a new branch and moves
the game onto it; the abandoned branch stays and can be restored.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
COMMITTED: ContextVar[bool] = ContextVar("hexhive_committed", default=False)
"""Set once a transaction of the running command has committed (the core resets it per command)."""
_MIGRATION_NAME = re.compile(r"^V(\d+)__([\w-]+)\.sql$")


@dataclass(frozen=True)
class GameRow:
    id: int
    place: str
    parent: str
    game: str
    config: str
    status: str
    seed: str
    seed_public: bool
    setup_rolls: str
    branch: int
    settings: str
    created_by: str
    created_at: str
    updated_at: str
    community: str = ""
    """The community the game was created in (``guild:<id>`` on Discord, ``console`` locally)."""
    bot_key: str = ""
    """With a public dice seed, the secret key of the bot opponent's draws (bot/opponent.py ``decision_seed``);
    never published."""

    @property
    def settings_dict(self) -> dict[str, Any]:
        return json.loads(self.settings)


@dataclass(frozen=True)
class ActionRow:
    seq: int
    seat: str
    user: str
    action: str
    rolls: str
    dice_key: str
    dice_seq: int
    secret: bool
    created_at: str
    events: str | None = None
    """What the action said when it was committed: JSON ``[[text, [seats]], ...]`` (no seats: public)."""


@dataclass(frozen=True)
class SecretRow:
    seq: int
    nonce: str
    commitment: str
    revealed_at: int | None
    closed_at: int | None = None
    """The action after which no secret decision waited any more (the choice's phase was over)."""


class StoreError(Exception):
    """A database that cannot be used; ``str()`` is one line saying what is wrong, where, and what to do."""


RESTORE_HINT = "restore it from a copy made with `hexhive db backup`"
SQLITE_HEADER = b"SQLite format 3\x00"


def check_file(path: Path, *, allow_empty: bool = False) -> None:
    """Refuse at once a file that cannot be our database, before SQLite is asked to open it.

    A missing file is fine (a new database is made); an empty one is refused unless
    ``allow_empty``, since an empty file where a database should be means something went wrong.
    """
    if not path.exists():
        if not path.parent.is_dir():
            raise StoreError(f"the folder {path.parent} of the database {path} does not exist")
        return
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a database file; set HEXHIVE_DATABASE to a file")
    try:
        with path.open("rb") as f:
            head = f.read(100)
        size = path.stat().st_size
    except OSError as exc:
        raise StoreError(f"the database {path} cannot be read ({exc.strerror})") from None
    if size == 0:
        if allow_empty:
            return
        raise StoreError(f"the database {path} is an empty file (0 bytes), not a hexhive database; "
                         f"{RESTORE_HINT}, or start with --create-db to make a new one in it")
    if len(head) < 100 or not head.startswith(SQLITE_HEADER):
        raise StoreError(f"{path} is not an SQLite database (its header is wrong); {RESTORE_HINT}")
    page_size = struct.unpack(">H", head[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    change, pages, valid_for = (struct.unpack(">I", head[i:i + 4])[0] for i in (24, 28, 92))
    if pages and change == valid_for and size < pages * page_size:
        raise StoreError(f"the database {path} is truncated ({size} bytes of {pages * page_size}); {RESTORE_HINT}")


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration file, in order."""
    out = []
    for p in sorted(MIGRATIONS.glob("V*.sql")):
        m = _MIGRATION_NAME.match(p.name)
        if not m:
            raise RuntimeError(f"migration file name not understood: {p.name}")
        out.append((int(m.group(1)), m.group(2), p.read_text()))
    return sorted(out)


class Store:
    """The database of games. Open with ``await Store.open(path)``; close with ``await store.close()``."""

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.db = db
        self.path = path
        self._in_tx = False
        self._tx_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, allow_empty: bool = False) -> Store:
        """Open (creating if need be) and migrate the database at ``path``.

        Raises ``StoreError`` at once, with the connection closed, when the file is not a
        sound database of ours: empty, truncated, not SQLite, damaged, read-only, or not migratable.
        """
        p = Path(path)
        check_file(p, allow_empty=allow_empty)
        try:
            db = await aiosqlite.connect(str(p), isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"the database {p} cannot be opened ({exc}); {RESTORE_HINT}") from None
        try:
            db.row_factory = aiosqlite.Row
            await db.execute("PRAGMA busy_timeout=5000")
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=FULL")
            await db.execute("PRAGMA foreign_keys=ON")
            async with db.execute("SELECT count(*) FROM sqlite_master") as cur:
                await cur.fetchone()
            store = cls(db, str(p))
            await store.migrate()
        except (sqlite3.Error, RuntimeError) as exc:
            await db.close()
            raise StoreError(_open_problem(p, exc)) from None
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection."""
        await self.db.close()

    async def migrate(self) -> list[int]:
        """Apply every migration not yet recorded in ``schema_migrations``; each in one transaction."""
        await self.db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)"
        )
        async with self.db.execute("SELECT version FROM schema_migrations") as cur:
            done = {r[0] for r in await cur.fetchall()}
        applied = []
        for version, name, sql in migrations():
            if version in done:
                continue
            script = (
                "BEGIN IMMEDIATE;\n"
                + sql
                + f"\nINSERT INTO schema_migrations(version, name) VALUES ({version}, '{name}');\nCOMMIT;"
            )
            try:
                await self.db.executescript(script)
            except Exception:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise
            applied.append(version)
        return applied

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        """One atomic unit of work: everything inside commits together or not at all."""
        async with self._tx_lock:
            self._in_tx = True
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            else:
                await self.db.execute("COMMIT")
                COMMITTED.set(True)
            finally:
                self._in_tx = False

    # --- games ---------------------------------------------------------------------------

    async def insert_game(
        self, *, place: str, parent: str, game: str, config: str, status: str, seed: str,
        seed_public: bool, setup_rolls: str, settings: str, created_by: str, now: str, community: str = "",
        bot_key: str = "",
    ) -> int:
        """A new game row, with its first branch; returns the game id."""
        cur = await self.db.execute(
            "INSERT INTO games(place, parent, game, config, status, seed, seed_public, setup_rolls, branch,"
            " settings, created_by, created_at, updated_at, community, bot_key) VALUES (?,?,?,?,?,?,?,?,1,?,?,?,?,?,?)",
            (place, parent, game, config, status, seed, int(seed_public), setup_rolls, settings, created_by, now, now,
             community, bot_key),
        )
        game_id = cur.lastrowid
        assert game_id is not None
        await self.db.execute(
            "INSERT INTO branches(game_id, branch, parent_branch, fork_seq, dice_key, reason, created_at)"
            " VALUES (?, 1, NULL, 0, 'main', 'start', ?)",
            (game_id, now),
        )
        return game_id

    async def update_game(self, game_id: int, now: str, **fields: Any) -> None:
        """Change columns of a game row."""
        cols = ", ".join(f"{k} = ?" for k in fields)
        await self.db.execute(
            f"UPDATE games SET {cols}, updated_at = ? WHERE id = ?", (*fields.values(), now, game_id)
        )

    async def game(self, game_id: int) -> GameRow | None:
        """One game row."""
        async with self.db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return _game(row) if row else None

    async def games(self, where: str = "1", params: tuple[Any, ...] = ()) -> list[GameRow]:
        """Game rows matching an SQL condition."""
        async with self.db.execute(f"SELECT * FROM games WHERE {where} ORDER BY id", params) as cur:
            return [_game(r) for r in await cur.fetchall()]

    async def newest_by_place(self) -> list[tuple[str, int, str]]:
        """(place, id, status) of the newest game created in each place."""
        async with self.db.execute(
            "SELECT place, id, status FROM games WHERE id IN (SELECT MAX(id) FROM games GROUP BY place)"
        ) as cur:
            return [(str(r[0]), int(r[1]), str(r[2])) for r in await cur.fetchall()]

    # --- branches and actions ---------------------------------------------------------------

    async def branch_info(self, game_id: int, branch: int) -> dict[str, Any]:
        """The row of one branch."""
        async with self.db.execute(
            "SELECT * FROM branches WHERE game_id = ? AND branch = ?", (game_id, branch)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            raise KeyError(f"game {game_id} has no branch {branch}")
        return dict(row)

    async def keyed_branches(self) -> list[tuple[int, int, int, str]]:
        """(game, branch, fork action, dice key) of every branch with a key of its own (not ``main``)."""
        async with self.db.execute(
            "SELECT game_id, branch, fork_seq, dice_key FROM branches WHERE dice_key != 'main' ORDER BY game_id, branch"
        ) as cur:
            return [(r["game_id"], r["branch"], r["fork_seq"], r["dice_key"]) for r in await cur.fetchall()]

    async def branches(self, game_id: int) -> list[dict[str, Any]]:
        """Every branch of a game with its length."""
        async with self.db.execute(
            "SELECT b.*, (SELECT COALESCE(MAX(seq), 0) FROM actions a WHERE a.game_id = b.game_id"
            " AND a.branch = b.branch) AS length FROM branches b WHERE game_id = ? ORDER BY branch",
            (game_id,),
        ) as cur:
            return [dict(r) for r in await cur.fetchall()]

    async def append_action(
        self, game_id: int, branch: int, seq: int, *, seat: str, user: str, action: str, rolls: str,
        dice_key: str, dice_seq: int, secret: bool, now: str, events: str | None = None,
    ) -> None:
        """Append one accepted action to a branch (with the lines it said, when known)."""
        await self.db.execute(
            "INSERT INTO actions(game_id, branch, seq, seat, user, action, rolls, dice_key, dice_seq, secret,"
            " created_at, events) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (game_id, branch, seq, seat, user, action, rolls, dice_key, dice_seq, int(secret), now, events),
        )

    async def actions(self, game_id: int, branch: int, upto: int | None = None,
                      after: int | None = None) -> list[ActionRow]:
        """The actions of a branch in order (after ``after``, up to and including ``upto``)."""
        sql = "SELECT * FROM actions WHERE game_id = ? AND branch = ?"
        params: tuple[Any, ...] = (game_id, branch)
        if upto is not None:
            sql += " AND seq <= ?"
            params += (upto,)
        if after is not None:
            sql += " AND seq > ?"
            params += (after,)
        async with self.db.execute(sql + " ORDER BY seq", params) as cur:
            return [
                ActionRow(r["seq"], r["seat"], r["user"], r["action"], r["rolls"], r["dice_key"], r["dice_seq"],
                          bool(r["secret"]), r["created_at"], r["events"])
                for r in await cur.fetchall()
            ]

    async def actions_at(self, game_id: int, branch: int, seqs: list[int]) -> list[ActionRow]:
        """Only the actions numbered ``seqs`` of a branch, in order."""
        if not seqs:
            return []
        marks = ",".join("?" * len(seqs))
        async with self.db.execute(
            f"SELECT * FROM actions WHERE game_id = ? AND branch = ? AND seq IN ({marks}) ORDER BY seq",
            (game_id, branch, *seqs),
        ) as cur:
            return [
                ActionRow(r["seq"], r["seat"], r["user"], r["action"], r["rolls"], r["dice_key"], r["dice_seq"],
                          bool(r["secret"]), r["created_at"], r["events"])
                for r in await cur.fetchall()
            ]

    async def fork(self, game_id: int, from_branch: int, at_seq: int, dice_key: str, reason: str, now: str) -> int:
        """A new branch holding the first ``at_seq`` actions of ``from_branch``; the game moves onto it."""
        async with self.db.execute("SELECT MAX(branch) FROM branches WHERE game_id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        new = (row[0] if row else 0) + 1
        await self.db.execute(
            "INSERT INTO branches(game_id, branch, parent_branch, fork_seq, dice_key, reason, created_at)"
            " VALUES (?,?,?,?,?,?,?)",
            (game_id, new, from_branch, at_seq, dice_key, reason, now),
        )
        await self.db.execute(
            "INSERT INTO actions(game_id, branch, seq, seat, user, action, rolls, dice_key, dice_seq, secret, created_at,"
            " events) SELECT game_id, ?, seq, seat, user, action, rolls, dice_key, dice_seq, secret, created_at, events"
            " FROM actions"
            " WHERE game_id = ? AND branch = ? AND seq <= ?",
            (new, game_id, from_branch, at_seq),
        )
        await self.db.execute(
            "INSERT INTO secrets(game_id, branch, seq, nonce, commitment, revealed_at, closed_at)"
            " SELECT game_id, ?, seq, nonce, commitment, revealed_at, closed_at FROM secrets"
            " WHERE game_id = ? AND branch = ? AND seq <= ?",
            (new, game_id, from_branch, at_seq),
        )
        # the positions after those actions are the same on both branches: their snapshots hold for the new
        # one, so loading it reads only what follows the newest (bot/live.py), not the whole log
        await self.db.execute(
            "INSERT INTO snapshots(game_id, branch, seq, state) SELECT game_id, ?, seq, state FROM snapshots"
            " WHERE game_id = ? AND branch = ? AND seq <= ?",
            (new, game_id, from_branch, at_seq),
        )
        await self.db.execute(
            "UPDATE secrets SET revealed_at = NULL WHERE game_id = ? AND branch = ? AND revealed_at > ?",
            (game_id, new, at_seq),
        )
        await self.db.execute(
            "UPDATE secrets SET closed_at = NULL WHERE game_id = ? AND branch = ? AND closed_at > ?",
            (game_id, new, at_seq),
        )
        await self.update_game(game_id, now, branch=new)
        return new

    # --- secrets --------------------------------------------------------------------------

    async def add_secret(self, game_id: int, branch: int, seq: int, nonce: str, commitment: str) -> None:
        """Seal a secret action's nonce and commitment."""
        await self.db.execute(
            "INSERT INTO secrets(game_id, branch, seq, nonce, commitment) VALUES (?,?,?,?,?)",
            (game_id, branch, seq, nonce, commitment),
        )

    async def reveal_secrets(self, game_id: int, branch: int, at_seq: int) -> list[SecretRow]:
        """Mark every unrevealed secret of the branch revealed at ``at_seq``; returns them."""
        rows = await self.secrets(game_id, branch, unrevealed=True)
        await self.db.execute(
            "UPDATE secrets SET revealed_at = ?, closed_at = COALESCE(closed_at, ?)"
            " WHERE game_id = ? AND branch = ? AND revealed_at IS NULL",
            (at_seq, at_seq, game_id, branch),
        )
        return rows

    async def secrets(self, game_id: int, branch: int, unrevealed: bool = False,
                      opened_after: int | None = None) -> list[SecretRow]:
        """The sealed secrets of a branch (``opened_after``: only those still sealed or opened after that action)."""
        sql = "SELECT * FROM secrets WHERE game_id = ? AND branch = ?"
        params: tuple[Any, ...] = (game_id, branch)
        if unrevealed:
            sql += " AND revealed_at IS NULL"
        if opened_after is not None:
            sql += " AND (revealed_at IS NULL OR revealed_at > ?)"
            params += (opened_after,)
        async with self.db.execute(sql + " ORDER BY seq", params) as cur:
            return [SecretRow(r["seq"], r["nonce"], r["commitment"], r["revealed_at"], r["closed_at"])
                    for r in await cur.fetchall()]

    async def sealed(self, game_id: int, branch: int) -> list[tuple[SecretRow, str]]:
        """The still-sealed choices of a branch, each with the seat that made it (only those rows)."""
        async with self.db.execute(
            "SELECT s.*, a.seat FROM secrets s JOIN actions a ON a.game_id = s.game_id AND a.branch = s.branch"
            " AND a.seq = s.seq WHERE s.game_id = ? AND s.branch = ? AND s.revealed_at IS NULL ORDER BY s.seq",
            (game_id, branch),
        ) as cur:
            return [(SecretRow(r["seq"], r["nonce"], r["commitment"], r["revealed_at"], r["closed_at"]), r["seat"])
                    for r in await cur.fetchall()]

    async def close_secrets(self, game_id: int, branch: int, at_seq: int) -> None:
        """The phase of every still-open sealed choice of the branch ended at ``at_seq``."""
        await self.db.execute(
            "UPDATE secrets SET closed_at = ? WHERE game_id = ? AND branch = ? AND closed_at IS NULL",
            (at_seq, game_id, branch),
        )

    async def has_open_secrets(self, game_id: int, branch: int) -> bool:
        """Whether the branch has a sealed choice whose phase is still going on."""
        async with self.db.execute(
            "SELECT 1 FROM secrets WHERE game_id = ? AND branch = ? AND closed_at IS NULL LIMIT 1",
            (game_id, branch),
        ) as cur:
            return await cur.fetchone() is not None

    # --- snapshots ------------------------------------------------------------------------

    async def put_snapshot(self, game_id: int, branch: int, seq: int, state: str) -> None:
        """Cache the state after action ``seq``."""
        await self.db.execute(
            "INSERT OR REPLACE INTO snapshots(game_id, branch, seq, state) VALUES (?,?,?,?)",
            (game_id, branch, seq, state),
        )

    async def last_seq(self, game_id: int, branch: int) -> int:
        """The number of the last action of a branch (0 when it has none)."""
        async with self.db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ? AND branch = ?", (game_id, branch)
        ) as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def last_snapshot(self, game_id: int, branch: int) -> tuple[int, str] | None:
        """Only the newest cached state of a branch, (seq, state JSON)."""
        async with self.db.execute(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND branch = ? ORDER BY seq DESC LIMIT 1",
            (game_id, branch),
        ) as cur:
            row = await cur.fetchone()
        return (row[0], row[1]) if row else None

    async def snapshot_upto(self, game_id: int, branch: int, seq: int) -> tuple[int, str] | None:
        """Only the newest cached state of a branch at or before action ``seq``, (seq, state JSON)."""
        async with self.db.execute(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND branch = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
            (game_id, branch, seq),
        ) as cur:
            row = await cur.fetchone()
        return (row[0], row[1]) if row else None

    async def prune_outbox(self, before: str) -> int:
        """Forget posted replies created before ``before`` (kept that long for diagnosis); returns how many."""
        cur = await self.db.execute("DELETE FROM outbox WHERE posted = 1 AND created_at < ?", (before,))
        return cur.rowcount or 0

    async def snapshot_seqs(self, game_id: int, branch: int, newest: int) -> list[int]:
        """The action numbers of a branch's ``newest`` cached states, newest first (no state read)."""
        async with self.db.execute(
            "SELECT seq FROM snapshots WHERE game_id = ? AND branch = ? ORDER BY seq DESC LIMIT ?",
            (game_id, branch, newest),
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def snapshots(self, game_id: int, branch: int) -> list[tuple[int, str]]:
        """Every cached state of a branch, (seq, state JSON), oldest first."""
        async with self.db.execute(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND branch = ? ORDER BY seq", (game_id, branch)
        ) as cur:
            return [(r[0], r[1]) for r in await cur.fetchall()]

    # --- outbox and moderation log -----------------------------------------------------------

    async def add_outbox(self, game_id: int | None, payload: str, now: str) -> int:
        """Queue a reply to post once the transaction commits."""
        cur = await self.db.execute(
            "INSERT INTO outbox(game_id, payload, created_at) VALUES (?,?,?)", (game_id, payload, now)
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def unposted(self) -> list[tuple[int, int | None, str]]:
        """Replies committed but not yet marked posted: (id, game id, payload)."""
        async with self.db.execute("SELECT id, game_id, payload FROM outbox WHERE posted = 0 ORDER BY id") as cur:
            return [(r[0], r[1], r[2]) for r in await cur.fetchall()]

    async def mark_posted(self, ids: list[int]) -> None:
        """Mark outbox rows as posted."""
        if ids:
            marks = ",".join("?" * len(ids))
            await self.db.execute(f"UPDATE outbox SET posted = 1 WHERE id IN ({marks})", ids)

    async def add_modlog(self, game_id: int, moderator: str, what: str, reason: str, now: str,
                         seq: int | None = None) -> None:
        """Record a moderator's action (``seq``: the action of the log it became, for an edit)."""
        await self.db.execute(
            "INSERT INTO modlog(game_id, moderator, what, reason, created_at, seq) VALUES (?,?,?,?,?,?)",
            (game_id, moderator, what, reason, now, seq),
        )

    async def modlog(self, game_id: int) -> list[dict[str, Any]]:
        """A game's moderation log."""
        async with self.db.execute("SELECT * FROM modlog WHERE game_id = ? ORDER BY id", (game_id,)) as cur:
            return [dict(r) for r in await cur.fetchall()]

    async def add_hint(self, game_id: int, branch: int, after_seq: int, seat: str, user: str, suggestion: str,
                       now: str) -> None:
        """Record that ``seat`` asked for a hint after action ``after_seq``, and what it said."""
        await self.db.execute(
            "INSERT INTO hints(game_id, branch, after_seq, seat, user, suggestion, created_at) VALUES (?,?,?,?,?,?,?)",
            (game_id, branch, after_seq, seat, user, suggestion, now),
        )

    async def hints(self, game_id: int) -> list[dict[str, Any]]:
        """The hints asked in a game, oldest first (what each said included: the caller hides it)."""
        async with self.db.execute("SELECT * FROM hints WHERE game_id = ? ORDER BY id", (game_id,)) as cur:
            return [dict(r) for r in await cur.fetchall()]

    async def place_settings(self, place: str) -> dict[str, Any]:
        """Settings of a channel or server (e.g. the moderator role)."""
        async with self.db.execute("SELECT settings FROM place_settings WHERE place = ?", (place,)) as cur:
            row = await cur.fetchone()
        return json.loads(row[0]) if row else {}

    async def set_place_settings(self, place: str, settings: dict[str, Any]) -> None:
        """Replace the settings of a place."""
        await self.db.execute(
            "INSERT INTO place_settings(place, settings) VALUES (?, ?)"
            " ON CONFLICT(place) DO UPDATE SET settings = excluded.settings",
            (place, json.dumps(settings)),
        )

    # --- maintenance ---------------------------------------------------------------------------

    async def damaged_games(self) -> dict[int, str]:
        """Games in play whose log cannot be read back: a row that is not JSON or not an action,
        a missing action number, or a snapshot that is not JSON. One pass of SQL over the rows
        (no replay), so it is cheap enough for every start-up."""
        found: dict[int, str] = {}
        live = "g.status IN ('invited', 'active', 'paused')"
        async with self.db.execute(
            "SELECT a.game_id, MIN(a.seq) FROM actions a JOIN games g ON g.id = a.game_id AND g.branch = a.branch"
            f" WHERE {live} AND (json_valid(a.rolls) = 0 OR CASE WHEN json_valid(a.action)"
            " THEN json_type(a.action, '$.verb') IS NOT 'text' ELSE 1 END) GROUP BY a.game_id"
        ) as cur:
            for gid, seq in await cur.fetchall():
                found[gid] = f"action {seq} of its log is damaged"
        async with self.db.execute(
            "SELECT a.game_id, COUNT(*), MAX(a.seq) FROM actions a JOIN games g ON g.id = a.game_id"
            f" AND g.branch = a.branch WHERE {live} GROUP BY a.game_id HAVING COUNT(*) != MAX(a.seq)"
        ) as cur:
            for gid, count, last in await cur.fetchall():
                found.setdefault(gid, f"its log has {count} actions numbered up to {last}: some are missing")
        async with self.db.execute(
            "SELECT s.game_id, MIN(s.seq) FROM snapshots s JOIN games g ON g.id = s.game_id AND g.branch = s.branch"
            f" WHERE {live} AND json_valid(s.state) = 0 GROUP BY s.game_id"
        ) as cur:
            for gid, seq in await cur.fetchall():
                found.setdefault(gid, f"its saved position after action {seq} is damaged")
        return found

    async def backup(self, dest: str | Path) -> None:
        """A consistent copy of the database while it is in use (SQLite's online backup)."""
        async with aiosqlite.connect(str(dest)) as target:
            await self.db.backup(target)

    async def integrity_check(self) -> list[str]:
        """SQLite's integrity check: ['ok'] when sound."""
        async with self.db.execute("PRAGMA integrity_check") as cur:
            return [r[0] for r in await cur.fetchall()]


def _open_problem(path: Path, exc: Exception) -> str:
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        return f"the database {path} is read-only ({text}); give the bot's user write access to it and its folder"
    if "malformed" in text or "not a database" in text or "corrupt" in text:
        return f"the database {path} is damaged ({text}); {RESTORE_HINT}"
    return f"the database {path} cannot be opened or migrated ({text}); {RESTORE_HINT}"


def _game(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=row["id"], place=row["place"], parent=row["parent"], game=row["game"], config=row["config"],
        status=row["status"], seed=row["seed"], seed_public=bool(row["seed_public"]),
        setup_rolls=row["setup_rolls"], branch=row["branch"], settings=row["settings"],
        created_by=row["created_by"], created_at=row["created_at"], updated_at=row["updated_at"],
        community=row["community"], bot_key=row["bot_key"],
    )
