"""Board geometry and the 交战 (engagement) rule, as pure functions of the state.

Slots hold ``None`` (empty) or ``[owner, general]``: owner is a seat or ``-1`` for a grey neutral
soldier, general is ``""`` for a soldier or the card instance of the general standing there (a
general takes a slot like a soldier and counts as one for 称霸).
"""

from __future__ import annotations

from functools import cache, lru_cache

from engines.base import State
from engines.jiwu.data import board

NEUTRAL = -1


@lru_cache(maxsize=4)
def layout(seats: int) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]],
                                dict[str, tuple[str, ...]], dict[str, tuple[tuple[str, str], ...]]]:
    """For ``seats`` players: open regions, region -> its slots, path -> its slots,
    region -> the nearest path slot of every open path touching it, region -> (path, other end)."""
    b = board()
    regions = tuple(b.open_regions(seats))
    rslots = {r: tuple(f"{r}.{i}" for i in range(b.regions[r].slots)) for r in regions}
    pslots: dict[str, tuple[str, ...]] = {}
    near: dict[str, list[str]] = {r: [] for r in regions}
    links: dict[str, list[tuple[str, str]]] = {r: [] for r in regions}
    for pid in b.open_paths(seats):
        p = b.paths[pid]
        pslots[pid] = tuple(f"{pid}.{i}" for i in range(p.slots))
        if p.slots:
            near[p.a].append(pslots[pid][0])
            near[p.b].append(pslots[pid][-1])
        links[p.a].append((pid, p.b))
        links[p.b].append((pid, p.a))
    return (regions, rslots, pslots, {r: tuple(v) for r, v in near.items()},
            {r: tuple(v) for r, v in links.items()})


def regions(state: State) -> tuple[str, ...]:
    return layout(state["seats"])[0]


def region_slots(state: State, region: str) -> tuple[str, ...]:
    return layout(state["seats"])[1][region]


def all_slots(state: State) -> list[str]:
    _, rslots, pslots, _, _ = layout(state["seats"])
    return [s for v in rslots.values() for s in v] + [s for v in pslots.values() for s in v]


def region_of(slot: str) -> str | None:
    """The region a slot belongs to, None for a path slot."""
    head = slot.split(".", 1)[0]
    return head if head in board().regions else None


def owner(state: State, slot: str) -> int | None:
    occ = state["slots"].get(slot)
    return None if occ is None else int(occ[0])


def counts(state: State, region: str) -> dict[int, int]:
    out: dict[int, int] = {}
    slots = state["slots"]
    for s in layout(state["seats"])[1][region]:  # owner() inlined: asked for every region at every move
        occ = slots.get(s)
        if occ is not None:
            o = int(occ[0])
            out[o] = out.get(o, 0) + 1
    return out


def dominator(state: State, region: str) -> int | None:
    """称霸: the owner (seat or NEUTRAL) with strictly more pieces in the region than every other."""
    c = counts(state, region)
    if not c:
        return None
    best = max(c.values())
    top = [o for o, n in c.items() if n == best]
    return top[0] if len(top) == 1 else None


def total(state: State, region: str, seat: int) -> bool:
    """完全称霸: every slot of the region holds the seat's piece and no enemy spy is there."""
    if any(owner(state, s) != seat for s in region_slots(state, region)):
        return False
    return all(o == seat for o in state["spies"].get(region, []))


def present_in_region(state: State, seat: int, region: str) -> bool:
    """The 交战 rule for a region: own piece in it, own spy at it, or own soldier on the nearest
    path slot of a path joining it."""
    if any(owner(state, s) == seat for s in region_slots(state, region)):
        return True
    if seat in state["spies"].get(region, []):
        return True
    return any(owner(state, s) == seat for s in layout(state["seats"])[3][region])


def _core(state: State, seat: int, region: str) -> bool:
    return seat in state["spies"].get(region, []) or any(
        owner(state, s) == seat for s in region_slots(state, region))


def present_at(state: State, seat: int, slot: str) -> bool:
    """The 交战 rule for a slot: a region slot uses the region's rule; a path slot needs an own
    soldier on a neighbouring slot of the path, or (at an end) an own piece or spy in that end's
    region. The rule as written, asked slot by slot; callers asking about many slots use
    :class:`Reach`, which the tests hold to this definition."""
    region = region_of(slot)
    if region is not None:
        return present_in_region(state, seat, region)
    pid, idx = slot.split(".")
    i = int(idx)
    p = board().paths[pid]
    for j in (i - 1, i + 1):
        if 0 <= j < p.slots and owner(state, f"{pid}.{j}") == seat:
            return True
    return any(i == end and _core(state, seat, at) for end, at in ((0, p.a), (p.slots - 1, p.b)))


@cache
def _geometry(slot: str) -> tuple[str | None, tuple[str, ...], tuple[str, ...]]:
    """A slot's place on the board, parsed once: its region (None on a path) and, for a path
    slot, its neighbouring slots on the path and the end regions it touches."""
    region = region_of(slot)
    if region is not None:
        return region, (), ()
    pid, idx = slot.split(".")
    i = int(idx)
    p = board().paths[pid]
    return (None, tuple(f"{pid}.{j}" for j in (i - 1, i + 1) if 0 <= j < p.slots),
            tuple(at for end, at in ((0, p.a), (p.slots - 1, p.b)) if i == end))


class Reach:
    """The 交战 rule for one seat, worked out in one pass over the board: the same answers as
    :func:`present_at` and :func:`present_in_region`, but a caller asking about every slot (the
    legal deploy and kill lists, asked at each decision and in hard's playouts) gets a set lookup
    instead of a walk over the region's slots per slot. Valid while the board does not change."""

    __slots__ = ("mine", "core", "regions", "slots")

    def __init__(self, state: State, seat: int) -> None:
        regions, rslots, _, near, _ = layout(state["seats"])
        #: The slots holding the seat's pieces, and the regions where it has a piece or a spy.
        self.mine = {s for s, occ in state["slots"].items() if occ is not None and occ[0] == seat}
        self.core = {r for s in self.mine if (r := _geometry(s)[0]) is not None}
        self.core.update(r for r, owners in state["spies"].items() if seat in owners)
        #: The regions it is present in, and every slot it is present at.
        self.regions = {r for r in regions if r in self.core or any(s in self.mine for s in near[r])}
        self.slots = {s for r in self.regions for s in rslots[r]}
        self.slots.update(n for s in self.mine for n in _geometry(s)[1])
        self.slots.update(s for r in self.core if r in near for s in near[r])

    def in_region(self, region: str) -> bool:
        """:func:`present_in_region`."""
        return region in self.regions

    def at(self, slot: str) -> bool:
        """:func:`present_at`."""
        return slot in self.slots


def on_board(state: State, seat: int) -> int:
    return sum(1 for occ in state["slots"].values() if occ is not None and occ[0] == seat)


def neighbours(state: State, region: str) -> tuple[tuple[str, str], ...]:
    return layout(state["seats"])[4][region]


def path_open_for(state: State, seat: int, pid: str) -> bool:
    """A general may use a path whose slots are all empty or hold the seat's own soldiers."""
    return all(owner(state, s) in (None, seat) for s in layout(state["seats"])[2][pid])
