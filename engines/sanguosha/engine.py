"""三国杀 identity mode (身份局): the :class:`engines.base.Engine` face of this package."""

from __future__ import annotations

import json
import random
from typing import Any

from engines.adapter import GameEngine, random_action
from engines.base import EngineError, Event, Msg, OptionSpec, Request, Result, State, Step
from engines.flow import Ctx, Flow
from engines.rng import Rng
from engines.sanguosha import (  # noqa: F401 - registers frames  # noqa: F401
    ai,
    choices,
    equipment,
    frames,
    setup,
    skills,
    skills_qun,
    skills_shu,
    skills_wei,
    skills_wu,
    views,
)
from engines.sanguosha import rules as R
from engines.sanguosha import summary as sgs_summary
from engines.sanguosha.data import deck
from engines.sanguosha.rules import FLOW, ROLES, m

HEROES = ("standard", "beginner")
#: The lobby's default (docs/rules/sanguosha.md, "Heroes"): the standard heroes, the game players
#: expect; beginner (no skills) stays one click away for a first game.
DEFAULT_HEROES = "standard"


def new_game(options: dict[str, str], n: int, seed: int) -> State:
    """Roles dealt at random (the lord revealed). Beginner: everyone 4 HP (the lord +1 with 5+
    players: seed 分发体力牌), 4 cards each, and the lord's first turn started. Standard: the
    hero choice starts (``setup.py``), which then sets HP, deals and starts the lord's turn."""
    state: State = {
        "game": "sanguosha", "n": n, "heroes": options["heroes"], "rng": Rng.seed_value(seed),
        "deck": [], "discard": [], "proc": [], "players": [], "lord": 0, "turn": None,
        "phase": "", "round": 0, "turns": 0, "sha_used": 0, "skip": [], "reshuffles": 0,
        "winners": None, "dead_order": [], "log": [], "acts": [[0] * n for _ in range(n)],
        "tflags": {}, "queued": [],
    }
    standard = options["heroes"] == "standard"
    rng = Rng(state)
    roles = list(ROLES[n])
    rng.shuffle(roles)
    cards = list(deck())
    rng.shuffle(cards)
    state["deck"] = cards
    state["lord"] = roles.index("Z")
    for r in roles:
        hp = 0 if standard else 4 + (1 if r == "Z" and n >= 5 else 0)
        state["players"].append({
            "role": r, "hp": hp, "max": hp, "alive": True, "revealed": r == "Z",
            "hero": None if standard else "beginner", "gender": None, "kingdom": None, "skills": [], "hand": [],
            "equip": {"weapon": None, "armor": None, "plus": None, "minus": None}, "judge": [],
        })
    Flow.init(state)
    ctx = Ctx(FLOW, state)
    if standard:
        ctx.push("setup", st=0)
    else:
        for seat in R.living(state, state["lord"]):
            state["players"][seat]["hand"].extend(R.deal(state, 4))
        ctx.push("game", cur=None)
    FLOW.run(ctx)
    return state


class SanguoshaEngine(GameEngine):
    """Lobby, views and AI levels come from :class:`engines.adapter.GameEngine`; actions are not
    a tree walked and executed (``TreeEngine``) but answers to the ask on top of the flow stack,
    which then runs until somebody must decide again and names the requests itself."""

    slug = "sanguosha"
    min_seats = 2
    max_seats = 10
    hidden_information = True
    private_panel = True
    views = views

    def option_specs(self) -> list[OptionSpec]:
        return [OptionSpec("heroes", m("option.heroes"), [(h, m(f"option.heroes_{h}")) for h in HEROES],
                           DEFAULT_HEROES)]

    def start(self, options: dict[str, str], seats: int, seed: int) -> State:
        return new_game(options, seats, seed)

    def pending(self, state: State) -> list[Request]:
        return [Request(a.rid, a.seat, a.kind, views.ask_prompt(a), window=a.window, mode=a.mode,
                        default=a.default, short=a.short)
                for a in Flow.asks(state)]

    def step(self, state: State, seat: int, path: list[str], request: Request | None = None) -> Step:
        _check_request(state, seat, request)
        return choices.step(state, seat, list(path))

    def apply(self, state: State, seat: int, action: list[str],
              request: Request | None = None) -> tuple[State, list[Event]]:
        _check_request(state, seat, request)
        choices.validate(state, seat, list(action))
        new: State = json.loads(json.dumps(state))
        events: list[Event] = []
        Flow.answer(new, seat, list(action))
        FLOW.run(Ctx(FLOW, new, events))
        return new, events

    def result(self, state: State) -> Result | None:
        won = state["winners"]
        if won is None:
            return None
        side = frames._side_of(state, won)
        return Result(list(won), None, m(f"result.{side}"))

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> list[str]:
        return ai.decide(state, seat, rng, level)

    def can_answer(self, state: State, request: Request) -> bool:
        ask = Flow.ask_of(state, request.seat)
        if ask is None or ask.rid != request.id:
            return True
        return R.can_respond(state, request.seat, ask.kind, ask.info)

    def timeout_action(self, state: State, request: Request, rng: random.Random) -> list[str]:
        return ai.timeout(state, request.seat)

    def compact(self, msgs: list[Msg]) -> list[Msg]:
        """A turn's public lines told shorter for the thread (see ``summary.compact``)."""
        return sgs_summary.compact(msgs)


def _check_request(state: State, seat: int, request: Request | None) -> None:
    """A seat is asked one thing at a time here; a request that is no longer open is stale."""
    if request is None:
        return
    ask = Flow.ask_of(state, seat)
    if ask is None or ask.rid != request.id:
        raise EngineError("sanguosha.err.stale")


__all__ = ["SanguoshaEngine", "new_game", "random_action", "Any"]
