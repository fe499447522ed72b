"""吴 skills: 制衡 救援 奇袭 克己 苦肉 英姿 反间 国色 流离 谦逊 连营 枭姬 结姻 (see skills.py
for the mechanism and docs/rules/sanguosha.md for the rulings)."""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Option, Step
from engines.flow import Ask, Ctx
from engines.rng import Rng
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, _discard_order, _valid, _worth_hitting, ask_hint, play_hint, value
from engines.sanguosha.ai_skills import SKILL_CHOICE
from engines.sanguosha.choices import STEPS, card_opt, choose_one, seat_opt
from engines.sanguosha.data import SUITS, card, deck
from engines.sanguosha.frames import PASS, recover
from engines.sanguosha.packs import STANDARD_HEROES
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import Active, Conversion, active, announce, conversion, optional
from engines.sanguosha.views import prompt
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


def _cards_step(state: State, pool: list[str], path: list[str], prompt: Any, lo: int, hi: int,
                then: list[Option] | None = None) -> tuple[Step | None, list[str]]:
    """Pick between ``lo`` and ``hi`` distinct cards of ``pool``; returns (a step while picking,
    the picked cards once ``lo`` were picked and the path goes on)."""
    picked = []
    for tok in path:
        if tok in pool and tok not in picked and len(picked) < hi:
            picked.append(tok)
        else:
            break
    rest = path[len(picked):]
    if not rest:
        more = [card_opt(c) for c in pool if c not in picked] if len(picked) < hi else []
        if len(picked) >= lo and then is not None:
            return Step(prompt, more + then), picked
        return Step(prompt, more, complete=len(picked) >= lo and then is None), picked
    if len(picked) < lo:
        raise EngineError("sanguosha.err.illegal")
    return None, picked


# 制衡: once per phase, discard any number of cards and draw as many ----------------------------

def _zhiheng_step(state: State, seat: int, path: list[str]) -> Step:
    st, _ = _cards_step(state, R.all_cards(state, seat, judge=False), path, m("step.zhiheng"), 1, 99)
    if st is None:
        raise EngineError("sanguosha.err.illegal")
    return st


def discard_and_draw(ctx: Ctx, seat: int, skill: str, cids: list[str]) -> None:
    """制衡 (and 国战's 制衡): once per phase, the chosen cards go and as many are drawn."""
    R.bump(ctx.state, skill)
    announce(ctx, seat, skill)
    R.to_discard(ctx.state, cids)
    say(ctx, "discard", who=who(seat), cards=" ".join(R.card_label(c) for c in cids))
    R.draw(ctx, seat, len(cids))


def zhiheng_cap(state: State, seat: int, skill: str) -> int:
    """How many cards a 国战 制衡 (``skill``: the hero's, 敛资's, 定澜夜明珠's) takes at most: the
    max HP, unless a modifier lifts it (定澜夜明珠 worn beside a 制衡 of the seat's own)."""
    return int(R.fold(state, "zhiheng_cap", int(state["players"][seat]["max"]), seat=seat, skill=skill))


def _zhiheng_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    discard_and_draw(ctx, seat, "zhiheng", path)


active(Active("zhiheng", lambda s, seat: not R.flag(s, "zhiheng") and R.has_cards(s, seat, judge=False),
              _zhiheng_step, _zhiheng_start))


# 救援: another Wu hero's 桃 heals the dying lord 1 more ----------------------------------------

@STANDARD_HEROES.modifier("peach_heal", "jiuyuan")
def _jiuyuan(state: State, value: int, args: dict[str, Any]) -> int:
    seat, saver = args["seat"], args["saver"]
    if saver != seat and R.has_skill(state, seat, "jiuyuan") and state["players"][saver].get("kingdom") == "wu":
        return value + 1
    return value


# 奇袭 / 国色: conversions in the play phase ------------------------------------------------------

conversion(Conversion("qixi", "qixi", "guohe", lambda s, seat, c: not card(c).red, equip=True))
conversion(Conversion("guose", "guose", "lebu", lambda s, seat, c: card(c).suit == "D", equip=True))


# 克己: no 杀 used or played in the play phase → may skip the discard phase ---------------------

def _track_sha(ctx: Ctx, ev: Ev) -> None:
    R.bump(ctx.state, "sha_in_play")


def _sha_in_play(ctx: Ctx, seat: int | None, name: str) -> bool:
    s = ctx.state
    # hidden too: a 吕蒙 still hidden (国战) may reveal for 克己 at the discard phase
    return name == "sha" and seat == s["turn"] and s["phase"] == "play" and R.has_skill(s, seat, "keji", hidden=True)


