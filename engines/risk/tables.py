"""The map as numbers: territory and continent indices, adjacency as index tuples, worked out
once per process from :func:`engines.risk.data.content`.

The state keeps its tables by territory name (stored JSON, readable), and that stays the
interface. The AI and the rules' hot loops (an attack choice, "can this seat still attack?")
read a whole table at once as a tuple in map order (:attr:`Tables.row`, one C call) and then
walk index tuples: a tuple index and a list of small ints cost less than a name lookup per
neighbour, and a continent's part of a row is one more C call (:attr:`Tables.member_rows`).
Everything is in map order, so a loop over indices meets territories in the order a loop over
``content().territories`` does, and ties break the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from operator import itemgetter
from typing import Any

from engines.risk.data import content

#: Reads the items at fixed positions of a row (or keys of a table) as a tuple.
Getter = Callable[[Any], tuple[Any, ...]]


def tuple_getter(keys: Sequence[Any]) -> Getter:
    """``itemgetter`` that gives a tuple even for one key (a one-territory continent)."""
    if len(keys) == 1:
        only = keys[0]
        return lambda table: (table[only],)
    return itemgetter(*keys)


@dataclass(frozen=True)
class Tables:
    """Index forms of the shipped map (see the module docstring)."""

    #: Territory names in map order; a territory's index is its place here.
    names: tuple[str, ...]
    index: Mapping[str, int]
    #: Neighbour indices of each territory, in map order.
    adjacent: tuple[tuple[int, ...], ...]
    #: Continent names in map order, and each territory's continent index.
    continents: tuple[str, ...]
    continent_index: Mapping[str, int]
    continent_of: tuple[int, ...]
    #: Each continent's territory indices, size and bonus.
    members: tuple[tuple[int, ...], ...]
    sizes: tuple[int, ...]
    bonus: tuple[int, ...]
    #: A name-keyed territory table (``state["owner"]``) as a tuple in map order.
    row: Getter
    #: Each continent's part of a row, as a tuple in map order.
    member_rows: tuple[Getter, ...]
    #: Each continent's part of a name-keyed territory table, as a tuple in map order.
    member_tables: tuple[Getter, ...]


@cache
def tables() -> Tables:
    """The tables of the shipped content, built on first use."""
    c = content()
    names = c.territories
    index = {t: i for i, t in enumerate(names)}
    conts = tuple(c.continents)
    cindex = {k: i for i, k in enumerate(conts)}
    members = tuple(tuple(index[t] for t in c.continents[k]) for k in conts)
    return Tables(
        names=names,
        index=index,
        adjacent=tuple(tuple(index[n] for n in c.adjacent[t]) for t in names),
        continents=conts,
        continent_index=cindex,
        continent_of=tuple(cindex[c.continent_of[t]] for t in names),
        members=members,
        sizes=tuple(len(m) for m in members),
        bonus=tuple(c.bonus[k] for k in conts),
        row=tuple_getter(names),
        member_rows=tuple(tuple_getter(m) for m in members),
        member_tables=tuple(tuple_getter(c.continents[k]) for k in conts),
    )
