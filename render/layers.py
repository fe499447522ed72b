"""Recently drawn picture layers, kept so the next picture of a match starts from them.

A bot process draws the pictures of many matches, in worker threads, and consecutive pictures of
one match share most of their pixels (the Risk map with its owner colours, the 鬪三國 tile map,
the 极武三国 board). A renderer keeps such a layer here under a key saying what it holds, looks
for the cached layer closest to what it needs, and draws only the difference; the result must be
the picture drawn whole, pixel for pixel (each renderer's cache test checks it). The cache holds
a few layers of a few MB each, whatever the number of matches: a layer that no render comes back
to is dropped for newer ones.
"""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LayerCache(Generic[K, V]):
    """At most ``size`` (key, layer) pairs, most recently stored first. Layers are shared between
    threads: a caller copies one before drawing on it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: list[tuple[K, V]] = []
        self._lock = threading.Lock()

    def entries(self) -> list[tuple[K, V]]:
        """The cached pairs, most recent first (a snapshot: safe to iterate while others store)."""
        with self._lock:
            return list(self._entries)

    def put(self, key: K, layer: V) -> None:
        with self._lock:
            kept = [e for e in self._entries if e[0] != key]
            self._entries = [(key, layer), *kept][: self.size]

    def clear(self) -> None:
        with self._lock:
            self._entries = []
