"""The normal AI plays for its own mission or HQ goal, from its own view only.

Most constructed positions are also shown to a goal-blind copy of the AI (the same view with the
variant, mission and HQs hidden: what the AI did before it knew its goal). Where that copy chooses
differently, the position really tests the goal and not a tie-break that happens to agree.
"""

from __future__ import annotations

import json
import random

import pytest
from risk_testkit import C, new, play, position

from engines.base import Action, State, View
from engines.risk import ENGINE, ai, rules


def _mission_position(seats: int, mission: str, owners: dict[str, int], armies: dict[str, int], **kw) -> State:
    state = position(seats, owners, armies, variant="mission", **kw)
    for s, p in enumerate(state["players"]):
        p["mission"] = mission if s == 0 else "territories_24"
        p["mission_converted"] = False
    return state


def _hq_position(seats: int, hqs: dict[int, str], owners: dict[str, int], armies: dict[str, int], **kw) -> State:
    state = position(seats, owners, armies, variant="hq", **kw)
    for s, t in hqs.items():
        state["players"][s]["hq"] = t
        state["hq_holder"][t] = state["owner"][t]
    return state


def _blind(view: View) -> View:
    view = json.loads(json.dumps(view))
    view["variant"] = "classic"
    view["you"]["mission"] = None
    view["you"]["hq"] = None
    for p in view["players"]:
        p["hq"], p["hqs_captured"] = None, []
    return view


def _decide(state: State, seat: int = 0, blind: bool = False) -> Action:
    view = ENGINE.view(state, seat)
    return ai.decide(_blind(view) if blind else view, random.Random(0))


# ----- missions ----------------------------------------------------------------------------

# Seats 1 and 2 each hold one territory next to northern_europe (2 armies each, same continent)
# and three more far away: for a goal-blind player the two attacks are worth exactly the same.
TIE = {"western_europe": 1, "venezuela": 1, "peru": 1, "brazil": 1,
       "southern_europe": 2, "congo": 2, "south_africa": 2, "madagascar": 2}
TIE_ARMIES = {"northern_europe": 10, "western_europe": 2, "southern_europe": 2}


@pytest.mark.parametrize("foe,target", [(1, "western_europe"), (2, "southern_europe")])
def test_destroy_mission_attacks_the_colour_to_destroy(foe: int, target: str) -> None:
    state = _mission_position(3, f"destroy_{C.colors[foe]}", TIE, TIE_ARMIES)
    assert _decide(state)[:3] == ["attack", "northern_europe", target]
    assert _decide(state, blind=True)[:3] == ["attack", "northern_europe", "western_europe"]


def test_destroy_mission_takes_long_odds_to_finish_the_foe() -> None:
    # 3 spare armies against 3 win 47%: not enough for an ordinary attack, enough to end the game.
    state = _mission_position(3, f"destroy_{C.colors[2]}", {"ukraine": 2, "brazil": 1},
                              {"northern_europe": 4, "ukraine": 3})
    assert _decide(state)[:3] == ["attack", "northern_europe", "ukraine"]
    assert _decide(state, blind=True) == ["end"]


def test_a_converted_destroy_mission_no_longer_chases_that_colour() -> None:
    state = _mission_position(3, f"destroy_{C.colors[2]}", TIE, TIE_ARMIES)
    state["players"][0]["mission_converted"] = True  # as when someone else destroys blue first
    assert ENGINE.view(state, 0)["you"]["mission"]["id"] == "territories_24"
    assert _decide(state)[:3] == ["attack", "northern_europe", "western_europe"]


def test_continent_mission_targets_one_of_its_continents() -> None:
    # Australia is nearly ours and the natural target; the mission needs North America + Africa.
    owners = {t: 1 for t in C.continents["north_america"] + C.continents["africa"]}
    owners.update({t: 1 for t in C.continents["europe"]})
    owners["eastern_australia"] = 1
    owners.update({"alaska": 0, "north_africa": 0, "egypt": 0})
    state = _mission_position(2, "north_america_africa", owners, {})
    assert ai.Board(ENGINE.view(state, 0)).target_continent() in ("north_america", "africa")
    assert ai.Board(_blind(ENGINE.view(state, 0))).target_continent() == "australia"


def _spread_board() -> dict[str, int]:
    """Seat 0 holds 20 territories (Asia, Australia, Egypt …), seat 1 the other 22."""
    mine = list(C.continents["asia"]) + list(C.continents["australia"]) + ["egypt", "east_africa", "madagascar", "congo"]
    return {t: 1 for t in C.territories if t not in mine}


