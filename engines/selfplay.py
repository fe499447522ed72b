"""Self-play between AI levels: one way to play a seeded game with a level per seat, and the
ladder figure every game reports (issue 23: "hard beats normal ≥ 60 %, normal beats easy ≥ 70 %,
easy beats random ≥ 80 %").

The ``random`` level is the uniform random walker (:func:`engines.adapter.random_action`), the
baseline every level must beat; it is not offered in lobbies. Every other level goes through the
engine's own ``ai_action``, so self-play measures exactly what a player meets.

The ladder figure is a per-seat rate, so it reads the same at every table size: with seats split
between levels A and B, ``rate(A over B) = a / (a + b)`` where ``a`` and ``b`` are the win rates
per seat of A's and B's seats. In a two-player game that is A's share of the games won; at an even
split of a larger table it is A's share of the wins; at an odd split it corrects for A's having a
seat more or less. Seat positions alternate between the levels and swap from one seed to the next,
so neither level keeps the start seat. A game a level cannot finish (no result after
``max_actions``) counts for neither and is reported.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from engines.adapter import random_action
from engines.base import Engine, Result, State

#: The baseline level: uniformly random legal actions.
RANDOM = "random"

#: ``assign(seats, seed, a, b)`` → the level of each seat.
Assign = Callable[[int, int, str, str], list[str]]


def alternate(seats: int, seed: int, a: str, b: str) -> list[str]:
    """A and B on alternate seats; the even seeds give A seat 0, the odd ones B (so at an odd
    table size A has the extra seat in half the games)."""
    first, second = (a, b) if seed % 2 == 0 else (b, a)
    return [first if i % 2 == 0 else second for i in range(seats)]


@dataclass
class Game:
    """One finished (or abandoned) self-play game."""

    levels: list[str]
    result: Result | None
    actions: int
    #: Decision times in ms, by level.
    decide_ms: dict[str, list[float]] = field(default_factory=dict)
    state: State | None = None


def act(engine: Engine, state: State, seat: int, rng: random.Random, level: str, request: object) -> list[str]:
    """The action of a seat playing at ``level`` (``random``: the random walker)."""
    if level == RANDOM:
        return random_action(engine, state, seat, rng)
    return engine.ai_action(state, seat, rng, level, request)  # type: ignore[arg-type]


def play(engine: Engine, options: dict[str, str], levels: Sequence[str], seed: int, *,
         max_actions: int = 20000, keep_state: bool = False) -> Game:
    """Play one game from ``seed`` with ``levels[i]`` at seat ``i``; every request is answered
    in the order the engine lists them, as the service does with AI seats."""
    state = engine.new_state(engine.normalize_options(options), len(levels), seed)
    rng = random.Random(seed * 7919 + 17)
    times: dict[str, list[float]] = {lv: [] for lv in set(levels)}
    actions = 0
    while actions < max_actions and (pending := engine.pending(state)):
        req = pending[0]
        level = levels[req.seat]
        t0 = time.perf_counter()
        action = act(engine, state, req.seat, rng, level, req)
        times[level].append((time.perf_counter() - t0) * 1000)
        state, _ = engine.apply(state, req.seat, action, req)
        actions += 1
    return Game(list(levels), engine.result(state), actions, times, state if keep_state else None)


@dataclass
class Ladder:
    """The tally of A against B over many games."""

    a: str
    b: str
    games: int = 0
    unfinished: int = 0
    #: Seat-games and wins of each side.
    seats_a: int = 0
    seats_b: int = 0
    wins_a: int = 0
    wins_b: int = 0
    #: Games in which some A seat won / some B seat won.
    games_won_a: int = 0
    games_won_b: int = 0
    decide_ms: dict[str, list[float]] = field(default_factory=dict)

    def add(self, game: Game) -> None:
        self.games += 1
        for level, ms in game.decide_ms.items():
            self.decide_ms.setdefault(level, []).extend(ms)
        if game.result is None:
            self.unfinished += 1
            return
        winners = set(game.result.winners)
        for seat, level in enumerate(game.levels):
            side_a = level == self.a
            won = seat in winners
            if side_a:
                self.seats_a += 1
                self.wins_a += won
            else:
                self.seats_b += 1
                self.wins_b += won
        self.games_won_a += any(game.levels[s] == self.a for s in winners)
        self.games_won_b += any(game.levels[s] != self.a for s in winners)

    @property
    def rate(self) -> float:
        """a / (a + b) of the per-seat win rates (see the module docstring); nan without wins."""
        ra = self.wins_a / self.seats_a if self.seats_a else 0.0
        rb = self.wins_b / self.seats_b if self.seats_b else 0.0
        return ra / (ra + rb) if ra + rb else float("nan")

    def bounds(self) -> tuple[float, float]:
        """A 95 % interval of :attr:`rate`, by the Wilson interval of the decisive games
        weighted to the per-seat rate (exact for two players and even splits)."""
        n = self.games - self.unfinished
        if n == 0 or self.rate != self.rate:
            return float("nan"), float("nan")
        k = self.rate * n
        z = 1.96
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
        return centre - half, centre + half


def ladder(engine: Engine, options: dict[str, str], seats: int, a: str, b: str, seeds: Iterable[int], *,
           assign: Assign = alternate, max_actions: int = 20000,
           on_game: Callable[[Game], None] | None = None) -> Ladder:
    """A against B at ``seats`` seats over ``seeds``."""
    tally = Ladder(a, b)
    for seed in seeds:
        game = play(engine, options, assign(seats, seed, a, b), seed, max_actions=max_actions)
        tally.add(game)
        if on_game is not None:
            on_game(game)
    return tally

