"""The 鬪三國 AI ladder (issue 23), pinned: hard over normal, normal over easy, easy over the random
walker, at 3, 4 and 5 players, each on a fixed seed range (300000…: neither the tuning range
100000–199999 nor the reported 930000–930999), asserting that the 95 % interval's lower bound is
above 50 % (the targets are 60 / 70 / 80 %; the reported figures are in docs/rules/kingdoms_battle.md).

Slow (``-m slow``): about 30 minutes on the shared, loaded machine, estimated from the bench's
per-game costs on it (hard against normal 0.7 / 1.1 / 1.8 s a game at 3 / 4 / 5 players, the other
rungs 0.2–0.5 s); not yet run whole. Hard's edge at 4 players is the narrowest (56.8 % on the
reported range), so its rung has the most games.
"""

from __future__ import annotations

import pytest

from engines.kingdoms_battle import ENGINE
from engines.selfplay import RANDOM, ladder

#: (A, B, games): hard against normal needs the most games (its edge is the smallest).
RUNGS = [("hard", "normal", 400), ("normal", "easy", 200), ("easy", RANDOM, 100)]


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize(("a", "b", "games"), RUNGS)
def test_each_level_beats_the_one_below(seats: int, a: str, b: str, games: int) -> None:
    tally = ladder(ENGINE, {}, seats, a, b, range(300_000, 300_000 + games))
    lo, _hi = tally.bounds()
    assert tally.unfinished == 0
    assert lo > 0.5, (seats, a, b, tally.rate, lo)
