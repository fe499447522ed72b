"""Pentactic state and its transitions (all four modes).

One seat decides at a time in every mode, so the state holds ``turn`` and ``phase`` and
:func:`settle` moves the game forward after every action: forced passes (no disc left, no legal
square, no piece that fits) are taken automatically and announced, and the end of a round or of
the game is detected exactly. Passing is never a choice: a seat is only asked when it has at
least one legal move.

Discs only ever remove empty squares, so a seat that cannot place any piece now can never place
one again; that is why "all attackers are stuck" ends modes 2 and 3 at once.
"""

from __future__ import annotations

from typing import Any

from engines.base import Event, Msg, seat_ref
from engines.pentactic.board import board_masks, can_place_any, geo, legal_disc_mask
from engines.pentactic.deal import deal_solo
from engines.pentactic.geometry import BOARDS, DISCS_PER_PLAYER, SOLO_DISCS, Placement, cell_token
from engines.pentactic.shapes import PIECES
from engines.rng import Rng

State = dict[str, Any]


#: Seat colours, in the order the renderer paints seats (render.common.PLAYER_COLORS); engine
#: messages name players by colour, front-ends add user names.
COLORS = ("red", "yellow", "blue", "green", "purple", "black")


def pname(seat: int) -> dict[str, Any]:
    """A seat's name as a seat reference: the player's name where the front-end knows it,
    else the seat's colour (translated by the front-end)."""
    return seat_ref(seat, f"pentactic.color.{COLORS[seat]}")


def _player(pieces: list[str], discs: int) -> dict[str, Any]:
    return {"pieces": list(pieces), "discarded": [], "discs": discs, "passed": False,
            "score": None, "total": None}


def _board(owner: int) -> dict[str, Any]:
    return {"owner": owner, "discs": [], "pieces": []}


def attacker(state: State) -> int:
    """Mode 1: seat 0 attacks in round 1, seat 1 in round 2."""
    return (state["round"] - 1) % 2


def defender(state: State) -> int:
    return 1 - attacker(state)


def board_of(state: State, owner: int) -> dict[str, Any]:
    for b in state["boards"]:
        if b["owner"] == owner:
            return b
    raise KeyError(owner)


def new_state(options: dict[str, str], seats: int, seed: int) -> State:
    """A fresh game; the solo deal is made here (see :mod:`engines.pentactic.deal`)."""
    mode, size = options["mode"], options["board"]
    w, h = BOARDS[size]
    state: State = {
        "mode": mode, "board": size, "deal": options.get("deal", "solvable"), "width": w, "height": h,
        "seats": seats, "rng": Rng.seed_value(seed), "seq": 0, "round": 1, "phase": "discard",
        "turn": None, "players": [], "boards": [], "last": None, "round_results": [],
        "winners": None, "queue": [], "first_discard": None, "hint": None, "hints": 0,
    }
    if mode == "1":
        state["players"] = [_player(PIECES, 0), _player([], DISCS_PER_PLAYER)]
        state["boards"] = [_board(0)]
        state["turn"] = defender(state)
    elif mode in ("2", "3"):
        state["players"] = [_player(PIECES, DISCS_PER_PLAYER) for _ in range(seats)]
        state["boards"] = [_board(s) for s in range(seats)]
        state["queue"] = list(range(seats))
        state["turn"] = 0
    else:
        state["players"] = [_player(PIECES, 0)]
        board = _board(0)
        board["discs"] = [[x, y, None] for x, y in deal_solo(state, SOLO_DISCS[size])]
        state["boards"] = [board]
        state["phase"] = "attack"
        state["round"] = 1
        settle(state, [])
    return state


# ----- legality -----------------------------------------------------------------------------

def discard_targets(state: State, seat: int) -> list[int]:
    """Whose tray ``seat`` may discard from now.

    Mode 3 (and 2, where it is simply the opponent): an opponent who still has all 12 pieces, and
    never a choice that would leave the last discarder with only their own tray to pick from.
    """
    if state["mode"] == "1":
        return [attacker(state)]
    full = [s for s in range(state["seats"]) if len(state["players"][s]["pieces"]) == len(PIECES)]
    later = state["queue"][1:]
    out = []
    for t in full:
        if t == seat:
            continue
        rest = [s for s in full if s != t]
        if len(later) == 1 and rest == later:
            continue
        out.append(t)
    return out


