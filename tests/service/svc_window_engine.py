"""A toy game with response windows, for the service tests (the real user is 三国杀).

Seats have 3 HP. On your turn: ``["attack"]`` opens an "any" window to every other seat (each may
``["block"]``, the first block closes it; silent seats ``["pass"]``; if nobody blocks, every other
seat loses 1 HP); ``["poll"]`` opens an "all" window (each seat secretly ``["pick", 0-2]``, silent
ones pick 0); ``["ask", T]`` asks seat T alone (``["give"]`` or the default ``["pass"]``);
``["end"]`` passes the turn. The game ends when a seat reaches 0 HP; the seat on turn wins.
AI levels: "passer" always passes/picks 0, "blocker" always blocks/gives/picks 2. ``calls``
records which request each engine call was told about. Seats listed in ``state["unable"]`` (set
by a test) have nothing to block or give with: ``can_answer`` is False for their window requests.
"""

from __future__ import annotations

import copy
import random

from engines.base import (
    Action,
    Engine,
    EngineError,
    Event,
    Msg,
    Option,
    Request,
    Result,
    State,
    Step,
    View,
)

SLUG = "svc_windows"


class WindowEngine(Engine):
    slug = SLUG
    min_seats = 2
    max_seats = 5
    hidden_information = True

    def __init__(self) -> None:
        self.calls: list[tuple[str, int, str | None]] = []  # (method, seat, request id)

    def ai_levels(self) -> list[str]:
        return ["passer", "blocker"]

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        return {"game": SLUG, "seats": seats, "hp": [3] * seats, "turn": 0, "phase": "turn", "next_id": 1,
                "turn_req": "t0", "reqs": {}, "window": "", "picks": {}, "winner": None}

    @staticmethod
    def _new_id(state: State, prefix: str = "r") -> str:
        rid = f"{prefix}{state['next_id']}"
        state["next_id"] += 1
        return rid

    def pending(self, state: State) -> list[Request]:
        if state["winner"] is not None:
            return []
        phase = state["phase"]
        if phase == "turn":
            return [Request(state["turn_req"], state["turn"], "turn", Msg("win.prompt.turn"))]
        reqs = sorted((int(s), rid) for s, rid in state["reqs"].items())
        if phase == "any":
            return [Request(rid, s, "block", Msg("win.prompt.block"), window=state["window"], mode="any",
                            default=("pass",), short=True) for s, rid in reqs]
        if phase == "all":
            return [Request(rid, s, "pick", Msg("win.prompt.pick"), window=state["window"], mode="all",
                            default=("pick", "0"), short=True) for s, rid in reqs]
        return [Request(rid, s, "give", Msg("win.prompt.give"), default=("pass",), short=True) for s, rid in reqs]

    def _mine(self, state: State, seat: int) -> Request:
        for req in self.pending(state):
            if req.seat == seat:
                return req
        raise EngineError("win.err.not_yours")

    def _choices(self, state: State, req: Request) -> list[Action]:
        if req.kind == "turn":
            others = [str(s) for s in range(state["seats"]) if s != req.seat]
            return [["attack"], ["poll"], ["end"]] + [["ask", t] for t in others]
        if req.kind == "block":
            return [["block"], ["pass"]]
        if req.kind == "give":
            return [["give"], ["pass"]]
        return [["pick", v] for v in ("0", "1", "2")]

    def step(self, state: State, seat: int, path: Action, request: Request | None = None) -> Step:
        self.calls.append(("step", seat, request.id if request else None))
        req = self._mine(state, seat)
        legal = [a for a in self._choices(state, req) if a[:len(path)] == list(path)]
        if not legal:
            raise EngineError("win.err.bad")
        nxt = sorted({a[len(path)] for a in legal if len(a) > len(path)})
        return Step(Msg("win.step"), [Option(v, Msg("win.opt", {"v": v})) for v in nxt],
                    complete=list(path) in legal)

    def apply(self, state: State, seat: int, action: Action,
              request: Request | None = None) -> tuple[State, list[Event]]:
        self.calls.append(("apply", seat, request.id if request else None))
        req = self._mine(state, seat)
        if list(action) not in self._choices(state, req):
            raise EngineError("win.err.bad")
        new = copy.deepcopy(state)
        events: list[Event] = []
        verb = action[0]
        if req.kind == "turn":
            others = [s for s in range(new["seats"]) if s != seat]
            if verb in ("attack", "poll"):
                new["phase"] = "any" if verb == "attack" else "all"
                new["window"] = self._new_id(new, "w")
                new["reqs"] = {str(s): self._new_id(new) for s in (others if verb == "attack" else range(new["seats"]))}
                new["picks"] = {}
            elif verb == "ask":
                new["phase"] = "one"
                new["reqs"] = {action[1]: self._new_id(new)}
            else:
                new["turn"] = (seat + 1) % new["seats"]
                new["turn_req"] = self._new_id(new, "t")
            events.append(Event(Msg("win.ev.turn", {"seat": seat, "verb": verb})))
            return new, events
        del new["reqs"][str(seat)]
        if req.kind == "block":
            if verb == "block":
                events.append(Event(Msg("win.ev.blocked", {"seat": seat})))
                new["reqs"] = {}
            elif not new["reqs"]:
                for s in range(new["seats"]):
                    if s != new["turn"]:
                        new["hp"][s] -= 1
                events.append(Event(Msg("win.ev.hit")))
        elif req.kind == "pick":
            new["picks"][str(seat)] = int(action[1])
            events.append(Event(Msg("win.ev.picked", {"v": action[1]}), to=(seat,)))
            if not new["reqs"]:
                events.append(Event(Msg("win.ev.picks", {"picks": dict(new["picks"])})))
        else:
            events.append(Event(Msg("win.ev.answer", {"seat": seat, "verb": verb})))
        if not new["reqs"]:
            new["phase"] = "turn"
            new["window"] = ""
            new["turn_req"] = self._new_id(new, "t")
            if min(new["hp"]) <= 0:
                new["winner"] = new["turn"]
        return new, events

    def can_answer(self, state: State, request: Request) -> bool:
        return request.kind == "turn" or request.seat not in state.get("unable", [])

    def view(self, state: State, seat: int | None) -> View:
        v: View = {"game": SLUG, "hp": list(state["hp"]), "turn": state["turn"], "phase": state["phase"]}
        if seat is not None:
            v["seat"] = seat
        return v

    def result(self, state: State) -> Result | None:
        return None if state["winner"] is None else Result([state["winner"]])

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> Action:
        self.calls.append(("ai", seat, request.id if request else None))
        req = self._mine(state, seat)
        if req.kind == "turn":
            return ["end"]
        if req.kind == "pick":
            return ["pick", "2" if level == "blocker" else "0"]
        if level == "blocker":
            return ["block"] if req.kind == "block" else ["give"]
        return ["pass"]


ENGINE = WindowEngine()


def install() -> WindowEngine:
    from engines import registry

    ENGINE.calls.clear()
    registry.register(SLUG, ENGINE)
    return ENGINE


def uninstall() -> None:
    from engines import registry

    registry.GAMES.pop(SLUG, None)
    registry._cache.pop(SLUG, None)


def replay(seats: int, actions: list[tuple[int, Action]]) -> State:
    state = ENGINE.new_state({}, seats, 0)
    for seat, action in actions:
        state, _ = ENGINE.apply(state, seat, action)
    return state
