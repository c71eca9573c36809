"""Level B: the real command tree and real interactions; what would go to Discord is recorded and checked."""

from __future__ import annotations

import re

import pytest

from bot.discord.components import choice_id
from bot.ratelimit import RateLimiter
from tests.discord.contract import Contract
from tests.fakediscord import payloads as P

ALICE = P.member(101, "alice")
BOB = P.member(102, "bob")
CHANNEL = P.text_channel()


@pytest.fixture
async def contract(core):
    c = Contract(core, limiter=RateLimiter(burst=1000))
    await c.setup()
    yield c
    c.close()


def new_game(options: str = "") -> dict:
    opts = {"game": "toy", "opponent": ("user", 102)} | ({"options": options} if options else {})
    return P.slash(ALICE, CHANNEL, "game", opts, sub="new", users={"102": BOB})


async def test_a_command_is_deferred_privately_then_posted_with_safe_mentions(contract):
    calls = await contract.dispatch(new_game())
    first = calls[0]
    assert first.path.endswith("/callback") and first.payload["type"] == 5
    assert first.payload["data"]["flags"] & 64
    thread = next(c for c in calls if c.path.endswith("/threads"))
    assert thread.payload["type"] == 11 and "Toy" in thread.payload["name"]
    invite = next(c for c in contract.recorder.posts() if "challenges you" in c.payload["content"])
    assert invite.payload["allowed_mentions"] == {"parse": [], "users": [102]}
    buttons = [b for row in invite.payload["components"] for b in row["components"]]
    assert [b["label"] for b in buttons] == ["Accept", "Decline"]
    assert all(re.fullmatch(r"hh:1:t[0-9a-f]{10}:\d+:[0-9a-f]{6}", b["custom_id"]) for b in buttons), buttons
    [done] = contract.recorder.private()
    assert done.startswith("Done: see <#") and thread.payload["name"]


async def test_autocomplete_answers_through_the_tree(contract, core):
    await contract.dispatch(new_game())
    gid = next(iter(core.live))
    thread = core.live[gid].row.place
    await core.handle_line("102", thread, "/game accept")
    payload = P.slash(ALICE, P.thread(int(thread), P.CHANNEL_ID, "t"), "guess", {"parity": "o"}, focused="parity")
    calls = await contract.dispatch(payload)
    [cb] = [c for c in calls if c.path.endswith("/callback")]
    assert cb.payload["type"] == 8
    assert cb.payload["data"]["choices"] == [{"name": "odd", "value": "odd"}]


async def test_a_stale_button_is_refused_privately(contract, core):
    await contract.dispatch(new_game())
    gid = next(iter(core.live))
    thread = P.thread(int(core.live[gid].row.place), P.CHANNEL_ID, "t")
    msg = P.message(P.snowflake(), int(thread["id"]), P.user(P.APP_ID, "hexhive", bot=True), "old",
                    components=[{"type": 1, "components": [
                        {"type": 2, "style": 1, "label": "odd",
                         "custom_id": choice_id(gid, 5, 0, f"/guess parity:odd game:{gid}")}]}])
    calls = await contract.dispatch(P.click(ALICE, thread, msg, P.buttons_of(msg)[0]["custom_id"]))
    assert any("out of date" in t for t in contract.recorder.private())
    assert not [c for c in calls if c.path.endswith("/messages")]


async def test_bad_options_reach_the_error_handler_as_a_private_reply(contract, core):
    await contract.dispatch(new_game("pile5"))
    assert contract.recorder.private() == [
        "Sorry, options are written name:value, for example combat:dice (not 'pile5'); "
        "/game options game:NAME lists a game's options."]
    assert await core.store.games() == []


async def test_the_tree_stops_a_member_going_too_fast(core):
    c = Contract(core, limiter=RateLimiter(burst=1, rate=0.0001))
    await c.setup()
    try:
        await c.dispatch(new_game())
        calls = await c.dispatch(new_game())
        assert any("faster" in t for t in c.recorder.private())
        assert not any(x.path.endswith("/threads") for x in calls)
        assert len(await core.store.games()) == 1
    finally:
        c.close()


async def test_what_a_member_typed_never_pings(contract, core):
    await contract.dispatch(new_game())
    gid = next(iter(core.live))
    thread = P.thread(int(core.live[gid].row.place), P.CHANNEL_ID, "t")
    await core.handle_line("102", thread["id"], "/game accept")
    mo = P.member(104, "mo", P.MEMBER_PERMS | P.MANAGE_GUILD)
    before = len(contract.recorder.posts())
    await contract.dispatch(P.slash(mo, thread, "mod", {"reason": "@everyone @here <@&7000> <@103>"}, sub="pause"))
    [post] = [c for c in contract.recorder.posts()[before:] if "Moderation" in c.payload["content"]]
    assert "@everyone" in post.payload["content"]
    assert post.payload["allowed_mentions"] == {"parse": [], "users": []}


async def test_resolve_dice_takes_the_resolvers_own_options(contract, core):
    payload = P.slash(ALICE, CHANNEL, "resolve", {"opponent": ("user", 102), "attack": "4,4", "defence": "3,3"},
                      sub="dice", users={"102": BOB})
    await contract.dispatch(payload)
    [row] = await core.store.games()
    assert row.game == "dice" and row.status == "invited"
    assert '"attack":"4,4"' in row.config.replace(" ", "")
