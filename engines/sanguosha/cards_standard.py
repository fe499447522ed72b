"""The standard deck's cards, each defined once (:class:`cards.CardDef`): flags, play-phase test,
targets, default targets, effect and AI value. Equipment cards are defined here too (what an item
does while equipped lives on the trigger registry in ``equipment.py``)."""

from __future__ import annotations

from typing import Any

from engines.flow import Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.cards import CardDef, define
from engines.sanguosha.data import card
from engines.sanguosha.frames import _done, _labels, ask_window, recover, start_use_from_action, take_chosen
from engines.sanguosha.rules import cname, say, who

State = dict[str, Any]
Frame = dict[str, Any]


# -- effects (one target each; the effect frame) -----------------------------------------------

def _eff_sha(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    st = f["st"]
    if st == "effect":
        f["st"] = "fired"
        ctx.fire("sha_effect", {"user": f["user"], "target": f["target"], "color": f["color"],
                                "cards": f["cards"], "ignore_armor": False, "void": False, "need": 1,
                                **_nature(f)})
        return
    if st == "fired":
        ev = ctx.take(f)
        if ev.get("void") or ev.get("cancel"):
            say(ctx, "void", card=cname("sha"), target=who(f["target"]))
            ctx.pop(f)
            return
        f["ev"] = ev
        f["st"] = "need"
        return
    if st == "need":
        if f["ev"]["need"] <= 0:
            f["st"] = "damage"
            _sha_damage(ctx, f)
            return
        f["st"] = "dodge"
        # "left": 闪 still needed against this 杀 (2 against 无双), so a standing answer spends
        # none when the hand cannot stop it
        ctx.push("need", seat=f["target"], what="shan", ignore_armor=f["ev"]["ignore_armor"],
                 reason={"card": "sha", "user": f["user"], "left": f["ev"]["need"]}, st="start")
        return
    if st == "dodge":
        if ctx.take(f):
            f["ev"]["need"] -= 1
            if f["ev"]["need"] > 0:
                f["st"] = "need"
                return
            f["st"] = "dodged"
            ctx.fire("sha_dodged", {"user": f["user"], "target": f["target"], "cards": f["cards"],
                                    "hit": False})
            return
        f["st"] = "damage"
        _sha_damage(ctx, f)
        return
    if st == "dodged":
        ev = ctx.take(f)
        if ev.get("hit") and R.alive(s, f["target"]):
            f["st"] = "damage"
            _sha_damage(ctx, f)
            return
    _done(ctx, f)


def _nature(f: Frame) -> dict[str, str]:
    """The 杀's damage nature as a keyword (火杀, 雷杀, 朱雀羽扇; none for a plain 杀)."""
    return {"nature": f["extra"]["nature"]} if "nature" in f["extra"] else {}


def _sha_damage(ctx: Ctx, f: Frame) -> None:
    """The 杀 hits: 1 damage, +1 after a 酒 (``extra["jiu"]``), of the 杀's nature."""
    ctx.push("damage", src=f["user"], dst=f["target"], n=1 + f["extra"].get("jiu", 0), via="sha",
             cards=f["cards"], st="start", **_nature(f))


def _eff_tao(ctx: Ctx, f: Frame) -> None:
    recover(ctx, f["target"], 1, f["user"])
    ctx.pop(f)


def _eff_pick(ctx: Ctx, f: Frame) -> None:
    """过河拆桥 (discard) and 顺手牵羊 (take): the user chooses one of the target's cards."""
    s = ctx.state
    if f["st"] == "effect":
        if not R.has_cards(s, f["target"]) or not R.alive(s, f["user"]):
            ctx.pop(f)
            return
        f["st"] = "picked"
        ctx.ask(f, [f["user"]], "pick", info={"target": f["target"], "why": f["name"]})
        return
    choice = ctx.take(f, "reply")["action"][0]
    take_chosen(ctx, f["user"], f["target"], choice, to_hand=f["name"] == "shunshou")
    ctx.pop(f)


def _eff_juedou(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "effect":
        f["cur"], f["st"] = f["target"], "turn"
    if f["st"] == "turn":
        if not (R.alive(s, f["user"]) and R.alive(s, f["target"])):
            ctx.pop(f)
            return
        other = f["user"] if f["cur"] == f["target"] else f["target"]
        f["left"] = R.fold(s, "juedou_need", 1, seat=f["cur"], other=other)
        f["st"] = "ask"
    if f["st"] == "ask" and "ret" not in f:
        ctx.push("need", seat=f["cur"], what="sha", ignore_armor=False,
                 reason={"card": "juedou", "user": f["user"]}, st="start")
        return
    if f["st"] == "ask":
        played = ctx.take(f)
        other = f["user"] if f["cur"] == f["target"] else f["target"]
        if played:
            f["left"] -= 1
            if f["left"] > 0 and R.alive(s, f["cur"]):
                return  # 无双: another 杀 is needed before the duel turns
            f["cur"], f["st"] = other, "turn"
            return
        f["st"] = "damage"
        ctx.push("damage", src=other, dst=f["cur"], n=1, via="juedou", cards=f["cards"], st="start")
        return
    _done(ctx, f)


def _eff_jiedao(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    holder, victim = f["target"], f["extra"]["victim"]
    if f["st"] == "effect":
        if not s["players"][holder]["equip"]["weapon"]:
            ctx.pop(f)
            return
        if R.alive(s, victim) and R.in_range(s, holder, victim):
            f["st"] = "answer"
            ask_window(ctx, f, [holder], "jiedao", victim=victim, user=f["user"])
            return
        f["st"] = "answer"
        f["reply"] = {"seat": holder, "action": ["pass"]}
    if f["st"] == "answer":
        action = ctx.take(f, "reply")["action"]
        if action == ["pass"]:
            weapon = s["players"][holder]["equip"]["weapon"]
            if weapon and R.alive(s, f["user"]):
                R.to_hand(s, f["user"], [weapon])
                say(ctx, "give_weapon", who=who(holder), target=who(f["user"]),
                    card=cname(card(weapon).name), sr=R.card_label(weapon))
            ctx.pop(f)
            return
        f["st"] = "used"
        start_use_from_action(ctx, holder, action + [str(victim)], count=False)
        return
    _done(ctx, f)


def _eff_wuzhong(ctx: Ctx, f: Frame) -> None:
    R.draw(ctx, f["target"], 2)
    ctx.pop(f)


def _eff_aoe(ctx: Ctx, f: Frame) -> None:
    """南蛮入侵 (play a 杀) and 万箭齐发 (play a 闪), else 1 damage from the user."""
    if f["st"] == "effect":
        f["st"] = "answer"
        ctx.push("need", seat=f["target"], what="sha" if f["name"] == "nanman" else "shan",
                 ignore_armor=False, reason={"card": f["name"], "user": f["user"]}, st="start")
        return
    if f["st"] == "answer":
        if ctx.take(f):
            ctx.pop(f)
            return
        f["st"] = "damage"
        ctx.push("damage", src=f["user"], dst=f["target"], n=1, via=f["name"], cards=f["cards"], st="start")
        return
    _done(ctx, f)


def _eff_taoyuan(ctx: Ctx, f: Frame) -> None:
    recover(ctx, f["target"], 1, None)
    ctx.pop(f)


def _eff_wugu(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    pool = [c for c in f["extra"]["pool"] if c in s["proc"]]
    if f["st"] == "effect":
        if not pool:
            ctx.pop(f)
            return
        f["st"] = "picked"
        ctx.ask(f, [f["target"]], "wugu", short=True, window=True, info={"pool": pool})
        return
    cid = ctx.take(f, "reply")["action"][0]
    R.to_hand(s, f["target"], [cid])
    say(ctx, "wugu_take", who=who(f["target"]), card=cname(card(cid).name), sr=R.card_label(cid))
    ctx.pop(f)




# -- targets -------------------------------------------------------------------------------------

def jiedao_victims(state: State, holder: int) -> list[int]:
    """Whom the weapon holder could be made to 杀 (借刀杀人's second target)."""
    return [s for s in R.living(state, holder + 1) if s != holder and R.in_range(state, holder, s)
            and R.can_target(state, holder, s, "sha")]


def _sha_targets(state: State, seat: int, cids: list[str], chosen: list[int],
                 others: list[int]) -> tuple[list[int], bool]:
    cap = R.fold(state, "sha_targets", 1, seat=seat, cards=cids)
    cand = [s for s in others if R.in_range(state, seat, s)] if len(chosen) < cap else []
    # skills that widen who may be chosen next (天义: no distance limit; 短兵: one more at distance 1)
    cand = R.fold(state, "sha_candidates", cand, seat=seat, cards=cids, chosen=chosen, others=others, cap=cap)
    return cand, len(chosen) >= 1


def _jiedao_targets(state: State, seat: int, cids: list[str], chosen: list[int],
                    others: list[int]) -> tuple[list[int], bool]:
    if not chosen:
        return [s for s in others if state["players"][s]["equip"]["weapon"] and jiedao_victims(state, s)], False
    if len(chosen) == 1:
        return jiedao_victims(state, chosen[0]), False
    return [], True


def _one_of(pick: Any) -> Any:
    """A single-target card: the first target from ``pick(state, seat, others)``, then done."""
    def targets(state: State, seat: int, cids: list[str], chosen: list[int],
                others: list[int]) -> tuple[list[int], bool]:
        if chosen:
            return [], True
        return pick(state, seat, others), False
    return targets


def _guohe(state: State, seat: int, others: list[int]) -> list[int]:
    return [s for s in others if R.has_cards(state, s)]


def _shunshou(state: State, seat: int, others: list[int]) -> list[int]:
    reach = R.fold(state, "trick_distance", 1, seat=seat)
    return [s for s in others if R.has_cards(state, s) and R.distance(state, seat, s) <= reach]


def _lebu(state: State, seat: int, others: list[int]) -> list[int]:
    return [s for s in others if not any(e[1] == "lebu" for e in state["players"][s]["judge"])]


def _self(state: State, seat: int) -> list[int]:
    return [seat]


def _wugu_reveal(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    pool = R.deal(s, len(f["targets"]))
    s["proc"].extend(pool)
    f["extra"]["pool"] = pool
    say(ctx, "wugu_reveal", cards=_labels(pool))


# -- the cards -----------------------------------------------------------------------------------

define(CardDef("sha", harmful=True, targets=_sha_targets, effect=_eff_sha, ai_value=5,
               can_use=lambda s, seat: s["sha_used"] < R.sha_limit(s, seat)))
define(CardDef("shan", usable=False, ai_value=7))
define(CardDef("tao", friendly=True, default_targets=_self, effect=_eff_tao, ai_value=9,
               can_use=lambda s, seat: s["players"][seat]["hp"] < s["players"][seat]["max"]))
define(CardDef("guohe", harmful=True, nullifiable=True, targets=_one_of(_guohe), effect=_eff_pick, ai_value=4))
define(CardDef("shunshou", harmful=True, nullifiable=True, targets=_one_of(_shunshou), effect=_eff_pick,
               ai_value=5))
define(CardDef("juedou", harmful=True, nullifiable=True, targets=_one_of(lambda _s, _seat, others: others),
               effect=_eff_juedou, ai_value=4))
define(CardDef("jiedao", harmful=True, nullifiable=True, targets=_jiedao_targets, effect=_eff_jiedao, ai_value=3))
define(CardDef("wuzhong", nullifiable=True, default_targets=_self, effect=_eff_wuzhong, ai_value=6))
define(CardDef("wuxie", usable=False, ai_value=6))
define(CardDef("nanman", harmful=True, nullifiable=True, default_targets=R.others_from, names_targets=False,
               effect=_eff_aoe, ai_value=4))
define(CardDef("wanjian", harmful=True, nullifiable=True, default_targets=R.others_from, names_targets=False,
               effect=_eff_aoe, ai_value=4))
define(CardDef("taoyuan", friendly=True, nullifiable=True, default_targets=R.living, effect=_eff_taoyuan,
               skip=lambda s, t: s["players"][t]["hp"] >= s["players"][t]["max"], ai_value=3))
define(CardDef("wugu", nullifiable=True, default_targets=R.living, on_use=_wugu_reveal, effect=_eff_wugu,
               ai_value=3))
define(CardDef("shandian", harmful=True, default_targets=_self, ai_value=1,
               can_use=lambda s, seat: not any(e[1] == "shandian" for e in s["players"][seat]["judge"])))
define(CardDef("lebu", harmful=True, targets=_one_of(_lebu), ai_value=5))

#: Equipment: worn by its user (an upgrade replaces a lower one; 过河拆桥/顺手牵羊 take the highest).
EQUIPMENT_VALUES = {"bagua": 8, "renwang": 7, "zhuge": 6, "qinglong": 5, "hanbing": 5, "guanshi": 5,
                    "zhangba": 5, "qinggang": 5, "fangtian": 4, "qilin": 4, "cixiong": 3,
                    "chitu": 5, "dawan": 5, "zixing": 5, "dilu": 6, "jueying": 6, "zhuahuang": 6}
for _name, _value in EQUIPMENT_VALUES.items():
    define(CardDef(_name, default_targets=_self, ai_value=_value))
