"""Choosing heroes (seed 挑选武将): the lord first, from the three standard lords (刘备, 孙权,
曹操) plus two random heroes; then every other player at once and in secret (an ask of mode
``all``) from 3 random heroes (2 in a 10-player game) out of the rest. Then HP (the hero's, the
lord +1 with 5 or more players), skills (lord skills for the lord only), 4 cards each, and the
lord's first turn.

The offers live in this frame (never in the ask's shared info, which every asked seat sees), so a
seat's view shows only its own offer; answers are tokens ``"0"``, ``"1"``, ``"2"`` (index in the
seat's offer), and ``"0"`` is the silent default.
"""

from __future__ import annotations

from typing import Any

from engines.base import Option, Step
from engines.flow import Ask, Ctx, Flow
from engines.rng import Rng
from engines.sanguosha import rules as R
from engines.sanguosha.choices import STEPS, choose_one
from engines.sanguosha.heroes import hero, heroes, lords
from engines.sanguosha.packs import IDENTITY
from engines.sanguosha.rules import m, say, who

State = dict[str, Any]
Frame = dict[str, Any]


def assign(state: State, seat: int, hid: str) -> None:
    """Give ``seat`` the hero ``hid``: HP, gender, kingdom, skills (lord skills if lord)."""
    h = hero(hid)
    p = state["players"][seat]
    lord = seat == state["lord"]
    p["max"] = p["hp"] = h.hp + (1 if lord and state["n"] >= 5 else 0)
    p["hero"], p["gender"], p["kingdom"] = hid, h.gender, h.kingdom
    p["skills"] = list(h.skills) + (list(h.lord_skills) if lord else [])


@IDENTITY.kind("setup")
def _setup(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    rng = Rng(s)
    lord = s["lord"]
    if f["st"] == "start":
        rest = [h for h in heroes() if h not in lords()]
        rng.shuffle(rest)
        f["offers"] = {str(lord): list(lords()) + rest[:2]}
        f["st"] = "lord"
        ctx.ask(f, [lord], "hero")
        return
    if f["st"] == "lord":
        pick = f["offers"][str(lord)][int(ctx.take(f, "reply")["action"][0])]
        assign(s, lord, pick)
        say(ctx, "hero_lord", who=who(lord), hero=R.key_ref(f"sanguosha.hero.{pick}"))
        pool = [h for h in heroes() if h != pick]
        rng.shuffle(pool)
        each = 2 if s["n"] == 10 else 3
        others = [x for x in R.living(s, lord + 1) if x != lord]
        f["offers"] = {str(x): pool[i * each:(i + 1) * each] for i, x in enumerate(others)}
        f["st"] = "others"
        if others:
            ctx.ask(f, others, "hero", mode="all", default=("0",))
            return
        f["replies"] = {}
    replies = ctx.take(f, "replies") or {}
    for seat_s, action in replies.items():
        pick = f["offers"][seat_s][int(action[0])]
        assign(s, int(seat_s), pick)
        say(ctx, "hero_pick", who=who(int(seat_s)), hero=R.key_ref(f"sanguosha.hero.{pick}"))
    for seat in R.living(s, lord):
        s["players"][seat]["hand"].extend(R.deal(s, 4))
    ctx.pop(f)
    ctx.push("game", cur=None)


def offer_of(state: State, seat: int) -> list[str]:
    """The heroes ``seat`` is offered now (only while it is asked)."""
    top = Flow.top_ask(state)
    if top is None or top[0]["k"] != "setup":
        return []
    return list(top[0]["offers"].get(str(seat), []))


def _hero_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    offer = offer_of(state, seat)
    lord = seat == state["lord"]
    opts = [Option(str(i), m("opt.hero", hero=R.key_ref(f"sanguosha.hero.{h}"),
                             kingdom=R.key_ref(f"sanguosha.kingdom.{hero(h).kingdom}"),
                             hp=hero(h).hp + (1 if lord and state["n"] >= 5 else 0), skills=_skill_list(h, lord)))
            for i, h in enumerate(offer)]
    return choose_one(m("step.hero", heroes=_offer_text(offer, lord)), opts, path)


def _offer_text(offer: list[str], lord: bool) -> dict[str, Any] | str:
    """Each offered hero with its skills and what they do, one hero per line (a button label
    has no room for the descriptions, and choosing blind is no choice)."""
    lines = []
    for hid in offer:
        h = hero(hid)
        skills = [R.key_ref("sanguosha.step.skill_line", skill=R.key_ref(f"sanguosha.skill.{k}"),
                            desc=R.key_ref(f"sanguosha.skill_desc.{k}"))
                  for k in h.skills + (h.lord_skills if lord else ())]
        lines.append(R.key_ref("sanguosha.step.hero_line", hero=R.key_ref(f"sanguosha.hero.{hid}"),
                               kingdom=R.key_ref(f"sanguosha.kingdom.{h.kingdom}"), skills=_join(skills, "nl")))
    return _join(lines, "nl")


def _join(items: list[Any], how: str) -> Any:
    """Nested catalog references joining ``items`` (``sanguosha.sum.and`` or ``sanguosha.step.nl``)."""
    key = "sanguosha.sum.and" if how == "and" else "sanguosha.step.nl"
    out = items[-1]
    for item in reversed(items[:-1]):
        out = R.key_ref(key, a=item, b=out)
    return out


def _skill_list(hid: str, lord: bool) -> dict[str, Any] | str:
    """The hero's skills as one listing; the lord also sees the lord skills it would get."""
    h = hero(hid)
    return _join([R.key_ref(f"sanguosha.skill.{k}") for k in h.skills + (h.lord_skills if lord else ())], "and")


STEPS["hero"] = _hero_step
