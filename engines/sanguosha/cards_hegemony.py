"""The 国战 (hegemony) deck's cards that the standard deck lacks, each defined once
(:class:`cards.CardDef`): 酒, 铁索连环, 火攻, 兵粮寸断, 知己知彼, 以逸待劳, 远交近攻, 无懈可击·国
and the hegemony equipment's definitions (what an item does: ``equipment_hegemony.py``). 火杀 and
雷杀 are no kinds of their own: they are 杀 with a damage nature (``data.Card.nature``), so every
rule, answer and skill that counts or converts a 杀 sees one (docs/rules/sanguosha-hegemony-deck.md).

The asks these cards make (kind → token walk in ``choices.STEPS``, request text in
``views.PROMPTS``) and what only they need on the flow (酒's +1, the answers 无懈可击·国 and 酒
give) are registered here; the flow part lives in :data:`packs.CARDS_HEGEMONY`, which identity
mode does not install.
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Msg, Option, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.cards import CardDef, define
from engines.sanguosha.choices import PASS_OPT, STEPS, card_opt, choose_one
from engines.sanguosha.data import card
from engines.sanguosha.frames import _done, ask_window
from engines.sanguosha.packs import CARDS_HEGEMONY
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.views import prompt

State = dict[str, Any]
Frame = dict[str, Any]


def _self(state: State, seat: int) -> list[int]:
    return [seat]


def _one(pick: Any) -> Any:
    """A single-target card whose candidates ``pick(state, seat, cids, others)`` may include the
    user itself (火攻) or depend on the card used."""
    def targets(state: State, seat: int, cids: list[str], chosen: list[int],
                others: list[int]) -> tuple[list[int], bool]:
        return ([], True) if chosen else (pick(state, seat, cids, others), False)
    return targets


def _with_self(state: State, seat: int, others: list[int], name: str) -> list[int]:
    """``others`` with the user first when it may target itself."""
    return ([seat] if R.can_target(state, seat, seat, name) else []) + others


# -- 酒 ------------------------------------------------------------------------------------------
# 出牌阶段对自己使用（每回合限一次）：本回合使用的下一张【杀】伤害基数 +1；濒死时对自己使用：回复 1 点体力。

def _eff_jiu(ctx: Ctx, f: Frame) -> None:
    R.bump(ctx.state, "jiu")
    R.bump(ctx.state, "drunk")
    say(ctx, "jiu", who=who(f["target"]))
    ctx.pop(f)


@CARDS_HEGEMONY.on("use_declared", "jiu",
                   can=lambda ctx, ev: (ev["name"] == "sha" and ev["user"] == ctx.state["turn"]
                                        and R.flag(ctx.state, "drunk") > 0))
def _drunk_sha(ctx: Ctx, ev: dict[str, Any]) -> None:
    """The drunk player's next 杀 this turn carries the +1 (used up even if it is dodged)."""
    ctx.state["tflags"]["drunk"] = 0
    ev.setdefault("extra", {})["jiu"] = 1


# -- 铁索连环 -------------------------------------------------------------------------------------
# 出牌阶段，对一至两名角色使用：各横置或重置；可重铸。

def _tiesuo_targets(state: State, seat: int, cids: list[str], chosen: list[int],
                    others: list[int]) -> tuple[list[int], bool]:
    if len(chosen) >= 2:
        return [], True
    return (others if seat in chosen else _with_self(state, seat, others, "tiesuo")), bool(chosen)


def _eff_tiesuo(ctx: Ctx, f: Frame) -> None:
    p = ctx.state["players"][f["target"]]
    p["chained"] = not p.get("chained")
    say(ctx, "chained" if p["chained"] else "unchained", who=who(f["target"]))
    ctx.pop(f)


# -- 火攻 ----------------------------------------------------------------------------------------
# 出牌阶段，对一名有手牌的角色（可为自己）使用：其展示一张手牌，然后你可以弃置一张与之花色相同的
# 手牌，对其造成 1 点火焰伤害。

def _huogong_pick(state: State, seat: int, cids: list[str], others: list[int]) -> list[int]:
    own = [c for c in state["players"][seat]["hand"] if c not in cids]
    cand = [t for t in others if state["players"][t]["hand"]]
    return _with_self(state, seat, cand, "huogong") if own else cand


