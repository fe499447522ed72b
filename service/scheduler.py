"""Drives time: runs ``run_due`` every few seconds as a background asyncio task.

All deadlines, reminders and undelivered changes live in the database, so the scheduler holds
no state of its own: a fresh one after a restart simply picks up where the old one stopped.
``stop()`` lets a round in progress finish (up to a grace period) instead of cancelling it in
the middle of publishing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

log = logging.getLogger(__name__)


class DueRunner(Protocol):
    """What the scheduler drives: normally the MatchService, or a wrapper around it."""

    async def run_due(self) -> int: ...


class Scheduler:
    def __init__(self, service: DueRunner, interval: float = 5.0) -> None:
        self.service = service
        self.interval = interval
        self.runs = 0
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._wake = asyncio.Event()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the loop on the running event loop (idempotent); the first round runs at once."""
        if not self.running:
            self._stopping = False
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="match-scheduler")

    def wake(self) -> None:
        """Run the next round now instead of at the end of the interval."""
        self._wake.set()

    async def stop(self, grace: float = 10.0) -> None:
        """Stop after the round in progress (cancelled only if it takes longer than ``grace``)."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._wake.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), grace)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        while not self._stopping:
            try:
                await self.service.run_due()
            except Exception:  # one bad match must not stop the clock for all others
                log.exception("run_due failed")
            self.runs += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)
            self._wake.clear()
