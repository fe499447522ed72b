"""蜀 skills: 仁德 激将 武圣 咆哮 观星 空城 龙胆 马术 铁骑 集智 奇才 (see skills.py for the
mechanism and docs/rules/sanguosha.md for the rulings)."""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Option, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import cards
from engines.sanguosha import rules as R
from engines.sanguosha.ai import P_SHA, Seat, _aim_sha, _discard_order, _valid, ask_hint, play_hint, value
from engines.sanguosha.ai_mind import FRIEND_BAR
from engines.sanguosha.ai_skills import JUDGE_GOOD, _best_friend
from engines.sanguosha.choices import STEPS, card_opt, seat_opt, target_choices
from engines.sanguosha.data import card
from engines.sanguosha.frames import PASS, judge_first, push_use, recover
from engines.sanguosha.packs import STANDARD_HEROES
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import (
    LORD_ASK,
    Active,
    Conversion,
    LordAsk,
    active,
    announce,
    conversion,
    lord_asker,
    optional,
)
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


# 仁德: give hand cards away; the second card given this phase heals 1 --------------------------

def _rende_step(state: State, seat: int, path: list[str]) -> Step:
    others = [s for s in R.living(state, seat + 1) if s != seat]
    if not path:
        return Step(m("step.rende_to"), [seat_opt(state, s, seat) for s in others])
    if ascii_int(path[0]) not in others:
        raise EngineError("sanguosha.err.illegal")
    hand = state["players"][seat]["hand"]
    picked = path[1:]
    if len(set(picked)) != len(picked) or any(c not in hand for c in picked):
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.rende_cards"), [card_opt(c) for c in hand if c not in picked], complete=bool(picked))


def give_cards(ctx: Ctx, seat: int, path: list[str], skill: str, heal_at: int) -> None:
    """仁德's giving (identity, and 国战's ``hg_rende``): the chosen hand cards to the chosen
    seat; once per phase the cards given this phase reaching ``heal_at`` heal 1 (identity: the
    second card; 国战: the third)."""
    s = ctx.state
    target, cids = int(path[0]), path[1:]
    announce(ctx, seat, skill)
    R.to_hand(s, target, cids)
    say(ctx, "give", who=who(seat), target=who(target), n=len(cids))
    for cid in cids:
        say(ctx, "give_private", to=(seat, target), card=cname(card(cid).name), sr=R.card_label(cid))
    R.bump(s, skill, len(cids))
    R.note_act(s, seat, target, -1)
    if R.flag(s, skill) >= heal_at and not R.flag(s, f"{skill}_healed"):
        R.bump(s, f"{skill}_healed")
        recover(ctx, seat, 1, seat)


def _rende_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    give_cards(ctx, seat, path, "rende", 2)


active(Active("rende", lambda s, seat: bool(s["players"][seat]["hand"]) and len(R.living(s)) > 1,
              _rende_step, _rende_start))


# 激将: in a 杀 request (LordAsk) and as a play-phase 杀 --------------------------------------

JIJIANG = lord_asker(LordAsk("jijiang", "sha", "shu"))


def _jijiang_can(state: State, seat: int) -> bool:
    return (state["sha_used"] < R.sha_limit(state, seat) and bool(JIJIANG.helpers(state, seat))
            and bool(target_choices(state, seat, "sha", [], [])[0]))


def _jijiang_step(state: State, seat: int, path: list[str]) -> Step:
    chosen = [ascii_int(t) for t in path]
    for i in range(len(chosen)):
        if chosen[i] not in target_choices(state, seat, "sha", [], chosen[:i])[0]:  # type: ignore[arg-type]
            raise EngineError("sanguosha.err.illegal")
    cand, done = target_choices(state, seat, "sha", [], chosen)  # type: ignore[arg-type]
    return Step(m("step.target", card=cname("sha")), [seat_opt(state, s, seat) for s in cand], complete=done)


def _jijiang_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    ctx.push("jijiang_use", seat=seat, targets=[int(t) for t in path], st="start")


active(Active("jijiang", _jijiang_can, _jijiang_step, _jijiang_start))


@STANDARD_HEROES.kind("jijiang_use")
def _jijiang_use(ctx: Ctx, f: Frame) -> None:
    """The lord declared targets; a Shu hero's 杀 (left on the table) becomes the lord's use,
    counted against the one-杀 limit. Nobody answering: nothing is used."""
    if f["st"] == "start":
        f["st"] = "asked"
        LORD_ASK["jijiang"](ctx, f["seat"], "sha", keep=True)
        return
    if f["st"] == "asked":
        got = ctx.take(f)
        targets = [t for t in f["targets"] if R.alive(ctx.state, t)]
        if isinstance(got, list) and got and targets:
            f["st"] = "used"
            push_use(ctx, f["seat"], "sha", got, targets, count=True)
            return
        if isinstance(got, list):
            R.to_discard(ctx.state, [c for c in got if c in ctx.state["proc"]])
    ctx.take(f)
    ctx.pop(f)


