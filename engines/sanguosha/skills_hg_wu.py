"""The hegemony (国战) skills of the wu heroes that differ from the identity heroes' skills.

A hegemony hero whose skill reads as the identity one names the standard skill id in its data row
(``data/sanguosha/hegemony/wu.json``); every other skill is registered here into
:data:`packs.HEGEMONY_HEROES`, with its question texts and AI hint beside it. Rulings and sources:
docs/rules/sanguosha-hegemony-wu.md.

制衡(国) 谦逊(国) 度势 枭姬(国) 英魂 天香 红颜 天义 不屈 好施 缔盟 直谏 固政 短兵 奋迅.
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Option, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import cards as C
from engines.sanguosha import rules as R
from engines.sanguosha.ai import (
    Seat,
    _discard_order,
    _valid,
    _worth_hitting,
    ask_hint,
    fallback,
    play_hint,
    value,
)
from engines.sanguosha.ai_cards import CANCELLED_BY
from engines.sanguosha.ai_skills import SKILL_CHOICE
from engines.sanguosha.choices import PLAY_AS, STEPS, card_opt, choose_one, seat_opt
from engines.sanguosha.data import card, kind_of
from engines.sanguosha.frames import PASS
from engines.sanguosha.packs import HEGEMONY_HEROES as HG
from engines.sanguosha.pindian import can_pindian, pindian
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import (
    ASK_SKILL,
    EFFECT,
    Active,
    Conversion,
    active,
    announce,
    conversion,
    optional,
)
from engines.sanguosha.skills_wu import _cards_step, discard_and_draw, zhiheng_cap
from engines.sanguosha.views import prompt
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]

#: The hegemony deck's 以逸待劳 (``cards_hegemony.py``, another branch): 度势 makes it.
YIYI = "yiyi"


def _others(state: State, seat: int) -> list[int]:
    return [x for x in R.living(state, seat + 1) if x != seat]


def _lost(state: State, seat: int) -> int:
    p = state["players"][seat]
    return max(0, p["max"] - p["hp"])


def _labels(cids: list[str]) -> str:
    return " ".join(R.card_label(c) for c in cids)


def _one_seat(state: State, seat: int, path: list[str], cands: list[int], key: str) -> Step:
    """The last token of a walk: one seat of ``cands``."""
    if not path:
        return Step(m(key), [seat_opt(state, x, seat) for x in cands])
    if ascii_int(path[0]) not in cands or len(path) > 1:
        raise EngineError("sanguosha.err.illegal")
    return Step(m(key), [], complete=True)


# 制衡 (国战): once per play phase, discard up to X cards (X: your max HP) and draw as many ---------

def _hg_zhiheng_step(state: State, seat: int, path: list[str]) -> Step:
    cap = zhiheng_cap(state, seat, "hg_zhiheng")
    st, _ = _cards_step(state, R.all_cards(state, seat, judge=False), path, m("step.hg_zhiheng", n=cap), 1, cap)
    if st is None:
        raise EngineError("sanguosha.err.illegal")
    return st


active(Active("hg_zhiheng", lambda s, seat: not R.flag(s, "hg_zhiheng") and R.has_cards(s, seat, judge=False),
              _hg_zhiheng_step, lambda ctx, seat, path: discard_and_draw(ctx, seat, "hg_zhiheng", path)), pack=HG)


# 谦逊 (国战): locked — a 顺手牵羊 or 乐不思蜀 aimed at you is cancelled -----------------------------

def _qianxun_seats(state: State, ev: Ev) -> list[int]:
    if ev["name"] not in ("shunshou", "lebu"):
        return []
    return [t for t in ev["targets"] if R.has_skill(state, t, "hg_qianxun", hidden=True)]


def _qianxun_cancel(ctx: Ctx, seat: int, ev: Ev) -> None:
    ev["targets"] = [t for t in ev["targets"] if t != seat]
    say(ctx, "qianxun_cancel", who=who(seat), card=cname(ev["name"]))


@HG.on("use_declared", "hg_qianxun", priority=20, can=lambda ctx, ev: bool(_qianxun_seats(ctx.state, ev)))
def _hg_qianxun(ctx: Ctx, ev: Ev) -> None:
    """Shown: it simply acts. Hidden: its owner is asked whether to reveal the hero for it (a
    locked skill of a hidden hero acts only once shown; the yes shows it)."""
    seat = _qianxun_seats(ctx.state, ev)[0]
    if "hg_qianxun" in ctx.state["players"][seat]["skills"]:
        announce(ctx, seat, "hg_qianxun")
        _qianxun_cancel(ctx, seat, ev)
        return
    ctx.push("optional", skill="hg_qianxun", seat=seat, dy=True, st="start")


EFFECT["hg_qianxun"] = lambda ctx, f, ev: _qianxun_cancel(ctx, f["seat"], ev)
CANCELLED_BY["hg_qianxun"] = ("shunshou", "lebu")  # the AI spends no card on a shown 陆逊


# 度势: up to four times per play phase, a red hand card as 以逸待劳 --------------------------------

conversion(Conversion("duoshi", "duoshi", YIYI,
                      lambda s, seat, c: card(c).red and c in s["players"][seat]["hand"],
                      when=lambda s, seat: YIYI in C.DEFS and R.flag(s, "duoshi") < 4), pack=HG)
PLAY_AS.append(YIYI)


@HG.on("use_declared", "duoshi", can=lambda ctx, ev: (
    ev["name"] == YIYI and any(card(c).name != YIYI for c in ev["cards"])
    and R.has_skill(ctx.state, ev["user"], "duoshi")))
def _duoshi_count(ctx: Ctx, ev: Ev) -> None:
    R.bump(ctx.state, "duoshi")


# 枭姬 (国战): after you lose cards from your equipment area (one move), you may draw two ----------

def _equip_losers(ctx: Ctx, ev: Ev) -> list[int]:
    out: list[int] = []
    for owner, zone in ev["from"]:
        if zone == "equip" and owner is not None and owner not in out and ev["to"][0] != owner \
                and R.has_skill(ctx.state, owner, "hg_xiaoji", hidden=True):
            out.append(owner)
    return out


@HG.on("cards_moved", "hg_xiaoji", can=lambda ctx, ev: bool(_equip_losers(ctx, ev)))
def _hg_xiaoji(ctx: Ctx, ev: Ev) -> None:
    """One seat has the hero (each hero is dealt once), so one question per move."""
    ctx.push("optional", skill="hg_xiaoji", seat=_equip_losers(ctx, ev)[0], dy=True, st="start")


EFFECT["hg_xiaoji"] = lambda ctx, f, ev: R.draw(ctx, f["seat"], 2)


# 英魂: prepare phase, if wounded: another draws X and discards 1, or draws 1 and discards X --------

@HG.on("phase_start", "yinghun", can=lambda ctx, ev: (
    ev["phase"] == "prepare" and not ev["skip"] and R.has_skill(ctx.state, ev["seat"], "yinghun", hidden=True)
    and _lost(ctx.state, ev["seat"]) > 0 and bool(_others(ctx.state, ev["seat"]))))
def _yinghun(ctx: Ctx, ev: Ev) -> None:
    ctx.push("yinghun", seat=ev["seat"], st="start")


@HG.kind("yinghun")
def _yinghun_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat = f["seat"]
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [seat], "yinghun", default=PASS, short=True, window=True, info={"x": _lost(s, seat)})
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        announce(ctx, seat, "yinghun")
        target, x = int(action[0]), _lost(s, seat)
        mode = action[1] if len(action) > 1 else "x"
        draw_n, drop_n = (x, 1) if mode == "x" else (1, x)
        R.note_act(s, seat, target, -1 if mode == "x" else 1)
        R.draw(ctx, target, draw_n)
        pool = R.all_cards(s, target, judge=False)
        drop_n = min(drop_n, len(pool))
        if drop_n <= 0:
            ctx.pop(f)
            return
        f["st"], f["target"] = "dropped", target
        if drop_n == len(pool):
            f["reply"] = {"seat": target, "action": pool}
            return
        # a default (the first cards) so an absent seat's time-out is a whole answer
        ctx.ask(f, [target], "yinghun_discard", default=tuple(pool[:drop_n]), window=True,
                info={"n": drop_n, "user": seat})
        return
    cids = ctx.take(f, "reply")["action"]
    R.to_discard(s, cids)
    say(ctx, "discard", who=who(f["target"]), cards=_labels(cids))
    ctx.pop(f)


def _yinghun_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    prompt_ = m("step.yinghun", n=ask.info["x"])
    if path == ["pass"]:
        return Step(prompt_, [], complete=True)
    others = _others(state, seat)
    if not path:
        return Step(prompt_, [seat_opt(state, x, seat) for x in others] + [Option("pass", m("opt.pass"))])
    if ascii_int(path[0]) not in others:
        raise EngineError("sanguosha.err.illegal")
    x = ask.info["x"]
    if x <= 1:  # both choices are "draw 1, discard 1"
        if len(path) > 1:
            raise EngineError("sanguosha.err.illegal")
        return Step(prompt_, [], complete=True)
    modes = [Option("x", m("opt.yinghun_x", n=x)), Option("one", m("opt.yinghun_one", n=x))]
    return choose_one(m("step.yinghun_mode", n=x), modes, path[1:])


def _yinghun_discard_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    n = ask.info["n"]
    st, _ = _cards_step(state, R.all_cards(state, seat, judge=False), path, m("step.discard", n=n), n, n)
    if st is None:
        raise EngineError("sanguosha.err.illegal")
    return st


STEPS["yinghun"] = _yinghun_step
STEPS["yinghun_discard"] = _yinghun_discard_step
ASK_SKILL["yinghun"] = "yinghun"


# 红颜: locked — your ♠ cards count as ♥ (your judgements, 天香) ------------------------------------

@HG.modifier("suit", "hongyan")
def _hongyan(state: State, value_: str, args: dict[str, Any]) -> str:
    return "H" if value_ == "S" and R.has_skill(state, args["seat"], "hongyan") else value_


# 天香: when damaged, discard a ♥ hand card: the damage goes to another, who then draws X ----------

def _hearts(state: State, seat: int) -> list[str]:
    return [c for c in state["players"][seat]["hand"] if R.suit(state, seat, c) == "H"]


@HG.on("damage_inflicted", "tianxiang", priority=5, can=lambda ctx, ev: (
    R.has_skill(ctx.state, ev["dst"], "tianxiang", hidden=True) and bool(_hearts(ctx.state, ev["dst"]))
    and bool(_others(ctx.state, ev["dst"]))))
def _tianxiang(ctx: Ctx, ev: Ev) -> None:
    ctx.push("tianxiang", seat=ev["dst"], st="start")


@HG.kind("tianxiang")
def _tianxiang_frame(ctx: Ctx, f: Frame) -> None:
    """The damage is prevented and the same damage (source, amount, nature) dealt to the chosen
    seat; once it resolved, that seat draws as many cards as it has lost HP."""
    s = ctx.state
    if f["st"] == "start":
        ev = ctx.below(f)["ev"]  # type: ignore[index]
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "tianxiang", default=PASS, short=True, window=True,
                info={"src": ev["src"], "n": ev["n"]})
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        ev = ctx.below(f)["ev"]  # type: ignore[index]
        cid, target = action[0], int(action[1])
        announce(ctx, f["seat"], "tianxiang")
        R.to_discard(s, [cid])
        say(ctx, "discard", who=who(f["seat"]), cards=R.card_label(cid))
        say(ctx, "tianxiang_move", who=who(f["seat"]), target=who(target))
        ev["cancel"] = True
        R.note_act(s, f["seat"], target, 2)
        f["st"], f["target"] = "hurt", target
        ctx.push("damage", src=ev["src"], dst=target, n=ev["n"], via="tianxiang", cards=[],
                 nature=ev.get("nature", "normal"), st="start")
        return
    ctx.take(f)
    if R.alive(s, f["target"]) and _lost(s, f["target"]):
        R.draw(ctx, f["target"], _lost(s, f["target"]))
    ctx.pop(f)


def _tianxiang_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    prompt_ = m("step.tianxiang")
    if path == ["pass"]:
        return Step(prompt_, [], complete=True)
    hearts = _hearts(state, seat)
    if not path:
        return Step(prompt_, [card_opt(c) for c in hearts] + [Option("pass", m("opt.pass"))])
    if path[0] not in hearts:
        raise EngineError("sanguosha.err.illegal")
    return _one_seat(state, seat, path[1:], _others(state, seat), "step.tianxiang_to")


STEPS["tianxiang"] = _tianxiang_step
ASK_SKILL["tianxiang"] = "tianxiang"


# 天义: once per play phase, 拼点 another: win — this turn one more 杀, no distance limit, one more
# target; lose — no 杀 this turn ------------------------------------------------------------------

def _tianyi_targets(state: State, seat: int) -> list[int]:
    return [x for x in _others(state, seat) if can_pindian(state, seat, x)]


def _tianyi_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "tianyi")
    announce(ctx, seat, "tianyi")
    ctx.push("tianyi", seat=seat, target=int(path[0]), st="start")


active(Active("tianyi", lambda s, seat: not R.flag(s, "tianyi") and bool(_tianyi_targets(s, seat)),
              lambda s, seat, path: _one_seat(s, seat, path, _tianyi_targets(s, seat), "step.tianyi"),
              _tianyi_start), pack=HG)


@HG.kind("tianyi")
def _tianyi_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "compared"
        pindian(ctx, f["seat"], f["target"], "tianyi")
        return
    R.bump(ctx.state, "tianyi_won" if ctx.take(f) else "tianyi_lost")
    R.note_act(ctx.state, f["seat"], f["target"], 1)
    ctx.pop(f)


def _tianyi_now(state: State, seat: int, outcome: str) -> bool:
    return seat == state["turn"] and bool(R.flag(state, f"tianyi_{outcome}"))


@HG.modifier("sha_limit", "tianyi", priority=-100)
def _tianyi_limit(state: State, value_: int, args: dict[str, Any]) -> int:
    if _tianyi_now(state, args["seat"], "lost"):
        return 0
    return value_ + 1 if _tianyi_now(state, args["seat"], "won") else value_


@HG.modifier("sha_targets", "tianyi")
def _tianyi_targets_cap(state: State, value_: int, args: dict[str, Any]) -> int:
    return value_ + 1 if _tianyi_now(state, args["seat"], "won") else value_


@HG.modifier("sha_candidates", "tianyi", priority=10)
def _tianyi_reach(state: State, cand: list[int], args: dict[str, Any]) -> list[int]:
    if _tianyi_now(state, args["seat"], "won") and len(args["chosen"]) < args["cap"]:
        return list(args["others"])
    return cand


# 短兵: a 杀 you use may have one more target at distance 1 -----------------------------------------

@HG.modifier("sha_candidates", "duanbing")
def _duanbing(state: State, cand: list[int], args: dict[str, Any]) -> list[int]:
    """Once the usual targets are chosen: one more at distance 1 — or, when a chosen one is at
    distance 1 already (it may count as the extra one), anybody the usual rules allow."""
    seat, chosen = args["seat"], args["chosen"]
    if len(chosen) != args["cap"] or not R.has_skill(state, seat, "duanbing", hidden=True):
        return cand
    others = args["others"]
    if any(R.distance(state, seat, t) == 1 for t in chosen):
        usual = [t for t in others if R.in_range(state, seat, t)]
        return R.fold(state, "sha_candidates", usual, **{**args, "chosen": [], "cap": 1})  # type: ignore[no-any-return]
    return [t for t in others if R.distance(state, seat, t) == 1]


def _duanbing_used(ctx: Ctx, ev: Ev) -> bool:
    s = ctx.state
    return (ev["name"] == "sha" and R.has_skill(s, ev["user"], "duanbing", hidden=True)
            and len(ev["targets"]) > R.fold(s, "sha_targets", 1, seat=ev["user"], cards=ev["cards"]))


@HG.on("use_declared", "duanbing", priority=30, can=_duanbing_used)
def _duanbing_shown(ctx: Ctx, ev: Ev) -> None:
    """The extra target is 短兵's use: it shows a hidden hero that has it."""
    R.reveal_for(ctx, ev["user"], "duanbing")
    announce(ctx, ev["user"], "duanbing")


