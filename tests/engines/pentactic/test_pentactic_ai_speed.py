"""The AI's speed-ups (issue 22) change no decision: the shortcuts agree with the plain
computations they replace, and seeded games play exactly the moves they played before them.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engines.pentactic import ENGINE
from engines.pentactic.ai import _Area, components, part_capacity, region_capacity
from engines.pentactic.geometry import BOARDS, geometry, nth_bit, placement_index


def _random_free(g, rng: random.Random) -> int:
    occ = 0
    for _ in range(rng.randrange(0, g.width * g.height // 2)):
        occ |= 1 << rng.randrange(g.width * g.height)
    return g.full & ~occ


@pytest.mark.parametrize("board", list(BOARDS))
def test_capacity_from_parts_equals_a_full_flood(board: str) -> None:
    w, h = BOARDS[board]
    g = geometry(w, h)
    index = placement_index(w, h)
    rng = random.Random(3)
    for _ in range(300):
        free = _random_free(g, rng)
        area = _Area(g, free)
        assert area.cap == region_capacity(g, free)
        fits = [pl.mask for pl in index.order if pl.mask & free == pl.mask]
        for mask in rng.sample(fits, min(5, len(fits))):
            assert area.capacity(mask) == region_capacity(g, free & ~mask)
        for i in range(w * h):
            if free >> i & 1:
                assert area.capacity_less_square(i) == region_capacity(g, free & ~(1 << i))


def test_part_capacity_of_a_split_area() -> None:
    g = geometry(8, 8)
    column = sum(1 << (y * 8 + 3) for y in range(8))
    # An empty board less column d: two parts of 24 and 32 squares.
    assert part_capacity(g, g.full & ~column, column) == 24 // 5 + 32 // 5
    assert [size for _, size in components(g, g.full & ~column)] == [24, 32]


def test_nth_bit_is_the_kth_set_bit() -> None:
    rng = random.Random(5)
    for _ in range(200):
        bits = rng.getrandbits(rng.choice((8, 70, 900, 2500)))
        ones = [i for i in range(bits.bit_length()) if bits >> i & 1]
        for k in rng.sample(range(len(ones)), min(10, len(ones))):
            assert nth_bit(bits, k) == ones[k]


def test_seeded_games_play_the_moves_they_played_before_the_speed_up() -> None:
    """Every mode and board size at the normal level: a hash of all the AI's moves, taken with
    the code of commit 4346e2f (before the speed-up). A different move anywhere changes it."""
    h = hashlib.sha256()
    tables = [("1", "8x8", 2), ("2", "9x7", 2), ("2", "11x6", 2), ("3", "8x8", 3), ("1", "11x6", 2),
              ("2", "8x8", 2), ("3", "9x7", 4), ("4", "8x8", 1)]
    for g, (mode, board, seats) in enumerate(tables):
        state = ENGINE.new_state({"mode": mode, "board": board}, seats, 4242 + g)
        rng = random.Random(g)
        while pending := ENGINE.pending(state):
            action = ENGINE.ai_action(state, pending[0].seat, rng, "normal")
            h.update(json.dumps(action).encode())
            state, _ = ENGINE.apply(state, pending[0].seat, action)
    assert h.hexdigest()[:16] == "5a749d7153dbb4c8"
