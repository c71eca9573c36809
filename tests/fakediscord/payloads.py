"""Discord JSON payloads for tests: users, members, channels, messages, interactions."""

from __future__ import annotations

import itertools
from typing import Any

APP_ID = 900
GUILD_ID = 1000
CHANNEL_ID = 2000
MANAGE_GUILD = 1 << 5
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 31) | (1 << 38)  # view, send, use commands, send in threads
EMBED_LINKS, ATTACH_FILES, READ_HISTORY, CREATE_PUBLIC_THREADS = 1 << 14, 1 << 15, 1 << 16, 1 << 35
BOT_PERMS = MEMBER_PERMS | EMBED_LINKS | ATTACH_FILES | READ_HISTORY | CREATE_PUBLIC_THREADS
"""What the bot is granted in the test server (``app_permissions`` of every interaction)."""
NOW = "2026-11-29T12:00:00.000000+00:00"

_ids = itertools.count(10**15)


def snowflake() -> int:
    """A fresh id."""
    return next(_ids)


def user(uid: int, name: str, bot: bool = False) -> dict[str, Any]:
    """A user object."""
    return {"id": str(uid), "username": name, "global_name": name.title(), "discriminator": "0", "avatar": None,
            "bot": bot, "public_flags": 0, "flags": 0}


def member(uid: int, name: str, permissions: int = MEMBER_PERMS, roles: tuple[int, ...] = ()) -> dict[str, Any]:
    """A guild member object, with the member's permissions in the channel."""
    return {"user": user(uid, name), "roles": [str(r) for r in roles], "joined_at": NOW, "deaf": False,
            "mute": False, "flags": 0, "nick": None, "permissions": str(permissions)}


def text_channel(cid: int = CHANNEL_ID, guild: int = GUILD_ID, name: str = "wargames") -> dict[str, Any]:
    """A guild text channel."""
    return {"id": str(cid), "type": 0, "guild_id": str(guild), "name": name, "position": 0,
            "permission_overwrites": [], "nsfw": False, "parent_id": None, "topic": None,
            "rate_limit_per_user": 0, "last_message_id": None, "flags": 0}


def announcement_channel(cid: int, guild: int = GUILD_ID, name: str = "news") -> dict[str, Any]:
    """An announcement (news) channel."""
    return text_channel(cid, guild, name) | {"type": 5}


def thread(tid: int, parent: int, name: str, owner: int = APP_ID, guild: int = GUILD_ID,
           private: bool = False) -> dict[str, Any]:
    """A public thread (or a private one)."""
    return {"id": str(tid), "type": 12 if private else 11, "guild_id": str(guild), "parent_id": str(parent), "name": name,
            "owner_id": str(owner), "rate_limit_per_user": 0, "message_count": 0, "member_count": 1, "flags": 0,
            "last_message_id": None,
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "archive_timestamp": NOW,
                                "locked": False}}


def dm_channel(cid: int, recipient: dict[str, Any]) -> dict[str, Any]:
    """A direct-message channel."""
    return {"id": str(cid), "type": 1, "recipients": [recipient], "last_message_id": None, "flags": 0}


