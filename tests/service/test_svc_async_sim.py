"""Issue 19's measure: asynchronous games where people look in three times a day (see
``async_sim``): the 8-seat 三国杀 table (4 people, 4 AI), a 4-seat one, and a 2-seat 极武三国 game
with duels, default settings (one 极武三国 player sets a duel order). The whole file takes ~7 s.

Measured (seeds as below): 8 seats 18.9 simulated days, 65 windows asked of a person, 9 % closed
by standing answers alone, 43 % without waiting for anyone, the longest window 2.00 h (the
reaction time), 0.4–2.4 notifications per person per day; 4 seats 11.0 days, 23 % / 27 %, 2.0 h,
2.0–4.0; 极武三国 (rules 2, seed 4) 11.1 days, 2 duels, 26 windows, 73 % by the duel order, 2.0 h, 1.7–2.5."""

from __future__ import annotations

from pathlib import Path

from async_sim import simulate

from service.settings import DEFAULTS
from store.db import Store

REACTION = 7200  # the "auto" reaction time of the default one-day turn
PEOPLE = [101, 202, 303, 404]


def _check(report, reaction: float = REACTION) -> None:  # type: ignore[no-untyped-def]
    print(report.line())
    assert report.finished and report.replays
    assert report.longest_window <= reaction + DEFAULTS.ai_window_delay
    assert all(report.per_day(u) <= 10 for u in report.notifications)


async def _run(tmp_path: Path, game: str, humans: list[int], ai: int, seed: int, **kw):  # type: ignore[no-untyped-def]
    store = await Store.open(tmp_path / "sim.sqlite3")
    try:
        return await simulate(store, game, humans, ai, seed=seed, **kw)
    finally:
        await store.close()


async def test_a_four_seat_sanguosha_game_at_three_looks_a_day(tmp_path: Path) -> None:
    report = await _run(tmp_path, "sanguosha", PEOPLE[:2], 2, seed=1)
    _check(report)
    assert report.by_standing > 0


async def test_an_eight_seat_sanguosha_game_at_three_looks_a_day(tmp_path: Path) -> None:
    report = await _run(tmp_path, "sanguosha", PEOPLE, 4, seed=1)
    _check(report)
    assert report.by_standing > 0


async def test_a_two_seat_jiwu_game_with_duels_at_three_looks_a_day(tmp_path: Path) -> None:
    report = await _run(tmp_path, "jiwu", PEOPLE[:2], 0, seed=4,
                        standing={PEOPLE[0]: {"duel": "atk,par,brk"}})
    _check(report)
    assert report.duels > 0 and report.by_standing > 0  # the seed has duels; seat 0's order answers
