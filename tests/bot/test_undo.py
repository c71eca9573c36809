"""Take-back (/undo): a player's own last orders of this phase, while no die, reveal or hand-over intervened."""

from __future__ import annotations

import io
from pathlib import Path

from bot.commands import make_core
from bot.console import Console
from bot.core import Core
from bot.live import full_replay, load_live
from bot.records import GameRecord
from bot.replay_tool import check_record
from bot.store import Store
from tests.support.scripted import SCRIPTS


class Table:
    """The Chitin basic script, played up to a chosen line, then driven by the test."""

    def __init__(self, core: Core, console: Console, lines: list[str]) -> None:
        self.core, self.console, self.lines = core, console, lines
        self.at = 0

    async def until(self, line: str) -> None:
        """Play the script up to (not including) the first line equal to ``line`` after where it stands."""
        while self.lines[self.at].strip() != line:
            await self.console.run_line(self.lines[self.at])
            self.at += 1

    async def next(self) -> list:
        replies = await self.console.run_line(self.lines[self.at])
        self.at += 1
        return replies

    async def say(self, user: str, line: str, place: str = "console:#game-1") -> list:
        return await self.core.handle_line(user, place, line)

    @property
    def game(self):  # type: ignore[no-untyped-def]
        return self.core.live[1]


async def table(tmp_path: Path) -> tuple[Table, Store]:
    store = await Store.open(tmp_path / "u.db")
    core = make_core(store)
    console = Console(core, None, io.StringIO(), boards=False)
    return Table(core, console, (SCRIPTS / "chitin_basic.txt").read_text().splitlines()), store


async def replays_to_the_same_state(t: Table, store: Store) -> None:
    """The log, folded from the start and from the newest snapshot, gives the game's state."""
    row = await store.game(1)
    assert row is not None
    replayed, _ = await full_replay(store, row)
    assert replayed.model_dump_json() == t.game.state.model_dump_json()
    assert (await load_live(store, row)).state.model_dump_json() == t.game.state.model_dump_json()


async def test_undo_restores_the_exact_state_and_the_log_replays(tmp_path):
    t, store = await table(tmp_path)
    try:
        await t.until("bob: /move stack:B1 to:0818")
        before = t.game.state.model_dump_json()
        seq = t.game.seq
        r = await t.next()
        ack = next(x for x in r if x.to == "private")
        assert any(b.label == "Undo" and b.command == "/undo game:1" for b in ack.buttons)
        moved = t.game.state.model_dump_json()
        assert moved != before
        r = await t.say("bob", "/undo")
        assert r[0].to == "private" and r[0].text.startswith("Taken back: /move stack:B1 to:0818"), r[0].text
        assert t.game.state.model_dump_json() == before  # byte for byte
        assert t.game.seq == seq + 2  # the move and its take-back are both in the log
        edit = next(x for x in r if x.edit_key)
        assert "~~Blue: Gantua 12-6 (B1) moves reserve to 0818~~" in edit.text and "took back" in edit.text
        # the player goes on; the record of a game with a take-back replays exactly
        await t.next()
        await t.next()
        record = GameRecord.model_validate_json(
            next(x for x in await t.say("bob", "/game export") if x.file_name).file_text)
        problems, _ = check_record(record, None)
        assert problems == []
        assert [a.action.verb for a in record.actions if a.action is not None].count("undo") == 1
        await replays_to_the_same_state(t, store)
    finally:
        await store.close()


async def test_undo_twice_takes_back_the_last_two_orders(tmp_path):
    t, store = await table(tmp_path)
    try:
        await t.until("bob: /move stack:B2 to:0719")
        before = t.game.state.model_dump_json()
        await t.next()  # move B2
        await t.next()  # face it
        await t.say("bob", "/undo")
        r = await t.say("bob", "/undo")
        assert "Taken back: /move stack:B2 to:0719" in r[0].text
        assert t.game.state.model_dump_json() == before
    finally:
        await store.close()


