"""Fixtures for end-to-end tests: a started FakeDiscord with discord.py pointed at it, and a
runner that starts clients (our own small bots or the real one) and always closes them."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import zlib
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
from e2e_support import ClientRunner, RealBots, Table

from fakediscord import FakeDiscord
from fakediscord.server import CHANNEL_RATE_LIMIT

#: How much faster than Discord the e2e fake's rate limit runs by default.
TIME_SCALE = 10


@pytest.fixture(autouse=True)
def _seeded_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every match an e2e test starts is dealt from a seed fixed by the test's name (the n-th
    match of a test gets the n-th seed), so a CI run plays the games a developer's run played: a
    random deal once made a whole-game test fail one run in twenty (a seat reached its goal before
    the moment the test was about). ``E2E_SEED=k`` shifts every seed, to try other deals."""
    import types

    import service.lobby as lobby

    base = zlib.crc32(request.node.nodeid.encode()) + int(os.environ.get("E2E_SEED", "0"))
    counter = itertools.count()
    monkeypatch.setattr(lobby, "secrets", types.SimpleNamespace(
        randbits=lambda bits: (base * 1_000_003 + next(counter)) % (1 << bits)))


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    logging.getLogger("discord").setLevel(logging.WARNING)
    server = FakeDiscord()
    # Discord's channel bucket (5 posts/edits per 5 s) at ten times the speed: every e2e game
    # still proves the publisher never trips it, without waiting real seconds between posts.
    # Tests about the real pace set ``fake.rate_limit = CHANNEL_RATE_LIMIT`` before the bot starts.
    server.rate_limit = (CHANNEL_RATE_LIMIT[0], CHANNEL_RATE_LIMIT[1] / TIME_SCALE)
    await server.start()
    with server.patch_discord():
        yield server
    await server.close()


@pytest.fixture
async def run_client(fake: FakeDiscord) -> AsyncIterator[ClientRunner]:
    """``task = await run_client(bot)``: log in, connect, wait until the fake has a live session."""
    started: list[tuple[discord.Client, asyncio.Task[None]]] = []

    async def start(client: discord.Client) -> asyncio.Task[None]:
        before = fake.gateway.identify_count
        task = asyncio.create_task(client.start(fake.token), name=f"client-{len(started)}")
        started.append((client, task))
        await fake.wait_for(lambda: task.done() or (fake.gateway.identify_count > before
                                                    and fake.gateway.connected()),
                            15, "the client to identify")
        if task.done():
            task.result()  # surface the start-up error
        return task

    yield start
    for client, task in reversed(started):
        if not client.is_closed():
            await client.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, 5)


@pytest.fixture
async def real_bots(fake: FakeDiscord, run_client: ClientRunner, tmp_path: Path) -> AsyncIterator[RealBots]:
    yield RealBots(fake, run_client, tmp_path / "bot.sqlite3")


@pytest.fixture
def table(fake: FakeDiscord) -> Table:
    return Table(fake)
