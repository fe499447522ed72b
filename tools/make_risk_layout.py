"""Build ``data/risk/layout.json``, the drawing layout of the Risk world map, from the cell art below.

The map is authored as a grid of cells, one character per cell, because a grid keeps the layout
honest: two territories border each other exactly when their cells touch, so the map can be
checked mechanically against the adjacency list (the renderer then smooths the cell edges into
coastlines). Everything the renderer needs that can be derived from the art — the badge anchor of
each territory, the ends of each dashed sea route — is computed here once and stored, so the
renderer does no geometry search at run time and the test can check the stored result.

Run ``python tools/make_risk_layout.py`` after editing the art; it refuses to write a layout that
contradicts the adjacency list.
"""

from __future__ import annotations

import json
import math
import sys
from collections import deque
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "data" / "risk" / "layout.json"
CELL_PX = 20

# One character per cell; "." is sea. The key below names each character's territory.
ART = """
........................................................................
.....................GGGGGG.............................................
..AAAA..NNNNNNNN...GGGGGGGGG........SSSS.UUUU.uuuubbbbbbyyyyyyykkkkk....
.AAAAAANNNNNNNNNNN.GGGGGGGGG.......SSSSSSUUUUUuuuuubbbbbbyyyyyyykkkkkk..
.AAAAAANNNNNNNNNNN..GGGGGGG..III..SSSSSSSUUUUUuuuubbbbbbbyyyyyykkkkkkkk.
.AAAAAANNNNNNNNNNN...GGGGG...III..SSS.SSUUUUUUuuuuubbbbbyyyyyyykkkkkkkk.
.AAAAAANNNNNNNN.......GGG.........SSS...UUUUUUuuuuuubbbbbiiiiiikkkkkkk..
..AAAABBBBOOOO.....QQ..G.......KK.SSS..UUUUUUUuuuuubbbbbbiiiiikkkkkkk...
.AAAABBBBBOOOO....QQQQ........KKK..SS.UUUUUUUUuuuuuubbbbbiiiiiikkkkk....
.AA..BBBBBOOOOO..QQQQQQ.......KKK..nnnnUUUUUUUuuuuuubbbbiiiiiiikkkk.....
.....BBBBBOOOOOOOOQQQQQ........KK.nnnnnUUUUUUUaaaaahhbbbboooooooo.......
.....BBBBBBOOOOOOOQQQQ............nnnnnUUUUUUaaaaaahhhhhhoooooooo...jj..
.....BBBBBBBOOOOOQQQQ..........wwwwwssssUUUUUaaaaaahhhhhhhoooooo...jjj..
....WWWWWWWWWEEEEEEE..........wwwwwwsssssUUUaaaaaaahhhhhhhhhhhhh..jjj...
....WWWWWWWWWEEEEEEEE.........wwwwwsss.sssmmmaaaaaddhhhhhhhhhhhh.jj.....
.....WWWWWWWWEEEEEEE..........wwww..ss..ssmmmmmmdddddhhhhhhhhhhh........
......WWWWWWWEEEEEE.......................mmmmmmmdddddhhhhhhhhh.........
.......WWWWWWEEEEE............FFFFFFFYYYYYmmmmmmmddddddhhhhhhh..........
.......CCCCCCC.EE............FFFFFFFFYYYYY.mmmmmm.ddddddthhhh...........
........CCCCCC..............FFFFFFFFFYYYYY..mmmmm..ddddtttt.............
..........CCCCC.............FFFFFFFFFYYYY....mmm...ddd..ttt.............
............CCCC............FFFFFFFFFXXXXXX.........dd..tt..............
..............CCCVVVVVV......FFFFFFFXXXXXXXX........dd...t..............
................VVVVVVVV......FFFFFXXXXXXXXXXX...........t..............
...............PPPRRRRRRR.......ccccXXXXXXXXX...............ee..........
..............PPPPRRRRRRRR......cccccXXXXXX............ee..eeee..gggg...
..............PPPPRRRRRRRRR......cccccXXXX..............eee.ee..ggggggg.
...............PPPPRRRRRRR........ccccXXXX.M......................ggg...
...............PPPPRRRRRR..........ZZZZZZ..MM...........................
................TTTRRRRR...........ZZZZZZ.MMM................xxxx.zz....
................TTTRRRR.............ZZZZZ.MM...............xxxxxxzzzz...
................TTTT................ZZZZ..................xxxxxxxzzzzz..
................TTTT.................ZZ...................xxxxxxxzzzzz..
................TTTT.......................................xxxxxxzzzz...
.................TTT........................................xxxxzzzz....
.................TT..............................................zz.....
.................TT.....................................................
..................T.....................................................
........................................................................
"""

