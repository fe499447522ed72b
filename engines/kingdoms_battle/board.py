"""The tile map: placement, legal spots, cities and the plains between them.

Everything lives in the JSON state so a match replays from its log. Cities and plains are kept
incrementally as they grow (each segment key ``"<tile>.<segment>"`` maps to the id of the city or
plain it belongs to; merging relabels the younger one), so a turn never rescans the map. A city's
id is the key of its oldest segment and therefore does not change while it grows; only completed
cities are named in actions, and a completed city never merges again.

Sides are N=0, E=1, S=2, W=3; y grows downwards.
"""

from __future__ import annotations

from typing import Any

from engines.base import State
from engines.kingdoms_battle.data import CITY, PLAIN, Face, tiles

STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: A city of up to this many tiles is small (1 point, occupied on 4–6); larger is large.
SMALL_MAX_TILES = 3


def cell(x: int, y: int) -> str:
    return f"{x},{y}"


def parse_cell(token: str) -> tuple[int, int] | None:
    """``"x,y"`` with ASCII digits and an optional minus sign, else None."""
    parts = token.split(",") if isinstance(token, str) and len(token) <= 12 else []
    if len(parts) != 2:
        return None
    out = []
    for p in parts:
        body = p[1:] if p.startswith("-") else p
        if not body or not (body.isascii() and body.isdigit()):
            return None
        out.append(int(p))
    return out[0], out[1]


def face_of(state: State, idx: int) -> Face:
    t, _x, _y, rot = state["tiles"][idx]
    face = tiles().types[t].face(rot)
    assert face is not None
    return face


def new_board(state: State) -> None:
    state.update({"tiles": [], "at": {}, "seg_city": {}, "cities": {}, "seg_plain": {}, "plains": {}})


def fits(state: State, face: Face, x: int, y: int) -> bool:
    """Rule A and B: touches the map along an edge, and every touching edge has the same terrain."""
    at = state["at"]
    if cell(x, y) in at:
        return False
    touching = False
    for side, (dx, dy) in enumerate(STEP):
        other = at.get(cell(x + dx, y + dy))
        if other is None:
            continue
        touching = True
        if face_of(state, other).edges[(side + 2) % 4] != face.edges[side]:
            return False
    return touching


def frontier(state: State) -> list[tuple[int, int]]:
    """Empty cells next to the map, in reading order (top row first)."""
    out: set[tuple[int, int]] = set()
    at = state["at"]
    for _t, x, y, _r in state["tiles"]:
        for dx, dy in STEP:
            if cell(x + dx, y + dy) not in at:
                out.add((x + dx, y + dy))
    return sorted(out, key=lambda p: (p[1], p[0]))


def legal_spots(state: State, ttype: int) -> dict[tuple[int, int], list[int]]:
    """Every cell where ``ttype`` fits, with the rotations that fit there (distinct ones only):
    :func:`fits` for every frontier cell and face, with each cell's neighbouring edges read once
    instead of once per face."""
    kinds = tiles().types
    faces = kinds[ttype].faces
    at, placed = state["at"], state["tiles"]
    out: dict[tuple[int, int], list[int]] = {}
    for x, y in frontier(state):
        need = []
        for side, (dx, dy) in enumerate(STEP):
            other = at.get(cell(x + dx, y + dy))
            if other is not None:
                t, _x, _y, rot = placed[other]
                face = kinds[t].face(rot)
                assert face is not None
                need.append((side, face.edges[(side + 2) % 4]))
        if not need:
            continue
        rots = [f.rot for f in faces if all(f.edges[side] == edge for side, edge in need)]
        if rots:
            out[(x, y)] = rots
    return out


def _seg_side(face: Face, groups: Any, side: int) -> int:
    for i, g in enumerate(groups):
        sides = g[0] if isinstance(g[0], tuple) else g
        if side in sides:
            return i
    raise AssertionError("side not in any group")


def _merge(state: State, table: str, index: str, a: str, b: str) -> str:
    """Union of two cities (or plains); the older id (lower tile, then segment) survives."""
    if a == b:
        return a
    keep, gone = sorted((a, b), key=lambda k: tuple(int(p) for p in k.split(".")))
    old = state[table].pop(gone)
    new = state[table][keep]
    for key, val in old.items():
        if isinstance(val, list):
            new[key] = new[key] + [v for v in val if v not in new[key]]
        elif key == "open":
            new[key] += val
    for seg in old["segs"]:
        state[index][seg] = keep
    return keep


def place(state: State, ttype: int, x: int, y: int, rot: int) -> int:
    """Put a tile on the map (legality is the caller's job) and join its cities and plains to
    the neighbours'. Returns the new tile's index."""
    face = tiles().types[ttype].face(rot)
    assert face is not None
    idx = len(state["tiles"])
    state["tiles"].append([ttype, x, y, rot])
    state["at"][cell(x, y)] = idx
    for s, sides in enumerate(face.cities):
        key = f"{idx}.{s}"
        state["seg_city"][key] = key
        state["cities"][key] = {"segs": [key], "tiles": [idx], "open": len(sides), "done": False,
                                "spaces": [f"{idx}.{k}" for k, seg in enumerate(face.spaces) if seg == s]}
    for p, (_sides, touched) in enumerate(face.plains):
        key = f"{idx}.{p}"
        state["seg_plain"][key] = key
        state["plains"][key] = {"segs": [key], "cities": [f"{idx}.{c}" for c in touched]}
    for side, (dx, dy) in enumerate(STEP):
        other = state["at"].get(cell(x + dx, y + dy))
        if other is None:
            continue
        oface = face_of(state, other)
        oside = (side + 2) % 4
        terrain = face.edges[side]
        if terrain == CITY:
            a = state["seg_city"][f"{idx}.{_seg_side(face, face.cities, side)}"]
            b = state["seg_city"][f"{other}.{_seg_side(oface, oface.cities, oside)}"]
            root = _merge(state, "cities", "seg_city", a, b)
            state["cities"][root]["open"] -= 2
        elif terrain == PLAIN:
            a = state["seg_plain"][f"{idx}.{_seg_side(face, face.plains, side)}"]
            b = state["seg_plain"][f"{other}.{_seg_side(oface, oface.plains, oside)}"]
            _merge(state, "plains", "seg_plain", a, b)
    return idx


def city_of_space(state: State, space: str) -> str:
    idx, k = (int(p) for p in space.split("."))
    return state["seg_city"][f"{idx}.{face_of(state, idx).spaces[k]}"]


def tile_cities(state: State, idx: int) -> list[str]:
    """The cities a tile's segments belong to, each once, in segment order."""
    out: list[str] = []
    for s in range(len(face_of(state, idx).cities)):
        cid = state["seg_city"][f"{idx}.{s}"]
        if cid not in out:
            out.append(cid)
    return out


def size(state: State, cid: str) -> int:
    return len(state["cities"][cid]["tiles"])


def is_large(state: State, cid: str) -> bool:
    return size(state, cid) > SMALL_MAX_TILES


def value(state: State, cid: str) -> int:
    return 2 if is_large(state, cid) else 1


def links(state: State) -> dict[str, set[str]]:
    """City -> the other cities a plain joins it to. A plain region ends at a barricade (regions
    are split by barricades within a tile, and a barricade edge never joins a plain), so one
    shared plain region is exactly "joined by plains with no barricade between"."""
    out: dict[str, set[str]] = {}
    seg_city = state["seg_city"]
    for plain in state["plains"].values():
        cities = {seg_city[s] for s in plain["cities"]}
        for c in cities:
            out.setdefault(c, set()).update(cities - {c})
    return out
