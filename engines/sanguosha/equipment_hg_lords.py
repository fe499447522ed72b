"""What the 君临天下 lord equipment cards do (the 国战 lords option adds them to the deck:
``data/sanguosha/cards_hegemony_lords.json``), on the trigger registry of :data:`packs.CARDS_HEGEMONY`:

- 飞龙夺凤 (weapon, range 2): ①当你使用【杀】指定目标后，你可令目标弃置一张牌。②当一名角色因执行你
  使用的【杀】的效果而受到你造成的伤害而进入濒死状态后，你可获得其一张手牌;
- 太平要术 (armour): 锁定技，①当你受到属性伤害时，你防止此伤害。②你的手牌上限+X（X为与你势力相同的
  角色数）。③当你失去装备区里的【太平要术】后，你摸两张牌，然后若你的体力值大于1，你失去1点体力;
- 六龙骖驾 (horse, in the +1 slot): 锁定技，其他角色与你的距离+1，你与其他角色的距离-1；当【六龙骖驾】
  移至你的装备区后，你将你的装备区里所有其他坐骑牌置入弃牌堆；你不能使用坐骑牌;
- 定澜夜明珠 (treasure): 锁定技，若你没有〖制衡〗，你视为拥有〖制衡〗；若你有〖制衡〗，取消〖制衡〗的数量
  限制.

A card is only ever in a game with the option on, so the standard and 108-card games never meet
these handlers' conditions. The lords' skills that chase these cards (总御, 章武, 聚宝, 问道)
are ``skills_hg_lord_cards.py``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from engines.base import EngineError, Msg, Step
from engines.flow import Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.cards_hegemony import _step_yiyi
from engines.sanguosha.choices import STEPS, yes_no
from engines.sanguosha.data import DECKS, NATURES, TREASURE, card, deck
from engines.sanguosha.equipment_hegemony import _armour
from engines.sanguosha.frames import ask_window, take_chosen
from engines.sanguosha.packs import CARDS_HEGEMONY
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import Active, active
from engines.sanguosha.views import prompt

State = dict[str, Any]
Frame = dict[str, Any]
Ev = dict[str, Any]


# -- 飞龙夺凤 ① -----------------------------------------------------------------------------------

@CARDS_HEGEMONY.on("sha_effect", "feilong", priority=30,
                   can=lambda ctx, ev: (R.weapon_name(ctx.state, ev["user"]) == "feilong"
                                        and R.has_cards(ctx.state, ev["target"], judge=False)))
def _feilong(ctx: Ctx, ev: Ev) -> None:
    ctx.push("feilong", user=ev["user"], target=ev["target"], st="start")


@CARDS_HEGEMONY.kind("feilong")
def _feilong_frame(ctx: Ctx, f: Frame) -> None:
    """Asked of the wielder (the target need not be hurt by it: a 闪 does not undo it); yes: the
    target discards one card of its hand or equipment, its own choice."""
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "feilong", target=f["target"])
        return
    if f["st"] == "asked":
        if ctx.take(f, "reply")["action"] == ["pass"] or not R.has_cards(s, f["target"], judge=False):
            ctx.pop(f)
            return
        say(ctx, "weapon", who=who(f["user"]), card=cname("feilong"))
        pool = R.all_cards(s, f["target"], judge=False)
        f["st"] = "discard"
        # an absent target lets go of its newest hand card, else its last worn item
        ctx.ask(f, [f["target"]], "feilong_discard", default=((s["players"][f["target"]]["hand"] or pool)[-1],),
                info={"n": 1, "user": f["user"]})
        return
    cids = ctx.take(f, "reply")["action"]
    R.to_discard(s, cids)
    say(ctx, "discard", who=who(f["target"]), cards=" ".join(R.card_label(c) for c in cids))
    ctx.pop(f)


# -- 飞龙夺凤 ② -----------------------------------------------------------------------------------

def _sha_damage_below(ctx: Ctx, seat: int) -> Frame | None:
    """The damage frame that put ``seat`` into the dying window being fired, if that damage is a
    杀's own (not passed on along 铁索连环)."""
    stack = ctx.stack
    for i in range(len(stack) - 1, 0, -1):
        if stack[i].get("k") == "dying" and stack[i].get("seat") == seat:
            below = stack[i - 1]
            if below.get("k") == "damage" and below.get("via") == "sha" and not below.get("chained"):
                return below
            return None
    return None


