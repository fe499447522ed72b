"""The AI's per-move generator (``core.default_ai_rng``) is seeded on its first draw
(``service.lazy_random``): the same numbers as ``random.Random`` seeded at once, for every way
of drawing, and no seeding at all for a move that draws nothing (bench run_due: ~7 000 seeds of
~16-20 µs a round, none drawn from)."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from service.core import default_ai_rng
from service.lazy_random import LazyRandom

DRAWS: dict[str, Callable[[random.Random], Any]] = {
    "random": lambda r: [r.random() for _ in range(5)],
    "choice": lambda r: [r.choice("abcdefghij") for _ in range(20)],
    "shuffle": lambda r: (lambda xs: (r.shuffle(xs), xs)[1])(list(range(30))),
    "randrange": lambda r: [r.randrange(10 ** 6) for _ in range(5)],
    "randint": lambda r: [r.randint(1, 6) for _ in range(10)],
    "sample": lambda r: r.sample(range(100), 7),
    "choices": lambda r: r.choices("abc", weights=[1, 2, 3], k=8),
    "gauss": lambda r: [r.gauss(0, 1) for _ in range(5)],
    "uniform": lambda r: r.uniform(1, 5),
    "getrandbits": lambda r: r.getrandbits(77),
    "randbytes": lambda r: r.randbytes(9),
    "getstate": lambda r: r.getstate(),
    "deepcopy": lambda r: (lambda c: [c.random(), r.random()])(copy.deepcopy(r)),
    "pickle": lambda r: pickle.loads(pickle.dumps(r)).random(),
}


@pytest.mark.parametrize("how", sorted(DRAWS))
def test_the_same_numbers_as_a_generator_seeded_at_once(how: str) -> None:
    for seed in ("ai:5:9", "ai:123:0", 42):
        lazy, eager = LazyRandom(seed), random.Random(seed)
        assert DRAWS[how](lazy) == DRAWS[how](eager)
        assert [lazy.random() for _ in range(3)] == [eager.random() for _ in range(3)]  # and on from there
        assert type(lazy) is random.Random


def test_setstate_and_seed_before_any_draw() -> None:
    eager = random.Random("x")
    state = eager.getstate()
    lazy = LazyRandom("y")
    lazy.setstate(state)
    assert lazy.random() == eager.random()
    lazy2 = LazyRandom("y")
    lazy2.seed("z")
    assert lazy2.random() == random.Random("z").random()


def test_the_ai_generator_is_not_seeded_until_drawn_from(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds: list[Any] = []
    real = random.Random.seed

    def seed(self: random.Random, *args: Any, **kwargs: Any) -> None:
        seeds.append(args[:1])
        real(self, *args, **kwargs)

    monkeypatch.setattr(random.Random, "seed", seed)
    rng = default_ai_rng(7, 3)
    assert seeds == []
    first = rng.random()
    assert seeds == [("ai:7:3",)]
    monkeypatch.undo()
    assert first == random.Random("ai:7:3").random()
