"""``hexhive``: the bot on Discord when a token is configured, else the local console; and tools."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import tempfile
from pathlib import Path

from bot.settings import Settings, SettingsError, load_settings

HEALTH_MAX_AGE = 300.0
"""The bot writes a heartbeat every minute while connected; five minutes without one is unhealthy."""


def health(database: Path, max_age: float = HEALTH_MAX_AGE) -> int:
    """0 when the bot's last heartbeat in ``database`` is at most ``max_age`` seconds old, else 1 with one line.

    Read-only, so it can run beside the bot (a container's HEALTHCHECK, a monitoring probe)."""
    import json
    import sqlite3
    from datetime import UTC, datetime

    from bot.clocks import HEARTBEAT_KEY

    try:
        with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as db:
            row = db.execute("SELECT settings FROM place_settings WHERE place = ?", (HEARTBEAT_KEY,)).fetchone()
    except sqlite3.Error as exc:
        print(f"hexhive: unhealthy: cannot read {database}: {exc}", file=sys.stderr)
        return 1
    at = json.loads(row[0]).get("at") if row else None
    if not at:
        print("hexhive: unhealthy: no heartbeat yet (the bot has not connected)", file=sys.stderr)
        return 1
    age = (datetime.now(UTC) - datetime.fromisoformat(at)).total_seconds()
    if age > max_age:
        print(f"hexhive: unhealthy: last heartbeat {age:.0f} s ago (more than {max_age:.0f} s)", file=sys.stderr)
        return 1
    print(f"hexhive: healthy (last heartbeat {age:.0f} s ago)")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hexhive`` command."""
    parser = argparse.ArgumentParser(prog="hexhive", description="A moderator for two-player hex wargames.")
    parser.add_argument("--create-db", action="store_true",
                        help="make a new database in an empty (0-byte) database file instead of refusing it")
    sub = parser.add_subparsers(dest="cmd")
    c = sub.add_parser("console", help="play locally as several people")
    c.add_argument("--script", type=Path, help="a file of lines 'name: /command ...' to run")
    c.add_argument("--out", type=Path, help="where to write boards and files")
    c.add_argument("--db", type=Path, help="database file (a script uses a fresh one by default)")
    c.add_argument("--seed", help="derive every game's dice seed from this (reproducible runs)")
    dc = sub.add_parser("discord", help="run the bot on Discord")
    dc.add_argument("--sync", action="store_true",
                    help="sync the slash commands with Discord even if they did not change since the last sync")
    d = sub.add_parser("db", help="database tools")
    dsub = d.add_subparsers(dest="dbcmd", required=True)
    b = dsub.add_parser("backup", help="a consistent copy while the bot runs")
    b.add_argument("path", type=Path)
    dcheck = dsub.add_parser("check", help="integrity check and replay of every game against its snapshots")
    dcheck.add_argument("--full", action="store_true",
                        help="check every action's legality again, not only those after the last snapshot")
    h = sub.add_parser("health", help="exit 0 when the running bot wrote its heartbeat recently (for a health check)")
    h.add_argument("--max-age", type=float, default=HEALTH_MAX_AGE,
                   help=f"seconds the last heartbeat may be old (default {HEALTH_MAX_AGE:.0f})")
    r = sub.add_parser("replay", help="re-run a game record through the engine and write its boards")
    r.add_argument("record", type=Path)
    r.add_argument("--out", type=Path, default=Path("out"))
    args = parser.parse_args(argv)

    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"hexhive: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.store import StoreError

    console = args.cmd == "console" or (args.cmd is None and settings.discord_token is None)
    try:
        status = _run(args, settings)
        if console and sys.stdout is not None:  # None: started with standard output closed
            sys.stdout.flush()  # here, not at exit: a pipe whose reader went away fails here, quietly handled
        return status
    except StoreError as exc:
        print(f"hexhive: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        if not console:
            raise  # not the console's output: it may be a real fault (a socket, a worker's pipe)
        from bot.console import quiet_stdout

        quiet_stdout()  # the console's reader stopped early (``| head``): stop quietly
        return 1


def _run(args: argparse.Namespace, settings: Settings) -> int:
    if args.create_db:
        for db in (settings.database, getattr(args, "db", None)):
            if db is not None and db.is_file() and db.stat().st_size == 0:
                db.unlink()  # an empty file, explicitly to be made a new database

    if args.cmd == "health":
        return health(settings.database, args.max_age)
    if args.cmd == "replay":
        from bot.replay_tool import replay_record

        return replay_record(args.record, args.out)
    if args.cmd == "db":
        from bot import dbtools

        if args.dbcmd == "backup":
            return asyncio.run(dbtools.backup(settings.database, args.path))
        return asyncio.run(dbtools.check(settings.database, full=args.full))
    if args.cmd == "console":
        from bot.console import interactive, run_script

        if args.script:
            db = args.db or Path(tempfile.mkdtemp(prefix="hexhive-")) / "console.db"
            try:
                lines = args.script.read_text().splitlines()
            except OSError as exc:
                print(f"hexhive: cannot read the script {args.script}: {exc.strerror}", file=sys.stderr)
                return 2
            return asyncio.run(run_script(lines, db, args.out, seed_base=args.seed))
        return asyncio.run(interactive(args.db or settings.database, args.out or Path("out"), seed_base=args.seed))
    if args.cmd == "discord" or (args.cmd is None and settings.discord_token is not None):
        if settings.discord_token is None:
            print("hexhive: HEXHIVE_DISCORD_TOKEN is not set; put it in .env (see docs/discord-setup.md)",
                  file=sys.stderr)
            return 2
        from bot.discord_app import run_discord

        return run_discord(settings, force_sync=getattr(args, "sync", False))
    from bot.console import interactive

    print("No Discord token configured: starting the local console. "
          "To connect to Discord, put HEXHIVE_DISCORD_TOKEN in .env (docs/discord-setup.md).")
    return asyncio.run(interactive(settings.database, Path("out")))


if __name__ == "__main__":
    sys.exit(main())
