"""The AI's hints for 鬼才, 观星, 反间's suit and 反馈/刚烈 (``ai.py``'s tables): each turns the
situation its side's way, where the window default (pass / 黑桃 / yes) would not. Friends and
enemies come from the recorded behaviour (``acts``), as in play."""

from __future__ import annotations

import random

import pytest
from sgs_testkit import act, answer, asked, hp, pass_all, table

from engines.flow import Flow
from engines.sanguosha import ENGINE, ai
from engines.sanguosha.data import card, deck

State = dict


@pytest.fixture(autouse=True)
def _strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint that raises fails the test (live play would fall back to the timeout answer)."""
    monkeypatch.setattr(ai, "STRICT", True)


def _ai(state: State, seat: int) -> list[str]:
    return ENGINE.ai_action(state, seat, random.Random(0))


def _sides(state: State) -> State:
    """Seat 2 (a rebel) hurt the lord twice and seat 1 (a loyalist) hit seat 2 back: the lord
    at seat 0 sees 1 as a friend and 2 as an enemy."""
    state["acts"][2][0] = 4
    state["acts"][1][2] = 4
    return state


def _events(state: State, seat: int, action: list[str]) -> tuple[State, set[str]]:
    state, events = ENGINE.apply(state, seat, action)
    return state, {e.kind for e in events}


# -- 鬼才 -----------------------------------------------------------------------------------------

def _guicai_table(target: int, trick: str, top: tuple, hand: list[tuple]) -> State:
    state = _sides(table(5, "ZCFFN", turn=target, phase="judge", judge={target: [trick]}, top=[top],
                         hands={0: hand}, heroes={0: "simayi"}))
    state = pass_all(state, "nullify")
    assert asked(state) == [(0, "guicai")]
    return state


def test_guicai_saves_a_friend_from_lebu_with_the_cheapest_heart_and_dooms_an_enemy() -> None:
    hand = [("shan", "H"), ("sha", "C"), ("tao", "H")]
    friend = _guicai_table(1, "lebu", ("sha", "S", 8), hand)
    got = _ai(friend, 0)
    assert card(got[0]).suit == "H" and card(got[0]).name == "shan"  # not the 桃
    _, kinds = _events(friend, 0, got)
    assert "lebu_miss" in kinds and "lebu_hit" not in kinds

    enemy = _guicai_table(2, "lebu", ("tao", "H"), hand)
    got = _ai(enemy, 0)
    assert card(got[0]).suit != "H"
    _, kinds = _events(enemy, 0, got)
    assert "lebu_hit" in kinds

    already = _guicai_table(1, "lebu", ("wuzhong", "H"), hand)  # the friend escapes anyway
    assert _ai(already, 0) == ["pass"]


def test_guicai_turns_lightning_onto_an_enemy_and_away_from_a_friend() -> None:
    hand = [("sha", "S", 9), ("tao", "H", 3)]
    enemy = _guicai_table(2, "shandian", ("tao", "H", 4), hand)
    got = _ai(enemy, 0)
    enemy = act(enemy, 0, *got)[0]
    assert hp(enemy, 2) == 1

    friend = _guicai_table(1, "shandian", ("sha", "S", 8), hand)
    got = _ai(friend, 0)
    friend = act(friend, 0, *got)[0]
    assert hp(friend, 1) == 4



def test_guicai_makes_an_enemys_eight_trigrams_fail() -> None:
    """The lord's 杀 at a rebel whose 八卦阵 judged red: 鬼才 swaps in a black card, so the
    rebel (no hand) takes the hit."""
    state = _sides(table(5, "ZCFFN", hands={0: ["sha", ("shan", "H"), ("guohe", "C")]},
                         equip={0: ["chitu"], 2: ["bagua"]}, top=[("tao", "H")], heroes={0: "simayi"}))
    sha = next(c for c in state["players"][0]["hand"] if card(c).name == "sha")
    state = act(state, 0, sha, 2)[0]
    assert asked(state) == [(0, "guicai")]
    got = _ai(state, 0)
    assert card(got[0]).name == "guohe"
    state = act(state, 0, *got)[0]
    if asked(state) == [(2, "need_shan")]:
        state = answer(state, "need_shan", 2, "pass")
    assert hp(state, 2) == 3

# -- 观星 -----------------------------------------------------------------------------------------

def test_guanxing_beats_its_lebu_then_draws_the_best_and_buries_the_rest() -> None:
    top = [("sha", "S", 8), ("wuzhong", "H"), ("tao", "H"), ("guohe", "C")]
    state = table(4, "ZNFF", heroes={0: "zhugeliang"}, judge={0: ["lebu"]}, top=top, phase="prepare")
    assert asked(state) == [(0, "guanxing")]
    cards = Flow.ask_of(state, 0).info["cards"]
    by_name = {card(c).name: c for c in cards}
    got = _ai(state, 0)
    state, kinds = _events(state, 0, got)
    while asked(state) and asked(state)[0][1] == "nullify":
        state, more = _events(state, asked(state)[0][0], ["pass"])
        kinds |= more
    assert "lebu_miss" in kinds and "lebu_hit" not in kinds  # the cheaper heart was judged
    assert asked(state) == [(0, "play")]
    assert {by_name["tao"], by_name["sha"]} <= set(state["players"][0]["hand"])  # the best two
    assert state["deck"][0] == by_name["guohe"]  # the least useful card went to the bottom


# -- 反间 -----------------------------------------------------------------------------------------

def _of_suit(suit: str, k: int) -> list[tuple]:
    picked = [c for c in deck() if card(c).suit == suit][:k]
    return [(card(c).name, suit, card(c).rank) for c in picked]


def test_fanjian_names_the_suit_it_has_seen_least_of() -> None:
    """The target holds three ♠, ♣ and ♦ cards: ♥ is the likeliest in 周瑜's hand (here it is
    his one card), where the default ♠ would cost 1 HP."""
    hand = _of_suit("S", 3) + _of_suit("C", 3) + _of_suit("D", 3)
    state = table(4, "ZNFF", hands={0: [("tao", "H", 3)], 1: hand}, heroes={0: "zhouyu"})
    state = act(state, 0, "fanjian", 1)[0]
    assert asked(state) == [(1, "fanjian_suit")]
    assert _ai(state, 1) == ["H"]
    state = answer(state, "fanjian_suit", 1, "H")
    assert hp(state, 1) == 4


# -- 反馈 / 刚烈 ----------------------------------------------------------------------------------

def _duelled(roles: str, hero: str) -> State:
    """The lord (seat 0) duels seat 1, who has no 杀: seat 1's damage skill is asked."""
    state = table(5, roles, hands={0: ["juedou", "shan"]}, heroes={1: hero})
    state = act(state, 0, next(c for c in state["players"][0]["hand"] if card(c).name == "juedou"), 1)[0]
    state = pass_all(state, "nullify")
    state = answer(state, "need_sha", 1, "pass")
    assert asked(state) == [(1, "skill")]
    assert Flow.ask_of(state, 1).info["skill"] in ("fankui", "ganglie")
    return state


@pytest.mark.parametrize("hero", ["simayi", "xiahoudun"])
def test_fankui_and_ganglie_are_not_turned_on_a_friend(hero: str) -> None:
    assert _ai(_duelled("ZCFFN", hero), 1) == ["pass"]  # a loyalist hurt by its lord
    assert _ai(_duelled("ZFCFN", hero), 1) == ["yes"]  # a rebel hurt by the lord
