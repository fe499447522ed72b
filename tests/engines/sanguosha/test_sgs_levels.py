"""The 三国杀 AI levels (issue 23): easy, normal and hard play whole games legally in identity
mode and 国战, decide from their own view only, and easy is a player, not the random walker."""

from __future__ import annotations

import random

import pytest
from sgs_testkit import act, hand_of, table
from test_sgs_ai import _scramble

from engines.rng import Rng
from engines.sanguosha import ENGINE, ai, ai_search
from engines.sanguosha import levels as sgs_levels
from engines.sanguosha.ai_mind import Mind
from engines.sanguosha.identity import camps, deal_roles
from engines.sanguosha.setup import offer_of
from engines.sanguosha.views import build
from engines.selfplay import play

LEVELS = ["easy", "normal", "hard"]


@pytest.fixture(autouse=True)
def _strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint that raises fails the test (live play would fall back to the timeout answer)."""
    monkeypatch.setattr(ai, "STRICT", True)


def test_the_levels_offered() -> None:
    assert ENGINE.ai_levels() == LEVELS


@pytest.mark.parametrize("mode,n,seed", [("identity", 5, 1), ("identity", 8, 2), ("hegemony", 4, 3),
                                         ("hegemony", 6, 4)])
def test_every_level_plays_whole_games_legally(mode: str, n: int, seed: int) -> None:
    """Each level at every seat (and the three mixed): ``apply`` checks every move."""
    options = {"heroes": "standard"} if mode == "identity" else {"mode": "hegemony"}
    for levels in ([lv] * n for lv in LEVELS):
        game = play(ENGINE, options, levels, seed)
        assert game.result is not None, levels
    mixed = [LEVELS[i % 3] for i in range(n)]
    assert play(ENGINE, options, mixed, seed + 100).result is not None


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("n,seed", [(5, 21), (8, 22)])
def test_decisions_do_not_depend_on_other_seats_hidden_roles_or_hands(level: str, n: int, seed: int) -> None:
    """Easy and hard read only their seat's view: other hands, the deck order and the hidden
    roles dealt anew must not change a decision."""
    rng = random.Random(seed)
    state = ENGINE.new_state({"heroes": "standard"}, n, seed)
    checked = 0
    for step in range(500):
        if ENGINE.result(state) is not None:
            break
        req = rng.choice(ENGINE.pending(state))
        if step % 3 == 0:
            other = _scramble(state, req.seat, random.Random(step))
            assert ENGINE.ai_action(other, req.seat, random.Random(step), level) == \
                ENGINE.ai_action(state, req.seat, random.Random(step), level), (step, req.kind)
            checked += 1
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng, level))
    assert checked > 30


# -- easy is a player ------------------------------------------------------------------------------

def test_easy_takes_the_plain_best_move() -> None:
    """Where one move is plainly best the easy AI takes it every time (the random walker would
    not): a 桃 for itself when dying, the armour upgrade, and its 闪 against a 杀 at 1 HP."""
    for r in range(20):
        state = table(4, "ZNFF", turn=0, hands={0: ["bagua"]})
        assert ENGINE.ai_action(state, 0, random.Random(r), "easy") == [hand_of(state, 0, "bagua")]
        state = table(4, "ZNFF", turn=3, hp={0: 1}, hands={3: ["sha"], 0: ["shan", "sha"]})
        shot, _ = act(state, 3, hand_of(state, 3, "sha"), 0)
        assert ENGINE.ai_action(shot, 0, random.Random(r), "easy") == [hand_of(state, 0, "shan")]
        state = table(4, "ZNFF", turn=3, hp={0: 1}, hands={3: ["sha"], 0: ["tao"]})
        shot, _ = act(state, 3, hand_of(state, 3, "sha"), 0)
        dying, _ = act(shot, 0, "pass")
        assert ENGINE.pending(dying)[0].kind == "peach"
        assert ENGINE.ai_action(dying, 0, random.Random(r), "easy") == [hand_of(state, 0, "tao")]


def test_easy_is_short_sighted_where_normal_is_not() -> None:
    """Healthy, it keeps its only 闪 and takes the hit; it discards 闪 first. Normal dodges
    and keeps the 闪."""
    state = table(4, "ZNFF", turn=3, hands={3: ["sha"], 0: ["shan"]})
    shot, _ = act(state, 3, hand_of(state, 3, "sha"), 0)
    assert ENGINE.ai_action(shot, 0, random.Random(0), "easy") == ["pass"]
    assert ENGINE.ai_action(shot, 0, random.Random(0), "normal") == [hand_of(state, 0, "shan")]
    state = table(4, "ZNFF", turn=0, hp={0: 1}, hands={0: ["shan", "sha", "juedou"]})
    state, _ = act(state, 0, "end")
    assert ENGINE.pending(state)[0].kind == "discard"
    dropped = [ai.card(c).name for c in ENGINE.ai_action(state, 0, random.Random(0), "easy")]
    assert dropped[0] == "shan"
    dropped = [ai.card(c).name for c in ENGINE.ai_action(state, 0, random.Random(0), "normal")]
    assert "shan" not in dropped


# -- the ladder's seating ----------------------------------------------------------------------------

@pytest.mark.parametrize("n", [5, 8])
def test_the_ladder_seats_each_camp_at_one_level(n: int) -> None:
    """``camps`` knows the roles a seed deals and swaps the camps' levels between seeds."""
    for seed in range(6):
        roles = [p["role"] for p in ENGINE.new_state({"heroes": "standard"}, n, seed)["players"]]
        assert deal_roles(Rng({"rng": Rng.seed_value(seed)}), n) == roles
        levels = camps(n, seed, "A", "B")
        lord_side = "A" if seed % 2 == 0 else "B"
        assert levels == [lord_side if r in "ZC" else ("B" if lord_side == "A" else "A") for r in roles]


