"""The skills of the 国战 君主 heroes (``data/sanguosha/hegemony/lords.json``, the lords option).

Registered into :data:`packs.HEGEMONY_HEROES` like the kingdom heroes' skills, with their question
texts and AI hints beside them. Wording: 君临天下 as FreeKill's hegemony package and
QSanguosha-For-Hegemony give it (docs/rules/sanguosha-hegemony-lords.md, which also lists the
published skills not implemented and why).

建安 挥鞭 (君曹操) 授钺 激诏 (君刘备) 嘉禾 敛资 and the 制衡 it gives (君孙权) 悟心 弘法 (君张角).
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Option, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, _cheapest, ask_hint, play_hint, value
from engines.sanguosha.choices import STEPS, card_opt, choose_one, seat_opt
from engines.sanguosha.data import card, kind_of
from engines.sanguosha.frames import PASS, recover
from engines.sanguosha.packs import HEGEMONY_HEROES as HG
from engines.sanguosha.rules import m, say, who
from engines.sanguosha.skills import ASK_SKILL, Active, Conversion, active, announce, conversion, optional
from engines.sanguosha.skills_wu import _cards_step, zhiheng_cap
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


def kingdom_count(state: State, kingdom: str) -> int:
    """Living seats of ``kingdom`` as the rules count it (shown, not 野心家)."""
    return sum(1 for i in R.living(state) if R.kingdom(state, i) == kingdom)


def named_pile(state: State, name: str) -> list[str]:
    """The cards of the pile ``name`` on whichever hero holds it (天兵 on 君张角, 烽火 on 君孙权's
    map: one holder each), oldest first."""
    return [c for p in state["players"] for c in p.get("piles", {}).get(name, ())]


def gain_skill(state: State, seat: int, skill: str) -> None:
    """A seat gains a skill no hero of it has (激诏's 仁德, 敛资's 制衡): kept in ``gained``, which
    ``rules.refresh_heroes`` adds to the shown heroes' skills."""
    p = state["players"][seat]
    if skill not in p.setdefault("gained", []):
        p["gained"].append(skill)
    R.refresh_heroes(state, seat)


def lose_skill(state: State, seat: int, skill: str) -> None:
    """A seat loses a skill of its shown hero (敛资 after it paid off): kept in ``lost_skills``."""
    p = state["players"][seat]
    if skill not in p.setdefault("lost_skills", []):
        p["lost_skills"].append(skill)
    R.refresh_heroes(state, seat)


# 挥鞭 (君曹操): once per play phase, 1 damage to a 魏 seat, which draws two; then another wounded
# 魏 seat recovers 1 -----------------------------------------------------------------------------

def _wei(state: State) -> list[int]:
    return [t for t in R.living(state) if R.kingdom(state, t) == "wei"]


def _huibian_healed(state: State, first: int) -> list[int]:
    ps = state["players"]
    return [t for t in _wei(state) if t != first and ps[t]["hp"] < ps[t]["max"]]


def _huibian_step(state: State, seat: int, path: list[str]) -> Step:
    firsts = [t for t in _wei(state) if _huibian_healed(state, t)]
    if not path:
        return Step(m("step.hg_huibian"), [seat_opt(state, t, seat) for t in firsts])
    if ascii_int(path[0]) not in firsts:
        raise EngineError("sanguosha.err.illegal")
    healed = _huibian_healed(state, int(path[0]))
    if len(path) == 1:
        return Step(m("step.hg_huibian_heal"), [seat_opt(state, t, seat) for t in healed])
    if ascii_int(path[1]) not in healed or len(path) > 2:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.hg_huibian_heal"), [], complete=True)


def _huibian_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "hg_huibian")
    announce(ctx, seat, "hg_huibian")
    ctx.push("hg_huibian", seat=seat, hurt=int(path[0]), heal=int(path[1]), st="start")


active(Active("hg_huibian", lambda s, seat: not R.flag(s, "hg_huibian") and any(
    _huibian_healed(s, t) for t in _wei(s)), _huibian_step, _huibian_start), pack=HG)


@HG.kind("hg_huibian")
def _huibian_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "hurt"
        ctx.push("damage", src=f["seat"], dst=f["hurt"], n=1, via="hg_huibian", cards=[], st="start")
        return
    ctx.take(f)
    ctx.pop(f)
    if R.alive(s, f["hurt"]):
        R.draw(ctx, f["hurt"], 2)
    if R.alive(s, f["heal"]):
        recover(ctx, f["heal"], 1, f["seat"])