STANDARD_HEROES.on("use_declared", "keji_track", can=lambda ctx, ev: _sha_in_play(ctx, ev["user"], ev["name"]))(_track_sha)
STANDARD_HEROES.on("card_played", "keji_track", can=lambda ctx, ev: _sha_in_play(ctx, ev["seat"], ev["name"]))(_track_sha)


@optional("phase_start", "keji",
          can=lambda ctx, ev: (ev["phase"] == "discard" and not ev["skip"] and not R.flag(ctx.state, "sha_in_play")
                               and len(ctx.state["players"][ev["seat"]]["hand"]) > R.hand_limit(ctx.state, ev["seat"])))
def _keji(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ev["skip"] = True


# 苦肉: lose 1 HP, draw 2 ----------------------------------------------------------------------

def _kurou_step(state: State, seat: int, path: list[str]) -> Step:
    if path:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.play"), [], complete=True)


def _kurou_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    announce(ctx, seat, "kurou")
    ctx.push("kurou", seat=seat, st="start")


active(Active("kurou", lambda s, seat: True, _kurou_step, _kurou_start))


@STANDARD_HEROES.kind("kurou")
def _kurou_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "lost"
        ctx.push("lose_hp", seat=f["seat"], n=1, st="start")
        return
    ctx.take(f)
    if R.alive(ctx.state, f["seat"]):
        R.draw(ctx, f["seat"], 2)
    ctx.pop(f)


# 英姿: draw one more ----------------------------------------------------------------------------

@optional("draw_count", "yingzi", priority=5)
def _yingzi(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ev["n"] += 1


# 反间 -------------------------------------------------------------------------------------------

def _fanjian_step(state: State, seat: int, path: list[str]) -> Step:
    others = [s for s in R.living(state, seat + 1) if s != seat]
    if not path:
        return Step(m("step.fanjian"), [seat_opt(state, s, seat) for s in others])
    if ascii_int(path[0]) not in others or len(path) > 1:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.fanjian"), [], complete=True)


def _fanjian_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "fanjian")
    announce(ctx, seat, "fanjian")
    ctx.push("fanjian", seat=seat, target=int(path[0]), st="start")


active(Active("fanjian", lambda s, seat: not R.flag(s, "fanjian") and bool(s["players"][seat]["hand"])
              and len(R.living(s)) > 1, _fanjian_step, _fanjian_start))


@STANDARD_HEROES.kind("fanjian")
def _fanjian_frame(ctx: Ctx, f: Frame) -> None:
    """The target names a suit, then takes a random hand card of 周瑜 and shows it; another
    suit than named → 1 damage from 周瑜."""
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "named"
        ctx.ask(f, [f["target"]], "fanjian_suit", default=("S",), short=True, window=True,
                info={"user": f["seat"]})
        return
    if f["st"] == "named":
        suit = ctx.take(f, "reply")["action"][0]
        hand = s["players"][f["seat"]]["hand"]
        say(ctx, "fanjian_suit", who=who(f["target"]), suit=R.SUIT_SYMBOL[suit])
        if not hand:
            ctx.pop(f)
            return
        cid = hand[Rng(s).below(len(hand))]
        R.to_hand(s, f["target"], [cid])
        say(ctx, "fanjian_show", who=who(f["target"]), card=cname(card(cid).name), sr=R.card_label(cid))
        if card(cid).suit == suit or not R.alive(s, f["target"]):
            ctx.pop(f)
            return
        f["st"] = "damage"
        ctx.push("damage", src=f["seat"], dst=f["target"], n=1, via="fanjian", cards=[], st="start")
        return
    ctx.take(f)
    ctx.pop(f)


def _suit_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [Option(su, m("opt.suit", suit=R.SUIT_SYMBOL[su])) for su in SUITS]
    return choose_one(m("step.suit"), opts, path)


STEPS["fanjian_suit"] = _suit_step


# 流离: move a 杀 aimed at you ------------------------------------------------------------------

def _liuli_dests(state: State, seat: int, user: int, targets: list[int], cid: str) -> list[int]:
    """Who may receive the 杀 if ``cid`` is discarded (a discarded weapon or −1 horse no longer
    counts for the attack range)."""
    p = state["players"][seat]
    equip = dict(p["equip"])
    for slot, c in equip.items():
        if c == cid:
            equip[slot] = None
    probe = dict(state)
    probe["players"] = list(state["players"])
    probe["players"][seat] = dict(p, equip=equip)
    return [x for x in R.living(state, seat + 1) if x not in (seat, user) and x not in targets
            and R.in_range(probe, seat, x) and R.can_target(state, user, x, "sha")]


def _liuli_can(ctx: Ctx, ev: Ev) -> bool:
    s = ctx.state
    return ev["name"] == "sha" and any(
        R.has_skill(s, t, "liuli", hidden=True) and any(_liuli_dests(s, t, ev["user"], ev["targets"], c)
                                           for c in R.all_cards(s, t, judge=False))
        for t in ev["targets"])


@STANDARD_HEROES.on("use_declared", "liuli", priority=10, can=_liuli_can)
def _liuli(ctx: Ctx, ev: Ev) -> None:
    seat = next(t for t in ev["targets"] if R.has_skill(ctx.state, t, "liuli", hidden=True))
    ctx.push("liuli", seat=seat, st="start")


@STANDARD_HEROES.kind("liuli")
def _liuli_frame(ctx: Ctx, f: Frame) -> None:
    trigger = ctx.below(f)
    assert trigger is not None
    ev = trigger["ev"]
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "liuli", default=PASS, short=True, window=True,
                info={"user": ev["user"], "targets": list(ev["targets"])})
        return
    action = ctx.take(f, "reply")["action"]
    if action != ["pass"]:
        cid, dest = action[0], int(action[1])
        announce(ctx, f["seat"], "liuli")
        R.to_discard(ctx.state, [cid])
        say(ctx, "discard", who=who(f["seat"]), cards=R.card_label(cid))
        ev["targets"] = [dest if t == f["seat"] else t for t in ev["targets"]]
        say(ctx, "redirect", who=who(f["seat"]), target=who(dest))
    ctx.pop(f)


