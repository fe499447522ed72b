"""魏 skills: 奸雄 护驾 鬼才 反馈 刚烈 突袭 裸衣 天妒 遗计 洛神 倾国 (see skills.py for the
mechanism and docs/rules/sanguosha.md for the rulings)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.base import EngineError, Option, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, _cheapest, _valid, ask_hint, fallback, value
from engines.sanguosha.ai_skills import JUDGE_GOOD, SKILL_CHOICE, _best_friend, _not_on_friend
from engines.sanguosha.choices import STEPS, card_opt, choose_one, seat_opt, two_or_pass
from engines.sanguosha.data import card
from engines.sanguosha.frames import PASS, judge_first, take_chosen
from engines.sanguosha.packs import STANDARD_HEROES
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import (
    Conversion,
    LordAsk,
    announce,
    ask_skill,
    conversion,
    lord_asker,
    optional,
    said_yes,
    skill_ref,
)
from engines.sanguosha.views import prompt
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


# 奸雄: take the card(s) that caused the damage ------------------------------------------------

@optional("damage_done", "jianxiong", "dst",
          can=lambda ctx, ev: any(c in ctx.state["proc"] for c in ev["cards"]))
def _jianxiong(ctx: Ctx, f: Frame, ev: Ev) -> None:
    got = [c for c in ev["cards"] if c in ctx.state["proc"]]
    R.to_hand(ctx.state, f["seat"], got)
    say(ctx, "gain", who=who(f["seat"]), cards=" ".join(R.card_label(c) for c in got))


# 护驾 ------------------------------------------------------------------------------------------

lord_asker(LordAsk("hujia", "shan", "wei"))


# 鬼才: replace any judgement card with a hand card ---------------------------------------------
# (鬼道 of the 国战 张角 is the same mechanism with black cards, keeping the replaced card.)

Pool = Callable[[State, int], list[str]]


def retouch_seats(state: State, skill: str, pool: Pool) -> list[int]:
    """The living seats that may replace a judgement card with ``skill`` now, in turn order from
    the current player."""
    return [x for x in R.living(state, state["turn"] if state["turn"] is not None else 0)
            if R.has_skill(state, x, skill, hidden=True) and pool(state, x)]


def retouch(ctx: Ctx, f: Frame, skill: str, pool: Pool, *, keep_old: bool = False) -> None:
    """The frame of a judgement-replacing skill: each seat in ``f["seats"]`` in turn may play a
    card of ``pool`` in place of the judgement card (ask kind = ``skill``); the replaced card is
    discarded, or taken by the replacing seat with ``keep_old`` (鬼道)."""
    s = ctx.state
    trigger = ctx.below(f)
    assert trigger is not None
    ev = trigger["ev"]
    if "reply" in f:
        action = ctx.take(f, "reply")["action"]
        if action != ["pass"]:
            seat, new = f["asked"], action[0]
            old = ev["card"]
            announce(ctx, seat, skill)
            if old in s["proc"] and not keep_old:
                R.to_discard(s, [old])
            R.to_proc(s, [new])
            ev["card"] = new
            say(ctx, "retouch", who=who(seat), card=cname(card(new).name), sr=R.card_label(new))
            if keep_old and old in s["proc"]:
                R.to_hand(s, seat, [old])
                say(ctx, "gain", who=who(seat), cards=R.card_label(old))
    while f["seats"]:
        seat = f["seats"].pop(0)
        if R.alive(s, seat) and pool(s, seat):
            f["asked"] = seat
            ctx.ask(f, [seat], skill, default=PASS, short=True, window=True,
                    info={"card": ev["card"], "seat": ev["seat"], "why": ev["why"]})
            return
    ctx.pop(f)


def retouch_step(skill: str, pool: Pool) -> Callable[[State, int, list[str], Ask], Step]:
    """The token walk of a judgement-replacing skill's ask: a card of ``pool``, or pass."""
    def step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
        opts = [card_opt(c) for c in pool(state, seat)] + [Option("pass", m("opt.pass"))]
        return choose_one(m(f"step.{skill}"), opts, path)
    return step


def _hand(state: State, seat: int) -> list[str]:
    return list(state["players"][seat]["hand"])


@STANDARD_HEROES.on("judge_retouch", "guicai", priority=10,
      can=lambda ctx, ev: bool(retouch_seats(ctx.state, "guicai", _hand)))
def _guicai(ctx: Ctx, ev: Ev) -> None:
    ctx.push("guicai", seats=retouch_seats(ctx.state, "guicai", _hand), st="start")


