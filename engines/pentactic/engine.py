"""The Pentactic engine: the :class:`engines.base.Engine` face of the rules in this package."""

from __future__ import annotations

import json
import random
from typing import Any

from engines.base import Engine, EngineError, Event, Msg, OptionSpec, Request, Result, Step
from engines.pentactic import ai, moves, rules
from engines.pentactic.geometry import BOARDS
from engines.pentactic.hint import find_hint
from engines.pentactic.view import build_view, describe

State = dict[str, Any]

MODES = ("1", "2", "3", "4")
_SEATS = {"1": (2, 2), "2": (2, 2), "3": (3, 6), "4": (1, 1)}


def _m(key: str, **params: Any) -> Msg:
    return Msg(f"pentactic.{key}", params)


class PentacticEngine(Engine):
    slug = "pentactic"
    min_seats = 1
    max_seats = 6
    hidden_information = False

    def option_specs(self) -> list[OptionSpec]:
        return [
            OptionSpec("mode", _m("option.mode"), [(m, _m(f"option.mode_{m}")) for m in MODES], "2"),
            OptionSpec("board", _m("option.board"), [(b, _m("option.board_size", size=b)) for b in BOARDS],
                       "8x8"),
            OptionSpec("deal", _m("option.deal"),
                       [("solvable", _m("option.deal_solvable")), ("random", _m("option.deal_random"))],
                       "solvable"),
        ]

    def visible_options(self, options: dict[str, str]) -> list[str]:
        """Option names worth showing in the lobby for these choices: the deal (solvable or
        random piece sets) only changes the solo puzzle, so it is hidden in the other modes."""
        names = [spec.name for spec in self.option_specs()]
        return names if options.get("mode", "2") == "4" else [n for n in names if n != "deal"]

    def seat_range(self, options: dict[str, str]) -> tuple[int, int]:
        return _SEATS.get(options.get("mode", "2"), (self.min_seats, self.max_seats))

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        opts = self.normalize_options(options)
        lo, hi = self.seat_range(opts)
        if not lo <= seats <= hi:
            raise EngineError("pentactic.err.seats", min=lo, max=hi, seats=seats)
        return rules.new_state(opts, seats, seed)

    def pending(self, state: State) -> list[Request]:
        if state["phase"] == "over" or state["turn"] is None:
            return []
        phase = state["phase"]
        kind = {"discard": "discard", "defend": "defend", "attack": "turn"}[phase]
        return [Request(str(state["seq"]), state["turn"], kind, _m(f"req.{phase}"))]

    def step(self, state: State, seat: int, path: list[str], request: Request | None = None) -> Step:
        step, _ = moves.walk(state, seat, list(path))
        assert step is not None
        return step

    def apply(self, state: State, seat: int, action: list[str],
              request: Request | None = None) -> tuple[State, list[Event]]:
        _, parsed = moves.walk(state, seat, list(action))
        if parsed is None:
            raise EngineError("pentactic.err.incomplete")
        new: State = json.loads(json.dumps(state))
        events: list[Event] = []
        if parsed.verb == "discard":
            assert parsed.target is not None and parsed.piece is not None
            rules.do_discard(new, seat, parsed.target, parsed.piece, events)
        elif parsed.verb == "disc":
            assert parsed.target is not None and parsed.cell is not None
            rules.do_disc(new, seat, parsed.target, parsed.cell[0], parsed.cell[1], events)
        elif parsed.verb == "place":
            assert parsed.placement is not None
            rules.do_place(new, seat, parsed.placement, events)
        else:
            self._hint(new, events)
        new["seq"] += 1
        return new, events

    @staticmethod
    def _hint(state: State, events: list[Event]) -> None:
        """Solo only. The hint is public like everything in Pentactic: the only player's game, so
        it goes into the view (drawn on the board image until the next placement) and the event
        is public too, which also reaches a player whose DMs are closed."""
        status, pl = find_hint(state)
        state["hints"] += 1
        if pl is None:
            state["hint"] = None
            events.append(Event(_m(f"ev.hint_{status}"), kind="hint"))
            return
        cells = [[x, y] for x, y in rules.geo(state).mask_cells(pl.mask)]
        state["hint"] = {"piece": pl.piece, "orientation": pl.orientation, "anchor": pl.anchor,
                         "cells": cells}
        events.append(Event(_m("ev.hint", piece=pl.piece, orientation=pl.orientation + 1,
                               cell=pl.anchor), kind="hint"))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state)

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = {s: p["total"] for s, p in enumerate(state["players"])}
        winners = list(state["winners"] or [])
        if state["mode"] == "4":
            summary = _m("result.solved") if winners else _m("result.unsolved", pieces=scores[0])
        else:
            summary = (_m("result.winner", player=rules.pname(winners[0])) if len(winners) == 1
                       else _m("result.shared", count=len(winners)))
        return Result(winners, scores, summary)

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> list[str]:
        return ai.choose(state, seat, rng, level if level in self.ai_levels() else "normal")

    def ai_levels(self) -> list[str]:
        return ["easy", "normal", "hard"]

    def describe(self, view: dict[str, Any]) -> list[Msg]:
        return describe(view)


ENGINE = PentacticEngine()