# -- hard searches -----------------------------------------------------------------------------------

def test_a_search_world_keeps_what_the_seat_knows_and_nothing_else() -> None:
    """A determinized world keeps the seat's own hand, every public count and the known roles;
    where the hidden cards and roles really lie does not change it (the pool is dealt from
    its sorted set, the roles by the seat's own estimate)."""
    rng = random.Random(3)
    state = ENGINE.new_state({"heroes": "standard"}, 5, 31)
    for _ in range(120):  # some way into the game: hands, a record of acts
        req = ENGINE.pending(state)[0]
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))
    seat = next(i for i, p in enumerate(state["players"]) if p["alive"] and p["role"] != "Z")
    mind = Mind(build(state, seat, distances=False))
    got = ai_search.world(state, seat, mind, random.Random(5))
    assert got["players"][seat]["hand"] == state["players"][seat]["hand"]
    assert got["players"][seat]["role"] == state["players"][seat]["role"]
    for a, b in zip(got["players"], state["players"], strict=True):
        assert len(a["hand"]) == len(b["hand"]) and a["hp"] == b["hp"] and a["equip"] == b["equip"]
        if b["revealed"]:
            assert a["role"] == b["role"]
    assert sorted(got["deck"] + [c for p in got["players"] for c in p["hand"]]) == \
        sorted(state["deck"] + [c for p in state["players"] for c in p["hand"]])
    assert sorted(p["role"] for p in got["players"]) == sorted(p["role"] for p in state["players"])
    other = _scramble(state, seat, random.Random(9))
    assert ai_search.world(other, seat, Mind(build(other, seat, distances=False)), random.Random(5)) == got


def test_the_search_overrules_normal_order_when_the_rollouts_say_so() -> None:
    """The lord's only 杀: normal's order lists the shot at the healthy seat first here, the
    worlds show that the shot at the rebel with 1 HP and no card kills it; the search takes that
    one."""
    state = table(4, "ZNFF", turn=0, hp={3: 1}, hands={0: ["sha"], 1: ["shan"]})
    mind = Mind(build(state, 0, distances=False))
    sha = hand_of(state, 0, "sha")
    chosen = ai_search.best(ENGINE, state, 0, mind, [[sha, "1"], [sha, "3"]], random.Random(0))
    assert chosen == [sha, "3"]


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[list[list[str]]]:
    """The candidate lists hard hands its search, recorded; the search then plays the last one
    (so a test sees both what was searched and that the search's pick is what is played)."""
    calls: list[list[list[str]]] = []

    def spy(engine: object, state: dict, seat: int, mind: Mind, cands: list[list[str]],
            rng: random.Random) -> list[str]:
        calls.append(cands)
        return cands[-1]

    monkeypatch.setattr(ai_search, "best", spy)
    return calls


def test_hard_searches_only_between_good_cards_in_identity_mode(asked: list[list[list[str]]]) -> None:
    """With two good plays hard asks the search (the renegade too), normal's two first, then
    (at this small table) the 杀 at the other seat it reaches; with one card and nobody to aim
    it at it plays normal's choice without searching."""
    state = table(4, "ZNFF", turn=0, hp={3: 1}, hands={0: ["sha", "wuzhong"]})
    assert ENGINE.ai_action(state, 0, random.Random(0), "hard") == asked[-1][-1]
    sha = hand_of(state, 0, "sha")
    assert len(asked) == 1 and asked[0][1:] == [[hand_of(state, 0, "wuzhong")], [sha, "1"]]
    state = table(4, "ZNFF", turn=0, hands={0: ["wuzhong"]})
    assert ENGINE.ai_action(state, 0, random.Random(0), "hard") == [hand_of(state, 0, "wuzhong")]
    state = table(4, "NZFF", turn=0, hp={3: 1}, hands={0: ["sha", "wuzhong"]})
    assert ENGINE.ai_action(state, 0, random.Random(0), "hard") == asked[-1][-1]
    assert len(asked) == 2 and len(asked[1]) == 2  # not the 杀 at the lord it keeps alive


