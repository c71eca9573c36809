"""End to end on the fake Discord with OneWorld: the whole game of tests/scripts/oneworld_full_game.txt,
to a god's death. Every order is a slash command in the game's thread, or the button of a decision that
offers one (the invitation too). Alice's sealed aspects go by DM (the prompt's buttons, or the order typed
in the DM); Bob's DMs are closed, so his go through 'Choose privately'. Boards come as PNG attachments, and
no sealed choice shows in a channel before it is opened."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pydantic import BaseModel

from bot.console import LINE
from bot.discord.components import digest
from bot.parsing import parse_command
from bot.replies import Reply
from engine.ai.selfplay import Table as EngineTable
from engine.ai.selfplay import bot as bot_player
from engine.core import registry
from engine.core.protocol import Action
from tests.discord.actors import BOB, MEMBERS, Table, ephemeral, texts
from tests.fakediscord import payloads as P
from tests.fakediscord.server import FakeDiscord, Sent

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "oneworld_full_game.txt"
REFEREES = 7000
PNG = b"\x89PNG\r\n\x1a\n"
TURN = re.compile(r": turn (\d+), ")


@dataclass(frozen=True)
class Line:
    """One line of the console script: who, whether in their DMs, and the command."""

    who: str
    dm: bool
    name: str
    args: dict[str, str]

    @property
    def text(self) -> str:
        return " ".join([f"/{self.name}", *(f"{k}:{v}" for k, v in self.args.items())])


def script() -> list[Line]:
    out = []
    for raw in SCRIPT.read_text().splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        m = LINE.match(raw)
        assert m is not None and not m["place"], raw
        name, args = parse_command(m["cmd"])
        out.append(Line(m["user"], bool(m["dm"]), name, args))
    return out


@dataclass
class Sealed:
    """A choice sealed at action ``seq``, and what would give it away in a channel."""

    seq: int
    tells: list[str]


@dataclass
class SecretWatch:
    """Checks every channel payload against the choices still sealed."""

    fake: FakeDiscord
    sealed: list[Sealed] = field(default_factory=list)
    opened: int = 0

    def after(self, start: int) -> None:
        """Look at what was posted or edited since ``start``: a choice may show only in the posts that open it."""
        new = self.fake.channel_payloads(start)
        # a few choices: "`#seq nonce`" in a line of the post; many: a file, one line a choice (seq, tab, ...)
        opening = "\n".join([s.content for s in new if "Sealed choices opened" in s.content]
                            + [f[1].decode() for s in new if "Sealed choices opened" in s.content for f in s.files])
        opens = {c.seq for c in self.sealed if f"\n{c.seq}\t" in "\n" + opening or f"`#{c.seq} " in opening}
        for c in self.sealed:
            if c.seq in opens:
                continue
            for s in new:
                shown = _visible(s)
                assert not any(tell in shown for tell in c.tells), (c, s.content)
        self.sealed = [c for c in self.sealed if c.seq not in opens]
        self.opened += len(opens)


def _visible(s: Sent) -> str:
    """A post's text, its buttons' labels and custom ids."""
    return s.content + "\n" + json.dumps(s.data.get("components", []))


def oneworld():
    if "oneworld" not in registry.names():
        pytest.skip("OneWorld is not registered")
    return registry.get("oneworld")


async def test_a_whole_oneworld_game_on_discord(fake, bot, core):
    oneworld()
    lines = script()
    new, accept, orders = lines[0], lines[1], lines[2:]
    assert (new.who, new.name, accept.name) == ("alice", "game new", "game accept") and new.args["seed"] == "1"
    fake.closed_dms.add(str(BOB))
    t = Table(fake, bot.client)
    synced = {c["name"] for c in fake.commands[str(P.GUILD_ID)]}
    assert {"game", "mod", *(o.name for o in orders)} <= synced

    options = {"game": new.args["game"], "opponent": ("user", BOB), "seed": new.args["seed"]}
    sent = await t.slash("alice", P.CHANNEL_ID, "game", options, sub="new")
    assert "only a moderator" in texts(ephemeral(sent)) and not core.live
    await fake.add_role(P.role(REFEREES, "referees"))
    sent = await t.slash("mo", P.CHANNEL_ID, "mod", {"role": ("role", REFEREES)}, sub="config")
    assert f"Moderator role: <@&{REFEREES}>" in texts(ephemeral(sent))
    t.grant("alice", REFEREES)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", options, sub="new")
    invite = next(s for s in sent if "challenges you" in s.content)
    thread, gid = invite.channel, next(iter(core.live))
    sent = await t.click("bob", invite.data, "Accept")
    assert "begins" in texts(sent) and "Dice seed `1` (fixed, not secret)" in texts(sent)

    watch = SecretWatch(fake)
    completed: set[str] = set()
    prompts: set[str] = set()
    clicked: list[str] = []
    before = len(fake.sent) - len(sent)
    for seq, line in enumerate(orders, 1):
        assert gid in core.live, f"the game ended early, before line {seq}: {line.text}"
        start = len(fake.sent)
        if line.dm:
            sealed = await choose_privately(t, line, gid, thread, prompts)
            watch.sealed.append(Sealed(seq, sealed))
        elif (offer := offered(fake, before, thread, line, gid)) is not None:
            sent = await t.click(line.who, offer.data, custom_id=offer.button)
            clicked.append(line.text)
        else:
            if line.name not in completed and line.args:
                first = next(iter(line.args))
                choices = await t.complete(line.who, thread, line.name, {first: ""}, focused=first)
                assert line.args[first] in choices or len(choices) == 25, (line.text, choices)
                completed.add(line.name)
            sent = await t.slash(line.who, thread, line.name, line.args)
        if not line.dm:
            assert not any(s.content.startswith(("Sorry", "You are")) for s in ephemeral(sent)), (seq, line.text,
                                                                                                  texts(sent))
        watch.after(start)
        before = start
        if gid in core.live:
            assert core.live[gid].seq == seq, (seq, line.text)

    assert gid not in core.live, "the script ended and the game is still in play"
    assert len(await core.store.actions(gid, 1)) == len(orders)
    assert watch.sealed == [] and watch.opened == sum(o.dm for o in orders)
    assert clicked[0] == "/order setup:first" and len(clicked) >= 5, clicked

    posts = t.in_channel(thread)
    end = next(s for s in posts if s.content.startswith(f"Game #{gid} is over."))
    last_opened = max(i for i, s in enumerate(posts) if "Sealed choices opened" in s.content)
    assert posts.index(end) > last_opened
    assert "Alice (BORG) wins: CHEZ's god has lost all its lives." in end.content
    assert "Dice seed: `1`" in end.content
    row = await core.store.game(gid)
    assert row is not None and row.status == "over"
    assert sorted(end.allowed_mentions["users"]) == sorted(int(u) for u in row.settings_dict["seats"].values())

    boards = [(s, f) for s in posts for f in s.files if f[0].endswith(".png")]
    assert all(f[1].startswith(PNG) for _, f in boards)
    headed = [s for s in posts if s.content.startswith(f"Game #{gid}: ")]
    assert list(dict.fromkeys(id(s) for s, _ in boards)) == [id(s) for s in headed]
    # Each board post carries the focus view first, then the full map, both with alt text.
    assert all([f[0] for f in s.files] == [f"game-{gid}-focus.png", f"game-{gid}-board.png"] for s in headed)
    sent = [r.json for r in fake.requests if any(n.endswith("-focus.png") for n, _ in r.files)]
    assert len(sent) == len(headed)
    for body in sent:
        alts = [a.get("description") or "" for a in body["attachments"]]
        assert len(alts) == 2 and all(0 < len(a) <= 1024 and "OneWorld" in a for a in alts), alts
    turns = [int(m[1]) for s in headed if (m := TURN.search(s.content))]
    assert sorted(set(turns)) == list(range(1, turns[-1] + 1)) and turns[-1] > 40
    heads = [s.content.splitlines()[0] for s in headed]  # the phase's title, then who decides now
    assert heads[0].endswith("set-up order") and heads[-1].endswith("game over")
    status = next(s for s in posts if s.content.startswith("**Status"))
    assert "over" in fake.messages[status.data["id"]]["content"]


def label_of(line: Line) -> str:
    """The words the game puts on the button of a script line's order."""
    return registry.get("oneworld").label(Action(verb=line.name, args=line.args))