def _liuli_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    user, targets = ask.info["user"], ask.info["targets"]
    prompt = m("step.liuli")
    if path == ["pass"]:
        return Step(prompt, [], complete=True)
    cards = [c for c in R.all_cards(state, seat, judge=False) if _liuli_dests(state, seat, user, targets, c)]
    if not path:
        return Step(prompt, [card_opt(c) for c in cards] + [Option("pass", m("opt.pass"))])
    if path[0] not in cards:
        raise EngineError("sanguosha.err.illegal")
    dests = _liuli_dests(state, seat, user, targets, path[0])
    if len(path) == 1:
        return Step(m("step.liuli_to"), [seat_opt(state, x, seat) for x in dests])
    if ascii_int(path[1]) not in dests or len(path) > 2:
        raise EngineError("sanguosha.err.illegal")
    return Step(prompt, [], complete=True)


STEPS["liuli"] = _liuli_step


# 谦逊 -------------------------------------------------------------------------------------------

@STANDARD_HEROES.modifier("targetable", "qianxun")
def _qianxun(state: State, value: bool, args: dict[str, Any]) -> bool:
    if args["name"] in ("shunshou", "lebu") and R.has_skill(state, args["target"], "qianxun"):
        return False
    return value


# 连营 / 枭姬: queued when the last hand card / an equipped card is lost -------------------------

R.WATCH["hand_empty"].add("lianying")
R.WATCH["equip_lost"].add("xiaoji")


@optional("hand_empty", "lianying", can=lambda ctx, ev: not ctx.state["players"][ev["seat"]]["hand"])
def _lianying(ctx: Ctx, f: Frame, ev: Ev) -> None:
    R.draw(ctx, f["seat"], 1)


@optional("equip_lost", "xiaoji")
def _xiaoji(ctx: Ctx, f: Frame, ev: Ev) -> None:
    R.draw(ctx, f["seat"], 2)


# 结姻 -------------------------------------------------------------------------------------------

def _wounded_men(state: State, seat: int) -> list[int]:
    ps = state["players"]
    return [x for x in R.living(state, seat + 1) if x != seat and ps[x].get("gender") == "m"
            and ps[x]["hp"] < ps[x]["max"]]


def _jieyin_step(state: State, seat: int, path: list[str]) -> Step:
    st, picked = _cards_step(state, state["players"][seat]["hand"], path, m("step.jieyin_cards"), 2, 2, then=[])
    if st is not None and len(picked) < 2:
        return st
    rest = path[2:]
    men = _wounded_men(state, seat)
    if not rest:
        return Step(m("step.jieyin_to"), [seat_opt(state, x, seat) for x in men])
    if ascii_int(rest[0]) not in men or len(rest) > 1:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.jieyin_to"), [], complete=True)


def _jieyin_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "jieyin")
    announce(ctx, seat, "jieyin")
    R.to_discard(ctx.state, path[:2])
    say(ctx, "discard", who=who(seat), cards=" ".join(R.card_label(c) for c in path[:2]))
    target = int(path[2])
    recover(ctx, seat, 1, seat)
    recover(ctx, target, 1, seat)
    R.note_act(ctx.state, seat, target, -2)


