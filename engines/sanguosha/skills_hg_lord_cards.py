"""The 君主 lords' skills that chase their lord card (the lords option adds the cards to the deck;
what the cards do: ``equipment_hg_lords.py``). Wording: FreeKill's hegemony package, 君临天下
(docs/rules/sanguosha-hegemony-lords.md); each AI hint is beside its skill.

- 章武 (君刘备): 锁定技，①当【飞龙夺凤】移至弃牌堆或其他角色的装备区后，你获得此【飞龙夺凤】；②当你
  失去【飞龙夺凤】时，你展示之，然后将此牌置于牌堆底，你摸两张牌.
- 问道 (君张角): 出牌阶段限一次，你可弃置一张不为【太平要术】的红色牌，你获得弃牌堆里或一名角色的装备区
  里的【太平要术】.
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Step
from engines.flow import Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, _cheapest, play_hint
from engines.sanguosha.choices import card_opt
from engines.sanguosha.data import card
from engines.sanguosha.packs import HEGEMONY_HEROES as HG
from engines.sanguosha.rules import m, say, who
from engines.sanguosha.skills import Active, active, announce

State = dict[str, Any]
Ev = dict[str, Any]


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


# -- 问道 ------------------------------------------------------------------------------------------

def _taiping(state: State) -> str | None:
    """The 太平要术 in the discard pile or in a seat's equipment area (there is one in the deck)."""
    for cid in state["discard"]:
        if card(cid).name == "taiping":
            return cid
    for i in R.living(state):
        for cid in state["players"][i]["equip"].values():
            if cid and card(cid).name == "taiping":
                return cid
    return None


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
    cid = _taiping(s)
    if cid is not None:
        R.to_hand(s, seat, [cid], reason="hg_wendao")
        say(ctx, "hg_wendao", who=who(seat), sr=R.card_label(cid))


active(Active("hg_wendao", lambda s, seat: (not R.flag(s, "hg_wendao") and _taiping(s) is not None
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
