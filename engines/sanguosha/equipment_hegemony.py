"""What the 国战 deck's own equipment does, on the trigger registry of :data:`packs.CARDS_HEGEMONY`
(the items are defined in ``cards_hegemony.py``; the standard items act from ``equipment.py``):

- 吴六剑 (weapon, range 2): 锁定技，与你势力相同的其他角色攻击范围 +1;
- 三尖两刃刀 (weapon, range 3): 你使用【杀】对目标角色造成伤害后，可弃置一张手牌，对该角色距离为 1
  的另一名其他角色造成 1 点伤害;
- 朱雀羽扇 (weapon, range 4): 你可以将一张普通【杀】当火【杀】使用 (asked as the 杀 is declared);
- 藤甲 (armour): 锁定技，【南蛮入侵】、【万箭齐发】和普通【杀】对你无效；受到火焰伤害时，此伤害 +1;
- 白银狮子 (armour): 锁定技，受到大于 1 点的伤害时，防止多余的伤害；失去装备区里的它后，回复 1 点体力.
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Msg, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.choices import PASS_OPT, STEPS, card_opt, seat_opt, yes_no
from engines.sanguosha.data import card
from engines.sanguosha.frames import ask_window, recover
from engines.sanguosha.packs import CARDS_HEGEMONY
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.views import prompt

State = dict[str, Any]
Frame = dict[str, Any]


def _armour(state: State, seat: int) -> str:
    cid = state["players"][seat]["equip"]["armor"]
    return card(cid).name if cid else ""


# -- 吴六剑 --------------------------------------------------------------------------------------

@CARDS_HEGEMONY.modifier("attack_range", "wuliu")
def _wuliu(state: State, value: int, args: dict[str, Any]) -> int:
    seat = args["seat"]
    if any(t != seat and R.weapon_name(state, t) == "wuliu" and R.same_kingdom(state, seat, t)
           for t in R.living(state)):
        return value + 1
    return value


# -- 三尖两刃刀 -----------------------------------------------------------------------------------

def sanjian_victims(state: State, user: int, target: int) -> list[int]:
    """The seats at distance 1 from the 杀's target, neither the target nor the user."""
    return [t for t in R.living(state, target + 1) if t not in (user, target)
            and R.distance(state, target, t) == 1]


@CARDS_HEGEMONY.on("damage_done", "sanjian",
                   can=lambda ctx, ev: (ev["via"] == "sha" and not ev.get("chained") and ev["src"] is not None
                                        and R.alive(ctx.state, ev["src"])
                                        and R.weapon_name(ctx.state, ev["src"]) == "sanjian"
                                        and bool(ctx.state["players"][ev["src"]]["hand"])
                                        and bool(sanjian_victims(ctx.state, ev["src"], ev["dst"]))))
def _sanjian(ctx: Ctx, ev: dict[str, Any]) -> None:
    ctx.push("sanjian", user=ev["src"], target=ev["dst"], st="start")


@CARDS_HEGEMONY.kind("sanjian")
def _sanjian_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "sanjian", target=f["target"])
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        cid, victim = action[0], int(action[1])
        R.to_discard(ctx.state, [cid])
        say(ctx, "weapon", who=who(f["user"]), card=cname("sanjian"))
        say(ctx, "discard", who=who(f["user"]), cards=R.card_label(cid))
        f["st"] = "damage"
        ctx.push("damage", src=f["user"], dst=victim, n=1, via="sanjian", cards=[], st="start")
        return
    ctx.take(f)
    ctx.pop(f)