def test_two_army_mission_tops_up_single_armies_when_that_wins_now() -> None:
    owners = _spread_board()
    mine = [t for t in C.territories if t not in owners]
    armies = {t: 2 for t in mine[:15]}  # 15 counted, 5 more at 1 army; 3 armies to place
    state = _mission_position(2, "territories_18_two", owners, armies, phase="reinforce", reinforcements=3)
    assert _decide(state, blind=True)[2] == "3"  # would mass all three on one front
    for _ in range(3):
        action = _decide(state)
        assert action[0] == "place" and action[2] == "1" and state["armies"][action[1]] == 1
        state, _ = ENGINE.apply(state, 0, action)
    assert state["phase"] == "over" and state["winners"] == [0] and state["end_reason"] == "mission"


def test_two_army_mission_leaves_two_behind_when_moving_in() -> None:
    owners = _spread_board()
    state = _mission_position(2, "territories_18_two", owners, {"siam": 6, "indonesia": 1},
                              dice=[6, 6, 6, 1])
    state["owner"]["indonesia"] = 1  # siam's only enemy neighbour: a blind player moves everything in
    state, _ = ENGINE.apply(state, 0, ["attack", "siam", "indonesia", "once"])
    assert state["phase"] == "occupy"
    assert _decide(state, blind=True) == ["move", str(state["occupy"]["max"])]
    state, _ = ENGINE.apply(state, 0, _decide(state))
    assert state["armies"]["siam"] >= 2 and state["armies"]["indonesia"] >= 2


def test_territory_mission_takes_long_odds_for_the_last_territory() -> None:
    owners = {t: 1 for t in C.continents["asia"] + C.continents["africa"] + ("ukraine",)}
    assert 42 - len(owners) == 23
    state = _mission_position(2, "territories_24", owners, {"northern_europe": 4, "ukraine": 3})
    assert _decide(state)[:3] == ["attack", "northern_europe", "ukraine"]
    assert _decide(state, blind=True) == ["end"]


# ----- headquarters ------------------------------------------------------------------------

def test_threatened_hq_gets_the_reinforcements() -> None:
    # Our HQ Egypt (2 armies) faces 8 in the Middle East; the blind player's front is elsewhere.
    owners = {t: 1 for t in C.continents["asia"]}
    owners.update({"congo": 1, "south_africa": 1})
    state = _hq_position(2, {0: "egypt", 1: "japan"}, owners, {"egypt": 2, "middle_east": 8},
                         phase="reinforce", reinforcements=7)
    assert _decide(state) == ["place", "egypt", "7"]  # 7 could attack it: all 7 go there
    assert _decide(state, blind=True)[1] != "egypt"


def test_threatened_hq_is_fortified_from_a_quiet_neighbour() -> None:
    owners = {t: 1 for t in C.continents["asia"]}
    owners.update({"congo": 1, "south_africa": 1})
    state = _hq_position(2, {0: "egypt", 1: "japan"}, owners, {"egypt": 2, "middle_east": 8, "north_africa": 6},
                         phase="fortify")
    assert _decide(state)[:3] == ["fortify", "north_africa", "egypt"]


@pytest.mark.parametrize("hq_owner", [1, 2])
def test_attack_goes_for_an_enemy_hq(hq_owner: int) -> None:
    target = "western_europe" if hq_owner == 1 else "southern_europe"
    state = _hq_position(3, {0: "ural", 1: "venezuela", 2: "congo"} | {hq_owner: target}, TIE, TIE_ARMIES)
    assert _decide(state)[:3] == ["attack", "northern_europe", target]


def test_lost_hq_is_retaken() -> None:
    owners = dict(TIE)
    state = _hq_position(3, {0: "southern_europe", 1: "venezuela", 2: "congo"}, owners, TIE_ARMIES)
    assert state["owner"]["southern_europe"] == 2  # seat 2 has taken our HQ
    assert _decide(state)[:3] == ["attack", "northern_europe", "southern_europe"]
    assert _decide(state, blind=True)[:3] == ["attack", "northern_europe", "western_europe"]


def test_the_winning_hq_is_worth_long_odds() -> None:
    state = _hq_position(2, {0: "ural", 1: "ukraine"}, {"ukraine": 1, "brazil": 1},
                         {"northern_europe": 4, "ukraine": 3})
    assert _decide(state)[:3] == ["attack", "northern_europe", "ukraine"]
    assert _decide(state, blind=True) == ["end"]


