"""The 三国杀 AI: it decides from its own view only, guesses identities from behaviour, plays
cards with purpose, answers unknown (skill) asks legally, and beats random players in every role."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from sgs_testkit import act, asked, count_cards, hand_of, table

from bench.bench_sanguosha_ai import ai_player, play, win_rate
from engines.base import Option, Step
from engines.flow import Ask, Flow
from engines.sanguosha import ENGINE, ai, choices
from engines.sanguosha.ai_mind import Mind
from engines.sanguosha.data import card, deck
from engines.sanguosha.views import build

ALL = set(deck())
HEROES = next(spec for spec in ENGINE.option_specs() if spec.name == "heroes")
HERO_MODES = [value for value, _ in HEROES.choices]  # beginner, and part 2's standard heroes


@pytest.fixture(autouse=True)
def _strict(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint that raises fails the test (live play would fall back to the timeout answer)."""
    monkeypatch.setattr(ai, "STRICT", True)


def _mind(state: dict, seat: int) -> Mind:
    return Mind(build(state, seat))


# -- only its own view --------------------------------------------------------------------------

def _scramble(state: dict, seat: int, rng: random.Random) -> dict:
    """The same public table for ``seat``, other seats' hands, the deck order and the hidden
    roles (not its own) dealt anew."""
    out = json.loads(json.dumps(state))
    others = [p for i, p in enumerate(out["players"]) if i != seat]
    pool = list(out["deck"]) + [c for p in others for c in p["hand"]]
    rng.shuffle(pool)
    for p in others:
        k = len(p["hand"])
        p["hand"], pool = pool[:k], pool[k:]
    out["deck"] = pool
    hidden = [i for i, p in enumerate(out["players"]) if i != seat and not p["revealed"]]
    roles = [out["players"][i]["role"] for i in hidden]
    rng.shuffle(roles)
    for i, r in zip(hidden, roles, strict=True):
        out["players"][i]["role"] = r
    return out


@pytest.mark.parametrize("heroes", HERO_MODES)
@pytest.mark.parametrize("n,seed", [(5, 11), (8, 12), (10, 13)])
def test_decisions_do_not_depend_on_other_seats_hidden_roles_or_hands(n: int, seed: int, heroes: str) -> None:
    rng = random.Random(seed)
    state = ENGINE.new_state({"heroes": heroes}, n, seed)
    kinds, changed_roles = set(), 0
    for step in range(600):
        if ENGINE.result(state) is not None:
            break
        req = rng.choice(ENGINE.pending(state))
        if step % 3 == 0:
            other = _scramble(state, req.seat, random.Random(step))
            changed_roles += any(a["role"] != b["role"] for a, b in zip(state["players"], other["players"],
                                                                           strict=True))
            assert ENGINE.ai_action(other, req.seat, random.Random(step)) == \
                ENGINE.ai_action(state, req.seat, random.Random(step)), (step, req.kind)
            kinds.add(req.kind)
        state, _ = ENGINE.apply(state, req.seat, ENGINE.ai_action(state, req.seat, rng))
    assert {"play", "nullify"} <= kinds and changed_roles > 10  # the check saw real variety


# -- identity from behaviour ----------------------------------------------------------------------

def test_attacking_the_lord_marks_a_rebel_and_defending_it_a_loyalist() -> None:
    state = table(5, "ZCFFN")
    state["acts"][3][0] = 4  # seat 3 hurt the lord twice
    state["acts"][1][3] = 3  # seat 1 hit back at seat 3
    state["acts"][4][0] = -3  # seat 4 saved the lord with a 桃
    lord = _mind(state, 0)
    assert lord.p[3]["rebel"] > 0.8 and lord.enemy(3)
    assert lord.p[1]["loyalist"] > lord.p[2]["loyalist"] and not lord.enemy(1)
    assert lord.loyalty[4] > 0 and not lord.enemy(4)
    rebel = _mind(state, 2)  # a rebel: the lord, and the one who hunts its fellow rebel
    assert rebel.enemy(0) and rebel.enemy_score(1) > rebel.enemy_score(3) and rebel.friend(3)


