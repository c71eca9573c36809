"""Level A with the real core: delivery, autocomplete, buttons, rate limits and errors on mocked Discord."""

from __future__ import annotations

from unittest.mock import AsyncMock, MagicMock

import aiohttp
import discord
import pytest
from discord import app_commands

from bot.discord import autocomplete as ac
from bot.discord.buttons import ChoiceButton, PanelButton
from bot.discord.components import choice_id, digest, shown_token
from bot.discord.delivery import chunks
from bot.discord.errors import explain, on_app_command_error
from bot.discord.hive import Hive
from bot.ratelimit import RateLimiter
from bot.replies import Button, Reply
from engine.core.errors import IllegalAction
from tests.discord.mocks import mock_client, mock_interaction, said
from tests.fakediscord.payloads import GUILD_ID as P_GUILD_ID

THREAD = 2000
GUILD_ID = P_GUILD_ID


async def png(core, gid, viewer):  # noqa: ANN001, ANN201
    return b"\x89PNG fake " + str(viewer).encode()


@pytest.fixture
def hive(core):
    return Hive(mock_client(), core, limiter=RateLimiter(burst=1000), render=png)


async def started(hive: Hive) -> int:
    """A toy game in the take phase, created through the hive; returns its id."""
    core = hive.core
    await hive.run(mock_interaction(hive), "game new", {"game": "toy", "opponent": "102"})
    gid = next(iter(core.live))
    await hive.run(mock_interaction(hive, user=102, name="bob"), "game accept", {"game": str(gid)})
    return gid


def sends(hive: Hive, channel: int = THREAD) -> list[dict]:
    ch = hive.client.channels.get(channel)
    return [c.kwargs for c in ch.send.call_args_list] if ch else []


async def test_a_new_game_is_posted_with_only_the_opponent_pinged(hive):
    i = mock_interaction(hive)
    await hive.run(i, "game new", {"game": "toy", "opponent": "102"})
    i.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    invite = next(k for k in sends(hive) if "challenges you" in k["content"])
    allowed = invite["allowed_mentions"]
    assert [u.id for u in allowed.users] == [102] and not allowed.everyone and not allowed.roles
    assert [b.label for b in invite["view"].children] == ["Accept", "Decline"]
    assert said(i) == ["Done."]  # posted where the command was given


async def test_private_replies_are_ephemeral_followups(hive):
    await started(hive)
    i = mock_interaction(hive, user=103, name="carol")
    await hive.run(i, "game status", {})
    call = i.followup.send.call_args
    assert call.kwargs["ephemeral"] is True and "Game #1" in call.kwargs["content"]


async def test_boards_are_attached_as_png(hive):
    gid = await started(hive)
    board = next(k for k in sends(hive) if k.get("files"))
    assert board["files"][0].filename == f"game-{gid}-board.png"
    i = mock_interaction(hive)
    await hive.run(i, "game board", {})
    f = i.followup.send.call_args.kwargs["files"][0]
    assert f.fp.read().startswith(b"\x89PNG fake A")


async def test_a_refused_dm_of_a_private_choice_becomes_a_button_in_the_thread(core):
    client = mock_client()

    async def closed(user):  # noqa: ANN001, ANN202
        dm = MagicMock(spec=discord.DMChannel)
        resp = MagicMock(status=403, reason="Forbidden")
        dm.send = AsyncMock(side_effect=discord.Forbidden(resp, {"code": 50007, "message": "closed"}))
        return dm

    client.create_dm.side_effect = closed
    hive = Hive(client, core, limiter=RateLimiter(burst=1000), render=png)
    await started(hive)
    panels = [k for k in sends(hive) if k.get("view") and k["view"].children[0].label == "Choose privately"]
    assert len(panels) == 2
    assert {p["view"].children[0].custom_id for p in panels} == {"hh:1:p:101", "hh:1:p:102"}
    assert all("odd" not in p["content"] for p in panels)
    assert not await core.store.unposted()


