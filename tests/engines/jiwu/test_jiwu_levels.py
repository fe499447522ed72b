"""The 极武三国 AI levels (issue 23): every level plays whole legal games, easy is a player and
not the random walker, and hard decides only from what its seat may know although it searches on
sampled deals of the hidden cards. The ladder between the levels is pinned in
``test_jiwu_ladder.py`` (slow)."""

from __future__ import annotations

import random

import pytest
from jiwu_testkit import empty, general_on, give, new, play_out, put

from engines.base import State
from engines.jiwu import ENGINE, ai, choices, levels
from engines.jiwu import rules as R


def test_levels_offered() -> None:
    assert ENGINE.ai_levels() == ["easy", "normal", "hard"]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_level_plays_whole_games(seats: int) -> None:
    """``play_out`` applies each move through ``ENGINE.apply``, which re-validates it."""
    names = ["easy", "normal", "hard", "easy"][:seats]
    state = play_out(seats, 70 + seats, names)
    result = ENGINE.result(state)
    assert result is not None and len(result.winners) == 1


def test_easy_takes_the_region_a_deploy_wins() -> None:
    """With one soldier to deploy and a region tied one against one, taking the third slot wins
    the region; every other slot (the roads out) wins nothing. Easy takes it every time; the
    random walker would most of the time not."""
    state = empty(2, 5)
    put(state, "chenliu.0", 0)
    put(state, "chenliu.1", 1)
    give(state, 0, power=1)
    state["players"][0]["hand"] = []
    assert len(R.deployable(state, 0)) > 2
    for seed in range(20):
        assert ENGINE.ai_action(state, 0, random.Random(seed), "easy") == ["deploy", "chenliu.2"]


def test_easy_plays_the_hand_before_spending() -> None:
    state = empty(2, 5)
    hand = state["players"][0]["hand"]
    assert hand
    assert ENGINE.ai_action(state, 0, random.Random(1), "easy") == ["play", hand[0]]


def _scrambled(state: State, seat: int, mix: random.Random) -> State:
    """The same table from ``seat``'s view: the other seats' hands, decks and discards dealt again
    among themselves and with the central deck, and every deck's order changed."""
    out = {**state, "players": [dict(p) for p in state["players"]]}
    others = [o for o in range(state["seats"]) if o != seat]
    pool = list(state["market_deck"]) + [i for o in others for k in ("hand", "deck", "discard")
                                          for i in state["players"][o][k]]
    mix.shuffle(pool)
    out["market_deck"], pool = pool[:len(state["market_deck"])], pool[len(state["market_deck"]):]
    for o in others:
        for k in ("hand", "deck", "discard"):
            n = len(state["players"][o][k])
            out["players"][o][k], pool = pool[:n], pool[n:]
    out["players"][seat]["deck"] = mix.sample(state["players"][seat]["deck"], len(state["players"][seat]["deck"]))
    out["plan_deck"] = mix.sample(state["plan_deck"], len(state["plan_deck"]))
    assert ENGINE.view(out, seat) == ENGINE.view(state, seat)
    return out


def _searched(state: State, seat: int) -> bool:
    """Whether hard searches at this decision (its rival plans disagree on the first step)."""
    if state["phase"] != "main" or not levels.endgame(state, seat):
        return False
    vs = choices.verbs(state, seat)
    if "play" in vs or "plan" in vs:
        return False
    firsts = {tuple(ai._main(state, seat, random.Random(0), style)) for style in levels.plans(state)}
    return len(firsts) > 1


@pytest.mark.parametrize("seats", [2, 3])
def test_hard_ignores_what_its_seat_cannot_see(seats: int) -> None:
    """Wherever hard searches in a game's last turns, dealing the cards its seat cannot see
    differently (consistently with its view) leaves its decision unchanged, although the search
    plays the turn out on sampled deals of exactly those cards; at 3 players also at a share of
    its other turn decisions, where it aims at the leader (:func:`levels.aim`)."""
    mix = random.Random(11)
    searched = 0
    for seed in (1, 2, 3):
        state = new(seats, seed)
        rng = random.Random(seed)
        while not ENGINE.result(state):
            req = ENGINE.pending(state)[0]
            if _searched(state, req.seat) or (seats > 2 and state["phase"] == "main" and mix.random() < 0.1):
                searched += 1
                pick = rng.random()
                mine = ENGINE.ai_action(state, req.seat, random.Random(pick), "hard")
                for _ in range(2):
                    other = _scrambled(state, req.seat, mix)
                    assert ENGINE.ai_action(other, req.seat, random.Random(pick), "hard") == mine
                    # the very deals it searches on are the same
                    assert (levels.determinize(other, req.seat, random.Random(pick))
                            == levels.determinize(state, req.seat, random.Random(pick)))
            state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, "hard"))
    assert searched >= 5