def discardable(state: State, seat: int, target: int) -> list[str]:
    pieces = state["players"][target]["pieces"]
    if state["mode"] == "1" and state["round"] == 2 and state["first_discard"]:
        return [p for p in pieces if p != state["first_discard"]]
    return list(pieces)


def disc_targets(state: State, seat: int) -> list[int]:
    """Boards on which ``seat`` may put a disc now (empty when it must pass)."""
    if state["players"][seat]["discs"] <= 0:
        return []
    mode = state["mode"]
    if mode == "1":
        owners = [attacker(state)]
    elif mode == "2":
        owners = [1 - seat]
    else:
        owners = [s for s in range(state["seats"]) if s != seat]
    g = geo(state)
    return [o for o in owners if legal_disc_mask(g, board_of(state, o))]


def own_board(state: State, seat: int) -> dict[str, Any]:
    return board_of(state, attacker(state) if state["mode"] == "1" else seat)


def can_attack(state: State, seat: int) -> bool:
    p = state["players"][seat]
    return bool(p["pieces"]) and can_place_any(geo(state), own_board(state, seat), p["pieces"])


# ----- transitions --------------------------------------------------------------------------

def _ev(key: str, kind: str, **params: Any) -> Event:
    return Event(Msg(f"pentactic.ev.{key}", params), kind=kind)


def do_discard(state: State, seat: int, target: int, piece: str, events: list[Event]) -> None:
    tp = state["players"][target]
    tp["pieces"].remove(piece)
    tp["discarded"].append(piece)
    if state["mode"] == "1":
        if state["round"] == 1:
            state["first_discard"] = piece
        state["phase"] = "defend"
    else:
        state["queue"].pop(0)
        if not state["queue"]:
            state["phase"] = "defend"
            state["queue"] = list(range(state["seats"]))
    events.append(_ev("discard", "discard", player=pname(seat), target=pname(target), piece=piece))
    state["last"] = None
    settle(state, events)


def do_disc(state: State, seat: int, owner: int, x: int, y: int, events: list[Event]) -> None:
    board = board_of(state, owner)
    board["discs"].append([x, y, seat])
    p = state["players"][seat]
    p["discs"] -= 1
    p["passed"] = False
    state["last"] = {"board": owner, "kind": "disc", "cells": [[x, y]]}
    events.append(_ev("disc", "disc", player=pname(seat), target=pname(owner), cell=cell_token(x, y)))
    _after_defence(state, events)


def do_place(state: State, seat: int, pl: Placement, events: list[Event]) -> None:
    owner = attacker(state) if state["mode"] == "1" else seat
    board = board_of(state, owner)
    cells = [[x, y] for x, y in geo(state).mask_cells(pl.mask)]
    board["pieces"].append({"piece": pl.piece, "seat": seat, "orientation": pl.orientation,
                            "anchor": pl.anchor, "cells": cells})
    p = state["players"][seat]
    p["pieces"].remove(pl.piece)
    p["passed"] = False
    state["last"] = {"board": owner, "kind": "piece", "cells": cells}
    state["hint"] = None
    events.append(_ev("place", "place", player=pname(seat), piece=pl.piece, orientation=pl.orientation + 1,
                      cell=pl.anchor))
    if state["mode"] == "1":
        state["phase"] = "defend"
    elif state["mode"] in ("2", "3"):
        state["queue"].pop(0)
    settle(state, events)


def _after_defence(state: State, events: list[Event]) -> None:
    if state["mode"] == "1":
        state["phase"] = "attack"
    else:
        state["queue"].pop(0)
    settle(state, events)


def _pass(state: State, seat: int, reason: str, events: list[Event]) -> None:
    state["players"][seat]["passed"] = True
    events.append(_ev(f"pass_{reason}", "pass", player=pname(seat)))