def test_long_texts_are_cut_at_line_ends():
    text = "\n".join(f"line {n:04d}" for n in range(600))
    parts = chunks(text)
    assert all(len(p) <= 2000 for p in parts) and "\n".join(parts) == text


async def test_order_autocomplete_offers_legal_values_filtered(hive):
    gid = await started(hive)
    complete = ac.order_autocomplete("guess", "parity")
    i = mock_interaction(hive, channel=THREAD)
    assert [c.value for c in await complete(i, "")] == ["even", "odd"]
    assert [c.value for c in await complete(i, "o")] == ["odd"]
    spectator = mock_interaction(hive, user=103, channel=THREAD)
    assert await complete(spectator, "") == []
    assert gid == 1


async def test_autocomplete_cuts_to_25_choices_of_100_characters():
    vals = [f"{n:03d}" + "x" * 200 for n in range(40)]
    out = ac.as_choices(vals, "0")
    assert len(out) == 25 and all(len(c.name) <= 100 and len(c.value) <= 100 for c in out)


async def test_game_scenario_and_seat_autocomplete(hive):
    i = mock_interaction(hive, namespace={"game": "toy"})
    assert "toy" in [c.value for c in await ac.game_names(i, "to")]
    assert [c.value for c in await ac.scenarios(i, "")] == ["standard", "short"]
    assert [c.value for c in await ac.seats(i, "")] == ["A", "B"]
    await started(hive)
    assert [c.value for c in await ac.game_ids(mock_interaction(hive, user=102, channel=5), "")] == ["1"]


async def click_choice(hive: Hive, user: int, custom_id: str) -> MagicMock:
    import re

    from bot.discord.components import CHOICE_TEMPLATE

    m = re.fullmatch(CHOICE_TEMPLATE, custom_id)
    assert m is not None
    item = ChoiceButton(int(m["game"]), m["seq"], int(m["n"]), m["h"])
    i = mock_interaction(hive, user=user)
    await item.callback(i)
    return i


async def test_a_choice_button_runs_its_command_for_the_awaited_player(hive):
    gid = await started(hive)
    g = hive.core.live[gid]
    line = f"/guess parity:odd game:{gid}"
    i = await click_choice(hive, 101, choice_id(gid, g.seq, 0, line))
    assert any("sealed" in s for s in said(i))
    assert hive.core.live[gid].seq == 1


async def test_a_stale_or_foreign_choice_is_refused_politely(hive):
    gid = await started(hive)
    take_line = f"/take n:1 game:{gid}"
    i = await click_choice(hive, 101, choice_id(gid, 7, 0, take_line))
    assert "out of date" in said(i)[0]
    i = await click_choice(hive, 103, choice_id(gid, 0, 0, f"/guess parity:odd game:{gid}"))
    assert "not you" in said(i)[0]
    assert hive.core.live[gid].seq == 0


async def test_another_players_sealed_choice_does_not_make_a_button_stale(hive):
    gid = await started(hive)
    await click_choice(hive, 101, choice_id(gid, 0, 0, f"/guess parity:odd game:{gid}"))
    i = await click_choice(hive, 102, choice_id(gid, 0, 1, f"/guess parity:even game:{gid}"))
    assert any("sealed" in s for s in said(i))
    again = await click_choice(hive, 101, choice_id(gid, 0, 0, f"/guess parity:odd game:{gid}"))
    assert "out of date" in said(again)[0]