def test_role_counts_limit_the_guess() -> None:
    """Two seats attacked the lord but one rebel is left: the guess splits between rebel and
    renegade, and with every rebel dead the renegade is the one who attacked."""
    state = table(5, "ZCFFN")
    state["players"][2]["alive"] = False
    state["players"][2]["revealed"] = True
    state["acts"][3][0] = 4
    state["acts"][4][0] = 4
    lord = _mind(state, 0)
    assert lord.p[3]["rebel"] + lord.p[4]["rebel"] == pytest.approx(1.0, abs=0.05)
    assert lord.p[3]["renegade"] > 0.3 and lord.p[1]["loyalist"] > 0.6 > lord.p[3]["loyalist"]
    state["players"][3]["alive"] = False
    state["players"][3]["revealed"] = True
    lord = _mind(state, 0)
    assert lord.p[4]["renegade"] > 0.75 and lord.enemy(4) and not lord.enemy(1)


def test_a_masked_renegade_is_hunted_once_the_game_stalls() -> None:
    """Rebels dead, the renegade never showed itself: the lord waits at first (it could be the
    loyalist), then presses the suspects rather than play forever."""
    state = table(7, "ZCCFFFN")
    for s in (3, 4, 5):
        state["players"][s]["alive"] = False
        state["players"][s]["revealed"] = True
    state["acts"][6][0] = 1  # seat 6 once aimed a card at the lord: a little more suspicious
    state["round"] = 5
    assert not any(_mind(state, 0).enemy(s) for s in (1, 2, 6))
    state["round"] = 20
    lord = _mind(state, 0)
    assert lord.enemy(6) and not lord.enemy(1) and not lord.enemy(2)
    assert not _mind(state, 6).hunt  # the renegade itself does not hunt


def test_the_renegade_protects_the_lord_until_they_are_alone() -> None:
    state = table(4, "ZNFF")
    ren = _mind(state, 1)
    assert ren.friend(0) and not ren.enemy(0)
    for s in (2, 3):
        state["players"][s]["alive"] = False
        state["players"][s]["revealed"] = True
    ren = _mind(state, 1)
    assert ren.enemy(0) and not ren.friend(0)


# -- card play with purpose ---------------------------------------------------------------------

def test_sha_goes_to_the_suspected_rebel_most_likely_to_die() -> None:
    state = table(5, "CZFFN", turn=0, hp={2: 1, 3: 3}, equip={0: ["qinglong"]},
                  hands={0: ["sha", "shan"], 2: ["shan"], 3: ["shan"]})
    state["acts"][2][1] = 2
    state["acts"][3][1] = 2
    assert ENGINE.ai_action(state, 0, random.Random(0)) == [hand_of(state, 0, "sha"), "2"]
    lord = table(5, "ZCFFN", turn=0, hands={0: ["sha"]})  # the lord never shoots blind
    assert ENGINE.ai_action(lord, 0, random.Random(0)) == ["end"]


def test_a_peach_only_for_a_believed_ally() -> None:
    def dying(rebel_record: bool) -> dict:
        state = table(8, "ZCFCFFFN", turn=2, hp={3: 1}, hands={2: ["sha"], 1: ["tao", "tao"]})
        if rebel_record:
            state["acts"][3][0] = 4
        else:
            state["acts"][3][2] = 4  # seat 3 fought a rebel
            state["acts"][2][0] = 4
        state, _ = act(state, 2, hand_of(state, 2, "sha"), 3)
        state, _ = act(state, 3, "pass")
        assert ENGINE.pending(state)[0].kind == "peach"
        return state

    assert ENGINE.ai_action(dying(True), 1, random.Random(0)) == ["pass"]
    state = dying(False)
    assert ENGINE.ai_action(state, 1, random.Random(0))[0] in state["players"][1]["hand"]


def test_duel_when_holding_more_sha() -> None:
    state = table(4, "ZNFF", turn=2, hands={2: ["juedou", "sha", "sha"], 0: ["shan"]})
    action = ENGINE.ai_action(state, 2, random.Random(0))
    assert action == [hand_of(state, 2, "juedou"), "0"]
    bare = table(4, "ZNFF", turn=2, hands={2: ["juedou"], 0: ["shan"] * 4})
    assert ENGINE.ai_action(bare, 2, random.Random(0)) == ["end"]


