"""拼点 (comparing cards): two seats each choose a hand card at once and in secret; both are
shown and go to the discard pile; the first seat wins only with a strictly higher rank.

A skill pushes it with :func:`pindian` and finds True (the first seat won) or False under its
frame's ``ret``. The choice is one ask of mode ``all`` (kind ``pindian``), so neither seat sees
the other's card before both chose.
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

Frame = dict[str, Any]


def can_pindian(state: dict[str, Any], a: int, b: int) -> bool:
    """Both seats alive, different and holding a hand card."""
    ps = state["players"]
    return a != b and R.alive(state, a) and R.alive(state, b) and bool(ps[a]["hand"]) and bool(ps[b]["hand"])


def pindian(ctx: Ctx, a: int, b: int, why: str) -> None:
    """``a`` compares cards with ``b`` for the skill ``why`` (both must hold a hand card)."""
    ctx.push("pindian", a=a, b=b, why=why, st="start")


@HEGEMONY_HEROES.kind("pindian")
def _pindian(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    a, b = f["a"], f["b"]
    if f["st"] == "start":
        if not can_pindian(s, a, b):
            ctx.pop(f, False)
            return
        f["st"] = "chosen"
        ctx.ask(f, [a, b], "pindian", mode="all", window=True, info={"a": a, "b": b, "why": f["why"]})
        return
    replies = ctx.take(f, "replies")
    ca, cb = replies[str(a)][0], replies[str(b)][0]
    R.to_proc(s, [ca, cb], reason="pindian")
    won = card(ca).rank > card(cb).rank
    say(ctx, "pindian", who=who(a), target=who(b), card=cname(card(ca).name), sr=R.card_label(ca),
        card2=cname(card(cb).name), sr2=R.card_label(cb), winner=who(a if won else b))
    R.to_discard(s, [c for c in (ca, cb) if c in s["proc"]])
    ctx.pop(f, won)


def _pindian_step(state: dict[str, Any], seat: int, path: list[str], ask: Ask) -> Step:
    return choose_one(m("step.pindian"), [card_opt(c) for c in state["players"][seat]["hand"]], path)


STEPS["pindian"] = _pindian_step


@prompt("pindian")
def _pindian_prompt(info: dict[str, Any]) -> Any:
    return m("req.pindian", a=who(info["a"]), b=who(info["b"]))


@ask_hint("pindian")
def _pindian_ai(s: Seat) -> list[str]:
    """The highest card to win — the first seat always, the other unless the first is a friend
    (then the lowest, to let it win)."""
    hand = [c for c in s.options([]) if c in s.hand]
    by_rank = sorted(hand, key=lambda c: (card(c).rank, c))
    first = s.ask.info["a"]
    if s.seat != first and s.mind.friend(first):
        return [by_rank[0]]
    return [by_rank[-1]]
