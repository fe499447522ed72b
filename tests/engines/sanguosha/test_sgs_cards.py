"""Every basic and trick card's effect, the play-phase limits, the hand limit and the reshuffle."""

from __future__ import annotations

import pytest
from sgs_testkit import act, answer, asked, find, hand_of, hp, pass_all, table

from engines.base import EngineError
from engines.sanguosha import ENGINE
from engines.sanguosha import rules as R
from engines.sanguosha.data import card


def test_sha_hits_when_no_shan_and_is_dodged_by_shan() -> None:
    state = table(4, "ZNFF", hands={0: ["sha", "sha"], 1: ["shan"]})
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
    assert asked(state) == [(1, "need_shan")]
    req = ENGINE.pending(state)[0]
    assert req.default == ("pass",) and req.short and req.window
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert hp(state, 1) == 4 and state["players"][1]["hand"] == []
    # only one 杀 per play phase
    assert asked(state) == [(0, "play")]
    sha = hand_of(state, 0, "sha")
    assert sha not in {o.value for o in ENGINE.step(state, 0, []).options}
    with pytest.raises(EngineError):
        act(state, 0, sha, 1)


def test_sha_without_answer_deals_one_damage() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]})
    state, _ = act(state, 0, hand_of(state, 0, "sha"), 3)
    state = answer(state, "need_shan", 3, "pass")
    assert hp(state, 3) == 3


def test_zhuge_allows_any_number_of_sha() -> None:
    state = table(4, "ZNFF", hands={0: ["sha", "sha", "sha"]}, equip={0: ["zhuge"]})
    for _ in range(3):
        state, _ = act(state, 0, hand_of(state, 0, "sha"), 1)
        state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 1


def test_tao_heals_only_a_wounded_user() -> None:
    state = table(4, "ZNFF", hands={0: ["tao"]})
    assert hand_of(state, 0, "tao") not in {o.value for o in ENGINE.step(state, 0, []).options}
    state = table(4, "ZNFF", hands={0: ["tao"]}, hp={0: 2})
    state, _ = act(state, 0, hand_of(state, 0, "tao"))
    assert hp(state, 0) == 3


def test_shan_and_wuxie_cannot_be_used_in_the_play_phase() -> None:
    state = table(4, "ZNFF", hands={0: ["shan", "wuxie"]})
    assert [o.value for o in ENGINE.step(state, 0, []).options] == ["end"]


def test_wuzhong_draws_two_after_an_unanswered_nullify_window() -> None:
    state = table(4, "ZNFF", hands={0: ["wuzhong"], 3: ["wuxie"]})
    state, _ = act(state, 0, hand_of(state, 0, "wuzhong"))
    reqs = ENGINE.pending(state)
    assert [r.seat for r in reqs] == [0, 1, 2, 3]  # every living seat, even those without a 无懈
    assert {r.mode for r in reqs} == {"any"} and len({r.window for r in reqs}) == 1
    state = pass_all(state)
    assert len(state["players"][0]["hand"]) == 2


def test_no_nullify_window_opens_when_no_living_seat_holds_a_wuxie() -> None:
    """The auto-skip (docs/rules/sanguosha.md): it reveals only that nobody holds a 无懈."""
    state = table(4, "ZNFF", hands={0: ["wuzhong"], 2: ["shan", "tao", "sha"]})
    state, events = act(state, 0, hand_of(state, 0, "wuzhong"))
    assert asked(state) == [(0, "play")]  # straight on: no window, the two cards are drawn
    assert len(state["players"][0]["hand"]) == 2
    # The public narration is the one an opened-and-passed window gives.
    held = table(4, "ZNFF", hands={0: ["wuzhong"], 2: ["shan", "tao", "wuxie"]})
    held, opened = act(held, 0, hand_of(held, 0, "wuzhong"))
    held, more = ENGINE.apply(held, 0, ["pass"])
    for seat in (1, 2, 3):
        held, evs = ENGINE.apply(held, seat, ["pass"])
        more += evs
    public = [e.msg for e in events if e.to is None]
    assert public == [e.msg for e in opened + more if e.to is None]
    assert ENGINE.view(state, None) == ENGINE.view(held, None)


def test_a_wuxie_in_a_dead_seat_or_the_deck_opens_no_window_but_zhangba_answers_a_nanman() -> None:
    state = table(4, "ZNFF", hands={0: ["nanman"], 2: ["shan", "tao"]}, equip={1: ["zhangba"]})
    state["players"][1]["hand"] = []
    for seat in (1, 2, 3):
        assert not R.can_respond(state, seat, "nullify")
    assert not R.can_respond(state, 1, "need_sha")  # 丈八蛇矛 needs two hand cards
    R.to_hand(state, 1, [find(state, "shan"), find(state, "tao")])
    assert R.can_respond(state, 1, "need_sha") and not R.can_respond(state, 2, "need_sha")
    state, _ = act(state, 0, hand_of(state, 0, "nanman"))
    assert asked(state) == [(1, "need_sha")]  # no 无懈 window before the first target's 杀 ask
    (req,) = ENGINE.pending(state)
    assert ENGINE.can_answer(state, req)
    state = answer(state, "need_sha", 1, "pass")
    (req,) = ENGINE.pending(state)
    assert (req.seat, req.kind) == (2, "need_sha") and not ENGINE.can_answer(state, req)