def _dismantles(state: dict, seat: int, target: int) -> dict:
    """The AI at ``seat`` plays its 过河拆桥 at ``target``; nobody 无懈s; the state at its pick."""
    action = ENGINE.ai_action(state, seat, random.Random(0))
    assert action == [hand_of(state, seat, "guohe"), str(target)]
    state, _ = act(state, seat, *action)
    while ENGINE.pending(state)[0].kind == "nullify":
        state, _ = act(state, ENGINE.pending(state)[0].seat, "pass")
    return state


def test_dismantle_clears_the_lords_lebu_and_strips_an_enemys_armour() -> None:
    state = _dismantles(table(5, "CZFFN", turn=0, hands={0: ["guohe"]}, judge={1: ["lebu"]}), 0, 1)
    lebu = state["players"][1]["judge"][0][0]
    assert ENGINE.ai_action(state, 0, random.Random(0)) == [lebu]
    foe = table(4, "ZNFF", turn=0, hands={0: ["guohe"], 2: ["sha", "shan"]}, equip={2: ["bagua"]})
    foe["acts"][2][0] = 6
    foe = _dismantles(foe, 0, 2)
    assert ENGINE.ai_action(foe, 0, random.Random(0)) == [foe["players"][2]["equip"]["armor"]]


def test_the_renegade_removes_a_shandian_from_anyone_and_takes_that_card() -> None:
    """闪电 moves round the table until it strikes: the renegade (who must outlive everybody
    and keep the lord alive) dismantles it even from a seat it would rather hurt, and picks the
    闪电 itself, not the armour; a rebel with the same hand strips the armour instead."""
    hands = {4: ["guohe"], 2: ["sha", "shan"]}
    state = table(5, "ZCFFN", turn=4, hands=hands, equip={2: ["bagua"]}, judge={2: ["shandian"]})
    state = _dismantles(state, 4, 2)
    bolt = state["players"][2]["judge"][0][0]
    assert ENGINE.ai_action(state, 4, random.Random(0)) == [bolt]
    state, _ = act(state, 4, bolt)
    assert state["players"][2]["judge"] == [] and state["players"][2]["equip"]["armor"] is not None
    rebel = table(5, "ZCNFF", turn=4, hands={4: ["guohe"], 1: ["sha", "shan"]}, equip={1: ["bagua"]},
                  judge={1: ["shandian"]})
    rebel["acts"][1][4] = 6  # seat 1 hurt this rebel: it is a loyalist to the rebel's eyes
    rebel = _dismantles(rebel, 4, 1)
    assert ENGINE.ai_action(rebel, 4, random.Random(0)) == [rebel["players"][1]["equip"]["armor"]]


@pytest.mark.parametrize("lord_hp,own_hp,eats", [(2, 2, False), (1, 3, False), (2, 1, True), (3, 2, True)])
def test_the_renegade_keeps_its_peach_while_the_lord_is_low(lord_hp: int, own_hp: int, eats: bool) -> None:
    """With the lord at ≤ 2 HP and others alive, the renegade's 桃 waits for the lord's dying
    window (its death is a rebel win) unless the renegade itself is at 1 HP; with a healthier
    lord it heals as every seat does (≤ 2 HP)."""
    state = table(8, "ZFCCFFFN", turn=7, hp={0: lord_hp, 7: own_hp}, hands={7: ["tao", "shan"]})
    action = ENGINE.ai_action(state, 7, random.Random(0))
    assert (action == [hand_of(state, 7, "tao")]) is eats
    if not eats:
        assert action == ["end"]


@pytest.mark.parametrize("target_hp,own_hp,cards,shoots", [
    (4, 4, ["sha", "shan"], False), (1, 4, ["sha", "shan"], True), (4, 4, ["sha", "sha"], True),
    (4, 1, ["sha", "shan"], True)])
