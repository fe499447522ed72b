"""The hegemony (国战) skills of the qun heroes that differ from the identity heroes' skills.

A hegemony hero whose skill reads as the identity one names the standard skill id in its data row
(``data/sanguosha/hegemony/qun.json``: 急救 无双 闭月 马术); every other skill is registered here
into :data:`packs.HEGEMONY_HEROES`, with its question texts and AI hint beside it. A skill whose
name is an identity skill with another text is ``hg_<id>`` (离间 乱击 帷幕 断肠). The wording
used and the choices made are in docs/rules/sanguosha-hegemony-qun.md.

除疠 离间 乱击 双雄 完杀 乱武 帷幕 鞬出 雷击 鬼道 悲歌 断肠 雄异 名士 礼让 双刃 死谏 随势 狂斧 祸水 倾城
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Option, Step, key_ref
from engines.flow import Ask, Ctx
from engines.sanguosha import pindian, skills_qun, skills_wei
from engines.sanguosha import rules as R
from engines.sanguosha.ai import (
    PLAY_HINTS,
    Seat,
    _discard_order,
    _valid,
    _worth_hitting,
    ask_hint,
    fallback,
    play_hint,
    value,
)
from engines.sanguosha.ai_skills import JUDGE_GOOD, SKILL_CHOICE, _best_friend
from engines.sanguosha.choices import (
    PICK_NO_JUDGE,
    PLAY_CONVERSIONS,
    STEPS,
    _sha_like,
    card_opt,
    choose_one,
    seat_opt,
    yes_no,
)
from engines.sanguosha.data import card, kind_of
from engines.sanguosha.frames import PASS, judge_first, push_use, recover, start_use_from_action, take_chosen
from engines.sanguosha.packs import HEGEMONY_HEROES as HG
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import (
    ASK_SKILL,
    Active,
    Conversion,
    active,
    announce,
    conversion,
    optional,
    skill_ref,
)
from engines.sanguosha.views import prompt
from engines.tokens import ascii_int

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


# -- shared helpers ------------------------------------------------------------------------------

def _cards_he(state: State, seat: int) -> list[str]:
    """Hand and equipment (牌 in a skill text that names no zone: never the judgement area)."""
    return R.all_cards(state, seat, judge=False)


def _limited_used(state: State, seat: int, skill: str) -> bool:
    """限定技: used once per game (the seat's ``limited`` list)."""
    return skill in state["players"][seat].get("limited", ())


def _spend_limited(state: State, seat: int, skill: str) -> None:
    state["players"][seat].setdefault("limited", []).append(skill)


def _has_hidden(state: State, seat: int) -> bool:
    """Has ``seat`` a hero face down (名士, 祸水)? Never in identity mode (one shown hero)."""
    return any(not h["shown"] for h in state["players"][seat].get("heroes", ()))


def _in_order(state: State, seat: int, seats: list[int]) -> list[int]:
    """``seats`` in turn order starting at ``seat`` (the order a skill resolves them in)."""
    n = state["n"]
    return sorted(seats, key=lambda x: (x - seat) % n)


def _seats_step(state: State, seat: int, path: list[str], cands: list[int], prompt_key: str) -> Step:
    """One seat of ``cands`` or pass (the seat choices of 雷击, 死谏, 双刃)."""
    opts = [seat_opt(state, x, seat) for x in cands] + [Option("pass", m("opt.pass"))]
    return choose_one(m(prompt_key), opts, path)


def _ask_seats(ctx: Ctx, f: Frame, seat: int, kind: str, **info: Any) -> None:
    """Ask the skill's owner to choose (default: pass, the skill is not used)."""
    ctx.ask(f, [seat], kind, default=PASS, short=True, window=True, info=info)


# 除疠: discard a card of yours and of up to three others of different kingdoms; ♠ draws ------

PICK_NO_JUDGE.add("chuli")


def _chuli_targets(state: State, seat: int, chosen: list[int]) -> list[int]:
    """Others with a card, none of a kingdom already chosen (unknown kingdoms always qualify)."""
    return [x for x in R.others_from(state, seat) if x not in chosen and R.has_cards(state, x, judge=False)
            and not any(R.same_kingdom(state, x, c) for c in chosen)]


def _chuli_step(state: State, seat: int, path: list[str]) -> Step:
    mine = _cards_he(state, seat)
    if not path:
        return Step(m("step.chuli_card"), [card_opt(c) for c in mine])
    if path[0] not in mine:
        raise EngineError("sanguosha.err.illegal")
    chosen: list[int] = []
    for tok in path[1:]:
        t = ascii_int(tok)
        if len(chosen) >= 3 or t not in _chuli_targets(state, seat, chosen):
            raise EngineError("sanguosha.err.illegal")
        chosen.append(t)  # type: ignore[arg-type]
    more = _chuli_targets(state, seat, chosen) if len(chosen) < 3 else []
    return Step(m("step.chuli_to"), [seat_opt(state, x, seat) for x in more], complete=bool(chosen))


def _chuli_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    R.bump(ctx.state, "chuli")
    announce(ctx, seat, "chuli")
    targets = _in_order(ctx.state, seat, [int(t) for t in path[1:]])
    for t in targets:
        R.note_act(ctx.state, seat, t, 1)
    ctx.push("chuli", seat=seat, own=path[0], left=targets, spades=[], st="start")


@HG.kind("chuli")
def _chuli_frame(ctx: Ctx, f: Frame) -> None:
    """Huatuo's own card first, then each target's in turn order (he picks), then every seat
    that lost a ♠ draws one."""
    s = ctx.state
    seat = f["seat"]
    if f["st"] == "start":
        if f["own"] in _cards_he(s, seat):
            R.to_discard(s, [f["own"]])
            say(ctx, "discard", who=who(seat), cards=R.card_label(f["own"]))
            if card(f["own"]).suit == "S":
                f["spades"].append(seat)
        f["st"] = "next"
    elif f["st"] == "picked":
        cid = take_chosen(ctx, seat, f["cur"], ctx.take(f, "reply")["action"][0], to_hand=False)
        if card(cid).suit == "S":
            f["spades"].append(f["cur"])
        f["st"] = "next"
    while f["left"]:
        t = f["left"].pop(0)
        if R.alive(s, t) and R.alive(s, seat) and R.has_cards(s, t, judge=False):
            f["cur"], f["st"] = t, "picked"
            ctx.ask(f, [seat], "pick", info={"target": t, "why": "chuli"})
            return
    for x in _in_order(s, seat, f["spades"]):
        if R.alive(s, x):
            R.draw(ctx, x, 1)
    ctx.take(f)
    ctx.pop(f)


active(Active("chuli", lambda s, seat: not R.flag(s, "chuli") and R.has_cards(s, seat, judge=False)
              and bool(_chuli_targets(s, seat, [])), _chuli_step, _chuli_start), pack=HG)


# 离间 (国战): the later chosen man duels the first; it may be negated -------------------------

active(skills_qun.Lijian("hg_lijian", first_uses=False, nowuxie=False,
                         prompts=("step.hg_lijian_a", "step.hg_lijian_b")).active(), pack=HG)


# 乱击: two hand cards as a 万箭齐发, suits not yet used for it this turn; allies who dodge draw --

def _luanji_ok(state: State, seat: int, cid: str) -> bool:
    return cid in state["players"][seat]["hand"] and not R.flag(state, f"hg_luanji_{card(cid).suit}")


conversion(Conversion("hg_luanji", "hg_luanji", "wanjian", _luanji_ok, count=2), pack=HG)
PLAY_CONVERSIONS.append("wanjian")


@HG.on("use_declared", "hg_luanji", priority=40,
       can=lambda ctx, ev: (ev["name"] == "wanjian" and len(ev["cards"]) == 2
                            and R.has_skill(ctx.state, ev["user"], "hg_luanji")))
def _luanji_used(ctx: Ctx, ev: Ev) -> None:
    """Only 乱击 makes a 万箭齐发 of two cards: note its suits and mark the use for the draw."""
    for cid in ev["cards"]:
        R.bump(ctx.state, f"hg_luanji_{card(cid).suit}")
    use = ctx.stack[-2]
    if use["k"] == "use":
        use["extra"]["luanji"] = True


def _luanji_effect(ctx: Ctx) -> Frame | None:
    """The 乱击 万箭齐发 effect a 闪 was just played against (trigger → need → effect)."""
    st = ctx.stack
    if len(st) >= 3 and st[-2]["k"] == "need" and st[-3]["k"] == "effect":
        eff = st[-3]
        if eff["name"] == "wanjian" and eff["extra"].get("luanji"):
            return eff
    return None


def _luanji_draw_can(ctx: Ctx, ev: Ev) -> bool:
    if ev["name"] != "shan":
        return False
    eff = _luanji_effect(ctx)
    return eff is not None and R.alive(ctx.state, ev["seat"]) and R.same_kingdom(ctx.state, ev["seat"], eff["user"])


@HG.on("card_played", "hg_luanji_draw", can=_luanji_draw_can)
def _luanji_draw(ctx: Ctx, ev: Ev) -> None:
    eff = _luanji_effect(ctx)
    assert eff is not None
    ctx.push("hg_luanji_draw", seat=ev["seat"], user=eff["user"], st="start")


@HG.kind("hg_luanji_draw")
def _luanji_draw_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "asked"
        ctx.ask(f, [f["seat"]], "hg_luanji_draw", default=("yes",), short=True, window=True,
                info={"user": f["user"]})
        return
    if ctx.take(f, "reply")["action"] == ["yes"]:
        R.draw(ctx, f["seat"], 1)
    ctx.pop(f)


STEPS["hg_luanji_draw"] = lambda state, seat, path, ask: yes_no(path, m("step.hg_luanji_draw"))


# 双雄: judge instead of drawing, keep the card; this turn a hand card of the other colour is a 决斗

@optional("draw_count", "shuangxiong", priority=15, default_yes=False, can=lambda ctx, ev: ev["n"] > 0, pack=HG)
def _shuangxiong(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ev["n"] = 0
    ctx.push("shuangxiong", seat=f["seat"], st="start")


@HG.kind("shuangxiong")
def _shuangxiong_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if judge_first(ctx, f, "shuangxiong"):
        return
    judged = ctx.take(f)
    if judged is not None:
        R.bump(s, "shuangxiong_red" if card(judged).red else "shuangxiong_black")
        if R.owner_zone(s, judged)[1] in ("discard", "proc"):
            R.to_hand(s, f["seat"], [judged])
            say(ctx, "gain", who=who(f["seat"]), cards=R.card_label(judged))
    ctx.pop(f)


def _shuangxiong_ok(state: State, seat: int, cid: str) -> bool:
    if cid not in state["players"][seat]["hand"]:
        return False
    return bool(R.flag(state, "shuangxiong_black") if card(cid).red else R.flag(state, "shuangxiong_red"))


conversion(Conversion("shuangxiong", "shuangxiong", "juedou", _shuangxiong_ok,
                      when=lambda s, seat: s["turn"] == seat), pack=HG)
PLAY_CONVERSIONS.append("juedou")


# 完杀: in your turn only you and the dying seat may use 桃 -----------------------------------

@HG.modifier("may_save", "wansha")
def _wansha(state: State, ok: bool, args: dict[str, Any]) -> bool:
    turn = state["turn"]
    if not ok or turn is None or not R.has_skill(state, turn, "wansha"):
        return ok
    return args["saver"] in (turn, args["seat"])


# 乱武: 限定技, every other seat uses a 杀 on a nearest seat or loses 1 HP ----------------------

def _nearest(state: State, seat: int) -> list[int]:
    others = [x for x in R.living(state) if x != seat]
    if not others:
        return []
    d = min(R.distance(state, seat, x) for x in others)
    return [x for x in others if R.distance(state, seat, x) == d]


def _luanwu_targets(state: State, seat: int, nearest: list[int]) -> list[int]:
    return [x for x in nearest if R.alive(state, x) and R.in_range(state, seat, x) and R.can_target(state, seat, x, "sha")]


def _go(key: str) -> Any:
    """The token walk of an active skill that chooses nothing (乱武, 雄异): its token is all."""
    def step(state: State, seat: int, path: list[str]) -> Step:
        if path:
            raise EngineError("sanguosha.err.illegal")
        return Step(m(key), [], complete=True)
    return step


def _luanwu_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    _spend_limited(ctx.state, seat, "luanwu")
    announce(ctx, seat, "luanwu")
    ctx.push("luanwu", seat=seat, left=R.others_from(ctx.state, seat), st="next")


active(Active("luanwu", lambda s, seat: not _limited_used(s, seat, "luanwu") and len(R.living(s)) > 2,
              _go("step.luanwu_go"), _luanwu_start), pack=HG)


@HG.kind("luanwu")
def _luanwu_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "answer":
        action = ctx.take(f, "reply")["action"]
        f["st"] = "next"
        if action == ["pass"]:
            ctx.push("lose_hp", seat=f["cur"], n=1, st="start")
        else:
            start_use_from_action(ctx, f["cur"], action, count=False)
        return
    ctx.take(f)
    while f["left"]:
        t = f["left"].pop(0)
        if not R.alive(s, t):
            continue
        f["cur"] = t
        nearest = _nearest(s, t)
        if _luanwu_targets(s, t, nearest):
            f["st"] = "answer"
            ctx.ask(f, [t], "luanwu", default=PASS, short=True, window=True,
                    info={"user": f["seat"], "targets": nearest})
            return
        ctx.push("lose_hp", seat=t, n=1, st="start")
        return
    ctx.pop(f)


def _luanwu_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """A 杀 (from hand or by a conversion), then one of the nearest seats in range; or pass."""
    prompt_ = m("step.luanwu")
    if path[:1] == ["pass"]:
        if len(path) > 1:
            raise EngineError("sanguosha.err.illegal")
        return Step(prompt_, [], complete=True)
    k = None
    for i in range(1, len(path) + 1):
        if _sha_like(state, seat, path[:i], prompt_).complete:
            k = i
            break
    if k is None:
        return _sha_like(state, seat, path, prompt_)
    rest = path[k:]
    targets = _luanwu_targets(state, seat, ask.info["targets"])
    if not rest:
        return Step(m("step.luanwu_to"), [seat_opt(state, x, seat) for x in targets])
    if len(rest) != 1 or ascii_int(rest[0]) not in targets:
        raise EngineError("sanguosha.err.illegal")
    return Step(prompt_, [], complete=True)


STEPS["luanwu"] = _luanwu_step


# 帷幕 (国战): when you become a target of a black trick, it is cancelled for you ---------------

def _black_trick(ev: Ev) -> bool:
    try:
        return ev["color"] == "black" and kind_of(ev["name"]) in ("trick", "delayed")
    except KeyError:
        return False


@HG.on("use_declared", "hg_weimu", priority=30,
       can=lambda ctx, ev: _black_trick(ev) and any(R.has_skill(ctx.state, t, "hg_weimu") for t in ev["targets"]))
def _weimu(ctx: Ctx, ev: Ev) -> None:
    for t in sorted({t for t in ev["targets"] if R.has_skill(ctx.state, t, "hg_weimu")}):
        ev["targets"] = [x for x in ev["targets"] if x != t]
        say(ctx, "hg_weimu", who=who(t), card=cname(ev["name"]))


# 鞬出: after your 杀 targets a seat, discard one of its cards: equipment → no 闪; else it takes the 杀

PICK_NO_JUDGE.add("jianchu")


@optional("sha_effect", "jianchu", "user", priority=24, default_yes=False, pack=HG,
          can=lambda ctx, ev: R.has_cards(ctx.state, ev["target"], judge=False),
          info=lambda ctx, ev: {"target": ev["target"]})
def _jianchu(ctx: Ctx, f: Frame, ev: Ev) -> None:
    ctx.push("jianchu", seat=f["seat"], target=ev["target"], st="start")


@HG.kind("jianchu")
def _jianchu_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        if not R.has_cards(s, f["target"], judge=False):
            ctx.pop(f)
            return
        f["st"] = "picked"
        ctx.ask(f, [f["seat"]], "pick", info={"target": f["target"], "why": "jianchu"})
        return
    cid = take_chosen(ctx, f["seat"], f["target"], ctx.take(f, "reply")["action"][0], to_hand=False)
    opt = ctx.below(f)
    assert opt is not None
    trigger = ctx.below(opt)
    assert trigger is not None
    ev = trigger["ev"]
    if card(cid).type == "equip":
        ev["need"] = 0
        say(ctx, "jianchu_hit", who=who(f["target"]))
    elif R.alive(s, f["target"]):
        got = [c for c in ev["cards"] if c in s["proc"]]
        if got:
            R.to_hand(s, f["target"], got)
            say(ctx, "gain", who=who(f["target"]), cards=" ".join(R.card_label(c) for c in got))
    ctx.pop(f)


# 雷击: when you use or play a 闪, another seat judges; ♠ → 2 thunder damage from you ----------

@HG.on("card_played", "leiji", priority=5,
       can=lambda ctx, ev: (ev["name"] == "shan" and R.has_skill(ctx.state, ev["seat"], "leiji", hidden=True)
                            and len(R.living(ctx.state)) > 1))
def _leiji(ctx: Ctx, ev: Ev) -> None:
    ctx.push("leiji", seat=ev["seat"], st="start")


ASK_SKILL["leiji"] = "leiji"


@HG.kind("leiji")
def _leiji_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        _ask_seats(ctx, f, f["seat"], "leiji")
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"] or not R.alive(s, int(action[0])):
            ctx.pop(f)
            return
        f["target"] = int(action[0])
        announce(ctx, f["seat"], "leiji")
        R.note_act(s, f["seat"], f["target"], 1)
        f["st"] = "judged"
        ctx.push("judge", seat=f["target"], why="leiji", st="start")
        return
    if f["st"] == "judged":
        judged = ctx.take(f)
        if judged is not None and card(judged).suit == "S" and R.alive(s, f["target"]):
            f["st"] = "end"
            ctx.push("damage", src=f["seat"], dst=f["target"], n=2, via="leiji", cards=[], nature="thunder",
                     st="start")
            return
    ctx.take(f)
    ctx.pop(f)


STEPS["leiji"] = lambda state, seat, path, ask: _seats_step(
    state, seat, path, [x for x in R.others_from(state, seat)], "step.leiji")


# 鬼道: before a judgement takes effect, play a black card to replace it and take the old one ---

def _black_cards(state: State, seat: int) -> list[str]:
    return [c for c in _cards_he(state, seat) if not card(c).red]


@HG.on("judge_retouch", "guidao", priority=9,
       can=lambda ctx, ev: bool(skills_wei.retouch_seats(ctx.state, "guidao", _black_cards)))
def _guidao(ctx: Ctx, ev: Ev) -> None:
    ctx.push("guidao", seats=skills_wei.retouch_seats(ctx.state, "guidao", _black_cards), st="start")


ASK_SKILL["guidao"] = "guidao"


@HG.kind("guidao")
def _guidao_frame(ctx: Ctx, f: Frame) -> None:
    skills_wei.retouch(ctx, f, "guidao", _black_cards, keep_old=True)


STEPS["guidao"] = skills_wei.retouch_step("guidao", _black_cards)


# 悲歌: a seat took 杀 damage; discard a card, it judges: ♥ heal, ♦ draw 2, ♣ source discards 2, ♠ source 叠置

def _beige_seats(state: State) -> list[int]:
    return [x for x in R.living(state, state["turn"] if state["turn"] is not None else 0)
            if R.has_skill(state, x, "beige", hidden=True) and R.has_cards(state, x, judge=False)]


@HG.on("damage_done", "beige", priority=-5,
       can=lambda ctx, ev: ev["via"] == "sha" and R.alive(ctx.state, ev["dst"]) and bool(_beige_seats(ctx.state)))
def _beige(ctx: Ctx, ev: Ev) -> None:
    ctx.push("beige", seats=_beige_seats(ctx.state), dst=ev["dst"], src=ev["src"], st="next")


ASK_SKILL["beige"] = "beige"


@HG.kind("beige")
def _beige_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    dst, src = f["dst"], f["src"]
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action != ["pass"] and R.alive(s, dst):
            seat = f["asked"]
            announce(ctx, seat, "beige")
            R.to_discard(s, [action[0]])
            say(ctx, "discard", who=who(seat), cards=R.card_label(action[0]))
            f["st"] = "judged"
            ctx.push("judge", seat=dst, why="beige", st="start")
            return
        f["st"] = "next"
    elif f["st"] == "judged":
        judged = ctx.take(f)
        f["st"] = "next"
        suit = card(judged).suit if judged is not None else ""
        if suit == "H":
            recover(ctx, dst, 1, f["asked"])
        elif suit == "D" and R.alive(s, dst):
            R.draw(ctx, dst, 2)
        elif suit == "C" and src is not None and R.alive(s, src):
            discard_n(ctx, src, 2, "beige")
            return
        elif suit == "S" and src is not None and R.alive(s, src):
            R.turn_over(ctx, src)
    ctx.take(f)
    while f["seats"] and R.alive(s, dst):
        seat = f["seats"].pop(0)
        if R.alive(s, seat) and R.has_cards(s, seat, judge=False):
            f["asked"], f["st"] = seat, "asked"
            ctx.ask(f, [seat], "beige", default=PASS, short=True, window=True, info={"dst": dst, "src": src})
            return
    ctx.pop(f)


def _beige_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [card_opt(c) for c in _cards_he(state, seat)] + [Option("pass", m("opt.pass"))]
    return choose_one(m("step.beige"), opts, path)


STEPS["beige"] = _beige_step


# -- a forced discard of n cards, hand or equipment (悲歌's ♣, 狂斧's miss) ------------------------

def discard_n(ctx: Ctx, seat: int, n: int, why: str) -> None:
    """``seat`` discards ``n`` of its cards (all it has when fewer), choosing which."""
    ctx.push("hg_discard", seat=seat, n=n, why=why, st="start")


@HG.kind("hg_discard")
def _discard_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat = f["seat"]
    mine = _cards_he(s, seat)
    if f["st"] == "start":
        k = min(f["n"], len(mine))
        if k == 0 or not R.alive(s, seat):
            ctx.pop(f)
            return
        f["st"] = "asked"
        ctx.ask(f, [seat], "hg_discard", default=tuple(mine[:k]), short=True, window=True,
                info={"n": k, "why": f["why"]})
        return
    cids = [c for c in ctx.take(f, "reply")["action"] if c in mine]
    R.to_discard(s, cids)
    say(ctx, "discard", who=who(seat), cards=" ".join(R.card_label(c) for c in cids))
    ctx.pop(f)


def _discard_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    mine = _cards_he(state, seat)
    n = ask.info["n"]
    if len(set(path)) != len(path) or any(c not in mine for c in path) or len(path) > n:
        raise EngineError("sanguosha.err.illegal")
    prompt_ = m("step.discard", n=n - len(path))
    if len(path) == n:
        return Step(prompt_, [], complete=True)
    return Step(prompt_, [card_opt(c) for c in mine if c not in path])


STEPS["hg_discard"] = _discard_step


# 断肠 (国战): the killer loses the skills of one of its heroes -----------------------------------

def _had_skill(state: State, seat: int, skill: str) -> bool:
    """A seat that just died still had ``skill`` (shown, or on a hero shown at death)."""
    from engines.sanguosha.heroes import hero

    p = state["players"][seat]
    return skill in p.get("skills", ()) or any(skill in hero(h["id"]).skills for h in p.get("heroes", ()))


@HG.on("death", "hg_duanchang",
       can=lambda ctx, ev: (_had_skill(ctx.state, ev["seat"], "hg_duanchang") and ev["src"] is not None
                            and ev["src"] != ev["seat"] and R.alive(ctx.state, ev["src"])))
def _duanchang(ctx: Ctx, ev: Ev) -> None:
    s = ctx.state
    killer = ev["src"]
    heroes = s["players"][killer].get("heroes")
    choices = [i for i, h in enumerate(heroes) if not h.get("lost")] if heroes else [0]
    ctx.push("hg_duanchang", seat=ev["seat"], killer=killer, choices=choices, st="start")


@HG.kind("hg_duanchang")
def _duanchang_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        if len(f["choices"]) > 1:
            f["st"] = "asked"
            ctx.ask(f, [f["seat"]], "hg_duanchang", default=(str(f["choices"][0]),), short=True, window=True,
                    info={"killer": f["killer"], "choices": f["choices"]})
            return
        f["reply"] = {"seat": f["seat"], "action": [str(c) for c in f["choices"][:1]]}
    action = ctx.take(f, "reply")["action"]
    kp = s["players"][f["killer"]]
    announce(ctx, f["seat"], "hg_duanchang")
    if "heroes" in kp and action:
        kp["heroes"][int(action[0])]["lost"] = True
        R.refresh_heroes(s, f["killer"])
    elif "heroes" not in kp:
        kp["skills"] = []
    say(ctx, "hg_duanchang", who=who(f["killer"]))
    ctx.pop(f)


def _duanchang_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    killer = state["players"][ask.info["killer"]]
    opts = [Option(str(i), m("opt.qun_hero", hero=_hero_label(killer, i))) for i in ask.info["choices"]]
    return choose_one(m("step.hg_duanchang"), opts, path)


def _hero_label(p: dict[str, Any], i: int) -> dict[str, Any]:
    """A seat's hero ``i`` as the table may name it: its name once shown, else main/deputy."""
    h = p["heroes"][i]
    return key_ref(f"sanguosha.hero.{h['id']}") if h["shown"] else key_ref(f"sanguosha.opt.qun_{('main', 'deputy')[i]}")


STEPS["hg_duanchang"] = _duanchang_step


# 雄异: 限定技, every seat of your kingdom draws 3; the smallest kingdom also heals you 1 ---------

def _kingdom_sizes(state: State) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for x in R.living(state):
        k = R.kingdom(state, x)
        if k is not None:
            sizes[k] = sizes.get(k, 0) + 1
    return sizes


def _xiongyi_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    s = ctx.state
    _spend_limited(s, seat, "xiongyi")
    announce(ctx, seat, "xiongyi")
    for x in R.living(s, seat):
        if x == seat or R.same_kingdom(s, x, seat):
            R.draw(ctx, x, 3)
    sizes = _kingdom_sizes(s)
    mine = R.kingdom(s, seat)
    if R.alive(s, seat) and mine is not None and sizes.get(mine, 0) <= min(sizes.values()):
        recover(ctx, seat, 1, seat)


active(Active("xiongyi", lambda s, seat: not _limited_used(s, seat, "xiongyi"),
              _go("step.xiongyi_go"), _xiongyi_start), pack=HG)


# 名士: damage from a source with a hero face down is 1 less ------------------------------------

@HG.on("damage_inflicted", "mingshi", priority=-5,
       can=lambda ctx, ev: (R.has_skill(ctx.state, ev["dst"], "mingshi") and ev["src"] is not None
                            and _has_hidden(ctx.state, ev["src"])))
def _mingshi(ctx: Ctx, ev: Ev) -> None:
    ev["n"] -= 1
    say(ctx, "mingshi", who=who(ev["dst"]))


# 礼让: your cards discarded to the pile may be given to other seats ----------------------------

def _lirang_cards(state: State, ev: Ev, seat: int) -> list[str]:
    return [c for c, (owner, zone) in zip(ev["cards"], ev["from"], strict=False)
            if owner == seat and zone in ("hand", "equip") and c in state["discard"]]


def _lirang_can(ctx: Ctx, ev: Ev) -> bool:
    s = ctx.state
    if ev["reason"] != "discard" or list(ev["to"]) != [None, "discard"] or len(R.living(s)) < 2:
        return False
    return any(R.has_skill(s, x, "lirang", hidden=True) and _lirang_cards(s, ev, x) for x in {o for o, _ in ev["from"]}
               if x is not None)


@HG.on("cards_moved", "lirang", can=_lirang_can)
def _lirang(ctx: Ctx, ev: Ev) -> None:
    s = ctx.state
    for x in sorted({o for o, _ in ev["from"] if o is not None}):
        if R.has_skill(s, x, "lirang", hidden=True) and _lirang_cards(s, ev, x):
            ctx.push("lirang", seat=x, cards=_lirang_cards(s, ev, x), used=False, st="start")
            return


ASK_SKILL["lirang"] = "lirang"


@HG.kind("lirang")
def _lirang_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat = f["seat"]
    if "reply" in f:
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        target, given = int(action[0]), [c for c in action[1:] if c in s["discard"]]
        if not f["used"]:
            announce(ctx, seat, "lirang")
            f["used"] = True
        R.to_hand(s, target, given, reason="give")
        R.note_act(s, seat, target, -1)
        say(ctx, "gain", who=who(target), cards=" ".join(R.card_label(c) for c in given))
    f["cards"] = [c for c in f["cards"] if c in s["discard"]]
    if not f["cards"] or not R.alive(s, seat) or len(R.living(s)) < 2:
        ctx.pop(f)
        return
    ctx.ask(f, [seat], "lirang", default=PASS, short=True, window=True, info={"cards": f["cards"]})


def _lirang_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """Pass, or a seat then at least one of the cards (complete from the first card on)."""
    others = R.others_from(state, seat)
    if not path:
        return Step(m("step.lirang_to"), [seat_opt(state, x, seat) for x in others] + [Option("pass", m("opt.pass"))])
    if path == ["pass"]:
        return Step(m("step.lirang_to"), [], complete=True)
    pool = [c for c in ask.info["cards"] if c in state["discard"]]
    picked = path[1:]
    if ascii_int(path[0]) not in others or len(set(picked)) != len(picked) or any(c not in pool for c in picked):
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.lirang_cards"), [card_opt(c) for c in pool if c not in picked], complete=bool(picked))


STEPS["lirang"] = _lirang_step


# 双刃: at the start of your play phase, 拼点; win → a free 杀 on it or its kingdom; lose → no other targets

@HG.on("phase_start", "shuangren", priority=5,
       can=lambda ctx, ev: (ev["phase"] == "play" and not ev["skip"]
                            and R.has_skill(ctx.state, ev["seat"], "shuangren", hidden=True)
                            and bool(ctx.state["players"][ev["seat"]]["hand"]) and bool(_contestants(ctx.state, ev["seat"]))))
def _shuangren(ctx: Ctx, ev: Ev) -> None:
    ctx.push("shuangren", seat=ev["seat"], st="start")


def _contestants(state: State, seat: int) -> list[int]:
    return [x for x in R.others_from(state, seat) if state["players"][x]["hand"]]


def _shuangren_victims(state: State, seat: int, target: int) -> list[int]:
    return [x for x in R.others_from(state, seat)
            if (x == target or R.same_kingdom(state, x, target)) and R.in_range(state, seat, x)
            and R.can_target(state, seat, x, "sha")]


ASK_SKILL["shuangren"] = "shuangren"


@HG.kind("shuangren")
def _shuangren_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat = f["seat"]
    if f["st"] == "start":
        f["st"] = "asked"
        _ask_seats(ctx, f, seat, "shuangren")
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        f["target"] = int(action[0])
        announce(ctx, seat, "shuangren")
        f["st"] = "contest"
        pindian.pindian(ctx, seat, f["target"], "shuangren")
        return
    if f["st"] == "contest":
        won = ctx.take(f)
        if won is None:
            ctx.pop(f)
            return
        if not won:
            R.bump(s, "shuangren_lost")
            say(ctx, "shuangren_lost", who=who(seat))
            ctx.pop(f)
            return
        victims = _shuangren_victims(s, seat, f["target"])
        if not victims or not R.alive(s, seat):
            ctx.pop(f)
            return
        f["st"] = "chosen"
        if len(victims) > 1:
            ctx.ask(f, [seat], "shuangren_sha", default=(str(victims[0]),), short=True, window=True,
                    info={"victims": victims})
            return
        f["reply"] = {"seat": seat, "action": [str(victims[0])]}
    if f["st"] == "chosen":
        victim = int(ctx.take(f, "reply")["action"][0])
        f["st"] = "end"
        push_use(ctx, seat, "sha", [], [victim], count=False)
        return
    ctx.take(f)
    ctx.pop(f)


STEPS["shuangren"] = lambda state, seat, path, ask: _seats_step(
    state, seat, path, _contestants(state, seat), "step.shuangren")


def _shuangren_sha_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    return choose_one(m("step.shuangren_sha"), [seat_opt(state, x, seat) for x in ask.info["victims"]], path)


STEPS["shuangren_sha"] = _shuangren_sha_step


@HG.modifier("targetable", "shuangren")
def _shuangren_alone(state: State, ok: bool, args: dict[str, Any]) -> bool:
    """双刃 lost: this turn no other seat is a legal target of the loser's cards."""
    if ok and R.flag(state, "shuangren_lost") and args["user"] == state["turn"] and args["target"] != args["user"]:
        return False
    return ok


@HG.on("use_declared", "shuangren", priority=35,
       can=lambda ctx, ev: (R.flag(ctx.state, "shuangren_lost") > 0 and ev["user"] == ctx.state["turn"]
                            and any(t != ev["user"] for t in ev["targets"])))
def _shuangren_no_aoe(ctx: Ctx, ev: Ev) -> None:
    """The cards that name their own targets (南蛮入侵, 桃园结义 …) lose the others as well."""
    ev["targets"] = [t for t in ev["targets"] if t == ev["user"]]


# 死谏: when you lose your last hand card, you may discard a card of another seat -------------

R.WATCH["hand_empty"].add("sijian")
PICK_NO_JUDGE.add("sijian")


def _sijian_targets(state: State, seat: int) -> list[int]:
    return [x for x in R.others_from(state, seat) if R.has_cards(state, x, judge=False)]


@HG.on("hand_empty", "sijian",
       can=lambda ctx, ev: (R.has_skill(ctx.state, ev["seat"], "sijian", hidden=True)
                            and not ctx.state["players"][ev["seat"]]["hand"] and bool(_sijian_targets(ctx.state, ev["seat"]))))
def _sijian(ctx: Ctx, ev: Ev) -> None:
    ctx.push("sijian", seat=ev["seat"], st="start")


ASK_SKILL["sijian"] = "sijian"


@HG.kind("sijian")
def _sijian_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        _ask_seats(ctx, f, f["seat"], "sijian")
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        target = ascii_int(action[0])
        if action == ["pass"] or target is None or not R.has_cards(s, target, judge=False):
            ctx.pop(f)
            return
        announce(ctx, f["seat"], "sijian")
        f["target"], f["st"] = target, "picked"
        ctx.ask(f, [f["seat"]], "pick", info={"target": target, "why": "sijian"})
        return
    take_chosen(ctx, f["seat"], f["target"], ctx.take(f, "reply")["action"][0], to_hand=False)
    R.note_act(s, f["seat"], f["target"], 1)
    ctx.pop(f)


STEPS["sijian"] = lambda state, seat, path, ask: _seats_step(
    state, seat, path, _sijian_targets(state, seat), "step.sijian")


# 随势: an ally's damage brings another seat to dying → draw 1; an ally dies → lose 1 HP ---------

def _suishi_owners(state: State, other: int | None, of: int) -> list[int]:
    """Living 随势 owners (shown) other than ``of`` of the same kingdom as ``other``."""
    if other is None:
        return []
    return [x for x in R.living(state) if x != of and R.has_skill(state, x, "suishi") and R.same_kingdom(state, other, x)]


@HG.on("dying", "suishi", can=lambda ctx, ev: bool(_suishi_owners(ctx.state, ev["src"], ev["seat"])))
def _suishi_draw(ctx: Ctx, ev: Ev) -> None:
    for x in _suishi_owners(ctx.state, ev["src"], ev["seat"]):
        announce(ctx, x, "suishi")
        R.draw(ctx, x, 1)


@HG.on("death", "suishi", can=lambda ctx, ev: bool(_suishi_owners(ctx.state, ev["seat"], ev["seat"])))
def _suishi_lose(ctx: Ctx, ev: Ev) -> None:
    for x in reversed(_suishi_owners(ctx.state, ev["seat"], ev["seat"])):
        announce(ctx, x, "suishi")
        ctx.push("lose_hp", seat=x, n=1, st="start")


# 狂斧: once per play phase, your 杀 targets a seat: take one of its equipped cards; no damage → discard 2

def _equipped(state: State, seat: int) -> list[str]:
    return [c for c in state["players"][seat]["equip"].values() if c]


@HG.on("sha_effect", "kuangfu", priority=23,
       can=lambda ctx, ev: (R.has_skill(ctx.state, ev["user"], "kuangfu", hidden=True) and ctx.state["phase"] == "play"
                            and ctx.state["turn"] == ev["user"] and not R.flag(ctx.state, "kuangfu")
                            and bool(_equipped(ctx.state, ev["target"]))))
def _kuangfu(ctx: Ctx, ev: Ev) -> None:
    ctx.push("kuangfu", seat=ev["user"], target=ev["target"], st="start")


ASK_SKILL["kuangfu"] = "kuangfu"


@HG.kind("kuangfu")
def _kuangfu_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        _ask_seats(ctx, f, f["seat"], "kuangfu", target=f["target"])
        return
    action = ctx.take(f, "reply")["action"]
    if action != ["pass"] and action[0] in _equipped(s, f["target"]):
        announce(ctx, f["seat"], "kuangfu")
        R.bump(s, "kuangfu")
        s["tflags"]["kuangfu_armed"], s["tflags"]["kuangfu_hit"] = 1, 0
        take_chosen(ctx, f["seat"], f["target"], action[0], to_hand=True)
        R.note_act(s, f["seat"], f["target"], 1)
    ctx.pop(f)


def _kuangfu_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [card_opt(c) for c in _equipped(state, ask.info["target"])] + [Option("pass", m("opt.pass"))]
    return choose_one(m("step.kuangfu"), opts, path)


STEPS["kuangfu"] = _kuangfu_step


@HG.on("damage_inflicted", "kuangfu_hit", priority=-100,
       can=lambda ctx, ev: (ev["via"] == "sha" and ev["n"] > 0 and not ev.get("cancel")
                            and R.flag(ctx.state, "kuangfu_armed") > 0 and ev["src"] == ctx.state["turn"]))
def _kuangfu_hit(ctx: Ctx, ev: Ev) -> None:
    ctx.state["tflags"]["kuangfu_hit"] = 1


@HG.on("use_finished", "kuangfu_miss",
       can=lambda ctx, ev: (ev["name"] == "sha" and ev["user"] == ctx.state["turn"]
                            and R.flag(ctx.state, "kuangfu_armed") > 0))
def _kuangfu_miss(ctx: Ctx, ev: Ev) -> None:
    s = ctx.state
    s["tflags"]["kuangfu_armed"] = 0
    if not R.flag(s, "kuangfu_hit") and R.alive(s, ev["user"]):
        discard_n(ctx, ev["user"], 2, "kuangfu")


# 祸水: in your turn the others may not show heroes; your 杀 / 万箭齐发 cannot be answered by a
# seat of another kingdom with a hero face down -------------------------------------------------

@HG.modifier("may_reveal", "huoshui")
def _huoshui_reveal(state: State, ok: bool, args: dict[str, Any]) -> bool:
    turn = state["turn"]
    if ok and turn is not None and args["seat"] != turn and R.has_skill(state, turn, "huoshui"):
        return False
    return ok


def _huoshui_bars(ctx: Ctx, ev: Ev) -> bool:
    s = ctx.state
    need = ctx.stack[-2] if len(ctx.stack) >= 2 else {}
    reason = need.get("reason", {}) if need.get("k") == "need" else {}
    user = reason.get("user")
    return (reason.get("card") in ("sha", "wanjian") and user is not None and user == s["turn"]
            and R.has_skill(s, user, "huoshui") and _has_hidden(s, ev["seat"])
            and not R.same_kingdom(s, ev["seat"], user))


@HG.on("before_need", "huoshui", priority=50, can=_huoshui_bars)
def _huoshui(ctx: Ctx, ev: Ev) -> None:
    ev["barred"] = True


# 倾城: discard a black card, turn a hero of a fully shown seat face down (an equipment card: a second seat)

def _qingcheng_targets(state: State, seat: int, exclude: list[int]) -> list[int]:
    return [x for x in R.others_from(state, seat) if x not in exclude
            and len(state["players"][x].get("heroes", ())) == 2 and all(h["shown"] for h in state["players"][x]["heroes"])]


def _qingcheng_step(state: State, seat: int, path: list[str]) -> Step:
    mine = _black_cards(state, seat)
    if not path:
        return Step(m("step.qingcheng_card"), [card_opt(c) for c in mine])
    if path[0] not in mine:
        raise EngineError("sanguosha.err.illegal")
    rest, chosen = path[1:], []
    while True:
        cands = _qingcheng_targets(state, seat, chosen)
        done = len(chosen) == 1 and not rest
        if not rest:
            if chosen and (card(path[0]).type != "equip" or len(chosen) == 2):
                return Step(m("step.qingcheng_to"), [], complete=True)
            return Step(m("step.qingcheng_to"), [seat_opt(state, x, seat) for x in cands], complete=done)
        t = ascii_int(rest[0])
        if t not in cands or len(chosen) == 2:
            raise EngineError("sanguosha.err.illegal")
        heroes = state["players"][t]["heroes"]
        if len(rest) == 1:
            return Step(m("step.qingcheng_hero"),
                        [Option(str(i), m("opt.qun_hero", hero=key_ref(f"sanguosha.hero.{h['id']}")))
                         for i, h in enumerate(heroes)])
        if rest[1] not in ("0", "1"):
            raise EngineError("sanguosha.err.illegal")
        chosen.append(t)  # type: ignore[arg-type]
        rest = rest[2:]


def _qingcheng_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    s = ctx.state
    announce(ctx, seat, "qingcheng")
    R.to_discard(s, path[:1])
    say(ctx, "discard", who=who(seat), cards=R.card_label(path[0]))
    for i in range(1, len(path) - 1, 2):
        target, index = int(path[i]), int(path[i + 1])
        R.note_act(s, seat, target, 1)
        R.hide(ctx, target, index)


active(Active("qingcheng", lambda s, seat: bool(_black_cards(s, seat)) and bool(_qingcheng_targets(s, seat, [])),
              _qingcheng_step, _qingcheng_start), pack=HG)


# -- question texts --------------------------------------------------------------------------------

@prompt("hg_luanji_draw")
def _p_luanji(info: dict[str, Any]) -> Any:
    return m("req.hg_luanji_draw", user=who(info["user"]))


@prompt("luanwu")
def _p_luanwu(info: dict[str, Any]) -> Any:
    return m("req.luanwu", user=who(info["user"]))



@prompt("guidao")
def _p_guidao(info: dict[str, Any]) -> Any:
    return m("req.guidao", who=who(info["seat"]), card=cname(card(info["card"]).name), sr=R.card_label(info["card"]))


@prompt("beige")
def _p_beige(info: dict[str, Any]) -> Any:
    return m("req.beige", who=who(info["dst"]))


@prompt("hg_discard")
def _p_discard(info: dict[str, Any]) -> Any:
    return m("req.hg_discard", n=info["n"], skill=skill_ref(info["why"]))


@prompt("hg_duanchang")
def _p_duanchang(info: dict[str, Any]) -> Any:
    return m("req.hg_duanchang", who=who(info["killer"]))


@prompt("lirang")
def _p_lirang(info: dict[str, Any]) -> Any:
    return m("req.lirang", cards=" ".join(R.card_label(c) for c in info["cards"]))





@prompt("kuangfu")
def _p_kuangfu(info: dict[str, Any]) -> Any:
    return m("req.kuangfu", who=who(info["target"]))


# -- the AI's hints for these skills (read the seat's own view only; see ai.py) ------------------

def _cheap(s: Seat, cards: list[str], limit: int = 6) -> list[str]:
    """``cards`` of the seat's hand worth less than ``limit``, least worth first."""
    return [c for c in _discard_order(s.hand) if c in cards and value(s.hand[c]) < limit]


@play_hint("chuli")
def _chuli_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """除疠: a weak card of ours (a ♠ one draws back) against up to three enemies."""
    try:
        cheap = _cheap(s, s.options(pre))
        if not cheap:
            return None
        own = next((c for c in cheap if card(c).suit == "S"), cheap[0])
        path = [*pre, own]
        for _ in range(3):
            cand = [t for t in s.targets(path) if s.mind.enemy(t)]
            if not cand:
                break
            path.append(str(max(cand, key=lambda x: (s.mind.enemy_score(x), -x))))
    except Exception:  # noqa: BLE001
        return None
    hits = len(path) - len(pre) - 1
    return (2.5 + hits, path) if hits and _valid(s, path) else None


play_hint("hg_lijian")(skills_qun._lijian)  # two enemies duel: which of them starts does not change the choice


@play_hint("hg_luanji")
def _luanji_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """乱击: the two weakest allowed hand cards as a 万箭齐发, when the volley is worth it."""
    try:
        first = _cheap(s, s.options(pre))
        if not first:
            return None
        second = _cheap(s, s.options([*pre, first[0]]))
        if not second:
            return None
        path = [*pre, first[0], second[0]]
        got = PLAY_HINTS["wanjian"](s, path, "wanjian")
    except Exception:  # noqa: BLE001
        return None
    if got is None or not _valid(s, path):
        return None
    return got[0] - (value(s.hand[first[0]]) + value(s.hand[second[0]])) / 8, path


def _shuangxiong_choice(s: Seat) -> list[str]:
    """双雄: give up the draw for one card and a duel maker, with a hand to duel with and an enemy."""
    enemies = any(s.mind.enemy(t) for t in s.mind.alive if t != s.seat)
    return ["yes"] if enemies and len(s.hand) >= 2 else ["pass"]


SKILL_CHOICE["shuangxiong"] = _shuangxiong_choice


@play_hint("luanwu")
def _luanwu_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """乱武: when enemies clearly outnumber friends among the others (each of them must strike
    someone or lose HP)."""
    others = [t for t in s.mind.alive if t != s.seat]
    enemies = sum(1 for t in others if s.mind.enemy(t))
    friends = sum(1 for t in others if s.mind.friend(t))
    if enemies >= 2 and enemies > friends + 1 and s.mind.hp(s.seat) >= 2:
        return (3.0, pre) if _valid(s, pre) else None
    return None


@ask_hint("luanwu")
def _luanwu_answer(s: Seat) -> list[str]:
    """乱武 makes us strike: a hand 杀 on an enemy (the one most worth hitting); on a non-friend
    when none; at 1 HP even on a friend rather than lose the last point."""
    shas = [o for o in s.options([]) if o in s.hand]
    if not shas:
        return ["pass"]
    sha = min(shas, key=lambda c: (value(s.hand[c]), c))
    targets = s.targets([sha])
    for pool in ([t for t in targets if s.mind.enemy(t)], [t for t in targets if not s.mind.friend(t)],
                 targets if s.mind.hp(s.seat) <= 1 else []):
        if pool:
            return [sha, str(max(pool, key=lambda t: (_worth_hitting(s, t), -t)))]
    return ["pass"]


def _on_enemy(s: Seat) -> list[str]:
    """A skill aimed at the question's ``target``: only on an enemy."""
    target = s.ask.info.get("target")
    return ["yes"] if target is not None and s.mind.enemy(target) else ["pass"]


SKILL_CHOICE["jianchu"] = _on_enemy


@ask_hint("leiji")
def _leiji_hint(s: Seat) -> list[str]:
    """雷击: the enemy most worth 2 damage."""
    cands = [t for t in s.targets([]) if s.mind.enemy(t)]
    if not cands:
        return ["pass"]
    return [str(max(cands, key=lambda t: (_worth_hitting(s, t, 2.0), -t)))]


JUDGE_GOOD["leiji"] = lambda c: card(c).suit != "S"  # the judged seat escapes unless ♠
JUDGE_GOOD["shuangxiong"] = lambda c: True
ask_hint("guidao")(skills_wei._guicai)  # the same judgement of which card helps whom


@ask_hint("beige")
def _beige_hint(s: Seat) -> list[str]:
    """悲歌: a weak card for a hurt friend (or ourselves) against a source that is no friend."""
    dst, src = s.ask.info["dst"], s.ask.info.get("src")
    if not (dst == s.seat or s.mind.friend(dst)) or (src is not None and src != s.seat and s.mind.friend(src)):
        return ["pass"]
    cheap = _cheap(s, s.responses(), 6)
    return [cheap[0]] if cheap else ["pass"]


@ask_hint("hg_discard")
def _discard_hint(s: Seat) -> list[str]:
    """A forced discard: the least worth hand cards, then equipment."""
    n = s.ask.info["n"]
    mine = s.options([])
    order = [c for c in _discard_order(s.hand) if c in mine] + [c for c in mine if c not in s.hand]
    return order[:n]


@ask_hint("hg_duanchang")
def _duanchang_hint(s: Seat) -> list[str]:
    """断肠: a shown hero's skills (known to be there) — the first offered one."""
    return [s.options([])[0]]


@ask_hint("lirang")
def _lirang_hint(s: Seat) -> list[str]:
    """礼让: every discarded card to the surest friend; none without a friend."""
    friend = _best_friend(s, s.targets([]))
    if friend is None:
        return ["pass"]
    return [str(friend), *[c for c in s.ask.info["cards"] if c in s.options([str(friend)])]]


@ask_hint("shuangren")
def _shuangren_hint(s: Seat) -> list[str]:
    """双刃: with a card of rank 10 or more, contest the enemy with the fewest hand cards."""
    if not any(card(c).rank >= 10 for c in s.hand):
        return ["pass"]
    cands = [t for t in s.targets([]) if s.mind.enemy(t)]
    if not cands:
        return ["pass"]
    return [str(min(cands, key=lambda t: (s.mind.player(t)["hand"], t)))]


@ask_hint("shuangren_sha")
def _shuangren_sha_hint(s: Seat) -> list[str]:
    cands = s.targets([])
    return [str(max(cands, key=lambda t: (_worth_hitting(s, t), -t)))] if cands else fallback(s)


@ask_hint("sijian")
def _sijian_hint(s: Seat) -> list[str]:
    """死谏: a card of the enemy with the most cards."""
    cands = [t for t in s.targets([]) if s.mind.enemy(t)]
    if not cands:
        return ["pass"]
    def cards_of(t: int) -> int:
        p = s.mind.player(t)
        return int(p["hand"]) + sum(1 for c in p.get("equip", {}).values() if c)
    return [str(max(cands, key=lambda t: (cards_of(t), -t)))]


@ask_hint("kuangfu")
def _kuangfu_hint(s: Seat) -> list[str]:
    """狂斧: an enemy's best equipped card (two cards are at stake if the 杀 misses)."""
    target = s.ask.info["target"]
    opts = [o for o in s.options([]) if o != "pass"]
    if not opts or not s.mind.enemy(target) or len(s.hand) < 2:
        return ["pass"]
    return [max(opts, key=lambda c: (value(card(c).name), c))]


@play_hint("xiongyi")
def _xiongyi_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """雄异: once, when the hand is short (or HP is down) and cards are needed."""
    me = s.me()
    if len(s.hand) <= 1 or me["hp"] < me["max"] - 1:
        return (4.0, pre) if _valid(s, pre) else None
    return None


@play_hint("qingcheng")
def _qingcheng_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """倾城: a weak black card to turn an enemy's main hero face down."""
    try:
        cheap = [c for c in _cheap(s, s.options(pre), 5) if card(c).type != "equip"]
        if not cheap:
            return None
        cands = [t for t in s.targets([*pre, cheap[0]]) if s.mind.enemy(t)]
    except Exception:  # noqa: BLE001
        return None
    if not cands:
        return None
    path = [*pre, cheap[0], str(max(cands, key=lambda t: (s.mind.enemy_score(t), -t))), "0"]
    return (3.0, path) if _valid(s, path) else None
