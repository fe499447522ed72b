"""The AI levels of issue 23 (``engines/pentactic/levels.py``): every level plays whole games with
legal actions only, easy is a player and not the random walker, hard in solo is normal.

Pentactic hides nothing (``ENGINE.hidden_information`` is False: every board, tray and disc count
is in every seat's view), so hard has no hidden information to sample and no determinization test
applies; the ladder itself is pinned in ``test_pentactic_ladder.py`` (slow).
"""

from __future__ import annotations

import random

import pytest
from pentactic_helpers import new, play_out, uniform

from engines.pentactic import ENGINE, levels, rules
from engines.pentactic.board import board_masks, geo


def test_the_lobby_offers_easy_normal_hard_and_hides_nothing() -> None:
    assert ENGINE.ai_levels() == ["easy", "normal", "hard"]
    assert ENGINE.hidden_information is False


@pytest.mark.parametrize(("mode", "seats", "seed"), [("1", 2, 1), ("2", 2, 2), ("3", 3, 3)])
def test_every_level_plays_a_whole_game_with_legal_actions(mode: str, seats: int, seed: int) -> None:
    """``ENGINE.apply`` rejects any illegal action, so finishing the game is the check."""
    names = ["easy", "hard", "normal"]
    final, log = play_out(new(mode, seats=seats, seed=seed), random.Random(seed),
                          levels={s: names[s % 3] for s in range(seats)})
    assert final["phase"] == "over"
    assert {seat for seat, _ in log} == set(range(seats))


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_solo_games_end_legally_and_hard_solo_is_normal(level: str) -> None:
    state, step = new("4", seed=5), 0
    while reqs := ENGINE.pending(state):
        step += 1
        action = ENGINE.ai_action(state, reqs[0].seat, random.Random(step), level)
        if level == "hard":
            assert action == ENGINE.ai_action(state, reqs[0].seat, random.Random(step), "normal")
        state, _ = ENGINE.apply(state, reqs[0].seat, action)
    assert state["phase"] == "over"


def _keeps_every_piece(g, occ: int, pieces: list[str], placed) -> bool:
    """After ``placed``, every other piece in hand still has a legal placement."""
    after = occ | placed.mask
    return all(any(not (pl.mask & after) for pl in g.placements[p]) for p in pieces if p != placed.piece)


def _one_saving_move(limit: int):
    """Attack positions (from seeded uniform games) where exactly one legal placement leaves
    every other piece somewhere to go, and easy looks at every placement (no sampling)."""
    found = []
    for seed in range(60):
        state, rng = new("2", seed=seed), random.Random(seed)
        while (reqs := ENGINE.pending(state)) and len(found) < limit:
            seat = reqs[0].seat
            if state["phase"] == "attack":
                g = geo(state)
                occ, _ = board_masks(g, rules.own_board(state, seat))
                pieces = state["players"][seat]["pieces"]
                legal = [pl for p in pieces for pl in g.placements[p] if not (pl.mask & occ)]
                good = [pl for pl in legal if _keeps_every_piece(g, occ, pieces, pl)]
                if len(good) == 1 and 3 < len(legal) <= levels.EASY_LOOKS:
                    found.append((state, seat, good[0]))
            state, _ = ENGINE.apply(state, seat, uniform(state, seat, rng))
    return found


def test_easy_takes_the_move_that_plainly_saves_its_pieces() -> None:
    """Not the random walker: where one placement keeps every other piece placeable and every
    other placement shuts one out, easy takes it every time; uniform play mostly does not."""
    positions = _one_saving_move(8)
    assert len(positions) >= 5
    missed_by_uniform = 0
    for state, seat, good in positions:
        want = ["place", good.piece, str(good.orientation), good.anchor]
        for k in range(5):
            assert ENGINE.ai_action(state, seat, random.Random(k), "easy") == want
            missed_by_uniform += uniform(state, seat, random.Random(k)) != want
    assert missed_by_uniform > len(positions) * 5 // 2
