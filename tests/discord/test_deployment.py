"""Running hexhive as a service: the exit statuses a service manager relies on, the health check,
and the Dockerfile, systemd unit and Makefile saying what the code does."""

from __future__ import annotations

import configparser
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot import cli
from bot.clocks import HEARTBEAT_KEY
from bot.commands import make_core
from tests.discord.conftest import start_bot

ROOT = Path(__file__).resolve().parents[2]


def beat(db: Path, at: datetime) -> None:
    with sqlite3.connect(db) as con:
        con.execute("UPDATE place_settings SET settings = ? WHERE place = ?",
                    (f'{{"at": "{at.isoformat()}"}}', HEARTBEAT_KEY))


async def test_health_is_good_while_the_heartbeat_is_fresh(fake, store, tmp_path, capsys):
    running = await start_bot(fake, make_core(store))
    await running.stop()
    db = Path(store.path)
    assert cli.health(db) == 0
    beat(db, datetime.now(UTC) - timedelta(minutes=10))
    assert cli.health(db) == 1
    assert "last heartbeat 600 s ago" in capsys.readouterr().err
    assert cli.health(tmp_path / "missing.db") == 1


def test_the_cli_passes_the_sync_flag_and_returns_the_bots_exit_status(monkeypatch):
    seen = {}

    def fake_run(settings, *, force_sync=False):  # noqa: ANN001, ANN202
        seen["force_sync"] = force_sync
        return 2  # what a refused token returns (tests/discord/test_app.py)

    monkeypatch.setenv("HEXHIVE_DISCORD_TOKEN", "x")
    monkeypatch.setattr("bot.discord_app.run_discord", fake_run)
    assert cli.main(["discord", "--sync"]) == 2 and seen == {"force_sync": True}
    assert cli.main(["discord"]) == 2 and seen == {"force_sync": False}


def test_the_systemd_unit_is_complete_and_does_not_retry_a_refused_token():
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment, method-assign]
    unit.read(ROOT / "docs" / "hexhive.service")
    assert {"Unit", "Service", "Install"} <= set(unit.sections())
    service = unit["Service"]
    assert service["User"] and service["User"] != "root"
    assert service["Restart"] == "on-failure" and int(service["RestartSec"]) > 0
    assert service["RestartPreventExitStatus"] == "2"
    assert service["ExecStart"].endswith("hexhive discord")
    assert unit["Install"]["WantedBy"]


def test_the_dockerfile_runs_slim_unprivileged_with_the_database_on_a_volume_and_a_health_check():
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.1\d-slim", text, re.M)
    user = re.findall(r"^USER (\S+)", text, re.M)
    assert user and user[-1] not in ("root", "0")
    volume = re.search(r'^VOLUME \["(/[^"]+)"\]', text, re.M)
    assert volume and f"HEXHIVE_DATABASE={volume.group(1)}/" in text
    assert re.search(r'^HEALTHCHECK .*CMD \["hexhive", "health"\]', text, re.M)
    assert re.search(r'^CMD \["hexhive", "discord"\]', text, re.M)
    assert "[dev]" not in text


def test_make_run_installs_only_what_running_needs():
    make = (ROOT / "Makefile").read_text()
    recipes = {m.group(1): m.group(2) for m in re.finditer(r"^(\S+): [^\n]*\n((?:\t[^\n]*\n)+)", make, re.M)}
    assert re.search(r"^run: \$\(RUN_STAMP\)$", make, re.M)
    assert "pip install --quiet -e .\n" in recipes["$(RUN_STAMP)"] and "[dev]" not in recipes["$(RUN_STAMP)"]
    assert re.search(r"^test: \$\(DEV_STAMP\)$", make, re.M) and "[dev]" in recipes["$(DEV_STAMP)"]


@pytest.mark.parametrize("doc", ["docs/discord-setup.md"])
def test_the_setup_guide_explains_running_it_as_a_service(doc):
    text = (ROOT / doc).read_text()
    assert "## Running it as a service" in text
    assert "docs/hexhive.service" in text and "docker build" in text and "RestartPreventExitStatus=2" in text