KEY = {
    "A": "alaska", "N": "northwest_territory", "G": "greenland", "B": "alberta", "O": "ontario",
    "Q": "quebec", "W": "western_united_states", "E": "eastern_united_states", "C": "central_america",
    "V": "venezuela", "P": "peru", "R": "brazil", "T": "argentina",
    "I": "iceland", "K": "great_britain", "S": "scandinavia", "n": "northern_europe",
    "w": "western_europe", "s": "southern_europe", "U": "ukraine",
    "F": "north_africa", "Y": "egypt", "X": "east_africa", "c": "congo", "Z": "south_africa",
    "M": "madagascar",
    "m": "middle_east", "a": "afghanistan", "u": "ural", "b": "siberia", "y": "yakutsk",
    "k": "kamchatka", "i": "irkutsk", "o": "mongolia", "j": "japan", "h": "china", "d": "india",
    "t": "siam",
    "e": "indonesia", "g": "new_guinea", "x": "western_australia", "z": "eastern_australia",
}

# Continents in the order of the classic board's bonus table; ``tint`` colours the coast halo and
# the legend swatch, ``label`` is where the continent's name is written in the sea (cell units).
CONTINENTS = {
    "north_america": {"bonus": 5, "tint": "#e8a93a", "label": [10.5, 0.7]},
    "south_america": {"bonus": 2, "tint": "#d9543f", "label": [25.5, 33.2]},
    "europe": {"bonus": 5, "tint": "#4f8fd9", "label": [36.5, 0.7]},
    "africa": {"bonus": 3, "tint": "#c98a4b", "label": [38.5, 34.6]},
    "asia": {"bonus": 7, "tint": "#5fb35a", "label": [57.5, 0.7]},
    "australia": {"bonus": 2, "tint": "#a66cc9", "label": [64.5, 37.0]},
}
MEMBERS = {
    "north_america": ["alaska", "northwest_territory", "greenland", "alberta", "ontario", "quebec",
                      "western_united_states", "eastern_united_states", "central_america"],
    "south_america": ["venezuela", "peru", "brazil", "argentina"],
    "europe": ["iceland", "great_britain", "scandinavia", "northern_europe", "western_europe",
               "southern_europe", "ukraine"],
    "africa": ["north_africa", "egypt", "east_africa", "congo", "south_africa", "madagascar"],
    "asia": ["middle_east", "afghanistan", "ural", "siberia", "yakutsk", "kamchatka", "irkutsk",
             "mongolia", "japan", "china", "india", "siam"],
    "australia": ["indonesia", "new_guinea", "western_australia", "eastern_australia"],
}

