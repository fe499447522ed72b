"""The 国战 lords option (君主, 君临天下): the seed's 国战君主规则 as mode rules.

The rule (docs/rules/sanguosha-hegemony-lords.md): at a seat's first turn start it may replace one
of its two heroes by that hero's lord form (``hg_heroes.LORD_OF``; the lord is shown as it comes
in, and a gain in max HP is recovered at once); a shown lord cannot be hidden again; while a lord
is shown its kingdom has no 野心家 (those it had go back to it, and the half-the-table limit stops
counting for it); when the lord dies every seat of its kingdom, dead or alive, shown or not yet,
is a 野心家 from then on, and the lord stays on the table as its kingdom's marker.

State: ``state["hg"]["lords"]`` (the option), ``hg["fallen"]`` (kingdom → the dead lord's id, the
marker), a seat's ``lord_asked`` (its first turn start has passed) and ``ye_by_lord`` (the kingdom
whose lord's death made it a 野心家; that death's reward still counts it in the kingdom). Kingdoms are read through
``HegemonyMode.kingdom`` everywhere, so victory, rewards and 鏖战 follow these changes.
"""

from __future__ import annotations

from typing import Any

from engines.base import Option, Step, key_ref
from engines.flow import Ask, Ctx
from engines.sanguosha import hg_heroes
from engines.sanguosha import rules as R
from engines.sanguosha.choices import STEPS, choose_one
from engines.sanguosha.frames import PASS, recover
from engines.sanguosha.heroes import hero
from engines.sanguosha.packs import HEGEMONY
from engines.sanguosha.rules import m, say, who

State = dict[str, Any]
Frame = dict[str, Any]


def on(state: State) -> bool:
    """Is the lords option on in this (国战) game?"""
    return bool(state.get("hg", {}).get("lords"))


def shown_lord(state: State, seat: int) -> str | None:
    """The seat's shown lord hero, if any."""
    for h in state["players"][seat].get("heroes", ()):
        if h["shown"] and hg_heroes.is_lord(h["id"]):
            return str(h["id"])
    return None


def lord_standing(state: State, kingdom: str) -> bool:
    """Does a living seat show the lord of ``kingdom``?"""
    return any(R.alive(state, i) and (lid := shown_lord(state, i)) and hero(lid).kingdom == kingdom
               for i in range(state["n"]))


def fallen(state: State, kingdom: str) -> bool:
    """Has ``kingdom`` lost its lord (its seats are 野心家 for the rest of the game)?"""
    return kingdom in state.get("hg", {}).get("fallen", {})


def may_hide(state: State, seat: int, index: int) -> bool:
    """A shown lord is never hidden again (君主武将明置后不可被暗置)."""
    return not hg_heroes.is_lord(state["players"][seat]["heroes"][index]["id"])


def pairs_all(main: str, deputy: str) -> bool:
    """A lord is the 珠联璧合 partner of every hero of its kingdom (君临天下; the seed is silent)."""
    return hg_heroes.is_lord(main) or hg_heroes.is_lord(deputy)


def swappable(state: State, seat: int) -> list[int]:
    """Indexes of the seat's heroes that have a lord form."""
    return [i for i, h in enumerate(state["players"][seat]["heroes"])
            if hg_heroes.lord_form(h["id"]) and not h.get("locked")]


# -- the swap at the first turn start ---------------------------------------------------------

@HEGEMONY.on("turn_start", "hg.lord_swap", priority=50,
             can=lambda ctx, ev: on(ctx.state) and not ctx.state["players"][ev["seat"]].get("lord_asked"))
def _first_turn(ctx: Ctx, ev: dict[str, Any]) -> None:
    """The seat's first turn starts: ask it once, if one of its heroes has a lord form."""
    seat = ev["seat"]
    ctx.state["players"][seat]["lord_asked"] = True
    if swappable(ctx.state, seat):
        ctx.push("hg_lord_swap", seat=seat, st="ask")


@HEGEMONY.kind("hg_lord_swap")
def _swap_frame(ctx: Ctx, f: Frame) -> None:
    if f["st"] == "ask":
        f["st"] = "answered"
        ctx.ask(f, [f["seat"]], "hg_lord_swap", default=PASS, short=True, window=True, info={"seat": f["seat"]})
        return
    action = ctx.take(f, "reply")["action"]
    ctx.pop(f)
    if action != ["pass"]:
        swap(ctx, f["seat"], int(action[0]))


