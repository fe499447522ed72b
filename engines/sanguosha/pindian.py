"""拼点 (a point contest) between two seats, for the skills that start one (纪灵's 双刃).

Each side chooses a hand card in secret (the one who started first, then the other, each asked
alone, ask kind ``pindian``; nobody sees the first card before the second is chosen); both are
shown and go to the discard pile; the one who started wins only with a strictly higher rank
(ties lose, the official rule). The frame returns True (the starter won) or False; None when
either side had no hand card left to contest with.
"""

from __future__ import annotations

from typing import Any

from engines.base import Step
from engines.flow import Ask, Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, ask_hint
from engines.sanguosha.choices import STEPS, card_opt, choose_one
from engines.sanguosha.data import card
from engines.sanguosha.packs import HEGEMONY_HEROES
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.views import prompt

State = dict[str, Any]
Frame = dict[str, Any]


def start(ctx: Ctx, seat: int, target: int, why: str) -> None:
    """Push a 拼点 of ``seat`` against ``target`` for the skill ``why`` (the result comes back
    to the caller's frame as its ``ret``)."""
    ctx.push("pindian", seat=seat, target=target, why=why, st="start")


@HEGEMONY_HEROES.kind("pindian")
def _pindian(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    seat, target = f["seat"], f["target"]
    if f["st"] == "start":
        if not (s["players"][seat]["hand"] and s["players"][target]["hand"]
                and R.alive(s, seat) and R.alive(s, target)):
            ctx.pop(f, None)
            return
        say(ctx, "pindian", who=who(seat), target=who(target))
        f["st"] = "first"
        ctx.ask(f, [seat], "pindian", info={"against": target, "why": f["why"]})
        return
    if f["st"] == "first":
        f["mine"] = ctx.take(f, "reply")["action"][0]
        f["st"] = "second"
        ctx.ask(f, [target], "pindian", info={"against": seat, "why": f["why"]})
        return
    theirs = ctx.take(f, "reply")["action"][0]
    mine = f["mine"]
    R.to_discard(s, [mine, theirs], reason="pindian")
    won = card(mine).rank > card(theirs).rank
    say(ctx, "pindian_show", who=who(seat), card=cname(card(mine).name), sr=R.card_label(mine),
        target=who(target), card2=cname(card(theirs).name), sr2=R.card_label(theirs))
    say(ctx, "pindian_won" if won else "pindian_lost", who=who(seat))
    ctx.pop(f, won)


def _step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    return choose_one(m("step.pindian"), [card_opt(c) for c in state["players"][seat]["hand"]], path)


STEPS["pindian"] = _step


@prompt("pindian")
def _prompt(info: dict[str, Any]) -> Any:
    from engines.sanguosha.skills import skill_ref

    return m("req.pindian", who=who(info["against"]), skill=skill_ref(info["why"]))


@ask_hint("pindian")
def _hint(s: Seat) -> list[str]:
    """The highest card, on either side: the starter wants the win, and the other side loses to
    a 双刃 win (a 杀 on it or its kingdom)."""
    opts = [o for o in s.responses() if o in s.hand]
    if not opts:
        return [s.options([])[0]]
    return [max(opts, key=lambda c: (card(c).rank, c))]
