"""SIGTERM and SIGINT (Ctrl-C) against the real run_bot on the local fake Discord: clean close, database closed; the
start-up wiring (renderer warm-up, scheduler told of new deadlines)."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
from pathlib import Path

import pytest

import bot as botmod
from app_settings import Settings
from fakediscord import FakeDiscord


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_signal_stops_scheduler_and_closes_database(tmp_path: Path, sig: signal.Signals) -> None:
    server = FakeDiscord()
    await server.start()
    try:
        with server.patch_discord():
            settings = Settings(token=server.token, database_path=tmp_path / "sub" / "bot.sqlite3",
                                scheduler_interval=0.2)
            client = botmod.create_bot(settings)
            task = asyncio.create_task(botmod.run_bot(settings, bot=client))
            await server.wait_for(lambda: task.done() or client.scheduler is not None, 15, "the set-up to finish")
            assert not task.done(), task.exception() if task.done() else None
            assert (tmp_path / "sub" / "bot.sqlite3").exists(), "the database is created on first start"
            assert client.scheduler is not None and client.scheduler.running
            # New deadlines reach the scheduler; the map cache was warmed in the background.
            assert client.service._due_listener == client.scheduler.reschedule
            assert client.warm_up is not None
            assert await asyncio.wait_for(client.warm_up, 15) == ["render.risk", "render.kingdoms_battle"]
            os.kill(os.getpid(), sig)
            await asyncio.wait_for(task, 15)
            assert client.is_closed() and client.closing_down
            assert client.store is None and not client.scheduler.running
    finally:
        await server.close()
    # The handler was removed again: Python's own disposition is back (Ctrl-C raises
    # KeyboardInterrupt again, SIGTERM ends the process).
    default = signal.default_int_handler if sig == signal.SIGINT else signal.SIG_DFL
    assert signal.getsignal(sig) is default


async def test_warm_up_skips_what_it_cannot_prepare() -> None:
    # No such module, and a module without prepare(): neither stops the bot.
    assert await botmod.warm_renderers(("no_such_module_here", "json")) == []


async def test_warm_up_settles_the_heap() -> None:
    """What start-up built is moved out of the garbage collector's walk (its full collections
    held the GIL for 15-22 ms, stopping the event loop)."""
    gc.unfreeze()
    try:
        await botmod.warm_renderers(("json",))
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
