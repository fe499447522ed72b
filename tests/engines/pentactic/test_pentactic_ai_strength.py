"""AI strength in the modes beyond mode 2: normal against uniformly random play ("uniform").

Every sample is a fixed list of seeds (boards cycle 8x8, 9x7, 11x6), so a run is reproducible;
the thresholds sit well below what was measured (see docs/rules/pentactic.md, "Time-outs and
AI") and well above what random play gets, so a weaker AI makes these tests fail. The default
samples keep this file under ~15 s; the ``slow`` ones repeat the claims on larger samples.
"""

from __future__ import annotations

import random
from statistics import mean

import pytest
from pentactic_helpers import ai_move, new, play_out

from engines.pentactic import ENGINE

BOARDS = ("8x8", "9x7", "11x6")


# ----- mode 1: the normal AI attacks in one round and defends in the other -------------------

def _duels(games: int) -> dict[str, list]:
    """Normal against uniform random play in mode 1, the normal AI in seat 0 for even seeds, seat 1 for odd."""
    out: dict[str, list] = {"won": [], "smart_attacks": [], "random_attacks": []}
    for seed in range(games):
        smart = seed % 2
        final, _ = play_out(new("1", BOARDS[seed % 3], seed=seed), random.Random(seed),
                            levels={smart: "normal", 1 - smart: "uniform"})
        out["won"].append(final["winners"] == [smart])
        for r in final["round_results"]:
            out["smart_attacks" if r["attacker"] == smart else "random_attacks"].append(r["score"])
    return out


def _check_duels(games: int) -> None:
    res = _duels(games)
    assert mean(res["won"]) >= 0.9, f"normal won {sum(res['won'])}/{games} duels"
    # Either role on its own: the normal attacker's rounds score lower (better) than the random
    # attacker's rounds against the normal defender, by a clear margin.
    assert mean(res["smart_attacks"]) + 2 <= mean(res["random_attacks"]), res


def test_normal_ai_wins_duels_playing_both_roles() -> None:
    _check_duels(24)


@pytest.mark.slow
def test_normal_ai_wins_many_duels_playing_both_roles() -> None:
    _check_duels(150)


# ----- mode 3: one normal AI against two random players --------------------------------------

def _three_player_results(games: int) -> tuple[list[bool], list[bool]]:
    sole, shared = [], []
    for seed in range(games):
        smart = seed % 3
        levels = {s: "normal" if s == smart else "uniform" for s in range(3)}
        final, _ = play_out(new("3", BOARDS[seed % 3], seats=3, seed=seed), random.Random(seed), levels=levels)
        sole.append(final["winners"] == [smart])
        shared.append(smart in final["winners"])
    return sole, shared


def _check_three_players(games: int) -> None:
    sole, shared = _three_player_results(games)
    # A random player wins alone about a third of the time; the normal one most of the time.
    assert mean(sole) >= 0.75, f"normal won alone {sum(sole)}/{games}"
    assert mean(shared) >= 0.9, f"normal was among the winners {sum(shared)}/{games}"


def test_normal_ai_wins_most_three_player_games() -> None:
    _check_three_players(24)


@pytest.mark.slow
def test_normal_ai_wins_most_of_many_three_player_games() -> None:
    _check_three_players(120)


# ----- defender quality ---------------------------------------------------------------------

def _pieces_left(seed: int, defender: str) -> int:
    """Mode 1, round 1: a random attacker against ``defender``; the attacker's pieces that could
    not be placed when the round ended."""
    state = new("1", BOARDS[seed % 3], seed=seed)
    rng = random.Random(seed)
    while True:
        seat = ENGINE.pending(state)[0].seat
        state, events = ENGINE.apply(state, seat,
                                     ai_move(state, seat, rng, defender if seat == 1 else "uniform"))
        for e in events:
            if e.msg.key == "pentactic.ev.round_end":
                return e.msg.params["pieces"]


def _check_defender(seeds: int) -> None:
    smart = mean(_pieces_left(s, "normal") for s in range(seeds))
    naive = mean(_pieces_left(s, "uniform") for s in range(seeds))
    # Measured: about 3.9 against 3.2 pieces. The old one-ply defender got no more than random.
    assert smart > naive + 0.3, (smart, naive)


def test_normal_defender_leaves_a_random_attacker_more_unplaceable_pieces() -> None:
    _check_defender(30)


@pytest.mark.slow
def test_normal_defender_leaves_more_unplaceable_pieces_over_many_games() -> None:
    _check_defender(150)