# The classic board's 83 borders (sea routes included), as in the public rules.
ADJACENCY = {
    "alaska": ["northwest_territory", "alberta", "kamchatka"],
    "northwest_territory": ["alaska", "alberta", "ontario", "greenland"],
    "greenland": ["northwest_territory", "ontario", "quebec", "iceland"],
    "alberta": ["alaska", "northwest_territory", "ontario", "western_united_states"],
    "ontario": ["northwest_territory", "alberta", "western_united_states", "eastern_united_states",
                "quebec", "greenland"],
    "quebec": ["ontario", "eastern_united_states", "greenland"],
    "western_united_states": ["alberta", "ontario", "eastern_united_states", "central_america"],
    "eastern_united_states": ["western_united_states", "ontario", "quebec", "central_america"],
    "central_america": ["western_united_states", "eastern_united_states", "venezuela"],
    "venezuela": ["central_america", "peru", "brazil"],
    "peru": ["venezuela", "brazil", "argentina"],
    "brazil": ["venezuela", "peru", "argentina", "north_africa"],
    "argentina": ["peru", "brazil"],
    "iceland": ["greenland", "great_britain", "scandinavia"],
    "great_britain": ["iceland", "scandinavia", "northern_europe", "western_europe"],
    "scandinavia": ["iceland", "great_britain", "northern_europe", "ukraine"],
    "northern_europe": ["great_britain", "scandinavia", "ukraine", "southern_europe", "western_europe"],
    "western_europe": ["great_britain", "northern_europe", "southern_europe", "north_africa"],
    "southern_europe": ["western_europe", "northern_europe", "ukraine", "middle_east", "egypt",
                        "north_africa"],
    "ukraine": ["scandinavia", "northern_europe", "southern_europe", "middle_east", "afghanistan", "ural"],
    "north_africa": ["brazil", "western_europe", "southern_europe", "egypt", "east_africa", "congo"],
    "egypt": ["north_africa", "southern_europe", "middle_east", "east_africa"],
    "east_africa": ["egypt", "north_africa", "congo", "south_africa", "madagascar", "middle_east"],
    "congo": ["north_africa", "east_africa", "south_africa"],
    "south_africa": ["congo", "east_africa", "madagascar"],
    "madagascar": ["south_africa", "east_africa"],
    "middle_east": ["southern_europe", "ukraine", "afghanistan", "india", "egypt", "east_africa"],
    "afghanistan": ["ukraine", "ural", "china", "india", "middle_east"],
    "ural": ["ukraine", "siberia", "china", "afghanistan"],
    "siberia": ["ural", "yakutsk", "irkutsk", "mongolia", "china"],
    "yakutsk": ["siberia", "kamchatka", "irkutsk"],
    "kamchatka": ["yakutsk", "irkutsk", "mongolia", "japan", "alaska"],
    "irkutsk": ["siberia", "yakutsk", "kamchatka", "mongolia"],
    "mongolia": ["irkutsk", "kamchatka", "japan", "china", "siberia"],
    "japan": ["kamchatka", "mongolia"],
    "china": ["mongolia", "siberia", "ural", "afghanistan", "india", "siam"],
    "india": ["middle_east", "afghanistan", "china", "siam"],
    "siam": ["india", "china", "indonesia"],
    "indonesia": ["siam", "new_guinea", "western_australia"],
    "new_guinea": ["indonesia", "eastern_australia", "western_australia"],
    "western_australia": ["indonesia", "new_guinea", "eastern_australia"],
    "eastern_australia": ["new_guinea", "western_australia"],
}

