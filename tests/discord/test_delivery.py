"""Delivery on a bad day on Discord: failures of every kind, re-posted without a restart, nothing twice,
and honest words to the member once a command has committed."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot.commands import make_core
from tests.discord.actors import BOB, Table, ephemeral, texts
from tests.discord.conftest import start_bot
from tests.fakediscord import payloads as P

BEGINS = "Game #1 begins"


async def invite(t: Table) -> dict:
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB)}, sub="new")
    return next(s for s in sent if "challenges you" in s.content).data


async def settled(fake, core, timeout: float = 10.0) -> None:
    """Wait until the store has nothing left to post (the retry task caught up)."""
    for _ in range(int(timeout / 0.02)):
        if not await core.store.unposted():
            for _ in range(5):
                await asyncio.sleep(0)
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"still unposted: {await core.store.unposted()}")


def posted_texts(fake) -> Counter:
    """How often each message text was posted in channels and DMs (ephemeral answers left out)."""
    return Counter((s.channel, s.content) for s in fake.sent if not s.ephemeral)


@pytest.fixture
async def quick(fake, store):
    """A bot whose retry task re-posts after 20 ms instead of seconds."""
    core = make_core(store, new_seed=lambda: "seed-f")
    running = await start_bot(fake, core)
    running.client.hive.delivery.retry_first = 0.02
    yield running
    await running.stop()


async def test_a_503_on_the_game_begins_post_is_reposted_without_a_restart_and_nothing_twice(fake, quick):
    t = Table(fake, quick.client)
    core = quick.client.core
    msg = await invite(t)
    fake.fail(status=503, containing=BEGINS)
    sent = await t.click("bob", msg, "Accept")
    answer = texts(ephemeral(sent))
    assert "taken and saved" in answer and "will follow" in answer and "Nothing was changed" not in answer
    await settled(fake, core)
    counts = posted_texts(fake)
    assert [n for (_, text), n in counts.items() if BEGINS in text] == [1]
    assert all(n == 1 for n in counts.values()), counts
    # The thread keeps its order: the board of turn 1 came after the (re-posted) announcement.
    thread = [s.content for s in t.in_channel(msg["channel_id"])]
    begins = next(i for i, c in enumerate(thread) if BEGINS in c)
    assert begins < next(i for i, c in enumerate(thread) if c.startswith("Game #1: turn 1"))
    assert quick.client.hive.delivery.pending() == []


async def test_several_5xx_in_a_row_back_off_and_then_post_once(fake, quick):
    t = Table(fake, quick.client)
    msg = await invite(t)
    fault = fake.fail(status=503, times=3, containing=BEGINS)  # discord.py itself retries 500, 502 and 504
    await t.click("bob", msg, "Accept")
    await settled(fake, quick.client.core)
    assert fault.hits == 3
    assert [n for (_, text), n in posted_texts(fake).items() if BEGINS in text] == [1]


@pytest.mark.parametrize("when", ["before", "after"])
async def test_a_dropped_connection_mid_batch_posts_nothing_twice(fake, quick, when):
    """``after``: Discord made the message but its answer was lost; the re-post carries the same nonce,
    so Discord hands back the first message instead of making a second."""
    t = Table(fake, quick.client)
    msg = await invite(t)
    fake.drop(when=when, containing="turn 1, guess")  # the second post of four in the batch
    sent = await t.click("bob", msg, "Accept")
    assert "Nothing was changed" not in texts(ephemeral(sent))
    await settled(fake, quick.client.core)
    counts = posted_texts(fake)
    assert all(n == 1 for n in counts.values()), counts
    assert sum(1 for _, text in counts if "your private choice" in text) == 2
    assert any("turn 1, guess" in text for _, text in counts)


async def test_a_429_with_retry_after_is_waited_out_and_posted_once(fake, quick):
    t = Table(fake, quick.client)
    msg = await invite(t)
    fault = fake.rate_limit(retry_after=0.05, containing=BEGINS)
    sent = await t.click("bob", msg, "Accept")
    assert fault.hits == 1
    assert "will follow" not in texts(ephemeral(sent))
    assert [n for (_, text), n in posted_texts(fake).items() if BEGINS in text] == [1]


async def test_a_failure_after_the_commit_is_never_called_nothing_changed(fake, quick, monkeypatch):
    t = Table(fake, quick.client)
    msg = await invite(t)
    hive = quick.client.hive

    async def broken(replies):  # noqa: ANN001, ANN202
        raise RuntimeError("clock store unavailable")

    monkeypatch.setattr(hive, "clocks_for", broken)
    sent = await t.click("bob", msg, "Accept")
    answer = texts(ephemeral(sent))
    assert "taken and saved" in answer and "error id" in answer and "Nothing was changed" not in answer
    assert quick.client.core.live[1].state is not None  # the game did begin
    await settled(fake, quick.client.core)
    assert [n for (_, text), n in posted_texts(fake).items() if BEGINS in text] == [1]


async def test_a_board_refused_for_lack_of_attach_files_is_posted_without_it_and_moderators_told_once(
        fake, quick):
    t = Table(fake, quick.client)
    core = quick.client.core
    alerts = P.text_channel(2100, name="mod-alerts")
    fake.channels["2100"] = alerts
    async with core.store.transaction():
        await core.store.set_place_settings(f"guild:{P.GUILD_ID}", {"alerts_channel": "2100"})
    fake.refuse_files()
    msg = await invite(t)
    await t.click("bob", msg, "Accept")
    thread = msg["channel_id"]
    board = [s for s in t.in_channel(thread) if s.content.startswith("Game #1: turn 1, guess")]
    assert len(board) == 1 and board[0].files == [], [s.content for s in board]
    assert "could not be attached" in board[0].content and "Attach Files" in board[0].content
    assert "moderators" in board[0].content
    told = [s for s in fake.sent if s.channel == "2100"]
    assert len(told) == 1 and "Attach Files" in told[0].content
    await t.slash("alice", thread, "guess", {"parity": "odd"})
    await t.slash("bob", thread, "guess", {"parity": "even"})
    later = [s for s in t.in_channel(thread) if "could not be attached" in s.content][1:]
    assert all("moderators" not in s.content for s in later)  # a later board (if any) does not ask again
    assert len([s for s in fake.sent if s.channel == "2100"]) == 1
    assert not await core.store.unposted()


async def test_the_status_message_is_recreated_when_deleted(fake, quick):
    t = Table(fake, quick.client)
    core = quick.client.core
    msg = await invite(t)
    await t.click("bob", msg, "Accept")
    rec = await core.store.place_settings("discord:status:1")
    fake.delete_message(rec["message"])
    await t.slash("alice", msg["channel_id"], "guess", {"parity": "odd"})
    new = await core.store.place_settings("discord:status:1")
    assert new["message"] != rec["message"] and new["message"] in fake.messages
    assert fake.messages[new["message"]]["content"] == new["text"]


@pytest.mark.parametrize("announce", [False, True], ids=["50083", "known archived"])
async def test_an_edit_in_an_archived_thread_unarchives_it_first(fake, quick, announce):
    t = Table(fake, quick.client)
    core = quick.client.core
    msg = await invite(t)
    await t.click("bob", msg, "Accept")
    thread = msg["channel_id"]
    rec = await core.store.place_settings("discord:status:1")
    async with core.store.transaction():
        await core.store.set_place_settings("discord:status:1", rec | {"text": "an older status"})
    # Unannounced, the bot's cache does not know: Discord answers the edit with 50083.
    await fake.archive(thread, announce=announce)
    for _ in range(20):
        await asyncio.sleep(0)
    before = len(fake.requests)
    await quick.client.hive.delivery.status(1)
    edits = [r for r in fake.requests[before:] if r.method == "PATCH"]
    assert (edits[0].path == f"/channels/{thread}") == announce  # known: unarchived before the first edit
    assert not fake.archived(thread)
    assert fake.messages[rec["message"]]["content"] == rec["text"]
    assert (await core.store.place_settings("discord:status:1"))["message"] == rec["message"]


async def test_too_many_threads_refuses_the_game_instead_of_playing_in_the_channel(fake, quick):
    t = Table(fake, quick.client)
    fake.thread_limit()
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB)}, sub="new")
    assert "too many active threads" in texts(ephemeral(sent))
    assert not [s for s in sent if not s.ephemeral]
    assert await quick.client.core.store.games() == []


@pytest.mark.parametrize("missing", [P.ATTACH_FILES, P.CREATE_PUBLIC_THREADS | P.EMBED_LINKS])
async def test_a_game_is_refused_in_one_line_naming_the_missing_permissions(fake, quick, missing):
    t = Table(fake, quick.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB)}, sub="new",
                         app_permissions=P.BOT_PERMS & ~missing)
    [answer] = ephemeral(sent)
    names = {P.ATTACH_FILES: "Attach Files", P.CREATE_PUBLIC_THREADS: "Create Public Threads",
             P.EMBED_LINKS: "Embed Links"}
    assert all(label in answer.content for bit, label in names.items() if bit & missing)
    assert all(label not in answer.content for bit, label in names.items() if not bit & missing)
    assert "\n" not in answer.content
    assert await quick.client.core.store.games() == [] and not [s for s in sent if not s.ephemeral]


async def test_announcement_channels_and_private_threads_are_refused_explicitly(fake, quick):
    t = Table(fake, quick.client)
    fake.channels["2200"] = P.announcement_channel(2200)
    fake.channels["2201"] = P.thread(2201, P.CHANNEL_ID, "secret", owner=101, private=True)
    for where, said in (("2200", "announcement channel"), ("2201", "private thread")):
        sent = await t.slash("alice", where, "game", {"game": "toy", "opponent": ("user", BOB)}, sub="new")
        assert said in texts(ephemeral(sent))
        sent = await t.slash("alice", where, "resolve", {"opponent": ("user", BOB)}, sub="dice")
        assert said in texts(ephemeral(sent))
    assert await quick.client.core.store.games() == []
    assert not [s for s in fake.sent if s.channel in ("2200", "2201") and not s.ephemeral]


async def test_the_commands_are_synced_only_when_they_changed_or_when_asked(fake, store):
    first = await start_bot(fake, make_core(store))
    await first.stop()
    puts = [r for r in fake.requests if r.method == "PUT"]
    assert len(puts) == 1
    second = await start_bot(fake, make_core(store))
    await second.stop()
    assert len([r for r in fake.requests if r.method == "PUT"]) == 1
    third = await start_bot(fake, make_core(store), force_sync=True)
    await third.stop()
    assert len([r for r in fake.requests if r.method == "PUT"]) == 2


async def test_a_failed_sync_is_logged_and_retried_and_the_bot_runs_on(fake, store, monkeypatch, caplog):
    monkeypatch.setattr("bot.discord.client.SYNC_RETRY_FIRST", 0.02)
    fault = fake.fail("PUT", r"/applications/.*", status=503, times=2)
    running = await start_bot(fake, make_core(store))
    try:
        assert "command sync failed" in caplog.text
        await asyncio.wait_for(running.client.synced.wait(), timeout=5)
        assert fault.hits == 2 and str(P.GUILD_ID) in fake.commands
        t = Table(fake, running.client)
        assert "challenges you" in texts(await t.slash("alice", P.CHANNEL_ID, "game",
                                                        {"game": "toy", "opponent": ("user", BOB)}, sub="new"))
    finally:
        await running.stop()


async def test_the_strict_fake_refuses_what_discord_refuses(fake, quick):
    """The fake's strict mode, which every Discord test runs under: over-long messages and a second
    answer to one interaction are refused as Discord refuses them."""
    import discord

    http = quick.client.http
    with pytest.raises(discord.HTTPException) as info:
        await http.send_message(P.CHANNEL_ID, params=discord.http.handle_message_parameters(content="x" * 2001))
    assert info.value.code == 50035
    t = Table(fake, quick.client)
    payload = P.slash(t.members["alice"].payload(), t.channel(P.CHANNEL_ID), "game", sub="list")
    await fake.interact(payload, quick.client)
    with pytest.raises(discord.HTTPException) as info:
        await http.request(discord.http.Route("POST", "/interactions/{id}/{token}/callback", id=payload["id"],
                                              token=payload["token"]), json={"type": 5})
    assert info.value.code == 40060
    assert len(fake.violations) == 2
    fake.violations.clear()


async def test_two_edits_of_one_phase_message_at_once_leave_one_message_with_the_newer_text(fake, quick, monkeypatch):
    """A member's order and the bot opponent's answer to it are delivered by two tasks at once (the bot
    starts thinking before the member's replies are posted). Both edit the same phase message: whichever
    reaches Discord last must not put back the older text (the bot's line wiped), nor may two first posts
    make two messages. The older edit here is the slower one (its board took longer to draw)."""
    from bot.replies import Reply

    delivery = quick.client.hive.delivery
    place = str(P.CHANNEL_ID)
    older = Reply(to="channel", place=place, game_id=1, seq=5, text="Red moves to 0405.", edit_key="1:1:phase:5")
    newer = older.model_copy(update={"seq": 6, "text": "Red moves to 0405.\nhexhive (Blue) answers in 0506."})
    real = delivery._message

    async def slow_older(r: Reply) -> dict:
        if r.seq == 5:
            await asyncio.sleep(0.2)
        return await real(r)

    monkeypatch.setattr(delivery, "_message", slow_older)
    start = len(fake.sent)
    await asyncio.gather(delivery.edit_or_send(older), delivery.edit_or_send(newer))
    posted = [s for s in fake.sent[start:] if s.channel == place]
    assert len(posted) == 1, [s.content for s in posted]
    assert fake.messages[str(posted[0].data["id"])]["content"] == newer.text
    # later, the re-posting task hands the older reply over again: still the newer text
    await delivery.edit_or_send(older)
    assert fake.messages[str(posted[0].data["id"])]["content"] == newer.text
    assert not delivery._edit_locks, "a finished message's lock is kept"


async def test_a_status_message_whose_answer_was_lost_is_not_posted_twice(fake, quick):
    """Discord made the status message but its answer was lost (or the bot stopped before saving its
    id): the next status update posts it again. With the same nonce Discord hands back the first
    message, which is edited to the newer text, instead of making a second status message."""
    t = Table(fake, quick.client)
    core = quick.client.core
    fault = fake.drop(when="after", containing="**Status of game #1**")
    msg = await invite(t)
    await settled(fake, core)
    await t.click("bob", msg, "Accept")
    await t.slash("alice", msg["channel_id"], "guess", {"parity": "odd"})
    await settled(fake, core)
    status = [m for m in fake.messages.values() if m["content"].startswith("**Status of game #1**")]
    assert fault.hits == 1 and len(status) == 1, [m["content"] for m in status]
    rec = await core.store.place_settings("discord:status:1")
    assert rec["message"] == status[0]["id"] and status[0]["content"] == rec["text"]