@play_hint("hg_huibian")
def _huibian_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Hurt a healthy friend who can spare the HP (two cards for one HP) to heal a friend in
    danger; never an ally at 1 HP, never an enemy healed."""
    ps = s.view["players"]
    best: tuple[float, list[str]] | None = None
    for a in s.options(pre):
        hurt = int(a)
        if ps[hurt]["hp"] <= 2 or not (hurt == s.seat or s.mind.friend(hurt)):
            continue
        for b in s.options([*pre, a]):
            heal = int(b)
            if heal != s.seat and not s.mind.friend(heal):
                continue
            score = 2.0 + (1.5 if ps[heal]["hp"] <= 1 else 0.0)
            if best is None or score > best[0]:
                best = (score, [*pre, a, b])
    return best


# 激诏 (君刘备): 限定技 — when dying, fill the hand to max HP, HP to 2, lose 授钺, gain 仁德 --------

def _rende() -> str:
    """The 仁德 激诏 gives: the 国战 one (hg_rende, the 蜀 heroes) once it is implemented, else the
    identity one, whose wording differs only in when the HP is recovered."""
    from engines.sanguosha.heroes import implemented

    return "hg_rende" if "hg_rende" in implemented("hg_shu") else "rende"


@optional("dying", "hg_jizhao", priority=10, pack=HG,
          can=lambda ctx, ev: "hg_jizhao" not in ctx.state["players"][ev["seat"]].get("limited", ()))
def _jizhao(ctx: Ctx, f: Frame, ev: Ev) -> None:
    s, seat = ctx.state, f["seat"]
    p = s["players"][seat]
    p.setdefault("limited", []).append("hg_jizhao")
    short = p["max"] - len(p["hand"])
    if short > 0:
        R.draw(ctx, seat, short)
    if p["hp"] < 2:
        recover(ctx, seat, 2 - p["hp"], seat)
    lose_skill(s, seat, "hg_shouyue")
    gain_skill(s, seat, _rende())


# 敛资 (君孙权): once per play phase, discard a hand card, show the top X (吴 seats' equipment +
# 烽火), take those of its type, discard the rest; four or more taken: 敛资 becomes 制衡 ----------

def lianzi_x(state: State) -> int:
    """吴 seats' equipment cards plus the 烽火 on 缘江烽火图."""
    return len(named_pile(state, "hg_fenghuo")) + sum(
        1 for i in R.living(state) if R.kingdom(state, i) == "wu" for c in state["players"][i]["equip"].values() if c)


def _type(cid: str) -> str:
    t = kind_of(card(cid).name)
    return "trick" if t == "delayed" else t


def _lianzi_step(state: State, seat: int, path: list[str]) -> Step:
    hand = state["players"][seat]["hand"]
    if not path:
        return Step(m("step.hg_lianzi", n=lianzi_x(state)), [card_opt(c) for c in hand])
    if path[0] not in hand or len(path) > 1:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.hg_lianzi", n=lianzi_x(state)), [], complete=True)


def _lianzi_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    s = ctx.state
    R.bump(s, "hg_lianzi")
    announce(ctx, seat, "hg_lianzi")
    kind = _type(path[0])
    R.to_discard(s, [path[0]])
    say(ctx, "discard", who=who(seat), cards=R.card_label(path[0]))
    x = min(lianzi_x(s), len(s["deck"]))
    shown = list(reversed(s["deck"][-x:])) if x else []
    got = [c for c in shown if _type(c) == kind]
    say(ctx, "hg_lianzi", who=who(seat), cards=" ".join(R.card_label(c) for c in shown) or "-", n=len(got))
    R.to_hand(s, seat, got)
    R.to_discard(s, [c for c in shown if c not in got])
    if len(got) >= 4:
        lose_skill(s, seat, "hg_lianzi")
        gain_skill(s, seat, "hg_lord_zhiheng")
        say(ctx, "hg_lianzi_done", who=who(seat))


active(Active("hg_lianzi", lambda s, seat: not R.flag(s, "hg_lianzi") and bool(s["players"][seat]["hand"]),
              _lianzi_step, _lianzi_start), pack=HG)


