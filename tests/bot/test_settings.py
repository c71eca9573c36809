"""Settings: validated at start-up, one clear line naming a bad setting, the token never shown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import SettingsError, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.secret-token-value"
ROOT = Path(__file__).resolve().parents[2]


def test_defaults_without_a_token(monkeypatch, tmp_path):
    for k in ("HEXHIVE_DISCORD_TOKEN", "HEXHIVE_DEV_GUILD_ID", "HEXHIVE_LOG_LEVEL", "HEXHIVE_DATABASE"):
        monkeypatch.delenv(k, raising=False)
    s = load_settings(env_file=tmp_path / "none.env")
    assert s.discord_token is None and s.log_level == "INFO"


def test_a_bad_value_names_the_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXHIVE_LOG_LEVEL", "LOUD")
    with pytest.raises(SettingsError) as e:
        load_settings(env_file=tmp_path / "none.env")
    assert "HEXHIVE_LOG_LEVEL" in str(e.value)


def test_a_bad_guild_id_names_the_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXHIVE_DEV_GUILD_ID", "not-a-number")
    with pytest.raises(SettingsError) as e:
        load_settings(env_file=tmp_path / "none.env")
    assert "HEXHIVE_DEV_GUILD_ID" in str(e.value)


def test_the_token_is_never_in_repr_or_errors(monkeypatch, tmp_path):
    monkeypatch.setenv("HEXHIVE_DISCORD_TOKEN", TOKEN)
    s = load_settings(env_file=tmp_path / "none.env")
    assert TOKEN not in repr(s) and TOKEN not in str(s.model_dump())
    assert s.discord_token is not None and s.discord_token.get_secret_value() == TOKEN
    monkeypatch.setenv("HEXHIVE_LOG_LEVEL", "LOUD")
    with pytest.raises(SettingsError) as e:
        load_settings(env_file=tmp_path / "none.env")
    assert TOKEN not in str(e.value)


def test_a_settings_error_stops_the_command_with_one_line_and_no_token(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HEXHIVE_DISCORD_TOKEN": TOKEN, "HEXHIVE_LOG_LEVEL": "LOUD", "HOME": str(tmp_path)}
    p = subprocess.run([sys.executable, "-m", "bot.cli", "console", "--script", "/dev/null"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert TOKEN not in p.stdout + p.stderr
    assert p.stderr.strip().count("\n") == 0 and "HEXHIVE_LOG_LEVEL" in p.stderr


def test_env_is_ignored_by_git():
    p = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT)
    assert p.returncode == 0
