"""The hegemony (国战) skills of the wei heroes that differ from the identity heroes' skills.

A hegemony hero whose skill reads as the identity one names the standard skill id in its data row
(``data/sanguosha/hegemony/wei.json``); every other skill is registered here into
:data:`packs.HEGEMONY_HEROES`, with its question texts and AI hint beside it. The wording is the
国战 标准版 (2014) one; docs/rules/sanguosha-hegemony-wei.md gives each skill's text, source and
the choices made where it was open.

洛神 (hg_luoshen) 神速 巧变 断粮 据守 强袭 驱虎 节命 行殇 放逐 骁果.
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Option, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import cards
from engines.sanguosha import rules as R
from engines.sanguosha.ai import (
    EQUIP,
    Seat,
    _cheapest,
    _discard_order,
    _valid,
    _worth_hitting,
    ask_hint,
    hit_chance,
    play_hint,
    value,
)
from engines.sanguosha.ai_skills import SKILL_CHOICE
from engines.sanguosha.choices import STEPS, card_opt, choose_one, seat_opt
from engines.sanguosha.data import card, kind_of
from engines.sanguosha.frames import PASS, judge_first, push_use, take_chosen
from engines.sanguosha.packs import HEGEMONY_HEROES as HG
from engines.sanguosha.pindian import pindian
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import (
    ASK_SKILL,
    EFFECT,
    Active,
    Conversion,
    active,
    announce,
    ask_skill,
    conversion,
    optional,
    said_yes,
)
from engines.sanguosha.skills_wei import _tuxi, _tuxi_step, _tuxi_targets
from engines.sanguosha.views import prompt
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


def _ask(ctx: Ctx, f: Frame, seat: int, kind: str, **info: Any) -> None:
    """A skill's own question with ``pass`` as its default (a reaction window)."""
    ctx.ask(f, [seat], kind, default=PASS, short=True, window=True, info=info)


def _labels(cids: list[str]) -> str:
    return " ".join(R.card_label(c) for c in cids)


def _discard(ctx: Ctx, seat: int, cids: list[str]) -> None:
    R.to_discard(ctx.state, cids)
    say(ctx, "discard", who=who(seat), cards=_labels(cids))


def _lost_hp(state: State, seat: int) -> int:
    p = state["players"][seat]
    return max(0, int(p["max"]) - p["hp"])


# 洛神 (国战): judge again while black; the black cards are taken only at the end -------------
# (the identity 洛神 takes each black card at once, so it is in hand before the next judgement)