active(Active("jieyin", lambda s, seat: not R.flag(s, "jieyin") and len(s["players"][seat]["hand"]) >= 2
              and bool(_wounded_men(s, seat)), _jieyin_step, _jieyin_start))


@prompt("fanjian_suit")
def _fanjian_prompt(info: dict[str, Any]) -> Any:
    return m("req.fanjian_suit", user=who(info["user"]))


@prompt("liuli")
def _liuli_prompt(info: dict[str, Any]) -> Any:
    return m("req.liuli", user=who(info["user"]))


# -- the AI's hints for these skills (read the seat's own view only; see ai.py) ------------------

@play_hint("kurou")
def _kurou(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """苦肉: 1 HP for 2 cards, while HP is comfortable (or a 桃 pays it back)."""
    hp = s.mind.hp(s.seat)
    if hp >= 3 or (hp == 2 and s.count("tao")):
        return (1.5, pre) if _valid(s, pre) else None
    return None


@play_hint("zhiheng")
def _zhiheng(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """制衡: swap the cards least worth keeping (worth ≤ 4, spare copies included)."""
    order = _discard_order(s.hand)
    weak = [c for c in order if value(s.hand[c]) <= 4 or s.count(s.hand[c]) > 2][:3]
    path = [*pre, *weak]
    return (1.0, path) if weak and _valid(s, path) else None


@play_hint("jieyin")
def _jieyin(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """结姻: two weak hand cards to heal itself and a wounded friend."""
    me = s.me()
    two = _discard_order(s.hand)[:2]
    if me["hp"] >= me["max"] or len(two) < 2 or max(value(s.hand[c]) for c in two) >= 7:
        return None
    try:
        friends = [t for t in s.targets([*pre, *two]) if s.mind.friend(t)]
    except Exception:  # noqa: BLE001
        return None
    path = [*pre, *two, str(friends[0])] if friends else []
    return (7.0, path) if friends and _valid(s, path) else None


#: 克己: cards the AI keeps over its hand limit (its HP) before it discards instead.
KEJI_SPARE = 3


def _keji(s: Seat) -> list[str]:
    """克己 keeps every card; an AI that always kept them hoarded the whole deck (75 cards) and
    starved the table of draws, so nobody could attack again (a stalled AI-only game)."""
    return ["yes"] if len(s.hand) <= s.mind.hp(s.seat) + KEJI_SPARE else ["pass"]


SKILL_CHOICE["keji"] = _keji


@ask_hint("liuli")
def _liuli(s: Seat) -> list[str]:
    """流离: pass the 杀 on to an enemy in range for the cheapest card that allows it."""
    for cid in sorted((o for o in s.responses() if o in s.hand), key=lambda c: (value(s.hand[c]), c)):
        if value(s.hand[cid]) >= 7 and s.count("shan"):
            break  # a 桃 or 闪 spent here is better kept to dodge
        foes = [t for t in s.targets([cid]) if s.mind.enemy(t)]
        if foes:
            return [cid, str(max(foes, key=lambda t: (_worth_hitting(s, t), -t)))]
    return ["pass"]


@play_hint("fanjian")
def _fanjian(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """反间: at the enemy most worth hurting (it guesses a suit; a wrong guess costs it 1 HP)."""
    try:
        foes = [t for t in s.targets(pre) if s.mind.enemy(t)]
    except Exception:  # noqa: BLE001
        return None
    if not foes or not s.hand:
        return None
    t = max(foes, key=lambda x: (_worth_hitting(s, x), -x))
    path = [*pre, str(t)]
    return (2.0 + _worth_hitting(s, t), path) if _valid(s, path) else None


@ask_hint("fanjian_suit")
def _fanjian_suit(s: Seat) -> list[str]:
    """反间's suit: the one with the most cards this seat has not seen (own hand, the table,
    equipment and judgement areas, the visible discards): the likeliest in 周瑜's hand."""
    v = s.view
    seen = set(s.hand) | {c["id"] for c in v["table"]} | {c["id"] for c in v["discard_top"]}
    for p in v["players"]:
        seen |= {e["id"] for e in p["equip"].values() if e}
        seen |= {j["id"] for j in p["judge"]}
    unseen: dict[str, int] = {}
    for cid in deck():
        if cid not in seen:
            unseen[card(cid).suit] = unseen.get(card(cid).suit, 0) + 1
    return [max(s.options([]), key=lambda su: (unseen.get(su, 0), su == "S"))]
