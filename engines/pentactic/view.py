"""The public table as one self-contained JSON dict (renderers and embeds use only this)."""

from __future__ import annotations

from typing import Any

from engines.base import Msg, key_ref
from engines.pentactic import rules

State = dict[str, Any]


def _role(state: State, seat: int) -> str | None:
    if state["mode"] != "1" or state["phase"] == "over":
        return None
    return "attacker" if seat == rules.attacker(state) else "defender"


def _score(state: State, seat: int) -> int | None:
    p = state["players"][seat]
    if state["mode"] == "1":
        return p["score"]
    return rules.live_score(state, seat)


def build_view(state: State) -> dict[str, Any]:
    """Pentactic has no hidden information, so every seat sees the same view."""
    over = state["phase"] == "over"
    players = []
    for s, p in enumerate(state["players"]):
        players.append({
            "seat": s, "pieces_left": list(p["pieces"]), "discarded": list(p["discarded"]),
            "discs_left": p["discs"], "score": _score(state, s),
            "total": p["total"] if (over or state["mode"] == "1") else None,
            "role": _role(state, s), "passed": bool(p["passed"]),
        })
    boards = []
    for b in state["boards"]:
        boards.append({
            "owner": b["owner"],
            "discs": [{"cell": [x, y], "by": by} for x, y, by in b["discs"]],
            "pieces": [{"piece": pc["piece"], "seat": pc["seat"], "orientation": pc["orientation"],
                        "anchor": pc["anchor"], "cells": [list(c) for c in pc["cells"]]}
                       for pc in b["pieces"]],
        })
    last = state["last"]
    return {
        "game": "pentactic", "mode": state["mode"], "board": state["board"],
        "width": state["width"], "height": state["height"], "round": state["round"],
        "phase": state["phase"], "to_move": [] if state["turn"] is None else [state["turn"]],
        "players": players, "boards": boards,
        "last": None if last is None else {"board": last["board"], "kind": last["kind"],
                                           "cells": [list(c) for c in last["cells"]]},
        "round_results": [dict(r) for r in state["round_results"]],
        "winners": None if state["winners"] is None else list(state["winners"]),
        "deal": state["deal"] if state["mode"] == "4" else None,
        "hint": None if state["hint"] is None else dict(state["hint"]),
        "hints_used": state["hints"],
    }


def describe(view: dict[str, Any]) -> list[Msg]:
    """Phase, whose turn, pieces/discs left and scores, one Msg per line."""
    lines: list[Msg] = []
    mode = view["mode"]
    phase = key_ref(f"pentactic.phase.{view['phase']}")
    if mode == "1":
        lines.append(Msg("pentactic.desc.round_duel", {"round": view["round"], "phase": phase}))
    elif mode == "4":
        lines.append(Msg("pentactic.desc.solo", {"board": view["board"]}))
    else:
        lines.append(Msg("pentactic.desc.round", {"round": view["round"], "phase": phase}))
    if view["to_move"]:
        lines.append(Msg("pentactic.desc.to_move", {"player": rules.pname(view["to_move"][0])}))
    for p in view["players"]:
        score = "-" if p["score"] is None else p["score"]
        lines.append(Msg("pentactic.desc.player", {
            "player": rules.pname(p["seat"]), "pieces": len(p["pieces_left"]), "discs": p["discs_left"],
            "score": score}))
    if view["winners"] is not None:
        for w in view["winners"]:
            lines.append(Msg("pentactic.desc.winner", {"player": rules.pname(w)}))
        if not view["winners"]:
            lines.append(Msg("pentactic.desc.unsolved", {}))
    return lines