@optional("phase_start", "hg_luoshen", can=lambda ctx, ev: ev["phase"] == "prepare" and not ev["skip"], pack=HG)
def _hg_luoshen(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("hg_luoshen", seat=f["seat"], kept=[], st="start")


@HG.kind("hg_luoshen")
def _hg_luoshen_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if judge_first(ctx, f, "luoshen"):
        return
    if f["st"] == "judged":
        judged = ctx.take(f)
        if judged is not None and not card(judged).red and R.alive(s, f["seat"]):
            if R.owner_zone(s, judged)[1] == "discard":  # 天妒 may have taken it already
                R.to_proc(s, [judged], reason="luoshen")  # set aside until the repeats end
                f["kept"].append(judged)
            f["st"] = "asked"
            ask_skill(ctx, f, f["seat"], "hg_luoshen", default_yes=True)
            return
    elif f["st"] == "asked" and said_yes(ctx, f):
        f["st"] = "start"
        return
    kept = [c for c in f["kept"] if c in s["proc"]]
    if kept and R.alive(s, f["seat"]):
        R.to_hand(s, f["seat"], kept)
        say(ctx, "gain", who=who(f["seat"]), cards=_labels(kept))
    elif kept:
        R.to_discard(s, kept)
    ctx.take(f)
    ctx.pop(f)


# 神速: skip judge + draw phases, or the play phase and an equipment card: a 杀 at anyone --------

def _shensu_targets(state: State, seat: int) -> list[int]:
    """Anyone else the 杀 may name: no distance limit (the 杀 is 视为使用, not in the 杀 count)."""
    return [t for t in R.others_from(state, seat) if R.can_target(state, seat, t, "sha")]


def _equip_cards(state: State, seat: int) -> list[str]:
    return [c for c in R.all_cards(state, seat, judge=False) if kind_of(card(c).name) == "equip"]


def _shensu_can(ctx: Ctx, ev: Ev) -> bool:
    s, seat = ctx.state, ev["seat"]
    if ev["skip"] or not R.has_skill(s, seat, "shensu", hidden=True) or not _shensu_targets(s, seat):
        return False
    return ev["phase"] == "judge" or (ev["phase"] == "play" and bool(_equip_cards(s, seat)))


@HG.on("phase_start", "shensu", priority=20, can=_shensu_can)
def _shensu(ctx: Ctx, ev: Ev) -> None:
    ctx.push("shensu", seat=ev["seat"], st="start")


@HG.kind("shensu")
def _shensu_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    trigger = ctx.below(f)
    assert trigger is not None
    ev = trigger["ev"]
    if f["st"] == "start":
        f["st"] = "asked"
        _ask(ctx, f, f["seat"], "shensu", equip=ev["phase"] == "play")
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        announce(ctx, f["seat"], "shensu")
        ev["skip"] = True
        if ev["phase"] == "judge":
            s["skip"].append("draw")
        else:
            _discard(ctx, f["seat"], action[:1])
        target = int(action[-1])
        f["st"] = "used"
        if R.alive(s, target):
            push_use(ctx, f["seat"], "sha", [], [target], count=False)
        return
    ctx.take(f)
    ctx.pop(f)


def _shensu_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    rest = path
    if ask.info.get("equip"):
        if not path:
            return Step(m("step.shensu_card"), [card_opt(c) for c in _equip_cards(state, seat)] + [Option("pass", m("opt.pass"))])
        if path == ["pass"]:
            return Step(m("step.shensu_card"), [], complete=True)
        if path[0] not in _equip_cards(state, seat):
            raise EngineError("sanguosha.err.illegal")
        rest = path[1:]
    elif path == ["pass"]:
        return Step(m("step.shensu"), [], complete=True)
    opts = [seat_opt(state, t, seat) for t in _shensu_targets(state, seat)]
    if not ask.info.get("equip") and not path:
        opts.append(Option("pass", m("opt.pass")))
    if not rest:
        return Step(m("step.shensu"), opts)
    if ascii_int(rest[0]) not in _shensu_targets(state, seat) or len(rest) > 1:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.shensu"), [], complete=True)


STEPS["shensu"] = _shensu_step
ASK_SKILL["shensu"] = "shensu"


# 巧变: discard a hand card to skip a phase (not prepare/finish); skipping draw takes hand cards
# of up to two others, skipping play moves a card of the field --------------------------------

#: The phases 巧变 may skip; an empty judge phase is not offered (skipping it changes nothing).
QIAOBIAN_PHASES = ("judge", "draw", "play", "discard")


@HG.on("phase_start", "qiaobian", priority=10,
       can=lambda ctx, ev: (ev["phase"] in QIAOBIAN_PHASES and not ev["skip"]
                            and R.has_skill(ctx.state, ev["seat"], "qiaobian", hidden=True)
                            and bool(ctx.state["players"][ev["seat"]]["hand"])
                            and (ev["phase"] != "judge" or bool(ctx.state["players"][ev["seat"]]["judge"]))))
def _qiaobian(ctx: Ctx, ev: Ev) -> None:
    ctx.push("qiaobian", seat=ev["seat"], st="start")


def _field_moves(state: State, seat: int) -> dict[str, list[int]]:
    """Card on the field (equipment or judgement area) → the seats it may be moved to: another
    seat with that equipment slot empty, or without a delayed trick of that name."""
    out: dict[str, list[int]] = {}
    ps = state["players"]
    living = R.living(state)
    for owner in living:
        for cid in (c for c in ps[owner]["equip"].values() if c):
            slot = card(cid).slot
            dests = [d for d in living if d != owner and ps[d]["equip"].get(slot) is None]
            if dests:
                out[cid] = dests
        for cid, name in ps[owner]["judge"]:
            dests = [d for d in living if d != owner and not any(e[1] == name for e in ps[d]["judge"])]
            if dests:
                out[cid] = dests
    return out


@HG.kind("qiaobian")
def _qiaobian_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat = f["seat"]
    trigger = ctx.below(f)
    assert trigger is not None
    ev = trigger["ev"]
    if f["st"] == "start":
        f["st"] = "asked"
        _ask(ctx, f, seat, "qiaobian", phase=ev["phase"])
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        announce(ctx, seat, "qiaobian")
        _discard(ctx, seat, action)
        ev["skip"] = True
        f["st"] = "bonus"
        if ev["phase"] == "draw" and _tuxi_targets(s, seat):
            _ask(ctx, f, seat, "qiaobian_take")
            return
        if ev["phase"] == "play" and _field_moves(s, seat):
            _ask(ctx, f, seat, "qiaobian_move")
            return
        ctx.pop(f)
        return
    action = ctx.take(f, "reply")["action"]
    if action != ["pass"] and ev["phase"] == "draw":
        for tok in action:
            if s["players"][int(tok)]["hand"]:
                take_chosen(ctx, seat, int(tok), "hand", to_hand=True)
    elif action != ["pass"]:
        cid, dest = action[0], int(action[1])
        src, zone = R.owner_zone(s, cid)
        if zone == "equip":
            R.to_equip(s, dest, cid, reason="move")
        else:
            name = next(e[1] for e in s["players"][src]["judge"] if e[0] == cid)  # type: ignore[index]
            R.to_judge(s, dest, cid, name, reason="move")
        say(ctx, "move_card", who=who(seat), card=cname(card(cid).name), sr=R.card_label(cid),
            src=who(src), target=who(dest))
    ctx.pop(f)


def _qiaobian_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [card_opt(c) for c in state["players"][seat]["hand"]] + [Option("pass", m("opt.pass"))]
    return choose_one(m("step.qiaobian", phase=R.key_ref(f"sanguosha.phase.{ask.info['phase']}")), opts, path)


def _qiaobian_move_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    moves = _field_moves(state, seat)
    if path == ["pass"]:
        return Step(m("step.qiaobian_move"), [], complete=True)
    if not path:
        return Step(m("step.qiaobian_move"), [card_opt(c) for c in moves] + [Option("pass", m("opt.pass"))])
    if path[0] not in moves:
        raise EngineError("sanguosha.err.illegal")
    if len(path) == 1:
        return Step(m("step.qiaobian_to"), [seat_opt(state, d, seat) for d in moves[path[0]]])
    if ascii_int(path[1]) not in moves[path[0]] or len(path) > 2:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.qiaobian_to"), [], complete=True)


STEPS["qiaobian"] = _qiaobian_step
STEPS["qiaobian_take"] = _tuxi_step
STEPS["qiaobian_move"] = _qiaobian_move_step
ASK_SKILL["qiaobian"] = "qiaobian"


# 断粮: a black non-trick card (hand or equipped) as 兵粮寸断; 兵粮寸断 reaches distance 2 -----------

def _duanliang_ok(state: State, seat: int, cid: str) -> bool:
    c = card(cid)
    return not c.red and kind_of(c.name) in ("basic", "equip")


conversion(Conversion("duanliang", "duanliang", "bingliang", _duanliang_ok, equip=True,
                      when=lambda s, seat: "bingliang" in cards.DEFS), pack=HG)


@HG.modifier("trick_distance", "duanliang")
def _duanliang_reach(state: State, value: int, args: dict[str, Any]) -> int:
    """兵粮寸断's reach (1) is 2 for 徐晃; the card's target rule folds ``trick_distance`` with
    ``name="bingliang"`` (a 顺手牵羊 of his keeps distance 1)."""
    if args.get("name") == "bingliang" and R.has_skill(state, args["seat"], "duanliang"):
        return value + 1
    return value


# 据守: at the finish phase draw three, then 叠置 -------------------------------------------------

@optional("phase_start", "jushou", can=lambda ctx, ev: ev["phase"] == "finish" and not ev["skip"],
          default_yes=False, pack=HG)
def _jushou(ctx: Ctx, f: Frame, ev: Ev) -> None:
    R.draw(ctx, f["seat"], 3)
    R.turn_over(ctx, f["seat"])


# 强袭: once per play phase, lose 1 HP or discard a weapon: 1 damage to one in attack range ------

def _weapons(state: State, seat: int) -> list[str]:
    return [c for c in R.all_cards(state, seat, judge=False) if card(c).slot == "weapon"]


def _qiangxi_targets(state: State, seat: int, cost: str) -> list[int]:
    """Seats in attack range once the cost is paid (a discarded equipped weapon no longer counts)."""
    probe = R.without_equipped(state, seat, [cost]) if cost != "hp" else state
    return [t for t in R.others_from(state, seat) if R.in_range(probe, seat, t)]


def _qiangxi_costs(state: State, seat: int) -> list[str]:
    costs = ["hp", *_weapons(state, seat)]
    return [c for c in costs if _qiangxi_targets(state, seat, c)]


def _qiangxi_step(state: State, seat: int, path: list[str]) -> Step:
    costs = _qiangxi_costs(state, seat)
    if not path:
        return Step(m("step.qiangxi"), [Option("hp", m("opt.lose_hp")), *(card_opt(c) for c in costs if c != "hp")]
                    if "hp" in costs else [card_opt(c) for c in costs])
    if path[0] not in costs:
        raise EngineError("sanguosha.err.illegal")
    targets = _qiangxi_targets(state, seat, path[0])
    if len(path) == 1:
        return Step(m("step.qiangxi_to"), [seat_opt(state, t, seat) for t in targets])
    if ascii_int(path[1]) not in targets or len(path) > 2:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.qiangxi_to"), [], complete=True)


def _qiangxi_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "qiangxi")
    announce(ctx, seat, "qiangxi")
    ctx.push("qiangxi", seat=seat, cost=path[0], target=int(path[1]), st="start")