@pytest.mark.parametrize("n", [5, 8])
def test_hard_searches_the_targets_of_its_one_card_at_small_tables(asked: list[list[list[str]]], n: int) -> None:
    """The lord's only card is a 杀 and two suspects hurt it, both in reach: normal aims at the
    one its guess ranks first; at 5 seats hard plays the shot at each out in its worlds (a
    single good card is searched too), at 8 it keeps normal's shot without searching."""
    state = table(n, "ZFCFN" if n == 5 else "ZFCFNFCF", turn=0, hp={n - 1: 1}, hands={0: ["sha"]})
    state["acts"][1][0] = state["acts"][n - 1][0] = 4
    sha = hand_of(state, 0, "sha")
    normal = ENGINE.ai_action(state, 0, random.Random(0))
    assert normal == [sha, str(n - 1)]
    hard = ENGINE.ai_action(state, 0, random.Random(0), "hard")
    if n == 5:
        assert asked == [[normal, [sha, "1"]]] and hard == [sha, "1"]
    else:
        assert asked == [] and hard == normal


def test_the_renegades_search_counts_every_seat_but_the_lord_against_it() -> None:
    """The renegade must outlive every other seat and keep the lord alive meanwhile: in its
    score its own HP counts for it, a rebel's and a loyalist's against it alike, the lord's not
    at all (the lord's death while others live is a lost game, scored as such)."""
    state = table(5, "NZCFF", turn=0)
    base = ai_search._worth(state, 0)
    change = {}
    for seat in range(4):
        state["players"][seat]["hp"] += 1
        change[seat] = ai_search._worth(state, 0) - base
        state["players"][seat]["hp"] -= 1
    assert change[0] == pytest.approx(1.0) and change[1] == 0.0
    assert change[2] == pytest.approx(change[3]) and change[2] < 0


def test_easy_is_more_short_sighted_at_small_tables() -> None:
    """At 5 seats or fewer easy keeps its 闪 from 2 HP (at 8 seats from 3) and forgets who hurt
    the lord: a seat that only attacked the lord is no suspect to it there."""
    for n, roles, kept in ((5, "ZCFFN", True), (8, "ZCCFFFFN", False)):
        state = table(n, roles, turn=0, hp={1: 2}, hands={0: ["sha"], 1: ["shan"]})
        shot, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
        dodge = [hand_of(state, 1, "shan")]
        assert ENGINE.ai_action(shot, 1, random.Random(0), "easy") == (["pass"] if kept else dodge), n
    view = build(table(5, "ZCFFN", turn=0), 1, distances=False)
    view["acts"][3][0] = 6  # seat 3 hurt the lord three times
    assert sgs_levels._short(view)["acts"][3][0] == 0
    view8 = build(table(8, "ZCCFFFFN", turn=0), 1, distances=False)
    view8["acts"][3][0] = 6
    assert sgs_levels._short(view8)["acts"][3][0] == 6


@pytest.mark.parametrize("n", [5, 8])
def test_hard_picks_the_hero_its_role_won_most_with_at_its_table_size(n: int) -> None:
    """Each seat takes the offered hero first in its role's measured order for its table size
    (heroes.json "ai" ``hard_<role>_<5|8>``), not one order for every role."""
    role_of = {"Z": "lord", "C": "loyalist", "F": "rebel", "N": "renegade"}
    size = 8 if n >= sgs_levels.BIG_TABLE else 5
    picked = 0
    for seed in range(4):
        state = ENGINE.new_state({"heroes": "standard"}, n, 40 + seed)
        while (asks := [r for r in ENGINE.pending(state) if r.kind == "hero"]):
            req = asks[0]
            offer = offer_of(state, req.seat)
            pref = sgs_levels.HARD_HERO_PREF[(role_of[state["players"][req.seat]["role"]], size)]
            action = ENGINE.ai_action(state, req.seat, random.Random(seed), "hard")
            assert offer[int(action[0])] == min(offer, key=pref.index), (seed, req.seat)
            state, _ = ENGINE.apply(state, req.seat, action)
            picked += 1
    assert picked == 4 * n