def _feilong_dying_src(ctx: Ctx, ev: Ev) -> int | None:
    dmg = _sha_damage_below(ctx, ev["seat"])
    src = dmg["src"] if dmg else None
    if src is None or src == ev["seat"] or not R.alive(ctx.state, src):
        return None
    if R.weapon_name(ctx.state, src) != "feilong" or not ctx.state["players"][ev["seat"]]["hand"]:
        return None
    return src  # type: ignore[no-any-return]


@CARDS_HEGEMONY.on("dying", "feilong_dying", priority=20, can=lambda ctx, ev: _feilong_dying_src(ctx, ev) is not None)
def _feilong_dying(ctx: Ctx, ev: Ev) -> None:
    src = _feilong_dying_src(ctx, ev)
    ctx.push("feilong_dying", user=src, target=ev["seat"], st="start")


@CARDS_HEGEMONY.kind("feilong_dying")
def _feilong_dying_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "feilong_dying", target=f["target"])
        return
    if ctx.take(f, "reply")["action"] != ["pass"] and ctx.state["players"][f["target"]]["hand"]:
        say(ctx, "weapon", who=who(f["user"]), card=cname("feilong"))
        take_chosen(ctx, f["user"], f["target"], "hand", to_hand=True)
    ctx.pop(f)


# -- 太平要术 -------------------------------------------------------------------------------------

@CARDS_HEGEMONY.on("damage_inflicted", "taiping", priority=30,
                   can=lambda ctx, ev: ev.get("nature") in NATURES and _armour(ctx.state, ev["dst"]) == "taiping")
def _taiping_guard(ctx: Ctx, ev: Ev) -> None:
    """① Fire and thunder damage is prevented (before 藤甲's +1 could matter: one armour only)."""
    ev["cancel"] = True
    say(ctx, "armor", who=who(ev["dst"]), card=cname("taiping"))


def taiping_x(state: State, seat: int) -> int:
    """② X: the seats of the wearer's kingdom (itself included; +1 per 天兵 for 黄巾天兵符's
    holder, whose effects count its 天兵 as 群 seats); a wearer of no known kingdom counts itself."""
    from engines.sanguosha.skills_hg_lords import kingdom_count, tianbing

    k = R.kingdom(state, seat)
    if k is None:
        return 1
    return kingdom_count(state, k) + (len(tianbing(state)) if R.has_skill(state, seat, "hg_hongfa") else 0)


@CARDS_HEGEMONY.modifier("hand_limit", "taiping")
def _taiping_limit(state: State, value: int, args: dict[str, Any]) -> int:
    seat = args["seat"]
    return value + taiping_x(state, seat) if _armour(state, seat) == "taiping" else value


def _taiping_losers(ev: Ev) -> list[int]:
    return [src[0] for cid, src in zip(ev["cards"], ev["from"], strict=True)
            if src[1] == "equip" and card(cid).name == "taiping"]


@CARDS_HEGEMONY.on("cards_moved", "taiping_lost", can=lambda ctx, ev: bool(_taiping_losers(ev)))
def _taiping_lost(ctx: Ctx, ev: Ev) -> None:
    """③ Losing it from the equipment area (taken, discarded, replaced): draw two, then lose 1 HP
    if above 1 (the HP loss is a frame: a dying window may follow only from a loss, never here)."""
    for seat in _taiping_losers(ev):
        if R.alive(ctx.state, seat):
            say(ctx, "taiping_lost", who=who(seat))
            R.draw(ctx, seat, 2)
            if ctx.state["players"][seat]["hp"] > 1:
                ctx.push("lose_hp", seat=seat, n=1, st="start")


# -- 六龙骖驾 -------------------------------------------------------------------------------------

def wears_liulong(state: State, seat: int) -> bool:
    cid = state["players"][seat]["equip"]["plus"]
    return bool(cid) and card(cid).name == "liulong"


@cache
def horse_names() -> frozenset[str]:
    """Every horse card's name, of every deck."""
    return frozenset(c.name for name in DECKS for c in deck(name).values() if c.slot in ("plus", "minus"))


@CARDS_HEGEMONY.modifier("distance", "liulong")
def _liulong_distance(state: State, value: int, args: dict[str, Any]) -> int:
    """The wearer is one closer to others (the +1 to it is its slot's, as any +1 horse's)."""
    return value - 1 if wears_liulong(state, args["src"]) else value


