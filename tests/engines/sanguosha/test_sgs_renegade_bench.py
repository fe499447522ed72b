"""The lone-renegade bench plays the renegade seat at the level it is given (issue 23: the hard
renegade's search is measured there against normal on the same seeds) and times each of that
seat's decisions, so its figures can carry the level's time budget."""

from __future__ import annotations

from typing import Any

import pytest

from bench import bench_sanguosha_renegade as bench
from engines.sanguosha import ai


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_renegade_seat_plays_the_level_asked_and_is_timed(monkeypatch: pytest.MonkeyPatch, level: str) -> None:
    calls: list[int] = []
    real = ai.LEVELS[level]

    def spy(state: dict[str, Any], seat: int, *args: Any, **kwargs: Any) -> list[str]:
        calls.append(seat)
        return real(state, seat, *args, **kwargs)

    monkeypatch.setitem(ai.LEVELS, level, spy)
    monkeypatch.setitem(bench.LEVEL, "level", level)
    times: list[float] = []
    counts = bench.breakdown(5, 1, 7000, times=times)
    assert sum(v for k, v in counts.items() if k.startswith("game: ")) == 1
    assert calls and len(times) == len(calls)  # every renegade decision went through the level
    assert all(t >= 0 for t in times)