# 奋迅: once per play phase, discard a card: your distance to another is 1 this turn ---------------

def _fenxun_step(state: State, seat: int, path: list[str]) -> Step:
    mine = R.all_cards(state, seat, judge=False)
    if not path:
        return Step(m("step.fenxun"), [card_opt(c) for c in mine])
    if path[0] not in mine:
        raise EngineError("sanguosha.err.illegal")
    return _one_seat(state, seat, path[1:], _others(state, seat), "step.fenxun_to")


def _fenxun_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    s = ctx.state
    R.bump(s, "fenxun")
    announce(ctx, seat, "fenxun")
    R.to_discard(s, path[:1])
    say(ctx, "discard", who=who(seat), cards=R.card_label(path[0]))
    target = int(path[1])
    R.bump(s, "fenxun_to", target + 1)
    say(ctx, "fenxun", who=who(seat), target=who(target))


active(Active("fenxun", lambda s, seat: not R.flag(s, "fenxun") and R.has_cards(s, seat, judge=False)
              and bool(_others(s, seat)), _fenxun_step, _fenxun_start), pack=HG)


@HG.modifier("distance", "fenxun", priority=-100)
def _fenxun_distance(state: State, value_: int, args: dict[str, Any]) -> int:
    if args["src"] == state["turn"] and R.flag(state, "fenxun_to") == args["dst"] + 1:
        return 1
    return value_


