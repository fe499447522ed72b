"""Weapons, armour and horses, all through the trigger registry (the same way part 2's hero
skills will act): modifiers for distance, range and limits; triggers at timing points of the
card use, the response and the damage. 丈八蛇矛 (two hand cards as a 杀) and 方天画戟 (extra
targets) shape which actions are legal, so ``choices.py`` asks the ``sha_targets`` modifier and
:func:`zhangba_ok`.
"""

from __future__ import annotations

from typing import Any

from engines.flow import Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.data import card
from engines.sanguosha.frames import ask_window, event_below, judge_first, take_chosen
from engines.sanguosha.packs import EQUIPMENT
from engines.sanguosha.rules import cname, say, who
from engines.sanguosha.skills import Conversion, conversion

Frame = dict[str, Any]
State = dict[str, Any]


def _slot_name(state: State, seat: int, slot: str) -> str:
    cid = state["players"][seat]["equip"][slot]
    return card(cid).name if cid else ""


# -- modifiers --------------------------------------------------------------------------------

@EQUIPMENT.modifier("distance", "horses")
def _horses(state: State, value: int, args: dict[str, Any]) -> int:
    """+1 horse: others are one further from you; −1 horse: you are one closer to others."""
    if state["players"][args["dst"]]["equip"]["plus"]:
        value += 1
    if state["players"][args["src"]]["equip"]["minus"]:
        value -= 1
    return value


@EQUIPMENT.modifier("sha_limit", "zhuge")
def _zhuge(state: State, value: int, args: dict[str, Any]) -> int:
    """诸葛连弩: any number of 杀 in the play phase."""
    return 10_000 if R.weapon_name(state, args["seat"]) == "zhuge" else value


@EQUIPMENT.modifier("sha_targets", "fangtian")
def _fangtian(state: State, value: int, args: dict[str, Any]) -> int:
    """方天画戟: a 杀 that is your last hand card(s) may have up to two more targets."""
    hand = state["players"][args["seat"]]["hand"]
    if R.weapon_name(state, args["seat"]) == "fangtian" and set(hand) == set(args["cards"]):
        return value + 2
    return value


def zhangba_ok(state: State, seat: int) -> bool:
    """丈八蛇矛: two hand cards may be used or played as a 杀."""
    return R.weapon_name(state, seat) == "zhangba" and len(state["players"][seat]["hand"]) >= 2


#: 丈八蛇矛 as a two-card conversion: offered, walked, parsed and counted as an answer
#: (``rules.can_respond``) wherever a 杀 may be used or played, like a skill's conversion.
ZHANGBA = conversion(Conversion("zb", "zhangba", "sha", ok=lambda _s, _seat, _c: True, count=2,
                                gate=lambda s, seat: R.weapon_name(s, seat) == "zhangba",
                                label="opt.zhangba", prompt="step.zhangba"), pack=EQUIPMENT)


# -- 杀 effect: 雌雄双股剑, 青釭剑, 仁王盾 --------------------------------------------------------

def _genders_differ(ctx: Ctx, ev: dict[str, Any]) -> bool:
    a = ctx.state["players"][ev["user"]]["gender"]
    b = ctx.state["players"][ev["target"]]["gender"]
    return bool(a and b and a != b)


@EQUIPMENT.on("sha_effect", "cixiong", priority=30,
      can=lambda ctx, ev: R.weapon_name(ctx.state, ev["user"]) == "cixiong" and _genders_differ(ctx, ev))
def _cixiong(ctx: Ctx, ev: dict[str, Any]) -> None:
    ctx.push("cixiong", user=ev["user"], target=ev["target"], st="start")