@dataclass(frozen=True)
class Offer:
    """A button of a post that gives exactly a script line's order."""

    data: dict
    button: str


def offered(fake: FakeDiscord, since: int, thread: str, line: Line, gid: int) -> Offer | None:
    """The button for ``line`` on a decision the last action put to its player in the thread, if any.

    A button carries a hash of the order it sends: the one whose hash is this order's is the one to press,
    and its label must say what it does."""
    uid = next(m.uid for m in MEMBERS.values() if m.name == line.who)
    want = ":" + digest(f"{line.text} game:{gid}")
    for s in reversed(fake.sent[since:]):  # a ping in the thread, or the private acknowledgement's next step
        if s.channel != thread or not (s.ephemeral or f"<@{uid}> (" in s.content):
            continue
        for b in P.buttons_of(s.data):
            if b["custom_id"].endswith(want):
                assert b["label"] == label_of(line), (line.text, b)
                return Offer(s.data, b["custom_id"])
    return None


async def choose_privately(t: Table, line: Line, gid: int, thread: str, prompts: set[str]) -> list[str]:
    """A sealed choice: Alice by DM (the prompt's buttons, or the order typed in the DM), Bob, whose DMs are
    closed, through 'Choose privately' in the thread; what would give the choice away.

    Each decision must come with its own prompt: ``prompts`` holds the ids of the prompts already answered."""
    label = label_of(line)
    if line.who == "alice":
        prompt = [s for s in t.dms_to("alice") if P.buttons_of(s.data)][-1]
        assert "your private choice" in prompt.content and prompt.data["id"] not in prompts, prompt.content
        prompts.add(prompt.data["id"])
        assert label in [b["label"] for b in P.buttons_of(prompt.data)], (line.text, prompt.content)
        if line.name == "aspect":
            sent = await t.slash("alice", prompt.channel, line.name, line.args)
        else:
            sent = await t.click("alice", prompt.data, label)
        private = ephemeral(sent) + [s for s in sent if s.channel == prompt.channel and not s.ephemeral]
    else:
        assert not t.dms_to("bob")
        panel_msg = [s for s in t.in_channel(thread) if s.content.startswith(f"<@{BOB}>")
                     and [b["label"] for b in P.buttons_of(s.data)] == ["Choose privately"]][-1]
        assert panel_msg.data["id"] not in prompts and "your private choice" in panel_msg.content
        prompts.add(panel_msg.data["id"])
        panel = ephemeral(await t.click("bob", panel_msg.data, "Choose privately"))[-1]
        assert "your private choice" in panel.content, panel.content
        sent = await t.click("bob", panel.data, label)
        private = ephemeral(sent)
    said = texts(private)
    assert f"Your choice is sealed: {line.text}." in said, (line.text, said)
    chosen = [s.content.splitlines()[0].removeprefix("You have chosen ") for s in private
              if s.content.startswith("You have chosen ")]
    assert chosen, said
    return [line.text, " ".join(f"{k}:{v}" for k, v in line.args.items()), digest(f"{line.text} game:{gid}"),
            *chosen]


