"""Set up exact 三国杀 tables for rule tests: chosen roles, HP, hands, equipment, deck top, and the
flow parked at the play phase of a chosen seat."""

from __future__ import annotations

from typing import Any

from engines.flow import Ctx, Flow
from engines.sanguosha import ENGINE
from engines.sanguosha import rules as R
from engines.sanguosha.data import DECKS, card, deck
from engines.sanguosha.setup import assign

State = dict[str, Any]


def find(state: State, name: str, suit: str | None = None, rank: int | None = None,
         exclude: set[str] | frozenset[str] = frozenset()) -> str:
    """A card id of ``name`` (optionally of a suit/rank) still in the deck (of either deck: a
    火杀 is found by its face, ``huosha``)."""
    for cid in (c for d in DECKS for c in deck(d)):
        c = card(cid)
        if c.shown == name and (suit is None or c.suit == suit) and (rank is None or c.rank == rank) \
                and cid in state["deck"] and cid not in exclude:
            return cid
    raise LookupError(f"no {name} {suit}{rank} left in the deck")


def table(n: int, roles: str, *, turn: int = 0, hp: dict[int, int] | None = None,
          hands: dict[int, list[Any]] | None = None, equip: dict[int, list[Any]] | None = None,
          judge: dict[int, list[Any]] | None = None, top: list[Any] | None = None,
          seed: int = 1, heroes: dict[int, str] | None = None, phase: str = "play",
          deck_name: str = "standard", mode: str | None = None) -> State:
    """A table where seat i has role ``roles[i]``; cards are names or (name, suit, rank).
    ``top`` lists the next cards drawn, first drawn first. ``heroes`` gives seats a hero (HP,
    skills; lord skills for the lord). The ``phase`` of ``turn`` starts (default: play).
    ``deck_name`` holds the table's cards (``hegemony``: the 国战 deck); ``mode`` plays it on
    another installed mode's flow (identity mode's rules, another mode's packs)."""
    state = ENGINE.new_state({"heroes": "beginner"}, n, seed)
    if mode is not None:
        state["mode"] = mode
    everything = [c for c in deck(deck_name)]
    for p in state["players"]:
        p["hand"], p["judge"] = [], []
        p["equip"] = {s: None for s in p["equip"]}
    state["deck"], state["discard"], state["proc"] = list(everything), [], []
    state["lord"] = roles.index("Z")
    for i, r in enumerate(roles):
        p = state["players"][i]
        p["role"], p["revealed"] = r, r == "Z"
        p["max"] = 4 + (1 if r == "Z" and n >= 5 else 0)
        if heroes and i in heroes:
            assign(state, i, heroes[i])
        p["hp"] = (hp or {}).get(i, p["max"])

    def pick(spec: Any) -> str:
        if isinstance(spec, str):
            return find(state, spec)
        return find(state, *spec)

    for seat, cards in (hands or {}).items():
        for spec in cards:
            cid = pick(spec)
            R.to_hand(state, seat, [cid])
    for seat, cards in (equip or {}).items():
        for spec in cards:
            cid = pick(spec)
            R.take(state, cid)
            state["players"][seat]["equip"][card(cid).slot] = cid
    for seat, cards in (judge or {}).items():
        for spec in cards:
            cid = pick(spec)
            R.take(state, cid)
            state["players"][seat]["judge"].append([cid, card(cid).name])
    tops = [pick(spec) for spec in (top or [])]
    for cid in tops:
        state["deck"].remove(cid)
    state["deck"].extend(reversed(tops))  # the deck's end is its top
    state["turn"], state["phase"], state["sha_used"], state["skip"] = turn, "play", 0, []
    state["round"], state["turns"] = 1, 1
    Flow.init(state)
    state["tflags"], state["queued"] = {}, []
    if phase == "play":
        state["flow"]["stack"] = [{"k": "game", "cur": turn}, {"k": "turn", "seat": turn, "st": 5},
                                  {"k": "phase", "seat": turn, "name": "play", "st": 3}]
    else:
        idx = R.PHASES.index(phase)
        state["phase"] = phase
        state["flow"]["stack"] = [{"k": "game", "cur": turn}, {"k": "turn", "seat": turn, "st": idx + 2},
                                  {"k": "phase", "seat": turn, "name": phase, "st": 0}]
    flow = R.flow_of(state)
    flow.run(Ctx(flow, state))
    return state


def hand_of(state: State, seat: int, name: str) -> str:
    for cid in state["players"][seat]["hand"]:
        if card(cid).name == name:
            return cid
    raise LookupError(f"seat {seat} holds no {name}")


def act(state: State, seat: int, *tokens: Any) -> tuple[State, list]:
    return ENGINE.apply(state, seat, [str(t) for t in tokens])


def asked(state: State) -> list[tuple[int, str]]:
    return [(r.seat, r.kind) for r in ENGINE.pending(state)]


def pass_all(state: State, kind: str = "nullify") -> State:
    """Every seat of the open ``kind`` window passes (in request order)."""
    while True:
        reqs = [r for r in ENGINE.pending(state) if r.kind == kind]
        if not reqs:
            return state
        state, _ = ENGINE.apply(state, reqs[0].seat, ["pass"])


def answer(state: State, kind: str, seat: int, *tokens: Any) -> State:
    """``seat`` answers the open ``kind`` ask (after everyone before it in a window passed)."""
    reqs = [r for r in ENGINE.pending(state) if r.kind == kind]
    assert any(r.seat == seat for r in reqs), (kind, seat, asked(state))
    state, _ = ENGINE.apply(state, seat, [str(t) for t in tokens])
    return state


def count_cards(state: State) -> dict[str, int]:
    seen: dict[str, int] = {}
    zones = [state["deck"], state["discard"], state["proc"]]
    for p in state["players"]:
        zones += [p["hand"], [c for c in p["equip"].values() if c], [e[0] for e in p["judge"]]]
        zones += list(p.get("piles", {}).values())
    for zone in zones:
        for cid in zone:
            seen[cid] = seen.get(cid, 0) + 1
    return seen


def hp(state: State, seat: int) -> int:
    return state["players"][seat]["hp"]


def options(state: State, seat: int, *path: Any) -> list[str]:
    return [o.value for o in ENGINE.step(state, seat, [str(t) for t in path]).options]


def names(state: State, seat: int) -> list[str]:
    """The card names in ``seat``'s hand."""
    return sorted(card(c).name for c in state["players"][seat]["hand"])


def play_on(state: State) -> State:
    """Answer every open yes/no skill question with yes and every window with pass, until the
    turn player's play phase (or another kind of ask) is reached."""
    while True:
        reqs = ENGINE.pending(state)
        if not reqs or reqs[0].kind not in ("skill", "nullify"):
            return state
        r = reqs[0]
        state, _ = ENGINE.apply(state, r.seat, ["yes"] if r.kind == "skill" else ["pass"])
