"""The Risk AI ladder pinned on fixed seeds (issue 23): hard over normal, normal over easy, easy
over random, each rung where it is cheapest to measure with meaning. The rate is
``engines.selfplay``'s per-seat rate; the easy and normal rungs ask the 95 % interval's lower
bound to clear 50 % (easy over random: 80 %). Hard over normal asks the same of its 300 games
at 2 players since hard judges its placements after the rival's reply (63.0 %, 57.4-68.3, on
these seeds while tuning); the first round's hard (56.9 %) could only be asked to win more than
half. Since issue 23's fourth round hard searches 6 placements on 8 worlds (65.7 % over normal
on 100000-100999 while tuning, against 60.8 % for the 4-on-3 search); the floor stays the lower
bound over 50 %. The seeds are from the tuning range (100000-199999), never the reported one
(docs/rules/risk.md, "AI levels").

Run time: 121 s on the loaded shared machine before the fourth round (``-m slow``; 5 rungs, 840
games; the hard rung 69 s); the wider search costs hard ~3x (1 000 two-player hard : normal games
took 605 s instead of 190 s); measured after it: 7 tests in 133 s on the machine at rest
(2026-11-27 18:47 UTC).
"""

from __future__ import annotations

import pytest

from engines.risk import ENGINE
from engines.risk.engine import REFERENCE
from engines.selfplay import ladder


@pytest.mark.slow
@pytest.mark.parametrize("seats,a,b,games,floor", [
    (2, "hard", "normal", 300, 0.5),
    (3, "normal", "easy", 200, 0.5),
    (5, "normal", "easy", 200, 0.5),
    (2, "easy", "random", 100, 0.8),
    (5, "easy", "random", 40, 0.8),
])
def test_ladder_rung(seats: int, a: str, b: str, games: int, floor: float) -> None:
    tally = ladder(ENGINE, {}, seats, a, b, range(100_000, 100_000 + games))
    lo, _ = tally.bounds()
    assert tally.unfinished == 0
    assert lo > floor, (a, b, seats, tally.rate, lo)


@pytest.mark.slow
@pytest.mark.parametrize("seats,games", [(2, 400), (5, 200)])
def test_normal_keeps_its_strength(seats: int, games: int) -> None:
    """Issue 22's strength pin: normal (its decisions joined into composite actions since the
    seventh round) against the single-step normal it was (the ``reference`` level), head to head
    at 2 players and as a per-seat share at 5, wins at least 48 %. Both play the same decisions
    (``test_risk_composite.py`` proves it move by move), so the games are the reference's own
    and the rate is the seating's luck around 50 %; a change to normal's decisions must keep
    this (the reported figures, on fresh seeds: docs/rules/risk.md, "AI levels")."""
    tally = ladder(ENGINE, {}, seats, "normal", REFERENCE, range(100_000, 100_000 + games))
    assert tally.unfinished == 0
    assert tally.rate >= 0.48, (seats, tally.rate, tally.bounds())