async def test_undo_is_refused_after_a_hand_over_and_changes_nothing(tmp_path):
    t, store = await table(tmp_path)
    try:
        await t.until("alice: /move stack:R1 to:0804")  # bob's /done just handed the turn to alice
        state, seq = t.game.state.model_dump_json(), t.game.seq
        r = await t.say("bob", "/undo")
        assert r[0].text.startswith("Sorry") and "opponent" in r[0].text, r[0].text
        r = await t.say("alice", "/undo")
        assert r[0].text.startswith("Sorry") and "not yours" in r[0].text, r[0].text
        assert (t.game.state.model_dump_json(), t.game.seq) == (state, seq)
    finally:
        await store.close()


async def test_undo_is_refused_after_a_roll(tmp_path):
    t, store = await table(tmp_path)
    try:
        await t.until("bob: /retreat stack:R9+R12 to:0408")  # bob's /done rolled the combat
        state, seq = t.game.state.model_dump_json(), t.game.seq
        r = await t.say("bob", "/undo")
        assert r[0].text.startswith("Sorry") and "rolled dice" in r[0].text, r[0].text
        assert (t.game.state.model_dump_json(), t.game.seq) == (state, seq)
    finally:
        await store.close()


async def test_undo_is_refused_after_a_sealed_choice_and_its_reveal(tmp_path):
    t, store = await table(tmp_path)
    try:
        await t.until("bob: /choose pick:first")  # alice's /ready sealed her army and revealed both
        state, seq = t.game.state.model_dump_json(), t.game.seq
        r = await t.say("alice", "/undo", place="dm:alice")
        assert r[0].text.startswith("Sorry") and "sealed" in r[0].text, r[0].text
        assert (t.game.state.model_dump_json(), t.game.seq) == (state, seq)
    finally:
        await store.close()


async def test_two_clicks_of_one_undo_button_at_once_take_back_one_order(tmp_path):
    """A double click sends a button's command twice, both checked against the message before either
    runs; the second must be refused as out of date once the first has changed the game (an order of the
    same player since the button's action number), not take back the order before it too."""
    import asyncio

    from bot.parsing import parse_command
    from bot.replies import Command

    t, store = await table(tmp_path)
    try:
        await t.until("bob: /move stack:B2 to:0719")
        await t.next()  # move B2
        moved = t.game.state.model_dump_json()
        await t.next()  # face it: its acknowledgement carries Undo
        name, args = parse_command("/undo game:1")
        click = Command(user="bob", place="console:#game-1", name=name, args=args, community="console",
                        shown=t.game.seq)  # the action number of the message the button is on
        first, second = await asyncio.gather(t.core.handle(click), t.core.handle(click))
        said = [first[0].text, second[0].text]
        assert sum(s.startswith("Taken back") for s in said) == 1, said
        assert any("out of date" in s for s in said), said
        assert t.game.state.model_dump_json() == moved  # only the facing was taken back
    finally:
        await store.close()


async def test_3_03_undo_during_army_picks_says_nothing_of_the_other_sides_sealed_picks(tmp_path):
    """3.03: each side's picks are secret until both armies are in. A player's /undo must answer the same
    whether or not the other side has picked since, and never name the other side's sealed pick (the
    refusal used to quote 'the last order (/pick kind:GT3) was not yours')."""
    t, store = await table(tmp_path)
    try:
        await t.until("bob dm: /pick kind:GT3")  # alice has picked twice, bob not yet
        before = [r.text for r in await t.say("alice", "/undo", place="dm:alice")]
        await t.next()  # bob picks, sealed
        state, seq = t.game.state.model_dump_json(), t.game.seq
        after = [r.text for r in await t.say("alice", "/undo", place="dm:alice")]
        assert after == before, (before, after)
        assert not any("/pick" in text and "GT3" in text for text in after), after
        assert (t.game.state.model_dump_json(), t.game.seq) == (state, seq)
        # bob, whose sealed pick is last, is told it cannot be taken back
        mine = await t.say("bob", "/undo", place="dm:bob")
        assert mine[0].text.startswith("Sorry") and "sealed" in mine[0].text, mine[0].text
    finally:
        await store.close()