active(Active("qiangxi", lambda s, seat: not R.flag(s, "qiangxi") and bool(_qiangxi_costs(s, seat)),
              _qiangxi_step, _qiangxi_start), pack=HG)


@HG.kind("qiangxi")
def _qiangxi_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "paid"
        if f["cost"] == "hp":
            ctx.push("lose_hp", seat=f["seat"], n=1, st="start")
            return
        _discard(ctx, f["seat"], [f["cost"]])
    if f["st"] == "paid":
        ctx.take(f)
        f["st"] = "damage"
        if R.alive(s, f["seat"]) and R.alive(s, f["target"]):
            ctx.push("damage", src=f["seat"], dst=f["target"], n=1, via="qiangxi", cards=[], st="start")
        return
    ctx.take(f)
    ctx.pop(f)


# 驱虎: once per play phase, 拼点 with one of more HP: win → it hurts one in its range whom you
# choose; else it hurts you ----------------------------------------------------------------------

def _quhu_targets(state: State, seat: int) -> list[int]:
    ps = state["players"]
    return [t for t in R.others_from(state, seat) if ps[t]["hp"] > ps[seat]["hp"] and ps[t]["hand"]]


def _quhu_step(state: State, seat: int, path: list[str]) -> Step:
    opts = [seat_opt(state, t, seat) for t in _quhu_targets(state, seat)]
    return choose_one(m("step.quhu"), opts, path)


