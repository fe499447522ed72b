"""Rules edition 4 (issue 23's rulings, docs/rules/sanguosha.md choices 18 and 21): a lord who kills
a loyalist discards every card of his areas, the judgement area included (the seed: 弃置区域内所有牌);
a card 武圣 uses from the equipment has left it when the 杀's targets are judged (the standard
ruling). A game started before edition 4 (no ``ed``) keeps the old rulings, so its export replays
exactly; the upgrade to edition 4 switches a running game to the new ones."""

from __future__ import annotations

import json

from sgs_testkit import act, asked, hand_of, options, pass_all, table

from engines.base import upgrade_state
from engines.sanguosha import ENGINE
from engines.sanguosha import rules as R


def _older(state: dict) -> dict:
    """The same table as a game started by edition 3 stored it (no rules stamp)."""
    old = json.loads(json.dumps(state))
    del old["ed"]
    return old


def _lord_kills_loyalist(state: dict) -> dict:
    state = act(state, 0, hand_of(state, 0, "sha"), 1)[0]
    state = act(state, 1, "pass")[0]  # no 闪: 1 HP lost, dying
    assert asked(state)[0][1] == "peach"
    return pass_all(state, "peach")


def test_a_lord_who_kills_a_loyalist_discards_his_judgement_area_too() -> None:
    state = table(4, "ZCFN", hp={1: 1}, hands={0: ["sha", "shan"]}, equip={0: ["bagua"]},
                  judge={0: ["shandian"]})
    assert state["ed"] == ENGINE.edition == 4
    after = _lord_kills_loyalist(state)
    assert not after["players"][1]["alive"]
    lord = after["players"][0]
    assert lord["hand"] == [] and not any(lord["equip"].values()) and lord["judge"] == []


def test_before_edition_4_the_judgement_area_was_kept_and_the_upgrade_switches_the_rule() -> None:
    state = table(4, "ZCFN", hp={1: 1}, hands={0: ["sha", "shan"]}, equip={0: ["bagua"]},
                  judge={0: ["shandian"]})
    old = _lord_kills_loyalist(_older(state))
    assert old["players"][0]["hand"] == [] and [e[1] for e in old["players"][0]["judge"]] == ["shandian"]
    upgraded = upgrade_state(ENGINE, _older(state), 3)
    assert upgraded["ed"] == 4
    assert _lord_kills_loyalist(upgraded)["players"][0]["judge"] == []


def test_wusheng_with_the_equipped_weapon_itself_judges_range_without_it() -> None:
    # 6 seats: seat 3 is at distance 3 from seat 0; 麒麟弓 (♥5, range 5) reaches it
    state = table(6, "ZFFFCN", hands={0: [("tao", "H", 3)]}, equip={0: [("qilin", "H", 5)]},
                  heroes={0: "guanyu"})
    weapon = state["players"][0]["equip"]["weapon"]
    peach = state["players"][0]["hand"][0]
    assert "3" in options(state, 0, "wusheng", peach)  # a hand card: the bow's range
    assert set(options(state, 0, "wusheng", weapon)) == {"1", "5"}  # the bow itself: range 1
    assert "3" in options(_older(state), 0, "wusheng", weapon)  # edition 3 judged it with the bow


def test_wusheng_with_the_minus_horse_judges_distance_without_it() -> None:
    state = table(4, "ZFCN", hands={0: [("tao", "H", 3)]}, equip={0: [("chitu", "H", 5)]},
                  heroes={0: "guanyu"})
    horse = state["players"][0]["equip"]["minus"]
    peach = state["players"][0]["hand"][0]
    assert R.distance(state, 0, 2) == 1
    assert "2" in options(state, 0, "wusheng", peach)
    assert "2" not in options(state, 0, "wusheng", horse)  # without 赤兔 seat 2 is 2 away
    state = act(state, 0, "wusheng", horse, 1)[0]  # a legal target still works, and the horse went
    assert state["players"][0]["equip"]["minus"] is None and asked(state) == [(1, "need_shan")]


def test_an_edition_3_export_replays_by_its_own_rules() -> None:
    old = ENGINE.replay_engine(3)
    assert old.rules == 3 and ENGINE.replay_engine(4) is ENGINE
    assert "ed" not in old.new_state({}, 4, 1) and ENGINE.new_state({}, 4, 1)["ed"] == 4