# 不屈 (国战 标准版): each HP point lost below 1 may put the top card on your hero as a 创; while
# the 创 all differ in rank you are not dying (no 桃 asked); each HP recovered removes a 创 ---------

def _wounds(state: State, seat: int) -> list[str]:
    return state["players"][seat].get("piles", {}).get("buqu", [])


def _distinct(cids: list[str]) -> bool:
    ranks = [card(c).rank for c in cids]
    return len(set(ranks)) == len(ranks)


@optional("dying", "buqu", can=lambda ctx, ev: (
    1 - ctx.state["players"][ev["seat"]]["hp"] > len(_wounds(ctx.state, ev["seat"]))
    and bool(ctx.state["deck"] or ctx.state["discard"])), pack=HG)
def _buqu(ctx: Ctx, f: Frame, ev: Ev) -> None:
    """One 创 for every HP point below 1 not yet matched by one (the points of this damage or
    loss), each the top card of the deck; then the dying frame asks ``dying_settled``."""
    s = ctx.state
    seat = f["seat"]
    for _ in range(1 - s["players"][seat]["hp"] - len(_wounds(s, seat))):
        got = R.deal(s, 1)
        if not got:
            break
        s["proc"].append(got[0])
        R.to_pile(s, seat, "buqu", got)
        say(ctx, "buqu_card", who=who(seat), sr=R.card_label(got[0]))
    say(ctx, "buqu_ok" if _distinct(_wounds(s, seat)) else "buqu_fail", who=who(seat))


