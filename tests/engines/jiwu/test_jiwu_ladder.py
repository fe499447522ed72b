"""The 极武三国 level ladder (issue 23), pinned on fixed seeds: hard over normal, normal over easy,
easy over the random walker. Each rung asks the rate to reach the issue's target less a stated
margin (the samples are small, so the margin is the noise of 100–600 games) and the 95 %
interval's lower bound above 50 %.

The rungs of normal and easy are on tuning seeds (100000–199999). Hard over normal is pinned at
2 players on round 2's fresh seeds 964000–964599 (57.2 %; hard's 2-player moves are unchanged
since, round 3's fresh seeds 972000–972999 read 58.2 % and round 4's 978000–978999 59.2 %,
docs/rules/jiwu.md, "AI levels").
At 3 and 4 players (aimed at the leader since round 3) it is not pinned here: a rung there
would need some 1 000 games to tell its few points from the noise, minutes of CPU a rung; the
fast tests pin what it does (``test_jiwu_levels.py``). The whole file took 2 min 49 s (1 min 25 s
of CPU) in round 4 on the shared machine at a load of about 4 (round 3: 2 min of CPU); slow.
"""

from __future__ import annotations

import pytest

from engines.jiwu import ENGINE
from engines.selfplay import ladder

#: (a, b, seats, first seed, games, least rate): the issue's targets 60 / 70 / 80 % less the margin.
RUNGS = [
    ("hard", "normal", 2, 964000, 600, 0.57),
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
