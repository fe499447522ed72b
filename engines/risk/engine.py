"""The Risk engine: the game-specific parts of :class:`engines.adapter.TreeEngine`."""

from __future__ import annotations

import random

from engines.adapter import TreeEngine, random_action
from engines.base import Action, Event, Msg, OptionSpec, Request, State
from engines.risk import (
    actions,
    ai,
    ai_easy,
    ai_hard,
    ai_turn,
    choices,
    composite,
    requests,
    rules,
    setup,
    summary,
    views,
)

VARIANTS = ("classic", "neutral", "hq", "mission")
SETUPS = ("quick", "classic")
#: A level the lobby does not offer: the normal AI one single step at a time, as it played before
#: issue 22's seventh round joined its steps (``ai_turn``). Hard plays it in its rollouts; the
#: strength pin of normal plays against it (docs/rules/risk.md, "AI levels").
REFERENCE = "reference"

__all__ = ["RiskEngine", "random_action"]


class RiskEngine(TreeEngine):
    slug = "risk"
    min_seats = 2
    max_seats = 6
    hidden_information = True
    choices = choices
    actions = actions
    views = views

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

    def start(self, options: dict[str, str], seats: int, seed: int) -> State:
        state, _ = setup.new_game(options, seats, seed)
        return state

    def refresh(self, state: State, actor: int | None) -> None:
        requests.refresh(state, actor)

    def pending(self, state: State) -> list[Request]:
        return requests.pending(state)

    def apply(self, state: State, seat: int, action: Action,
              request: Request | None = None) -> tuple[State, list[Event]]:
        parts = composite.split(action) if isinstance(action, list) and action else None
        if parts is None:
            return super().apply(state, seat, action, request)
        new = self.copy_state(state)
        return new, composite.play(new, seat, parts)[0]

    def apply_steps(self, state: State, seat: int, action: Action,
                    request: Request | None = None) -> tuple[State, list[Event], list[Action]]:
        """``apply``, also naming the single steps played: the action itself, or a composite's
        parts with an attack's move-in (``engines.risk.composite``). Tests replay those steps
        one by one to show a composite reaches the same state."""
        parts = composite.split(action) if isinstance(action, list) and action else None
        if parts is None:
            new, events = super().apply(state, seat, action, request)
            return new, events, [list(action)]
        new = self.copy_state(state)
        events, steps = composite.play(new, seat, parts)
        return new, events, steps

    def copy_state(self, state: State) -> State:
        return rules.copy_state(state)

    def score(self, state: State, seat: int) -> int:
        return rules.territory_count(state, seat)

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> Action:
        if level == "hard":
            return ai_hard.decide(state, seat, rng)
        view = views.SeatView(state, seat)
        if level == "easy":
            return ai_easy.decide(view, rng)
        if level == REFERENCE:
            return ai.decide(view, rng)
        return ai_turn.decide(view)

    def ai_levels(self) -> list[str]:
        return ["easy", "normal", "hard"]

    def timeout_action(self, state: State, request: Request, rng: random.Random) -> Action:
        return ai.timeout(views.SeatView(state, request.seat))

    def summarize(self, events: list[Event]) -> list[Msg]:
        """An AI seat's run of moves in a few lines (``engines.risk.summary``)."""
        return summary.summarize(events)
