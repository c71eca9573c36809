"""One error handler for every command: rule errors and refusals privately, anything else with an error id."""

from __future__ import annotations

import logging
import uuid

import discord
from discord import app_commands

from engine.core.errors import RuleError

log = logging.getLogger("hexhive.discord.errors")


class AfterCommit(Exception):
    """Something failed after the command had committed: the member must not hear "Nothing was changed"."""


def explain(error: BaseException) -> tuple[str, str | None]:
    """The private message for an error, and an error id when it was unexpected (and logged)."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, RuleError):
        return _sorry(str(original)), None
    if isinstance(original, app_commands.CommandOnCooldown):
        return f"Sorry, please wait {original.retry_after:.0f} s before using that again.", None
    if isinstance(original, app_commands.NoPrivateMessage):
        return "Sorry, that command works only in a server channel, not in direct messages.", None
    if isinstance(original, app_commands.MissingPermissions | app_commands.CheckFailure):
        return "Sorry, you do not have permission to do that here.", None
    if isinstance(original, app_commands.TransformerError):
        return f"Sorry, '{original.value}' is not understood for that option.", None
    if type(original) is app_commands.AppCommandError and str(original):
        return _sorry(str(original)), None
    error_id = uuid.uuid4().hex[:8]
    if isinstance(original, AfterCommit):
        return (f"Your command was taken and saved, but something went wrong on our side while announcing it "
                f"(error id {error_id}); its announcement will follow.", error_id)
    return (f"Sorry, something went wrong on our side (error id {error_id}). Nothing was changed; "
            "a moderator can look it up."), error_id


def _sorry(text: str) -> str:
    text = text.strip().rstrip(".")
    return text + "." if text.startswith("Sorry") else f"Sorry, {text[:1].lower()}{text[1:]}."


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The tree's error handler: answer privately, log the unexpected with its traceback."""
    text, error_id = explain(error)
    if error_id is not None:
        original = getattr(error, "original", error)
        name = interaction.command.qualified_name if interaction.command else "?"
        log.error("error %s in /%s from user %s", error_id, name, interaction.user.id,
                  exc_info=(type(original), original, original.__traceback__))
    await reply_privately(interaction, text)


async def reply_privately(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, as a follow-up when the interaction was already answered."""
    none = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=none)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=none)
    except discord.HTTPException:
        log.warning("could not answer interaction %s with an error message", interaction.id)