def _quhu_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "quhu")
    announce(ctx, seat, "quhu")
    ctx.push("quhu", seat=seat, target=int(path[0]), st="start")


active(Active("quhu", lambda s, seat: not R.flag(s, "quhu") and bool(s["players"][seat]["hand"])
              and bool(_quhu_targets(s, seat)), _quhu_step, _quhu_start), pack=HG)


def _wolf_victims(state: State, tiger: int) -> list[int]:
    return [x for x in R.living(state) if R.in_range(state, tiger, x)]


@HG.kind("quhu")
def _quhu_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat, tiger = f["seat"], f["target"]
    if f["st"] == "start":
        f["st"] = "compared"
        pindian(ctx, seat, tiger, "quhu")
        return
    if f["st"] == "compared":
        won = ctx.take(f)
        if not (R.alive(s, seat) and R.alive(s, tiger)):
            ctx.pop(f)
            return
        if not won:
            f["st"] = "damage"
            ctx.push("damage", src=tiger, dst=seat, n=1, via="quhu", cards=[], st="start")
            return
        if not _wolf_victims(s, tiger):
            say(ctx, "quhu_nowolf", who=who(tiger))
            ctx.pop(f)
            return
        f["st"] = "victim"
        ctx.ask(f, [seat], "quhu_victim", short=True, window=True, info={"tiger": tiger})
        return
    if f["st"] == "victim":
        victim = int(ctx.take(f, "reply")["action"][0])
        f["st"] = "damage"
        ctx.push("damage", src=tiger, dst=victim, n=1, via="quhu", cards=[], st="start")
        return
    ctx.take(f)
    ctx.pop(f)