def test_a_pass_keeps_the_other_seats_requests_and_the_first_wuxie_closes_the_window() -> None:
    state = table(4, "ZNFF", hands={0: ["wuzhong"], 1: ["wuxie"], 2: ["wuxie"]})
    state, _ = act(state, 0, hand_of(state, 0, "wuzhong"))
    before = {r.seat: r.id for r in ENGINE.pending(state)}
    state, _ = act(state, 3, "pass")
    after = {r.seat: r.id for r in ENGINE.pending(state)}
    assert after == {s: i for s, i in before.items() if s != 3}
    state = answer(state, "nullify", 2, hand_of(state, 2, "wuxie"))
    reopened = {r.seat: r.id for r in ENGINE.pending(state)}  # seat 1 still holds one
    assert set(reopened) == {0, 1, 2, 3} and not set(reopened.values()) & set(before.values())
    state = pass_all(state)
    assert len(state["players"][0]["hand"]) == 0  # negated: nothing drawn


def test_wuxie_chain_of_three_cancels_and_of_two_lets_the_effect_happen() -> None:
    hands = {0: ["wuzhong"], 1: ["wuxie"], 2: ["wuxie"], 3: ["wuxie"]}
    for chain, drawn in ((3, 0), (2, 2)):
        state = table(4, "ZNFF", hands=hands)
        state, _ = act(state, 0, hand_of(state, 0, "wuzhong"))
        for seat in (1, 2, 3)[:chain]:
            state = answer(state, "nullify", seat, hand_of(state, seat, "wuxie"))
        state = pass_all(state)
        assert len(state["players"][0]["hand"]) == drawn, chain


def test_guohe_discards_a_chosen_equipment_card_or_a_random_hand_card() -> None:
    state = table(4, "ZNFF", hands={0: ["guohe", "guohe"], 2: ["shan"]}, equip={2: ["bagua"]})
    armour = state["players"][2]["equip"]["armor"]
    state, _ = act(state, 0, hand_of(state, 0, "guohe"), 2)
    state = pass_all(state)
    assert asked(state) == [(0, "pick")]
    assert {o.value for o in ENGINE.step(state, 0, []).options} == {"hand", armour}
    state, _ = act(state, 0, armour)
    assert state["players"][2]["equip"]["armor"] is None and armour in state["discard"]
    state, _ = act(state, 0, hand_of(state, 0, "guohe"), 2)
    state = pass_all(state)
    state, _ = act(state, 0, "hand")
    assert state["players"][2]["hand"] == []


def test_shunshou_needs_distance_one_and_takes_the_card() -> None:
    state = table(5, "ZCFFN", hands={0: ["shunshou"], 1: ["tao"], 2: ["tao"]})
    ss = hand_of(state, 0, "shunshou")
    assert {o.value for o in ENGINE.step(state, 0, [ss]).options} == {"1"}
    state, _ = act(state, 0, ss, 1)
    state = pass_all(state)
    state, events = act(state, 0, "hand")
    assert card(state["players"][0]["hand"][0]).name == "tao" and not state["players"][1]["hand"]
    private = [e for e in events if e.to is not None]
    assert private and all(set(e.to) == {0, 1} for e in private)


def test_shunshou_can_take_a_card_from_the_judgement_area() -> None:
    state = table(4, "ZNFF", hands={0: ["shunshou"]}, judge={1: ["lebu"]})
    lebu = state["players"][1]["judge"][0][0]
    state, _ = act(state, 0, hand_of(state, 0, "shunshou"), 1)
    state = pass_all(state)
    state, _ = act(state, 0, lebu)
    assert lebu in state["players"][0]["hand"] and not state["players"][1]["judge"]


def test_juedou_alternates_from_the_target_and_the_one_who_stops_is_hurt() -> None:
    state = table(4, "ZNFF", hands={0: ["juedou", "sha"], 2: ["sha", "sha"]})
    state, _ = act(state, 0, hand_of(state, 0, "juedou"), 2)
    state = pass_all(state)
    assert asked(state) == [(2, "need_sha")]
    state = answer(state, "need_sha", 2, hand_of(state, 2, "sha"))
    state = answer(state, "need_sha", 0, hand_of(state, 0, "sha"))
    state = answer(state, "need_sha", 2, hand_of(state, 2, "sha"))
    state = answer(state, "need_sha", 0, "pass")
    assert hp(state, 0) == 3 and hp(state, 2) == 4