async def test_a_buttons_id_does_not_tell_how_many_sealed_steps_the_other_side_took(hive):
    """A button's id carried the action number it was posted at, readable with any client's developer
    tools: bob's buttons went from hh:1:1 to hh:1:5 while alice made three sealed picks, which the log
    keeps secret. The id now names that action by a keyed token; the button still outlives the other
    side's sealed choices and goes stale with a public action or the clicker's own."""
    import re

    gid = await started(hive)
    core = hive.core
    tokens = {await shown_token(core, gid, seq) for seq in range(6)}
    assert len(tokens) == 6 and all(re.fullmatch(r"t[0-9a-f]{10}", t) for t in tokens)
    assert await shown_token(core, gid, 0) != await shown_token(core, gid + 1, 0)
    t0 = await shown_token(core, gid, 0)
    i = mock_interaction(hive, user=101)
    await PanelButton(gid, "101").callback(i)
    assert {b.custom_id.split(":")[2] for b in i.response.send_message.call_args.kwargs["view"].children} == {t0}
    await click_choice(hive, 101, choice_id(gid, t0, 0, f"/guess parity:odd game:{gid}"))
    i = await click_choice(hive, 102, choice_id(gid, t0, 1, f"/guess parity:even game:{gid}"))
    assert any("sealed" in s for s in said(i)), said(i)
    again = await click_choice(hive, 101, choice_id(gid, t0, 0, f"/guess parity:odd game:{gid}"))
    assert "out of date" in said(again)[0]
    forged = await click_choice(hive, 101, choice_id(gid, "t" + "0" * 10, 0, f"/guess parity:odd game:{gid}"))
    assert "out of date" in said(forged)[0]


async def test_a_button_of_a_line_a_rollback_left_is_not_taken_for_the_new_line(hive):
    """Rolled back to the start, the game is at action 0 again: a button posted at action 0 of the old
    line named the same action as one of the new line, and was taken."""
    gid = await started(hive)
    old = await shown_token(hive.core, gid, 0)
    await click_choice(hive, 101, choice_id(gid, old, 0, f"/guess parity:odd game:{gid}"))
    await click_choice(hive, 102, choice_id(gid, old, 1, f"/guess parity:even game:{gid}"))
    i = mock_interaction(hive, user=101, name="mo")
    i.permissions.manage_guild = True
    await hive.run(i, "mod rollback", {"to": "0", "game": str(gid), "confirm": "yes", "reason": "x"})
    assert hive.core.live[gid].row.branch == 2, said(i)
    assert await shown_token(hive.core, gid, 0) != old
    stale = await click_choice(hive, 101, choice_id(gid, old, 0, f"/guess parity:odd game:{gid}"))
    assert "out of date" in said(stale)[0]


async def test_choose_privately_opens_the_panel_only_for_its_player(hive):
    gid = await started(hive)
    i = mock_interaction(hive, user=102)
    await PanelButton(gid, "101").callback(i)
    assert "only" in said(i)[0]
    i = mock_interaction(hive, user=101)
    await PanelButton(gid, "101").callback(i)
    call = i.response.send_message.call_args
    assert call.kwargs["ephemeral"] is True and "private choice" in call.kwargs["content"]
    ids = [b.custom_id for b in call.kwargs["view"].children]
    assert ids[0].endswith(digest(f"/guess parity:odd game:{gid}"))


async def test_going_too_fast_gets_a_notice_and_nothing_else(core):
    hive = Hive(mock_client(), core, limiter=RateLimiter(burst=1, rate=0.001, clock=lambda: 0.0), render=png)
    assert not await hive.too_fast(mock_interaction(hive))
    i = mock_interaction(hive)
    assert await hive.too_fast(i)
    assert "faster" in said(i)[0]
    item = PanelButton(1, "101")
    i = mock_interaction(hive)
    await item.callback(i)
    assert "faster" in said(i)[0]


def test_errors_are_explained_privately():
    text, eid = explain(app_commands.CommandInvokeError(MagicMock(), IllegalAction("no stones left", rule="T.2")))
    assert text == "Sorry, no stones left (rule T.2)." and eid is None
    text, eid = explain(app_commands.CheckFailure())
    assert "permission" in text and eid is None
    text, eid = explain(RuntimeError("boom"))
    assert eid is not None and eid in text and "boom" not in text