@CARDS_HEGEMONY.modifier("card_blocked", "liulong")
def _liulong_no_horses(state: State, value: bool, args: dict[str, Any]) -> bool:
    seat = args.get("seat")
    return value or (seat is not None and args["name"] in horse_names() and wears_liulong(state, seat))


def _liulong_riders(ev: Ev) -> list[int]:
    """The seat 六龙骖驾 came to the equipment area of, by this move."""
    to = ev["to"]
    return [to[0]] if to[1] == "equip" and any(card(c).name == "liulong" for c in ev["cards"]) else []


@CARDS_HEGEMONY.on("cards_moved", "liulong_in", can=lambda ctx, ev: any(
    ctx.state["players"][x]["equip"]["minus"] and wears_liulong(ctx.state, x) for x in _liulong_riders(ev)))
def _liulong_in(ctx: Ctx, ev: Ev) -> None:
    """Its own slot already pushed out a +1 horse (an item replaced); the −1 horse goes too."""
    for seat in _liulong_riders(ev):
        minus = ctx.state["players"][seat]["equip"]["minus"]
        if minus and wears_liulong(ctx.state, seat):
            R.to_discard(ctx.state, [minus], reason="replaced")
            say(ctx, "discard", who=who(seat), cards=R.card_label(minus))


# -- 定澜夜明珠 ------------------------------------------------------------------------------------

#: The 制衡 a seat may have of its own (identity's has no limit to lift).
ZHIHENG = ("zhiheng", "hg_zhiheng", "hg_lord_zhiheng")
PEARL_ZHIHENG = "hg_pearl_zhiheng"


def wears_pearl(state: State, seat: int) -> bool:
    cid = state["players"][seat]["equip"].get(TREASURE)
    return bool(cid) and card(cid).name == "pearl"


def _own_zhiheng(state: State, seat: int) -> bool:
    return any(R.has_skill(state, seat, z) for z in ZHIHENG)


@CARDS_HEGEMONY.modifier("zhiheng_cap", "pearl")
def _pearl_cap(state: State, value: int, args: dict[str, Any]) -> int:
    """With a 制衡 of its own, the wearer's 制衡 takes any number of cards."""
    return 10_000 if args["skill"] != PEARL_ZHIHENG and wears_pearl(state, args["seat"]) else value


def _pearl_step(state: State, seat: int, path: list[str]) -> Step:
    from engines.sanguosha.skills_wu import _cards_step, zhiheng_cap  # the 制衡 walk; skills_wu loads the AI

    cap = zhiheng_cap(state, seat, PEARL_ZHIHENG)
    st, _ = _cards_step(state, R.all_cards(state, seat, judge=False), path, m("step.hg_zhiheng", n=cap), 1, cap)
    if st is None:
        raise EngineError("sanguosha.err.illegal")
    return st


def _pearl_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    from engines.sanguosha.skills_wu import discard_and_draw

    discard_and_draw(ctx, seat, PEARL_ZHIHENG, path)


#: Without a 制衡 of its own, the wearer has the 国战 one (at most max HP cards, FreeKill's
#: luminous_pearl_skill), once per play phase like any 制衡.
active(Active(PEARL_ZHIHENG, lambda s, seat: not R.flag(s, PEARL_ZHIHENG) and R.has_cards(s, seat, judge=False),
              _pearl_step, _pearl_start,
              gate=lambda s, seat: wears_pearl(s, seat) and not _own_zhiheng(s, seat)), pack=CARDS_HEGEMONY)


# -- questions and texts (the AI's answers: ai_cards_hegemony.py) ---------------------------------------------------------------------------

STEPS.update({"feilong": lambda _s, _seat, path, ask: yes_no(path, m("req.feilong", target=who(ask.info["target"]))),
              "feilong_discard": _step_yiyi,
              "feilong_dying": lambda _s, _seat, path, ask: yes_no(
                  path, m("req.feilong_dying", target=who(ask.info["target"])))})


@prompt("feilong")
def _p_feilong(info: dict[str, Any]) -> Msg:
    return m("req.feilong", target=who(info["target"]))


@prompt("feilong_discard")
def _p_feilong_discard(info: dict[str, Any]) -> Msg:
    return m("req.feilong_discard", user=who(info["user"]))


@prompt("feilong_dying")
def _p_feilong_dying(info: dict[str, Any]) -> Msg:
    return m("req.feilong_dying", target=who(info["target"]))
