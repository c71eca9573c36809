"""A fake Discord on 127.0.0.1: enough REST and gateway for discord.py to log in, sync, and play.

It keeps every request it receives (``requests``), the messages of each channel,
and answers 403 / code 50007 to messages sent to a member whose DMs are closed.
Tests act as members through ``slash``, ``complete`` and ``click``, which send
INTERACTION_CREATE over the gateway and wait until the bot has answered.

It fails on demand as Discord does on a bad day (``fail``, ``drop``, ``rate_limit``,
``refuse_files``, ``archive``, ``thread_limit``), honours message nonces as Discord
does with ``enforce_nonce`` (a second post with the same nonce returns the first
message), and in strict mode (the default) refuses what Discord refuses: messages
over its limits (2,000 characters, 10 attachments, 5 rows of 5 buttons, 25 select
options) and a second answer to one interaction (40060). Refusals made in strict
mode are kept in ``violations`` so a test can show none happened.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord import payloads as P


@dataclass
class Request:
    """One REST request the bot made."""

    method: str
    path: str
    json: Any
    files: list[tuple[str, bytes]] = field(default_factory=list)


@dataclass
class Sent:
    """A message the bot posted, where it went, and its attachments."""

    channel: str
    data: dict[str, Any]
    allowed_mentions: Any
    files: list[tuple[str, bytes]]
    ephemeral: bool = False
    interaction: str = ""

    @property
    def content(self) -> str:
        return self.data.get("content") or ""


@dataclass
class Fault:
    """A failure the fake answers to matching requests, ``times`` times.

    ``status`` and ``code`` make the error answer; ``drop`` closes the connection instead,
    ``"before"`` the request is handled or ``"after"`` (the message exists, its answer is lost);
    ``retry_after`` makes it a 429. ``containing`` matches the message's text, ``with_files``
    only requests that upload a file.
    """

    method: str
    path: str
    status: int = 503
    code: int = 0
    message: str = "Service Unavailable"
    times: int = 1
    drop: str = ""
    retry_after: float | None = None
    containing: str | None = None
    with_files: bool = False
    hits: int = 0

    def matches(self, method: str, path: str, body: Any, files: list[tuple[str, bytes]]) -> bool:
        if self.hits >= self.times or method != self.method or not re.fullmatch(self.path, path):
            return False
        if self.with_files and not files:
            return False
        text = (body or {}).get("content") or "" if isinstance(body, dict) else ""
        return self.containing is None or self.containing in text


MAX_CONTENT = 2000
MAX_FILES = 10
MAX_ROWS = 5
MAX_BUTTONS = 5
MAX_OPTIONS = 25


def limit_errors(body: Any, files: list[tuple[str, bytes]]) -> list[str]:
    """What Discord would refuse in a message: text, attachments and components over its limits."""
    if not isinstance(body, dict):
        return []
    out = []
    if len(body.get("content") or "") > MAX_CONTENT:
        out.append(f"content is {len(body['content'])} characters (at most {MAX_CONTENT})")
    if len(files) > MAX_FILES:
        out.append(f"{len(files)} attachments (at most {MAX_FILES})")
    rows = body.get("components") or []
    if len(rows) > MAX_ROWS:
        out.append(f"{len(rows)} component rows (at most {MAX_ROWS})")
    for row in rows:
        items = row.get("components", [])
        buttons = [c for c in items if c.get("type") == 2]
        if len(buttons) > MAX_BUTTONS or (len(items) > 1 and len(buttons) != len(items)):
            out.append(f"a row of {len(items)} components (at most {MAX_BUTTONS} buttons or one select)")
        for c in items:
            if len(c.get("label") or "") > 80 or len(c.get("custom_id") or "") > 100:
                out.append("a component label over 80 or custom id over 100 characters")
            if len(c.get("options") or []) > MAX_OPTIONS:
                out.append(f"a select of {len(c['options'])} options (at most {MAX_OPTIONS})")
    return out


class FakeDiscord:
    """The fake API server. ``await start()``, point discord.py at ``rest_url`` / ``gateway_url``."""

    def __init__(self, *, strict: bool = True) -> None:
        self.strict = strict
        self.faults: list[Fault] = []
        self.violations: list[str] = []
        self.answered: set[str] = set()
        self._nonces: dict[tuple[str, str], dict[str, Any]] = {}
        self.bot = P.user(P.APP_ID, "hexhive", bot=True)
        self.requests: list[Request] = []
        self.sent: list[Sent] = []
        self.typing: list[str] = []
        """Channels the bot showed a typing indicator in."""
        self.edits: list[tuple[int, Sent]] = []
        """Messages edited after posting, as they read then, with ``len(sent)`` at the time."""
        self.channels: dict[str, dict[str, Any]] = {str(P.CHANNEL_ID): P.text_channel()}
        self.roles: dict[str, dict[str, Any]] = {str(P.GUILD_ID): P.role(P.GUILD_ID, "@everyone", P.MEMBER_PERMS)}
        self.messages: dict[str, dict[str, Any]] = {}
        self.closed_dms: set[str] = set()
        self.refused_tokens: set[str] = set()
        self.dm_of: dict[str, str] = {}
        self.users: dict[str, dict[str, Any]] = {}
        self.commands: dict[str, list[dict[str, Any]]] = {}
        self.callbacks: dict[str, asyncio.Event] = {}
        self.autocomplete: dict[str, list[dict[str, Any]]] = {}
        self.ws: web.WebSocketResponse | None = None
        self.ready = asyncio.Event()
        self.seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._interaction_channel: dict[str, str] = {}
        self._token_of: dict[str, str] = {}

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        """Close the gateway and the server."""
        if self.ws is not None and not self.ws.closed:
            await self.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def rest_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # --- failing on demand ---------------------------------------------------------------------

    def fail(self, method: str = "POST", path: str = r"/channels/\d+/messages", *, status: int = 503,
             code: int = 0, message: str = "Service Unavailable", times: int = 1, containing: str | None = None,
             with_files: bool = False) -> Fault:
        """Answer the next ``times`` matching requests with an error (a 5xx by default)."""
        fault = Fault(method, path, status, code, message, times, containing=containing, with_files=with_files)
        self.faults.append(fault)
        return fault

    def drop(self, method: str = "POST", path: str = r"/channels/\d+/messages", *, when: str = "before",
             times: int = 1, containing: str | None = None) -> Fault:
        """Close the connection of matching requests without an answer, ``before`` or ``after`` handling them."""
        fault = Fault(method, path, times=times, drop=when, containing=containing)
        self.faults.append(fault)
        return fault

    def rate_limit(self, method: str = "POST", path: str = r"/channels/\d+/messages", *,
                   retry_after: float = 0.05, times: int = 1, containing: str | None = None) -> Fault:
        """Answer 429 with ``retry_after`` (seconds) to matching requests."""
        fault = Fault(method, path, 429, 0, "You are being rate limited.", times, retry_after=retry_after,
                      containing=containing)
        self.faults.append(fault)
        return fault

    def refuse_files(self, times: int = 1_000_000) -> Fault:
        """Posts with a file are refused with 403 / 50013, as without the Attach Files permission."""
        return self.fail("POST", r"/channels/\d+/messages", status=403, code=50013, message="Missing Permissions",
                         times=times, with_files=True)

    def thread_limit(self, times: int = 1) -> Fault:
        """Creating a thread is refused with 160006 (too many active threads)."""
        return self.fail("POST", r"/channels/\d+/threads", status=400, code=160006,
                         message="Maximum number of active threads reached", times=times)

    async def archive(self, thread: str | int, *, announce: bool = True) -> None:
        """A thread archives itself (inactivity): edits in it are refused with 50083 until it is unarchived;
        ``announce`` sends the bot THREAD_UPDATE as Discord does."""
        ch = self.channels[str(thread)]
        ch["thread_metadata"] = dict(ch["thread_metadata"], archived=True)
        if announce and self.ws is not None and not self.ws.closed:
            await self.dispatch("THREAD_UPDATE", ch)

    def archived(self, cid: str) -> bool:
        return bool(self.channels.get(cid, {}).get("thread_metadata", {}).get("archived"))

    def _fault(self, request: web.Request, path: str, body: Any,
               files: list[tuple[str, bytes]]) -> Fault | None:
        for fault in self.faults:
            if fault.matches(request.method, path, body, files):
                fault.hits += 1
                return fault
        return None

    # --- gateway ---------------------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.ws = ws
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45000}})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_json({"op": 11})
            elif data["op"] == 2:
                await self._ready(ws)
        return ws

    async def _ready(self, ws: web.WebSocketResponse) -> None:
        await self.dispatch("READY", {
            "v": 10, "user": self.bot, "guilds": [{"id": str(P.GUILD_ID), "unavailable": True}],
            "session_id": "s1", "resume_gateway_url": self.gateway_url, "shard": [0, 1],
            "application": {"id": str(P.APP_ID), "flags": 0}, "private_channels": [], "relationships": [],
        })
        await self.dispatch("GUILD_CREATE", P.guild(channels=[self.channels[str(P.CHANNEL_ID)]],
                                                    roles=list(self.roles.values())))
        self.ready.set()

    async def add_role(self, role: dict[str, Any]) -> None:
        """A role created in the server (announced to a connected bot, as Discord does)."""
        self.roles[role["id"]] = role
        if self.ws is not None and not self.ws.closed:
            await self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(P.GUILD_ID), "role": role})

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a gateway event to the bot."""
        assert self.ws is not None
        self.seq += 1
        await self.ws.send_json({"op": 0, "t": event, "s": self.seq, "d": data})

    # --- REST ------------------------------------------------------------------------------

    async def rest(self, request: web.Request) -> web.StreamResponse:
        body, files = await _body(request)
        path = "/" + request.match_info["tail"]
        self.requests.append(Request(request.method, path, body, files))
        if request.headers.get("Authorization", "").removeprefix("Bot ") in self.refused_tokens:
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        parts = path.strip("/").split("/")
        handler = self._route(request.method, parts)
        if handler is None:
            return _json({"message": f"no fake route for {request.method} {path}", "code": 0}, 404)
        fault = self._fault(request, path, body, files)
        if fault is not None and fault.drop:
            if fault.drop == "after":
                await handler(parts, body, files, request)
            assert request.transport is not None
            request.transport.abort()
            raise ConnectionResetError("dropped by the fake")
        if fault is not None and fault.retry_after is not None:
            return _json({"message": fault.message, "retry_after": fault.retry_after, "global": False}, 429,
                         headers={"Retry-After": str(fault.retry_after), "X-RateLimit-Scope": "user",
                                  "Via": "1.1 google"})
        if fault is not None:
            return _json({"message": fault.message, "code": fault.code}, fault.status)
        if self.strict and request.method in ("POST", "PATCH") and parts[0] in ("channels", "webhooks", "interactions"):
            data = body.get("data") if parts[0] == "interactions" and isinstance(body, dict) else body
            problems = limit_errors(data, files)
            if problems:
                self.violations += problems
                return _json({"message": "Invalid Form Body: " + "; ".join(problems), "code": 50035}, 400)
        return await handler(parts, body, files, request)

    def _route(self, method: str, parts: list[str]):  # type: ignore[no-untyped-def]
        key = (method, len(parts), parts[0])
        table = {
            ("GET", 2, "users"): self.get_user,
            ("GET", 3, "oauth2"): self.app_info,
            ("PUT", 3, "applications"): self.put_commands,
            ("PUT", 5, "applications"): self.put_commands,
            ("POST", 3, "users"): self.create_dm,
            ("GET", 2, "channels"): self.get_channel,
            ("POST", 3, "channels"): self.post_channel,
            ("PATCH", 4, "channels"): self.edit_message,
            ("PATCH", 2, "channels"): self.edit_channel,
            ("POST", 4, "interactions"): self.callback,
            ("POST", 3, "webhooks"): self.followup,
            ("PATCH", 5, "webhooks"): self.edit_original,
            ("DELETE", 5, "webhooks"): self.delete_original,
        }
        return table.get(key)

    async def get_user(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        if parts[1] == "@me":
            return _json(self.bot)
        return _json(self.users.get(parts[1]) or P.user(int(parts[1]), f"user{parts[1]}"))

    async def app_info(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        return _json({"id": str(P.APP_ID), "name": "hexhive", "description": "", "icon": None,
                      "bot_public": True, "bot_require_code_grant": False, "owner": P.user(1, "owner"),
                      "verify_key": "00", "flags": 0, "team": None, "summary": ""})

    async def put_commands(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        scope = parts[3] if len(parts) == 5 else "global"
        out = []
        for i, c in enumerate(body or [], 1):
            out.append({"id": str(5000 + i), "application_id": str(P.APP_ID), "version": "1",
                        "default_member_permissions": None, "type": 1, "dm_permission": True, "nsfw": False} | c
                       | ({"guild_id": scope} if scope != "global" else {}))
        self.commands[scope] = out
        return _json(out)

    async def create_dm(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        uid = str(body["recipient_id"])
        cid = self.dm_of.setdefault(uid, str(P.snowflake()))
        self.channels[cid] = P.dm_channel(int(cid), self.users.get(uid) or P.user(int(uid), f"user{uid}"))
        return _json(self.channels[cid])

    async def get_channel(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        ch = self.channels.get(parts[1])
        return _json(ch) if ch else _json({"message": "Unknown Channel", "code": 10003}, 404)

    async def post_channel(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        cid, what = parts[1], parts[2]
        if what == "threads":
            if self.channels.get(cid, {}).get("type") not in (0, 5):
                return _json({"message": "Cannot execute action on this channel type", "code": 50024}, 400)
            tid = P.snowflake()
            self.channels[str(tid)] = P.thread(tid, int(cid), body.get("name", "game"))
            await self.dispatch("THREAD_CREATE", self.channels[str(tid)] | {"newly_created": True})
            return _json(self.channels[str(tid)], 201)
        if what == "typing":  # the typing indicator (the bot opponent thinking)
            self.typing.append(cid)
            return web.Response(status=204)
        if what != "messages":
            return _json({"message": "not faked", "code": 0}, 404)
        for uid, dm in self.dm_of.items():
            if dm == cid and uid in self.closed_dms:
                return _json({"message": "Cannot send messages to this user", "code": 50007}, 403)
        nonce = (body or {}).get("nonce")
        if nonce and body.get("enforce_nonce") and (cid, str(nonce)) in self._nonces:
            return _json(self._nonces[(cid, str(nonce))])  # Discord: the same nonce returns the first message
        if self.archived(cid):  # a post in an archived (not locked) thread unarchives it, as on Discord
            self.channels[cid]["thread_metadata"] = dict(self.channels[cid]["thread_metadata"], archived=False)
            if self.ws is not None and not self.ws.closed:
                await self.dispatch("THREAD_UPDATE", self.channels[cid])
        msg = self._store(cid, body, files)
        if nonce and body.get("enforce_nonce"):
            self._nonces[(cid, str(nonce))] = msg
        return _json(msg)

    def _store(self, cid: str, body: dict[str, Any], files: list[tuple[str, bytes]], *, ephemeral: bool = False,
               interaction: str = "") -> dict[str, Any]:
        mid = P.snowflake()
        attachments = [{"id": str(P.snowflake()), "filename": n, "size": len(b), "url": f"http://x/{n}",
                        "proxy_url": f"http://x/{n}"} for n, b in files]
        ch = self.channels.get(cid, {})
        msg = P.message(mid, int(cid), self.bot, body.get("content") or "", components=body.get("components"),
                        attachments=attachments, flags=64 if ephemeral else 0,
                        guild_id=int(ch["guild_id"]) if ch.get("guild_id") else None)
        self.messages[str(mid)] = msg
        self.sent.append(Sent(cid, msg, body.get("allowed_mentions"), files, ephemeral, interaction))
        return msg

    async def edit_message(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        msg = self.messages.get(parts[3])
        if msg is None:
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        if self.archived(parts[1]):
            return _json({"message": "Thread is archived", "code": 50083}, 400)
        msg.update({k: v for k, v in body.items() if k in ("content", "components")})
        self.edits.append((len(self.sent), Sent(parts[1], dict(msg), body.get("allowed_mentions"), files)))
        return _json(msg)

    async def edit_channel(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        ch = self.channels.get(parts[1])
        if ch is None:
            return _json({"message": "Unknown Channel", "code": 10003}, 404)
        if "archived" in (body or {}) and "thread_metadata" in ch:
            ch["thread_metadata"] = dict(ch["thread_metadata"], archived=bool(body["archived"]))
            if self.ws is not None and not self.ws.closed:
                await self.dispatch("THREAD_UPDATE", ch)
        if "name" in (body or {}):
            ch["name"] = body["name"]
        return _json(ch)

    def delete_message(self, mid: str) -> None:
        """A member (or a moderator) deletes one of the bot's messages."""
        self.messages.pop(str(mid), None)

    # --- interactions ------------------------------------------------------------------------

    async def callback(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        iid = parts[1]
        kind = body.get("type")
        if self.strict and iid in self.answered:
            self.violations.append(f"interaction {iid} answered twice")
            return _json({"message": "Interaction has already been acknowledged.", "code": 40060}, 400)
        self.answered.add(iid)
        data = body.get("data") or {}
        ephemeral = bool(data.get("flags", 0) & 64)
        channel = self._interaction_channel.get(iid, "")
        resource: dict[str, Any] = {"type": kind}
        if kind == 8:
            self.autocomplete[iid] = data.get("choices", [])
        elif kind == 4:
            resource["message"] = self._store(channel, data, files, ephemeral=ephemeral, interaction=iid)
        self.callbacks.setdefault(iid, asyncio.Event()).set()
        return _json({"interaction": {"id": iid, "type": 2, "response_message_loading": kind == 5,
                                      "response_message_ephemeral": ephemeral}, "resource": resource})

    async def followup(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        token = parts[2]
        iid = self._token_of.get(token, "")
        ephemeral = bool((body or {}).get("flags", 0) & 64)
        return _json(self._store(self._interaction_channel.get(iid, ""), body or {}, files, ephemeral=ephemeral,
                                 interaction=iid))

    async def edit_original(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        iid = self._token_of.get(parts[2], "")
        return _json(self._store(self._interaction_channel.get(iid, ""), body or {}, files, ephemeral=True,
                                 interaction=iid))

    async def delete_original(self, parts, body, files, request):  # type: ignore[no-untyped-def]
        return web.Response(status=204)

    async def interact(self, payload: dict[str, Any], client: Any) -> list[Sent]:
        """Send an interaction to the bot, wait until it is answered and the bot is idle; what it sent."""
        iid = payload["id"]
        self._interaction_channel[iid] = payload["channel_id"]
        self._token_of[payload["token"]] = iid
        before = len(self.sent)
        event = self.callbacks.setdefault(iid, asyncio.Event())
        await self.dispatch("INTERACTION_CREATE", payload)
        await asyncio.wait_for(event.wait(), timeout=10)
        await asyncio.wait_for(client.hive.idle(), timeout=20)
        for _ in range(5):
            await asyncio.sleep(0)
        return self.sent[before:]

    def channel_payloads(self, since: int = 0) -> list[Sent]:
        """Every message posted where more than one member can read it (channels and threads), from the
        ``since``-th message the bot sent on, and every edit of one made since then, as it read."""
        posted = self.sent[since:] + [s for at, s in self.edits if at >= since]
        return [s for s in posted if not s.ephemeral and self.channels.get(s.channel, {}).get("type") != 1]


async def _body(request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
    if request.content_type.startswith("multipart/"):
        files: list[tuple[str, bytes]] = []
        body: Any = {}
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                files.append((part.filename or part.name or "", await part.read(decode=False)))
        return body, files
    if request.can_read_body:
        text = await request.text()
        return (json.loads(text) if text else None), []
    return None, []


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly application/json: discord.py does not parse a JSON body sent with "; charset=utf-8".
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json",
                        headers=headers)
