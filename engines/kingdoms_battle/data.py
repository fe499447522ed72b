"""The 鬪三國 tile set, loaded from ``data/kingdoms_battle/tiles.json`` and validated once.

The seed names 25 tile types and their counts but not their faces; the faces are this project's
design and live in data so they can be tuned (and re-measured by the self-play bench) without
touching rules code. A malformed file fails loudly at import with the file and the problem, never
as a wrong game later.

Geometry: edges are numbered N=0, E=1, S=2, W=3. Turning a tile ``r`` quarter turns clockwise
moves its edge ``i`` to ``(i + r) % 4``. Every rotation of every type is precomputed here
(``Face``), with rotations that look the same dropped, so placement code only indexes tables.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "kingdoms_battle"
SIDES = "NESW"
CITY, PLAIN, BARRICADE = "C", "P", "B"
TERRAINS = (CITY, PLAIN, BARRICADE)
#: The seed's table: type -> number of tiles (type 8 includes the start tile).
SEED_COUNTS = {1: 3, 2: 2, 3: 2, 4: 1, 5: 2, 6: 3, 7: 6, 8: 5, 9: 6, 10: 4, 11: 7, 12: 2, 13: 1,
               14: 1, 15: 7, 16: 2, 17: 6, 18: 1, 19: 2, 20: 1, 21: 1, 22: 1, 23: 2, 24: 3, 25: 1}
SEED_TOTAL = 72
START_TYPE = 8


class TileDataError(ValueError):
    """The tile file is malformed; the message names the file and the problem."""


@dataclass(frozen=True)
class Face:
    """One tile type turned ``rot`` quarter turns clockwise.

    ``edges`` is the terrain per side (N, E, S, W); ``cities`` the sides of each city segment;
    ``plains`` the sides of each plain region with the city segments (indices into ``cities``)
    it borders; ``spaces`` the city segment of each garrison space. Segment and space indices
    are the same in every rotation, so a troop's space never changes meaning.
    """

    type: int
    rot: int
    edges: str
    cities: tuple[tuple[int, ...], ...]
    plains: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    spaces: tuple[int, ...]


@dataclass(frozen=True)
class TileType:
    type: int
    count: int
    faces: tuple[Face, ...]  # distinct rotations only, rot ascending
    note: str

    def face(self, rot: int) -> Face | None:
        for f in self.faces:
            if f.rot == rot:
                return f
        return None


@dataclass(frozen=True)
class TileSet:
    types: dict[int, TileType]
    start_type: int

    def bag(self) -> list[int]:
        """Every tile but the start tile, by type, in type order (the game shuffles it)."""
        out: list[int] = []
        for tid, tt in sorted(self.types.items()):
            out += [tid] * (tt.count - (1 if tid == self.start_type else 0))
        return out


def _fail(problem: str) -> TileDataError:
    return TileDataError(f"data/kingdoms_battle/tiles.json: {problem}")


def _sides(text: Any, where: str) -> tuple[int, ...]:
    if not isinstance(text, str) or not text or any(ch not in SIDES for ch in text) or len(set(text)) != len(text):
        raise _fail(f"{where}: {text!r} is not a list of sides (letters of NESW, no repeats)")
    return tuple(sorted(SIDES.index(ch) for ch in text))


def _rotate(face: Face, rot: int) -> Face:
    def turn(sides: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted((s + rot) % 4 for s in sides))

    edges = [""] * 4
    for i, ch in enumerate(face.edges):
        edges[(i + rot) % 4] = ch
    return Face(face.type, rot, "".join(edges), tuple(turn(c) for c in face.cities),
                tuple((turn(p), c) for p, c in face.plains), face.spaces)


def _signature(face: Face) -> tuple[Any, ...]:
    """What a player sees of a face: two rotations with equal signatures are the same choice."""
    cities = [(c, face.spaces.count(i)) for i, c in enumerate(face.cities)]
    plains = sorted((p, tuple(sorted(face.cities[i] for i in cs))) for p, cs in face.plains)
    return face.edges, tuple(sorted(cities)), tuple(plains)


def _parse_tile(raw: Any, n: int) -> TileType:
    if not isinstance(raw, dict):
        raise _fail(f"tile #{n} is not an object")
    tid, count, edges = raw.get("type"), raw.get("count"), raw.get("edges")
    where = f"type {tid}"
    if not isinstance(tid, int) or not isinstance(count, int) or count < 1:
        raise _fail(f"tile #{n}: type and count must be whole numbers, count >= 1")
    if not isinstance(edges, str) or len(edges) != 4 or any(ch not in TERRAINS for ch in edges):
        raise _fail(f"{where}: edges must be 4 letters of C, P, B (N E S W)")
    cities = tuple(_sides(c, f"{where} city") for c in raw.get("cities", []))
    if not cities:
        raise _fail(f"{where}: every tile has a city part")
    used = [s for c in cities for s in c]
    if len(used) != len(set(used)) or set(used) != {i for i, ch in enumerate(edges) if ch == CITY}:
        raise _fail(f"{where}: city segments must partition the city sides exactly once")
    plains = []
    for p in raw.get("plains", []):
        if not isinstance(p, dict):
            raise _fail(f"{where}: a plain region is not an object")
        sides = _sides(p.get("edges"), f"{where} plain")
        touched = p.get("cities", [])
        if not isinstance(touched, list) or any(not isinstance(c, int) or not 0 <= c < len(cities) for c in touched):
            raise _fail(f"{where}: a plain region names a city segment that does not exist")
        plains.append((sides, tuple(sorted(set(touched)))))
    used = [s for p, _ in plains for s in p]
    if len(used) != len(set(used)) or set(used) != {i for i, ch in enumerate(edges) if ch == PLAIN}:
        raise _fail(f"{where}: plain regions must partition the plain sides exactly once")
    if BARRICADE not in edges and len(plains) > 1 and len(cities) == 1 and len(cities[0]) == 1:
        raise _fail(f"{where}: nothing divides its plains (no barricade, one city cap)")
    spaces = raw.get("spaces")
    if not isinstance(spaces, list) or not 1 <= len(spaces) <= 2 or any(
            not isinstance(s, int) or not 0 <= s < len(cities) for s in spaces):
        raise _fail(f"{where}: 1 or 2 garrison spaces, each naming a city segment")
    base = Face(tid, 0, edges, cities, tuple(plains), tuple(spaces))
    faces: list[Face] = []
    seen: set[tuple[Any, ...]] = set()
    for rot in range(4):
        face = _rotate(base, rot)
        sig = _signature(face)
        if sig not in seen:
            seen.add(sig)
            faces.append(face)
    return TileType(tid, count, tuple(faces), str(raw.get("note", "")))


def parse(data: Any) -> TileSet:
    """Validate the decoded JSON against the seed (25 types, their counts, 72 tiles)."""
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise _fail("top level must be an object with a 'tiles' list")
    types: dict[int, TileType] = {}
    signatures: dict[tuple[Any, ...], int] = {}
    for n, raw in enumerate(data["tiles"]):
        tt = _parse_tile(raw, n)
        if tt.type in types:
            raise _fail(f"type {tt.type} appears twice")
        for face in tt.faces:
            other = signatures.get(_signature(face))
            if other is not None:
                raise _fail(f"type {tt.type} is type {other} turned")
            signatures[_signature(face)] = tt.type
        types[tt.type] = tt
    counts = {tid: tt.count for tid, tt in types.items()}
    if counts != SEED_COUNTS:
        raise _fail(f"types and counts differ from the seed's table: {counts}")
    start = data.get("start_type")
    if start != START_TYPE:
        raise _fail(f"start_type must be {START_TYPE} (the seed's type 8 includes the start tile)")
    return TileSet(types, START_TYPE)


def load(base: Path = DATA_DIR) -> TileSet:
    path = base / "tiles.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise _fail(f"cannot be read ({exc})") from exc
    return parse(data)


@lru_cache(maxsize=1)
def tiles() -> TileSet:
    """The shipped tile set (loaded and validated once per process)."""
    return load()
