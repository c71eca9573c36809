"""The bot opponent on the fake Discord: hexhive itself as the opponent, typing while it thinks,
its secret choices by its own path (never a DM to itself), /game hint ephemeral, /mod replace, and
hexhive against itself in the toy game and in the Annihilator."""

from __future__ import annotations

import json

from bot.records import commitment
from engine.core.protocol import Action
from tests.bot.test_opponent import Inline
from tests.discord.actors import ALICE, BOB, Member, Table, ephemeral, texts
from tests.fakediscord import payloads as P


async def test_a_toy_game_against_hexhive_itself_plays_through(fake, bot, core):
    core.opponent.executor = Inline()
    assert core.opponent.user_id == str(P.APP_ID)
    t = Table(fake, bot.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", P.APP_ID),
                                                         "level": "easy", "hints": "on", "options": "pile:5"},
                         sub="new")
    assert "begins" in texts(sent) and "challenges you" not in texts(sent)
    gid = next(iter(core.live))
    thread = core.live[gid].row.place
    settings = json.loads((await core.store.game(gid)).settings)
    assert settings["bots"] == {"B": "easy"} and settings["seats"]["B"] == str(P.APP_ID)
    await core.opponent.idle()
    hint = await t.slash("alice", thread, "game", {}, sub="hint")
    assert "Hint for game" in texts(ephemeral(hint))
    asked = [s for s in t.in_channel(thread) if "asked for a hint" in s.content]
    assert asked and "Hint for game" not in texts(t.in_channel(thread))
    for _ in range(40):
        g = core.live.get(gid)
        if g is None:
            break
        mine = [p for p in g.pending() if g.user_of(p.seat) == str(ALICE)]
        assert mine, "the game waits on the bot alone"
        if mine[0].verbs == ("guess",):
            await t.slash("alice", thread, "guess", {"parity": "odd"})
        else:
            n = max(await t.complete("alice", thread, "take", {"n": ""}, focused="n"))
            await t.slash("alice", thread, "take", {"n": n})
        await core.opponent.idle()
    assert gid not in core.live and "is over" in texts(t.in_channel(thread))
    assert thread in fake.typing, "no typing indicator while the bot thought about its takes"
    assert str(P.APP_ID) not in fake.dm_of, "the bot sent itself a direct message"
    bot_rows = [a for a in await core.store.actions(gid, 1) if a.user == str(P.APP_ID)]
    secrets = {s.seq: s for s in await core.store.secrets(gid, 1)}
    guesses = [a for a in bot_rows if a.secret]
    assert guesses and all(secrets[a.seq].revealed_at is not None for a in guesses)
    assert all(f"`{secrets[a.seq].commitment[:16]}`" in texts(t.in_channel(thread)) for a in guesses)
    assert not core.opponent.errors and not core.internal_errors


async def test_a_moderator_hands_a_seat_to_hexhive_and_back(fake, bot, core):
    core.opponent.executor = Inline()
    t = Table(fake, bot.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB),
                                                         "options": "pile:5"}, sub="new")
    gid = next(iter(core.live))
    invite = next(s for s in sent if "challenges you" in s.content)
    await t.click("bob", invite.data, "Accept")
    thread = core.live[gid].row.place
    refused = await t.slash("bob", thread, "mod", {"seat": "B", "user": ("user", P.APP_ID)}, sub="replace")
    assert "only moderators" in texts(ephemeral(refused))
    await t.slash("mo", thread, "mod", {"seat": "B", "user": ("user", P.APP_ID), "level": "normal"}, sub="replace")
    await core.opponent.idle()
    assert json.loads((await core.store.game(gid)).settings)["bots"] == {"B": "normal"}
    assert any(a.user == str(P.APP_ID) for a in await core.store.actions(gid, 1)), "the bot did not take over"
    await t.slash("mo", thread, "mod", {"seat": "B", "user": ("user", BOB)}, sub="replace")
    assert "bots" not in json.loads((await core.store.game(gid)).settings)
    assert core.live[gid].seats["B"] == str(BOB)


async def _hexhive_against_itself(fake, bot, core, new: dict[str, object], level: str):  # noqa: ANN001, ANN202
    """Alice starts a game (``new``) against hexhive at `easy`; a moderator hands her seat to hexhive too
    (an exhibition game, at ``level``), and it plays both seats to the end. (table, game id, thread)."""
    core.opponent.executor = Inline()
    t = Table(fake, bot.client)
    await t.slash("alice", P.CHANNEL_ID, "game", {**new, "opponent": ("user", P.APP_ID), "level": "easy"}, sub="new")
    gid = next(iter(core.live))
    thread = core.live[gid].row.place
    human = next(s for s, u in core.live[gid].seats.items() if u == str(ALICE))
    await core.opponent.idle()
    sent = await t.slash("mo", thread, "mod", {"seat": human, "user": ("user", P.APP_ID), "level": level,
                                               "reason": "exhibition"}, sub="replace")
    assert f"gave seat {human}" in texts(sent), texts(sent)
    for _ in range(200):
        await core.opponent.idle()
        if gid not in core.live:
            break
    assert gid not in core.live and "is over" in texts(t.in_channel(thread))
    return t, gid, thread


