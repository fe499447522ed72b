"""A tiny deterministic game for the service tests, so they do not depend on the real engines.

Counting race for 2-4 seats: on your turn add 1 or 2 to a shared count; whoever reaches the
target wins. Each time the count passes a multiple of 5, every seat secretly bids 0-2 at once
(a simultaneous phase with one request per seat); bids are added to scores when all are in.
Each seat also holds a secret bit only its own view shows (hidden information). The action
``["boom"]`` makes the engine crash with a non-EngineError, like a buggy engine would.
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
    OptionSpec,
    Request,
    Result,
    State,
    Step,
    View,
)
from engines.rng import Rng

SLUG = "svc_toy"


class ToyEngine(Engine):
    slug = SLUG
    min_seats = 2
    max_seats = 4
    hidden_information = True

    def option_specs(self) -> list[OptionSpec]:
        return [OptionSpec("target", Msg("toy.opt.target"),
                           [(v, Msg("toy.opt.value", {"v": v})) for v in ("10", "15", "30")], "15")]

    def ai_levels(self) -> list[str]:
        return ["normal", "greedy"]

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        state: State = {"game": SLUG, "seats": seats, "target": int(options["target"]), "count": 0,
                        "turn": 0, "phase": "count", "next_id": 1, "req": "r0", "bid_reqs": {}, "bids": {},
                        "scores": [0] * seats, "rng": Rng.seed_value(seed), "winner": None, "moves": 0}
        rng = Rng(state)
        state["secret"] = [rng.below(2) for _ in range(seats)]
        return state

    @staticmethod
    def _new_id(state: State) -> str:
        rid = f"r{state['next_id']}"
        state["next_id"] += 1
        return rid

    def pending(self, state: State) -> list[Request]:
        if state["winner"] is not None:
            return []
        if state["phase"] == "count":
            return [Request(state["req"], state["turn"], "turn", Msg("toy.prompt.count"))]
        return [Request(rid, int(seat), "bid", Msg("toy.prompt.bid"))
                for seat, rid in sorted(state["bid_reqs"].items()) if seat not in state["bids"]]

    def _request(self, state: State, seat: int) -> Request:
        for req in self.pending(state):
            if req.seat == seat:
                return req
        raise EngineError("toy.err.not_yours")

    def step(self, state: State, seat: int, path: Action) -> Step:
        req = self._request(state, seat)
        verb, choices = ("add", ["1", "2"]) if req.kind == "turn" else ("bid", ["0", "1", "2"])
        if not path:
            return Step(Msg("toy.step.verb"), [Option(verb, Msg(f"toy.verb.{verb}"))])
        if path[0] != verb or len(path) > 2 or (len(path) == 2 and path[1] not in choices):
            raise EngineError("toy.err.bad")
        if len(path) == 1:
            return Step(Msg("toy.step.amount"), [Option(c, Msg("toy.opt.value", {"v": c})) for c in choices])
        return Step(Msg("toy.step.done"), [], complete=True)

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if action == ["boom"]:
            raise RuntimeError("toy engine exploded")
        self.step(state, seat, action)  # validates the whole path
        if len(action) != 2:
            raise EngineError("toy.err.incomplete")
        new = copy.deepcopy(state)
        events: list[Event] = []
        n = int(action[1])
        new["moves"] += 1
        if new["phase"] == "count":
            old = new["count"]
            new["count"] += n
            events.append(Event(Msg("toy.ev.add", {"seat": seat, "n": n, "count": new["count"]})))
            if new["count"] >= new["target"]:
                new["winner"] = seat
            elif new["count"] // 5 > old // 5:
                new["phase"] = "bid"
                new["bids"] = {}
                new["bid_reqs"] = {str(s): self._new_id(new) for s in range(new["seats"])}
            else:
                new["turn"] = (new["turn"] + 1) % new["seats"]
                new["req"] = self._new_id(new)
        else:
            new["bids"][str(seat)] = n
            events.append(Event(Msg("toy.ev.bid_secret", {"n": n}), to=(seat,)))
            if len(new["bids"]) == new["seats"]:
                for s, b in new["bids"].items():
                    new["scores"][int(s)] += b
                events.append(Event(Msg("toy.ev.reveal", {"bids": dict(new["bids"])})))
                new["phase"] = "count"
                new["bid_reqs"] = {}
                new["turn"] = (new["turn"] + 1) % new["seats"]
                new["req"] = self._new_id(new)
        return new, events

    def view(self, state: State, seat: int | None) -> View:
        v: View = {"game": SLUG, "count": state["count"], "target": state["target"], "turn": state["turn"],
                   "phase": state["phase"], "scores": list(state["scores"]), "bid_done": sorted(state["bids"]),
                   "board": [["#" if i < state["count"] else "." for i in range(r * 5, r * 5 + 5)]
                             for r in range((state["target"] + 4) // 5)]}
        if seat is not None:
            v["seat"] = seat
            v["secret"] = state["secret"][seat]
            if str(seat) in state["bids"]:
                v["my_bid"] = state["bids"][str(seat)]
        return v

    def result(self, state: State) -> Result | None:
        if state["winner"] is None:
            return None
        return Result([state["winner"]], {i: s for i, s in enumerate(state["scores"])},
                      Msg("toy.result", {"seat": state["winner"]}))

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal") -> Action:
        req = self._request(state, seat)
        if req.kind == "turn":
            return ["add", "2" if level == "greedy" else str(rng.choice([1, 2]))]
        return ["bid", str(rng.randint(0, 2))]

    def describe(self, view: View) -> list[Msg]:
        return [Msg("toy.describe", {"count": view["count"], "target": view["target"]})]


ENGINE = ToyEngine()


def install() -> ToyEngine:
    """Make the toy game available through engines.registry."""
    from engines import registry

    registry.register(SLUG, ENGINE)
    return ENGINE


def uninstall() -> None:
    """Take the toy game out of the registry again, so other test packages never see it."""
    from engines import registry

    registry.GAMES.pop(SLUG, None)
    registry._cache.pop(SLUG, None)


def replay(seed: int, seats: int, options: dict[str, str], actions: list[tuple[int, Action]]) -> State:
    """The state after replaying the logged actions; crash tests compare it to the stored one."""
    state = ENGINE.new_state(options, seats, seed)
    for seat, action in actions:
        state, _ = ENGINE.apply(state, seat, action)
    return state