@play_hint("hg_lianzi")
def _lianzi_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Worth it when X shows two or more cards: discard the cheapest card of the most common
    type (basic cards are half the deck)."""
    x = sum(1 for p in s.view["players"] if p["alive"] and p["role"] == "wu"
            for c in p["equip"].values() if c) + len(s.view.get("piles", {}).get("hg_fenghuo", ()))
    if x < 2 or not s.hand:
        return None
    basics = [c for c in s.hand if kind_of(s.hand[c]) == "basic"]
    cid = _cheapest(s, basics or list(s.hand))
    return 0.5 + 0.4 * x, [*pre, cid]


# 制衡 as 敛资 gives it: once per play phase, discard up to X cards (X: max HP), draw as many ----

def _zhiheng_step(state: State, seat: int, path: list[str]) -> Step:
    hi = zhiheng_cap(state, seat, "hg_lord_zhiheng")
    st, _ = _cards_step(state, R.all_cards(state, seat, judge=False), path, m("step.hg_lord_zhiheng", n=hi), 1, hi)
    if st is None:
        raise EngineError("sanguosha.err.illegal")
    return st


def _zhiheng_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "hg_lord_zhiheng")
    announce(ctx, seat, "hg_lord_zhiheng")
    R.to_discard(ctx.state, path)
    say(ctx, "discard", who=who(seat), cards=" ".join(R.card_label(c) for c in path))
    R.draw(ctx, seat, len(path))


active(Active("hg_lord_zhiheng", lambda s, seat: not R.flag(s, "hg_lord_zhiheng") and R.has_cards(s, seat, judge=False),
              _zhiheng_step, _zhiheng_start), pack=HG)


# 悟心 (君张角): at the start of the draw phase, look at the top X cards (X: 群 seats) and put
# them back in any order -------------------------------------------------------------------------

@HG.on("phase_start", "hg_wuxin", priority=10,
       can=lambda ctx, ev: (ev["phase"] == "draw" and not ev["skip"] and bool(ctx.state["deck"])
                            and R.has_skill(ctx.state, ev["seat"], "hg_wuxin", hidden=True)))
def _wuxin(ctx: Ctx, ev: Ev) -> None:
    ctx.push("hg_wuxin", seat=ev["seat"], st="start")


@HG.kind("hg_wuxin")
def _wuxin_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        x = min(max(1, qun_count(s, f["seat"])), len(s["deck"]))
        f["cards"] = list(reversed(s["deck"][-x:]))  # top first
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "hg_wuxin", default=PASS, short=False, window=True, info={"cards": f["cards"]})
        return
    action = ctx.take(f, "reply")["action"]
    ctx.pop(f)
    if action != ["pass"]:
        R.reveal_for(ctx, f["seat"], "hg_wuxin")
        announce(ctx, f["seat"], "hg_wuxin")
        cards = f["cards"]
        s["deck"] = [c for c in s["deck"] if c not in cards] + list(reversed(action))
        say(ctx, "hg_wuxin", who=who(f["seat"]), n=len(cards))


def _wuxin_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """The cards from the new top down, one at a time; ``pass`` leaves them as they are."""
    cards = ask.info["cards"]
    prompt = m("step.hg_wuxin", n=len(path) + 1)
    if path == ["pass"]:
        return Step(prompt, [], complete=True)
    if len(set(path)) != len(path) or any(c not in cards for c in path):
        raise EngineError("sanguosha.err.illegal")
    if len(path) == len(cards):
        return Step(prompt, [], complete=True)
    opts = [card_opt(c) for c in cards if c not in path]
    return Step(prompt, opts + ([] if path else [Option("pass", m("opt.pass"))]))


STEPS["hg_wuxin"] = _wuxin_step
ASK_SKILL["hg_wuxin"] = "hg_wuxin"


@ask_hint("hg_wuxin")
def _wuxin_hint(s: Seat) -> list[str]:
    """Best cards on top: this draw phase takes the first two."""
    return sorted(s.ask.info["cards"], key=lambda c: (-value(card(c).name), c))


__all__ = ["gain_skill", "kingdom_count", "lianzi_x", "lose_skill"]


# 建安 (君曹操, 君主技): 五子良将纛 — at a 魏 seat's start phase it may discard a card and keep one of
# its heroes face down (a hidden one, or one of two shown ones turned down) to gain one of 节钺
# 突袭 巧变 骁果 断粮 that no seat has, both until the lord's next turn starts ---------------------

#: The five 五子良将 skills, as far as implemented (节钺, 于禁's, is not: docs/rules/…-lords.md).
JIANAN_SKILLS = ("tuxi", "qiaobian", "xiaoguo", "duanliang")


def _jianan_lord(state: State, seat: int) -> int | None:
    """The living lord whose 五子良将纛 ``seat`` (a 魏 seat) may use."""
    if R.kingdom(state, seat) != "wei":
        return None
    return next((x for x in R.living(state) if R.has_skill(state, x, "hg_jianan")), None)


def _jianan_heroes(state: State, seat: int) -> list[int]:
    """A hidden hero to keep down, else either shown hero that may be turned down."""
    hs = state["players"][seat]["heroes"]
    hidden = [i for i, h in enumerate(hs) if not h["shown"]]
    if hidden:
        return hidden
    if all(h["shown"] for h in hs):
        return [i for i in range(len(hs)) if R.mode_of(state).may_hide(state, seat, i)]
    return []


def _jianan_free(state: State) -> list[str]:
    return [k for k in JIANAN_SKILLS if not any(R.has_skill(state, x, k) for x in R.living(state))]


def _jianan_can(ctx: Ctx, ev: Ev) -> bool:
    s, seat = ctx.state, ev["seat"]
    return (ev["phase"] == "prepare" and not ev["skip"] and _jianan_lord(s, seat) is not None
            and R.has_cards(s, seat, judge=False) and bool(_jianan_heroes(s, seat)) and bool(_jianan_free(s)))


@HG.on("phase_start", "hg_jianan", priority=5, can=_jianan_can)
def _jianan(ctx: Ctx, ev: Ev) -> None:
    ctx.push("hg_jianan", seat=ev["seat"], st="start")


@HG.kind("hg_jianan")
def _jianan_frame(ctx: Ctx, f: Frame) -> None:
    s, seat = ctx.state, f["seat"]
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [seat], "hg_jianan", default=PASS, short=True, window=True, info={"seat": seat})
        return
    action = ctx.take(f, "reply")["action"]
    ctx.pop(f)
    lord = _jianan_lord(s, seat)
    if action == ["pass"] or lord is None:
        return
    cid, index, skill = action[0], int(action[1]), action[2]
    announce(ctx, lord, "hg_jianan")
    R.to_discard(s, [cid])
    say(ctx, "discard", who=who(seat), cards=R.card_label(cid))
    R.hide(ctx, seat, index)
    s["players"][seat]["heroes"][index]["locked"] = True
    gain_skill(s, seat, skill)
    s["hg"].setdefault("jianan", []).append({"lord": lord, "seat": seat, "index": index, "skill": skill})
    say(ctx, "hg_jianan", who=who(seat), skill=R.key_ref(f"sanguosha.skill.{skill}"))


def _jianan_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """A card to discard, the hero kept down, the skill; or ``pass``."""
    cards = R.all_cards(state, seat, judge=False)
    if not path:
        return Step(m("step.hg_jianan"), [card_opt(c) for c in cards] + [Option("pass", m("opt.pass"))])
    if path == ["pass"]:
        return Step(m("step.hg_jianan"), [], complete=True)
    if path[0] not in cards:
        raise EngineError("sanguosha.err.illegal")
    hs = state["players"][seat]["heroes"]
    heroes = [str(i) for i in _jianan_heroes(state, seat)]
    if len(path) == 1:
        return Step(m("step.hg_jianan_hero"), [Option(i, m("opt.hg_jianan_hero", hero=R.key_ref(
            f"sanguosha.hero.{hs[int(i)]['id']}"))) for i in heroes])
    if path[1] not in heroes:
        raise EngineError("sanguosha.err.illegal")
    free = _jianan_free(state)
    opts = [Option(k, m("opt.hg_jianan_skill", skill=R.key_ref(f"sanguosha.skill.{k}"))) for k in free]
    if len(path) == 2:
        return Step(m("step.hg_jianan_skill"), opts)
    if path[2] not in free or len(path) > 3:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.hg_jianan_skill"), [], complete=True)


STEPS["hg_jianan"] = _jianan_step


@HG.on("turn_start", "hg_jianan_end", priority=90,
       can=lambda ctx, ev: any(e["lord"] == ev["seat"] for e in ctx.state.get("hg", {}).get("jianan", ())))
def _jianan_end(ctx: Ctx, ev: Ev) -> None:
    """The lord's turn starts: each skill its 纛 gave is lost and each hero kept down is free."""
    jianan_end(ctx, ev["seat"])