async def test_hexhive_against_itself_plays_a_game_through_with_its_sealed_guesses_revealed(fake, bot, core):
    """Issue 15: a bot-versus-bot game on the fake Discord API. A moderator hands alice's seat to hexhive
    too (an exhibition game); both seats' secret guesses go by the bot's own path, committed first and
    revealed, with no direct message, and the game reaches its end with nobody else giving an order."""
    t, gid, thread = await _hexhive_against_itself(fake, bot, core, {"game": "toy", "options": "pile:7"}, "normal")
    rows = await core.store.actions(gid, 1)
    assert {a.seat for a in rows if a.user == str(P.APP_ID) and a.secret} == {"A", "B"}
    secrets = {s.seq: s for s in await core.store.secrets(gid, 1)}
    assert secrets and all(s.revealed_at is not None for s in secrets.values())
    channel = texts(t.in_channel(thread))
    assert all(f"`{s.commitment[:16]}`" in channel for s in secrets.values())
    assert str(P.APP_ID) not in fake.dm_of and not core.opponent.errors and not core.internal_errors


async def test_hexhive_against_itself_plays_an_annihilator_game_through_with_its_demolition_orders_revealed(
        fake, bot, core):
    """Issue 15, in a title of the box: hexhive plays both sides of an Annihilator game on the fake
    Discord. The Marines' demolition orders (8.1) are secret: each goes by the bot's own path,
    committed first (its hash in the thread), and is opened when the phase ends; no direct message
    is sent, and the game reaches its end with nobody else giving an order."""
    t, gid, thread = await _hexhive_against_itself(fake, bot, core, {"game": "annihilator"}, "easy")
    rows = await core.store.actions(gid, 1)
    assert rows and all(a.user == str(P.APP_ID) for a in rows if a.seat)
    sealed = [a for a in rows if a.secret]
    assert sealed and {a.seat for a in sealed} == {"Marines"}
    secrets = {s.seq: s for s in await core.store.secrets(gid, 1)}
    for a in sealed:  # every one opened, and it is what was committed to
        s = secrets[a.seq]
        assert s.revealed_at is not None and commitment(s.nonce, Action.model_validate_json(a.action)) == s.commitment
    # each charge is announced with a commitment before it is opened (a /done alone ends the phase and
    # opens at once)
    channel = texts(t.in_channel(thread))
    charges = [a for a in sealed if Action.model_validate_json(a.action).verb == "charge"]
    assert charges and channel.count("have given a demolition order (commitment `") == len(charges)
    first = channel.index("have given a demolition order (commitment `")
    assert first < channel.index("Demolition orders (rule 8.1): ")
    assert str(P.APP_ID) not in fake.dm_of and not core.opponent.errors and not core.internal_errors


async def test_another_bot_account_is_refused_as_an_opponent_or_a_seats_new_holder(fake, bot, core):
    """On Discord any account may be picked for a user option, another bot's too. A game challenging one
    waited on an accept that never comes, and a seat given to one was never played: only members, and
    hexhive itself, take a seat."""
    core.opponent.executor = Inline()
    t = Table(fake, bot.client)
    other = 777

    class OtherBot(Member):
        def payload(self) -> dict:
            return P.member(self.uid, self.name) | {"user": P.user(self.uid, self.name, bot=True)}

    t.members["otherbot"] = OtherBot(other, "dicebot")
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", other)}, sub="new")
    assert "bot account" in texts(ephemeral(sent)) and "dicebot" in texts(ephemeral(sent)).lower()
    assert await core.store.games() == [] and not [s for s in sent if not s.ephemeral]
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "toy", "opponent": ("user", BOB),
                                                         "options": "pile:5"}, sub="new")
    gid = next(iter(core.live))
    await t.click("bob", next(s for s in sent if "challenges you" in s.content).data, "Accept")
    thread = core.live[gid].row.place
    refused = await t.slash("mo", thread, "mod", {"seat": "B", "user": ("user", other)}, sub="replace")
    assert "bot account" in texts(ephemeral(refused))
    assert core.live[gid].seats["B"] == str(BOB)
    assert not [m for m in await core.store.modlog(gid) if "gave seat" in m["what"]]