def role(rid: int, name: str, permissions: int = 0, guild: int = GUILD_ID) -> dict[str, Any]:
    """A role."""
    return {"id": str(rid), "name": name, "permissions": str(permissions), "position": 0 if rid == guild else 1,
            "color": 0, "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False, "managed": False, "mentionable": True, "flags": 0, "icon": None, "unicode_emoji": None}


def guild(gid: int = GUILD_ID, channels: list[dict[str, Any]] | None = None,
          roles: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A guild as GUILD_CREATE sends it."""
    return {"id": str(gid), "name": "Hex Club", "icon": None, "owner_id": "1", "unavailable": False,
            "member_count": 5, "large": False, "features": [], "emojis": [], "stickers": [], "members": [],
            "threads": [], "presences": [], "voice_states": [], "stage_instances": [], "guild_scheduled_events": [],
            "channels": channels or [text_channel(guild=gid)], "soundboard_sounds": [],
            "roles": roles or [role(gid, "@everyone", MEMBER_PERMS, gid)], "premium_tier": 0,
            "preferred_locale": "en-US", "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0, "system_channel_flags": 0,
            "afk_timeout": 300, "joined_at": NOW}


def message(mid: int, channel_id: int, author: dict[str, Any], content: str = "", *, components: list | None = None,
            attachments: list | None = None, flags: int = 0, guild_id: int | None = None) -> dict[str, Any]:
    """A message object."""
    out = {"id": str(mid), "channel_id": str(channel_id), "author": author, "content": content,
           "timestamp": NOW, "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
           "mention_roles": [], "attachments": attachments or [], "embeds": [], "pinned": False, "type": 0,
           "components": components or [], "flags": flags}
    if guild_id is not None:
        out["guild_id"] = str(guild_id)
    return out


def _base(kind: int, who: dict[str, Any], channel: dict[str, Any], guild_id: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": str(snowflake()), "application_id": str(APP_ID), "type": kind, "token": f"tok{snowflake()}",
        "version": 1, "channel_id": channel["id"], "channel": channel, "locale": "en-US", "guild_locale": "en-US",
        "app_permissions": str(BOT_PERMS), "entitlements": [], "authorizing_integration_owners": {"0": "1"},
        "context": 0 if guild_id else 1, "attachment_size_limit": 10 * 1024 * 1024,
    }
    if guild_id is not None:
        out["guild_id"] = str(guild_id)
        out["member"] = who
    else:
        out["user"] = who["user"] if "user" in who else who
    return out


def option_type(value: Any) -> int:
    """The option type of a value: 6 for a user id given as ``<@id>``, 4 for ints, else 3 (string)."""
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    return 3


def slash(who: dict[str, Any], channel: dict[str, Any], name: str, options: dict[str, Any] | None = None, *,
          sub: str | None = None, guild_id: int | None = GUILD_ID, focused: str | None = None,
          users: dict[str, dict[str, Any]] | None = None, roles: dict[str, dict[str, Any]] | None = None,
          command_id: int = 1, app_permissions: int = BOT_PERMS) -> dict[str, Any]:
    """An application command (or, with ``focused``, autocomplete) interaction.

    Options whose value is ``("user", id)`` or ``("role", id)`` are user or role options,
    resolved from ``users`` / ``roles``.
    """
    opts = []
    for k, v in (options or {}).items():
        if isinstance(v, tuple):
            kind, val = v
            opts.append({"name": k, "type": 6 if kind == "user" else 8, "value": str(val)})
        else:
            o: dict[str, Any] = {"name": k, "type": option_type(v), "value": v}
            if k == focused:
                o["focused"] = True
            opts.append(o)
    if sub is not None:
        opts = [{"name": sub, "type": 1, "options": opts}]
    data: dict[str, Any] = {"id": str(command_id), "name": name, "type": 1, "options": opts}
    resolved: dict[str, Any] = {}
    if users:
        resolved["users"] = {k: (v["user"] if "user" in v else v) for k, v in users.items()}
        if guild_id is not None:
            resolved["members"] = {k: {kk: vv for kk, vv in v.items() if kk != "user"}
                                   for k, v in users.items() if "user" in v}
    if roles:
        resolved["roles"] = roles
    if resolved:
        data["resolved"] = resolved
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    return _base(4 if focused else 2, who, channel, guild_id) | {"data": data,
                                                                 "app_permissions": str(app_permissions)}


def click(who: dict[str, Any], channel: dict[str, Any], msg: dict[str, Any], custom_id: str, *,
          guild_id: int | None = GUILD_ID) -> dict[str, Any]:
    """A button click on ``msg``."""
    return _base(3, who, channel, guild_id) | {"message": msg, "data": {"custom_id": custom_id,
                                                                           "component_type": 2}}


def buttons_of(msg: dict[str, Any]) -> list[dict[str, Any]]:
    """The buttons of a message, in order."""
    return [c for row in msg.get("components", []) for c in row.get("components", []) if c.get("type") == 2]