@STANDARD_HEROES.kind("guicai")
def _guicai_frame(ctx: Ctx, f: Frame) -> None:
    retouch(ctx, f, "guicai", _hand)


STEPS["guicai"] = retouch_step("guicai", _hand)


# 反馈: take a card of the source ---------------------------------------------------------------

@optional("damage_done", "fankui", "dst",
          can=lambda ctx, ev: (ev["src"] is not None and ev["src"] != ev["dst"] and R.alive(ctx.state, ev["src"])
                               and R.has_cards(ctx.state, ev["src"], judge=False)))
def _fankui(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("fankui", seat=f["seat"], target=ev["src"], st="start")


@STANDARD_HEROES.kind("fankui")
def _fankui_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        if not R.has_cards(ctx.state, f["target"], judge=False):
            ctx.pop(f)
            return
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "pick", short=True, window=True, info={"target": f["target"], "why": "fankui"})
        return
    take_chosen(ctx, f["seat"], f["target"], ctx.take(f, "reply")["action"][0], to_hand=True)
    ctx.pop(f)


# 刚烈: judge; unless a heart, the source discards two hand cards or takes 1 damage --------------

@optional("damage_done", "ganglie", "dst",
          can=lambda ctx, ev: ev["src"] is not None and ev["src"] != ev["dst"] and R.alive(ctx.state, ev["src"]))
def _ganglie(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("ganglie", seat=f["seat"], src=ev["src"], st="start")


@STANDARD_HEROES.kind("ganglie")
def _ganglie_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if judge_first(ctx, f, "ganglie"):
        return
    if f["st"] == "judged":
        judged = ctx.take(f)
        if judged is not None and card(judged).suit == "H" or not R.alive(s, f["src"]):
            say(ctx, "skill_fails", who=who(f["seat"]), skill=skill_ref("ganglie"))
            ctx.pop(f)
            return
        f["st"] = "asked"
        if len(s["players"][f["src"]]["hand"]) >= 2:
            ctx.ask(f, [f["src"]], "ganglie", default=PASS, short=True, window=True, info={"user": f["seat"]})
            return
        f["reply"] = {"seat": f["src"], "action": ["pass"]}
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action != ["pass"]:
            R.to_discard(s, action)
            say(ctx, "discard", who=who(f["src"]), cards=" ".join(R.card_label(c) for c in action))
            ctx.pop(f)
            return
        f["st"] = "damage"
        ctx.push("damage", src=f["seat"], dst=f["src"], n=1, via="ganglie", cards=[], st="start")
        return
    ctx.take(f)
    ctx.pop(f)


def _ganglie_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    return two_or_pass(state["players"][seat]["hand"], path, m("step.ganglie"),
                       Option("pass", m("opt.take_damage")))


STEPS["ganglie"] = _ganglie_step


# 突袭: instead of drawing, take a hand card from each of up to two others -----------------------

def _tuxi_targets(state: State, seat: int) -> list[int]:
    return [s for s in R.living(state, seat + 1) if s != seat and state["players"][s]["hand"]]


@STANDARD_HEROES.on("draw_count", "tuxi", priority=20,
      can=lambda ctx, ev: (R.has_skill(ctx.state, ev["seat"], "tuxi", hidden=True) and ev["n"] > 0
                           and bool(_tuxi_targets(ctx.state, ev["seat"]))))
def _tuxi(ctx: Ctx, ev: Ev) -> None:
    ctx.push("tuxi", seat=ev["seat"], st="start")


@STANDARD_HEROES.kind("tuxi")
def _tuxi_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "tuxi", default=PASS, short=False, window=True)
        return
    action = ctx.take(f, "reply")["action"]
    if action != ["pass"]:
        announce(ctx, f["seat"], "tuxi")
        trigger = ctx.below(f)
        assert trigger is not None
        trigger["ev"]["n"] = 0
        for tok in action:
            target = int(tok)
            if ctx.state["players"][target]["hand"]:
                take_chosen(ctx, f["seat"], target, "hand", to_hand=True)
    ctx.pop(f)


def _tuxi_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    prompt = m("step.tuxi")
    if path == ["pass"]:
        return Step(prompt, [], complete=True)
    cand = _tuxi_targets(state, seat)
    chosen = [ascii_int(t) for t in path]
    if len(chosen) > 2 or len(set(chosen)) != len(chosen) or any(c not in cand for c in chosen):
        raise EngineError("sanguosha.err.illegal")
    more = [seat_opt(state, s, seat) for s in cand if s not in chosen] if len(chosen) < 2 else []
    return Step(prompt, more + ([] if path else [Option("pass", m("opt.pass"))]), complete=bool(path))