def _quhu_victim_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    tiger = ask.info["tiger"]
    return choose_one(m("step.quhu_victim"), [seat_opt(state, x, tiger) for x in _wolf_victims(state, tiger)], path)


STEPS["quhu_victim"] = _quhu_victim_step


# 节命: per point of damage taken, one seat fills its hand up to its max HP (at most 5) ---------

def _short_of(state: State, seat: int) -> int:
    p = state["players"][seat]
    return min(int(p["max"]), 5) - len(p["hand"])


def _jieming_targets(state: State) -> list[int]:
    return [t for t in R.living(state) if _short_of(state, t) > 0]


@HG.on("damage_done", "jieming", priority=-10,
       can=lambda ctx, ev: R.has_skill(ctx.state, ev["dst"], "jieming", hidden=True))
def _jieming(ctx: Ctx, ev: Ev) -> None:
    ctx.push("jieming", seat=ev["dst"], left=ev["n"], st="start")


@HG.kind("jieming")
def _jieming_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        announce(ctx, f["seat"], "jieming")
        target = int(action[0])
        R.draw(ctx, target, max(0, _short_of(s, target)))
        R.note_act(s, f["seat"], target, -1)
    if f["left"] <= 0 or not R.alive(s, f["seat"]) or not _jieming_targets(s):
        ctx.pop(f)
        return
    f["left"] -= 1
    f["st"] = "asked"
    _ask(ctx, f, f["seat"], "jieming")


def _jieming_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [Option(str(t), m("opt.jieming", who=who(t), n=_short_of(state, t))) for t in _jieming_targets(state)]
    return choose_one(m("step.jieming"), [*opts, Option("pass", m("opt.pass"))], path)


STEPS["jieming"] = _jieming_step
ASK_SKILL["jieming"] = "jieming"


# 行殇: when another seat dies, take all its cards (hand and equipment) ---------------------------

def _xingshang_seat(state: State, dead: int) -> int | None:
    for x in R.living(state, state["turn"] if state["turn"] is not None else 0):
        if x != dead and R.has_skill(state, x, "xingshang", hidden=True):
            return x
    return None


@HG.on("death", "xingshang",
       can=lambda ctx, ev: (R.has_cards(ctx.state, ev["seat"], judge=False)
                            and _xingshang_seat(ctx.state, ev["seat"]) is not None))
def _xingshang(ctx: Ctx, ev: Ev) -> None:
    ctx.push("optional", skill="xingshang", seat=_xingshang_seat(ctx.state, ev["seat"]), dy=True, st="start")


def _xingshang_effect(ctx: Ctx, f: Frame, ev: Ev) -> None:
    got = R.all_cards(ctx.state, ev["seat"], judge=False)
    R.to_hand(ctx.state, f["seat"], got)
    say(ctx, "xingshang", who=who(f["seat"]), target=who(ev["seat"]), n=len(got))


EFFECT["xingshang"] = _xingshang_effect


# 放逐: after taking damage, another seat draws X (your lost HP), then 叠置 -----------------------

@HG.on("damage_done", "fangzhu", priority=-5,
       can=lambda ctx, ev: (R.has_skill(ctx.state, ev["dst"], "fangzhu", hidden=True)
                            and bool(R.others_from(ctx.state, ev["dst"]))))
def _fangzhu(ctx: Ctx, ev: Ev) -> None:
    ctx.push("fangzhu", seat=ev["dst"], st="start")


@HG.kind("fangzhu")
def _fangzhu_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        _ask(ctx, f, f["seat"], "fangzhu", n=_lost_hp(s, f["seat"]))
        return
    action = ctx.take(f, "reply")["action"]
    if action != ["pass"]:
        announce(ctx, f["seat"], "fangzhu")
        target = int(action[0])
        R.draw(ctx, target, _lost_hp(s, f["seat"]))
        R.turn_over(ctx, target)
    ctx.pop(f)


