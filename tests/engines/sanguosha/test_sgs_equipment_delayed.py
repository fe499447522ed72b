"""Weapons and armour (through the trigger registry), 乐不思蜀 and 闪电."""

from __future__ import annotations

from sgs_testkit import act, answer, asked, hand_of, hp, pass_all, table

from engines.sanguosha import ENGINE


def _sha(state, user, target, *extra):
    return act(state, user, hand_of(state, user, "sha"), target, *extra)[0]


def test_renwang_stops_black_sha_but_not_red_and_qinggang_ignores_it() -> None:
    state = table(4, "ZNFF", hands={0: [("sha", "S", 7)]}, equip={1: ["renwang"]})
    state = _sha(state, 0, 1)
    assert asked(state) == [(0, "play")] and hp(state, 1) == 4
    state = table(4, "ZNFF", hands={0: [("sha", "H", 10)]}, equip={1: ["renwang"]})
    state = _sha(state, 0, 1)
    assert asked(state) == [(1, "need_shan")]
    state = table(4, "ZNFF", hands={0: [("sha", "S", 7)]}, equip={1: ["renwang"], 0: ["qinggang"]})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 3


def test_bagua_judges_red_as_a_shan() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, equip={1: ["bagua"]}, top=[("tao", "H", 3)])
    state = _sha(state, 0, 1)
    assert hp(state, 1) == 4 and asked(state) == [(0, "play")]
    state = table(4, "ZNFF", hands={0: ["sha"]}, equip={1: ["bagua"]}, top=[("sha", "S", 8)])
    state = _sha(state, 0, 1)
    assert asked(state) == [(1, "need_shan")]  # black judgement: still asked for a real 闪


def test_hanbing_prevents_the_damage_and_discards_two_cards() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["tao"]}, equip={0: ["hanbing"], 1: ["dilu"]})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert asked(state) == [(0, "hanbing")]
    state = answer(state, "hanbing", 0, "yes")
    state = answer(state, "pick", 0, "hand")
    state = answer(state, "pick", 0, state["players"][1]["equip"]["plus"])
    assert hp(state, 1) == 4 and not state["players"][1]["hand"] and not state["players"][1]["equip"]["plus"]


def test_qinglong_strikes_again_after_a_dodge() -> None:
    state = table(4, "ZNFF", hands={0: ["sha", "sha"], 1: ["shan"]}, equip={0: ["qinglong"]})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    state = answer(state, "qinglong", 0, hand_of(state, 0, "sha"))
    state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 3


def test_guanshi_forces_a_dodged_sha_to_hit() -> None:
    state = table(4, "ZNFF", hands={0: ["sha", "tao", "shan"], 1: ["shan"]}, equip={0: ["guanshi"]})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, hand_of(state, 1, "shan"))
    assert asked(state) == [(0, "guanshi")]
    state, _ = act(state, 0, *state["players"][0]["hand"][:2])
    assert hp(state, 1) == 3 and not state["players"][0]["hand"]


def test_fangtian_gives_a_last_card_sha_three_targets() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, equip={0: ["fangtian"]})
    sha = hand_of(state, 0, "sha")
    step = ENGINE.step(state, 0, [sha, "1"])
    assert step.complete and {o.value for o in step.options} == {"2", "3"}
    state, _ = act(state, 0, sha, 1, 2, 3)
    for seat in (1, 2, 3):
        state = answer(state, "need_shan", seat, "pass")
    assert [hp(state, s) for s in (1, 2, 3)] == [3, 3, 3]
    state = table(4, "ZNFF", hands={0: ["sha", "tao"]}, equip={0: ["fangtian"]})
    assert ENGINE.step(state, 0, [hand_of(state, 0, "sha"), "1"]).options == []


def test_qilin_discards_a_horse_of_the_damaged_target() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, equip={0: ["qilin"], 2: ["jueying"]})
    state = _sha(state, 0, 2)
    state = answer(state, "need_shan", 2, "pass")
    horse = state["players"][2]["equip"]["plus"]
    state = answer(state, "qilin", 0, horse)
    assert hp(state, 2) == 3 and state["players"][2]["equip"]["plus"] is None


