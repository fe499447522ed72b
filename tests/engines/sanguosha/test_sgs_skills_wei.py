"""魏 heroes: 曹操 司马懿 夏侯惇 张辽 许褚 郭嘉 甄姬, each skill and the argued interactions
(鬼才 on 八卦阵 and 闪电, 护驾 through several players)."""

from __future__ import annotations

import json

from sgs_testkit import act, answer, asked, hand_of, hp, names, options, pass_all, table

from engines.sanguosha import ENGINE
from engines.sanguosha.data import card


def _sha(state, user, target):
    return act(state, user, hand_of(state, user, "sha"), target)[0]


def test_jianxiong_takes_the_strike_that_hurt() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, heroes={1: "caocao"})
    sha = hand_of(state, 0, "sha")
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert asked(state) == [(1, "skill")]
    state = answer(state, "skill", 1, "yes")
    assert sha in state["players"][1]["hand"] and hp(state, 1) == 3


def test_jianxiong_is_optional_and_its_default_is_yes() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, heroes={1: "caocao"})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    req = ENGINE.pending(state)[0]
    assert req.default == ("yes",) and req.short
    state = answer(state, "skill", 1, "pass")
    assert state["players"][1]["hand"] == []


def test_hujia_asks_the_wei_heroes_in_turn_until_one_dodges() -> None:
    # 曹操 lord at 0; 1 is Wei without a 闪, 2 is Shu with one (never asked), 3 is Wei with one.
    state = table(5, "ZCFCN", turn=4, hands={4: ["sha"], 2: ["shan"], 3: ["shan"]},
                  heroes={0: "caocao", 1: "xuchu", 2: "guanyu", 3: "zhangliao", 4: "ganning"})
    state = _sha(state, 4, 0)
    assert asked(state) == [(0, "need_shan")] and "hujia" in options(state, 0)
    state = answer(state, "need_shan", 0, "hujia")
    assert asked(state) == [(1, "need_shan")]
    state = answer(state, "need_shan", 1, "pass")
    assert asked(state) == [(3, "need_shan")]  # 2 is Shu: skipped
    state = answer(state, "need_shan", 3, hand_of(state, 3, "shan"))
    assert asked(state) == [(4, "play")] and hp(state, 0) == 5 and not state["players"][3]["hand"]


def test_hujia_with_no_helper_answering_returns_to_the_lord_once() -> None:
    state = table(5, "ZCFCN", turn=4, hands={4: ["sha"], 0: ["shan"]},
                  heroes={0: "caocao", 1: "xuchu", 4: "lvbu"})
    state = _sha(state, 4, 0)
    state = answer(state, "need_shan", 0, "hujia")
    state = answer(state, "need_shan", 1, "pass")
    assert asked(state) == [(0, "need_shan")]
    assert "hujia" not in options(state, 0)  # asked once per request
    state = answer(state, "need_shan", 0, hand_of(state, 0, "shan"))
    assert hp(state, 0) == 5


def test_hujia_is_only_the_lords() -> None:
    state = table(4, "ZCFN", turn=2, hands={2: ["sha"]}, heroes={1: "caocao", 0: "xuchu"})
    state = _sha(state, 2, 1)
    assert "hujia" not in options(state, 1)


def test_guicai_turns_a_black_bagua_judgement_red() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 2: [("tao", "H", 3)]}, equip={1: ["bagua"]},
                  top=[("sha", "S", 8)], heroes={2: "simayi"})
    state = _sha(state, 0, 1)
    assert asked(state) == [(2, "guicai")]
    state = answer(state, "guicai", 2, hand_of(state, 2, "tao"))
    assert asked(state) == [(0, "play")] and hp(state, 1) == 4  # the red judgement dodged


def test_guicai_can_make_a_red_bagua_judgement_fail() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 2: [("sha", "C", 3)]}, equip={1: ["bagua"]},
                  top=[("tao", "H", 4)], heroes={2: "simayi"})
    state = _sha(state, 0, 1)
    state = answer(state, "guicai", 2, hand_of(state, 2, "sha"))
    assert asked(state) == [(1, "need_shan")]


def test_guicai_saves_from_lightning() -> None:
    state = table(4, "ZNFF", turn=1, judge={1: ["shandian"]}, hands={2: [("tao", "H", 3)]},
                  top=[("sha", "S", 8)], heroes={2: "simayi"}, phase="judge")
    state = pass_all(state, "nullify")
    assert asked(state) == [(2, "guicai")]
    state = answer(state, "guicai", 2, hand_of(state, 2, "tao"))
    assert hp(state, 1) == 4 and any(e[1] == "shandian" for e in state["players"][2]["judge"])


def test_guicai_can_make_lightning_strike() -> None:
    state = table(4, "ZNFF", turn=1, judge={1: ["shandian"]}, hands={2: [("sha", "S", 9)]},
                  top=[("tao", "H", 4)], heroes={2: "simayi"}, phase="judge")
    state = pass_all(state, "nullify")
    state = answer(state, "guicai", 2, hand_of(state, 2, "sha"))
    assert hp(state, 1) == 1


def test_fankui_takes_a_card_of_the_source() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, equip={0: ["chitu"]}, heroes={1: "simayi"})
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = answer(state, "skill", 1, "yes")
    horse = state["players"][0]["equip"]["minus"]
    assert options(state, 1) == [horse]  # no hand left: only the horse
    state = answer(state, "pick", 1, horse)
    assert horse in state["players"][1]["hand"]