@HG.on("death", "hg_jianan_dead",
       can=lambda ctx, ev: any(e["lord"] == ev["seat"] for e in ctx.state.get("hg", {}).get("jianan", ())))
def _jianan_dead(ctx: Ctx, ev: Ev) -> None:
    """A dead lord's turn never starts again: its 纛's gifts end with it."""
    jianan_end(ctx, ev["seat"])


def jianan_end(ctx: Ctx, lord: int) -> None:
    s = ctx.state
    keep = []
    for e in s["hg"]["jianan"]:
        if e["lord"] != lord:
            keep.append(e)
            continue
        p = s["players"][e["seat"]]
        p["heroes"][e["index"]].pop("locked", None)
        if e["skill"] in p.get("gained", ()):
            p["gained"].remove(e["skill"])
        R.refresh_heroes(s, e["seat"])
    s["hg"]["jianan"] = keep


@ask_hint("hg_jianan")
def _jianan_hint(s: Seat) -> list[str]:
    """Only while a hero is still hidden (keeping it down costs nothing; turning a shown hero
    down would lose its skills) and with a hand card to spare: pay the cheapest hand card, take
    突袭 (two cards from others at once) or else the first free skill."""
    mine = s.view["players"][s.seat]["heroes"]
    cards = [c for c in s.options([]) if c in s.hand]
    if None not in mine or len(cards) < 2:
        return ["pass"]
    cid = _cheapest(s, cards)
    pick = s.options([cid])[0]
    skills = s.options([cid, pick])
    skill = "tuxi" if "tuxi" in skills else skills[0]
    return [cid, pick, skill]


