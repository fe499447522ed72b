"""The 极武三国 level ladder (issue 23), pinned on fixed seeds of the tuning range
(100000–199999; the reported figures in docs/rules/jiwu.md are on fresh seeds 940000+): hard
over normal, normal over easy, easy over the random walker, each with the 95 % interval's lower
bound above 50 % and the rate at least the issue's target less a stated margin (the samples are
small, so the margin is the noise of 100–200 games). Hard over normal is pinned at 2 players
only: at 3 and 4 the fresh-seed ladder found hard no stronger than normal (docs/rules/jiwu.md,
"AI levels"). About 1 minute of CPU (3 min 9 s on the shared, loaded machine); slow.
"""

from __future__ import annotations

import pytest

from engines.jiwu import ENGINE
from engines.selfplay import ladder

#: (a, b, seats, first seed, games, least rate): the issue's targets 60 / 70 / 80 % less the margin.
RUNGS = [
    ("hard", "normal", 2, 101000, 200, 0.55),
    ("normal", "easy", 2, 100000, 100, 0.70),
    ("normal", "easy", 3, 100000, 100, 0.70),
    ("easy", "random", 2, 100000, 40, 0.80),
    ("easy", "random", 4, 100000, 40, 0.80),
]


@pytest.mark.slow
@pytest.mark.parametrize("a, b, seats, first, games, least", RUNGS)
def test_rung(a: str, b: str, seats: int, first: int, games: int, least: float) -> None:
    tally = ladder(ENGINE, {}, seats, a, b, range(first, first + games))
    lo, _ = tally.bounds()
    assert tally.unfinished == 0
    assert lo > 0.5 and tally.rate >= least, (tally.rate, lo)