# 武圣 / 龙胆 ------------------------------------------------------------------------------------

conversion(Conversion("wusheng", "wusheng", "sha", lambda s, seat, c: card(c).red, equip=True))
conversion(Conversion("longdan_sha", "longdan", "sha",
                      lambda s, seat, c: card(c).name == "shan" and c in s["players"][seat]["hand"]))
conversion(Conversion("longdan_shan", "longdan", "shan",
                      lambda s, seat, c: card(c).name == "sha" and c in s["players"][seat]["hand"]))


# 咆哮 / 马术 / 奇才 / 空城: modifiers --------------------------------------------------------------

@STANDARD_HEROES.modifier("sha_limit", "paoxiao")
def _paoxiao(state: State, value: int, args: dict[str, Any]) -> int:
    return 10_000 if R.has_skill(state, args["seat"], "paoxiao") else value


@STANDARD_HEROES.modifier("distance", "mashu")
def _mashu(state: State, value: int, args: dict[str, Any]) -> int:
    return value - 1 if R.has_skill(state, args["src"], "mashu") else value


@STANDARD_HEROES.modifier("trick_distance", "qicai")
def _qicai(state: State, value: int, args: dict[str, Any]) -> int:
    return 10_000 if R.has_skill(state, args["seat"], "qicai") else value


@STANDARD_HEROES.modifier("targetable", "kongcheng")
def _kongcheng(state: State, value: bool, args: dict[str, Any]) -> bool:
    t = args["target"]
    if args["name"] in ("sha", "juedou") and R.has_skill(state, t, "kongcheng") and not state["players"][t]["hand"]:
        return False
    return value


# 观星: arrange the top X cards ----------------------------------------------------------------

@STANDARD_HEROES.on("phase_start", "guanxing", priority=10,
      can=lambda ctx, ev: (ev["phase"] == "prepare" and not ev["skip"]
                           and R.has_skill(ctx.state, ev["seat"], "guanxing", hidden=True) and bool(ctx.state["deck"])))
def _guanxing(ctx: Ctx, ev: Ev) -> None:
    ctx.push("guanxing", seat=ev["seat"], st="start")


@STANDARD_HEROES.kind("guanxing")
def _guanxing_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        x = min(5, len(R.living(s)), len(s["deck"]))
        f["cards"] = list(reversed(s["deck"][-x:]))  # top first
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "guanxing", default=PASS, short=False, window=True, info={"cards": f["cards"]})
        return
    action = ctx.take(f, "reply")["action"]
    if action != ["pass"]:
        announce(ctx, f["seat"], "guanxing")
        cards = f["cards"]
        top = [c for c in action if c != "bottom"]
        bottom = [c for c in cards if c not in top]
        deck = [c for c in s["deck"] if c not in cards]
        s["deck"] = bottom + deck + list(reversed(top))
        say(ctx, "guanxing", who=who(f["seat"]), top=len(top), bottom=len(bottom))
    ctx.pop(f)


def _guanxing_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    cards = ask.info["cards"]
    prompt = m("step.guanxing", n=len(path) + 1)
    if path == ["pass"]:
        return Step(prompt, [], complete=True)
    if "bottom" in path[:-1] or len(set(path)) != len(path) or any(c not in cards and c != "bottom" for c in path):
        raise EngineError("sanguosha.err.illegal")
    if path and path[-1] == "bottom" or len(path) == len(cards):
        return Step(prompt, [], complete=True)
    opts = [card_opt(c) for c in cards if c not in path] + [Option("bottom", m("opt.rest_bottom"))]
    return Step(prompt, opts + ([] if path else [Option("pass", m("opt.pass"))]))


STEPS["guanxing"] = _guanxing_step


# 铁骑: judge; red → the 杀 cannot be dodged -----------------------------------------------------

