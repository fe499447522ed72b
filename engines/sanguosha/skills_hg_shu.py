"""The hegemony (国战) skills of the shu heroes that differ from the identity heroes' skills.

A hegemony hero whose skill reads as the identity one names the standard skill id in its data row
(``data/sanguosha/hegemony/shu.json``); every other skill is registered here into
:data:`packs.HEGEMONY_HEROES`, with its question texts and AI hint beside it. The wordings and the
choices made where they are open: docs/rules/sanguosha-hegemony-shu.md.

Locked skills (锁定技) go through :func:`skills.locked` / :func:`skills.push_locked`: they act by
themselves while the hero is shown, and a hidden hero's is offered as "show the hero to use it".
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import FUTILE, Seat, _cheapest, _discard_order, _valid, ask_hint, play_hint, value
from engines.sanguosha.ai_skills import SKILL_CHOICE, _best_friend
from engines.sanguosha.choices import PASS_OPT, PLAY_AS, STEPS, card_opt, choose_one, seat_opt
from engines.sanguosha.data import card, kind_of
from engines.sanguosha.frames import PASS, event_below, recover, take_chosen
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
    locked,
    optional,
    push_locked,
    skill_ref,
)
from engines.sanguosha.skills_shu import _rende_step, give_cards
from engines.sanguosha.views import prompt

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


def _hand(state: State, seat: int) -> list[str]:
    return state["players"][seat]["hand"]  # type: ignore[no-any-return]


# 仁德 (国战): give any hand cards; the third card given this phase heals 1 ----------------------

#: Cards given in one play phase that heal (identity 仁德: two; 国战: the third card).
HG_RENDE_HEAL_AT = 3


def _hg_rende_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    give_cards(ctx, seat, path, "hg_rende", HG_RENDE_HEAL_AT)


active(Active("hg_rende", lambda s, seat: bool(s["players"][seat]["hand"]) and len(R.living(s)) > 1,
              _rende_step, _hg_rende_start), pack=HG)


# 空城 (国战): a 杀 or 决斗 targeting you with no hand cards is cancelled for you --------------------

def _kongcheng_seats(state: State, ev: Ev) -> list[int]:
    return [t for t in ev["targets"] if not _hand(state, t)
            and R.has_skill(state, t, "hg_kongcheng", hidden=True)]


@HG.on("use_declared", "hg_kongcheng", priority=20,
       can=lambda ctx, ev: ev["name"] in ("sha", "juedou") and bool(_kongcheng_seats(ctx.state, ev)))
def _kongcheng(ctx: Ctx, ev: Ev) -> None:
    push_locked(ctx, _kongcheng_seats(ctx.state, ev)[0], "hg_kongcheng")


def _kongcheng_effect(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ev["targets"] = [t for t in ev["targets"] if t != f["seat"]]
    say(ctx, "kongcheng_cancel", card=cname(ev["name"]), target=who(f["seat"]))


EFFECT["hg_kongcheng"] = _kongcheng_effect
HG.provides.add("hg_kongcheng")


# 烈弓: in your play phase, a 杀 at a seat whose hand is ≥ your HP or ≤ your range cannot be dodged

def _liegong_ok(ctx: Ctx, ev: Ev) -> bool:
    s = ctx.state
    user, n = ev["user"], len(_hand(s, ev["target"]))
    return (s["phase"] == "play" and s["turn"] == user and not ev["void"]
            and (n >= s["players"][user]["hp"] or n <= R.attack_range(s, user)))


@optional("sha_effect", "liegong", "user", priority=24, can=_liegong_ok, pack=HG)
def _liegong(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ev["need"] = 0
    say(ctx, "liegong_hit", who=who(f["seat"]), target=who(ev["target"]))


# 狂骨 (锁定技): damage dealt to a seat within distance 1 heals you as much ----------------------
# The distance is taken when the damage is inflicted (the damage frame keeps the mark), the heal
# comes after it: at ``damage_done``, or at the victim's death when the damage killed it.

@HG.on("damage_inflicted", "kuanggu_mark", priority=-100,
       can=lambda ctx, ev: (ev["src"] is not None and R.has_skill(ctx.state, ev["src"], "kuanggu", hidden=True)
                            and R.alive(ctx.state, ev["dst"]) and R.distance(ctx.state, ev["src"], ev["dst"]) <= 1))
def _kuanggu_mark(ctx: Ctx, ev: Ev) -> None:
    damage = ctx.below(ctx.stack[-1])
    if damage is not None and damage["k"] == "damage":
        damage["kuanggu"] = True


def _kuanggu_damage(ctx: Ctx, seat: int | None, dst: int) -> Frame | None:
    """The innermost damage frame marked by 狂骨 for ``seat`` hitting ``dst``."""
    damage = ctx.find("damage")
    if damage is None or not damage.get("kuanggu") or damage["src"] != seat or damage["dst"] != dst:
        return None
    return damage


@HG.on("damage_done", "kuanggu",
       can=lambda ctx, ev: R.alive(ctx.state, ev["src"]) if _kuanggu_damage(ctx, ev["src"], ev["dst"]) else False)
def _kuanggu(ctx: Ctx, ev: Ev) -> None:
    push_locked(ctx, ev["src"], "kuanggu")


@HG.on("death", "kuanggu_death",
       can=lambda ctx, ev: (ev["src"] is not None and R.alive(ctx.state, ev["src"])
                            and _kuanggu_damage(ctx, ev["src"], ev["seat"]) is not None))
def _kuanggu_death(ctx: Ctx, ev: Ev) -> None:
    push_locked(ctx, ev["src"], "kuanggu")


def _kuanggu_effect(ctx: Ctx, f: Frame, ev: Ev) -> None:
    damage = ctx.find("damage")
    if damage is not None and damage.pop("kuanggu", False):
        recover(ctx, f["seat"], damage["n"], f["seat"])


EFFECT["kuanggu"] = _kuanggu_effect
HG.provides.add("kuanggu")


# 连环: a ♣ hand card as 铁索连环, or recast it ---------------------------------------------------

def _club_in_hand(state: State, seat: int, cid: str) -> bool:
    return card(cid).suit == "C" and cid in _hand(state, seat)


conversion(Conversion("lianhuan_tiesuo", "lianhuan", "tiesuo", _club_in_hand), pack=HG)
PLAY_AS.append("tiesuo")


def _recast_step(state: State, seat: int, path: list[str]) -> Step:
    clubs = [c for c in _hand(state, seat) if card(c).suit == "C"]
    return choose_one(m("step.lianhuan_recast"), [card_opt(c) for c in clubs], path)


def _recast_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    announce(ctx, seat, "lianhuan")
    R.to_discard(ctx.state, path[:1], reason="recast")
    say(ctx, "lianhuan_recast", who=who(seat), sr=R.card_label(path[0]))
    R.draw(ctx, seat, 1)


active(Active("lianhuan", lambda s, seat: any(card(c).suit == "C" for c in _hand(s, seat)),
              _recast_step, _recast_start), pack=HG)


# 涅槃 (限定技): dying, discard everything, reset, draw 3 and go back to 3 HP -------------------

def _niepan_ok(ctx: Ctx, ev: Ev) -> bool:
    p = ctx.state["players"][ev["seat"]]
    return p["hp"] < 1 and "niepan" not in p.get("limited", ())


@optional("dying", "niepan", can=_niepan_ok, pack=HG)
def _niepan(ctx: Ctx, f: Frame, ev: Ev) -> None:
    s, seat = ctx.state, f["seat"]
    p = s["players"][seat]
    p.setdefault("limited", []).append("niepan")
    gone = R.all_cards(s, seat)
    if gone:
        R.to_discard(s, gone)
        say(ctx, "discard", who=who(seat), cards=" ".join(R.card_label(c) for c in gone))
    p["chained"] = False
    if p.get("stacked"):
        R.turn_over(ctx, seat)
    R.draw(ctx, seat, 3)
    recover(ctx, seat, 3 - p["hp"], seat)


# 八阵 (锁定技): with no armour, as if wearing 八卦阵 ----------------------------------------------

def _bazhen_ok(ctx: Ctx, ev: Ev) -> bool:
    return (ev["what"] == "shan" and not ev["ignore_armor"] and not ev["done"]
            and not ctx.state["players"][ev["seat"]]["equip"]["armor"])


@locked("before_need", "bazhen", priority=9, can=_bazhen_ok, pack=HG)
def _bazhen(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("bagua", seat=f["seat"], st="start")  # 八卦阵's own judgement and effect


# 火计 / 看破: a red hand card as 火攻, a black hand card as 无懈可击 ------------------------------

conversion(Conversion("huoji", "huoji", "huogong", lambda s, seat, c: card(c).red and c in _hand(s, seat)), pack=HG)
PLAY_AS.append("huogong")
conversion(Conversion("kanpo", "kanpo", "wuxie", lambda s, seat, c: not card(c).red and c in _hand(s, seat)),
           pack=HG)


# 享乐 (锁定技): a 杀 at you has no effect unless its user discards a basic card ----------------

def _basics(state: State, seat: int) -> list[str]:
    return [c for c in _hand(state, seat) if kind_of(card(c).name) == "basic"]


@locked("sha_effect", "xiangle", "target", priority=30, can=lambda ctx, ev: not ev["void"], pack=HG)
def _xiangle(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("xiangle", seat=f["seat"], user=ev["user"], st="start")


@HG.kind("xiangle")
def _xiangle_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        if R.alive(s, f["user"]) and _basics(s, f["user"]):
            f["st"] = "asked"
            ctx.ask(f, [f["user"]], "xiangle", default=PASS, short=True, window=True, info={"target": f["seat"]})
            return
        f["reply"] = {"seat": f["user"], "action": ["pass"]}
    action = ctx.take(f, "reply")["action"]
    if action == ["pass"]:
        event_below(ctx, f)["void"] = True
    else:
        R.to_discard(s, action[:1])
        say(ctx, "discard", who=who(f["user"]), cards=R.card_label(action[0]))
    ctx.pop(f)


def _xiangle_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    return choose_one(m("step.xiangle"), [card_opt(c) for c in _basics(state, seat)] + [PASS_OPT], path)


STEPS["xiangle"] = _xiangle_step


@prompt("xiangle")
def _xiangle_prompt(info: dict[str, Any]) -> Any:
    return m("req.xiangle", target=who(info["target"]))


# 放权: skip the play phase; at the turn's end, discard a hand card: another seat takes a turn --

@optional("phase_start", "fangquan", can=lambda ctx, ev: ev["phase"] == "play" and not ev["skip"],
          default_yes=False, pack=HG)
def _fangquan(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ev["skip"] = True
    R.bump(ctx.state, "fangquan")


@HG.on("turn_end", "fangquan_turn",
       can=lambda ctx, ev: (bool(R.flag(ctx.state, "fangquan")) and R.has_skill(ctx.state, ev["seat"], "fangquan")
                            and bool(_hand(ctx.state, ev["seat"])) and len(R.living(ctx.state)) > 1))
def _fangquan_turn(ctx: Ctx, ev: Ev) -> None:
    ctx.push("fangquan", seat=ev["seat"], st="start")


@HG.kind("fangquan")
def _fangquan_frame(ctx: Ctx, f: Frame) -> None:
    """The extra turn is a ``turn`` frame of its own, pushed above this one: the game frame's
    turn order goes on from 刘禅 once it is over."""
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "fangquan", default=PASS, short=True, window=True, info={})
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action != ["pass"] and R.alive(s, f["seat"]):
            cid, target = action[0], int(action[1])
            R.to_discard(s, [cid])
            say(ctx, "discard", who=who(f["seat"]), cards=R.card_label(cid))
            say(ctx, "fangquan_turn", who=who(target), skill=skill_ref("fangquan"))
            R.note_act(s, f["seat"], target, -2)
            f["st"] = "turn"
            ctx.push("turn", seat=target, extra=True, st="start")
            return
    ctx.take(f)
    ctx.pop(f)


def _fangquan_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    if path == ["pass"]:
        return Step(m("step.fangquan_card"), [], complete=True)
    hand = _hand(state, seat)
    if not path:
        return Step(m("step.fangquan_card"), [card_opt(c) for c in hand] + [PASS_OPT])
    if path[0] not in hand:
        raise EngineError("sanguosha.err.illegal")
    others = [x for x in R.living(state, seat + 1) if x != seat]
    return choose_one(m("step.fangquan_to"), [seat_opt(state, x, seat) for x in others], path[1:])


STEPS["fangquan"] = _fangquan_step
ASK_SKILL["fangquan"] = "fangquan"



# 祸首 / 巨象 (锁定技): 南蛮入侵 has no effect on you; 祸首: you are the source of its damage; 巨象:
# you take the 南蛮入侵 another seat used once it is resolved ---------------------------------

def _immune_effect(ctx: Ctx, f: Frame, ev: Ev) -> bool:
    """The 南蛮入侵-immunity half of 祸首 / 巨象 (the use_declared event: it has targets)."""
    if "targets" not in ev:
        return False
    ev["targets"] = [t for t in ev["targets"] if t != f["seat"]]
    say(ctx, "nanman_immune", target=who(f["seat"]), skill=skill_ref(f["skill"]))
    return True


def _other_with(state: State, skill: str, user: int | None) -> int | None:
    """The living seat other than ``user`` with ``skill`` (a hidden hero's too), or None."""
    for seat in R.living(state):
        if seat != user and R.has_skill(state, seat, skill, hidden=True):
            return seat
    return None


def _huoshou_effect(ctx: Ctx, f: Frame, ev: Ev) -> None:
    if _immune_effect(ctx, f, ev):
        return
    ev["src"] = f["seat"]
    say(ctx, "huoshou_source", who=who(f["seat"]), skill=skill_ref("huoshou"))


def _juxiang_effect(ctx: Ctx, f: Frame, ev: Ev) -> None:
    if _immune_effect(ctx, f, ev):
        return
    got = [c for c in ev["cards"] if c in ctx.state["proc"]]
    R.to_hand(ctx.state, f["seat"], got)
    say(ctx, "gain", who=who(f["seat"]), cards=" ".join(R.card_label(c) for c in got))


def _nanman_skill(skill: str, timing: str, key: str, can: Any, effect: Any) -> None:
    """Register one of the two: immune to 南蛮入侵 (``use_declared``, the first living target
    with the skill) and its own half, at ``timing`` for the seat with the skill other than
    ``event[key]`` (the 南蛮入侵's user, or the damage's source)."""

    def immune(state: State, ev: Ev) -> list[int]:
        return [t for t in ev["targets"] if R.has_skill(state, t, skill, hidden=True)]

    @HG.on("use_declared", f"{skill}_immune", priority=20,
           can=lambda ctx, ev: ev["name"] == "nanman" and bool(immune(ctx.state, ev)))
    def _immune(ctx: Ctx, ev: Ev) -> None:
        push_locked(ctx, immune(ctx.state, ev)[0], skill)

    @HG.on(timing, f"{skill}_{timing}", priority=50,
           can=lambda ctx, ev: can(ctx, ev) and _other_with(ctx.state, skill, ev[key]) is not None)
    def _own(ctx: Ctx, ev: Ev) -> None:
        seat = _other_with(ctx.state, skill, ev[key])
        assert seat is not None
        push_locked(ctx, seat, skill)

    EFFECT[skill] = effect
    HG.provides.add(skill)


_nanman_skill("huoshou", "damage_cause", "src", lambda ctx, ev: ev["via"] == "nanman", _huoshou_effect)
_nanman_skill("juxiang", "use_finished", "user",
              lambda ctx, ev: ev["name"] == "nanman" and any(c in ctx.state["proc"] for c in ev["cards"]),
              _juxiang_effect)


# 再起: in the draw phase, if wounded, reveal X (HP lost) cards instead of drawing: each ♥ heals
# 1 and is discarded, the rest are yours ---------------------------------------------------------

def _lost(state: State, seat: int) -> int:
    p = state["players"][seat]
    return p["max"] - p["hp"]  # type: ignore[no-any-return]


@optional("draw_count", "zaiqi", priority=4, can=lambda ctx, ev: _lost(ctx.state, ev["seat"]) > 0,
          default_yes=False, pack=HG)
def _zaiqi(ctx: Ctx, f: Frame, ev: Ev) -> None:
    s, seat = ctx.state, f["seat"]
    ev["cancel"] = True
    shown = R.deal(s, _lost(s, seat))
    s["proc"].extend(shown)
    say(ctx, "zaiqi_reveal", who=who(seat), cards=" ".join(R.card_label(c) for c in shown))
    hearts = [c for c in shown if card(c).suit == "H"]
    recover(ctx, seat, len(hearts), seat)
    R.to_discard(s, hearts)
    rest = [c for c in shown if c not in hearts]
    if rest:
        R.to_hand(s, seat, rest)
        say(ctx, "gain", who=who(seat), cards=" ".join(R.card_label(c) for c in rest))


# 烈刃: after your 杀 damages a seat, you may compare cards with it: win, take one of its cards --

def _lieren_ok(ctx: Ctx, ev: Ev) -> bool:
    return ev["via"] == "sha" and ev["src"] is not None and can_pindian(ctx.state, ev["src"], ev["dst"])


@optional("damage_done", "lieren", "src", can=_lieren_ok, default_yes=False, pack=HG)
def _lieren(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("lieren", seat=f["seat"], target=ev["dst"], st="start")


@HG.kind("lieren")
def _lieren_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "compared"
        pindian(ctx, f["seat"], f["target"], "lieren")
        return
    if f["st"] == "compared":
        won = ctx.take(f)
        if won and R.alive(s, f["seat"]) and R.has_cards(s, f["target"], judge=False):
            f["st"] = "picked"
            ctx.ask(f, [f["seat"]], "pick", info={"target": f["target"], "why": "lieren"})
            return
        ctx.pop(f)
        return
    choice = ctx.take(f, "reply")["action"][0]
    take_chosen(ctx, f["seat"], f["target"], choice, to_hand=True)
    ctx.pop(f)


# 淑慎: for each HP you recover, another seat of your choice may draw 1 --------------------------

@HG.on("hp_recovered", "shushen",
       can=lambda ctx, ev: (R.has_skill(ctx.state, ev["seat"], "shushen", hidden=True)
                            and len(R.living(ctx.state)) > 1))
def _shushen(ctx: Ctx, ev: Ev) -> None:
    ctx.push("shushen", seat=ev["seat"], left=ev["n"], st="start")


@HG.kind("shushen")
def _shushen_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        target = int(action[0])
        announce(ctx, f["seat"], "shushen")
        R.note_act(s, f["seat"], target, -1)
        R.draw(ctx, target, 1)
    if f["left"] <= 0 or not R.alive(s, f["seat"]) or len(R.living(s)) < 2:
        ctx.pop(f)
        return
    f["left"] -= 1
    f["st"] = "asked"
    ctx.ask(f, [f["seat"]], "shushen", default=PASS, short=True, window=True, info={})


def _shushen_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    others = [x for x in R.living(state, seat + 1) if x != seat]
    return choose_one(m("step.shushen"), [seat_opt(state, x, seat) for x in others] + [PASS_OPT], path)


STEPS["shushen"] = _shushen_step
ASK_SKILL["shushen"] = "shushen"



# 神智: at the start of your turn, you may discard your whole hand; at least X cards (X = your HP)
# heal 1 ------------------------------------------------------------------------------------------

@optional("phase_start", "shenzhi",
          can=lambda ctx, ev: ev["phase"] == "prepare" and not ev["skip"] and bool(_hand(ctx.state, ev["seat"])),
          default_yes=False, pack=HG)
def _shenzhi(ctx: Ctx, f: Frame, ev: Ev) -> None:
    s, seat = ctx.state, f["seat"]
    gone = list(_hand(s, seat))
    R.to_discard(s, gone)
    say(ctx, "discard", who=who(seat), cards=" ".join(R.card_label(c) for c in gone))
    if len(gone) >= s["players"][seat]["hp"]:
        recover(ctx, seat, 1, seat)


# -- the AI's hints for these skills (read the seat's own view only; see ai.py) ------------------

@play_hint("hg_rende")
def _hg_rende_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """仁德: hand a friend the cards it would discard anyway; while wounded and the heal is still
    to come, enough to reach the third card."""
    me = s.me()
    given = sum(int(line.get("params", {}).get("n", 0)) for line in s.view["log"]
                if line.get("key") == "sanguosha.ev.give"
                and (line.get("params", {}).get("who") or {}).get("seat") == s.seat)
    excess = len(s.hand) - me["hp"]
    heal = HG_RENDE_HEAL_AT - given if me["hp"] < me["max"] and given < HG_RENDE_HEAL_AT else 0
    want = max(excess, heal if len(s.hand) > heal else 0)
    give = [c for c in _discard_order(s.hand) if value(s.hand[c]) < 9][:want]
    try:
        friend = _best_friend(s, s.targets(pre))
    except Exception:  # noqa: BLE001 - the walk changed: do not use it
        return None
    path = [*pre, str(friend), *give] if friend is not None and give else []
    return (2.5, path) if path and _valid(s, path) else None


@play_hint("lianhuan")
def _recast_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """连环's recast: a ♣ card hardly worth keeping (worth ≤ 2) for a fresh one."""
    try:
        clubs = [c for c in s.options(pre) if c in s.hand and value(s.hand[c]) <= 2]
    except Exception:  # noqa: BLE001
        return None
    if not clubs:
        return None
    path = [*pre, _cheapest(s, clubs)]
    return (0.3, path) if _valid(s, path) else None


def _futile(s: Seat, t: int, name: str) -> bool:
    """A shown 空城 with no hand cancels a 杀 or 决斗; a shown 享乐 voids a 杀 when no other basic
    card is left to pay with."""
    p = s.mind.player(t)
    skills = p.get("skills", ())
    if name in ("sha", "juedou") and "hg_kongcheng" in skills and not p["hand"]:
        return True
    basics = sum(1 for n in s.hand.values() if kind_of(n) == "basic")
    return name == "sha" and "xiangle" in skills and basics < 2


FUTILE.append(_futile)


@ask_hint("xiangle")
def _xiangle_hint(s: Seat) -> list[str]:
    """享乐: pay the cheapest basic card to keep a 杀 on an enemy going (never a 桃)."""
    cards = [o for o in s.responses() if o in s.hand and s.hand[o] != "tao"]
    if cards and s.mind.enemy(s.ask.info["target"]):
        return [_cheapest(s, cards)]
    return ["pass"]


def _fangquan_choice(s: Seat) -> list[str]:
    """放权: skip a play phase that has little to play, when a friend would use the extra turn
    and a spare card pays for it at the turn's end."""
    friend = any(s.mind.friend(p["seat"]) for p in s.view["players"] if p["seat"] != s.seat and p["alive"])
    active = {"sha", "juedou", "nanman", "wanjian", "shunshou", "guohe", "wuzhong", "tao"}
    busy = sum(1 for n in s.hand.values() if n in active)
    return ["yes"] if friend and len(s.hand) >= 2 and busy == 0 else ["pass"]


SKILL_CHOICE["fangquan"] = _fangquan_choice


@ask_hint("fangquan")
def _fangquan_hint(s: Seat) -> list[str]:
    """放权's extra turn: to the surest friend, for the cheapest card."""
    cards = [o for o in s.options([]) if o in s.hand]
    if not cards:
        return ["pass"]
    cid = _cheapest(s, cards)
    friend = _best_friend(s, s.targets([cid]))
    return [cid, str(friend)] if friend is not None else ["pass"]


@ask_hint("shushen")
def _shushen_hint(s: Seat) -> list[str]:
    """淑慎: the surest friend draws; nobody when no friend is known."""
    friend = _best_friend(s, s.targets([]))
    return [str(friend)] if friend is not None else ["pass"]


def _shenzhi_choice(s: Seat) -> list[str]:
    """神智: a small hand of little worth for 1 HP, while wounded."""
    me = s.me()
    cheap = all(value(n) < 7 for n in s.hand.values())
    return ["yes"] if me["hp"] < me["max"] and me["hp"] <= len(s.hand) <= 2 and cheap else ["pass"]


SKILL_CHOICE["shenzhi"] = _shenzhi_choice


def _zaiqi_choice(s: Seat) -> list[str]:
    """再起: reveal instead of drawing 2 once at least 2 HP are lost (X cards, ¼ of them ♥)."""
    me = s.me()
    return ["yes"] if me["max"] - me["hp"] >= 2 else ["pass"]


SKILL_CHOICE["zaiqi"] = _zaiqi_choice


def _lieren_choice(s: Seat) -> list[str]:
    """烈刃: compare with an enemy when a high card (rank ≥ 10) of little worth is at hand."""
    stack = s.view["stack"]
    target = next((f["dst"] for f in reversed(stack) if f["k"] == "damage" and f["src"] == s.seat), None)
    high = [c for c, n in s.hand.items() if card(c).rank >= 10 and value(n) < 7]
    return ["yes"] if target is not None and s.mind.enemy(target) and high else ["pass"]


SKILL_CHOICE["lieren"] = _lieren_choice


def _reveal_unless_needed(s: Seat) -> list[str]:
    """A hidden hero's protective locked skill (空城, 八阵, 享乐, 祸首, 巨象) or a heal: show it
    (the window default, yes)."""
    return ["yes"]


for _skill_id in ("hg_kongcheng", "bazhen", "xiangle", "huoshou", "juxiang", "kuanggu", "liegong", "niepan"):
    SKILL_CHOICE[_skill_id] = _reveal_unless_needed