def test_the_renegade_keeps_its_only_sha(target_hp: int, own_hp: int, cards: list[str], shoots: bool) -> None:
    """The renegade must outlive everybody: its only 杀 waits for the 南蛮入侵 or 决斗 it must
    answer, unless the shot may kill (1 HP), it holds another 杀, or its hand is over the limit
    (the card would be discarded anyway)."""
    state = table(8, "ZFCCFFFN", turn=7, hp={6: target_hp, 7: own_hp}, hands={7: cards, 6: ["shan"]})
    action = ENGINE.ai_action(state, 7, random.Random(0))
    if shoots:
        assert action == [hand_of(state, 7, "sha"), "6"]
    else:
        assert action == ["end"]


@pytest.mark.parametrize("lord_hp,shoots", [(1, False), (3, True)])
def test_no_sha_at_a_daqiao_who_could_turn_it_onto_the_dying_lord(lord_hp: int, shoots: bool) -> None:
    """大乔's 流离 can pass a 杀 to anyone in her range: the renegade does not shoot her while
    that would put its lord at 1 HP in the line of fire (the lord's death is a rebel win). (She
    is at 1 HP: the renegade's only 杀 is kept unless it may kill.)"""
    state = table(8, "ZFCCFFFN", turn=7, hp={0: lord_hp, 6: 1}, hands={7: ["sha"], 6: ["shan"]},
                  equip={6: ["qinglong"]}, heroes={6: "daqiao"})
    action = ENGINE.ai_action(state, 7, random.Random(0))
    if shoots:
        assert action == [hand_of(state, 7, "sha"), "6"]
    else:
        assert action == ["end"]


def _last_two(state: dict, rnd: int) -> dict:
    """Only the lord (seat 0) and the renegade (seat 4) still alive, in round ``rnd``."""
    for seat in (1, 2, 3):
        p = state["players"][seat]
        p["alive"], p["revealed"], p["hp"] = False, True, 0
    state["round"] = rnd
    return state


@pytest.mark.parametrize("rnd,duels", [(5, False), (15, True)])
def test_the_last_two_duel_late_in_the_game_whatever_the_other_holds(rnd: int, duels: bool) -> None:
    """Two AIs hoarding 桃 and 闪 once played a 1-v-1 for 150 rounds: from round 15 the last two
    seats 决斗 even a full hand (earlier, a 决斗 without a 杀 against six cards is a loss)."""
    state = _last_two(table(5, "ZCFFN", turn=4, hands={4: ["juedou", "shan"], 0: ["shan"] * 6}), rnd)
    action = ENGINE.ai_action(state, 4, random.Random(0))
    assert (action == [hand_of(state, 4, "juedou"), "0"]) is duels


@pytest.mark.parametrize("rnd,dropped", [(5, {"sha", "juedou"}), (15, {"tao"})])
def test_the_last_two_keep_attack_cards_over_spare_peaches_late(rnd: int, dropped: set) -> None:
    """At full HP late in a 1-v-1, a hand of 桃 is dead weight: the discard keeps one 桃 and the
    attack cards; earlier the usual order keeps 桃 first."""
    state = _last_two(table(5, "ZCFFN", turn=4, hands={4: ["tao", "tao", "tao", "sha", "juedou", "shan"]},
                            phase="discard"), rnd)
    assert asked(state) == [(4, "discard")]
    action = ENGINE.ai_action(state, 4, random.Random(0))
    names = {card(c).name for c in action}
    assert len(action) == 2 and names == dropped


@pytest.mark.parametrize("rnd,heals", [(5, True), (15, False)])
def test_a_late_one_on_one_huatuo_attacks_instead_of_healing_at_two_hp(rnd: int, heals: bool) -> None:
    """华佗's 青囊 every turn against the lord's 桃 was the other half of the 150-round 1-v-1:
    late, it heals itself only from 1 HP and its 杀 goes at the lord."""
    state = _last_two(table(5, "ZCFFN", turn=4, hp={4: 2}, hands={4: ["sha", "shan"]},
                            heroes={4: "huatuo"}), rnd)
    action = ENGINE.ai_action(state, 4, random.Random(0))
    if heals:
        assert action[0] == "qingnang" and action[-1] == "4"
    else:
        assert action == [hand_of(state, 4, "sha"), "0"]