def _fangzhu_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [seat_opt(state, t, seat) for t in R.others_from(state, seat)]
    return choose_one(m("step.fangzhu", n=_lost_hp(state, seat)), [*opts, Option("pass", m("opt.pass"))], path)


STEPS["fangzhu"] = _fangzhu_step
ASK_SKILL["fangzhu"] = "fangzhu"


# 骁果: at another seat's finish phase, discard a basic card: it discards an equipment card or
# takes 1 damage from you -------------------------------------------------------------------------

def _basics(state: State, seat: int) -> list[str]:
    return [c for c in state["players"][seat]["hand"] if kind_of(card(c).name) == "basic"]


def _xiaoguo_seats(state: State, turn: int) -> list[int]:
    return [x for x in R.others_from(state, turn) if R.has_skill(state, x, "xiaoguo", hidden=True) and _basics(state, x)]


@HG.on("phase_start", "xiaoguo", priority=-10,
       can=lambda ctx, ev: ev["phase"] == "finish" and not ev["skip"] and bool(_xiaoguo_seats(ctx.state, ev["seat"])))
def _xiaoguo(ctx: Ctx, ev: Ev) -> None:
    ctx.push("xiaoguo", seats=_xiaoguo_seats(ctx.state, ev["seat"]), target=ev["seat"], st="start")


@HG.kind("xiaoguo")
def _xiaoguo_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    target = f["target"]
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action != ["pass"]:
            announce(ctx, f["asked"], "xiaoguo")
            _discard(ctx, f["asked"], action)
            f["st"] = "pay"
            if _equip_cards(s, target):
                ctx.ask(f, [target], "xiaoguo_pay", default=PASS, short=True, window=True, info={"user": f["asked"]})
                return
            f["reply"] = {"seat": target, "action": ["pass"]}
    if f["st"] == "pay":
        action = ctx.take(f, "reply")["action"]
        if action != ["pass"]:
            _discard(ctx, target, action)
            f["st"] = "start"
        else:
            f["st"] = "damage"
            ctx.push("damage", src=f["asked"], dst=target, n=1, via="xiaoguo", cards=[], st="start")
            return
    if f["st"] == "damage":
        ctx.take(f)
    while f["seats"] and R.alive(s, target):
        seat = f["seats"].pop(0)
        if R.alive(s, seat) and _basics(s, seat):
            f["asked"], f["st"] = seat, "asked"
            _ask(ctx, f, seat, "xiaoguo", target=target)
            return
    ctx.pop(f)


def _xiaoguo_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [card_opt(c) for c in _basics(state, seat)] + [Option("pass", m("opt.pass"))]
    return choose_one(m("step.xiaoguo"), opts, path)


def _xiaoguo_pay_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [card_opt(c) for c in _equip_cards(state, seat)] + [Option("pass", m("opt.take_damage"))]
    return choose_one(m("step.xiaoguo_pay"), opts, path)


STEPS["xiaoguo"] = _xiaoguo_step
STEPS["xiaoguo_pay"] = _xiaoguo_pay_step
ASK_SKILL["xiaoguo"] = "xiaoguo"


# -- question texts -------------------------------------------------------------------------------

@prompt("shensu")
def _shensu_prompt(info: dict[str, Any]) -> Any:
    return m("req.shensu_play" if info.get("equip") else "req.shensu")


@prompt("qiaobian")
def _qiaobian_prompt(info: dict[str, Any]) -> Any:
    return m("req.qiaobian", phase=R.key_ref(f"sanguosha.phase.{info['phase']}"))




@prompt("quhu_victim")
def _quhu_victim_prompt(info: dict[str, Any]) -> Any:
    return m("req.quhu_victim", who=who(info["tiger"]))



@prompt("fangzhu")
def _fangzhu_prompt(info: dict[str, Any]) -> Any:
    return m("req.fangzhu", n=info["n"])


@prompt("xiaoguo")
def _xiaoguo_prompt(info: dict[str, Any]) -> Any:
    return m("req.xiaoguo", who=who(info["target"]))


