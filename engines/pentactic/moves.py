"""Walking an action's tokens: the legal options at each step, and validation of a full action.

``step`` and ``apply`` share this walk, so a button the front-end offers is exactly an action
``apply`` accepts, and a hand-typed action is checked token by token with a precise error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.base import EngineError, Msg, Option, Step
from engines.pentactic import rules
from engines.pentactic.board import board_masks, geo, legal_disc_mask
from engines.pentactic.geometry import Placement, cell_token, parse_cell
from engines.pentactic.shapes import PIECES
from engines.tokens import ascii_int

State = dict[str, Any]


def _m(key: str, **params: Any) -> Msg:
    return Msg(f"pentactic.{key}", params)


def _err(key: str, **params: Any) -> EngineError:
    return EngineError(f"pentactic.err.{key}", **params)


@dataclass(frozen=True)
class Parsed:
    """A complete, legal action, decoded."""

    verb: str
    target: int | None = None
    piece: str | None = None
    cell: tuple[int, int] | None = None
    placement: Placement | None = None


def verbs(state: State) -> list[str]:
    phase = state["phase"]
    if phase == "discard":
        return ["discard"]
    if phase == "defend":
        return ["disc"]
    if phase == "attack":
        return ["place", "hint"] if state["mode"] == "4" else ["place"]
    return []


def _seat_options(seats: list[int]) -> list[Option]:
    return [Option(str(s), _m("opt.player", player=rules.pname(s))) for s in seats]


def _piece_options(pieces: list[str]) -> list[Option]:
    return [Option(p, _m(f"piece.{p}")) for p in pieces]


def _cell_options(g: Any, mask: int) -> list[Option]:
    return [Option(cell_token(x, y), _m("opt.cell", cell=cell_token(x, y)))
            for x, y in sorted(g.mask_cells(mask), key=lambda c: (c[0], c[1]))]


def _target(token: str, allowed: list[int]) -> int:
    seat = ascii_int(token)
    if seat is None or seat not in allowed:
        raise _err("target", token=token)
    return seat


def walk(state: State, seat: int, path: list[str]) -> tuple[Step | None, Parsed | None]:
    """(next step, parsed action if the path is complete). Raises EngineError on any bad token."""
    if state["phase"] == "over":
        raise _err("over")
    if state["turn"] != seat:
        raise EngineError("core.err.not_your_turn")
    if not isinstance(path, list) or not all(isinstance(t, str) for t in path):
        raise _err("verb", verb=str(path))
    options = verbs(state)
    if not path:
        return Step(_m("prompt.verb"), [Option(v, _m(f"verb.{v}")) for v in options]), None
    verb, rest = path[0], path[1:]
    if verb not in options:
        raise _err("verb", verb=verb)
    if verb == "hint":
        parsed = Parsed("hint")
        return _finish(rest, Step(_m("prompt.confirm"), [], complete=True), parsed)
    if verb == "discard":
        return _walk_discard(state, seat, rest)
    if verb == "disc":
        return _walk_disc(state, seat, rest)
    return _walk_place(state, seat, rest)


def _finish(rest: list[str], step: Step, parsed: Parsed) -> tuple[Step, Parsed]:
    if rest:
        raise _err("too_long")
    return step, parsed


def _walk_discard(state: State, seat: int, rest: list[str]) -> tuple[Step | None, Parsed | None]:
    targets = rules.discard_targets(state, seat)
    if state["mode"] == "3":
        if not rest:
            return Step(_m("prompt.discard_target"), _seat_options(targets)), None
        target, rest = _target(rest[0], targets), rest[1:]
    else:
        target = targets[0]
    pieces = rules.discardable(state, seat, target)
    if not rest:
        return Step(_m("prompt.discard_piece", player=rules.pname(target)), _piece_options(pieces)), None
    if rest[0] not in pieces:
        raise _err("piece", piece=rest[0])
    return _finish(rest[1:], Step(_m("prompt.confirm"), [], complete=True),
                   Parsed("discard", target=target, piece=rest[0]))


def _walk_disc(state: State, seat: int, rest: list[str]) -> tuple[Step | None, Parsed | None]:
    targets = rules.disc_targets(state, seat)
    if state["mode"] == "3":
        if not rest:
            return Step(_m("prompt.disc_target"), _seat_options(targets)), None
        target, rest = _target(rest[0], targets), rest[1:]
    else:
        target = targets[0]
    g = geo(state)
    legal = legal_disc_mask(g, rules.board_of(state, target))
    if not rest:
        return Step(_m("prompt.disc_cell", player=rules.pname(target)), _cell_options(g, legal)), None
    cell = parse_cell(rest[0], g.width, g.height)
    if cell is None or not (legal & g.bit(*cell)):
        raise _err("disc_cell", cell=rest[0])
    return _finish(rest[1:], Step(_m("prompt.confirm"), [], complete=True),
                   Parsed("disc", target=target, cell=cell))


def _walk_place(state: State, seat: int, rest: list[str]) -> tuple[Step | None, Parsed | None]:
    g = geo(state)
    occ, _ = board_masks(g, rules.own_board(state, seat))
    mine = state["players"][seat]["pieces"]
    fitting = [p for p in PIECES if p in mine and g.fits_anywhere(p, occ)]
    if not rest:
        return Step(_m("prompt.piece"), _piece_options(fitting)), None
    piece = rest[0]
    if piece not in fitting:
        raise _err("piece", piece=piece)
    per_o = g.by_orientation[piece]
    fits_o = [o for o, pls in enumerate(per_o) if any(not (p.mask & occ) for p in pls)]
    owner = rules.own_board(state, seat)["owner"]
    if len(rest) == 1:
        picture = {"kind": "orientations", "piece": piece, "seat": seat, "options": [str(o) for o in fits_o]}
        return Step(_m("prompt.orientation", piece=piece),
                    [Option(str(o), _m("opt.orientation", n=o + 1)) for o in fits_o], picture=picture), None
    tok = rest[1]
    o = ascii_int(tok)
    if o is None or o not in fits_o:
        raise _err("orientation", orientation=tok)
    anchors = {p.anchor: p for p in per_o[o] if not (p.mask & occ)}
    if len(rest) == 2:
        mask = 0
        for p in anchors.values():
            mask |= g.bit(p.x, p.y)
        options = _cell_options(g, mask)
        # The picture lists the option tokens so its cell labels are exactly the offered ones.
        picture = {"kind": "anchors", "piece": piece, "orientation": o, "seat": seat, "board": owner,
                   "options": [opt.value for opt in options]}
        return Step(_m("prompt.anchor", piece=piece), options, picture=picture), None
    pl = anchors.get(rest[2])
    if pl is None:
        at = parse_cell(rest[2], g.width, g.height)
        pl = anchors.get(cell_token(*at)) if at else None
    if pl is None:
        raise _err("anchor", cell=rest[2])
    return _finish(rest[3:], Step(_m("prompt.confirm"), [], complete=True, preview=True),
                   Parsed("place", piece=piece, placement=pl))
