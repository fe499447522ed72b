"""The Risk world map's geometry: the authored cell layout turned into smooth pixel regions.

``data/risk/layout.json`` (built by ``tools/make_risk_layout.py``) describes each territory as a set
of grid cells. Drawn as squares that would look like pixel art, so the cells are smoothed once: each
territory's cells are blurred and every pixel goes to the territory (or the sea) whose blurred
value is highest there. Borders between neighbours stay where the cells meet, coasts get rounded,
and a one-cell strait stays open. The result is an 8-bit label image (0 = sea, k + 1 = territory k)
that the renderer recolours with a palette per render, which is what keeps a render cheap.

Everything here depends on the layout only, never on a game, so it is computed once per process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageFilter

LAYOUT_PATH = Path(__file__).resolve().parent.parent / "data" / "risk" / "layout.json"
#: Blur of the cell masks, as a fraction of a cell: larger rounds coasts more but narrows straits.
SMOOTHING = 0.36


@dataclass(frozen=True)
class Layout:
    """The parsed layout file, with territory order fixed (it decides label indices)."""

    cell: int
    cols: int
    rows: int
    grid: tuple[str, ...]
    key: dict[str, str]
    territories: tuple[str, ...]
    continent_of: dict[str, str]
    continents: dict[str, dict[str, Any]]
    anchors: dict[str, tuple[float, float]]
    label_side: dict[str, str]
    adjacency: dict[str, tuple[str, ...]]
    sea_links: tuple[dict[str, Any], ...]
    islands: dict[str, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.cell, self.rows * self.cell

    def px(self, point: tuple[float, float] | list[float]) -> tuple[float, float]:
        """Cell units to pixels."""
        return point[0] * self.cell, point[1] * self.cell

    def index(self, tid: str) -> int:
        """Label value of a territory in :attr:`Geometry.labels` (sea is 0)."""
        return self.territories.index(tid) + 1


def _validate(raw: dict[str, Any]) -> None:
    """Fail loudly on a hand-edited layout that no longer fits together."""
    rows = raw["grid"]
    if len(rows) != raw["rows"] or any(len(r) != raw["cols"] for r in rows):
        raise ValueError("layout grid size does not match cols/rows")
    chars = {ch for r in rows for ch in r} - {"."}
    if not chars <= set(raw["key"]):
        raise ValueError(f"layout grid uses unknown cells {sorted(chars - set(raw['key']))}")
    if set(raw["key"].values()) != set(raw["territories"]):
        raise ValueError("layout key and territory list differ")
    listed = {t for c in raw["continents"].values() for t in c["territories"]}
    if listed != set(raw["territories"]):
        raise ValueError("continents do not cover the territories exactly")


@lru_cache(maxsize=1)
def layout() -> Layout:
    raw = json.loads(LAYOUT_PATH.read_text(encoding="utf-8"))
    _validate(raw)
    terr = raw["territories"]
    return Layout(
        cell=int(raw["cell_px"]), cols=int(raw["cols"]), rows=int(raw["rows"]),
        grid=tuple(raw["grid"]), key=dict(raw["key"]), territories=tuple(terr),
        continent_of={t: v["continent"] for t, v in terr.items()},
        continents={c: dict(v) for c, v in raw["continents"].items()},
        anchors={t: (float(v["anchor"][0]), float(v["anchor"][1])) for t, v in terr.items()},
        label_side={t: v.get("label", "below") for t, v in terr.items()},
        adjacency={t: tuple(ns) for t, ns in raw["adjacency"].items()},
        sea_links=tuple(raw["sea_links"]), islands=dict(raw.get("islands", {})),
    )


@dataclass(frozen=True)
class Geometry:
    """Pixel regions of the map (all images are the map's size)."""

    labels: Image.Image      # L: 0 sea, k + 1 territory k
    land: Image.Image        # L: 255 on land
    continents: Image.Image  # L: 0 sea, c + 1 continent c (layout order)
    borders: Image.Image     # L: 255 on a line between two territories (not on coasts)
    coast: Image.Image       # L: 255 on the land/sea line
    continent_borders: Image.Image  # L: 255 where two continents meet on land


def _binary(img: Image.Image) -> Image.Image:
    return img.point(lambda v: 255 if v else 0)


def _edges(labels: Image.Image) -> Image.Image:
    """Pixels whose 3x3 neighbourhood holds more than one label."""
    hi = labels.filter(ImageFilter.MaxFilter(3))
    lo = labels.filter(ImageFilter.MinFilter(3))
    return _binary(ImageChops.difference(hi, lo))


def _cell_image(lay: Layout, value_of: dict[str, int]) -> Image.Image:
    small = Image.new("L", (lay.cols, lay.rows), 0)
    small.putdata([value_of.get(ch, 0) for row in lay.grid for ch in row])
    return small


@lru_cache(maxsize=1)
def geometry() -> Geometry:
    lay = layout()
    w, h = lay.size
    index = {ch: lay.index(tid) for ch, tid in lay.key.items()}
    cells = _cell_image(lay, index).resize((w, h), Image.Resampling.NEAREST)
    sigma = lay.cell * SMOOTHING
    margin = int(sigma * 3) + 2

    sea = cells.point(lambda v: 255 if v == 0 else 0).filter(ImageFilter.GaussianBlur(sigma))
    best = sea
    labels = Image.new("L", (w, h), 0)
    for tid in lay.territories:
        k = lay.index(tid)
        mask = cells.point(lambda v, k=k: 255 if v == k else 0)
        x0, y0, x1, y1 = mask.getbbox()
        box = (max(0, x0 - margin), max(0, y0 - margin), min(w, x1 + margin), min(h, y1 + margin))
        blurred = mask.crop(box).filter(ImageFilter.GaussianBlur(sigma))
        current = best.crop(box)
        wins = _binary(ImageChops.subtract(blurred, current))
        best.paste(ImageChops.lighter(current, blurred), box)
        region = labels.crop(box)
        region.paste(k, mask=wins)
        labels.paste(region, box)

    land = _binary(labels)
    cont_index = {cid: i + 1 for i, cid in enumerate(lay.continents)}
    lut = [0] * 256
    for tid in lay.territories:
        lut[lay.index(tid)] = cont_index[lay.continent_of[tid]]
    continents = labels.point(lut)
    coast = _edges(land)
    all_edges = _edges(labels)
    borders = ImageChops.subtract(all_edges, coast)
    continent_borders = ImageChops.subtract(_edges(continents), coast)
    return Geometry(labels, land, continents, borders, coast, continent_borders)


def territory_mask(tid: str) -> Image.Image:
    """255 where ``tid`` is drawn (used by tests and the arrow clip)."""
    k = layout().index(tid)
    return geometry().labels.point(lambda v: 255 if v == k else 0)