@prompt("xiaoguo_pay")
def _xiaoguo_pay_prompt(info: dict[str, Any]) -> Any:
    return m("req.xiaoguo_pay", user=who(info["user"]))


# -- the AI's hints for these skills (read the seat's own view only; see ai.py) ------------------

def _best_sha(s: Seat, path: list[str]) -> tuple[float, int] | None:
    """(worth × hit chance, seat) of the best target the walk offers after ``path``."""
    scored = [(_worth_hitting(s, t) * hit_chance(s, t), t) for t in s.targets(path)]
    best = max(scored, key=lambda x: (x[0], -x[1]), default=None)
    return best if best is not None and best[0] > 0 else None


@ask_hint("shensu")
def _shensu_ai(s: Seat) -> list[str]:
    """神速: before the judge phase, trade the two draws for a 杀 when an enemy is worth it (or a
    乐不思蜀/兵粮寸断 waits in the judgement area, which the skip leaves there); before the play
    phase only with a spare equipment card in hand and no 杀 to play anyway."""
    if not s.ask.info.get("equip"):
        best = _best_sha(s, [])
        waiting = any(j["as"] in ("lebu", "bingliang") for j in s.me()["judge"])
        return [str(best[1])] if best and (best[0] >= 0.6 or waiting) else ["pass"]
    mine = s.me()["equip"]
    spare = [c for c in s.options([]) if c in s.hand and mine.get(card(c).slot)]
    if not spare or s.count("sha"):
        return ["pass"]
    cid = min(spare, key=lambda c: (EQUIP.get(s.hand[c], 4), c))
    best = _best_sha(s, [cid])
    return [cid, str(best[1])] if best and best[0] >= 0.6 else ["pass"]


def _my_delayed(s: Seat) -> bool:
    return any(j["as"] in ("lebu", "bingliang") for j in s.me()["judge"])


@ask_hint("qiaobian")
def _qiaobian_ai(s: Seat) -> list[str]:
    """巧变: the cheapest hand card to skip a judge phase with 乐不思蜀/兵粮寸断 waiting, a draw
    phase when two non-friends have hand cards (take theirs), a play phase when a friend's
    delayed trick can go to an enemy, a discard phase two or more cards over the limit."""
    phase = s.ask.info["phase"]
    hand = [c for c in s.options([]) if c in s.hand]
    if not hand:
        return ["pass"]
    cheap = _discard_order(s.hand)[0]
    me = s.me()
    worth = False
    if phase == "judge":
        worth = _my_delayed(s)
    elif phase == "draw":
        worth = sum(1 for t in s.mind.alive if t != s.seat and not s.mind.friend(t) and s.mind.player(t)["hand"]) >= 2
    elif phase == "play":
        worth = bool(_qiaobian_move_pick(s, s.state)) and len(s.hand) <= 2
    elif phase == "discard":
        worth = len(s.hand) - max(0, me["hp"]) >= 2
    return [cheap] if worth and cheap in hand else ["pass"]


def _qiaobian_move_pick(s: Seat, state: State) -> list[str] | None:
    """A friend's (or its own) delayed trick onto an enemy, else an enemy's equipment to itself."""
    moves = _field_moves(state, s.seat)
    for t in s.mind.alive:
        p = s.mind.player(t)
        if t == s.seat or s.mind.friend(t):
            for j in p["judge"]:
                foes = [d for d in moves.get(j["id"], []) if s.mind.enemy(d)]
                if foes:
                    return [j["id"], str(foes[0])]
    for t in s.mind.alive:
        if s.mind.enemy(t):
            for e in s.mind.player(t)["equip"].values():
                if e and s.seat in moves.get(e["id"], []):
                    return [e["id"], str(s.seat)]
    return None


@ask_hint("qiaobian_move")
def _qiaobian_move_ai(s: Seat) -> list[str]:
    pick = _qiaobian_move_pick(s, s.state)
    return pick if pick and _valid(s, pick) else ["pass"]


ask_hint("qiaobian_take")(_tuxi)


