"""The Pentactic AI ladder (issue 23) pinned on a fixed seed range, in the default mode (2, two
players, 8x8): hard beats normal, normal beats easy, easy beats the random walker, each with the
95 % interval's lower bound above 50 % and the rate at most MARGIN below the issue's target; and
the three rungs in mode 3 at three seats, where normal over easy was the rung that missed
(65.6 %) before easy watched only its next player there, and hard over normal the one that met
its target only on the point estimate (61 %) before hard's discs were played out over the whole
table.

Seeds 300000-: neither the tuning range (100000-199999) nor the reported one (910000-); the
reported figures and the other modes are in docs/rules/pentactic.md, "AI levels".
Run time: 1 min 51 s for the mode-2 rungs on the shared 2-core machine (load ~5, hard:normal is
most of it), plus 50 s for the two mode-3 rungs (load ~7) and 2 min 12 s for hard's mode-3 rung
(load ~3); expect up to ~9 min when the machine is busier.
"""

from __future__ import annotations

import pytest

from engines.pentactic import ENGINE
from engines.selfplay import ladder

#: How far below the issue's target a rate on this sample may fall (its 95 % half-width is ~6-9 %).
MARGIN = 0.06


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "seats", "a", "b", "target", "games", "margin"), [
    ("2", 2, "hard", "normal", 0.60, 240, MARGIN),
    ("2", 2, "normal", "easy", 0.70, 200, MARGIN),
    ("2", 2, "easy", "random", 0.80, 200, MARGIN),
    # The rung issue 23's second round closed, asked at its target: 72.9 % here, 67.1 % with
    # the first round's easy (a random board for its discs).
    ("3", 3, "normal", "easy", 0.70, 200, 0.0),
    ("3", 3, "easy", "random", 0.80, 200, MARGIN),
    # Hard's rung at three seats in mode 3, asked at its target: the rung that read 61 % before
    # hard played its discs out over the whole table there (issue 23's third round).
    ("3", 3, "hard", "normal", 0.60, 200, 0.0),
])
def test_each_rung_of_the_ladder_holds(mode: str, seats: int, a: str, b: str, target: float, games: int,
                                       margin: float) -> None:
    tally = ladder(ENGINE, {"mode": mode}, seats, a, b, range(300_000, 300_000 + games))
    lo, _ = tally.bounds()
    assert tally.unfinished == 0
    assert lo > 0.5, (a, b, tally.rate, tally.bounds())
    assert tally.rate >= target - margin, (a, b, tally.rate, tally.bounds())