def _round_then_accost(seat: str) -> tuple[BaseModel, BaseModel, BaseModel]:
    """Three positions of one engine game (easy against easy): ``seat`` answers an 8.2 combat round last,
    moves on (4.2) and accosts the enemy god (10.4), with no decision passing to anyone in between; and
    the position after the round was answered, with no private choice of ``seat``'s waiting."""
    for i in range(40):
        table = EngineTable("oneworld", "standard", {}, dice_seed=f"accost-{i}")
        deciders = {s: bot_player("easy", f"{i}:{s}") for s in table.rules.seats}
        in_round: BaseModel | None = None
        answered: BaseModel | None = None
        for _ in range(3000):
            before = table.rules.pending_now(table.state)
            if not before:
                break
            mine = [p for p in before if p.seat == seat]
            if mine and mine[0].secret and mine[0].rule == "10.4" and in_round is not None and answered is not None:
                return in_round, table.state, answered
            if in_round is not None and answered is None and not any(p.secret for p in mine):
                answered = table.state
            if mine and mine[0].secret and mine[0].rule == "8.2" and len(before) == 1:
                in_round, answered = table.state, None
            who = before[0].seat
            table.play(who, deciders[who](table, who))
            if {p.seat for p in table.rules.pending_now(table.state)} - {p.seat for p in before}:
                in_round = answered = None  # a decision passed to a player: the next secret one is a new decision anyway
    raise AssertionError(f"no game gave {seat} a combat round and then an accost in one decision")


async def test_10_4_an_accost_after_a_combat_round_gets_its_own_closed_dm_notice(fake, bot, core):
    """8.2 then 10.4: a player whose DMs are closed answers a combat round last, moves on and accosts the
    enemy god, with no decision passing to anyone in between. The accost is a new private decision and
    gets its own 'Choose privately' notice in the thread; asked again, the same decision gets none, and a
    prompt delivered late, once its choice was made, gets none either."""
    oneworld()
    fake.closed_dms.add(str(BOB))
    t = Table(fake, bot.client)
    sent = await t.slash("alice", P.CHANNEL_ID, "game", {"game": "oneworld", "opponent": ("user", BOB)}, sub="new")
    invite = next(s for s in sent if "challenges you" in s.content)
    thread = invite.channel
    await t.click("bob", invite.data, "Accept")
    gid = next(iter(core.live))
    g = core.live[gid]
    in_round, accost, answered = _round_then_accost(g.seats_of(str(BOB))[0])
    delivery = bot.client.hive.delivery
    prompt = Reply(to="dm", user=str(BOB), text="your private choice", game_id=gid, secret_prompt=True)

    def notices() -> int:
        return sum("direct messages are closed" in s.content for s in t.in_channel(thread))

    counted = []
    for state in (in_round, accost, accost):
        g.state = state
        await delivery.dm_closed(prompt, str(BOB))
        counted.append(notices())
    assert counted[1] == counted[0] + 1 and counted[2] == counted[1], counted
    g.state = answered  # the prompt came late, after the choice was made: no notice
    await delivery.dm_closed(prompt, str(BOB))
    assert notices() == counted[2]
