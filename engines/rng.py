"""A small deterministic random generator whose whole state is one int kept inside the game state.

Python's ``random.Random`` state is 625 numbers and not JSON-friendly; keeping a single 64-bit
counter in the state makes ``replay(seed, actions) == state`` hold trivially and keeps saved
matches small. The generator is SplitMix64, which passes BigCrush and is plenty for dice and
shuffles.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """Draws from ``holder[key]`` and writes the advanced counter back after every draw."""

    def __init__(self, holder: MutableMapping[str, Any], key: str = "rng") -> None:
        self._holder = holder
        self._key = key
        if key not in holder:
            holder[key] = 0

    @staticmethod
    def seed_value(seed: int) -> int:
        return seed & _MASK

    def _next(self) -> int:
        x = (self._holder[self._key] + 0x9E3779B97F4A7C15) & _MASK
        self._holder[self._key] = x
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform int in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            v = self._next()
            if v < limit:
                return v % n

    def randint(self, a: int, b: int) -> int:
        return a + self.below(b - a + 1)

    def die(self) -> int:
        return self.randint(1, 6)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        """``count`` throws of ``randint(1, sides)``, the same numbers in the same order, with the
        generator inlined: Risk's blitzes throw thousands of dice per game."""
        limit = (_MASK + 1) - ((_MASK + 1) % sides)
        x = self._holder[self._key]
        out = []
        for _ in range(count):
            while True:
                x = (x + 0x9E3779B97F4A7C15) & _MASK
                z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            out.append(1 + z % sides)
        self._holder[self._key] = x
        return out

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        pool = list(seq)
        self.shuffle(pool)
        return pool[:k]