# 弘法 (君张角, 君主技): 黄巾天兵符 — ① at your start phase, with no 天兵, the top X cards (X: 群 seats)
# become 天兵; ② each 天兵 counts as one more 群 seat in your effects; ③ before you lose HP you may
# discard a 天兵 to stop it; ④ seats of your kingdom may use or play a 天兵 as 杀 -----------------

TIANBING = "hg_tianbing"


def tianbing(state: State) -> list[str]:
    return named_pile(state, TIANBING)


def qun_count(state: State, seat: int) -> int:
    """群势力角色数 as ``seat``'s effects count it (+1 per 天兵 for the 黄巾天兵符's holder)."""
    extra = len(tianbing(state)) if R.has_skill(state, seat, "hg_hongfa") else 0
    return kingdom_count(state, "qun") + extra


def hongfa_lord(state: State, seat: int) -> int | None:
    """The living holder of 黄巾天兵符 of ``seat``'s kingdom (itself included)."""
    return next((x for x in R.living(state) if R.has_skill(state, x, "hg_hongfa") and R.same_kingdom(state, x, seat)),
                None)


@HG.on("phase_start", "hg_hongfa", priority=20,
       can=lambda ctx, ev: (ev["phase"] == "prepare" and not ev["skip"] and R.has_skill(ctx.state, ev["seat"], "hg_hongfa")
                            and not tianbing(ctx.state) and bool(ctx.state["deck"])))
def _hongfa(ctx: Ctx, ev: Ev) -> None:
    s, seat = ctx.state, ev["seat"]
    x = min(max(1, kingdom_count(s, "qun")), len(s["deck"]))
    cids = list(reversed(s["deck"][-x:]))
    announce(ctx, seat, "hg_hongfa")
    R.to_pile(s, seat, TIANBING, cids)
    say(ctx, "hg_tianbing", who=who(seat), cards=" ".join(R.card_label(c) for c in cids))


@HG.on("before_lose_hp", "hg_hongfa_guard",
       can=lambda ctx, ev: R.has_skill(ctx.state, ev["seat"], "hg_hongfa") and bool(tianbing(ctx.state)))
def _guard(ctx: Ctx, ev: Ev) -> None:
    ctx.push("hg_hongfa_guard", seat=ev["seat"], st="start")


@HG.kind("hg_hongfa_guard")
def _guard_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "hg_hongfa_guard", default=PASS, short=True, window=True,
                info={"n": ctx.below(f)["ev"]["n"]})
        return
    action = ctx.take(f, "reply")["action"]
    trigger = ctx.below(f)
    ctx.pop(f)
    if action != ["pass"] and action[0] in tianbing(s):
        announce(ctx, f["seat"], "hg_hongfa")
        R.to_discard(s, [action[0]])
        say(ctx, "hg_hongfa_guard", who=who(f["seat"]), cards=R.card_label(action[0]))
        assert trigger is not None
        trigger["ev"]["cancel"] = True


def _guard_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [card_opt(c) for c in tianbing(state)] + [Option("pass", m("opt.pass"))]
    return choose_one(m("step.hg_hongfa_guard", n=ask.info["n"]), opts, path)


STEPS["hg_hongfa_guard"] = _guard_step


@ask_hint("hg_hongfa_guard")
def _guard_hint(s: Seat) -> list[str]:
    """Always: a 天兵 is one 杀, the HP is worth more (and the next start phase refills)."""
    return [s.options([])[0]]


