"""The 三国杀 AI levels (issue 23): easy, normal and hard play whole games legally in identity
mode and 国战, decide from their own view only, and easy is a player, not the random walker."""

from __future__ import annotations

import random

import pytest
from sgs_testkit import act, hand_of, table
from test_sgs_ai import _scramble

from engines.rng import Rng
from engines.sanguosha import ENGINE, ai
from engines.sanguosha.identity import camps, deal_roles
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
