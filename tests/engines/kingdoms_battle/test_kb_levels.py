"""The AI levels (issue 23): easy, normal and hard play legal moves through whole games; easy is a
short-sighted player, not the random walker; hard decides only from what its seat may know (the
stack's order and the dice to come never change its move) and starts civil wars it expects to win."""

from __future__ import annotations

import random

import pytest
from kb_testkit import act, new, play, ready, troop

from engines.jsoncopy import clone
from engines.kingdoms_battle import ENGINE, ai, ai_easy, ai_hard
from engines.kingdoms_battle import rules as R


def test_the_lobby_offers_three_levels() -> None:
    assert ENGINE.ai_levels() == ["easy", "normal", "hard"]


@pytest.mark.parametrize(("seed", "levels"), [
    (11, ["easy", "normal", "hard"]),
    (12, ["hard", "easy", "random", "normal"]),
    (13, ["easy", "easy", "hard", "random", "normal"]),
])
def test_every_level_plays_legal_moves_through_a_whole_game(seed: int, levels: list[str]) -> None:
    # ENGINE.apply validates every action over the token tree; check=True keeps troops and tiles.
    state = play(seed, levels, check=True)
    assert state["end_reason"] in ("points", "tiles")


def test_easy_closes_and_garrisons_the_city_it_can_close() -> None:
    """The plainly best lay (it closes a city for a point): easy takes it, whatever its noise."""
    for k in range(20):
        s = ready(new(), phase="place", drawn=11)
        action = ai_easy.decide(s, 0, random.Random(k))
        assert action[:3] == ["place", "0,-1", "2"] and action[3] == "a"
        s, _ = act(s, 0, *action)
        assert R.score(s, 0) == 1


def test_easy_is_not_the_random_walker() -> None:
    """With a tile to lay, the random walker lays it anywhere; easy closes the city every time."""
    closes = sum(ai.random_action(ready(new(), phase="place", drawn=11), 0, random.Random(k))[1:3] == ["0,-1", "2"]
                 for k in range(40))
    assert closes < 30


def _civil_spot() -> dict:
    """The start city (one wall open) held by seat 1's one troop; seat 0 draws type 13, a cap
    with two garrison spaces that closes it."""
    s = new()
    troop(s, "0.0", 1)
    return ready(s, phase="place", drawn=13)


def test_hard_starts_a_civil_war_it_expects_to_win() -> None:
    s = _civil_spot()
    action = ai_hard.decide(s, 0, random.Random(0))
    assert action == ["place", "0,-1", "2", "a", "a"]  # two against one: won 87 % of the time
    s, _ = act(s, 0, *action)
    assert s["stats"]["civil"] == 1


def test_normal_never_closes_a_city_others_hold_when_it_need_not() -> None:
    """The normal AI (kept as it was) lays the same tile elsewhere: the civil war is hard's."""
    assert ai.decide(_civil_spot(), 0, random.Random(0))[1] != "0,-1"


def test_duel_odds() -> None:
    assert ai_hard.duel_win(1, 1) == pytest.approx(0.4)  # both may fall in the same round
    assert ai_hard.duel_win(2, 1) == pytest.approx(0.8737, abs=1e-4)
    assert ai_hard.duel_win(0, 3) == 0.0 and ai_hard.duel_win(3, 0) == 1.0


def _midgame(seats: int, seed: int, turns: int) -> dict:
    """A normal-AI game from ``turns`` on, at the first turn where hard has moves to compare."""
    state = new(seats, seed)
    rng = random.Random(seed)
    while (state["stats"]["turns"] < turns or state["phase"] != "action"
           or len(ai_hard.candidates(state, state["turn"])) < 2):
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))
    return state


@pytest.mark.parametrize(("seats", "seed", "turns"), [(3, 21, 30), (4, 22, 45), (5, 23, 60)])
def test_hard_does_not_see_the_stack_or_the_dice(seats: int, seed: int, turns: int) -> None:
    """The stack's order and the dice generator are the hidden part of the table: deal the stack
    again and seed new dice, and hard's move (from the same rng) stays the same."""
    state = _midgame(seats, seed, turns)
    seat = state["turn"]
    decided = ai_hard.decide(state, seat, random.Random(7))
    for k in range(3):
        other = dict(state, stack=random.Random(k).sample(state["stack"], len(state["stack"])),
                     rng=random.Random(k).getrandbits(64))
        assert ai_hard.decide(other, seat, random.Random(7)) == decided


def test_the_unseen_tiles_are_the_stack_and_the_discards() -> None:
    state = _midgame(4, 22, 45)
    assert sorted(ai_hard.unseen(state)) == sorted(state["stack"])  # no discard in this game
    state = ready(state, phase="place", drawn=state["stack"].pop())
    assert sorted(ai_hard.unseen(state)) == sorted(state["stack"])


def test_hard_does_not_close_a_city_for_the_next_player_to_occupy() -> None:
    """With no troop in hand, closing the start city leaves it idle, and the next player occupies
    it before hard moves again: normal's rules of thumb count it a plus, hard's lookahead a loss."""
    s = new(4, 1)
    s["players"][0]["supply"] = 0
    s = ready(s, phase="place", drawn=11)
    assert ai.decide(s, 0, random.Random(0))[1:3] == ["0,-1", "2"]
    assert ai_hard.decide(s, 0, random.Random(0))[1] != "0,-1"


def test_hard_plays_a_move_without_chance_once() -> None:
    """Occupying, fortifying or reinforcing ends the same on every copy; a tile drawn or a war
    does not."""
    assert ai_hard._copies(["occupy", "0.0"]) == ai_hard._copies(["switch", "to_f", "0.0", "1"]) == 1
    assert ai_hard._copies(["expand"]) == ai_hard.SAMPLES
    assert ai_hard._copies(["card", "war", "0.0", "2.0", "2"]) == ai_hard.WAR_SAMPLES
    assert ai_hard._copies(["card", "plot", "tiger", "0.0", "2.0"]) == ai_hard.WAR_SAMPLES


def _leading_with_a_one_troop_city() -> tuple[dict, int]:
    """A normal-AI game at the first moment one seat leads on ≥ 3 points holding a city with one
    troop: the city a rival's 美人計 would empty."""
    state = new(4, 24)
    rng = random.Random(24)
    while True:
        table = ai_hard.read_table(state)
        lead = max(range(4), key=lambda s: table.points[s])
        if table.points[lead] >= 3 and sorted(table.points)[-2] < table.points[lead] and table.weak[lead]:
            return state, lead
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))


def test_hard_counts_a_rivals_beauty_against_its_one_troop_city() -> None:
    state, lead = _leading_with_a_one_troop_city()
    assert any("beauty" in state["players"][s]["plots"] for s in range(4) if s != lead)
    safe = clone(state)
    for p in safe["players"]:
        p["plots"] = [x for x in p["plots"] if x != "beauty"]
    risk = ai_hard.BEAUTY_RISK * ai_hard.read_table(state).weak[lead]
    assert ai_hard.standing(state, lead) == pytest.approx(ai_hard.standing(safe, lead) - risk)


def test_hard_counts_an_idle_city_as_the_next_rivals() -> None:
    """The start city closed and idle, the table otherwise even: seat 1, next to move, will occupy
    it, so seat 0 stands a point behind."""
    s = new(4, 1)
    s["cities"]["0.0"]["done"] = True
    assert ai_hard.read_table(s).idle == [1]
    assert ai_hard.standing(s, 0) == pytest.approx(-1.0)