async def test_the_tree_error_handler_answers_and_logs(caplog):
    i = mock_interaction(None)
    await on_app_command_error(i, app_commands.CommandInvokeError(MagicMock(), KeyError("x")))
    assert "error id" in said(i)[0]
    assert any("error" in r.message and r.exc_info for r in caplog.records)


async def test_delivery_marks_only_what_it_posted(hive):
    await hive.run(mock_interaction(hive), "game new", {"game": "toy", "opponent": "102"})
    assert not await hive.core.store.unposted()
    failing = hive.client.get_partial_messageable(THREAD)
    failing.send.side_effect = discord.HTTPException(MagicMock(status=500, reason="x"), "down")
    r = Reply(to="channel", place=str(THREAD), text="hello", game_id=1, buttons=[Button(label="b", command="/x")])
    other = Reply(to="channel", place="3000", text="elsewhere", game_id=1)
    async with hive.core.store.transaction():
        [r, other] = await hive.core.queue(1, [r, other])
    await hive.delivery.deliver([r, other])
    assert [oid for oid, _, _ in await hive.core.store.unposted()] == [r.outbox_id]
    assert hive.delivery.pending() == [r]


@pytest.mark.parametrize("failures", [1, 2])
async def test_a_private_answer_discord_did_not_take_is_never_acknowledged_as_done(hive, failures):
    """A stranger's order is refused privately; Discord answered that follow-up with a 503, the refusal
    was dropped and the member read "Done.", as if the order had been taken. It is sent once more; if
    that fails too, the member is told the answer was lost, never "Done."."""
    gid = await started(hive)
    i = mock_interaction(hive, user=103, name="mallory")
    i.response.is_done.side_effect = lambda: True
    tried: list[str] = []

    async def flaky(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        tried.append(kwargs.get("content"))
        if len(tried) <= failures:
            raise discord.DiscordServerError(MagicMock(status=503, reason="x"), "down")

    i.followup.send.side_effect = flaky
    await hive.run(i, "take", {"n": "1", "game": str(gid)})
    assert "Done." not in tried, tried
    assert tried[:failures] == [tried[0]] * failures and "not playing" in tried[0], tried
    if failures == 1:
        assert len(tried) == 2, tried
    else:
        assert len(tried) == 3 and "did not take my answer" in tried[-1], tried


async def test_a_long_private_answer_is_sent_again_from_the_part_that_failed(hive):
    """An answer longer than a message goes in parts; when the second part met a 503, the second try
    sent every part again, so the first arrived twice."""
    await started(hive)
    i = mock_interaction(hive)
    i.response.is_done.side_effect = lambda: True
    tried: list[str] = []

    async def flaky(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        tried.append(kwargs.get("content"))
        if len(tried) == 2:
            raise discord.DiscordServerError(MagicMock(status=503, reason="x"), "down")

    i.followup.send.side_effect = flaky
    text = "\n".join(f"line {n} " + "x" * 90 for n in range(45))  # some 4,300 characters: three parts
    await hive.delivery.deliver([Reply(to="private", user="101", place=str(THREAD), text=text)], i)
    parts = [t for t in tried if t and t.startswith("line")]
    assert len(parts) == 4 and parts[1] == parts[2] and parts[0] != parts[1], [p[:12] for p in parts]
    assert "".join(dict.fromkeys(parts)).replace("\n", "") == text.replace("\n", "")


def down_twice(i: MagicMock) -> list[str]:
    """Discord answers the interaction's first two follow-ups with a 503; returns what was tried."""
    i.response.is_done.side_effect = lambda: True
    tried: list[str] = []

    async def down(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        tried.append(kwargs.get("content"))
        if len(tried) <= 2:
            raise discord.DiscordServerError(MagicMock(status=503, reason="x"), "down")

    i.followup.send.side_effect = down
    return tried


async def test_a_taken_orders_lost_answer_does_not_ask_to_give_it_again(hive):
    """The private answer to an order that was taken and saved could not be sent twice: the member was
    told to "try again", which gives an order such as a Chitin pick twice."""
    gid = await started(hive)
    i = mock_interaction(hive, user=101)
    tried = down_twice(i)
    await hive.run(i, "guess", {"parity": "odd", "game": str(gid)})
    assert hive.core.live[gid].seq == 1
    assert "taken and saved" in tried[-1] and "ask again" not in tried[-1] and "Done." not in tried, tried


async def test_a_saved_order_whose_only_answer_is_private_is_not_asked_again(hive):
    """A saved order may say nothing but its private answer (no post of it is in the outbox): when that
    answer is lost, the member must still hear that the order was taken, not to ask again."""
    await started(hive)
    i = mock_interaction(hive)
    tried = down_twice(i)
    saved = Reply(to="private", user="101", place=str(THREAD), text="Your choice is sealed", committed=True)
    await hive.delivery.deliver([saved], i)
    assert "taken and saved" in tried[-1] and "ask again" not in tried[-1], tried


@pytest.mark.parametrize("error", [
    discord.DiscordServerError(MagicMock(status=503, reason="x"), "down"),
    aiohttp.ServerDisconnectedError(), aiohttp.ClientOSError(104, "reset"), TimeoutError(), OSError("gone"),
    RuntimeError("anything at all"),
], ids=lambda e: type(e).__name__)
async def test_every_kind_of_failure_is_queued_and_reposted_once_in_order(hive, error):
    await started(hive)
    thread = hive.client.get_partial_messageable(THREAD)
    thread.send.reset_mock()
    sent = thread.send.side_effect
    thread.send.side_effect = [error]
    replies = [Reply(to="channel", place=str(THREAD), text=f"post {n}", game_id=1) for n in range(3)]
    async with hive.core.store.transaction():
        replies = await hive.core.queue(1, replies)
    i = mock_interaction(hive)
    i.response.is_done.side_effect = lambda: True
    await hive.delivery.deliver(replies, i)
    # The first failed: it and the two after it (same thread, order kept) wait; nothing is marked.
    assert [c.kwargs["content"] for c in thread.send.call_args_list] == ["post 0"]
    assert hive.delivery.pending() == replies
    assert "will follow" in said(i)[-1] and "Nothing was changed" not in said(i)[-1]
    thread.send.side_effect = sent
    assert await hive.delivery.retry_pending(force=True) == 3
    posts = [c.kwargs["content"] for c in thread.send.call_args_list if c.kwargs["content"].startswith("post")]
    assert posts == ["post 0", "post 0", "post 1", "post 2"]
    assert not await hive.core.store.unposted() and hive.delivery.pending() == []


async def test_a_repost_waits_its_backoff_and_the_waits_grow(hive):
    hive.delivery.retry_first = 10.0
    thread = hive.client.get_partial_messageable(THREAD)
    thread.send.side_effect = TimeoutError()
    r = Reply(to="channel", place=str(THREAD), text="late", game_id=1)
    async with hive.core.store.transaction():
        [r] = await hive.core.queue(1, [r])
    await hive.delivery.deliver([r])
    assert await hive.delivery.retry_pending() == 0 and thread.send.await_count == 1  # not yet due
    first = hive.delivery._due[r.outbox_id]
    await hive.delivery.retry_pending(force=True)
    assert thread.send.await_count == 2 and hive.delivery._due[r.outbox_id] - first > 10.0


async def test_a_reply_nobody_posts_is_found_by_two_sweeps(hive):
    r = Reply(to="channel", place=str(THREAD), text="orphan", game_id=1)
    async with hive.core.store.transaction():
        [r] = await hive.core.queue(1, [r])
    assert await hive.delivery.sweep() == 0  # it may be on its way: only a second sweep adopts it
    assert await hive.delivery.sweep() == 1
    assert await hive.delivery.retry_pending() == 1
    assert not await hive.core.store.unposted()


async def test_a_sweep_never_sends_hexhive_a_direct_message_of_its_own(hive):
    """What a command said to the bot opponent (its user is hexhive's own) and left unposted was found by
    the sweep and sent as a DM to hexhive's own account; it is marked delivered instead, not sent."""
    hive.core.opponent.user_id = "900"
    mine = Reply(to="dm", place=str(THREAD), user="900", text="you guessed odd", game_id=1)
    theirs = Reply(to="channel", place=str(THREAD), text="B has chosen", game_id=1)
    async with hive.core.store.transaction():
        [mine, theirs] = await hive.core.queue(1, [mine, theirs])
    assert await hive.delivery.sweep() == 0
    assert await hive.delivery.sweep() == 1
    assert await hive.delivery.retry_pending() == 1
    assert not await hive.core.store.unposted()
    assert hive.client.create_dm.await_count == 0
    assert [c["content"] for c in sends(hive)] == ["B has chosen"]


async def test_a_thread_the_bot_may_not_post_in_is_explained_to_the_member(hive):
    thread = hive.client.get_partial_messageable(THREAD)
    thread.send.side_effect = discord.Forbidden(MagicMock(status=403, reason="x"), {"code": 50013, "message": "no"})
    i = mock_interaction(hive)
    await hive.run(i, "game new", {"game": "toy", "opponent": "102"})
    assert "permissions" in said(i)[-1]
    assert not await hive.core.store.unposted()


async def test_game_options_are_completed_by_name(hive):
    i = mock_interaction(hive, namespace={"game": "toy"})
    assert [c.value for c in await ac.option_words(i, "p")] == ["pile:"]
    assert [c.value for c in await ac.option_words(i, "pile:5")] == ["pile:5"]
    assert await ac.option_words(mock_interaction(hive, namespace={"game": "nosuch"}), "p") == []


async def test_a_clock_tick_redraws_the_status_of_a_paused_game(core):
    from bot.clocks import ClockKeeper

    keeper = ClockKeeper(core)
    hive = Hive(mock_client(), core, limiter=RateLimiter(burst=1000), render=png, keeper=keeper)
    gid = await started(hive)
    await core.handle_line("104", str(THREAD), "/mod pause", is_moderator=True, community="guild:" + str(GUILD_ID))
    before = await core.store.place_settings(f"discord:status:{gid}")
    assert "stopped" not in before["text"]
    await hive.tick()
    record = await core.store.place_settings(f"discord:status:{gid}")
    assert "Paused" in record["text"] and "stopped while the game is paused" in record["text"]
    edits = hive.client.get_partial_messageable(THREAD).get_partial_message.return_value.edit
    assert "stopped while the game is paused" in edits.call_args.kwargs["content"]


async def test_long_private_answers_come_in_several_messages(hive):
    i = mock_interaction(hive)
    await hive.delivery.respond(i, content="\n".join("x" * 99 for _ in range(50)))
    assert len(said(i)) == 3 and all(len(t) <= 2000 for t in said(i))


async def test_clock_choices_keep_what_was_typed():
    assert [c.value for c in await ac.clocks(None, "")] == list(ac.CLOCKS)
    assert [c.value for c in await ac.clocks(None, "36h")] == ["36h"]
    assert [c.value for c in await ac.clocks(None, "7")] == ["7", "72h", "7d"]


async def test_game_replay_posts_an_animated_gif_in_the_thread(hive):
    gid = await started(hive)
    i = mock_interaction(hive)
    await hive.run(i, "game replay", {"game": str(gid)})
    post = next(k for k in sends(hive) if k.get("files") and k["files"][0].filename.endswith("replay.gif"))
    assert post["files"][0].filename == f"game-{gid}-replay.gif"
    assert post["files"][0].fp.read().startswith(b"GIF8")