def test_ganglie_source_discards_two_or_takes_damage() -> None:
    state = table(4, "ZNFF", hands={0: ["sha", "tao", "shan"]}, heroes={1: "xiahoudun"},
                  top=[("sha", "S", 8)])
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = answer(state, "skill", 1, "yes")
    assert asked(state) == [(0, "ganglie")]
    state = answer(state, "ganglie", 0, "pass")
    assert hp(state, 0) == 3
    state = table(4, "ZNFF", hands={0: ["sha", "tao", "shan"]}, heroes={1: "xiahoudun"},
                  top=[("sha", "S", 8)])
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = answer(state, "skill", 1, "yes")
    state = act(state, 0, hand_of(state, 0, "tao"), hand_of(state, 0, "shan"))[0]
    assert hp(state, 0) == 4 and not state["players"][0]["hand"]


def test_ganglie_fails_on_a_heart() -> None:
    state = table(4, "ZNFF", hands={0: ["sha", "tao", "shan"]}, heroes={1: "xiahoudun"},
                  top=[("tao", "H", 4)])
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = answer(state, "skill", 1, "yes")
    assert asked(state) == [(0, "play")] and hp(state, 0) == 4


def test_tuxi_takes_two_hand_cards_instead_of_drawing() -> None:
    state = table(4, "ZNFF", hands={1: ["shan"], 2: ["tao"]}, heroes={0: "zhangliao"}, phase="draw")
    deck = len(state["deck"])
    assert asked(state) == [(0, "tuxi")] and set(options(state, 0)) == {"1", "2", "pass"}
    state = act(state, 0, 1, 2)[0]
    assert names(state, 0) == ["shan", "tao"] and len(state["deck"]) == deck


def test_luoyi_draws_one_fewer_and_strikes_for_two() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, heroes={0: "xuchu"}, phase="draw")
    assert asked(state) == [(0, "skill")] and ENGINE.pending(state)[0].default == ("pass",)
    state = answer(state, "skill", 0, "yes")
    assert len(state["players"][0]["hand"]) == 2
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    assert hp(state, 1) == 2


def test_tiandu_keeps_the_judgement_card() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, equip={1: ["bagua"]}, top=[("tao", "H", 3)],
                  heroes={1: "guojia"})
    state = _sha(state, 0, 1)
    assert asked(state) == [(1, "skill")]
    state = answer(state, "skill", 1, "yes")
    assert names(state, 1) == ["tao"] and hp(state, 1) == 3 + 0


def test_yiji_gives_the_top_two_cards_away() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, heroes={1: "guojia"}, top=["tao", "wuzhong"])
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    state = answer(state, "skill", 1, "yes")
    req = ENGINE.pending(state)[0]
    assert req.kind == "yiji"
    first, second = ENGINE.view(state, 1)["you"]["ask"]["info"]["cards"]
    assert card(first).name == "tao"
    public = json.dumps(ENGINE.view(state, None))
    assert f'"{first}"' not in public and f'"{second}"' not in public  # only 郭嘉 sees them
    state = act(state, 1, 1, 3)[0]
    assert first in state["players"][1]["hand"] and second in state["players"][3]["hand"]


def test_yiji_asks_once_per_point_of_damage() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"]}, heroes={0: "xuchu", 1: "guojia"})
    state["tflags"]["luoyi"] = 1  # 许褚 drew one fewer this turn: his 杀 deals 2
    state = _sha(state, 0, 1)
    state = answer(state, "need_shan", 1, "pass")
    got = 0
    while asked(state) and asked(state)[0] == (1, "skill"):
        state = answer(state, "skill", 1, "yes")
        state = act(state, 1, "keep")[0]
        got += 1
    assert got == 2 and hp(state, 1) == 1 and len(state["players"][1]["hand"]) == 4


def test_luoshen_keeps_black_judgements_until_a_red_one() -> None:
    state = table(4, "ZNFF", heroes={0: "zhenji"}, phase="prepare",
                  top=[("sha", "S", 8), ("sha", "C", 3), ("tao", "H", 4)])
    kept = [state["deck"][-1], state["deck"][-2]]
    for _ in range(3):
        state = answer(state, "skill", 0, "yes")
    # two black cards kept, the red one discarded; then the draw phase drew 2
    assert set(kept) <= set(state["players"][0]["hand"]) and len(state["players"][0]["hand"]) == 4
    assert card(state["discard"][-1]).suit == "H"


def test_qingguo_plays_a_black_hand_card_as_a_dodge() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 1: [("guohe", "S", 3)]}, heroes={1: "zhenji"})
    state = _sha(state, 0, 1)
    assert "qingguo" in options(state, 1)
    state = act(state, 1, "qingguo", hand_of(state, 1, "guohe"))[0]
    assert hp(state, 1) == 3 and not state["players"][1]["hand"]


def test_guicai_then_tiandu_takes_the_replacement_card() -> None:
    state = table(4, "ZNFF", hands={0: ["sha"], 2: [("tao", "H", 3)]}, equip={1: ["bagua"]},
                  top=[("sha", "S", 8)], heroes={1: "guojia", 2: "simayi"})
    peach = hand_of(state, 2, "tao")
    state = _sha(state, 0, 1)
    state = answer(state, "guicai", 2, peach)
    state = answer(state, "skill", 1, "yes")  # 天妒
    assert peach in state["players"][1]["hand"] and hp(state, 1) == 3


def test_a_wei_helpers_bagua_answers_hujia() -> None:
    state = table(4, "ZCFN", turn=3, hands={3: ["sha"]}, equip={1: ["bagua"]}, top=[("tao", "H", 3)],
                  heroes={0: "caocao", 1: "zhangliao"})
    state = _sha(state, 3, 0)
    state = answer(state, "need_shan", 0, "hujia")
    assert hp(state, 0) == 4 and asked(state) == [(3, "play")]  # 张辽's 八卦阵 judged red
