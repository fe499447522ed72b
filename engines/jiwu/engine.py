"""The 极武三国 engine: glue between the engine contract and the rules modules."""

from __future__ import annotations

import random

from engines.base import (
    Action,
    Engine,
    EngineError,
    Event,
    Msg,
    OptionSpec,
    Request,
    Result,
    State,
    Step,
    View,
)
from engines.jiwu import actions, ai, choices, rules, summary, views
from engines.jiwu.rules import m


class JiwuEngine(Engine):
    slug = "jiwu"
    min_seats = 2
    max_seats = 4
    hidden_information = True
    #: Each player's hand and 计策 cards live in one standing DM panel (cogs/utils/panel.py) with
    #: the buttons to play and recruit; the duel's secret choice is prompted there too.
    private_panel = True

    def option_specs(self) -> list[OptionSpec]:
        """``ending``: the seed does not say at which moment the game ends once the last soldier
        is deployed or the central deck is empty; the default ``round`` plays the round out so
        every player has had as many turns (the published yardstick game's rule: the start
        player's 68 % at 2 players falls to 52 %, docs/rules/jiwu.md); ``turn`` ends it with the
        turn that met the condition."""
        return [OptionSpec("ending", m("option.ending"),
                           [(v, m(f"ending.{v}")) for v in rules.ENDINGS], "round")]

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        opts = self.normalize_options(options)
        if not self.min_seats <= seats <= self.max_seats:
            raise EngineError("jiwu.err.seats", min=self.min_seats, max=self.max_seats)
        state = rules.new_game(seats, seed, opts["ending"])
        _refresh(state)
        return state

    def pending(self, state: State) -> list[Request]:
        out = []
        for rid, seat, kind in state["req"] or []:
            if kind == "duel":
                out.append(Request(rid, seat, kind, m("req.duel"), window=rid.rsplit(".", 1)[0], mode="all"))
            else:
                out.append(Request(rid, seat, kind, m(f"req.{kind}")))
        return out

    def step(self, state: State, seat: int, path: Action, request: Request | None = None) -> Step:
        node = choices.tree(state, seat, list(path))
        # Choosing what to recruit: the market row with its effects (the buttons only name them).
        picture = {"kind": "market"} if list(path) == ["buy"] else None
        return Step(node.prompt, list(node.options), node.complete, picture=picture)

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
        if level == "easy":  # the random walker: a baseline
            return ai.random_action(state, seat, rng)
        return ai.decide(state, seat, rng)

    def describe(self, view: View) -> list[Msg]:
        return views.describe(view)

    def private_summary(self, view: View) -> list[Msg]:
        return views.private_summary(view)

    def compact(self, msgs: list[Msg]) -> list[Msg]:
        """A turn's public lines told shorter for the thread (see ``summary.compact``)."""
        return summary.compact(msgs)


def _refresh(state: State) -> None:
    """Request ids: a fresh one after every change, except a duel choice, whose id stays while
    the other duellist decides (answering one secret choice must not stale the other's button)."""
    old = {(seat, kind): rid for rid, seat, kind in state["req"] or []}
    out = []
    for seat in choices.asked(state):
        kind = state["phase"] if state["phase"] != "main" else "turn"
        if kind == "duel":
            d = state["duel"]
            rid = old.get((seat, "duel"))
            if rid is None or not rid.startswith(f"d{state['stats']['duels']}.{d['round']}."):
                state["req_seq"] += 1
                rid = f"d{state['stats']['duels']}.{d['round']}.{state['req_seq']}"
        else:
            state["req_seq"] += 1
            rid = f"r{state['req_seq']}"
        out.append([rid, seat, kind])
    state["req"] = out or None
