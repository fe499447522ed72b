"""Pending requests and their ids.

Ids are ``r<n>`` from a counter kept in the state (``engines.adapter.mint_request_id``), so they
are unique for the whole match. A seat that did not act keeps its id when its kind of request is
unchanged (another player's secret placement must not make your buttons stale); everything else
gets a fresh id.
"""

from __future__ import annotations

from engines.adapter import mint_request_id
from engines.base import Msg, Request, State
from engines.risk import rules

_KIND = {
    "setup_claim": "claim",
    "setup_hq": "hq",
    "reinforce": "reinforce",
    "attack": "attack",
    "occupy": "occupy",
    "fortify": "fortify",
}


def _wanted(state: State) -> list[tuple[int, str]]:
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "setup_place":
        if state["setup"] == "quick":
            return [(s, "deploy") for s, p in enumerate(state["players"]) if p["to_place"] > 0]
        return [(state["turn"], "place")]
    if phase == "setup_hq":
        return [(s, "hq") for s in range(state["seats"]) if str(s) not in state["hq_choice"]]
    return [(state["turn"], _KIND[phase])]


def refresh(state: State, actor: int | None) -> None:
    """Recompute ``state["req_ids"]`` after ``actor`` acted (None: new game)."""
    old = state["req_ids"]
    new: dict[str, list] = {}
    for seat, kind in _wanted(state):
        prev = old.get(str(seat))
        if prev is not None and prev[1] == kind and seat != actor:
            new[str(seat)] = prev
        else:
            new[str(seat)] = [mint_request_id(state), kind]
    state["req_ids"] = new


def pending(state: State) -> list[Request]:
    out = []
    ids = state["req_ids"]
    # In play there is one request: no sort (pending is asked after every move).
    entries = ids.items() if len(ids) < 2 else sorted(ids.items(), key=lambda kv: int(kv[0]))
    for seat_key, (rid, kind) in entries:
        params = {"left": state["players"][int(seat_key)]["to_place"]} if kind in ("deploy", "place") else {}
        if kind == "reinforce":
            params = {"left": rules.reinforcements_left(state)}
        out.append(Request(rid, int(seat_key), kind, Msg(f"risk.req.{kind}", params)))
    return out