# Borders that cross water on the board and are drawn as dashed routes. Every other border must
# be a shared edge of cells; the build fails if the art disagrees with this list either way.
SEA_LINKS = [
    ("alaska", "kamchatka"), ("greenland", "northwest_territory"), ("greenland", "ontario"),
    ("greenland", "quebec"), ("greenland", "iceland"), ("iceland", "great_britain"),
    ("iceland", "scandinavia"), ("great_britain", "scandinavia"), ("great_britain", "northern_europe"),
    ("great_britain", "western_europe"), ("brazil", "north_africa"), ("western_europe", "north_africa"),
    ("southern_europe", "north_africa"), ("southern_europe", "egypt"), ("east_africa", "middle_east"),
    ("east_africa", "madagascar"), ("south_africa", "madagascar"), ("japan", "kamchatka"),
    ("japan", "mongolia"), ("siam", "indonesia"), ("indonesia", "new_guinea"),
    ("indonesia", "western_australia"), ("new_guinea", "western_australia"),
    ("new_guinea", "eastern_australia"),
]
#: Routes that leave one edge of the map and come back at the other (the Bering Strait).
WRAP_LINKS = {("alaska", "kamchatka")}
#: Hand-picked route ends (cell units) where the nearest coasts would run the line over land.
ROUTE_OVERRIDES: dict[tuple[str, str], tuple[list[float], list[float]]] = {
    # Across Hudson Bay and out through the strait, clear of Quebec and the Northwest Territory.
    ("greenland", "ontario"): ([21.5, 5.5], [13.5, 7.5]),
}
#: Hand-placed badge spots (cell units) where the computed one crowds a neighbour's name.
ANCHOR_OVERRIDES: dict[str, list[float]] = {
    "southern_europe": [37.5, 14.2],  # clear of "Northern Europe" written just above it
}
#: Territories drawn as several islands (the count is checked).
ISLANDS = {"indonesia": 2}
#: Where a territory's name goes relative to its badge when "below" does not suit it.
LABEL_SIDE: dict[str, str] = {}

Cell = tuple[int, int]


def parse_art() -> list[str]:
    rows = [line for line in ART.strip("\n").split("\n")]
    width = max(len(r) for r in rows)
    if any(len(r) != width for r in rows):
        raise SystemExit("every art row must have the same width")
    unknown = {ch for r in rows for ch in r} - set(KEY) - {"."}
    if unknown:
        raise SystemExit(f"unknown characters in art: {sorted(unknown)}")
    return rows


def cells_of(rows: list[str]) -> dict[str, list[Cell]]:
    out: dict[str, list[Cell]] = {tid: [] for tid in KEY.values()}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                out[KEY[ch]].append((x, y))
    return out


def components(cells: list[Cell]) -> int:
    """Number of 4-connected pieces."""
    left = set(cells)
    count = 0
    while left:
        count += 1
        queue = deque([left.pop()])
        while queue:
            x, y = queue.popleft()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in left:
                    left.remove(n)
                    queue.append(n)
    return count


def contacts(rows: list[str], diagonal: bool) -> set[frozenset[str]]:
    """Pairs of territories whose cells touch by an edge (or, with ``diagonal``, by a corner)."""
    steps = [(1, 0), (0, 1)] + ([(1, 1), (1, -1)] if diagonal else [])
    out: set[frozenset[str]] = set()
    h, w = len(rows), len(rows[0])
    for y in range(h):
        for x in range(w):
            a = rows[y][x]
            if a == ".":
                continue
            for dx, dy in steps:
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h and rows[ny][nx] not in (".", a):
                    out.add(frozenset((KEY[a], KEY[rows[ny][nx]])))
    return out


def anchor(cells: list[Cell], rows: list[str]) -> list[float]:
    """The badge spot: the point deepest inside the territory (centre of the deepest cells).

    The plain centroid can fall outside a curved territory or onto a border; the deepest cells
    leave the most room around the badge.
    """
    own = set(cells)
    h, w = len(rows), len(rows[0])
    outside = [(x, y) for y in range(-1, h + 1) for x in range(-1, w + 1) if (x, y) not in own]

    def depth(c: Cell) -> float:
        return min(math.hypot(c[0] - x, c[1] - y) for x, y in outside)

    depths = {c: depth(c) for c in cells}
    best = max(depths.values())
    deep = [c for c, d in depths.items() if d >= best - 1e-9]
    mx = sum(x for x, _ in deep) / len(deep)
    my = sum(y for _, y in deep) / len(deep)
    # The mean of the deepest cells may sit between two lobes; then take the deepest cell nearest it.
    if (round(mx), round(my)) not in own or depth((round(mx), round(my))) < best - 1.0:
        mx, my = min(deep, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2)
    return [round(mx + 0.5, 2), round(my + 0.5, 2)]


