"""Drives time: runs ``run_due`` as a background asyncio task.

All deadlines, reminders and undelivered changes live in the database, so the scheduler holds
no state of its own: a fresh one after a restart simply picks up where the old one stopped.

Between rounds it sleeps until the earliest of: the end of its interval (undelivered changes and
AI retries are picked up then), the service's ``next_due_at()`` (a human request's reminder or
deadline, a lobby's expiry), or a time announced by :meth:`Scheduler.reschedule` (the service
calls it after a commit that armed something new). A one-minute turn thus times out on time,
not up to an interval late. ``stop()`` lets a round in progress finish (up to a grace period)
instead of cancelling it in the middle of publishing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

#: After a round that left something already due behind (a backlog over ``run_due``'s limit, or
#: an item that keeps failing), the next round comes after this gap, doubled each time such a
#: round follows, up to the interval: fast catch-up without a busy loop.
MIN_GAP = 0.05


class DueRunner(Protocol):
    """What the scheduler drives: normally the MatchService, or a wrapper around it.

    It may also have ``async def next_due_at(self) -> float | None`` (same clock as the
    scheduler's); without it the scheduler runs once per interval.
    """

    async def run_due(self) -> int: ...


class Scheduler:
    def __init__(self, service: DueRunner, interval: float = 5.0, *,
                 clock: Callable[[], float] = time.time) -> None:
        """``clock`` must be the service's clock (due times are compared with it)."""
        self.service = service
        self.interval = interval
        self.runs = 0
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._signal = asyncio.Event()
        self._run_now = False
        self._due_at: float | None = None  # earliest known due time (service clock)
        self._behind = 0

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def due_at(self) -> float | None:
        """When the next round is expected at the latest for due work (None: interval only)."""
        return self._due_at

    def start(self) -> None:
        """Start the loop on the running event loop (idempotent); the first round runs at once."""
        if not self.running:
            self._stopping = False
            self._run_now = False
            self._signal = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._loop(), name="match-scheduler")

    def wake(self) -> None:
        """Run the next round now instead of at the end of the interval."""
        self._run_now = True
        self._signal.set()

    def reschedule(self, at: float) -> None:
        """Something becomes due at ``at`` (service clock): run a round then if that is earlier
        than the round already planned. Cheap; called by the service after commits."""
        if self._due_at is None or at < self._due_at:
            self._due_at = at
            self._signal.set()

    async def stop(self, grace: float = 10.0) -> None:
        """Stop after the round in progress (cancelled only if it takes longer than ``grace``)."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self._signal.set()
        try:
            await asyncio.wait_for(asyncio.shield(task), grace)
        except TimeoutError:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        while not self._stopping:
            ok = True
            try:
                await self.service.run_due()
            except Exception:  # one bad match must not stop the clock for all others
                log.exception("run_due failed")
                ok = False
            self.runs += 1
            await self._pause(ok)

    async def _next_due(self) -> float | None:
        next_due_at = getattr(self.service, "next_due_at", None)
        if next_due_at is None:
            return None
        try:
            return await next_due_at()
        except Exception:
            log.exception("next_due_at failed")
            return None

    async def _pause(self, ok: bool) -> None:
        """Sleep until the interval ends, the earliest due time comes, or ``wake()``."""
        end = time.monotonic() + self.interval
        # Commits announced before this point are visible to next_due_at; those announced while
        # it runs may not be, so they are merged in afterwards.
        self._due_at = None
        due = await self._next_due() if ok else None
        if self._due_at is not None:
            due = self._due_at if due is None else min(due, self._due_at)
        self._due_at = due
        if due is not None and due <= self._clock():
            end = time.monotonic() + min(self.interval, MIN_GAP * 2 ** self._behind)
            self._behind += 1
            self._due_at = None
        else:
            self._behind = 0
        while not self._stopping:
            delay = end - time.monotonic()
            if self._due_at is not None:
                delay = min(delay, self._due_at - self._clock())
            if delay <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._signal.wait(), delay)
            self._signal.clear()
            if self._run_now:
                self._run_now = False
                return
