"""The AI levels (issue 23): easy, normal and hard play legal moves through whole games; easy is a
short-sighted player, not the random walker; hard decides only from what its seat may know (the
stack's order and the dice to come never change its move), starts civil wars it expects to win
and weighs the stratagems normal keeps for a leader."""

from __future__ import annotations

import random

import pytest
from kb_testkit import act, new, play, ready, troop, twin_cities

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


def test_hard_weighs_a_stratagem_normal_keeps_for_a_leader(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1 holds a one-point city with one troop, far from leading: normal keeps 美人計 for a
    leader on 3 points and lays a tile; hard lists the stratagem, finds that emptying the rival's
    only city (and reinforcing its own) stands better than a tile, and plays it. (Judged right
    after its move, as at 4 and 5 seats: with the rivals' turns played out at this 3-seat table
    it lays a tile here.)"""
    monkeypatch.setattr(ai_hard, "ROLLOUT_SEATS", frozenset())
    s = new()
    mine, theirs = twin_cities(s)
    troop(s, s["cities"][theirs]["spaces"][0], 1, "f")
    troop(s, s["cities"][mine]["spaces"][0], 0, "f")
    s["stack"] = ai_hard.unseen(s)  # the tiles the test laid leave the stack
    s = ready(s)
    assert ai.decide(s, 0, random.Random(0)) == ["expand"]
    assert ai_hard.decide(s, 0, random.Random(0)) == ["card", "plot", "beauty", theirs, "f", mine, "f"]


@pytest.mark.parametrize(("seats", "seed", "turns"), [(3, 21, 30), (4, 22, 45), (5, 23, 60)])
def test_hard_judges_after_the_rivals_turns_at_three_seats(seats: int, seed: int, turns: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """At 3 seats each copy is judged at hard's next turn, the rivals' turns played by the normal
    AI in between (issue 23's fourth round); at 4 and 5 seats, right after its own move."""
    state = _midgame(seats, seed, turns)
    seat = state["turn"]
    judged: list[tuple[str, int]] = []
    standing = ai_hard.standing

    def spy(table: dict, who: int) -> float:
        judged.append((table["phase"], table["turn"]))
        return standing(table, who)

    monkeypatch.setattr(ai_hard, "standing", spy)
    ai_hard.decide(state, seat, random.Random(7))
    assert judged
    ahead = [turn == seat for phase, turn in judged if phase != "over"]
    assert all(ahead) if seats == 3 else not any(ahead)