def _eff_huogong(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    target, user = f["target"], f["user"]
    if f["st"] == "effect":
        if not s["players"][target]["hand"]:
            ctx.pop(f)
            return
        f["st"] = "shown"
        ctx.ask(f, [target], "huogong_show", short=True, window=True, info={"user": user})
        return
    if f["st"] == "shown":
        cid = ctx.take(f, "reply")["action"][0]
        f["shown"] = cid
        say(ctx, "huogong_show", who=who(target), card=cname(card(cid).shown), sr=R.card_label(cid))
        suit = card(cid).suit
        # asked even without a card of that suit (only "pass" then): skipping the question would
        # tell the table the user holds none; an empty hand is public
        if not R.alive(s, user) or not s["players"][user]["hand"]:
            ctx.pop(f)
            return
        f["st"] = "discard"
        ask_window(ctx, f, [user], "huogong", target=target, suit=suit)
        return
    if f["st"] == "discard":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        R.to_discard(s, action)
        say(ctx, "discard", who=who(user), cards=R.card_label(action[0]))
        f["st"] = "damage"
        ctx.push("damage", src=user, dst=target, n=1, via="huogong", cards=f["cards"], nature="fire",
                 st="start")
        return
    _done(ctx, f)


def _step_huogong_show(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    opts = [card_opt(c) for c in state["players"][seat]["hand"]]
    return choose_one(m("req.huogong_show", user=who(ask.info["user"])), opts, path)


def _step_huogong(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    same = [c for c in state["players"][seat]["hand"] if card(c).suit == ask.info["suit"]]
    return choose_one(m("step.huogong"), [card_opt(c) for c in same] + [PASS_OPT], path)


# -- 兵粮寸断 -------------------------------------------------------------------------------------
# 出牌阶段，对距离为 1 的一名其他角色使用（延时）：判定不为 ♣，跳过摸牌阶段。

def _bingliang_pick(state: State, seat: int, cids: list[str], others: list[int]) -> list[int]:
    reach = R.fold(state, "trick_distance", 1, seat=seat, name="bingliang")
    return [t for t in others if R.distance(state, seat, t) <= reach
            and not any(e[1] == "bingliang" for e in state["players"][t]["judge"])]


def _bingliang_judged(ctx: Ctx, f: Frame, judged: str | None) -> None:
    R.to_discard(ctx.state, [f["cid"]])
    if judged is None or card(judged).suit != "C":
        ctx.state["skip"].append("draw")
        say(ctx, "bingliang_hit", who=who(f["seat"]))
    else:
        say(ctx, "bingliang_miss", who=who(f["seat"]))
    ctx.pop(f)


# -- 知己知彼 -------------------------------------------------------------------------------------
# 出牌阶段，对一名其他角色使用：观看其手牌或其一张暗置的武将牌；可重铸。

def zhiji_choices(state: State, target: int) -> list[str]:
    """What the user may look at: ``hand`` (when it has any), ``hero0`` / ``hero1`` (hidden)."""
    p = state["players"][target]
    out = ["hand"] if p["hand"] else []
    return out + [f"hero{i}" for i, h in enumerate(p.get("heroes", ())) if not h["shown"]]


def _eff_zhiji(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    user, target = f["user"], f["target"]
    if f["st"] == "effect":
        if not R.alive(s, user) or not zhiji_choices(s, target):
            ctx.pop(f)
            return
        f["st"] = "chosen"
        ctx.ask(f, [user], "zhiji", short=True, window=True, info={"target": target})
        return
    choice = ctx.take(f, "reply")["action"][0]
    if choice == "hand":
        say(ctx, "zhiji_hand", who=who(user), target=who(target))
        hand = s["players"][target]["hand"]
        say(ctx, "zhiji_hand_private", to=(user,), target=who(target), n=len(hand))
        for cid in hand:
            say(ctx, "zhiji_card", to=(user,), card=cname(card(cid).shown), sr=R.card_label(cid))
    else:
        say(ctx, "zhiji_hero", who=who(user), target=who(target))
        R.peek_hero(ctx, user, target, int(choice[4:]))
    ctx.pop(f)


def _step_zhiji(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    target = ask.info["target"]
    opts = [Option(c, m("opt.zhiji_hand" if c == "hand" else f"opt.zhiji_{c}"))
            for c in zhiji_choices(state, target)]
    return choose_one(m("req.zhiji", target=who(target)), opts, path)


# -- 以逸待劳 -------------------------------------------------------------------------------------
# 出牌阶段，对你和与你势力相同的所有角色使用：每名目标角色各摸两张牌，然后弃置两张牌。

def _yiyi_targets(state: State, seat: int) -> list[int]:
    return [t for t in R.living(state, seat) if t == seat or R.same_kingdom(state, seat, t)]


def _eff_yiyi(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    target = f["target"]
    if f["st"] == "effect":
        R.draw(ctx, target, 2)
        pool = R.all_cards(s, target, judge=False)
        n = min(2, len(pool))
        if n == 0:
            ctx.pop(f)
            return
        f["st"] = "discard"
        # an absent seat lets go of the two cards it just drew (hand cards last in, worn ones last)
        ctx.ask(f, [target], "yiyi", default=tuple(sorted(pool, key=_drawn_first(s, target))[:n]),
                info={"n": n})
        return
    cids = ctx.take(f, "reply")["action"]
    R.to_discard(s, cids)
    say(ctx, "discard", who=who(target), cards=" ".join(R.card_label(c) for c in cids))
    ctx.pop(f)


def _drawn_first(state: State, seat: int) -> Any:
    """Sort key: the newest hand cards first, equipment after."""
    hand = state["players"][seat]["hand"]
    return lambda c: -hand.index(c) if c in hand else len(hand)


def _step_yiyi(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """Exactly ``n`` distinct cards of the hand and equipment."""
    pool = R.all_cards(state, seat, judge=False)
    n = ask.info["n"]
    if len(set(path)) != len(path) or any(c not in pool for c in path) or len(path) > n:
        raise EngineError("sanguosha.err.illegal")
    prompt_msg = m("step.discard", n=n - len(path))
    if len(path) == n:
        return Step(prompt_msg, [], complete=True)
    return Step(prompt_msg, [card_opt(c) for c in pool if c not in path])


# -- 远交近攻 -------------------------------------------------------------------------------------
# 出牌阶段，对一名与你势力不同的角色使用：其摸一张牌，然后你摸三张牌。

def _yuanjiao_pick(state: State, seat: int, cids: list[str], others: list[int]) -> list[int]:
    """Different kingdoms: both must be known (an unknown kingdom is neither same nor different)."""
    if R.kingdom(state, seat) is None:
        return []
    return [t for t in others if R.kingdom(state, t) is not None and not R.same_kingdom(state, seat, t)]


def _eff_yuanjiao(ctx: Ctx, f: Frame) -> None:
    R.draw(ctx, f["target"], 1)
    if R.alive(ctx.state, f["user"]):
        R.draw(ctx, f["user"], 3)
    ctx.pop(f)


# -- 闪电 -----------------------------------------------------------------------------------------

@CARDS_HEGEMONY.modifier("card_nature", "shandian")
def _shandian_thunder(state: State, value: str, args: dict[str, Any]) -> str:
    """国战's 闪电 deals 3 thunder damage (it passes along 铁索连环); identity's has no nature."""
    return "thunder" if args["name"] == "shandian" else value


# -- answers only these cards give ----------------------------------------------------------------

@CARDS_HEGEMONY.modifier("can_respond", "hegemony_cards")
def _answers(state: State, value: bool, args: dict[str, Any]) -> bool:
    """无懈可击·国 answers a 无懈 window; a dying seat's own 酒 answers its 桃 window (so the
    service does not pass for them at once: ``rules.can_respond``)."""
    if value:
        return True
    hand = [card(c).name for c in state["players"][args["seat"]]["hand"]]
    if args["kind"] == "nullify":
        return "wuxie_guo" in hand
    if args["kind"] == "peach":
        return args["info"].get("dying") == args["seat"] and "jiu" in hand
    return False


# -- the cards -----------------------------------------------------------------------------------

define(CardDef("jiu", default_targets=_self, effect=_eff_jiu, ai_value=6,
               can_use=lambda s, seat: R.flag(s, "jiu") < 1))
define(CardDef("tiesuo", nullifiable=True, recast=True, targets=_tiesuo_targets, effect=_eff_tiesuo,
               ai_value=3))
define(CardDef("huogong", harmful=True, nullifiable=True, targets=_one(_huogong_pick), effect=_eff_huogong,
               ai_value=3))
define(CardDef("bingliang", harmful=True, targets=_one(_bingliang_pick), delayed=_bingliang_judged,
               ai_value=5))
define(CardDef("zhiji", nullifiable=True, recast=True,
               targets=_one(lambda _s, _seat, _c, others: others), effect=_eff_zhiji, ai_value=2))
define(CardDef("yiyi", friendly=True, nullifiable=True, default_targets=_yiyi_targets, effect=_eff_yiyi,
               ai_value=4))
define(CardDef("yuanjiao", nullifiable=True, targets=_one(_yuanjiao_pick), effect=_eff_yuanjiao, ai_value=6))
define(CardDef("wuxie_guo", usable=False, ai_value=7))

#: The hegemony equipment the standard deck lacks (what each does: ``equipment_hegemony.py``; the
#: lords option's 飞龙夺凤, 太平要术, 六龙骖驾 and 定澜夜明珠: ``equipment_hg_lords.py``).
EQUIPMENT_VALUES = {"baiyin": 7, "tengjia": 5, "zhuque": 5, "sanjian": 5, "wuliu": 4, "feilong": 6, "taiping": 6,
                    "liulong": 6, "pearl": 7}
for _name, _value in EQUIPMENT_VALUES.items():
    define(CardDef(_name, default_targets=_self, ai_value=_value))

STEPS.update({"huogong_show": _step_huogong_show, "huogong": _step_huogong, "zhiji": _step_zhiji,
              "yiyi": _step_yiyi})


@prompt("huogong_show")
def _p_huogong_show(info: dict[str, Any]) -> Msg:
    return m("req.huogong_show", user=who(info["user"]))


@prompt("huogong")
def _p_huogong(info: dict[str, Any]) -> Msg:
    return m("req.huogong", target=who(info["target"]), suit=R.SUIT_SYMBOL[info["suit"]])


@prompt("zhiji")
def _p_zhiji(info: dict[str, Any]) -> Msg:
    return m("req.zhiji", target=who(info["target"]))


@prompt("yiyi")
def _p_yiyi(info: dict[str, Any]) -> Msg:
    return m("req.yiyi", n=info["n"])


from engines.sanguosha import equipment_hegemony, equipment_hg_lords  # noqa: E402, F401 - what the items do
