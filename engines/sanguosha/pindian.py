"""拼点 (comparing cards): two seats each put a hand card face down, both are shown at once, the
higher rank wins (a tie is not a win for the one who started it). Skills push the ``pindian``
frame (烈刃 …) and read its return value: True when the starter won.

Each seat answers its own ask (kind ``pindian``; no pass: a card is required), one after the
other; the first card stays in its owner's hand, unseen by anybody else, until the second is
chosen, so the order of the asks tells nothing.
"""

from __future__ import annotations

from typing import Any

from engines.base import Step
from engines.flow import Ask, Ctx
from engines.sanguosha import rules as R
from engines.sanguosha.ai import Seat, ask_hint, value
from engines.sanguosha.choices import STEPS, card_opt, choose_one
from engines.sanguosha.data import card
from engines.sanguosha.packs import CORE
from engines.sanguosha.rules import cname, m, say, who
from engines.sanguosha.skills import skill_ref
from engines.sanguosha.views import prompt

State = dict[str, Any]
Frame = dict[str, Any]


def can_pindian(state: State, a: int, b: int) -> bool:
    """Both seats alive, different and holding a hand card."""
    ps = state["players"]
    return a != b and R.alive(state, a) and R.alive(state, b) and bool(ps[a]["hand"]) and bool(ps[b]["hand"])


def push_pindian(ctx: Ctx, a: int, b: int, why: str) -> None:
    """``a`` compares cards with ``b`` for the skill ``why``; the frame returns whether ``a`` won."""
    ctx.push("pindian", a=a, b=b, why=why, st="start")


@CORE.kind("pindian")
def _pindian(ctx: Ctx, f: Frame) -> None:
    s = ctx.state
    if f["st"] == "start":
        if not can_pindian(s, f["a"], f["b"]):
            ctx.pop(f, False)
            return
        f["st"] = "a"
        ctx.ask(f, [f["a"]], "pindian", short=True, info={"with": f["b"], "why": f["why"], "starter": f["a"]})
        return
    if f["st"] == "a":
        f["ca"] = ctx.take(f, "reply")["action"][0]
        f["st"] = "b"
        ctx.ask(f, [f["b"]], "pindian", short=True, info={"with": f["a"], "why": f["why"], "starter": f["a"]})
        return
    cb = ctx.take(f, "reply")["action"][0]
    ca = f.pop("ca")
    R.to_proc(s, [ca, cb], reason="pindian")
    say(ctx, "pindian", who=who(f["a"]), card=cname(card(ca).name), sr=R.card_label(ca),
        target=who(f["b"]), card2=cname(card(cb).name), sr2=R.card_label(cb))
    won = card(ca).rank > card(cb).rank
    say(ctx, "pindian_won" if won else "pindian_lost", who=who(f["a"]), skill=skill_ref(f["why"]))
    R.to_discard(s, [c for c in (ca, cb) if c in s["proc"]])
    ctx.pop(f, won)


def _pindian_step(state: State, seat: int, path: list[str], ask: Ask) -> Step:
    return choose_one(m("step.pindian"), [card_opt(c) for c in state["players"][seat]["hand"]], path)


STEPS["pindian"] = _pindian_step


@prompt("pindian")
def _pindian_prompt(info: dict[str, Any]) -> Any:
    return m("req.pindian", target=who(info["with"]), skill=skill_ref(info["why"]))


@ask_hint("pindian")
def _pindian_hint(s: Seat) -> list[str]:
    """The highest rank among the cards least worth keeping (a 桃 or 闪 only when nothing else
    is left); against a friend who started it, the lowest (let it win)."""
    cards = [o for o in s.options([]) if o in s.hand]
    other = s.ask.info["with"]
    if other == s.ask.info.get("starter") and s.mind.friend(other):
        return [min(cards, key=lambda c: (card(c).rank, value(s.hand[c]), c))]
    spare = [c for c in cards if value(s.hand[c]) < 7] or cards
    return [max(spare, key=lambda c: (card(c).rank, -value(s.hand[c]), c))]
