"""Level B: real ``discord.Interaction`` objects through the real CommandTree, with nothing sent anywhere.

discord.py's private seams are used here and only here (pinned to discord.py 2.7.1):
``ConnectionState.parse_interaction_create`` to dispatch a payload, the webhook
adapter context variable for interaction responses, and ``HTTPClient.request``
for channel and DM traffic. Every request is recorded.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.core import Core
from bot.discord.client import HexhiveClient
from tests.fakediscord import payloads as P


@dataclass
class Call:
    """One request that would have gone to Discord."""

    method: str
    path: str
    payload: Any
    files: list[str]
    at: float = 0.0
    """``time.perf_counter()`` when it was made."""


def _payload(payload: Any, multipart: Any, form: Any) -> Any:
    for part in multipart or form or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return payload


class Recorder(AsyncWebhookAdapter):
    """Records interaction responses and follow-ups, and channel traffic, answering like Discord would."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[Call] = []

    def _record(self, method: str, path: str, payload: Any, files: Any) -> Call:
        call = Call(method, path, payload, [f.filename for f in files or []], time.perf_counter())
        self.calls.append(call)
        return call

    async def request(self, route, session, *, payload=None, multipart=None, files=None, params=None,  # noqa: ANN001
                      **kwargs: Any) -> Any:
        call = self._record(route.method, route.path.format_map(_Keys(route)), _payload(payload, multipart, None),
                            files)
        if route.path.endswith("/callback"):
            kind = call.payload.get("type")
            return {"interaction": {"id": "1", "type": 2, "response_message_loading": kind == 5},
                    "resource": {"type": kind}}
        return P.message(P.snowflake(), P.CHANNEL_ID, P.user(P.APP_ID, "hexhive", bot=True),
                         (call.payload or {}).get("content", ""), flags=64)

    async def http(self, route, *, files=None, form=None, **kwargs: Any) -> Any:  # noqa: ANN001
        call = self._record(route.method, route.path.format_map(_Keys(route)),
                            _payload(kwargs.get("json"), None, form), files)
        if route.path == "/users/@me/channels":
            return P.dm_channel(P.snowflake(), P.user(int(call.payload["recipient_id"]), "someone"))
        if route.path == "/channels/{channel_id}" and route.method == "GET":
            return P.text_channel()
        if route.path.endswith("/threads"):
            return P.thread(P.snowflake(), P.CHANNEL_ID, call.payload.get("name", "game"))
        return P.message(P.snowflake(), int(route.channel_id or P.CHANNEL_ID),
                         P.user(P.APP_ID, "hexhive", bot=True), (call.payload or {}).get("content", ""))

    def callbacks(self) -> list[Call]:
        return [c for c in self.calls if c.path.endswith("/callback")]

    def posts(self) -> list[Call]:
        """Messages posted in channels and DMs (not interaction answers)."""
        return [c for c in self.calls if c.method == "POST" and c.path.endswith("/messages")]

    def private(self) -> list[str]:
        """Texts of the ephemeral answers."""
        out = []
        for c in self.calls:
            if c.path.endswith("/callback") and c.payload.get("type") == 5:
                continue
            data = (c.payload or {}).get("data", c.payload) if c.path.endswith("/callback") else c.payload
            if c.path.startswith(("/interactions", "/webhooks")) and data and data.get("flags", 0) & 64:
                out.append(data.get("content") or "")
        return out


class _Keys(dict):
    def __init__(self, route: Any) -> None:
        super().__init__()
        self.route = route

    def __missing__(self, key: str) -> str:
        return str(getattr(self.route, key, None) or "{" + key + "}")


class Contract:
    """A client that is never logged in; payloads are dispatched as the gateway would."""

    def __init__(self, core: Core, **kwargs: Any) -> None:
        self.client = HexhiveClient(core, **kwargs)
        state = self.client._connection
        state.application_id = P.APP_ID
        state.user = discord.ClientUser(state=state, data=P.user(P.APP_ID, "hexhive", bot=True))
        self.recorder = Recorder()
        self.client.http.request = self.recorder.http  # type: ignore[method-assign]
        self._token = async_context.set(self.recorder)

    async def setup(self) -> None:
        await self.client._async_setup_hook()
        await self.client.core.start()
        self.client.add_dynamic_items(*_dynamic_items())

    async def dispatch(self, payload: dict[str, Any]) -> list[Call]:
        """Feed one interaction payload; wait until it is answered and the bot is idle."""
        before = len(self.recorder.calls)
        self.client._connection.parse_interaction_create(payload)
        for _ in range(200):
            await asyncio.sleep(0.005)
            answered = any(c.path.startswith(f"/interactions/{payload['id']}") for c in self.recorder.calls)
            if answered and self.client.hive._idle.is_set():
                break
        return self.recorder.calls[before:]

    def close(self) -> None:
        async_context.reset(self._token)


def _dynamic_items() -> tuple:
    from bot.discord.buttons import ChoiceButton, PanelButton

    return ChoiceButton, PanelButton
