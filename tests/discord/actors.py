"""Members acting on the fake Discord: slash commands, autocomplete, clicks, and what they saw."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tests.fakediscord import payloads as P
from tests.fakediscord.server import FakeDiscord, Sent

ALICE, BOB, CAROL, MO, DAVE = 101, 102, 103, 104, 105


@dataclass
class Member:
    """A member of the fake server."""

    uid: int
    name: str
    permissions: int = P.MEMBER_PERMS
    roles: tuple[int, ...] = ()

    @property
    def id(self) -> str:
        return str(self.uid)

    def payload(self) -> dict[str, Any]:
        return P.member(self.uid, self.name, self.permissions, self.roles)


MEMBERS = {
    "alice": Member(ALICE, "alice"),
    "bob": Member(BOB, "bob"),
    "carol": Member(CAROL, "carol"),
    "mo": Member(MO, "mo", P.MEMBER_PERMS | P.MANAGE_GUILD),
    "dave": Member(DAVE, "dave"),
}


class Table:
    """Drives a bot through the fake as several members."""

    def __init__(self, fake: FakeDiscord, client: Any) -> None:
        self.fake = fake
        self.client = client
        self.members = dict(MEMBERS)

    def channel(self, cid: str | int) -> dict[str, Any]:
        return self.fake.channels[str(cid)]

    def grant(self, who: str, role: int) -> None:
        """``who`` is given the server role ``role`` (it must exist in the fake's server)."""
        m = self.members[who]
        self.members[who] = replace(m, roles=(*m.roles, role))

    async def slash(self, who: str, where: str | int, name: str, options: dict[str, Any] | None = None,
                    sub: str | None = None, app_permissions: int = P.BOT_PERMS) -> list[Sent]:
        """``who`` runs ``/name [sub] options`` in channel ``where`` (a DM channel too);
        user and role options are ``("user", id)`` and ``("role", id)``."""
        m = self.members[who]
        channel = self.channel(where)
        values = [v for v in (options or {}).values() if isinstance(v, tuple)]
        users = {str(v[1]): self._member_of(int(v[1])) for v in values if v[0] == "user"}
        roles = {str(v[1]): self.fake.roles[str(v[1])] for v in values if v[0] == "role"}
        if channel.get("type") == 1:
            payload = P.slash({"user": P.user(m.uid, m.name)}, channel, name, options, sub=sub, guild_id=None,
                              users={k: v["user"] for k, v in users.items()} or None)
        else:
            payload = P.slash(m.payload(), channel, name, options, sub=sub, users=users or None,
                              roles=roles or None, app_permissions=app_permissions)
        return await self.fake.interact(payload, self.client)

    async def complete(self, who: str, where: str | int, name: str, options: dict[str, Any], focused: str,
                       sub: str | None = None) -> list[str]:
        """The autocomplete choices ``who`` is offered for option ``focused``."""
        m = self.members[who]
        payload = P.slash(m.payload(), self.channel(where), name, options, sub=sub, focused=focused)
        await self.fake.interact(payload, self.client)
        return [c["value"] for c in self.fake.autocomplete[payload["id"]]]

    async def click(self, who: str, msg: dict[str, Any], label: str | None = None,
                    custom_id: str | None = None) -> list[Sent]:
        """``who`` presses the button ``label`` (or ``custom_id``) of message ``msg``."""
        m = self.members[who]
        buttons = P.buttons_of(msg)
        button = next(b for b in buttons if (custom_id and b["custom_id"] == custom_id) or b.get("label") == label)
        channel = self.channel(msg["channel_id"])
        in_dm = channel.get("type") == 1
        who_payload = {"user": P.user(m.uid, m.name)} if in_dm else m.payload()
        payload = P.click(who_payload, channel, msg, button["custom_id"], guild_id=None if in_dm else P.GUILD_ID)
        return await self.fake.interact(payload, self.client)

    def dms_to(self, who: str) -> list[Sent]:
        """Messages posted in ``who``'s DM channel."""
        cid = self.fake.dm_of.get(self.members[who].id)
        return [s for s in self.fake.sent if cid is not None and s.channel == cid]

    def in_channel(self, cid: str | int) -> list[Sent]:
        return [s for s in self.fake.sent if s.channel == str(cid) and not s.ephemeral]

    def _member_of(self, uid: int) -> dict[str, Any]:
        for m in self.members.values():
            if m.uid == uid:
                return m.payload()
        return P.member(uid, f"user{uid}")


def ephemeral(sent: list[Sent]) -> list[Sent]:
    """The ephemeral answers among messages."""
    return [s for s in sent if s.ephemeral]


def texts(sent: list[Sent]) -> str:
    return "\n".join(s.content for s in sent)