@EQUIPMENT.kind("cixiong")
def _cixiong_frame(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "cixiong", target=f["target"])
        return
    if f["st"] == "asked":
        if ctx.take(f, "reply")["action"] == ["pass"]:
            ctx.pop(f)
            return
        say(ctx, "weapon", who=who(f["user"]), card=cname("cixiong"))
        if not s["players"][f["target"]]["hand"]:
            R.draw(ctx, f["user"], 1)
            ctx.pop(f)
            return
        f["st"] = "choice"
        ask_window(ctx, f, [f["target"]], "cixiong_choice", user=f["user"])
        return
    action = ctx.take(f, "reply")["action"]
    if action == ["pass"]:
        R.draw(ctx, f["user"], 1)
    else:
        R.to_discard(s, action)
        say(ctx, "discard", who=who(f["target"]), cards=R.card_label(action[0]))
    ctx.pop(f)


@EQUIPMENT.on("sha_effect", "qinggang", priority=20,
      can=lambda ctx, ev: R.weapon_name(ctx.state, ev["user"]) == "qinggang")
def _qinggang(ctx: Ctx, ev: dict[str, Any]) -> None:
    """青釭剑: the target's armour does nothing against your 杀."""
    ev["ignore_armor"] = True


@EQUIPMENT.on("sha_effect", "renwang", priority=10,
      can=lambda ctx, ev: (_slot_name(ctx.state, ev["target"], "armor") == "renwang"
                           and not ev["ignore_armor"] and ev["color"] == "black"))
def _renwang(ctx: Ctx, ev: dict[str, Any]) -> None:
    """仁王盾: black 杀 have no effect on you."""
    ev["void"] = True
    say(ctx, "armor", who=who(ev["target"]), card=cname("renwang"))


# -- asked for a 闪: 八卦阵 ----------------------------------------------------------------------

@EQUIPMENT.on("before_need", "bagua", priority=10,
      can=lambda ctx, ev: (ev["what"] == "shan" and not ev["ignore_armor"] and not ev.get("barred")
                           and _slot_name(ctx.state, ev["seat"], "armor") == "bagua"))
def _bagua(ctx: Ctx, ev: dict[str, Any]) -> None:
    """八卦阵: judge; red counts as a 闪. Always used (it can only help; docs/rules)."""
    ctx.push("bagua", seat=ev["seat"], st="start")


@EQUIPMENT.kind("bagua")
def _bagua_frame(ctx: Ctx, f: Frame) -> None:
    if judge_first(ctx, f, "bagua"):
        return
    judged = ctx.take(f)
    if judged is not None and R.suit(ctx.state, f["seat"], judged) in ("H", "D"):
        say(ctx, "bagua_ok", who=who(f["seat"]))
        event_below(ctx, f)["done"] = True
    ctx.pop(f)


# -- 杀 dodged: 青龙偃月刀, 贯石斧 ---------------------------------------------------------------

@EQUIPMENT.on("sha_dodged", "guanshi", priority=20,
      can=lambda ctx, ev: (R.weapon_name(ctx.state, ev["user"]) == "guanshi"
                           and len(R.all_cards(ctx.state, ev["user"], judge=False)) >= 3))
def _guanshi(ctx: Ctx, ev: dict[str, Any]) -> None:
    ctx.push("guanshi", user=ev["user"], target=ev["target"], st="start")


@EQUIPMENT.kind("guanshi")
def _guanshi_frame(ctx: Ctx, f: Frame) -> None:
    """贯石斧: discard two cards (not the axe) and the dodged 杀 hits anyway."""
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "guanshi", target=f["target"])
        return
    action = ctx.take(f, "reply")["action"]
    if action != ["pass"]:
        R.to_discard(ctx.state, action)
        say(ctx, "weapon", who=who(f["user"]), card=cname("guanshi"))
        trigger = ctx.below(f)
        assert trigger is not None
        trigger["ev"]["hit"] = True
    ctx.pop(f)


@EQUIPMENT.on("sha_dodged", "qinglong", priority=10,
      can=lambda ctx, ev: (R.weapon_name(ctx.state, ev["user"]) == "qinglong" and not ev.get("hit")
                           and R.alive(ctx.state, ev["target"]) and R.alive(ctx.state, ev["user"])))