conversion(Conversion("hg_tianbing_sha", "hg_hongfa", "sha", lambda state, seat, cid: True,
                      gate=lambda state, seat: hongfa_lord(state, seat) is not None,
                      cards=lambda state, seat: tianbing(state), label="sanguosha.opt.hg_tianbing_sha",
                      prompt="sanguosha.step.hg_tianbing_sha"), HG)




@play_hint("hg_tianbing_sha")
def _tianbing_sha_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """A 天兵 as 杀 costs no card of the seat's own: played as the 杀 hint would play a 杀."""
    from engines.sanguosha.ai import PLAY_HINTS

    cards = s.options(pre)
    if not cards:
        return None
    return PLAY_HINTS["sha"](s, [*pre, cards[0]], "sha")


# 授钺 (君刘备, 君主技): 五虎将大旗 — the living 蜀 seats' 武圣 takes any card, 咆哮's 杀 ignore
# armour, 龙胆 draws a card, 烈弓 reaches one further (铁骑's change: not implemented, see the doc) ---

def shouyue(state: State, seat: int) -> bool:
    """Is ``seat`` a 蜀 seat while a living holder of 五虎将大旗 is of its kingdom?"""
    return R.kingdom(state, seat) == "shu" and any(
        R.has_skill(state, x, "hg_shouyue") and R.same_kingdom(state, x, seat) for x in R.living(state))


conversion(Conversion("hg_shouyue_wusheng", "wusheng", "sha", lambda state, seat, cid: not card(cid).red, equip=True,
                      gate=lambda state, seat: R.has_skill(state, seat, "wusheng") and shouyue(state, seat),
                      label="sanguosha.opt.hg_shouyue_wusheng"), HG)
HG.provides.add("hg_shouyue")


@HG.on("sha_effect", "hg_shouyue_paoxiao", priority=20,
       can=lambda ctx, ev: R.has_skill(ctx.state, ev["user"], "paoxiao") and shouyue(ctx.state, ev["user"]))
def _paoxiao_armour(ctx: Ctx, ev: Ev) -> None:
    """咆哮 under the banner: the target's armour does nothing against the 杀 (as 青釭剑)."""
    ev["ignore_armor"] = True


@HG.modifier("attack_range", "hg_shouyue_liegong")
def _liegong_range(state: State, value: int, args: dict[str, Any]) -> int:
    seat = args["seat"]
    return value + 1 if R.has_skill(state, seat, "liegong") and shouyue(state, seat) else value


# 嘉禾 (君孙权, 君主技): 缘江烽火图 — ① a 吴 seat, once per play phase, may put an equipment card on
# it (烽火); ② at a 吴 seat's start phase it may take, by the 烽火 count, 英姿 (1+), 好施 (2+), 涉猎
# (3+), 度势 (4+) until its turn ends, a second one at 5+; ③ locked: the holder, hurt by a 杀 or a
# trick, puts a 烽火 into the discard pile ------------------------------------------------------

FENGHUO = "hg_fenghuo"
#: (skill, 烽火 needed); offered while the engine implements it (好施 and 度势 come with the 吴
#: heroes' pack; 涉猎, which no 国战 hero has, is the map's own below).
FENGHUO_SKILLS = (("yingzi", 1), ("haoshi", 2), ("hg_shelie", 3), ("duoshi", 4))


def fenghuo(state: State) -> list[str]:
    return named_pile(state, FENGHUO)


def jiahe_lord(state: State, seat: int) -> int | None:
    """The living holder of 缘江烽火图 whose map ``seat`` (a 吴 seat of its kingdom) may use."""
    if R.kingdom(state, seat) != "wu":
        return None
    return next((x for x in R.living(state) if R.has_skill(state, x, "hg_jiahe") and R.same_kingdom(state, x, seat)),
                None)


def _equips(state: State, seat: int) -> list[str]:
    return [c for c in R.all_cards(state, seat, judge=False) if kind_of(card(c).name) == "equip"]


def _fenghuo_put_step(state: State, seat: int, path: list[str]) -> Step:
    opts = [card_opt(c) for c in _equips(state, seat)]
    return choose_one(m("step.hg_fenghuo_put"), opts, path)


def _fenghuo_put(ctx: Ctx, seat: int, path: list[str]) -> None:
    s = ctx.state
    R.bump(s, "hg_fenghuo_put")
    lord = jiahe_lord(s, seat)
    announce(ctx, seat if lord is None else lord, "hg_jiahe")
    R.to_pile(s, seat if lord is None else lord, FENGHUO, [path[0]])
    say(ctx, "hg_fenghuo_put", who=who(seat), cards=R.card_label(path[0]), n=len(fenghuo(s)))