def test_wuxie_protects_the_lord_not_a_rebel() -> None:
    state = table(5, "ZCFFN", turn=2, hands={2: ["juedou"], 1: ["wuxie"]})
    state["acts"][2][0] = 4
    on_lord, _ = act(state, 2, hand_of(state, 2, "juedou"), 0)
    assert ENGINE.pending(on_lord)[0].kind == "nullify"
    assert ENGINE.ai_action(on_lord, 1, random.Random(0)) == [hand_of(state, 1, "wuxie")]
    state["acts"][3][0] = 4
    on_rebel, _ = act(state, 2, hand_of(state, 2, "juedou"), 3)
    assert ENGINE.ai_action(on_rebel, 1, random.Random(0)) == ["pass"]


def test_the_renegade_spends_its_last_wuxie_on_a_shandian_on_the_lord() -> None:
    """Even its last 无懈可击: a 闪电 about to be judged on the lord (3 damage, and the lord's
    death hands the game to the rebels) is always answered by the renegade."""
    from engines.flow import Ctx
    from engines.sanguosha.rules import FLOW

    state = table(8, "ZFCCFFFN", turn=0, hands={7: ["wuxie"]}, judge={0: ["shandian"]})
    state["flow"]["stack"] = [{"k": "game", "cur": 0}, {"k": "turn", "seat": 0, "st": 2}]
    FLOW.run(Ctx(FLOW, state))  # the lord's turn from its preparation phase: the judgement
    assert ENGINE.pending(state)[0].kind == "nullify"
    assert ENGINE.ai_action(state, 7, random.Random(0)) == [hand_of(state, 7, "wuxie")]


def test_equipment_upgrades_only() -> None:
    state = table(4, "ZNFF", turn=0, hands={0: ["bagua"]}, equip={0: ["renwang"]})
    assert ENGINE.ai_action(state, 0, random.Random(0)) == [hand_of(state, 0, "bagua")]
    state = table(4, "ZNFF", turn=0, hands={0: ["cixiong"]}, equip={0: ["qinglong"]})
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["end"]


def test_lebu_on_the_suspected_rebel() -> None:
    state = table(8, "CZCFFFFN", turn=0, hands={0: ["lebu"]})
    state["acts"][5][1] = 4
    assert ENGINE.ai_action(state, 0, random.Random(0)) == [hand_of(state, 0, "lebu"), "5"]


def test_discard_keeps_the_best_cards() -> None:
    """Spare copies go first: of 桃, 闪, three 杀 and a 闪电, discarding 3 leaves 桃 闪 杀."""
    hand = {"a": "tao", "b": "shan", "c": "sha", "d": "sha", "e": "sha", "f": "shandian"}
    assert ai._discard_order(hand) == ["f", "e", "d", "c", "b", "a"]
    state = table(4, "ZNFF", turn=0, hands={0: ["tao", "shan", "sha", "sha", "sha", "shandian"]}, hp={0: 3})
    state, _ = act(state, 0, "end")
    assert ENGINE.pending(state)[0].kind == "discard"
    kept = set(state["players"][0]["hand"]) - set(ENGINE.ai_action(state, 0, random.Random(0)))
    assert sorted(ai.card(c).name for c in kept) == ["sha", "shan", "tao"]


# -- unknown asks and tokens (skills that have no hint yet) ----------------------------------------

def test_an_unknown_ask_is_declined_and_an_unknown_play_token_never_used(monkeypatch: pytest.MonkeyPatch) -> None:
    state = table(4, "ZNFF", turn=0, hands={0: ["shan"]})
    real = choices.step

    def with_skill(st: dict, seat: int, path: list[str]) -> Step:
        got = real(st, seat, path)
        if not path:
            return Step(got.prompt, [Option("mystery_skill", got.prompt), *got.options])
        if path[0] == "mystery_skill":
            return Step(got.prompt, [], complete=True)
        return got

    monkeypatch.setattr(choices, "step", with_skill)
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["end"]

    ask = Flow.asks(state)[0]
    offered: list[Option] = []

    def ask_as(default: tuple[str, ...] | None) -> None:
        mystery = Ask(ask.seat, ask.rid, "guicai_retouch", "one", ask.window, default, False, {})
        monkeypatch.setattr(Flow, "ask_of", classmethod(lambda cls, st, seat: mystery))
        monkeypatch.setattr(choices, "step", lambda st, seat, path: Step(
            choices.m("opt.pass"), [] if path else offered, complete=bool(path)))

    offered[:] = [Option("c1", choices.m("opt.pass")), Option("pass", choices.m("opt.pass"))]
    ask_as(None)
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["pass"]  # optional: declined
    offered[:] = [Option("x", choices.m("opt.pass")), Option("y", choices.m("opt.pass"))]
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["x"]  # forced: the first option
    ask_as(("y",))
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["y"]  # the window's default


