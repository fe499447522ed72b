"""The generic request UI through the real bot and the local fake Discord, with a wide toy game:
60 first choices (a paged select), long tokens (paths kept server-side), Back, Prev/Next, Confirm,
stale buttons and "not your turn"."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot as botmod
from app_settings import Settings
from cogs.utils import ids
from engines import registry
from engines.base import Engine, EngineError, Event, Msg, Option, Request, Result, Step
from fakediscord import FakeDiscord
from i18n import t

SLUG = "cogs_wide"
LONG = [f"{c}" * 45 for c in "xyz"]  # three 45-character tokens: paths outgrow a custom id


def _label(value: str) -> Msg:
    return Msg("discord.status.turn", {"name": value[:12]})


class WideEngine(Engine):
    """Two seats alternate; an action is [tNN, long, long]; two actions end the game."""

    slug = SLUG
    min_seats = max_seats = 2

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> dict[str, Any]:
        return {"game": SLUG, "turn": 0, "moves": [], "req": 1}

    def pending(self, state: dict[str, Any]) -> list[Request]:
        if len(state["moves"]) >= 2:
            return []
        return [Request(f"q{state['req']}", state["turn"], "turn", Msg("discord.play.preview"))]

    def step(self, state: dict[str, Any], seat: int, path: list[str]) -> Step:
        if seat != state["turn"]:
            raise EngineError("core.err.not_your_turn")
        if not path:
            return Step(Msg("discord.play.preview"), [Option(f"t{i:02d}", _label(f"t{i:02d}")) for i in range(60)])
        if len(path) in (1, 2):
            return Step(Msg("discord.play.preview"), [Option(v, _label(v)) for v in LONG])
        if len(path) == 3:
            return Step(Msg("discord.play.preview"), [], complete=True)
        raise EngineError("core.err.illegal")

    def apply(self, state: dict[str, Any], seat: int, action: list[str]) -> tuple[dict[str, Any], list[Event]]:
        if not self.step(state, seat, action).complete:
            raise EngineError("core.err.illegal")
        new = {**state, "moves": [*state["moves"], action], "turn": 1 - state["turn"], "req": state["req"] + 1}
        return new, [Event(Msg("discord.status.turn", {"name": "moved " + action[0]}))]

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"game": SLUG, "moves": len(state["moves"])}

    def result(self, state: dict[str, Any]) -> Result | None:
        return Result([0]) if len(state["moves"]) >= 2 else None

    def ai_action(self, state, seat, rng, level="normal"):  # pragma: no cover - no AI seats here
        return ["t00", LONG[0], LONG[0]]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    registry.register(SLUG, WideEngine())
    server = FakeDiscord()
    await server.start()
    try:
        with server.patch_discord():
            yield server
    finally:
        await server.close()
        registry.GAMES.pop(SLUG, None)
        registry._cache.pop(SLUG, None)


async def _start_bot(fake: FakeDiscord, db: Path) -> tuple[botmod.TabletopBot, asyncio.Task[None]]:
    client = botmod.create_bot(Settings(token=fake.token, database_path=db, scheduler_interval=0.2))
    task = asyncio.create_task(client.start(fake.token))
    await fake.wait_for(lambda: task.done() or (client.scheduler is not None and fake.gateway.connected()), 15,
                        "the bot to start")
    assert not task.done()
    return client, task


async def _stop(client: botmod.TabletopBot, task: asyncio.Task[None]) -> None:
    await client.close()
    await asyncio.wait_for(task, 10)


def _settled(ix: Any) -> Any:
    return lambda: (ix.original is not None and not ix.original.flags & 128) or ix.followups


def _button(msg: Any, label: str) -> dict[str, Any]:
    return next(b for b in msg.buttons() if b.get("label") == label)


async def test_paged_select_back_long_paths_confirm_and_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    alice = fake.add_user("alice", locale="en-US")
    bob = fake.add_user("bob", locale="en-US")
    client, task = await _start_bot(fake, tmp_path / "db.sqlite3")
    try:
        # Lobby through the service (the lobby UI has its own tests); the match lives in #general.
        service = client.service
        info = await service.create_lobby(SLUG, host_id=alice.id, host_name="alice", locale="en",
                                          guild_id=fake.guild_id, channel_id=fake.general.id)
        await service.join(info.id, bob.id, "bob")
        await service.start(info.id, alice.id)
        post = await fake.wait_for(
            lambda: next((m for m in fake.messages_in(fake.general) if any(c.startswith("g:t:") for c in m.custom_ids())),
                         None), 10, "the status post")
        turn_id = next(c for c in post.custom_ids() if c.startswith("g:t:"))

        # Not your turn: polite and ephemeral.
        ix = await fake.click(bob, post, turn_id)
        await fake.wait_for(_settled(ix), 10, "the refusal")
        assert [m.text() for m in ix.replies()][-1] == t("en", "core.err.not_your_turn")
        assert ix.replies()[-1].ephemeral

        ix = await fake.click(alice, post, turn_id)
        await fake.wait_for(_settled(ix), 10, "the step message")
        step = ix.original
        assert step.ephemeral
        # 60 options: a select of 25, page 1 of 3, no Prev.
        (select,) = step.selects()
        assert len(select["options"]) == 25 and select["options"][0]["value"] == "t00"
        assert not [b for b in step.buttons() if b.get("label") == t("en", "discord.button.prev")]
        edits = step.edits
        await fake.click(alice, step, _button(step, t("en", "discord.button.next"))["custom_id"])
        await fake.wait_for(lambda: step.edits > edits, 10, "page 2")
        (select,) = step.selects()
        assert select["options"][0]["value"] == "t25"
        edits = step.edits
        await fake.select(alice, step, select["custom_id"], ["t30"])
        await fake.wait_for(lambda: step.edits > edits, 10, "the second step")
        for token in (LONG[1], LONG[2]):
            btn = next(b for b in step.buttons() if b["custom_id"].startswith("g:a:") and
                       b.get("label") == t("en", "discord.status.turn", name=token[:12]))
            edits = step.edits
            await fake.click(alice, step, btn["custom_id"])
            await fake.wait_for(lambda e=edits: step.edits > e, 10, "the next step")
        ids_now = step.custom_ids()
        assert all(len(c) <= ids.MAX_CUSTOM_ID for c in ids_now)
        confirm = next(c for c in ids_now if c.startswith("g:c:"))
        assert re.fullmatch(ids.CONFIRM_TEMPLATE, confirm)["path"].startswith("*"), "long path kept server-side"
        # Back goes one token up, still inside the long path.
        edits = step.edits
        await fake.click(alice, step, _button(step, t("en", "discord.button.back"))["custom_id"])
        await fake.wait_for(lambda: step.edits > edits, 10, "back")
        assert not any(c.startswith("g:c:") for c in step.custom_ids())
        assert LONG[1][:12] in step.text()
        btn = next(b for b in step.buttons() if b.get("label") == t("en", "discord.status.turn", name=LONG[0][:12]))
        edits = step.edits
        await fake.click(alice, step, btn["custom_id"])
        await fake.wait_for(lambda: step.edits > edits, 10, "forward again")
        confirm = next(c for c in step.custom_ids() if c.startswith("g:c:"))
    finally:
        await _stop(client, task)

    # After a restart the server-side path is gone: Confirm asks again instead of guessing.
    client, task = await _start_bot(fake, tmp_path / "db.sqlite3")
    try:
        edits = step.edits
        ix = await fake.click(alice, step, confirm)
        await fake.wait_for(lambda: step.edits > edits, 10, "the re-ask")
        assert t("en", "discord.play.path_lost") in step.text()
        assert await client.service.pending_for_user(info.id, alice.id), "nothing was played"
        # Walk again (short ids this time are not needed: any path works) and play.
        (select,) = step.selects()
        edits = step.edits
        await fake.select(alice, step, select["custom_id"], ["t01"])
        await fake.wait_for(lambda: step.edits > edits, 10, "step 2")
        for _ in range(2):
            btn = next(b for b in step.buttons() if b["custom_id"].startswith("g:a:") and
                       b.get("label") != t("en", "discord.button.back"))
            edits = step.edits
            await fake.click(alice, step, btn["custom_id"])
            await fake.wait_for(lambda e=edits: step.edits > e, 10, "next")
        edits = step.edits
        await fake.click(alice, step, next(c for c in step.custom_ids() if c.startswith("g:c:")))
        await fake.wait_for(lambda: step.edits > edits, 10, "played")
        assert step.text().startswith(t("en", "discord.play.done", action="")[:6])
        assert step.custom_ids() == []
        assert await client.service.pending_for_user(info.id, bob.id)
        # The post that was current before the restart lost its "Take your turn" button: the
        # newest status post is remembered in the match's meta, not only in memory.
        await fake.wait_for(lambda: turn_id not in fake.messages[post.id].custom_ids(), 10,
                            "the old post's button to be retired")
    finally:
        await _stop(client, task)