def _fenghuo_gate(state: State, seat: int) -> bool:
    return jiahe_lord(state, seat) is not None


active(Active("hg_fenghuo_put", lambda s, seat: not R.flag(s, "hg_fenghuo_put") and bool(_equips(s, seat)),
              _fenghuo_put_step, _fenghuo_put, gate=_fenghuo_gate), pack=HG)
HG.provides.add("hg_jiahe")


@play_hint("hg_fenghuo_put")
def _fenghuo_put_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Only an equipment card in hand that would replace an equipped one (a spare)."""
    mine = s.view["players"][s.seat]["equip"]
    spare = [c for c in s.options(pre) if c in s.hand and mine.get(card(c).slot)]
    return (1.0, [*pre, spare[0]]) if spare else None


def fenghuo_skills(state: State) -> list[str]:
    """The skills the map offers now: by the 烽火 count, implemented ones only."""
    from engines.sanguosha.heroes import implemented

    n, known = len(fenghuo(state)), implemented("hg_wu")
    return [k for k, need in FENGHUO_SKILLS if n >= need and k in known]


@HG.on("phase_start", "hg_fenghuo_pick", priority=15,
       can=lambda ctx, ev: (ev["phase"] == "prepare" and not ev["skip"] and jiahe_lord(ctx.state, ev["seat"]) is not None
                            and bool(fenghuo_skills(ctx.state))))
def _fenghuo_pick(ctx: Ctx, ev: Ev) -> None:
    ctx.push("hg_fenghuo_pick", seat=ev["seat"], st="start")


@HG.kind("hg_fenghuo_pick")
def _fenghuo_pick_frame(ctx: Ctx, f: Frame) -> None:
    s, seat = ctx.state, f["seat"]
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [seat], "hg_fenghuo_pick", default=PASS, short=True, window=True, info={"n": len(fenghuo(s))})
        return
    action = ctx.take(f, "reply")["action"]
    ctx.pop(f)
    if action == ["pass"]:
        return
    for k in action:
        gain_skill(s, seat, k)
        say(ctx, "hg_fenghuo_pick", who=who(seat), skill=R.key_ref(f"sanguosha.skill.{k}"))
    s["hg"].setdefault("fenghuo_gained", []).append({"seat": seat, "skills": list(action)})


def _fenghuo_pick_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """One skill (two with 5 烽火 or more: the second may be left out by ``done``), or pass."""
    offer = fenghuo_skills(state)
    two = len(fenghuo(state)) >= 5
    opts = [Option(k, m("opt.hg_jianan_skill", skill=R.key_ref(f"sanguosha.skill.{k}"))) for k in offer]
    if not path:
        return Step(m("step.hg_fenghuo_pick"), [*opts, Option("pass", m("opt.pass"))])
    if path == ["pass"]:
        return Step(m("step.hg_fenghuo_pick"), [], complete=True)
    if path[0] not in offer:
        raise EngineError("sanguosha.err.illegal")
    if len(path) == 1:
        more = [o for o in opts if o.value != path[0]] if two else []
        return Step(m("step.hg_fenghuo_more"), more, complete=True)
    if not two or path[1] not in offer or path[1] == path[0] or len(path) > 2:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.hg_fenghuo_more"), [], complete=True)


STEPS["hg_fenghuo_pick"] = _fenghuo_pick_step


@ask_hint("hg_fenghuo_pick")
def _fenghuo_pick_hint(s: Seat) -> list[str]:
    """The strongest offered first (度势, 好施, 英姿), two when the map allows."""
    offer = [o for o in s.options([]) if o != "pass"]
    ranked = sorted(offer, key=lambda k: ("duoshi", "haoshi", "hg_shelie", "yingzi").index(k))
    path = ranked[:1]
    if path and ranked[1:] and ranked[1] in s.options(path):
        path.append(ranked[1])
    return path or ["pass"]


@HG.on("turn_start", "hg_fenghuo_end", priority=95,
       can=lambda ctx, ev: bool(ctx.state.get("hg", {}).get("fenghuo_gained")))
def _fenghuo_end(ctx: Ctx, ev: Ev) -> None:
    """The map's skills last until the taker's turn ends; none of them acts outside that turn,
    so they are taken back when the next turn starts."""
    s = ctx.state
    for e in s["hg"].pop("fenghuo_gained"):
        p = s["players"][e["seat"]]
        for k in e["skills"]:
            if k in p.get("gained", ()):
                p["gained"].remove(k)
        R.refresh_heroes(s, e["seat"])


def _by_sha_or_trick(via: str) -> bool:
    """Was the damage dealt by a 杀 or a trick card (``via`` names the card, or a skill)?"""
    try:
        return via == "sha" or kind_of(via) in ("trick", "delayed")
    except KeyError:  # a skill's damage (挥鞭, 强袭 …)
        return False


@HG.on("damage_done", "hg_fenghuo_burn", priority=-20,
       can=lambda ctx, ev: (R.has_skill(ctx.state, ev["dst"], "hg_jiahe") and bool(fenghuo(ctx.state))
                            and _by_sha_or_trick(ev["via"])))
def _fenghuo_burn(ctx: Ctx, ev: Ev) -> None:
    """Locked: hurt by a 杀 or a trick, the holder loses the oldest 烽火."""
    s = ctx.state
    cid = fenghuo(s)[0]
    R.to_discard(s, [cid])
    say(ctx, "hg_fenghuo_burn", who=who(ev["dst"]), cards=R.card_label(cid), n=len(fenghuo(s)))


@HG.on("card_converted", "hg_shouyue_longdan",
       can=lambda ctx, ev: ev["token"] in ("longdan_sha", "longdan_shan") and R.alive(ctx.state, ev["seat"])
       and shouyue(ctx.state, ev["seat"]))
def _longdan_draw(ctx: Ctx, ev: Ev) -> None:
    """龙胆 under the banner: a 杀 or 闪 used or played through 龙胆 draws a card."""
    R.draw(ctx, ev["seat"], 1)


# 涉猎 (given by 缘江烽火图 at 3 烽火): instead of drawing, show the top five cards and take one of
# each suit among them -----------------------------------------------------------------------------

@optional("draw_count", "hg_shelie", priority=15, pack=HG,
          can=lambda ctx, ev: ev["n"] > 0 and bool(ctx.state["deck"]))
def _shelie(ctx: Ctx, f: Frame, ev: Ev) -> None:
    s = ctx.state
    ev["n"] = 0
    shown = list(reversed(s["deck"][-5:]))
    say(ctx, "hg_shelie", who=who(f["seat"]), cards=" ".join(R.card_label(c) for c in shown))
    ctx.push("hg_shelie", seat=f["seat"], cards=shown, st="start")


@HG.kind("hg_shelie")
def _shelie_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "hg_shelie", default=tuple(_first_of_each_suit(f["cards"])), short=True, window=True,
                info={"cards": f["cards"]})
        return
    action = ctx.take(f, "reply")["action"]
    ctx.pop(f)
    got = [c for c in action if c in f["cards"]]
    R.to_hand(s, f["seat"], got)
    R.to_discard(s, [c for c in f["cards"] if c not in got and c in s["deck"]])


def _first_of_each_suit(cards: list[str]) -> list[str]:
    out: list[str] = []
    for c in cards:
        if all(card(x).suit != card(c).suit for x in out):
            out.append(c)
    return out


def _shelie_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """One card of each suit shown, one at a time; complete when every suit has one."""
    cards = ask.info["cards"]
    suits = {card(c).suit for c in cards}
    picked = set()
    for tok in path:
        if tok not in cards or card(tok).suit in picked:
            raise EngineError("sanguosha.err.illegal")
        picked.add(card(tok).suit)
    prompt = m("step.hg_shelie")
    if picked == suits:
        return Step(prompt, [], complete=True)
    return Step(prompt, [card_opt(c) for c in cards if card(c).suit not in picked])


STEPS["hg_shelie"] = _shelie_step


@ask_hint("hg_shelie")
def _shelie_hint(s: Seat) -> list[str]:
    """The most valuable card of each suit."""
    cards = s.ask.info["cards"]
    best: dict[str, str] = {}
    for c in sorted(cards, key=lambda c: (-value(card(c).name), c)):
        best.setdefault(card(c).suit, c)
    return [c for c in cards if c in best.values()]


@HG.modifier("may_reveal", "hg_jianan_lock")
def _jianan_lock(state: State, value: bool, args: dict[str, Any]) -> bool:
    """A hero kept face down by 五子良将纛 is not shown until the lord's turn starts: it is the
    seat's only hidden hero (a 魏 seat has a shown one), so the seat shows none."""
    return value and not any(h.get("locked") for h in state["players"][args["seat"]].get("heroes", ()))