def test_a_skill_conversion_answers_when_no_real_card_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 闪 request offering a conversion token (as 龙胆 would: a 杀 played as 闪) is answered
    through it with the cheapest accepted card; a real 闪 is still preferred."""
    state = table(4, "ZNFF", turn=3, hands={3: ["sha"], 0: ["sha", "tao"]})
    state, _ = act(state, 3, hand_of(state, 3, "sha"), 0)
    assert ENGINE.pending(state)[0].kind == "need_shan"
    real = choices.step
    hand = list(state["players"][0]["hand"])

    def longdan(st: dict, seat: int, path: list[str]) -> Step:
        if seat != 0:
            return real(st, seat, path)
        if not path:
            return Step(choices.m("opt.pass"), [Option("longdan", choices.m("opt.pass")),
                                                *real(st, seat, []).options])
        if path[0] == "longdan":
            if len(path) == 1:
                return Step(choices.m("opt.pass"), [Option(c, choices.m("opt.pass")) for c in hand])
            return Step(choices.m("opt.pass"), [], complete=True)
        return real(st, seat, path)

    monkeypatch.setattr(choices, "step", longdan)
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["longdan", hand_of(state, 0, "sha")]


def _with_skill(monkeypatch: pytest.MonkeyPatch, token: str, walk) -> None:  # noqa: ANN001
    """Offer ``token`` in the play phase, its walk given by ``walk(path_after_token)``."""
    real = choices.step

    def step(st: dict, seat: int, path: list[str]) -> Step:
        if Flow.ask_of(st, seat).kind != "play":
            return real(st, seat, path)
        if not path:
            got = real(st, seat, [])
            return Step(got.prompt, [Option(token, got.prompt), *got.options])
        if path[0] == token:
            return walk(path[1:])
        return real(st, seat, path)

    monkeypatch.setattr(choices, "step", step)


def test_skill_hints_use_kurou_and_zhiheng_sensibly(monkeypatch: pytest.MonkeyPatch) -> None:
    done = Step(choices.m("opt.pass"), [], complete=True)
    _with_skill(monkeypatch, "kurou", lambda rest: done)
    state = table(4, "ZNFF", turn=0, hands={0: ["shan"]})
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["kurou"]
    low = table(4, "ZNFF", turn=0, hp={0: 2}, hands={0: ["shan"]})
    assert ENGINE.ai_action(low, 0, random.Random(0)) == ["end"]  # 2 HP and no 桃: not worth it

    monkeypatch.undo()
    state = table(4, "ZNFF", turn=0, hands={0: ["shandian", "tao", "shan"]})
    hand = list(state["players"][0]["hand"])

    def zhiheng(rest: list[str]) -> Step:
        assert all(c in hand for c in rest)
        return Step(choices.m("opt.pass"), [Option(c, choices.m("opt.pass")) for c in hand if c not in rest],
                    complete=bool(rest))

    _with_skill(monkeypatch, "zhiheng", zhiheng)
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["zhiheng", hand_of(state, 0, "shandian")]


def test_hero_choice_prefers_heroes_the_ai_plays_well(monkeypatch: pytest.MonkeyPatch) -> None:
    from engines.base import key_ref

    state = table(4, "ZNFF", turn=0)
    ask = Flow.asks(state)[0]
    hero_ask = Ask(ask.seat, ask.rid, "hero", "one", ask.window, ("0",), False, {})
    monkeypatch.setattr(Flow, "ask_of", classmethod(lambda cls, st, seat: hero_ask))
    offer = ["someone_new", "guanyu", "lvbu"]
    opts = [Option(str(i), choices.m("opt.hero", hero=key_ref(f"sanguosha.hero.{h}"))) for i, h in enumerate(offer)]
    monkeypatch.setattr(choices, "step", lambda st, seat, path: Step(choices.m("opt.pass"), [] if path else opts,
                                                                    complete=bool(path)))
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["2"]


def test_a_failing_hint_falls_back_to_the_timeout_answer_in_live_play(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(s: ai.Seat) -> list[str]:
        raise KeyError("a skill shape the hint did not expect")

    state = table(4, "ZNFF", turn=0, hands={0: ["sha", "wuzhong"]})
    monkeypatch.setitem(ai.ASK_HINTS, "play", broken)
    with pytest.raises(KeyError):
        ENGINE.ai_action(state, 0, random.Random(0))
    monkeypatch.setattr(ai, "STRICT", False)
    assert ENGINE.ai_action(state, 0, random.Random(0)) == ["end"]


def test_a_play_phase_conversion_is_used_as_the_card_it_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A skill token whose next step says it makes a 杀 (as 武圣 does) is scored like a 杀,
    paid with the cheapest spare card."""
    from engines.base import key_ref

    state = table(4, "ZNFF", turn=2, hands={2: [("wugu", "H", 3), "tao"]})
    wugu = hand_of(state, 2, "wugu")
    real = choices.step
    makes = choices.m("step.convert", skill="wusheng", card=key_ref("sanguosha.card.sha"))

    def wusheng(st: dict, seat: int, path: list[str]) -> Step:
        if not path:
            got = real(st, seat, [])
            return Step(got.prompt, [Option("wusheng", got.prompt), *got.options])
        if path[0] != "wusheng":
            return real(st, seat, path)
        if len(path) == 1:
            return Step(makes, [Option(c, makes) for c in st["players"][seat]["hand"]])
        if len(path) == 2:
            return Step(makes, [Option("0", makes), Option("3", makes)])
        return Step(makes, [], complete=True)

    monkeypatch.setattr(choices, "step", wusheng)
    assert ENGINE.ai_action(state, 2, random.Random(0)) == ["wusheng", wugu, "0"]


