"""Per-channel pacing of the bot's own posts and edits (the publisher's send coalescer).

Discord allows about 5 message creates/edits per 5 s per channel and answers 429 beyond that;
discord.py then sleeps and retries, so players watch the bot stall behind its own queue. The
publisher therefore makes at most one post or edit per channel per ``interval`` (~1.5 s, which
leaves room for anything else in the channel). Folding is done where the updates come from:
the service waits for :meth:`ChannelPacer.settle` before it reads a match's undelivered changes,
so changes committed meanwhile go out in the same (single) post or edit, newest content winning.

Calls that carry news (posts, the live post's edit, DMs) are awaited in their slot, so the
outbox row is marked delivered only after they really went out. Only cosmetic edits (dropping
the buttons of a superseded post) are queued with :meth:`ChannelPacer.defer`: one per message,
the newest request for a message replacing an older one, sent in the channel's next free slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from typing import Any

from service.locks import KeyedLocks

log = logging.getLogger(__name__)


class ChannelPacer:
    """At most one call per key (a channel id, or ``("dm", user id)``) per ``interval`` seconds."""

    def __init__(self, interval: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.interval = max(0.0, interval)
        self._clock = clock
        self._next: dict[Hashable, float] = {}  # key -> earliest moment of its next call
        self._locks = KeyedLocks()
        self._deferred: dict[Hashable, dict[Hashable, Callable[[], Awaitable[object]]]] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        #: Several processes posting into one channel (a shared PostgreSQL store): ``reserve(channel,
        #: interval)`` takes the channel's next slot for all of them and returns the seconds to wait
        #: for it (the bot sets it; None: this process's pace is the channel's).
        self.reserve: Callable[[int, float], Awaitable[float]] | None = None
        #: The bot's request bucket (Discord's global limit). Taken inside the channel's slot so
        #: the channel's spacing starts when the call really goes: taken after it, a backlog in
        #: the global bucket released a channel's paced calls together (429 from the channel).
        self.requests: GlobalPacer | None = None

    def wait_for(self, key: Hashable) -> float:
        """Seconds until ``key`` may be used again (0: now)."""
        return max(0.0, self._next.get(key, float("-inf")) - self._clock())

    async def settle(self, key: Hashable) -> None:
        """Wait until ``key`` is free, without taking the slot (the caller's next call takes it)."""
        wait = self.wait_for(key)
        if wait > 0:
            await asyncio.sleep(wait)

    async def slot(self, key: Hashable) -> None:
        """Wait for ``key``'s turn and take it: call this right before the post or edit."""
        if self.interval <= 0:
            return
        async with self._locks(key):  # type: ignore[arg-type]  # any hashable key works
            wait = self.wait_for(key)
            if wait > 0:
                await asyncio.sleep(wait)
            if self.reserve is not None and isinstance(key, int):
                try:
                    wait = await self.reserve(key, self.interval)
                except Exception:  # pacing is a courtesy: post on this process's pace alone
                    log.warning("shared channel slot unavailable", extra={"channel": str(key)}, exc_info=True)
                    wait = 0.0
                if wait > 0:
                    await asyncio.sleep(wait)
            if self.requests is not None:
                await self.requests.take_ahead()
            self._next[key] = self._clock() + self.interval

    def defer(self, key: Hashable, item: Hashable, call: Callable[[], Awaitable[object]]) -> None:
        """Run ``call`` in ``key``'s next free slot, replacing a queued call for the same ``item``.

        Best effort (errors are logged, a restart forgets the queue): only for edits whose loss
        costs nothing but looks (a superseded post keeping its buttons, which answer "out of date").
        """
        self._deferred.setdefault(key, {})[item] = call
        worker = self._workers.get(key)
        if worker is None or worker.done():
            self._workers[key] = asyncio.get_running_loop().create_task(self._work(key), name=f"pacer-{key}")

    def discard(self, key: Hashable, item: Hashable) -> None:
        """Drop ``item``'s queued call, if any (a call made now supersedes it)."""
        self._deferred.get(key, {}).pop(item, None)

    async def _work(self, key: Hashable) -> None:
        queue = self._deferred.get(key, {})
        while queue:
            await self.slot(key)
            item = next(iter(queue))
            call = queue.pop(item)
            try:
                await call()
            except Exception:
                log.warning("deferred channel call failed", extra={"channel": str(key)}, exc_info=True)
        self._deferred.pop(key, None)

    async def flush(self) -> None:
        """Wait until every deferred call went out (tests, shutdown)."""
        while workers := [w for w in self._workers.values() if not w.done()]:
            with contextlib.suppress(Exception):
                await asyncio.gather(*workers)


#: Discord's global limit is 50 requests/s per bot, whichever process sends them, counted when
#: they arrive. The bot stays at most ``GLOBAL_BURST + GLOBAL_RATE`` (38) per second when it
#: sends them; the rest is room for jitter (a process that stalls sends its paced requests
#: late and together) and discord.py's own retries. At 40/s + 5 the 30-match cluster test still
#: drew a global 429 (arrivals peaked at 50 in a second).
GLOBAL_RATE = 35.0
GLOBAL_BURST = 3
#: The shared bucket's key in the ``channel_pace`` table (no Discord channel has id 0).
GLOBAL_KEY = 0
#: Set in a task that took its next request's slot ahead (``GlobalPacer.take_ahead``).
_slot_taken: ContextVar[bool] = ContextVar("request_slot_taken", default=False)


class GlobalPacer:
    """Keeps all the bot's REST requests (interaction answers aside: Discord exempts them) under
    ``rate`` per second with bursts of up to ``burst``: a GCRA bucket, kept in memory, or, with
    several processes on one PostgreSQL store, in the store (``reserve``, the ``channel_pace``
    row ``GLOBAL_KEY``), so the processes together stay under the limit instead of each one.

    Why: discord.py only reacts to Discord's global 429 (it then holds the process's requests);
    the e2e cluster test with 30 matches over three processes drew 2 528 such answers before
    the requests were paced here. In any second at most ``burst + rate`` requests start."""

    def __init__(self, rate: float = GLOBAL_RATE, burst: int = GLOBAL_BURST, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.interval = 1.0 / rate
        self.tolerance = (max(1, burst) - 1) * self.interval
        self._clock = clock
        self._tat = float("-inf")  # the local bucket's theoretical arrival time
        #: ``reserve(GLOBAL_KEY, interval)``: the shared bucket's next slot for every process,
        #: as seconds from now (the bot sets it on PostgreSQL; None: this process's bucket).
        self.reserve: Callable[[int, float], Awaitable[float]] | None = None

    def _local(self) -> float:
        now = self._clock()
        start = max(self._tat, now)
        self._tat = start + self.interval
        return start - now

    async def wait(self) -> None:
        """Take the next request slot, sleeping when the bucket is empty."""
        wait = None
        if self.reserve is not None:
            try:
                wait = await self.reserve(GLOBAL_KEY, self.interval)
            except Exception:  # pacing is a courtesy: fall back on this process's own bucket
                log.warning("shared request slot unavailable", exc_info=True)
        if wait is None:
            wait = self._local()
        if wait - self.tolerance > 0:
            await asyncio.sleep(wait - self.tolerance)

    async def take_ahead(self) -> None:
        """Take the slot of this task's next request now (it then goes without waiting)."""
        await self.wait()
        _slot_taken.set(True)

    def install(self, http: Any) -> None:
        """Pace every request of discord.py's ``HTTPClient`` (``bot.http``). Interaction
        answers go through discord.py's webhook adapter, not through it, so they are not held."""
        request = http.request

        async def paced(route: Any, **kwargs: Any) -> Any:
            if _slot_taken.get():
                _slot_taken.set(False)
            else:
                await self.wait()
            return await request(route, **kwargs)

        http.request = paced