def swap(ctx: Ctx, seat: int, index: int) -> None:
    """Replace hero ``index`` by its lord form and show it. Max HP is recomputed from the two
    heroes' 阴阳鱼; a gain raises max HP and HP alike (若因此增加了体力上限，立即回复等量体力), a
    loss changes nothing. While both heroes have not yet been shown, the leftover half (阴阳鱼
    marker) follows the new pair."""
    from engines.sanguosha.hegemony import max_hp

    s = ctx.state
    p = s["players"][seat]
    h = p["heroes"][index]
    old, lord = h["id"], hg_heroes.lord_form(h["id"])
    assert lord is not None
    h["id"] = lord
    main, deputy = (x["id"] for x in p["heroes"])
    new_max, half = max_hp(main, deputy)
    if not p.get("both"):
        p["half"] = half
    say(ctx, "hg_lord_swap", who=who(seat), hero=key_ref(f"sanguosha.hero.{old}"),
        lord=key_ref(f"sanguosha.hero.{lord}"))
    gain = new_max - p["max"]
    if gain > 0:
        p["max"] = new_max
        recover(ctx, seat, gain, seat)
    if h["shown"]:
        R.refresh_heroes(s, seat)
        lord_shown(ctx, seat)
    else:
        R.reveal(ctx, seat, index)


def _swap_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    hs = state["players"][seat]["heroes"]
    opts = [Option(str(i), m("opt.hg_lord_swap", hero=key_ref(f"sanguosha.hero.{hs[i]['id']}"),
                             lord=key_ref(f"sanguosha.hero.{hg_heroes.lord_form(hs[i]['id'])}")))
            for i in swappable(state, seat)]
    return choose_one(m("step.hg_lord_swap"), [*opts, Option("pass", m("opt.pass"))], path)


STEPS["hg_lord_swap"] = _swap_step



# -- a lord shown, a lord dead ----------------------------------------------------------------

def lord_shown(ctx: Ctx, seat: int) -> None:
    """A lord is up: every 野心家 of its kingdom (made so by the half-the-table limit) is of the
    kingdom again (所有与此君主势力相同的野心家恢复其原有势力)."""
    s = ctx.state
    k = hero(shown_lord(s, seat) or "").kingdom
    for i, q in enumerate(s["players"]):
        if q.get("ye") and q.get("settled") and hero(q["heroes"][0]["id"]).kingdom == k:
            q["ye"] = False
            say(ctx, "hg_lord_rejoin", who=who(i), kingdom=key_ref(f"sanguosha.kingdom.{k}"))


def lord_died(ctx: Ctx, seat: int) -> None:
    """The lord of a kingdom dies: every other seat of that kingdom is a 野心家 from now on
    (所有与其势力相同的武将都视为野心家), the hidden ones as soon as they are shown, and the
    lord's hero stays on the table as the marker (``hg["fallen"]``)."""
    s = ctx.state
    lid = shown_lord(s, seat)
    if lid is None:
        return
    k = hero(lid).kingdom
    s["hg"].setdefault("fallen", {})[k] = lid
    say(ctx, "hg_lord_fallen", lord=key_ref(f"sanguosha.hero.{lid}"), kingdom=key_ref(f"sanguosha.kingdom.{k}"))
    for i, q in enumerate(s["players"]):
        if i != seat and q.get("settled") and not q.get("ye") and hero(q["heroes"][0]["id"]).kingdom == k:
            q["ye"], q["ye_by_lord"] = True, k
            say(ctx, "hg_lord_ye", who=who(i))


def death_kingdom(state: State, victim: int) -> str | None:
    """The kingdom whose lord ``victim`` is (None: not a lord): its seats made 野心家 by this death
    still count as that kingdom in the death's own reward (the seed's order: 奖惩, then 君主死亡后
    the kingdom's seats are 野心家)."""
    lid = shown_lord(state, victim)
    return hero(lid).kingdom if lid else None


__all__ = ["death_kingdom", "fallen", "lord_died", "lord_shown", "lord_standing", "may_hide", "on", "shown_lord", "swap"]