# ----- whole games -------------------------------------------------------------------------

def _rate(variant: str, seats: int, games: int, seed0: int) -> float:
    """Share of games a normal AI wins against ``seats - 1`` easy ones (seat rotating)."""
    wins = 0
    for g in range(games):
        me = g % seats
        state = new(seats, variant, "quick", seed=seed0 + g)
        final, _ = play(ENGINE, state, {s: ("normal" if s == me else "easy") for s in range(seats)}, seed=g)
        wins += final["winners"] == [me]
    return wins / games


# Since issue 23 ``easy`` is a greedy player, not a near-random one: at 4 seats a fair share is
# 25 %, and the thresholds sit below what these seeds gave the greedy easy (mission 2: 0.82,
# hq 2: >= 0.93, mission 4: 0.65, hq 4: 0.75; the 300-game samples: mission 4 0.48), far above a
# fair share.
@pytest.mark.parametrize("variant,seats,games,least", [
    ("mission", 2, 60, 0.75), ("hq", 2, 60, 0.93), ("mission", 4, 20, 0.5), ("hq", 4, 40, 0.6)])
def test_normal_beats_easy_in_goal_variants(variant: str, seats: int, games: int, least: float) -> None:
    assert _rate(variant, seats, games, seed0=3000) >= least


@pytest.mark.slow
@pytest.mark.parametrize("variant,seats,least", [
    ("mission", 2, 0.75), ("hq", 2, 0.85), ("mission", 4, 0.42), ("hq", 4, 0.55)])
def test_normal_beats_easy_in_goal_variants_large_sample(variant: str, seats: int, least: float) -> None:
    assert _rate(variant, seats, 300, seed0=13000) >= least


def _play_against_blind(variant: str, seats: int, game: int, aware: bool, mission: str | None = None) -> bool:
    """One game of a normal AI against goal-blind normal AIs; whether the rotating seat won. With
    ``aware`` false that seat is blind too (the baseline on the same deals)."""
    me = game % seats
    state = new(seats, variant, "quick", seed=40000 + game)
    if mission:
        state["players"][me]["mission"] = mission
    rng = random.Random(game)
    while ENGINE.result(state) is None:
        seat = ENGINE.pending(state)[0].seat
        view = ENGINE.view(state, seat)
        action = ai.decide(view if aware and seat == me else _blind(view), rng)
        state, _ = ENGINE.apply(state, seat, action)
    return state["winners"] == [me]


def test_hq_goals_win_well_over_a_fair_share_against_goal_blind_players() -> None:
    """4 players, any 2 HQs win: a fair share is 25%; going for the HQs wins about 50% (400 games)."""
    wins = sum(_play_against_blind("hq", 4, g, aware=True) for g in range(80))
    assert wins / 80 >= 0.4


@pytest.mark.slow
@pytest.mark.parametrize("mission", ["territories_18_two", "territories_24", "north_america_australia",
                                     "north_america_africa", f"destroy_{C.colors[3]}"])
def test_mission_goals_beat_the_goal_blind_ai_on_the_same_deals(mission: str) -> None:
    aware = sum(_play_against_blind("mission", 4, g, True, mission) for g in range(200) if g % 4 != 3)
    blind = sum(_play_against_blind("mission", 4, g, False, mission) for g in range(200) if g % 4 != 3)
    assert aware > blind


def test_enemy_hqs_are_known_only_once_revealed() -> None:
    state = new(3, "hq", "quick", seed=4)
    for _ in range(200):
        if state["phase"] not in ("setup_place", "setup_hq"):
            break
        req = ENGINE.pending(state)[0]
        if state["phase"] == "setup_hq" and state["hq_choice"]:
            seat = int(next(iter(state["hq_choice"])))
            board = ai.Board(ENGINE.view(state, seat))
            assert board.my_hq == state["hq_choice"][str(seat)] and board.enemy_hqs == []
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, random.Random(0)))
    assert state["phase"] in rules.PLAY_PHASES
    board = ai.Board(ENGINE.view(state, state["turn"]))
    assert board.my_hq == state["players"][state["turn"]]["hq"]
    assert sorted(board.enemy_hqs) == sorted(p["hq"] for s, p in enumerate(state["players"]) if s != state["turn"])