def _qinglong(ctx: Ctx, ev: dict[str, Any]) -> None:
    ctx.push("qinglong", user=ev["user"], target=ev["target"], st="start")


@EQUIPMENT.kind("qinglong")
def _qinglong_frame(ctx: Ctx, f: Frame) -> None:
    """青龙偃月刀: after a dodge you may use another 杀 on the same target (not counted)."""
    from engines.sanguosha.frames import start_use_from_action

    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "qinglong", target=f["target"])
        return
    if f["st"] == "asked":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            ctx.pop(f)
            return
        say(ctx, "weapon", who=who(f["user"]), card=cname("qinglong"))
        f["st"] = "used"
        start_use_from_action(ctx, f["user"], action + [str(f["target"])], count=False)
        return
    ctx.take(f)
    ctx.pop(f)


# -- damage by 杀: 寒冰剑, 麒麟弓 ----------------------------------------------------------------

def _sha_damage_with(ctx: Ctx, ev: dict[str, Any], weapon: str) -> bool:
    return (ev["via"] == "sha" and ev["src"] is not None and ev["src"] != ev["dst"]
            and R.weapon_name(ctx.state, ev["src"]) == weapon)


@EQUIPMENT.on("damage_cause", "hanbing", priority=20,
      can=lambda ctx, ev: (_sha_damage_with(ctx, ev, "hanbing")
                           and R.has_cards(ctx.state, ev["dst"], judge=False)))
def _hanbing(ctx: Ctx, ev: dict[str, Any]) -> None:
    ctx.push("hanbing", user=ev["src"], target=ev["dst"], st="start", left=2)


@EQUIPMENT.kind("hanbing")
def _hanbing_frame(ctx: Ctx, f: Frame) -> None:
    """寒冰剑: prevent the damage and instead discard two of the target's cards, one by one."""
    s = ctx.state
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "hanbing", target=f["target"])
        return
    if f["st"] == "asked":
        if ctx.take(f, "reply")["action"] == ["pass"]:
            ctx.pop(f)
            return
        say(ctx, "hanbing", who=who(f["user"]), target=who(f["target"]))
        trigger = ctx.below(f)
        assert trigger is not None
        trigger["ev"]["cancel"] = True
        f["st"] = "pick"
    if f["st"] == "pick":
        if "reply" in f:
            take_chosen(ctx, f["user"], f["target"], ctx.take(f, "reply")["action"][0], to_hand=False)
            f["left"] -= 1
        if f["left"] > 0 and R.has_cards(s, f["target"], judge=False):
            ctx.ask(f, [f["user"]], "pick", short=True, window=True,
                    info={"target": f["target"], "why": "hanbing"})
            return
        ctx.pop(f)


@EQUIPMENT.on("damage_cause", "qilin", priority=10,
      can=lambda ctx, ev: (_sha_damage_with(ctx, ev, "qilin") and not ev.get("cancel")
                           and any(ctx.state["players"][ev["dst"]]["equip"][k] for k in ("plus", "minus"))))
def _qilin(ctx: Ctx, ev: dict[str, Any]) -> None:
    ctx.push("qilin", user=ev["src"], target=ev["dst"], st="start")


@EQUIPMENT.kind("qilin")
def _qilin_frame(ctx: Ctx, f: Frame) -> None:
    """麒麟弓: when your 杀 deals damage you may discard one of the target's horses."""
    if f["st"] == "start":
        f["st"] = "asked"
        ask_window(ctx, f, [f["user"]], "qilin", target=f["target"])
        return
    action = ctx.take(f, "reply")["action"]
    if action != ["pass"]:
        R.to_discard(ctx.state, action)
        say(ctx, "discard_other", who=who(f["user"]), target=who(f["target"]),
            card=cname(card(action[0]).name), sr=R.card_label(action[0]))
    ctx.pop(f)
