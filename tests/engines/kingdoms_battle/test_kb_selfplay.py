"""The tile set plays well (issue 9): over seeded AI self-play, cities of both sizes close,
cities end joined by plain to others (room for wars and transfers), barricades still cut some
off, and hardly a tile is unplaceable. The figures for the docs come from
``python -m bench kingdoms_battle``; this checks the same properties on fewer games."""

from __future__ import annotations

import statistics

import pytest
from kb_testkit import play

from engines.kingdoms_battle import board
from engines.kingdoms_battle import rules as R


def _linked_share(state: dict) -> float:
    done = R.done_cities(state)
    links = board.links(state)
    return sum(1 for c in done if links.get(c, set()) & set(done)) / max(1, len(done))


@pytest.mark.slow
@pytest.mark.parametrize("seats", [3, 4, 5])
def test_self_play_shows_a_tile_set_that_plays_well(seats: int) -> None:
    games = [play(500 + g, ["normal"] * seats) for g in range(20)]
    stats = [g["stats"] for g in games]
    assert statistics.fmean(s["done_small"] for s in stats) >= 8
    assert statistics.fmean(s["done_large"] for s in stats) >= 1
    assert statistics.fmean(s["national"] for s in stats) >= 2
    assert statistics.fmean(s["discarded"] for s in stats) <= 1
    share = statistics.fmean(_linked_share(g) for g in games)
    assert 0.5 <= share < 1.0, share
    assert {g["end_reason"] for g in games} <= {"points", "tiles"}


def test_one_self_play_game_closes_cities_of_both_sizes() -> None:
    state = play(7, ["normal"] * 4)
    assert state["stats"]["done_small"] and state["stats"]["done_large"]
    assert 0 < _linked_share(state) < 1
