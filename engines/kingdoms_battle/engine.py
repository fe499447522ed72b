"""The 鬪三國 engine: glue between the engine contract and the rules modules."""

from __future__ import annotations

import random

from engines.base import Action, Engine, EngineError, Event, Msg, Request, Result, State, Step, View
from engines.kingdoms_battle import actions, ai, choices, rules, summary, views
from engines.kingdoms_battle.rules import m


class KingdomsBattleEngine(Engine):
    slug = "kingdoms_battle"
    min_seats = 3
    max_seats = 5
    hidden_information = False

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        self.normalize_options(options)
        if not self.min_seats <= seats <= self.max_seats:
            raise EngineError("kingdoms_battle.err.seats", min=self.min_seats, max=self.max_seats)
        state = rules.new_game(seats, seed)
        _refresh(state)
        return state

    def pending(self, state: State) -> list[Request]:
        req = state["req"]
        if req is None:
            return []
        rid, seat, kind = req
        return [Request(rid, seat, kind, m(f"req.{kind}"))]

    def step(self, state: State, seat: int, path: Action, request: Request | None = None) -> Step:
        node = choices.tree(state, seat, list(path))
        return Step(node.prompt, list(node.options), node.complete, picture=node.picture)

    def apply(self, state: State, seat: int, action: Action,
              request: Request | None = None) -> tuple[State, list[Event]]:
        choices.validate(state, seat, list(action))
        new = rules.copy_state(state)
        events = actions.execute(new, seat, list(action))
        _refresh(new)
        return new, events

    def view(self, state: State, seat: int | None) -> View:
        return views.build(state, seat)

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = {s: rules.score(state, s) for s in range(state["seats"])}
        return Result(list(state["winners"]), scores, m(f"end.{state['end_reason']}"))

    def ai_levels(self) -> list[str]:
        return ["normal", "easy"]

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> Action:
        if level == "easy":  # the random walker: a baseline, and gentle company
            return ai.random_action(state, seat, rng)
        return ai.decide(state, seat, rng)

    def describe(self, view: View) -> list[Msg]:
        return views.describe(view)

    def summarize(self, events: list[Event]) -> list[Msg]:
        """An AI seat's run of moves in fewer lines (``engines.kingdoms_battle.summary``)."""
        return summary.summarize(events)


def _refresh(state: State) -> None:
    """A fresh request id after every change (one decision is asked at a time)."""
    seat = choices.asked(state)
    if seat is None:
        state["req"] = None
        return
    state["req_seq"] += 1
    state["req"] = [f"r{state['req_seq']}", seat, state["phase"]]
