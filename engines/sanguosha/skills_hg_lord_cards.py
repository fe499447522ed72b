"""The 君主 lords' skills that chase their lord card (the lords option adds the cards to the deck;
what the cards do: ``equipment_hg_lords.py``). Wording: FreeKill's hegemony package, 君临天下
(docs/rules/sanguosha-hegemony-lords.md); each AI hint is beside its skill.

- 章武 (君刘备): 锁定技，①当【飞龙夺凤】移至弃牌堆或其他角色的装备区后，你获得此【飞龙夺凤】；②当你
  失去【飞龙夺凤】时，你展示之，然后将此牌置于牌堆底，你摸两张牌.
- 总御 (君曹操): 锁定技，①当你使用坐骑牌时，若其他角色的装备区内或弃牌堆内有【六龙骖驾】，你将原坐骑牌
  置入弃牌堆，将【六龙骖驾】置入你的装备区内；②当【六龙骖驾】移动至其他角色的装备区内后，你可交换你与其
  装备区内的防御坐骑牌.
- 聚宝 (君孙权): 锁定技，①结束阶段，若弃牌堆或场上存在【定澜夜明珠】，你摸一张牌，然后获得拥有【定澜夜明珠】
  的角色的一张牌；②其他角色获得你装备区内的宝物牌时，取消之.
- 问道 (君张角): 出牌阶段限一次，你可弃置一张不为【太平要术】的红色牌，你获得弃牌堆里或一名角色的装备区
  里的【太平要术】.
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Msg, Step
from engines.flow import Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, _cheapest, ask_hint, play_hint
from engines.sanguosha.choices import PICK_NO_JUDGE, STEPS, card_opt, yes_no
from engines.sanguosha.data import TREASURE, card
from engines.sanguosha.equipment_hg_lords import horse_names
from engines.sanguosha.frames import ask_window, take_chosen
from engines.sanguosha.packs import HEGEMONY_HEROES as HG
from engines.sanguosha.rules import m, say, who
from engines.sanguosha.skills import Active, active, announce
from engines.sanguosha.views import prompt

State = dict[str, Any]
Ev = dict[str, Any]
Frame = dict[str, Any]


def _zhangwu_lord(state: State) -> int | None:
    return next((x for x in R.living(state) if R.has_skill(state, x, "hg_zhangwu")), None)


def _zhangwu_moves(state: State, ev: Ev) -> list[tuple[str, str]]:
    """The 飞龙夺凤 of this move that 章武 acts on: ``(card, "lost")`` when it left the lord's
    hand or equipment for anywhere but the lord or the table of a use (②), ``(card, "gain")`` when
    it came to the discard pile or another seat's equipment from anyone else (①)."""
    lord = _zhangwu_lord(state)
    if lord is None:
        return []
    to = ev["to"]
    out: list[tuple[str, str]] = []
    for cid, src in zip(ev["cards"], ev["from"], strict=True):
        if card(cid).name != "feilong":
            continue
        if src[0] == lord and src[1] in ("hand", "equip"):
            if to[0] != lord and to[1] != "proc":
                out.append((cid, "lost"))
        elif to[1] == "discard" or (to[1] == "equip" and to[0] != lord):
            out.append((cid, "gain"))
    return out


@HG.on("cards_moved", "hg_zhangwu", can=lambda ctx, ev: bool(_zhangwu_moves(ctx.state, ev)))
def _zhangwu(ctx: Ctx, ev: Ev) -> None:
    s = ctx.state
    lord = _zhangwu_lord(s)
    assert lord is not None
    for cid, what in _zhangwu_moves(s, ev):
        announce(ctx, lord, "hg_zhangwu")
        if what == "gain":
            R.to_hand(s, lord, [cid], reason="hg_zhangwu")
            say(ctx, "hg_zhangwu_gain", who=who(lord), sr=R.card_label(cid))
        else:
            say(ctx, "hg_zhangwu_lost", who=who(lord), sr=R.card_label(cid))
            R.to_deck_bottom(s, [cid], reason="hg_zhangwu")
            R.draw(ctx, lord, 2)


# -- 总御 ---------------------------------------------------------------------------------------

def _zongyu_lord(state: State) -> int | None:
    return next((x for x in R.living(state) if R.has_skill(state, x, "hg_zongyu")), None)


def lord_card(state: State, name: str, besides: int | None = None) -> tuple[str, int | None] | None:
    """The lord card ``name`` (one copy in the deck) where these skills may take it from: the
    discard pile first (holder None), else a living seat's equipment area other than ``besides``;
    None while it is in the deck, a hand or the table of a use."""
    for cid in state["discard"]:
        if card(cid).name == name:
            return cid, None
    for i in R.living(state):
        for cid in state["players"][i]["equip"].values():
            if i != besides and cid and card(cid).name == name:
                return cid, i
    return None


