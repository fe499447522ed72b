"""What each seat may see, and short text lines built from a view.

Hidden: each hand (others see counts), missions (until the game ends), HQ choices before the
reveal, and quick-set-up placements before the reveal (a seat sees its own pending placements
added to its territories, everyone else the board as it was dealt).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from engines.base import Msg, State, View, key_ref, seat_ref
from engines.risk import cards as cardrules
from engines.risk import rules
from engines.risk.data import content
from engines.risk.tables import tables, tuple_getter


def _card(card_id: str) -> dict[str, Any]:
    card = content().cards[card_id]
    return {"id": card_id, "territory": card.territory, "symbol": card.symbol}


@cache
def _board_getter() -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """Reads a territory table's values in map order in one C call (``itemgetter``)."""
    return tuple_getter(content().territories)


@cache
def _continent_getters() -> tuple[tuple[str, Callable[[Mapping[str, Any]], tuple[Any, ...]]], ...]:
    """(continent, getter of its territories' values as a tuple) in map order."""
    return tuple((cont, tuple_getter(terrs)) for cont, terrs in content().continents.items())


def _players(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The public player rows. Territory and army counts and continent holders come from one
    pass over the map (the AI reads these on its hot path)."""
    owner, armies = state["owner"], state["armies"]
    owners, army = _board_getter()(owner), _board_getter()(armies)
    seats = range(len(state["players"]))
    counts = dict.fromkeys(seats, 0)
    totals = dict.fromkeys(seats, 0)
    for o, a in zip(owners, army, strict=True):
        if o in counts:
            counts[o] += 1
            totals[o] += a
    held: dict[int, list[str]] = {i: [] for i in seats}
    for cont, get in _continent_getters():
        row = get(owner)
        o = row[0]
        if o in held and row.count(o) == len(row):
            held[o].append(cont)
    over = state["phase"] == "over"
    variant_hq = state["variant"] == "hq"
    players = []
    for i, p in enumerate(state["players"]):
        players.append({
            "seat": i, "color": p["color"], "cards": len(p["cards"]), "territories": counts[i],
            "armies": totals[i], "alive": p["alive"],
            "hq": p["hq"], "hqs_captured": rules.hqs_captured(state, i) if variant_hq else [],
            "to_place": p["to_place"],
            "continents": held[i],
            "mission": ({"id": rules.effective_mission(state, i), "text": rules.mission_msg(state, i).to_json()}
                        if over and p["mission"] else None),
        })
    return players


def _row_mission(state: State, i: int | None) -> dict[str, Any] | None:
    assert i is not None
    if state["phase"] != "over" or not state["players"][i]["mission"]:
        return None
    return {"id": rules.effective_mission(state, i), "text": rules.mission_msg(state, i).to_json()}


def _row_armies(state: State, i: int | None) -> int:
    owner, armies = state["owner"], state["armies"]
    return sum(a for o, a in zip(_board_getter()(owner), _board_getter()(armies), strict=True) if o == i)


def _row_continents(state: State, i: int | None) -> list[str]:
    owner = state["owner"]
    held = []
    for cont, get in _continent_getters():
        row = get(owner)
        if row[0] == i and row.count(i) == len(row):
            held.append(cont)
    return held


#: One player row of the view, entry by entry, from (state, that player's seat): what a lazy
#: row (``SeatView``) reads. ``_players`` builds all rows in one pass instead; a test checks
#: both give the same rows.
_ROW_FIELDS: dict[str, Callable[[State, Any], Any]] = {
    "seat": lambda s, i: i,
    "color": lambda s, i: s["players"][i]["color"],
    "cards": lambda s, i: len(s["players"][i]["cards"]),
    "territories": lambda s, i: _board_getter()(s["owner"]).count(i),
    "armies": _row_armies,
    "alive": lambda s, i: s["players"][i]["alive"],
    "hq": lambda s, i: s["players"][i]["hq"],
    "hqs_captured": lambda s, i: rules.hqs_captured(s, i) if s["variant"] == "hq" else [],
    "to_place": lambda s, i: s["players"][i]["to_place"],
    "continents": _row_continents,
    "mission": _row_mission,
}


def _territories(state: State, seat: int | None) -> dict[str, dict[str, Any]]:
    # A seat's secret deployment stays in "you" only: everything outside "you" is the public table,
    # so a seat view can be drawn or posted without leaking (tests/test_hidden_information.py).
    owner, armies = state["owner"], state["armies"]
    return {t: {"owner": owner[t], "armies": armies[t]} for t in content().territories}


def _you_mission(state: State, seat: int) -> dict[str, Any] | None:
    if not state["players"][seat]["mission"]:
        return None
    return {"id": rules.effective_mission(state, seat), "text": rules.mission_msg(state, seat).to_json()}


#: The seat's own secrets: its hand, mission, HQ (chosen or pending) and hidden placements.
_YOU_FIELDS: dict[str, Callable[[State, Any], Any]] = {
    "seat": lambda s, seat: seat,
    "cards": lambda s, seat: [_card(cid) for cid in s["players"][seat]["cards"]],
    "mission": _you_mission,
    "hq": lambda s, seat: s["players"][seat]["hq"] or s["hq_choice"].get(str(seat)),
    "pending_placement": lambda s, seat: dict(s["hidden"].get(str(seat), {})),
}


def _you(state: State, seat: int | None) -> dict[str, Any]:
    return {k: f(state, seat) for k, f in _YOU_FIELDS.items()}


#: The view's entries in order, each worked out from (state, seat). ``build`` evaluates them all;
#: ``SeatView`` only those that are read.
_FIELDS: dict[str, Callable[[State, int | None], Any]] = {
    "game": lambda s, _: "risk",
    "variant": lambda s, _: s["variant"],
    "setup": lambda s, _: s["setup"],
    "phase": lambda s, _: s["phase"],
    "turn": lambda s, _: s["turn"],
    "first": lambda s, _: s["first"],
    "round": lambda s, _: s["round"],
    "max_rounds": lambda s, _: s["max_rounds"],
    "territories": _territories,
    "players": _players,
    "neutral_to_place": lambda s, _: s["neutral_to_place"],
    "occupy": lambda s, _: dict(s["occupy"]) if s["occupy"] else None,
    "last_battle": lambda s, _: dict(s["last_battle"]) if s["last_battle"] else None,
    "turn_summary": lambda s, _: [dict(e) for e in s["turn_summary"]],
    "trade_count": lambda s, _: s["trade_count"],
    "next_trade_value": lambda s, _: cardrules.trade_value(s["trade_count"]),
    "reinforcements_left": lambda s, _: rules.reinforcements_left(s),
    # Continent-bonus armies still to place, each only inside its continent (public, like
    # every reinforcement); counted in reinforcements_left too.
    "bonus_pools": lambda s, _: dict(rules.bonus_pools(s)),
    "post_elim": lambda s, _: s["post_elim"],
    "conquered_this_turn": lambda s, _: s["conquered"],
    "deck": lambda s, _: len(s["deck"]),
    "discard": lambda s, _: len(s["discard"]),
    "hq_chosen": lambda s, _: sorted(int(k) for k in s["hq_choice"]),
    "winners": lambda s, _: list(s["winners"]) if s["winners"] is not None else None,
    "end_reason": lambda s, _: s["end_reason"],
}
_FIELDS_YOU = {**_FIELDS, "you": _you}


def _fields(state: State, seat: int | None) -> dict[str, Callable[[State, int | None], Any]]:
    return _FIELDS_YOU if seat is not None and 0 <= seat < state["seats"] else _FIELDS


def build(state: State, seat: int | None) -> View:
    """The public table plus, for a seat, its private part under ``"you"``."""
    return {k: f(state, seat) for k, f in _fields(state, seat).items()}


_UNSET = object()


class _Lazy(Mapping[str, Any]):
    """A read-only mapping whose entries are worked out on first read from ``fields``."""

    __slots__ = ("_state", "_seat", "_fields", "_cache")

    def __init__(self, fields: dict[str, Callable[[State, Any], Any]], state: State, seat: int | None) -> None:
        self._state = state
        self._seat = seat
        self._fields = fields
        self._cache: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        # Most reads are first reads: a lookup with a default, not a caught KeyError.
        value = self._cache.get(key, _UNSET)
        if value is _UNSET:
            value = self._cache[key] = self._fields[key](self._state, self._seat)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self._fields else default

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __contains__(self, key: object) -> bool:
        return key in self._fields

    def __repr__(self) -> str:
        return f"{type(self).__name__}({plain(self)!r})"


def _lazy_players(state: State, seat: int | None) -> list[_Lazy]:
    return [_Lazy(_ROW_FIELDS, state, i) for i in range(len(state["players"]))]


def _lazy_you(state: State, seat: int | None) -> _Lazy:
    return _Lazy(_YOU_FIELDS, state, seat)


_LAZY_FIELDS = {**_FIELDS, "players": _lazy_players}
_LAZY_FIELDS_YOU = {**_LAZY_FIELDS, "you": _lazy_you}


class SeatView(_Lazy):
    """``build(state, seat)`` worked out entry by entry on first read, for the AI.

    The AI reads a few entries of a view per move, and building the whole view (every territory
    record, every player row, the turn's battle log) was a quarter of an AI game. Entries are
    computed by the functions ``build`` uses; the player rows and ``you`` are lazy too (their
    entries from ``_ROW_FIELDS`` and ``_YOU_FIELDS``), so ``plain(SeatView(s, seat)) ==
    build(s, seat)`` in every entry and order (a test checks it). The owner and army tables are
    public in full and are offered as ``owners``/``army_counts`` for reading without copying:
    nothing secret lives in them (hidden placements stay in ``state["hidden"]`` until revealed).
    """

    __slots__ = ()

    def __init__(self, state: State, seat: int | None) -> None:
        has_you = _fields(state, seat) is _FIELDS_YOU
        super().__init__(_LAZY_FIELDS_YOU if has_you else _LAZY_FIELDS, state, seat)

    @property
    def seat(self) -> int | None:
        """The seat this view is for (``view["you"]["seat"]`` without building ``you``)."""
        return self._seat

    def board_rows(self) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
        """The owner and army of every territory as two tuples in map order (the public board,
        read in two C calls; tuples, so they can be handed out without a read-only wrapper)."""
        state, row = self._state, tables().row
        return row(state["owner"]), row(state["armies"])

    @property
    def owners(self) -> Mapping[str, int | None]:
        """Territory -> owner seat (the public board; read-only, shared with the state)."""
        return MappingProxyType(self._state["owner"])

    @property
    def army_counts(self) -> Mapping[str, int]:
        """Territory -> armies (the public board as everyone sees it; read-only, shared)."""
        return MappingProxyType(self._state["armies"])


def plain(value: Any) -> Any:
    """A view (lazy or not) as plain dicts and lists, as ``build`` gives it."""
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def describe(view: View) -> list[Msg]:
    lines: list[Msg] = []
    phase = view["phase"]
    if phase == "over":
        for s in view["winners"] or []:
            lines.append(Msg("risk.desc.winner", {"player": seat_ref(s, f"risk.color.{view['players'][s]['color']}")}))
        lines.append(Msg("risk.desc.end", {"reason": key_ref(f"risk.end.{view['end_reason']}")}))
    else:
        turn_color = seat_ref(view["turn"], f"risk.color.{view['players'][view['turn']]['color']}")
        phase_name = key_ref(f"risk.phase.{phase}")
        if phase == "setup_hq" or (phase == "setup_place" and view["setup"] == "quick"):
            lines.append(Msg("risk.desc.simultaneous", {"phase": phase_name}))
        elif phase.startswith("setup"):
            lines.append(Msg("risk.desc.setup", {"phase": phase_name, "player": turn_color}))
        else:
            lines.append(Msg("risk.desc.phase", {"phase": phase_name, "player": turn_color, "round": view["round"]}))
        if phase == "reinforce":
            lines.append(Msg("risk.desc.reinforcements", {"n": view["reinforcements_left"]}))
            for cont, n in view.get("bonus_pools", {}).items():
                lines.append(Msg("risk.desc.bonus_pool", {"n": n, "continent": rules.cname(cont)}))
    for p in view["players"]:
        if not p["alive"]:
            lines.append(Msg("risk.desc.out", {"player": seat_ref(p["seat"], f"risk.color.{p['color']}")}))
            continue
        lines.append(Msg("risk.desc.player", {"player": seat_ref(p["seat"], f"risk.color.{p['color']}"), "territories": p["territories"],
                                              "armies": p["armies"], "cards": p["cards"]}))
    lb = view["last_battle"]
    if lb and phase != "over":
        lines.append(Msg("risk.desc.battle", {
            "from": rules.tname(lb["from"]), "to": rules.tname(lb["to"]),
            "att": " ".join(map(str, lb["att_dice"])), "def": " ".join(map(str, lb["def_dice"])),
            "att_loss": lb["att_loss"], "def_loss": lb["def_loss"]}))
    lines.append(Msg("risk.desc.trade_value", {"n": view["next_trade_value"]}))
    return lines


def private_summary(view: View) -> list[Msg]:
    you = view.get("you")
    if not you:
        return []
    lines: list[Msg] = []
    if you["cards"]:
        for card in you["cards"]:
            name = rules.tname(card["territory"]) if card["territory"] else key_ref("risk.card.wild")
            lines.append(Msg("risk.private.card", {"name": name, "symbol": key_ref(f"risk.symbol.{card['symbol']}")}))
    else:
        lines.append(Msg("risk.private.no_cards"))
    if you["mission"]:
        lines.append(Msg("risk.private.mission", {"mission": _msg_param(you["mission"]["text"])}))
    if you["hq"]:
        lines.append(Msg("risk.private.hq", {"territory": rules.tname(you["hq"])}))
    for t, n in sorted(you.get("pending_placement", {}).items()):
        lines.append(Msg("risk.private.pending", {"territory": rules.tname(t), "count": n}))
    return lines


def _msg_param(text: dict[str, Any]) -> dict[str, Any]:
    """A mission text (a Msg in JSON form) nests as a message parameter."""
    return key_ref(text["key"], **text.get("params", {}))