@play_hint("qiangxi")
def _qiangxi_ai(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """强袭: a weapon in hand (or a worse equipped one) pays; 1 HP only at 3+ HP for an enemy
    that the damage may kill."""
    best: tuple[float, list[str]] | None = None
    for cost in s.options(pre):
        if cost == "hp" and s.mind.hp(s.seat) < 3:
            continue
        for t in s.targets([*pre, cost]):
            w = _worth_hitting(s, t)
            if cost == "hp" and s.mind.hp(t) > 1:
                w -= 1.0
            elif cost != "hp" and cost not in s.hand:
                w -= 0.5  # the equipped weapon itself
            path = [*pre, cost, str(t)]
            if w > 0 and (best is None or w > best[0]) and _valid(s, path):
                best = (2.0 * w, path)
    return best


@play_hint("quhu")
def _quhu_ai(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """驱虎: with a high card (J or better) against an enemy that has an enemy of ours in range."""
    high = [c for c in s.hand if card(c).rank >= 11]
    if not high:
        return None
    foes = [t for t in s.targets(pre) if s.mind.enemy(t)]
    if not foes:
        return None
    t = max(foes, key=lambda x: (_worth_hitting(s, x), -x))
    path = [*pre, str(t)]
    return (1.5, path) if _valid(s, path) else None


@ask_hint("quhu_victim")
def _quhu_victim_ai(s: Seat) -> list[str]:
    """The enemy most worth hurting in the tiger's range; else anyone but a friend or itself."""
    opts = s.targets([])
    foes = [t for t in opts if s.mind.enemy(t)]
    if foes:
        return [str(max(foes, key=lambda t: (_worth_hitting(s, t), -t)))]
    rest = [t for t in opts if t != s.seat and not s.mind.friend(t)] or [t for t in opts if t != s.seat] or opts
    return [str(rest[0])]


@ask_hint("jieming")
def _jieming_ai(s: Seat) -> list[str]:
    """节命: the friend (or itself) who draws the most, when that is at least one card."""
    opts = [t for t in s.targets([]) if t == s.seat or s.mind.friend(t)]
    if not opts:
        return ["pass"]

    def short(t: int) -> int:
        p = s.mind.player(t)
        return min(int(p["max"]), 5) - (len(s.hand) if t == s.seat else p["hand"])

    return [str(max(opts, key=lambda t: (short(t), t == s.seat, -t)))]


@ask_hint("fangzhu")
def _fangzhu_ai(s: Seat) -> list[str]:
    """放逐: a 叠置 friend comes back flat with the cards; else an enemy is turned over while it
    draws little (X ≤ 2); else nobody."""
    n = s.ask.info["n"]
    opts = s.targets([])
    friends = [t for t in opts if s.mind.friend(t) and s.mind.player(t).get("stacked")]
    if friends:
        return [str(friends[0])]
    foes = [t for t in opts if s.mind.enemy(t) and not s.mind.player(t).get("stacked")]
    if foes and n <= 2:
        return [str(max(foes, key=lambda t: (s.mind.enemy_score(t), -t)))]
    return ["pass"]


def _jushou_ai(s: Seat) -> list[str]:
    """据守: three cards for the next turn, when the hand is short or HP low."""
    return ["yes"] if len(s.hand) <= 1 or s.mind.hp(s.seat) <= 2 else ["pass"]


SKILL_CHOICE["jushou"] = _jushou_ai


@ask_hint("xiaoguo")
def _xiaoguo_ai(s: Seat) -> list[str]:
    """骁果: a cheap basic card (not a 桃 or a lone 闪) against an enemy."""
    if not s.mind.enemy(s.ask.info["target"]):
        return ["pass"]
    cheap = [c for c in s.options([]) if c in s.hand and value(s.hand[c]) <= 5
             or c in s.hand and s.hand[c] == "shan" and s.count("shan") > 1]
    return [_cheapest(s, cheap)] if cheap else ["pass"]


@ask_hint("xiaoguo_pay")
def _xiaoguo_pay_ai(s: Seat) -> list[str]:
    """Pay with an equipment card from hand first, an equipped one rather than 1 HP at 2 HP or
    less, else take the damage."""
    opts = [o for o in s.options([]) if o != "pass"]
    in_hand = [c for c in opts if c in s.hand]
    if in_hand:
        return [min(in_hand, key=lambda c: (EQUIP.get(s.hand[c], 4), c))]
    if opts and s.mind.hp(s.seat) <= 2:
        return [opts[0]]
    return ["pass"]