def _step_sanjian(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    """``[hand card, seat]`` or ``pass``."""
    prompt = m("req.sanjian", target=who(ask.info["target"]))
    hand = state["players"][seat]["hand"]
    if not path:
        return Step(prompt, [card_opt(c) for c in hand] + [PASS_OPT])
    if path == ["pass"]:
        return Step(prompt, [], complete=True)
    if path[0] not in hand or len(path) > 2:
        raise EngineError("sanguosha.err.illegal")
    victims = sanjian_victims(state, seat, ask.info["target"])
    if len(path) == 1:
        return Step(m("step.sanjian_to"), [seat_opt(state, t, seat) for t in victims])
    if path[1] not in {str(t) for t in victims}:
        raise EngineError("sanguosha.err.illegal")
    return Step(prompt, [], complete=True)


# -- 朱雀羽扇 -------------------------------------------------------------------------------------

@CARDS_HEGEMONY.on("use_declared", "zhuque",
                   can=lambda ctx, ev: (ev["name"] == "sha" and "nature" not in ev
                                        and not (ev.get("extra") or {}).get("nature")
                                        and R.weapon_name(ctx.state, ev["user"]) == "zhuque"))
def _zhuque(ctx: Ctx, ev: dict[str, Any]) -> None:
    ctx.push("zhuque", user=ev["user"], st="start")


@CARDS_HEGEMONY.kind("zhuque")
def _zhuque_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "zhuque")
        return
    if ctx.take(f, "reply")["action"] != ["pass"]:
        say(ctx, "weapon", who=who(f["user"]), card=cname("zhuque"))
        trigger = ctx.below(f)
        assert trigger is not None
        trigger["ev"].setdefault("extra", {})["nature"] = "fire"
    ctx.pop(f)


# -- 藤甲 ----------------------------------------------------------------------------------------

@CARDS_HEGEMONY.on("sha_effect", "tengjia", priority=10,
                   can=lambda ctx, ev: (_armour(ctx.state, ev["target"]) == "tengjia" and not ev["ignore_armor"]
                                        and "nature" not in ev))
def _tengjia_sha(ctx: Ctx, ev: dict[str, Any]) -> None:
    """A plain 杀 (no nature) has no effect on 藤甲."""
    ev["void"] = True
    say(ctx, "armor", who=who(ev["target"]), card=cname("tengjia"))


@CARDS_HEGEMONY.modifier("card_void", "tengjia")
def _tengjia_aoe(state: State, value: bool, args: dict[str, Any]) -> bool:
    """南蛮入侵 and 万箭齐发 have no effect on 藤甲 (the effect frame says so)."""
    return value or (args["name"] in ("nanman", "wanjian") and _armour(state, args["target"]) == "tengjia")


@CARDS_HEGEMONY.on("damage_inflicted", "tengjia", priority=20,
                   can=lambda ctx, ev: ev.get("nature") == "fire" and _armour(ctx.state, ev["dst"]) == "tengjia")
def _tengjia_fire(ctx: Ctx, ev: dict[str, Any]) -> None:
    ev["n"] += 1
    say(ctx, "tengjia_fire", who=who(ev["dst"]))


# -- 白银狮子 -------------------------------------------------------------------------------------

@CARDS_HEGEMONY.on("damage_inflicted", "baiyin", priority=10,
                   can=lambda ctx, ev: ev["n"] > 1 and _armour(ctx.state, ev["dst"]) == "baiyin")
def _baiyin(ctx: Ctx, ev: dict[str, Any]) -> None:
    ev["n"] = 1
    say(ctx, "armor", who=who(ev["dst"]), card=cname("baiyin"))


def _baiyin_losers(ev: dict[str, Any]) -> list[int]:
    return [src[0] for cid, src in zip(ev["cards"], ev["from"], strict=True)
            if src[1] == "equip" and card(cid).name == "baiyin"]


@CARDS_HEGEMONY.on("cards_moved", "baiyin", can=lambda ctx, ev: bool(_baiyin_losers(ev)))
def _baiyin_lost(ctx: Ctx, ev: dict[str, Any]) -> None:
    """Losing 白银狮子 from the equipment area (taken, discarded, replaced) heals 1."""
    for seat in _baiyin_losers(ev):
        if R.alive(ctx.state, seat):
            recover(ctx, seat, 1, None)


STEPS.update({"sanjian": _step_sanjian, "zhuque": lambda _s, _seat, path, _ask: yes_no(path, m("req.zhuque"))})


@prompt("sanjian")
def _p_sanjian(info: dict[str, Any]) -> Msg:
    return m("req.sanjian", target=who(info["target"]))