def _liulong_free(state: State, lord: int) -> str | None:
    """六龙骖驾 in the discard pile or in another seat's equipment area."""
    found = lord_card(state, "liulong", besides=lord)
    return found[0] if found else None


def _zongyu_used(state: State, ev: Ev) -> int | None:
    """① The lord, if this move is a horse card it used coming into its equipment area (a use's
    move is ``to_equip``'s own reason) while 六龙骖驾 is free to take."""
    lord = _zongyu_lord(state)
    if lord is None or ev["reason"] != "equip" or ev["to"] != [lord, "equip"]:
        return None
    if not any(card(c).name in horse_names() and card(c).name != "liulong" for c in ev["cards"]):
        return None
    return lord if _liulong_free(state, lord) else None


@HG.on("cards_moved", "hg_zongyu", can=lambda ctx, ev: _zongyu_used(ctx.state, ev) is not None)
def _zongyu(ctx: Ctx, ev: Ev) -> None:
    """The horse is used (it came into the slot) and is then put into the discard pile with the
    lord's other horse; 六龙骖驾 takes the +1 slot."""
    s = ctx.state
    lord = _zongyu_used(s, ev)
    assert lord is not None
    liulong = _liulong_free(s, lord)
    assert liulong is not None
    announce(ctx, lord, "hg_zongyu")
    horses = [c for c in (s["players"][lord]["equip"]["plus"], s["players"][lord]["equip"]["minus"]) if c]
    R.to_discard(s, horses, reason="hg_zongyu")
    say(ctx, "discard", who=who(lord), cards=" ".join(R.card_label(c) for c in horses))
    R.to_equip(s, lord, liulong, reason="hg_zongyu")
    say(ctx, "hg_zongyu", who=who(lord), sr=R.card_label(liulong))


def _zongyu_rider(state: State, ev: Ev) -> int | None:
    """② The other seat 六龙骖驾 came to the equipment area of (the lord alive to swap)."""
    lord = _zongyu_lord(state)
    to = ev["to"]
    if lord is None or to[1] != "equip" or to[0] == lord:
        return None
    if not any(card(c).name == "liulong" for c in ev["cards"]):
        return None
    cid = state["players"][to[0]]["equip"]["plus"]
    return to[0] if cid and card(cid).name == "liulong" else None  # type: ignore[no-any-return]


@HG.on("cards_moved", "hg_zongyu_swap", can=lambda ctx, ev: _zongyu_rider(ctx.state, ev) is not None)
def _zongyu_swap(ctx: Ctx, ev: Ev) -> None:
    ctx.push("hg_zongyu_swap", seat=_zongyu_lord(ctx.state), target=_zongyu_rider(ctx.state, ev), st="start")


@HG.kind("hg_zongyu_swap")
def _zongyu_swap_frame(ctx: Ctx, f: Frame) -> None:
    """Asked of the lord; yes: its +1 slot and the rider's change places (its own +1 horse, if
    any, goes to the rider; its −1 horse then goes, as 六龙骖驾 arriving makes it)."""
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["seat"]], "hg_zongyu_swap", target=f["target"])
        return
    lord, rider = f["seat"], f["target"]
    ps = s["players"]
    liulong = ps[rider]["equip"]["plus"]
    if ctx.take(f, "reply")["action"] != ["pass"] and R.alive(s, lord) and liulong and card(liulong).name == "liulong":
        announce(ctx, lord, "hg_zongyu")
        mine = ps[lord]["equip"]["plus"]
        ps[lord]["equip"]["plus"], ps[rider]["equip"]["plus"] = liulong, mine
        say(ctx, "hg_zongyu_swap", who=who(lord), target=who(rider), sr=R.card_label(liulong))
        minus = ps[lord]["equip"]["minus"]
        if minus:
            R.to_discard(s, [minus], reason="replaced")
            say(ctx, "discard", who=who(lord), cards=R.card_label(minus))
    ctx.pop(f)


STEPS["hg_zongyu_swap"] = lambda _s, _seat, path, ask: yes_no(path, m("req.hg_zongyu_swap", target=who(ask.info["target"])))


@prompt("hg_zongyu_swap")
def _p_zongyu_swap(info: dict[str, Any]) -> Msg:
    return m("req.hg_zongyu_swap", target=who(info["target"]))


@ask_hint("hg_zongyu_swap")
def _zongyu_swap_hint(s: Seat) -> list[str]:
    """Always: 六龙骖驾 is both horses at once, better than any one horse the lord may give."""
    return ["yes"]


# -- 聚宝 ---------------------------------------------------------------------------------------

@HG.on("phase_start", "hg_jubao", priority=10,
       can=lambda ctx, ev: (ev["phase"] == "finish" and not ev["skip"] and R.has_skill(ctx.state, ev["seat"], "hg_jubao")
                            and lord_card(ctx.state, "pearl") is not None))
