"""极武三国 standing answers (issue 19): a duel's move order, set once in the DM panel, so a duel
in an asynchronous game does not wait on a player for each of its secret rounds.

The order is read round by round from the seat's own view (the duel's round), so the answer
knows nothing its player would not; the service logs it as an ordinary action (source "auto").
A new player is asked (a move is a choice, not an answer that can only help).
"""

from __future__ import annotations

from itertools import permutations

from engines.base import Action, OptionSpec, Request, View
from engines.jiwu.choices import MOVES
from engines.jiwu.rules import m

__all__ = ["answer", "ask_always", "specs"]

ASK = "ask"
#: Every order of the three moves, as the setting's values ("atk,par,brk").
ORDERS = tuple(",".join(p) for p in permutations(MOVES))


def _move(v: str) -> dict[str, str]:
    return {"key": f"jiwu_names.duel.{v}"}


def specs(view: View) -> list[OptionSpec]:
    choices = [(ASK, m("standing.duel_ask"))]
    choices += [(o, m("standing.duel_order", a=_move(a), b=_move(b), c=_move(c)))
                for o in ORDERS for a, b, c in [o.split(",")]]
    return [OptionSpec("duel", m("standing.duel"), choices, ASK)]


def ask_always(view: View) -> dict[str, str]:
    return {"duel": ASK}


def answer(view: View, request: Request, settings: dict[str, str]) -> Action | None:
    order = settings.get("duel", ASK)
    duel = view.get("duel")
    if request.kind != "duel" or order not in ORDERS or not duel:
        return None
    if (view.get("you") or {}).get("duel_pick") is not None:
        return None
    moves = order.split(",")
    return [moves[int(duel["round"]) % len(moves)]]
