"""Settings from the environment and ``.env``, validated; a bad value stops start-up with one clear line."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.answers import Limits


class Settings(BaseSettings):
    """hexhive's settings (see .env.example)."""

    model_config = SettingsConfigDict(env_prefix="HEXHIVE_", env_file=".env", extra="ignore")

    discord_token: SecretStr | None = None
    database: Path = Path("hexhive.db")
    dev_guild_id: int | None = Field(default=None, gt=0)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    max_invites_per_member: int = Field(default=3, ge=1, le=1000)
    max_invites_per_community: int = Field(default=50, ge=1, le=100_000)
    invite_days: int = Field(default=7, ge=1, le=365)
    max_bot_games_per_member: int = Field(default=3, ge=1, le=1000)
    max_bot_games_per_community: int = Field(default=30, ge=1, le=100_000)

    def limits(self):  # type: ignore[no-untyped-def]
        """The core's limits from these settings."""
        return Limits(invites_per_member=self.max_invites_per_member,
                      invites_per_community=self.max_invites_per_community, invite_days=self.invite_days,
                      bot_games_per_member=self.max_bot_games_per_member,
                      bot_games_per_community=self.max_bot_games_per_community)

    @field_validator("discord_token", mode="before")
    @classmethod
    def _empty_token(cls, v: object) -> object:
        return None if v in ("", None) else v

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _empty_guild(cls, v: object) -> object:
        return None if v in ("", None) else v

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, v: object) -> object:
        return v.upper() if isinstance(v, str) else v


class SettingsError(Exception):
    """One line naming the bad setting; never the value of a secret."""


def load_settings(env_file: str | Path | None = ".env") -> Settings:
    """Read and validate the settings; raise ``SettingsError`` with one readable line."""
    try:
        return Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as exc:
        err = exc.errors()[0]
        field = str(err["loc"][0]) if err["loc"] else "?"
        name = "HEXHIVE_" + field.upper()
        # The message of a secret field never includes its input.
        msg = err["msg"]
        raise SettingsError(f"setting {name} is not valid: {msg}") from None
