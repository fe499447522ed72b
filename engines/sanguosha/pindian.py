"""拼点 (pindian): two seats each put out one hand card face down at once, then both are shown;
the one who started wins with the strictly higher rank (a tie is the other seat's). The cards go
to the discard pile. One frame on the core pack, so every skill that compares cards (天义, 驱虎 …)
shares it: push ``pindian`` (``seat`` starts, ``target``, ``why`` the skill) and read the result
(True: ``seat`` won) under ``ret``.

Ask ``pindian`` (mode ``all``: neither sees the other's choice): one hand card id.
"""

from __future__ import annotations

from typing import Any

from engines.base import EngineError, Step
from engines.flow import Ask, Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, ask_hint, fallback, value
from engines.sanguosha.choices import STEPS, card_opt, choose_one
from engines.sanguosha.data import card
from engines.sanguosha.packs import CORE
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import skill_ref
from engines.sanguosha.views import prompt

State = dict[str, Any]
Frame = dict[str, Any]


def can_pindian(state: State, a: int, b: int) -> bool:
    """Both seats alive, different, and each holding a hand card."""
    ps = state["players"]
    return a != b and R.alive(state, a) and R.alive(state, b) and bool(ps[a]["hand"]) and bool(ps[b]["hand"])


@CORE.kind("pindian")
def _pindian(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat, target = f["seat"], f["target"]
    if f["st"] == "start":
        if not can_pindian(s, seat, target):
            ctx.pop(f, False)
            return
        f["st"] = "chosen"
        ctx.ask(f, [seat, target], "pindian", mode="all", window=True,
                info={"user": seat, "target": target, "why": f["why"]})
        return
    replies = ctx.take(f, "replies")
    mine, theirs = replies[str(seat)][0], replies[str(target)][0]
    R.to_proc(s, [mine, theirs], reason="pindian")
    for who_, cid in ((seat, mine), (target, theirs)):
        say(ctx, "pindian_show", who=who(who_), card=cname(card(cid).name), sr=R.card_label(cid))
    won = card(mine).rank > card(theirs).rank
    say(ctx, "pindian_won" if won else "pindian_lost", who=who(seat), target=who(target),
        skill=skill_ref(f["why"]))
    R.to_discard(s, [c for c in (mine, theirs) if c in s["proc"]])
    ctx.pop(f, won)


def _pindian_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    hand = state["players"][seat]["hand"]
    if not hand:
        raise EngineError("sanguosha.err.illegal")
    return choose_one(m("step.pindian"), [card_opt(c) for c in hand], path)


STEPS["pindian"] = _pindian_step


@prompt("pindian")
def _pindian_prompt(info: dict[str, Any]) -> Any:
    return m("req.pindian", user=who(info["user"]), target=who(info["target"]), skill=skill_ref(info["why"]))


# -- the AI's hint (its own view only) -------------------------------------------------------

@ask_hint("pindian")
def _pindian_hint(s: Seat) -> list[str]:
    """The highest card to win (ties lose for the starter); a friend's 拼点 aimed at this seat is
    let through with the lowest card, which also costs the least."""
    info = s.ask.info
    hand = [c for c in s.options([]) if c in s.hand]
    if not hand:
        return fallback(s)
    if s.seat == info["target"] and s.mind.friend(info["user"]):
        return [min(hand, key=lambda c: (card(c).rank, value(s.hand[c]), c))]
    return [max(hand, key=lambda c: (card(c).rank, -value(s.hand[c]), c))]
