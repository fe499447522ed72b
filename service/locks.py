"""One asyncio.Lock per match, created on demand and dropped when nobody holds or awaits it.

A WeakValueDictionary keeps memory flat with thousands of idle matches: a lock lives exactly as
long as some coroutine references it (holding it or waiting for it).
"""

from __future__ import annotations

import asyncio
import weakref


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: int) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    def __len__(self) -> int:
        return len(self._locks)
