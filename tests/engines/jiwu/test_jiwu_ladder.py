"""The 极武三国 level ladder (issue 23), pinned on fixed seeds: hard over normal, normal over easy,
easy over the random walker. Each rung asks the rate to reach the issue's target less a stated
margin (the samples are small, so the margin is the noise of 100–600 games) and the 95 %
interval's lower bound above 50 %.

The rungs of normal and easy are on tuning seeds (100000–199999). Hard over normal is pinned at
2, 3 and 4 players on round 5's tuning seeds from 110000 (hard holds its regions since round 5:
75.7 %, 66.5 % and 68.7 % on exactly these games; its fresh figures, seeds 986000–986999, are in
docs/rules/jiwu.md, "AI levels"; round 4's hard read 60.3 %, 48.5 % and 54.0 % on them). The
whole file took 2 min 28 s (as much CPU) in round 5 on the shared machine at a load of about 2
(round 4, with one hard rung: 2 min 49 s); slow.
"""

from __future__ import annotations

import pytest

from engines.jiwu import ENGINE
from engines.selfplay import ladder

#: (a, b, seats, first seed, games, least rate): the issue's targets 60 / 70 / 80 % less the margin
#: (hard at 2 players: well above its target, which these games read 75.7 %).
RUNGS = [
    ("hard", "normal", 2, 110000, 300, 0.70),
    ("hard", "normal", 3, 110000, 200, 0.60),
    ("hard", "normal", 4, 110000, 150, 0.60),
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
