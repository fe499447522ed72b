"""A ``random.Random`` seeded on its first draw, for the AI's per-move generators.

The service hands every AI move and time-out a generator seeded from (match, version)
(``core.default_ai_rng``), so a replayed or retried move is the same move. Seeding a Mersenne
Twister from a string costs ~16-20 µs (SHA-512 of the string, then 624 words of state), and in
bench run_due none of the ~7 000 generators made for a round was drawn from: the AIs decide from
the state's own RNG or deterministically. Seeding on the first draw instead gives the very same
numbers (a seed sets the whole state) at no cost when nothing is drawn.
"""

from __future__ import annotations

import random
from typing import Any


def _seed_now(rng: random.Random) -> random.Random:
    """Seed ``rng`` if it is still waiting, turning it into a plain ``random.Random`` (whose C
    methods then answer directly, with no check per draw)."""
    if "_seed_later" in rng.__dict__:
        seed = rng.__dict__.pop("_seed_later")
        rng.__class__ = random.Random
        random.Random.__init__(rng, seed)
    return rng


class LazyRandom(random.Random):
    """``random.Random(seed)``, seeded when first drawn from. Every draw of ``random.Random`` goes
    through ``random`` or ``getrandbits`` (its C methods), and the state through ``getstate``,
    ``setstate`` and ``seed``: those seed first. (Called through the class, not ``self``: a
    method bound before the first draw — ``_randbelow`` keeps ``self.getrandbits`` in a loop —
    still works after the class became ``random.Random``.)"""

    def __new__(cls, seed: Any = None) -> LazyRandom:
        return super().__new__(cls, 0)  # the C constructor would seed: a cheap int seed, replaced later

    def __init__(self, seed: Any = None) -> None:  # no super().__init__: that seeds
        self._seed_later = seed
        self.gauss_next = None  # read by gauss() before it draws

    def random(self) -> float:
        return random.Random.random(_seed_now(self))

    def getrandbits(self, k: int) -> int:
        return random.Random.getrandbits(_seed_now(self), k)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        random.Random.seed(_seed_now(self), *args, **kwargs)

    def getstate(self) -> tuple[Any, ...]:
        return random.Random.getstate(_seed_now(self))

    def setstate(self, state: tuple[Any, ...]) -> None:
        random.Random.setstate(_seed_now(self), state)