async def test_undo_in_a_long_game_reads_the_log_from_a_snapshot_not_from_the_start(tmp_path):
    # a take-back looks at the orders after the second newest snapshot (every 50 actions), and puts
    # the game back from the newest snapshot before the order (and reads the secrets opened since): in
    # a game of thousands of actions it no longer reads and folds the whole log on the event loop. Here
    # the move is action 150, whose state is itself a snapshot, so the state before it comes from the
    # one at 100
    t, store = await table(tmp_path)
    try:
        await t.until("alice: /move stack:R2 to:0708")
        before, seq = t.game.state.model_dump_json(), t.game.seq
        assert seq == 149
        await t.next()
        assert [s for s, _ in await store.snapshots(1, 1)] == [50, 100, 150]
        reads: list[tuple[int | None, int | None]] = []
        actions = store.actions

        async def spy(game_id, branch, upto=None, after=None):  # type: ignore[no-untyped-def]
            reads.append((after, upto))
            return await actions(game_id, branch, upto=upto, after=after)

        opened: list[int | None] = []
        secrets = store.secrets

        async def spy_secrets(*args, **kwargs):  # type: ignore[no-untyped-def]
            rows = await secrets(*args, **kwargs)
            opened.extend(s.revealed_at for s in rows)
            return rows

        store.actions = spy  # type: ignore[method-assign]
        store.secrets = spy_secrets  # type: ignore[method-assign]
        r = await t.say("alice", "/undo")
        store.actions, store.secrets = actions, secrets  # type: ignore[method-assign]
        assert r[0].text.startswith("Taken back: /move stack:R2 to:0708"), r[0].text
        assert t.game.state.model_dump_json() == before  # byte for byte
        assert reads and all(after is not None and after >= 100 for after, _ in reads), reads
        # nor the army picks (3.03) opened long before: only the secrets still sealed or opened since
        assert all(at is None or at > 100 for at in opened), opened
        assert any(b.label == "Undo" for b in r[0].buttons)  # alice's order before it still counts
        t.at -= 1  # the move again, and the game goes on; the log replays to the same state
        for _ in range(4):
            await t.next()
        await replays_to_the_same_state(t, store)
    finally:
        await store.close()


def test_an_undo_button_never_pushes_an_answer_of_the_prompt_off_the_message():
    """A Chitin advance after combat offered 24 Advance and Face buttons and Done; the Undo button was
    put in the 25th place and Done was dropped (Discord takes 25 buttons), so the optional advance could
    only be skipped by typing. Every answer keeps its button; /undo is then named in the text."""
    from bot import phaselog
    from bot.replies import MAX_BUTTONS, Button, Reply

    answers = [Button(label=f"Face {n}", command=f"/face n:{n} game:1") for n in range(24)]
    answers.append(Button(label="Done", command="/done game:1"))
    undo = Button(label="Undo", command="/undo game:1", style="secondary")
    mine = Reply(to="private", user="alice", place="t", game_id=1, seq=3, text="Next: advance or face",
                 buttons=answers)
    [ack] = phaselog._acks([], [mine], ["R1 attacks 0405"], "alice", "t", undo)
    assert [b.label for b in ack.buttons] == [b.label for b in answers] and len(ack.buttons) == MAX_BUTTONS
    assert "/undo" in ack.text
    [ack] = phaselog._acks([], [mine.model_copy(update={"buttons": answers[:3]})], ["R1 attacks"], "alice", "t", undo)
    assert [b.label for b in ack.buttons][-1] == "Undo" and "/undo" not in ack.text