# -- strength and soundness over many games -------------------------------------------------------

@pytest.mark.parametrize("heroes,side,n,floor", [
    ("beginner", "lord", 5, 0.8), ("beginner", "rebel", 5, 0.8), ("beginner", "renegade", 5, 0.35),
    ("beginner", "lord", 8, 0.8), ("beginner", "rebel", 8, 0.8), ("beginner", "renegade", 4, 0.35),
    ("standard", "lord", 5, 0.8), ("standard", "rebel", 5, 0.8), ("standard", "renegade", 5, 0.35),
    ("standard", "renegade", 8, 0.4)])
def test_the_ai_side_beats_random_players(heroes: str, side: str, n: int, floor: float,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The AI plays one side (every seat of it), random players the rest; and the random side
    against the AI rarely wins. Everyone random wins far less (lord ~30%, rebels ~65%,
    renegade <10% at these sizes), so a random AI fails. A lone AI renegade is the hard seat:
    over 1 000 games it wins 60–76 % (beginner 4 and 5 seats, standard 5 seats) and 56–58 %
    (standard 8 seats: random heroes there would give 51 %, the attackers-first order 50 %), so
    its floors over these 16 seeded games are set well under that, far above random (~3 %)."""
    import bench.bench_sanguosha_ai as bench

    monkeypatch.setitem(bench.OPTIONS, "heroes", heroes)
    stats: dict = {"decide": [], "illegal": 0, "actions": 0, "rounds": []}
    assert win_rate(n, side, 16, True, 7000, stats=stats) >= floor
    assert win_rate(n, side, 8, False, 7100, stats=stats) <= 0.25
    assert stats["illegal"] == 0


def _ai_game(n: int, seed: int, check_every: int, heroes: str | None = None) -> dict:
    """One all-AI game (seats asked in random order), every action validated, cards conserved
    after each, public views checked every ``check_every`` actions; heroes alternate by seed
    unless given."""
    from test_sgs_properties import _check_public

    state = ENGINE.new_state({"heroes": heroes or HERO_MODES[seed % len(HERO_MODES)]}, n, seed)
    rng = random.Random(seed)
    steps = 0
    while ENGINE.result(state) is None:
        req = rng.choice(ENGINE.pending(state))
        action = ENGINE.ai_action(state, req.seat, rng)
        choices.validate(state, req.seat, action)
        state, _ = ENGINE.apply(state, req.seat, action)
        counts = count_cards(state)
        assert set(counts) == ALL and set(counts.values()) == {1}, "a card is lost or doubled"
        steps += 1
        if steps % check_every == 0:
            _check_public(state)
        assert steps < 20000, "game does not end"
    _check_public(state)
    return state


def test_ai_games_of_2_to_10_players_complete() -> None:
    rounds = []
    for g in range(27):
        state = _ai_game(2 + g % 9, 300 + g, 25)
        rounds.append(state["round"])
    assert max(rounds) < 80


@pytest.mark.slow
def test_thousands_of_ai_games_complete() -> None:
    for g in range(3000):
        _ai_game(2 + g % 9, 50_000 + g, 150)


def test_a_full_8_player_ai_game_is_quick() -> None:
    import time

    t0 = time.perf_counter()
    state = play(8, 9000, lambda s, seat: ai_player)
    assert ENGINE.result(state) is not None and time.perf_counter() - t0 < 5


def test_the_renegade_spends_its_last_peach_on_the_dying_lord() -> None:
    """At 8 seats the lord dying early is a rebel win: the renegade saves it even with its only
    桃 and 1 HP of its own (checked through the real dying window, not the mind alone)."""
    state = table(8, "ZFCCFFFN", turn=1, hp={0: 1, 7: 1}, hands={1: ["sha"], 7: ["tao"]})
    state, _ = act(state, 1, hand_of(state, 1, "sha"), 0)
    state, _ = act(state, 0, "pass")
    assert 7 in {r.seat for r in ENGINE.pending(state) if r.kind == "peach"}
    action = ENGINE.ai_action(state, 7, random.Random(0))
    assert action == [hand_of(state, 7, "tao")]
    state, _ = act(state, 7, *action)
    while (req := ENGINE.pending(state)[0]).kind == "peach":  # everyone else declines
        state, _ = act(state, req.seat, "pass")
    assert state["players"][0]["alive"] and state["players"][0]["hp"] == 1
    assert not state["players"][7]["hand"]


def test_the_role_estimate_of_one_record_is_worked_out_once() -> None:
    """A seat decides several times in a row on an unchanged record of acts: the posterior over
    the hidden roles (``ai_mind._marginals``) is kept for it, and is the same estimate."""
    from engines.sanguosha import ai_mind

    state = table(5, "ZNFFJ", turn=1)
    state["acts"][1][0] = 2  # seat 1 hurt the lord: it looks like a rebel
    first = Mind(build(state, 2)).p
    hits = ai_mind._marginals.cache_info().hits
    again = Mind(build(state, 2)).p
    assert ai_mind._marginals.cache_info().hits == hits + 1
    assert again == first and first[1]["rebel"] > first[3]["rebel"]


def test_the_ais_view_leaves_out_the_distances(monkeypatch: pytest.MonkeyPatch) -> None:
    """No hint reads a seat's distance from the turn's seat (range is judged by the token walk),
    and working them out was a third of building the AI's view: it is built without them, and
    is otherwise the seat's view."""
    state = table(5, "ZNFFJ", turn=1, hands={1: ["sha", "shan"]})
    seen: list[dict[str, Any]] = []

    def spy(st: dict[str, Any], seat: int, **kw: Any) -> dict[str, Any]:
        got = build(st, seat, **kw)
        seen.append(got)
        return got

    monkeypatch.setattr(ai, "build", spy)
    ENGINE.ai_action(state, 1, random.Random(0))
    (view,) = seen
    whole = build(state, 1)
    assert any(p["distance"] for p in whole["players"])
    assert all(p["distance"] is None for p in view["players"])
    assert [{**p, "distance": None} for p in whole["players"]] == view["players"]
    assert {k: v for k, v in whole.items() if k != "players"} == {k: v for k, v in view.items() if k != "players"}
