"""The 三国杀 AI ladder (issue 23), pinned on a fixed seed range: each camp seated at one level
(``identity.camps``, swapped between seeds), the per-seat rate of ``engines.selfplay``.

Slow: 300 games per rung at 5 and 8 seats, standard heroes (seeds 950000–950299, part of the
reported range in docs/rules/sanguosha.md "AI levels"); about 6 × 300 × 0.3 s ≈ 9 min on one idle
core (estimated from the bench's game times, not timed as a whole).

- normal over easy and easy over random: the 95 % interval's lower bound above 50 % (the
  reported figures, 1 000 games, are above the issue's 70 % and 80 %).
- hard over normal: the issue's 60 % is not reached (docs); the pin is that hard is not worse
  than normal: rate ≥ 50 % − 5 points.
"""

from __future__ import annotations

import pytest

from engines.sanguosha import ENGINE, ai
from engines.sanguosha.identity import camps
from engines.selfplay import ladder

SEEDS = range(950_000, 950_300)
OPTIONS = {"heroes": "standard"}


@pytest.fixture(autouse=True)
def _strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "STRICT", True)


@pytest.mark.slow
@pytest.mark.parametrize("seats", [5, 8])
@pytest.mark.parametrize("a,b", [("normal", "easy"), ("easy", "random")])
def test_the_upper_level_wins_more_than_its_share(seats: int, a: str, b: str) -> None:
    tally = ladder(ENGINE, OPTIONS, seats, a, b, SEEDS, assign=camps)
    assert tally.unfinished == 0
    assert tally.bounds()[0] > 0.5, (tally.rate, tally.bounds())


@pytest.mark.slow
@pytest.mark.parametrize("seats", [5, 8])
def test_hard_is_not_worse_than_normal(seats: int) -> None:
    tally = ladder(ENGINE, OPTIONS, seats, "hard", "normal", SEEDS, assign=camps)
    assert tally.unfinished == 0
    assert tally.rate >= 0.45, (tally.rate, tally.bounds())