def settle(state: State, events: list[Event]) -> None:
    """Advance to the next real decision, taking forced passes and ending rounds/games."""
    mode = state["mode"]
    for _ in range(4 * (state["seats"] + 2) + 8):
        if state["phase"] in ("over", "discard"):
            if state["phase"] == "discard":
                state["turn"] = defender(state) if mode == "1" else state["queue"][0]
            return
        if mode == "4":
            if not can_attack(state, 0):
                _finish(state, events)
            else:
                state["turn"] = 0
            return
        if mode == "1":
            if _settle_duel(state, events):
                return
            continue
        if _settle_table(state, events):
            return
    raise RuntimeError("pentactic: settle did not converge")  # pragma: no cover - a bug guard


def _settle_duel(state: State, events: list[Event]) -> bool:
    """Mode 1. Returns True when somebody must decide (or the game is over)."""
    d, a = defender(state), attacker(state)
    if state["phase"] == "defend":
        if disc_targets(state, d):
            state["turn"] = d
            return True
        reason = "no_discs" if state["players"][d]["discs"] <= 0 else "no_square"
        _pass(state, d, reason, events)
        state["phase"] = "attack"
        return False
    # attack: the round ends exactly when the attacker is to move and cannot.
    if can_attack(state, a):
        state["turn"] = a
        return True
    _end_round(state, events)
    return state["phase"] == "over"


def _end_round(state: State, events: list[Event]) -> None:
    a, d = attacker(state), defender(state)
    score = len(state["players"][a]["pieces"]) - state["players"][d]["discs"]
    state["players"][a]["score"] = score
    state["players"][a]["total"] = score
    state["round_results"].append({"round": state["round"], "attacker": a, "defender": d, "score": score})
    events.append(_ev("round_end", "round", round=state["round"], player=pname(a), score=score,
                      pieces=len(state["players"][a]["pieces"]), discs=state["players"][d]["discs"]))
    if state["round"] >= 2:
        _finish(state, events)
        return
    state["round"] = 2
    na, nd = attacker(state), defender(state)
    state["players"][na]["pieces"] = list(PIECES)
    state["players"][na]["discs"] = 0
    state["players"][nd]["pieces"] = []
    state["players"][nd]["discs"] = DISCS_PER_PLAYER
    for p in state["players"]:
        p["passed"] = False
    state["boards"] = [_board(na)]
    state["last"] = None
    state["phase"] = "discard"
    state["turn"] = nd


def _settle_table(state: State, events: list[Event]) -> bool:
    """Modes 2 and 3: walk the turn queue of the current phase."""
    n = state["seats"]
    if not any(can_attack(state, s) for s in range(n)):
        _finish(state, events)
        return True
    if not state["queue"]:
        if state["phase"] == "defend":
            state["phase"] = "attack"
        else:
            state["phase"] = "defend"
            state["round"] += 1
        state["queue"] = list(range(n))
    seat = state["queue"][0]
    if state["phase"] == "defend":
        if disc_targets(state, seat):
            state["turn"] = seat
            return True
        reason = "no_discs" if state["players"][seat]["discs"] <= 0 else "no_square"
        _pass(state, seat, reason, events)
    else:
        if can_attack(state, seat):
            state["turn"] = seat
            return True
        _pass(state, seat, "no_piece", events)
    state["queue"].pop(0)
    return False


def live_score(state: State, seat: int) -> int:
    p = state["players"][seat]
    return len(p["pieces"]) + (p["discs"] if state["mode"] != "4" else 0)


def _finish(state: State, events: list[Event]) -> None:
    mode = state["mode"]
    n = state["seats"]
    if mode == "1":
        totals = [state["players"][s]["total"] or 0 for s in range(n)]
    else:
        totals = [live_score(state, s) for s in range(n)]
        for s in range(n):
            state["players"][s]["score"] = totals[s]
            state["players"][s]["total"] = totals[s]
    if mode == "4":
        winners = [0] if totals[0] == 0 else []
    else:
        best = min(totals)
        winners = [s for s in range(n) if totals[s] == best]
    state["winners"] = winners
    state["phase"] = "over"
    state["turn"] = None
    state["queue"] = []
    events.append(_ev("game_over", "over"))
    for w in winners:
        events.append(_ev("winner", "over", player=pname(w)))


def occupancy(state: State, owner: int) -> int:
    return board_masks(geo(state), board_of(state, owner))[0]