@optional("sha_effect", "tieqi", "user", priority=25)
def _tieqi(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("tieqi", seat=f["seat"], st="start")


@STANDARD_HEROES.kind("tieqi")
def _tieqi_frame(ctx: Ctx, f: Frame) -> None:
    if judge_first(ctx, f, "tieqi"):
        return
    judged = ctx.take(f)
    if judged is not None and card(judged).red:
        optional_frame = ctx.below(f)
        assert optional_frame is not None
        trigger = ctx.below(optional_frame)
        assert trigger is not None
        trigger["ev"]["need"] = 0
        say(ctx, "tieqi_hit", who=who(f["seat"]))
    ctx.pop(f)


# 集智: draw when using an ordinary trick ------------------------------------------------------

@optional("use_declared", "jizhi", "user", can=lambda ctx, ev: cards.of(ev["name"]).nullifiable)  # a non-delayed trick
def _jizhi(ctx: Ctx, f: Frame, ev: Ev) -> None:
    R.draw(ctx, f["seat"], 1)


@optional("card_played", "jizhi", can=lambda ctx, ev: ev["name"] == "wuxie")
def _jizhi_wuxie(ctx: Ctx, f: Frame, ev: Ev) -> None:
    R.draw(ctx, f["seat"], 1)


# -- the AI's hints for these skills (read the seat's own view only; see ai.py) ------------------

@play_hint("rende")
def _rende(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """仁德: hand the cards it would discard anyway (and two when wounded: 仁德 heals) to a friend."""
    me = s.me()
    excess = len(s.hand) - me["hp"]
    want = max(excess, 2 if me["hp"] < me["max"] and len(s.hand) >= 3 else 0)
    give = [c for c in _discard_order(s.hand) if value(s.hand[c]) < 9][:want]
    try:
        friend = _best_friend(s, s.targets(pre))
    except Exception:  # noqa: BLE001
        return None
    path = [*pre, str(friend), *give] if friend is not None and give else []
    return (2.5, path) if path and _valid(s, path) else None


#: How likely a seat must look to answer the lord's 激将 before the lord counts on it (the same
#: bar as :meth:`Mind.friend`).
HELPER_BAR = FRIEND_BAR


def _helps_lord(s: Seat, t: int) -> float:
    """How likely ``t`` answers a lord skill's request (护驾, 激将) for this seat, the lord: a
    loyalist does, and so does a renegade while others live (it keeps the lord alive — see
    :func:`_answer`); a rebel never does. From the role estimate only (public behaviour)."""
    p = s.mind.p.get(t)
    if p is None:
        return 0.0
    return p["loyalist"] + (p["renegade"] if len(s.mind.alive) > 2 else 0.0)


def _lord_asked_in_vain(s: Seat, skill: str) -> bool:
    """Did this turn's public log already show this seat's ``skill`` answered by nobody? Asking
    the same helpers again in the same turn would only loop (the log is reset every turn)."""
    for line in s.view["log"]:
        params = line.get("params", {})
        if (line.get("key") == "sanguosha.ev.lord_nobody"
                and (params.get("who") or {}).get("seat") == s.seat
                and (params.get("skill") or {}).get("key") == f"sanguosha.skill.{skill}"):
            return True
    return False


@play_hint("jijiang")
def _jijiang(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """激将 in the play phase: a 蜀 helper's 杀 at the enemy most worth hitting, when the lord has
    no real 杀 to play (it spends the same one-杀 quota — the engine offers 激将 only while the
    quota is open — so a 杀 of its own, whose colour and owner are sure, comes first) and some
    蜀 seat looks likely to answer (:data:`HELPER_BAR`). Scored like a 杀 but lower, times the
    chance that a believed helper holds a 杀; not asked again in a turn where nobody answered."""
    mind = s.mind
    if mind.role != "lord" or _lord_asked_in_vain(s, "jijiang"):
        return None
    if any(s.hand.get(tok) == "sha" for tok in s.options([])):
        return None
    miss = 1.0
    for p in s.view["players"]:
        t = p["seat"]
        if t == s.seat or not p["alive"] or p.get("kingdom") != "shu":
            continue
        helps = _helps_lord(s, t)
        if helps >= HELPER_BAR:
            miss *= 1 - helps * (1 - (1 - P_SHA) ** p["hand"])
    answered = 1 - miss
    if answered <= 0:
        return None
    try:
        got = _aim_sha(s, pre, unknown_colour=True)
    except Exception:  # noqa: BLE001 - the skill's walk changed: do not use it
        return None
    if got is None:
        return None
    return (2 + 4 * got[0] * answered, got[1]) if _valid(s, got[1]) else None


#: Cards 观星 keeps on top for the draw phase (the normal draw).
GUANXING_DRAW = 2


@ask_hint("guanxing")
def _guanxing(s: Seat) -> list[str]:
    """观星 before its judgement phase: for each delayed trick, in judging order (the last
    placed first), a card that makes it fail on top (else the cheapest, which is lost anyway);
    then the best cards for the draw; the rest to the bottom, away from the next players."""
    pool = list(s.ask.info["cards"])
    top: list[str] = []
    for j in reversed(s.me()["judge"]):
        good = JUDGE_GOOD.get(j["as"])
        if good is None or not pool:
            continue
        fits = [c for c in pool if good(c)] or pool
        pick = min(fits, key=lambda c: (value(card(c).name), c))
        top.append(pick)
        pool.remove(pick)
    pool.sort(key=lambda c: (-value(card(c).name), c))
    top += pool[:GUANXING_DRAW]
    path = top + (["bottom"] if pool[GUANXING_DRAW:] or not top else [])
    return path if _valid(s, path) else ["pass"]

JUDGE_GOOD["tieqi"] = lambda c: card(c).red