def test_hard_sample_agrees_with_the_view() -> None:
    """A sampled deal keeps every card the seat can see where it is and only moves the others."""
    state = play_out_to_turn(12)
    seat = state["turn"]
    det = levels.determinize(state, seat, random.Random(4))
    assert ENGINE.view(det, seat) == ENGINE.view(state, seat)
    assert det["market_deck"] != state["market_deck"]


def play_out_to_turn(turns: int) -> State:
    state = new(3, 9)
    rng = random.Random(9)
    while state["turns"] < turns:
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, "normal"))
    return state


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_hard_holds_its_region_where_normal_takes_the_road(seats: int) -> None:
    """With one soldier to deploy and one region held, normal sends it down a road toward a
    region it has not reached; hard (round 5, ``levels.REGION_BASE``) puts it in the held
    region's next slot, which makes the hold harder to break, at every table size."""
    state = empty(seats, 5)
    put(state, "changsha.0", 0)
    state["players"][0]["hand"] = []
    give(state, 0, power=1)
    assert ENGINE.ai_action(state, 0, random.Random(1), "normal") == ["deploy", "p24.0"]
    assert ENGINE.ai_action(state, 0, random.Random(1), "hard") == ["deploy", "changsha.1"]


def test_hard_answers_the_rivals_duel_habit() -> None:
    """吕布's skill adds a die to 猛攻, which the normal AI picks most of the time; 招架 beats
    猛攻, so hard parries every time, where normal's own pick is a guess."""
    state = empty()
    a = general_on(state, 0, "lvbu", "luoyang.0")
    general_on(state, 1, "liubei", "xuchang.0")
    state, _ = ENGINE.apply(state, 0, ["move", a, "xuchang"])
    assert state["phase"] == "duel"
    assert {ENGINE.ai_action(state, 1, random.Random(k), "hard")[0] for k in range(30)} == {"par"}
    assert len({ENGINE.ai_action(state, 1, random.Random(k), "normal")[0] for k in range(30)}) > 1


def test_hard_judges_a_plan_after_the_round() -> None:
    """A plan is judged once the other seats have played the round out (the game ends with the
    round, so they answer a plan that ends it), not at the end of hard's own turn."""
    state = play_out_to_turn(12)
    seat = state["turn"]
    assert seat != (state["first"] - 1) % state["seats"]  # somebody plays after it this round
    det = levels.determinize(state, seat, random.Random(3))
    levels._play_plan(det, seat, random.Random(0), levels.STYLES[3])
    assert det["phase"] == "over" or (det["turn"] == det["first"] and det["turns"] > state["turns"])


def test_hard_aims_at_the_leader_beyond_two_players() -> None:
    """At 3 players, with a soldier of each rival holding a like region, normal kills the first
    it finds; hard kills the one of the rival who leads by public 功勋, and turns to the other
    when that one leads."""
    state = empty(3, 5)
    for slot, seat in (("chenliu.0", 1), ("chenliu.1", 1), ("chenliu.2", 0),
                       ("changsha.0", 2), ("changsha.1", 2), ("changsha.2", 0)):
        put(state, slot, seat)
    state["players"][0]["hand"] = []
    give(state, 0, power=3)
    state["players"][2]["vp"]["city"] = 10
    assert ENGINE.ai_action(state, 0, random.Random(1), "normal") == ["kill", "chenliu.0"]
    assert ENGINE.ai_action(state, 0, random.Random(1), "hard") == ["kill", "changsha.0"]
    state["players"][2]["vp"]["city"], state["players"][1]["vp"]["city"] = 0, 10
    assert ENGINE.ai_action(state, 0, random.Random(1), "hard") == ["kill", "chenliu.0"]


def test_the_leader_is_judged_on_public_facts() -> None:
    """The leader hard aims at is the one with the most 功勋 a player can count: the cards kept
    in a deck, hand and discard are secret until the end, so they do not count."""
    state = play_out_to_turn(12)
    seat = state["turn"]
    for o in range(3):
        if o != seat:
            assert levels.public_score(state, o) == R.score(state, o) - R.score_parts(state, o)["deck"]
    rich, other = (o for o in range(3) if o != seat)
    state["players"][rich]["deck"] += state["market_deck"][:10]  # dear cards kept: secret
    state["players"][other]["vp"]["kill"] += levels.public_score(state, rich) - levels.public_score(state, other) + 1
    assert R.score(state, rich) > R.score(state, other)
    assert levels.aim(state, seat, ai.NORMAL).target == other
