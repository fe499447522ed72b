"""Exact hegemony (国战) tables for rule tests: each seat's main and deputy, which are shown, HP,
hands, equipment and the flow parked at a chosen seat's play phase (or turn start)."""

from __future__ import annotations

from typing import Any

from engines.flow import Ctx, Flow
from engines.sanguosha import ENGINE, hegemony, modes
from engines.sanguosha import rules as R
from engines.sanguosha.data import card

State = dict[str, Any]


def find(state: State, name: str, exclude: set[str] | frozenset[str] = frozenset()) -> str:
    for cid in state["deck"]:
        if card(cid).name == name and cid not in exclude:
            return cid
    raise LookupError(f"no {name} left in the deck")


def table(heroes: list[tuple[str, str]], *, shown: dict[int, tuple[bool, bool]] | None = None,
          turn: int = 0, hp: dict[int, int] | None = None, hands: dict[int, list[str]] | None = None,
          equip: dict[int, list[str]] | None = None, phase: str = "play", seed: int = 1,
          options: dict[str, str] | None = None) -> State:
    """Seat i holds ``heroes[i]`` (main, deputy); ``shown[i]`` which of them are face up (shown in
    seat order, so 野心家 fall out as the rules make them). ``phase``: "play" parks the flow in
    ``turn``'s play phase, "turn" at the start of ``turn``'s turn."""
    n = len(heroes)
    state = modes.table({"heroes": "standard", **(options or {})}, n, seed, mode="hegemony", hg={
        "first": False, "aozhan": 0, "peek_next": False, "start": 0, "deal": {},
        "lords": (options or {}).get("lords") == "on"})
    state["deck"] = hegemony.MODE.cards(options or {})
    state["lord"] = -1
    for _ in range(n):
        state["players"].append({
            "role": None, "hp": 0, "max": 0, "alive": True, "revealed": False, "hero": None,
            "gender": None, "kingdom": None, "skills": [], "heroes": [], "ye": False,
            "marks": dict.fromkeys(hegemony.MARKS, 0), "stacked": False,
            "hand": [], "equip": {"weapon": None, "armor": None, "plus": None, "minus": None}, "judge": []})
    for i, (main, deputy) in enumerate(heroes):
        hegemony.seat_heroes(state, i, main, deputy)
    Flow.init(state)
    state["tflags"], state["queued"] = {}, []
    ctx = Ctx(R.flow_of(state), state)
    for i, (a, b) in sorted((shown or {}).items()):
        for index, up in enumerate((a, b)):
            if up:
                R.reveal(ctx, i, index)
    state["queued"] = []
    ctx.stack.clear()
    for i, v in (hp or {}).items():
        state["players"][i]["hp"] = v
    for seat, names in (hands or {}).items():
        for name in names:
            R.to_hand(state, seat, [find(state, name)])
    for seat, names in (equip or {}).items():
        for name in names:
            cid = find(state, name)
            R.take(state, cid)
            state["players"][seat]["equip"][card(cid).slot] = cid
    state["log"] = []
    state["turn"], state["phase"], state["sha_used"], state["skip"] = turn, "play", 0, []
    state["round"], state["turns"] = 1, 1
    state["hg"]["start"] = turn
    if phase == "play":
        state["flow"]["stack"] = [{"k": "game", "cur": turn}, {"k": "turn", "seat": turn, "st": "discard"},
                                  {"k": "phase", "seat": turn, "name": "play", "st": "play"}]
    else:
        state["flow"]["stack"] = [{"k": "game", "cur": turn}, {"k": "turn", "seat": turn, "st": "start"}]
    run(state)
    return state


def run(state: State) -> State:
    flow = R.flow_of(state)
    flow.run(Ctx(flow, state))
    return state


def kill(state: State, victim: int, src: int | None) -> State:
    """``victim`` dies at once (no dying window), killed by ``src``."""
    state["players"][victim]["hp"] = 0
    ctx = Ctx(R.flow_of(state), state)
    ctx.push("death", seat=victim, src=src, st="start")
    R.flow_of(state).run(ctx)
    return state


def act(state: State, seat: int, action: list[str]) -> State:
    new, _ = ENGINE.apply(state, seat, action)
    return new


def asked(state: State) -> list[tuple[int, str]]:
    return [(a.seat, a.kind) for a in Flow.asks(state)]