def _jubao(ctx: Ctx, ev: Ev) -> None:
    """① Draw one, then take a card of the pearl's wearer (a wearer with no card, or the lord
    itself, gives nothing: taking one's own card changes nothing)."""
    s, seat = ctx.state, ev["seat"]
    found = lord_card(s, "pearl")
    assert found is not None
    announce(ctx, seat, "hg_jubao")
    R.draw(ctx, seat, 1)
    holder = found[1]
    if holder is not None and holder != seat and R.has_cards(s, holder, judge=False):
        ctx.push("hg_jubao", seat=seat, target=holder, st="start")


@HG.kind("hg_jubao")
def _jubao_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        if not R.has_cards(ctx.state, f["target"], judge=False):
            ctx.pop(f)
            return
        f["st"] = "picked"
        ctx.ask(f, [f["seat"]], "pick", info={"target": f["target"], "why": "hg_jubao"})
        return
    take_chosen(ctx, f["seat"], f["target"], ctx.take(f, "reply")["action"][0], to_hand=True)
    ctx.pop(f)


PICK_NO_JUDGE.add("hg_jubao")


def _jubao_kept(state: State, ev: Ev) -> tuple[int, str] | None:
    """② A treasure of 聚宝's holder's equipment area that another seat just got into its hand."""
    to = ev["to"]
    if to[1] != "hand" or to[0] is None:
        return None
    for cid, src in zip(ev["cards"], ev["from"], strict=True):
        lord = src[0]
        if (src[1] == "equip" and lord is not None and lord != to[0] and card(cid).slot == TREASURE
                and R.alive(state, lord) and R.has_skill(state, lord, "hg_jubao")):
            return lord, cid
    return None


@HG.on("cards_moved", "hg_jubao_keep", can=lambda ctx, ev: _jubao_kept(ctx.state, ev) is not None)
def _jubao_keep(ctx: Ctx, ev: Ev) -> None:
    """② The taking is cancelled: the treasure goes back to its slot (the taker's choice is spent,
    as a cancelled effect is)."""
    kept = _jubao_kept(ctx.state, ev)
    assert kept is not None
    lord, cid = kept
    announce(ctx, lord, "hg_jubao")
    R.to_equip(ctx.state, lord, cid, reason="hg_jubao")
    say(ctx, "hg_jubao_keep", who=who(lord), sr=R.card_label(cid))


@play_hint("hg_pearl_zhiheng")
def _pearl_zhiheng_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """定澜夜明珠's 制衡 (equipment_hg_lords.py): as the 国战 孙权's 制衡."""
    from engines.sanguosha.skills_hg_wu import _hg_zhiheng

    return _hg_zhiheng(s, pre, name)


# -- 问道 ------------------------------------------------------------------------------------------

def _wendao_cards(state: State, seat: int) -> list[str]:
    return [c for c in R.all_cards(state, seat, judge=False) if card(c).red and card(c).name != "taiping"]


def _wendao_step(state: State, seat: int, path: list[str]) -> Step:
    cards = _wendao_cards(state, seat)
    if not path:
        return Step(m("step.hg_wendao"), [card_opt(c) for c in cards])
    if path[0] not in cards or len(path) > 1:
        raise EngineError("sanguosha.err.illegal")
    return Step(m("step.hg_wendao"), [], complete=True)


def _wendao_start(ctx: Ctx, seat: int, path: list[str]) -> None:
    s = ctx.state
    R.bump(s, "hg_wendao")
    announce(ctx, seat, "hg_wendao")
    R.to_discard(s, [path[0]])
    say(ctx, "discard", who=who(seat), cards=R.card_label(path[0]))
    found = lord_card(s, "taiping")
    if found is not None:
        cid = found[0]
        R.to_hand(s, seat, [cid], reason="hg_wendao")
        say(ctx, "hg_wendao", who=who(seat), sr=R.card_label(cid))


active(Active("hg_wendao", lambda s, seat: (not R.flag(s, "hg_wendao") and lord_card(s, "taiping") is not None
                                            and bool(_wendao_cards(s, seat))),
              _wendao_step, _wendao_start), pack=HG)


@play_hint("hg_wendao")
def _wendao_hint(s: Seat, pre: list[str], name: str) -> tuple[float, list[str]] | None:
    """Worth a cheap red hand card (never a 桃) unless 太平要术 is worn by this seat or a friend
    (taking it off them costs an HP for two cards); the skill is offered only while the card is in
    the discard pile or worn."""
    worn = [i for i, p in enumerate(s.view["players"]) for e in p["equip"].values()
            if e and e["name"] == "taiping"]
    if any(i == s.seat or s.mind.friend(i) for i in worn):
        return None
    spare = [c for c in s.options(pre) if c in s.hand and s.hand[c] != "tao"]
    if not spare:
        return None
    return 6.0, [*pre, _cheapest(s, spare)]