STEPS["tuxi"] = _tuxi_step


# 裸衣: draw one fewer; this turn your 杀 and 决斗 deal 1 more -----------------------------------

@optional("draw_count", "luoyi", priority=10, default_yes=False, can=lambda ctx, ev: ev["n"] > 0)
def _luoyi(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ev["n"] -= 1
    R.bump(ctx.state, "luoyi")


@STANDARD_HEROES.on("damage_cause", "luoyi", priority=5,
      can=lambda ctx, ev: (ev["via"] in ("sha", "juedou") and ev["src"] is not None
                           and ev["src"] == ctx.state["turn"] and R.flag(ctx.state, "luoyi") > 0
                           and R.has_skill(ctx.state, ev["src"], "luoyi")))
def _luoyi_damage(ctx: Ctx, ev: Ev) -> None:
    ev["n"] += 1


# 天妒: take your own judgement card once it took effect ----------------------------------------

@optional("judge_done", "tiandu", can=lambda ctx, ev: ev["card"] in ctx.state["proc"], priority=-10)
def _tiandu(ctx: Ctx, f: Frame, ev: Ev) -> None:
    R.to_hand(ctx.state, f["seat"], [ev["card"]])
    say(ctx, "gain", who=who(f["seat"]), cards=R.card_label(ev["card"]))


# 遗计: per point of damage, look at the top two cards and give them out -------------------------

@STANDARD_HEROES.on("damage_done", "yiji", priority=-10,
                    can=lambda ctx, ev: R.has_skill(ctx.state, ev["dst"], "yiji", hidden=True))
def _yiji(ctx: Ctx, ev: Ev) -> None:
    ctx.push("yiji", seat=ev["dst"], left=ev["n"], st="start")


@STANDARD_HEROES.kind("yiji")
def _yiji_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat = f["seat"]
    if f["st"] == "start":
        if f["left"] <= 0 or not R.alive(s, seat):
            ctx.pop(f)
            return
        f["left"] -= 1
        f["st"] = "asked"
        ask_skill(ctx, f, seat, "yiji", default_yes=True)
        return
    if f["st"] == "asked":
        if not said_yes(ctx, f):
            ctx.pop(f)
            return
        R.reveal_for(ctx, seat, "yiji")  # a hidden 郭嘉 (国战): the yes shows him
        got = R.deal(s, 2)
        s["deck"].extend(reversed(got))  # they stay on top of the (hidden) deck while she decides
        if not got:
            f["st"] = "start"
            return
        announce(ctx, seat, "yiji")
        f["st"], f["cards"] = "give", got
        ctx.ask(f, [seat], "yiji", default=("keep",), short=False, window=True, info={"cards": got})
        return
    action = ctx.take(f, "reply")["action"]
    got = [c for c in f.pop("cards") if c in s["deck"]]
    dests = [seat] * len(got) if action == ["keep"] else [int(t) for t in action]
    for cid, dest in zip(got, dests, strict=False):
        R.to_hand(s, dest, [cid])
        say(ctx, "give", who=who(seat), target=who(dest), n=1)
        say(ctx, "give_private", to=tuple(sorted({seat, dest})), card=cname(card(cid).name), sr=R.card_label(cid))
    f["st"] = "start"


def _yiji_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    cards = ask.info["cards"]
    prompt = m("step.yiji", card=cname(card(cards[min(len(path), len(cards) - 1)]).name),
               sr=R.card_label(cards[min(len(path), len(cards) - 1)]))
    if path == ["keep"]:
        return Step(prompt, [], complete=True)
    living = R.living(state, seat)
    if len(path) > len(cards) or any(ascii_int(t) not in living for t in path):
        raise EngineError("sanguosha.err.illegal")
    if len(path) == len(cards):
        return Step(prompt, [], complete=True)
    opts = [Option(str(s), m("opt.give_to", who=who(s))) for s in living]
    return Step(prompt, opts + ([] if path else [Option("keep", m("opt.keep_all"))]))


STEPS["yiji"] = _yiji_step


# 洛神: judge at the prepare phase; black → keep it and judge again -----------------------------

@optional("phase_start", "luoshen", can=lambda ctx, ev: ev["phase"] == "prepare" and not ev["skip"])
def _luoshen(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("luoshen", seat=f["seat"], st="start")


@STANDARD_HEROES.kind("luoshen")
def _luoshen_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if judge_first(ctx, f, "luoshen"):
        return
    if f["st"] == "judged":
        judged = ctx.take(f)
        if judged is None or card(judged).red or not R.alive(s, f["seat"]):
            ctx.pop(f)
            return
        if R.owner_zone(s, judged)[1] in ("discard", "proc"):
            R.to_hand(s, f["seat"], [judged])
            say(ctx, "gain", who=who(f["seat"]), cards=R.card_label(judged))
        f["st"] = "asked"
        ask_skill(ctx, f, f["seat"], "luoshen", default_yes=True)
        return
    if said_yes(ctx, f):
        f["st"] = "start"
        return
    ctx.pop(f)


# 倾国: a black hand card as a 闪 ---------------------------------------------------------------

conversion(Conversion("qingguo", "qingguo", "shan", lambda s, seat, c: not card(c).red
                      and c in s["players"][seat]["hand"]))


@prompt("guicai")
def _guicai_prompt(info: dict[str, Any]) -> Any:
    return m("req.guicai", who=who(info["seat"]), card=cname(card(info["card"]).name),
             sr=R.card_label(info["card"]))


@prompt("ganglie")
def _ganglie_prompt(info: dict[str, Any]) -> Any:
    return m("req.ganglie", user=who(info["user"]))


# -- the AI's hints for these skills (read the seat's own view only; see ai.py) ------------------

def _luoyi(s: Seat) -> list[str]:
    """裸衣: one card fewer for +1 damage this turn — with two 杀 or a 决斗 and an enemy."""
    enemies = any(s.mind.enemy(t) for t in s.mind.alive)
    strong = s.count("sha") >= 2 or s.count("juedou") >= 1
    return ["yes"] if enemies and strong else ["pass"]


SKILL_CHOICE["luoyi"] = _luoyi


@ask_hint("ganglie")
def _ganglie(s: Seat) -> list[str]:
    """刚烈 aimed at this seat: pay two weak cards rather than 1 HP when low or card-rich."""
    opts = [o for o in s.responses() if o in s.hand]
    two = sorted(opts, key=lambda c: (value(s.hand[c]), c))[:2]
    if len(two) == 2 and (s.mind.hp(s.seat) <= 2 or max(value(s.hand[c]) for c in two) <= 4):
        return two
    return ["pass"]


@ask_hint("tuxi")
def _tuxi(s: Seat) -> list[str]:
    """突袭: a hand card from each of two non-friends instead of drawing 2 (enemies first)."""
    cand = sorted((t for t in s.targets([]) if not s.mind.friend(t)),
                  key=lambda t: (-s.mind.enemy_score(t), -s.mind.player(t)["hand"], t))
    return [str(t) for t in cand[:2]] if len(cand) >= 2 else ["pass"]


@ask_hint("yiji")
def _yiji(s: Seat) -> list[str]:
    """遗计: keep the cards while the hand is short, else hand them all to the surest friend."""
    cards = s.ask.info.get("cards", [])
    friend = _best_friend(s, [ascii_int(o) for o in s.options([]) if ascii_int(o) is not None])
    size = len(s.hand) + sum(1 for c in cards if c not in s.hand)  # the drawn cards may be aside
    if friend is None or not cards or size <= s.mind.hp(s.seat):
        return ["keep"] if "keep" in s.options([]) else fallback(s)
    return [str(friend)] * len(cards)


@ask_hint("guicai")
def _guicai(s: Seat) -> list[str]:
    """鬼才: swap the judgement card for the cheapest hand card that turns it the right way — a
    friend's (or its own) judgement to success, an enemy's to failure. 洛神 is left alone (one
    card of ours to stop one card of theirs); an unknown seat's judgement too."""
    info = s.ask.info
    good = JUDGE_GOOD.get(info["why"])
    judged = info["seat"]
    if good is None:
        return ["pass"]
    if s.mind.friend(judged):
        want = True
    elif s.mind.enemy(judged):
        want = False
    else:
        return ["pass"]
    if good(info["card"]) == want:
        return ["pass"]
    fits = [c for c in s.responses() if c in s.hand and good(c) == want]
    if not fits:
        return ["pass"]
    pick = _cheapest(s, fits)
    return [pick] if _valid(s, [pick]) else ["pass"]


SKILL_CHOICE["fankui"] = _not_on_friend


SKILL_CHOICE["ganglie"] = _not_on_friend

JUDGE_GOOD["ganglie"] = lambda c: card(c).suit != "H"  # 刚烈 succeeds unless ♥

