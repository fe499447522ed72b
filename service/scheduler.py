"""Drives time: runs ``MatchService.run_due`` every few seconds as a background asyncio task.

All deadlines, reminders and undelivered changes live in the database, so the scheduler holds
no state of its own: a fresh one after a restart simply picks up where the old one stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from service.matches import MatchService

log = logging.getLogger(__name__)


class Scheduler:
    def __init__(self, service: MatchService, interval: float = 5.0) -> None:
        self.service = service
        self.interval = interval
        self.runs = 0
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the loop on the running event loop (idempotent)."""
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="match-scheduler")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        while True:
            try:
                await self.service.run_due()
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad match must not stop the clock for all others
                log.exception("run_due failed")
            self.runs += 1
            await asyncio.sleep(self.interval)
