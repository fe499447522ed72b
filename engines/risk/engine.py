"""The Risk engine: glue between the engine contract and the rules modules."""

from __future__ import annotations

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
from engines.risk import actions, ai, choices, requests, rules, setup, summary, views

VARIANTS = ("classic", "neutral", "hq", "mission")
SETUPS = ("quick", "classic")


class RiskEngine(Engine):
    slug = "risk"
    min_seats = 2
    max_seats = 6
    hidden_information = True

    def option_specs(self) -> list[OptionSpec]:
        return [
            OptionSpec("variant", Msg("risk.option.variant"),
                       [(v, Msg(f"risk.variant.{v}")) for v in VARIANTS], "classic"),
            OptionSpec("setup", Msg("risk.option.setup"),
                       [(v, Msg(f"risk.setup.{v}")) for v in SETUPS], "quick"),
        ]

    def seat_range(self, options: dict[str, str]) -> tuple[int, int]:
        if options.get("variant") == "neutral":
            return 2, 2
        return self.min_seats, self.max_seats

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        opts = self.normalize_options(options)
        lo, hi = self.seat_range(opts)
        if not lo <= seats <= hi:
            raise EngineError("risk.err.seats", min=lo, max=hi)
        state, _ = setup.new_game(opts, seats, seed)
        requests.refresh(state, None)
        return state

    def pending(self, state: State) -> list[Request]:
        return requests.pending(state)

    def step(self, state: State, seat: int, path: Action, request: Request | None = None) -> Step:
        node = choices.tree(state, seat, list(path))
        return Step(node.prompt, list(node.options), node.complete)

    def apply(self, state: State, seat: int, action: Action,
              request: Request | None = None) -> tuple[State, list[Event]]:
        path = list(action)
        choices.validate(state, seat, path)
        new = rules.copy_state(state)
        events = actions.execute(new, seat, path)
        requests.refresh(new, seat)
        return new, events

    def view(self, state: State, seat: int | None) -> View:
        return views.build(state, seat)

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = {s: rules.territory_count(state, s) for s in range(state["seats"])}
        return Result(list(state["winners"]), scores, Msg(f"risk.end.{state['end_reason']}"))

    def ai_levels(self) -> list[str]:
        return ["normal", "easy"]

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> Action:
        return ai.decide(views.SeatView(state, seat), rng, level)

    def timeout_action(self, state: State, request: Request, rng: random.Random) -> Action:
        return ai.timeout(views.SeatView(state, request.seat))

    def describe(self, view: View) -> list[Msg]:
        return views.describe(view)

    def summarize(self, events: list[Event]) -> list[Msg]:
        """An AI seat's run of moves in a few lines (``engines.risk.summary``)."""
        return summary.summarize(events)

    def private_summary(self, view: View) -> list[Msg]:
        return views.private_summary(view)


def random_action(engine: Engine, state: State, seat: int, rng: random.Random) -> Action:
    """Walk the action tree picking uniformly among offered options (the 'random' opponent)."""
    path: list[str] = []
    while True:
        step = engine.step(state, seat, path)
        if step.complete and (not step.options or rng.random() < 0.5):
            return path
        opt: Option = rng.choice(step.options)
        path.append(opt.value)
