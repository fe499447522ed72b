"""One adapter from a game's rules modules to the :class:`engines.base.Engine` contract.

Risk, 鬪三國 and 极武三国 are written the same way: a token tree (``choices.tree``/``validate``),
an executor that changes a copy of the state (``actions.execute``), request ids refreshed after
every change, and views (``views.build``/``describe``/``private_summary``). The glue between
those modules and the contract was three copies of one shape; it lives here once, so a change to
how an action is applied (or a fix to it) reaches every game, and a game's engine module says
only what is its own: how a game starts, which requests it asks, how it scores, its AI.

:class:`GameEngine` is the part every such game shares (lobby options → new state, views, AI
levels); 三国杀, whose actions run on the ``engines.flow`` stack, uses only that.
:class:`TreeEngine` adds the token tree and the validate → copy → execute → refresh ``apply``.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol

from engines.base import Action, Engine, EngineError, Event, Msg, Option, Request, Result, State, Step, View
from engines.jsoncopy import clone


class Node(Protocol):
    """A point of a game's token tree (each ``choices`` module has its own dataclass)."""

    prompt: Msg
    options: list[Option]
    complete: bool


def mint_request_id(state: State, prefix: str = "r") -> str:
    """A request id never used before in this match: ``prefix`` and the state's ``req_seq``
    counter, moved on. Ids must stay unique for the whole match (a stale button is recognised by
    its id), so every game that keeps a counter in ``req_seq`` takes its ids from here."""
    state["req_seq"] += 1
    return f"{prefix}{state['req_seq']}"


class GameEngine(Engine):
    """An engine whose game starts from its lobby options and shows itself through a ``views``
    module (``build(state, seat)``, ``describe(view)``, ``private_summary(view)``)."""

    #: The game's views module.
    views: ModuleType

    @abstractmethod
    def start(self, options: dict[str, str], seats: int, seed: int) -> State:
        """The new game for normalised ``options`` and an allowed number of seats, before
        :meth:`refresh` names its first requests."""

    def refresh(self, state: State, actor: int | None) -> None:
        """Bring the state's pending requests up to date after ``actor`` acted (None: a new
        game), minting ids with :func:`mint_request_id`. Games whose requests are worked out
        elsewhere (三国杀's flow stack) have nothing to do here."""

    def new_state(self, options: dict[str, str], seats: int, seed: int) -> State:
        opts = self.normalize_options(options)
        lo, hi = self.seat_range(opts)
        if not lo <= seats <= hi:
            raise EngineError(f"{self.slug}.err.seats", min=lo, max=hi)
        state = self.start(opts, seats, seed)
        self.refresh(state, None)
        return state

    def view(self, state: State, seat: int | None) -> View:
        return self.views.build(state, seat)

    def describe(self, view: View) -> list[Msg]:
        return self.views.describe(view)

    def private_summary(self, view: View) -> list[Msg]:
        return self.views.private_summary(view)

    def ai_levels(self) -> list[str]:
        return ["normal", "easy"]


class TreeEngine(GameEngine):
    """A :class:`GameEngine` whose actions are paths of a token tree (``choices.tree`` and
    ``choices.validate``) carried out on a copy of the state by ``actions.execute``, and whose
    state ends with ``phase == "over"``, ``winners`` and ``end_reason``."""

    #: The game's token tree and its executor.
    choices: ModuleType
    actions: ModuleType

    @abstractmethod
    def score(self, state: State, seat: int) -> int:
        """``seat``'s score for the result."""

    def copy_state(self, state: State) -> State:
        """The copy ``apply`` changes (the input state is never mutated): a deep copy of the
        JSON state (``engines.jsoncopy.clone``)."""
        return clone(state)

    def step_picture(self, node: Any, path: Action) -> dict[str, Any] | None:
        """``Step.picture`` for the step after ``path`` (none unless a game draws one)."""
        return None

    def step(self, state: State, seat: int, path: Action, request: Request | None = None) -> Step:
        node: Node = self.choices.tree(state, seat, list(path))
        return Step(node.prompt, list(node.options), node.complete, picture=self.step_picture(node, list(path)))

    def apply(self, state: State, seat: int, action: Action,
              request: Request | None = None) -> tuple[State, list[Event]]:
        self.choices.validate(state, seat, list(action))
        new = self.copy_state(state)
        events: list[Event] = self.actions.execute(new, seat, list(action))
        self.refresh(new, seat)
        return new, events

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = {s: self.score(state, s) for s in range(state["seats"])}
        return Result(list(state["winners"]), scores, Msg(f"{self.slug}.end.{state['end_reason']}"))


def random_walk(step: Callable[[Action], Node], rng: random.Random) -> Action:
    """Walk an action tree (``step(path)`` gives the node after ``path``) picking uniformly among
    offered options, stopping at a complete action half the time it could go on: the 'random'
    player of property tests and the baseline an AI must beat."""
    path: list[str] = []
    while True:
        node = step(path)
        if node.complete and (not node.options or rng.random() < 0.5):
            return path
        path.append(rng.choice(node.options).value)


def random_action(engine: Engine, state: State, seat: int, rng: random.Random) -> Action:
    """:func:`random_walk` through ``engine.step`` for ``seat``."""
    return random_walk(lambda path: engine.step(state, seat, path), rng)