def test_zhangba_uses_two_hand_cards_as_sha_in_play_and_in_response() -> None:
    state = table(4, "ZNFF", hands={0: ["tao", "shan"], 1: ["nanman"]}, equip={0: ["zhangba"]})
    a, b = state["players"][0]["hand"]
    state, _ = act(state, 0, "zb", a, b, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 3 and not state["players"][0]["hand"]
    state = table(4, "ZNFF", turn=1, hands={1: ["nanman"], 0: ["tao", "shan"]}, equip={0: ["zhangba"]})
    state, _ = act(state, 1, hand_of(state, 1, "nanman"))
    while asked(state)[0] != (0, "need_sha"):
        state = pass_all(state)
        if asked(state)[0][1] == "need_sha" and asked(state)[0][0] != 0:
            state = answer(state, "need_sha", asked(state)[0][0], "pass")
    a, b = state["players"][0]["hand"]
    state = answer(state, "need_sha", 0, "zb", a, b)
    assert hp(state, 0) == 4


def test_cixiong_needs_different_genders() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 1: ["tao"]}, equip={0: ["cixiong"]})
    state["players"][0]["gender"], state["players"][1]["gender"] = "male", "female"
    state = _sha(state, 0, 1)
    state = answer(state, "cixiong", 0, "yes")
    state = answer(state, "cixiong_choice", 1, "pass")
    assert len(state["players"][0]["hand"]) == 1
    state = table(4, "ZNFF", hands={0: ["sha"]}, equip={0: ["cixiong"]})  # beginner: no gender
    state = _sha(state, 0, 1)
    assert asked(state) == [(1, "need_shan")]


def test_lebu_skips_the_play_phase_unless_the_judgement_is_a_heart() -> None:
    for suit, skipped in (("S", True), ("H", False)):
        state = table(4, "ZNFF", hands={0: ["lebu"]}, top=[("tao", "H", 7) if suit == "H" else ("sha", "S", 9)])
        state, _ = act(state, 0, hand_of(state, 0, "lebu"), 1)
        assert state["players"][1]["judge"][0][1] == "lebu"
        state, _ = act(state, 0, "end")
        state = pass_all(state)  # the 无懈 window on 乐 at 1's judgement
        assert not state["players"][1]["judge"]
        assert (asked(state)[0] != (1, "play")) == skipped


def test_lebu_cannot_be_placed_twice_in_one_area() -> None:
    state = table(4, "ZNFF", hands={0: ["lebu", "lebu"]}, judge={1: ["lebu"]})
    assert "1" not in {o.value for o in ENGINE.step(state, 0, [hand_of(state, 0, "lebu")]).options}


def _start_turn(state, seat):
    """Begin ``seat``'s turn from its preparation phase (judgement areas as set up)."""
    from engines.flow import Ctx
    from engines.sanguosha.rules import FLOW

    state["flow"]["stack"] = [{"k": "game", "cur": seat}, {"k": "turn", "seat": seat, "st": 2}]
    FLOW.run(Ctx(FLOW, state))
    return state


def test_shandian_is_placed_on_oneself_then_strikes_on_spade_2_to_9_for_three_damage() -> None:
    state = table(4, "ZNFF", hands={0: ["shandian"]})
    state, _ = act(state, 0, hand_of(state, 0, "shandian"))
    assert state["players"][0]["judge"][0][1] == "shandian"
    state = table(4, "ZNFF", judge={0: ["shandian"]}, top=[("sha", "S", 8)])
    state = pass_all(_start_turn(state, 0))
    assert hp(state, 0) == 1 and not state["players"][0]["judge"]


def test_shandian_passes_on_skipping_a_player_who_already_has_one() -> None:
    state = table(4, "ZNFF", judge={0: [("shandian", "S", 1)], 1: [("shandian", "H", 12)]},
                  top=[("tao", "H", 3)])
    state = pass_all(_start_turn(state, 0))
    assert not state["players"][0]["judge"]
    assert [e[1] for e in state["players"][2]["judge"]] == ["shandian"]
    assert len(state["players"][1]["judge"]) == 1


def test_nullified_shandian_moves_on_without_a_judgement() -> None:
    state = table(4, "ZNFF", judge={0: ["shandian"]}, hands={3: ["wuxie"]})
    state = _start_turn(state, 0)
    deck_before = len(state["deck"])
    state = answer(state, "nullify", 3, hand_of(state, 3, "wuxie"))
    state = pass_all(state)
    assert [e[1] for e in state["players"][1]["judge"]] == ["shandian"]
    assert len(state["deck"]) == deck_before - 2  # only the draw phase's two cards