def test_jiedao_holder_strikes_the_victim_or_hands_over_the_weapon() -> None:
    state = table(4, "ZNFF", hands={0: ["jiedao", "jiedao"], 1: ["sha"]}, equip={1: ["qinggang"]})
    jd = hand_of(state, 0, "jiedao")
    assert {o.value for o in ENGINE.step(state, 0, [jd]).options} == {"1"}
    assert {o.value for o in ENGINE.step(state, 0, [jd, "1"]).options} == {"0", "2", "3"}
    state, _ = act(state, 0, jd, 1, 2)
    state = pass_all(state)
    state = answer(state, "jiedao", 1, hand_of(state, 1, "sha"))
    assert asked(state) == [(2, "need_shan")]
    state = answer(state, "need_shan", 2, "pass")
    assert hp(state, 2) == 3
    state, _ = act(state, 0, hand_of(state, 0, "jiedao"), 1, 3)
    state = pass_all(state)
    state = answer(state, "jiedao", 1, "pass")
    assert card(state["players"][0]["hand"][0]).name == "qinggang"
    assert state["players"][1]["equip"]["weapon"] is None


def test_nanman_goes_round_in_seat_order_each_with_its_own_window() -> None:
    state = table(4, "ZNFF", turn=1, hands={1: ["nanman"], 3: ["sha"]})
    state, _ = act(state, 1, hand_of(state, 1, "nanman"))
    order = []
    while ENGINE.pending(state) and ENGINE.pending(state)[0].kind != "play":
        state = pass_all(state)
        req = ENGINE.pending(state)[0]
        if req.kind == "need_sha":
            order.append(req.seat)
            action = [hand_of(state, 3, "sha")] if req.seat == 3 else ["pass"]
            state, _ = ENGINE.apply(state, req.seat, action)
    assert order == [2, 3, 0]
    assert [hp(state, s) for s in range(4)] == [3, 4, 3, 4]


def test_wanjian_asks_for_shan_and_one_target_can_be_protected_by_wuxie() -> None:
    state = table(4, "ZNFF", hands={0: ["wanjian"], 1: ["shan"], 3: ["wuxie"]})
    state, _ = act(state, 0, hand_of(state, 0, "wanjian"))
    state = pass_all(state)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    state = pass_all(state)
    state = answer(state, "need_shan", 2, "pass")
    state = answer(state, "nullify", 3, hand_of(state, 3, "wuxie"))
    state = pass_all(state)
    assert [hp(state, s) for s in range(4)] == [4, 4, 3, 4]
    assert asked(state) == [(0, "play")]


def test_taoyuan_heals_every_wounded_player_only() -> None:
    state = table(4, "ZNFF", hands={0: ["taoyuan"], 2: ["wuxie"]}, hp={1: 2, 3: 3})
    state, _ = act(state, 0, hand_of(state, 0, "taoyuan"))
    windows = set()
    while ENGINE.pending(state)[0].kind == "nullify":
        req = ENGINE.pending(state)[0]
        windows.add(req.window)
        state, _ = ENGINE.apply(state, req.seat, ["pass"])
    assert len(windows) == 2  # unwounded players are skipped
    assert [hp(state, s) for s in range(4)] == [4, 3, 4, 4]


def test_wugu_reveals_one_card_per_living_player_and_each_takes_one_in_order() -> None:
    state = table(3, "ZFN", hands={0: ["wugu"]}, top=["tao", "shan", "sha"])
    state, _ = act(state, 0, hand_of(state, 0, "wugu"))
    assert [card(c["id"]).name for c in ENGINE.view(state, None)["table"]][-3:] == ["tao", "shan", "sha"]
    picks = []
    while ENGINE.pending(state)[0].kind != "play":
        state = pass_all(state)
        req = ENGINE.pending(state)[0]
        assert req.kind == "wugu"
        choice = ENGINE.step(state, req.seat, []).options[0].value
        picks.append((req.seat, card(choice).name))
        state, _ = ENGINE.apply(state, req.seat, [choice])
    assert [s for s, _ in picks] == [0, 1, 2]
    assert sorted(n for _, n in picks) == ["sha", "shan", "tao"]


def test_discard_down_to_current_hp_at_the_end_of_the_play_phase() -> None:
    state = table(4, "ZNFF", hp={0: 2}, hands={0: ["shan"] * 5})
    state, _ = act(state, 0, "end")
    assert asked(state) == [(0, "discard")]
    assert ENGINE.pending(state)[0].prompt.params["n"] == 3
    with pytest.raises(EngineError):
        act(state, 0, *state["players"][0]["hand"][:2])
    state, _ = act(state, 0, *state["players"][0]["hand"][:3])
    assert len(state["players"][0]["hand"]) == 2
    assert state["turn"] == 1


def test_the_discard_pile_is_shuffled_into_a_new_deck_when_it_runs_out() -> None:
    state = table(4, "ZNFF", hands={0: ["wuzhong"]})
    state["discard"], state["deck"] = state["deck"][:-1], state["deck"][-1:]
    state, _ = act(state, 0, hand_of(state, 0, "wuzhong"))
    state = pass_all(state)
    assert len(state["players"][0]["hand"]) == 2 and state["reshuffles"] == 1


def test_equipment_replaces_the_old_piece_of_the_same_slot() -> None:
    state = table(4, "ZNFF", hands={0: ["qilin"]}, equip={0: ["zhuge"]})
    old = state["players"][0]["equip"]["weapon"]
    state, _ = act(state, 0, hand_of(state, 0, "qilin"))
    assert card(state["players"][0]["equip"]["weapon"]).name == "qilin" and old in state["discard"]