def route(a: list[Cell], b: list[Cell], wrap: bool, width: int) -> tuple[list[float], list[float]]:
    """Ends of a sea route: the closest pair of cells of the two territories (cell centres).

    A wrapping route goes from the westmost cell of ``a`` to the left edge and from the eastmost
    cell of ``b`` to the right edge; the renderer draws it as two half-routes.
    """
    if wrap:
        wa = min(a, key=lambda c: (c[0], abs(c[1] - 5)))
        eb = max(b, key=lambda c: (c[0], -abs(c[1] - 5)))
        return [wa[0] + 0.5, wa[1] + 0.5], [eb[0] + 0.5, eb[1] + 0.5]
    pa, pb = min(((p, q) for p in a for q in b),
                 key=lambda pq: (pq[0][0] - pq[1][0]) ** 2 + (pq[0][1] - pq[1][1]) ** 2)
    return [pa[0] + 0.5, pa[1] + 0.5], [pb[0] + 0.5, pb[1] + 0.5]


def check(rows: list[str], cells: dict[str, list[Cell]]) -> list[str]:
    problems: list[str] = []
    pairs = {frozenset((a, b)) for a, ns in ADJACENCY.items() for b in ns}
    for a, ns in ADJACENCY.items():
        for b in ns:
            if a not in ADJACENCY.get(b, []):
                problems.append(f"one-way border {a} -> {b}")
    if len(pairs) != 83:
        problems.append(f"expected 83 borders, found {len(pairs)}")
    sea = {frozenset(p) for p in SEA_LINKS}
    land = contacts(rows, diagonal=False)
    corner = contacts(rows, diagonal=True)
    for p in sorted(pairs, key=sorted):
        if p in sea and p in land:
            problems.append(f"{sorted(p)} is a sea route but also shares a border")
        if p not in sea and p not in land:
            problems.append(f"{sorted(p)} should share a border in the art")
    for p in sorted(corner - pairs, key=sorted):
        problems.append(f"{sorted(p)} touch in the art but are not neighbours")
    for p in sea - pairs:
        problems.append(f"sea route {sorted(p)} is not a border")
    for tid, cs in cells.items():
        if not cs:
            problems.append(f"{tid} has no cells")
        elif components(cs) != ISLANDS.get(tid, 1):
            problems.append(f"{tid} has {components(cs)} pieces, expected {ISLANDS.get(tid, 1)}")
    return problems


def build() -> dict[str, object]:
    rows = parse_art()
    cells = cells_of(rows)
    problems = check(rows, cells)
    if problems:
        raise SystemExit("layout does not match the board:\n  " + "\n  ".join(problems))
    continent_of = {t: c for c, ts in MEMBERS.items() for t in ts}
    territories = {}
    for tid in KEY.values():
        territories[tid] = {
            "continent": continent_of[tid],
            "anchor": ANCHOR_OVERRIDES.get(tid) or anchor(cells[tid], rows),
            "cells": len(cells[tid]),
            "label": LABEL_SIDE.get(tid, "below"),
        }
    links = []
    for a, b in SEA_LINKS:
        ends = ROUTE_OVERRIDES.get((a, b)) or route(cells[a], cells[b], (a, b) in WRAP_LINKS, len(rows[0]))
        links.append({"a": a, "b": b, "wrap": (a, b) in WRAP_LINKS, "from": ends[0], "to": ends[1]})
    return {
        "version": 1,
        "cell_px": CELL_PX,
        "cols": len(rows[0]),
        "rows": len(rows),
        "key": KEY,
        "grid": rows,
        "continents": {cid: {**spec, "territories": MEMBERS[cid]} for cid, spec in CONTINENTS.items()},
        "territories": territories,
        "islands": ISLANDS,
        "adjacency": ADJACENCY,
        "sea_links": links,
    }


def main() -> int:
    layout = build()
    text = json.dumps(layout, ensure_ascii=False, indent=1)
    # Keep grid rows on one line each so the art stays readable in the JSON too.
    OUT.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
