"""The 鬪三國 engine: the game-specific parts of :class:`engines.adapter.TreeEngine`."""

from __future__ import annotations

import random
from typing import Any

from engines.adapter import TreeEngine, mint_request_id
from engines.base import Action, Event, Msg, Request, State
from engines.kingdoms_battle import actions, ai, ai_easy, ai_hard, choices, rules, summary, views
from engines.kingdoms_battle.rules import m

#: The AI levels a lobby offers, each a ``decide(state, seat, rng)``; normal is today's AI (and
#: the answer to an unknown level, as before). The random walker is ``ai.random_action``, the
#: baseline of the self-play ladder, not a level.
LEVELS = {"easy": ai_easy.decide, "normal": ai.decide, "hard": ai_hard.decide}


class KingdomsBattleEngine(TreeEngine):
    slug = "kingdoms_battle"
    min_seats = 3
    max_seats = 5
    hidden_information = False
    choices = choices
    actions = actions
    views = views

    def start(self, options: dict[str, str], seats: int, seed: int) -> State:
        return rules.new_game(seats, seed)

    def refresh(self, state: State, actor: int | None) -> None:
        _refresh(state)

    def pending(self, state: State) -> list[Request]:
        req = state["req"]
        if req is None:
            return []
        rid, seat, kind = req
        return [Request(rid, seat, kind, m(f"req.{kind}"))]

    def step_picture(self, node: Any, path: Action) -> dict[str, Any] | None:
        return node.picture

    def score(self, state: State, seat: int) -> int:
        return rules.score(state, seat)

    def ai_levels(self) -> list[str]:
        return list(LEVELS)

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> Action:
        return LEVELS.get(level, ai.decide)(state, seat, rng)

    def summarize(self, events: list[Event]) -> list[Msg]:
        """An AI seat's run of moves in fewer lines (``engines.kingdoms_battle.summary``)."""
        return summary.summarize(events)


def _refresh(state: State) -> None:
    """A fresh request id after every change (one decision is asked at a time)."""
    seat = choices.asked(state)
    if seat is None:
        state["req"] = None
        return
    state["req"] = [mint_request_id(state), seat, state["phase"]]