@HG.modifier("dying_settled", "buqu")
def _buqu_settled(state: State, value_: bool, args: dict[str, Any]) -> bool:
    seat = args["seat"]
    wounds = _wounds(state, seat)
    return value_ or (R.has_skill(state, seat, "buqu") and bool(wounds) and _distinct(wounds)
                      and len(wounds) >= 1 - state["players"][seat]["hp"])


@HG.on("hp_recovered", "buqu_heal", can=lambda ctx, ev: bool(_wounds(ctx.state, ev["seat"])))
def _buqu_heal(ctx: Ctx, ev: Ev) -> None:
    """A 创 per HP recovered goes to the discard pile: a repeated rank first (which may end the
    dying process), else the newest."""
    s = ctx.state
    wounds = _wounds(s, ev["seat"])
    for _ in range(min(ev["n"], len(wounds))):
        ranks = [card(c).rank for c in wounds]
        repeated = [c for c in reversed(wounds) if ranks.count(card(c).rank) > 1]
        cid = repeated[0] if repeated else wounds[-1]
        R.to_discard(s, [cid])
        say(ctx, "buqu_heal", who=who(ev["seat"]), sr=R.card_label(cid))


# 好施: draw two more; then with more than five hand cards, give half to the fewest-card other ----

@optional("draw_count", "haoshi", priority=3, default_yes=False, pack=HG)
def _haoshi(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ev["n"] += 2
    R.bump(ctx.state, "haoshi")


def _fewest(state: State, seat: int) -> list[int]:
    others = _others(state, seat)
    least = min((len(state["players"][x]["hand"]) for x in others), default=0)
    return [x for x in others if len(state["players"][x]["hand"]) == least]


@HG.on("phase_end", "haoshi_give", can=lambda ctx, ev: (
    ev["phase"] == "draw" and bool(R.flag(ctx.state, "haoshi")) and R.alive(ctx.state, ev["seat"])
    and len(ctx.state["players"][ev["seat"]]["hand"]) > 5 and bool(_others(ctx.state, ev["seat"]))))
def _haoshi_give(ctx: Ctx, ev: Ev) -> None:
    ctx.push("haoshi", seat=ev["seat"], st="start")


@HG.kind("haoshi")
def _haoshi_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat = f["seat"]
    if f["st"] == "start":
        f["st"] = "given"
        hand, n = s["players"][seat]["hand"], len(s["players"][seat]["hand"]) // 2
        ctx.ask(f, [seat], "haoshi", default=(*hand[:n], str(_fewest(s, seat)[0])), window=True, info={"n": n})
        return
    action = ctx.take(f, "reply")["action"]
    cids, target = action[:-1], int(action[-1])
    R.to_hand(s, target, cids, reason="give")
    say(ctx, "give", who=who(seat), target=who(target), n=len(cids))
    for cid in cids:
        say(ctx, "give_private", to=tuple(sorted({seat, target})), card=cname(card(cid).name), sr=R.card_label(cid))
    R.note_act(s, seat, target, -1)
    ctx.pop(f)


def _haoshi_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    n = ask.info["n"]
    st, picked = _cards_step(state, state["players"][seat]["hand"], path, m("step.haoshi", n=n), n, n, then=[])
    if st is not None and len(picked) < n:
        return st
    return _one_seat(state, seat, path[n:], _fewest(state, seat), "step.haoshi_to")


STEPS["haoshi"] = _haoshi_step


# 缔盟: once per play phase, two others swap hands; you discard as many cards as they differ by -----

def _dimeng_gap(state: State, a: int, b: int) -> int:
    return abs(len(state["players"][a]["hand"]) - len(state["players"][b]["hand"]))


def _dimeng_pairs(state: State, seat: int, first: int | None = None) -> list[int]:
    """Seats that may be chosen (first, or second after ``first``): a pair whose gap you can pay."""
    others, pay = _others(state, seat), len(R.all_cards(state, seat, judge=False))
    if first is None:
        return [a for a in others if any(b != a and _dimeng_gap(state, a, b) <= pay for b in others)]
    return [b for b in others if b != first and _dimeng_gap(state, first, b) <= pay]


def _dimeng_step(state: State, seat: int, path: list[str]) -> Step:
    if not path:
        return Step(m("step.dimeng_a"), [seat_opt(state, x, seat) for x in _dimeng_pairs(state, seat)])
    a = ascii_int(path[0])
    if a not in _dimeng_pairs(state, seat):
        raise EngineError("sanguosha.err.illegal")
    if len(path) == 1:
        return Step(m("step.dimeng_b"), [seat_opt(state, x, seat) for x in _dimeng_pairs(state, seat, a)])
    b = ascii_int(path[1])
    if b not in _dimeng_pairs(state, seat, a):
        raise EngineError("sanguosha.err.illegal")
    gap = _dimeng_gap(state, a, b)  # type: ignore[arg-type]
    if gap == 0:
        if len(path) > 2:
            raise EngineError("sanguosha.err.illegal")
        return Step(m("step.dimeng_b"), [], complete=True)
    st, _ = _cards_step(state, R.all_cards(state, seat, judge=False), path[2:], m("step.dimeng_cards", n=gap), gap, gap)
    if st is None:
        raise EngineError("sanguosha.err.illegal")
    return st


def _dimeng_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    s = ctx.state
    R.bump(s, "dimeng")
    announce(ctx, seat, "dimeng")
    a, b, cids = int(path[0]), int(path[1]), path[2:]
    if cids:
        R.to_discard(s, cids)
        say(ctx, "discard", who=who(seat), cards=_labels(cids))
    ha, hb = list(s["players"][a]["hand"]), list(s["players"][b]["hand"])
    R.to_hand(s, b, ha, reason="swap")
    R.to_hand(s, a, hb, reason="swap")
    say(ctx, "dimeng_swap", a=who(a), b=who(b))


active(Active("dimeng", lambda s, seat: not R.flag(s, "dimeng") and bool(_dimeng_pairs(s, seat)),
              _dimeng_step, _dimeng_start), pack=HG)


# 直谏: in the play phase, put an equipment card from your hand into another's empty slot; draw 1 --

def _zhijian_dests(state: State, seat: int, cid: str) -> list[int]:
    slot = card(cid).slot
    return [x for x in _others(state, seat) if state["players"][x]["equip"].get(slot) is None]


def _zhijian_cards(state: State, seat: int) -> list[str]:
    return [c for c in state["players"][seat]["hand"]
            if kind_of(card(c).name) == "equip" and _zhijian_dests(state, seat, c)]


def _zhijian_step(state: State, seat: int, path: list[str]) -> Step:
    cards = _zhijian_cards(state, seat)
    if not path:
        return Step(m("step.zhijian"), [card_opt(c) for c in cards])
    if path[0] not in cards:
        raise EngineError("sanguosha.err.illegal")
    return _one_seat(state, seat, path[1:], _zhijian_dests(state, seat, path[0]), "step.zhijian_to")


def _zhijian_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    s = ctx.state
    cid, target = path[0], int(path[1])
    announce(ctx, seat, "zhijian")
    R.to_equip(s, target, cid, reason="zhijian")
    say(ctx, "give_weapon", who=who(seat), card=cname(card(cid).name), sr=R.card_label(cid), target=who(target))
    R.note_act(s, seat, target, -1)
    R.draw(ctx, seat, 1)


active(Active("zhijian", lambda s, seat: bool(_zhijian_cards(s, seat)), _zhijian_step, _zhijian_start), pack=HG)


# 固政: at the end of another's discard phase, give back one of its discarded hand cards and take
# the rest of the cards discarded in that phase -------------------------------------------------

def _guzheng_owners(state: State, turn: int) -> list[int]:
    return [x for x in R.living(state, turn + 1) if x != turn and R.has_skill(state, x, "guzheng", hidden=True)]


@HG.on("cards_moved", "guzheng_track", can=lambda ctx, ev: (
    ev["reason"] == "discard" and ev["to"][1] == "discard" and ctx.state["phase"] == "discard"
    and ctx.state["turn"] is not None and bool(_guzheng_owners(ctx.state, ctx.state["turn"]))))
def _guzheng_track(ctx: Ctx, ev: Ev) -> None:
    s = ctx.state
    rec = s["tflags"].setdefault("guzheng", [])
    for cid, (owner, zone) in zip(ev["cards"], ev["from"], strict=False):
        rec.append([cid, owner == s["turn"] and zone == "hand"])


def _guzheng_pool(state: State) -> tuple[list[str], list[str]]:
    """(every card discarded this discard phase still in the pile, those from the player's hand)."""
    rec = [r for r in state["tflags"].get("guzheng", []) if r[0] in state["discard"]]
    return [r[0] for r in rec], [r[0] for r in rec if r[1]]


@HG.on("phase_end", "guzheng", can=lambda ctx, ev: (
    ev["phase"] == "discard" and bool(_guzheng_owners(ctx.state, ev["seat"])) and R.alive(ctx.state, ev["seat"])
    and bool(_guzheng_pool(ctx.state)[1])))
def _guzheng(ctx: Ctx, ev: Ev) -> None:
    ctx.push("guzheng", seat=_guzheng_owners(ctx.state, ev["seat"])[0], target=ev["seat"], st="start")


@HG.kind("guzheng")
def _guzheng_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        pool, back = _guzheng_pool(s)
        f["st"], f["pool"] = "asked", pool
        ctx.ask(f, [f["seat"]], "guzheng", default=PASS, short=True, window=True,
                info={"target": f["target"], "pool": pool, "back": back})
        return
    action = ctx.take(f, "reply")["action"]
    s["tflags"]["guzheng"] = []
    if action != ["pass"]:
        cid = action[0]
        announce(ctx, f["seat"], "guzheng")
        R.to_hand(s, f["target"], [cid])
        rest = [c for c in f["pool"] if c != cid and c in s["discard"]]
        R.to_hand(s, f["seat"], rest)
        say(ctx, "guzheng", who=who(f["seat"]), target=who(f["target"]), card=R.card_label(cid),
            cards=_labels(rest) or "—")
    ctx.pop(f)


def _guzheng_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    back = [c for c in ask.info["back"] if c in state["discard"]]
    opts = [card_opt(c) for c in back] + [Option("pass", m("opt.pass"))]
    return choose_one(m("step.guzheng"), opts, path)


STEPS["guzheng"] = _guzheng_step
ASK_SKILL["guzheng"] = "guzheng"


# -- request texts ----------------------------------------------------------------------------

@prompt("yinghun")
def _yinghun_prompt(info: dict[str, Any]) -> Any:
    return m("req.yinghun", n=info["x"])


@prompt("yinghun_discard")
def _yinghun_discard_prompt(info: dict[str, Any]) -> Any:
    return m("req.yinghun_discard", user=who(info["user"]), n=info["n"])


@prompt("tianxiang")
def _tianxiang_prompt(info: dict[str, Any]) -> Any:
    return m("req.tianxiang", src=who(info["src"]), n=info["n"])


@prompt("haoshi")
def _haoshi_prompt(info: dict[str, Any]) -> Any:
    return m("req.haoshi", n=info["n"])


@prompt("guzheng")
def _guzheng_prompt(info: dict[str, Any]) -> Any:
    return m("req.guzheng", target=who(info["target"]))


# -- the AI's hints for these skills (read the seat's own view only; see ai.py) ------------------

@play_hint("hg_zhiheng")
def _hg_zhiheng(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """制衡 (国战): swap the hand cards least worth keeping, at most max HP of them."""
    weak = [c for c in _discard_order(s.hand) if value(s.hand[c]) <= 4 or s.count(s.hand[c]) > 2]
    path = [*pre, *weak[:min(3, s.me()["max"])]]
    return (1.0, path) if len(path) > len(pre) and _valid(s, path) else None


@ask_hint("yinghun")
def _yinghun(s: Seat) -> list[str]:
    """英魂: X ≥ 2 — a friend draws X and discards one, else an enemy draws one and discards X;
    X = 1 — a friend sorts one card (draw one, discard one)."""
    x = s.ask.info["x"]
    others = [t for t in s.targets([]) if t != s.seat]
    friends = [t for t in others if s.mind.friend(t)]
    if friends:
        t = min(friends, key=lambda f: (s.mind.player(f)["hand"], f))
        return [str(t)] + (["x"] if x > 1 else [])
    foes = [t for t in others if s.mind.enemy(t)]
    if foes and x > 1:
        t = max(foes, key=lambda f: (_worth_hitting(s, f), f))
        return [str(t), "one"]
    return ["pass"]


@ask_hint("yinghun_discard", "haoshi")
def _cheapest_cards(s: Seat) -> list[str]:
    """英魂's discard, 好施's gift: the hand cards least worth keeping (equipment last), then
    (好施) the fewest-card seat that is a friend if there is one."""
    n = s.ask.info["n"]
    offered = set(s.options([]))
    mine = [c for c in _discard_order(s.hand) if c in offered]
    mine += sorted(c for c in offered if c not in s.hand and c not in mine and ascii_int(c) is None)
    path = mine[:n]
    if s.ask.kind == "haoshi" and len(path) == n:
        seats = s.targets(path)
        if seats:
            friends = [t for t in seats if s.mind.friend(t)]
            path.append(str((friends or seats)[0]))
    return path if _valid(s, path) else fallback(s)


@ask_hint("tianxiang")
def _tianxiang(s: Seat) -> list[str]:
    """天香: pass the damage on to the enemy most worth hurting, for the cheapest ♥ (a 桃 only
    when the damage would kill this seat)."""
    hearts = sorted((c for c in s.options([]) if c in s.hand), key=lambda c: (value(s.hand[c]), c))
    if not hearts:
        return ["pass"]
    cid = hearts[0]
    dying = s.mind.hp(s.seat) <= s.ask.info["n"]
    if value(s.hand[cid]) >= 7 and not dying:
        return ["pass"]
    foes = [t for t in s.targets([cid]) if s.mind.enemy(t)]
    if not foes:
        return ["pass"]
    return [cid, str(max(foes, key=lambda t: (_worth_hitting(s, t, s.ask.info["n"]), -t)))]


@play_hint("tianyi")
def _tianyi(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """天义: with a high card (Q or K) and a 杀 to follow, 拼点 an enemy (its hand card is lost
    either way)."""
    high = [c for c in s.hand if card(c).rank >= 12]
    if not high or s.count("sha") < 1 or len(s.hand) < 3:
        return None
    foes = [t for t in s.targets(pre) if s.mind.enemy(t)]
    if not foes:
        return None
    path = [*pre, str(max(foes, key=lambda t: (_worth_hitting(s, t), -t)))]
    return (3.0, path) if _valid(s, path) else None


def _haoshi_yes(s: Seat) -> list[str]:
    """好施: yes when nothing would be given away, or the seat with the fewest cards is a friend."""
    others = [p for p in s.view["players"] if p["alive"] and p["seat"] != s.seat]
    least = min((p["hand"] for p in others), default=0)
    fewest = [p["seat"] for p in others if p["hand"] == least]
    if len(s.hand) + 4 <= 5 or any(s.mind.friend(t) for t in fewest):
        return ["yes"]
    return ["pass"]


SKILL_CHOICE["haoshi"] = _haoshi_yes


@play_hint("dimeng")
def _dimeng(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """缔盟: a friend with few cards swaps with an enemy with many, paying the gap in the weakest
    cards (worth ≤ 5 each), for a gap of at least two."""
    try:
        firsts = s.targets(pre)
    except Exception:  # noqa: BLE001
        return None
    friends = [t for t in firsts if s.mind.friend(t)]
    best: tuple[int, list[str]] | None = None
    for a in friends:
        for b in s.targets([*pre, str(a)]):
            if not s.mind.enemy(b):
                continue
            gap = s.mind.player(b)["hand"] - s.mind.player(a)["hand"]
            weak = [c for c in _discard_order(s.hand) if value(s.hand[c]) <= 5]
            if gap >= 2 and len(weak) >= gap and (best is None or gap > best[0]):
                best = (gap, [*pre, str(a), str(b), *weak[:gap]])
    if best is None or not _valid(s, best[1]):
        return None
    return 1.0 + best[0], best[1]


@play_hint("zhijian")
def _zhijian(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """直谏: an equipment card this seat would not use itself (its own slot is filled) goes to a
    friend's empty slot, for a card."""
    me = s.me()
    for cid in s.options(pre):
        if cid not in s.hand:
            continue
        slot = card(cid).slot
        if me["equip"].get(slot) is None:
            continue
        friends = [t for t in s.targets([*pre, cid]) if s.mind.friend(t)]
        if friends:
            path = [*pre, cid, str(friends[0])]
            return (2.0, path) if _valid(s, path) else None
    return None


@ask_hint("guzheng")
def _guzheng(s: Seat) -> list[str]:
    """固政: give back the card the player needs least (an enemy's) or most (a friend's) and take
    the rest — worth it when the rest is at least one card."""
    info = s.ask.info
    back = [c for c in s.options([]) if c != "pass"]
    if not back or (len(info["pool"]) < 2 and not s.mind.friend(info["target"])):
        return ["pass"]
    names = {c: card(c).name for c in back}
    pick = (max if s.mind.friend(info["target"]) else min)(back, key=lambda c: (value(names[c]), c))
    return [pick]


@play_hint("fenxun")
def _fenxun(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """奋迅: with a 杀 still usable and an enemy out of range, a weak card brings it to distance 1."""
    if not s.count("sha") or s.view["players"][s.seat].get("hp", 0) <= 0:
        return None
    weak = [c for c in _discard_order(s.hand) if value(s.hand[c]) <= 4 and s.hand[c] != "sha"]
    if not weak:
        return None
    sha = next(c for c in s.hand if s.hand[c] == "sha")
    try:
        reachable = set(s.targets([sha]))
    except Exception:  # noqa: BLE001 - no 杀 allowed now
        return None
    if not reachable and not s.options([sha]):
        return None
    foes = [t for t in s.targets([*pre, weak[0]]) if s.mind.enemy(t) and t not in reachable]
    if not foes:
        return None
    path = [*pre, weak[0], str(max(foes, key=lambda t: (_worth_hitting(s, t), -t)))]
    return (1.5, path) if _valid(s, path) else None


@play_hint("duoshi")
def _duoshi(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """度势: a red hand card worth ≤ 4 as 以逸待劳 (draw two, discard two: a sort of the hand)."""
    reds = [c for c in s.options(pre) if c in s.hand and value(s.hand[c]) <= 4]
    if not reds:
        return None
    path = [*pre, min(reds, key=lambda c: (value(s.hand[c]), c))]
    while not _valid(s, path):
        nxt = s.options(path)
        if not nxt:
            return None
        path.append(nxt[0])
        if len(path) > len(pre) + 8:
            return None
    return 1.2, path
