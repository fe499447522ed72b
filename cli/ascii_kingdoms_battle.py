"""鬪三國 as text: whose turn, the phase and the tiles left (or the result), the tile drawn with
its face, a war in progress and the last dice, one row per player (points, troops, command cards,
stratagems left), the tile map as a grid, and a table of the cities that matter (complete ones
and open ones with troops: size, points, holder, garrison, the cities a plain joins it to).

The grid has one cell per tile, 5 columns wide and 2 lines tall, between border lines that show
each side's terrain: ``#`` city, ``x`` barricade, ``-``/``|`` plain. A cell holds the tile's
number (cities are named ``<tile>.<segment>``, the way the options name them) over its garrison
spaces (``1a`` seat 1 alert, ``2f`` seat 2 fortified, ``.`` empty); while a tile waits to be
placed, the cells where it fits show ``#n``, numbered like the options. Columns are x, rows y,
as in the cell tokens (``x,y``). A map wider than ``GRID_WIDTH`` is printed in bands of columns.

Drawn from the view of the seat playing at the terminal only. The view carries the tiles in the
order they were laid; the cities' plains (who is joined to whom) and the legal spots are derived
from that list with the engine's own board functions, so nothing the view lacks is read.
鬪三國 has no private part: every seat's view is the public one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cli.ascii import side_by_side, table
from engines.base import Option, State
from engines.kingdoms_battle import board
from engines.kingdoms_battle.data import BARRICADE, CITY, Face, tiles
from engines.kingdoms_battle.rules import HIT, city_ref
from i18n import t, tm
from render.kingdoms_battle_text import seat_name

#: The board says whose turn and each player's points, troops, cards and stratagems.
COVERS_STATUS = True
#: The grid's widest line; wider maps are split into bands of columns (an 80-column terminal).
GRID_WIDTH = 80
#: Columns of a cell's inside (a tile number, or two garrison spaces "1a 2f").
CELL = 5
#: Side terrain on the borders: across (north/south sides) and upright (east/west sides).
ACROSS = {CITY: "#" * CELL, BARRICADE: "x" * CELL}
UPRIGHT = {CITY: "#", BARRICADE: "x"}
#: The drawn tile's face: city, barricade, plain.
ART = {CITY: "#", BARRICADE: "x"}
SIDES = "NESW"
Cell = tuple[int, int]


def _c(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"core.cli.kingdoms_battle.{key}", **params)


def _sep(locale: str) -> str:
    return t(locale, "core.cli.list_sep")


def rebuild(view: dict[str, Any]) -> State:
    """The board state of the view's tiles, laid again in their order: the same city ids, and
    the plains the view does not carry."""
    state: State = {}
    board.new_board(state)
    for ttype, x, y, rot in view["tiles"]:
        board.place(state, ttype, x, y, rot)
    return state


# --------------------------------------------------------------------------- tile faces

def _sides(locale: str, sides: Iterable[int]) -> str:
    return "".join(_c(locale, f"side.{SIDES[s]}") for s in sides)


def face_art(face: Face) -> list[str]:
    """A tile face in 5x3 characters: sides at the middle of each edge, a city's corner filled
    when both its sides are one city, the centre a city when a city crosses the tile (a bridge,
    three or four sides), else a barricade when barricades run there, else plain. So type 7
    (two caps) and type 10 (one bridge), alike at their edges, look different."""
    seg = {s: i for i, sides in enumerate(face.cities) for s in sides}
    edge = [ART.get(ch, ".") for ch in face.edges]
    crossing = any(len(c) >= 3 or {0, 2} <= set(c) or {1, 3} <= set(c) for c in face.cities)
    centre = "#" if crossing else "x" if BARRICADE in face.edges else "."

    def corner(a: int, b: int) -> str:
        return "#" if a in seg and seg.get(b) == seg[a] else "."

    def fill(side: int) -> str:  # between an east/west side and the centre: a city is deep
        if centre == "#" or edge[side] == "#":
            return "#"
        return "x" if centre == "x" and edge[side] == "x" else "."

    def across(side: int) -> str:
        wide = "#" if edge[side] == "#" else "."
        return wide + edge[side] + wide

    n, e, s, w = range(4)
    return [corner(w, n) + across(n) + corner(n, e),
            edge[w] + fill(w) + centre + fill(e) + edge[e],
            corner(s, w) + across(s) + corner(e, s)]


def face_text(face: Face, locale: str) -> list[str]:
    """What the art shows, in words: the cities with their garrison spaces, then the plains
    (which cities each borders) and the barricades."""
    cities = [_c(locale, "face_city", sides=_sides(locale, c), n=face.spaces.count(i))
              for i, c in enumerate(face.cities)]
    rest = []
    for sides, touched in face.plains:
        if touched:
            near = _sep(locale).join(_sides(locale, face.cities[i]) for i in touched)
            rest.append(_c(locale, "face_plain", sides=_sides(locale, sides), cities=near))
        else:
            rest.append(_c(locale, "face_plain_alone", sides=_sides(locale, sides)))
    bars = [i for i, ch in enumerate(face.edges) if ch == BARRICADE]
    if bars:
        rest.append(_c(locale, "face_barricade", sides=_sides(locale, bars)))
    return [" · ".join(cities), " · ".join(rest) or "-"]


def _drawn(view: dict[str, Any], locale: str) -> list[str]:
    face = tiles().types[view["drawn"]].faces[0]
    text = [_c(locale, "drawn", tile=view["drawn"]), *face_text(face, locale)]
    return [f"  {art}  {words}" for art, words in zip(face_art(face), text, strict=True)]


# --------------------------------------------------------------------------- the grid

def _troop(view: dict[str, Any], space: str) -> str:
    held = view["troops"].get(space)
    return "." if held is None else f"{held[0] + 1}{held[1]}"


def _inside(view: dict[str, Any], state: State, at: dict[Cell, int], spots: dict[Cell, int],
            cell: Cell) -> tuple[str, str]:
    idx = at.get(cell)
    if idx is not None:
        spaces = len(board.face_of(state, idx).spaces)
        garrison = " ".join(_troop(view, f"{idx}.{k}") for k in range(spaces))
        return str(idx).center(CELL), garrison.center(CELL)
    if cell in spots:
        return f"#{spots[cell]}".center(CELL), " " * CELL
    return " " * CELL, " " * CELL


def _grid_band(view: dict[str, Any], state: State, at: dict[Cell, int], spots: dict[Cell, int],
               xs: range, ys: range) -> list[str]:
    label = max(len(str(y)) for y in ys) + 1
    edges = {cell: board.face_of(state, idx).edges for cell, idx in at.items()}

    def side(cell: Cell, s: int) -> str | None:
        return edges[cell][s] if cell in edges else None

    def corner(x: int, y: int) -> str:  # the top-left corner of (x, y)
        return "+" if any((x - dx, y - dy) in edges for dx in (0, 1) for dy in (0, 1)) else " "

    def across(x: int, y: int) -> str:  # the border above (x, y)
        terrain = side((x, y), 0) or side((x, y - 1), 2)
        return " " * CELL if terrain is None else ACROSS.get(terrain, "-" * CELL)

    def upright(x: int, y: int) -> str:  # the border left of (x, y)
        terrain = side((x, y), 3) or side((x - 1, y), 1)
        return " " if terrain is None else UPRIGHT.get(terrain, "|")

    lines = [" " * label + "".join(" " + str(x).center(CELL) for x in xs)]

    def border(y: int) -> str:
        return " " * label + "".join(corner(x, y) + across(x, y) for x in xs) + corner(xs[-1] + 1, y)

    for y in ys:
        lines.append(border(y))
        inside = [_inside(view, state, at, spots, (x, y)) for x in xs]
        for k in range(2):
            head = str(y).rjust(label - 1) + " " if k == 0 else " " * label
            lines.append(head + "".join(upright(x, y) + cell[k] for x, cell in zip(xs, inside, strict=True))
                         + upright(xs[-1] + 1, y))
    lines.append(border(ys[-1] + 1))
    lines = [line.rstrip() for line in lines]
    while not lines[-1]:
        lines.pop()  # the bottom border of a row of spots only
    return lines


def grid(view: dict[str, Any], state: State) -> list[str]:
    """The map, and while a tile waits to be placed, its legal spots numbered like the options
    (``board.legal_spots`` lists them in the options' order)."""
    at = {(x, y): i for i, (_t, x, y, _r) in enumerate(view["tiles"])}
    spots: dict[Cell, int] = {}
    if view["phase"] == "place" and view.get("drawn") is not None:
        spots = {cell: n for n, cell in enumerate(board.legal_spots(state, view["drawn"]), 1)}
    cells = [*at, *spots]
    xs = range(min(c[0] for c in cells), max(c[0] for c in cells) + 1)
    ys = range(min(c[1] for c in cells), max(c[1] for c in cells) + 1)
    label = max(len(str(y)) for y in ys) + 1
    per_band = max(1, (GRID_WIDTH - label - 1) // (CELL + 1))
    lines: list[str] = []
    for start in range(xs.start, xs.stop, per_band):
        lines.extend(_grid_band(view, state, at, spots, range(start, min(start + per_band, xs.stop)), ys))
    return lines


# --------------------------------------------------------------------------- the table

def _head(view: dict[str, Any], state: State, locale: str, names: list[str]) -> list[str]:
    def name(seat: int) -> str:
        return seat_name(view, locale, names, seat)

    if view["phase"] == "over":
        winners = _sep(locale).join(name(s) for s in view.get("winners") or [])
        head = t(locale, "kingdoms_battle.render.over", players=winners)
        if view.get("end_reason"):
            head += " · " + t(locale, f"kingdoms_battle.end.{view['end_reason']}")
        lines = [head]
    else:
        parts = [t(locale, "kingdoms_battle.render.turn", player=name(view["turn"])),
                 _c(locale, f"phase.{view['phase']}"), t(locale, "kingdoms_battle.render.left", n=view["stack"])]
        if view.get("discarded"):
            parts.append(_c(locale, "discarded", n=view["discarded"]))
        lines = [" · ".join(parts)]
        if view.get("asked") is not None and view["asked"] != view["turn"]:
            lines.append(_c(locale, "asked", player=name(view["asked"])))
    if view.get("drawn") is not None and view["phase"] == "place":
        lines.extend(_drawn(view, locale))
    war = view.get("war")
    if war:
        lines.append(_c(locale, "war", round=war["round"], player=name(war["att"]), defender=name(war["def"]),
                        n=war["n"], src=city_ref(state, war["src"]), dst=city_ref(state, war["dst"])))
    dice = view.get("dice")
    if dice:
        label = t(locale, f"kingdoms_battle.render.{'civil' if dice['kind'] == 'civil' else 'war'}",
                  round=dice["round"])
        sides = [_c(locale, "dice", player=name(who), dice=" ".join(map(str, rolls)),
                     hits=sum(1 for d in rolls if d >= HIT))
                 for who, rolls in ((dice["a"], dice["da"]), (dice["d"], dice["dd"]))]
        lines.append(f"{label} {' · '.join(sides)}")
    return lines


def _players(view: dict[str, Any], locale: str, names: list[str]) -> list[list[str]]:
    """A header, then per player: points, troops in hand, on the map and how many of those are
    alert (they can attack), command cards and the stratagems still in hand, by name."""
    rows = [[_c(locale, f"col_{k}") for k in ("player", "points", "hand", "map", "alert", "cards", "plots")]]
    for p in view["players"]:
        seat = p["seat"]
        alert = sum(1 for held in view["troops"].values() if held[0] == seat and held[1] == "a")
        mark = ">" if seat == view.get("asked") and view["phase"] != "over" else " "
        color = t(locale, f"kingdoms_battle.color.{p['color']}")
        plots = _sep(locale).join(_c(locale, f"plot.{plot}") for plot in p["plots"]) or "-"
        rows.append([f"{mark}{seat + 1} {seat_name(view, locale, names, seat)} ({color})",
                     *map(str, (p["score"], p["supply"], p["on_board"], alert, p["cards"])), plots])
    return rows


def _cities(view: dict[str, Any], state: State, locale: str, names: list[str]) -> list[str]:
    """Complete cities and open ones with troops (an empty open city is just land yet). Wars and
    transfers go between complete cities only, so a city's plain neighbours are the complete
    ones."""
    links = board.links(state)
    done = {c["id"] for c in view["cities"] if c["done"]}
    rows = [[_c(locale, f"col_{k}") for k in ("city", "state", "holder", "garrison", "links")]]
    for c in view["cities"]:
        garrison = " ".join(_troop(view, s) for s in c["spaces"])
        if not c["done"] and not any(s in view["troops"] for s in c["spaces"]):
            continue
        ref = city_ref(state, c["id"])
        name = t(locale, ref["key"], **ref.get("params", {}))
        if c["done"]:
            holder = _c(locale, "idle") if c["owner"] is None else seat_name(view, locale, names, c["owner"])
            joined = sorted(links.get(c["id"], set()) & done, key=lambda k: tuple(map(int, k.split("."))))
            rows.append([name, _c(locale, "done", n=c["value"]), holder, garrison or "-",
                         _sep(locale).join(joined) or "-"])
        else:
            rows.append([name, _c(locale, "open", n=c["open"]), "-", garrison, "-"])
    return table(rows) if len(rows) > 1 else []


def render(view: dict[str, Any], names: list[str], locale: str) -> list[str]:
    state = rebuild(view)
    lines = _head(view, state, locale, names)
    lines.extend(table(_players(view, locale, names)))
    lines.extend(grid(view, state))
    lines += [_c(locale, "legend_sides"), _c(locale, "legend_cells")]
    lines.extend(_cities(view, state, locale, names))
    return lines


# --------------------------------------------------------------------------- placement steps

def render_step(picture: dict[str, Any], options: list[Option], locale: str) -> list[str]:
    """The rotations of the drawn tile as art under their menu numbers (``1. 90°``), and at the
    garrison step which city each space of the tile lies in, the space asked marked ``>``.
    The spot choice needs no art: the board above numbers the spots like the options."""
    kind = picture.get("kind")
    ttype = tiles().types[int(picture["tile"])] if "tile" in picture else None
    if ttype is None:
        return []
    if kind == "rotations":
        blocks = []
        for i, option in enumerate(options, 1):
            face = ttype.face(int(option.value)) if option.value.isdecimal() else None
            if face is not None:
                blocks.append([f"{i}. {tm(locale, option.label)}", *face_art(face)])
        return side_by_side(blocks, GRID_WIDTH)
    if kind == "garrison":
        face = ttype.face(int(picture["rot"])) or ttype.faces[0]
        chosen = list(picture.get("chosen") or [])
        lines = []
        for k, segment in enumerate(face.spaces):
            sides = _sides(locale, face.cities[segment])
            if k < len(chosen) and chosen[k] in ("a", "f"):
                text = _c(locale, "space_chosen", n=k + 1, sides=sides,
                          state=t(locale, f"kingdoms_battle.opt.state.{chosen[k]}"))
            else:
                text = _c(locale, "space", n=k + 1, sides=sides)
            lines.append(("> " if k == picture.get("space") else "  ") + text)
        return lines
    return []
