"""Game modes of 三国杀: what differs between identity mode (身份局) and the modes after it.

A :class:`Mode` owns what the core frames must not know: how the game is set up (its own
``setup`` frame, in its pack), who starts and where a round begins, what a dying seat's
allegiance is called, the death rewards and penalties, who has won and as which side, what the
views show of each seat's allegiance, and which AI plays it. Each mode plays on its own flow,
built from the packs it names (``Mode.packs``), registered in ``rules.FLOWS``/``rules.MODES``
under its name; a state names its mode (``state["mode"]``, identity mode when absent).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engines.flow import Ctx, Flow, Pack
from engines.rng import Rng
from engines.sanguosha import rules as R

State = dict[str, Any]


def table(options: dict[str, str], n: int, seed: int, **extra: Any) -> State:
    """The parts of a new state every mode has (the deck, seats and roles are the mode's)."""
    state: State = {
        "game": "sanguosha", "n": n, "heroes": options["heroes"], "rng": Rng.seed_value(seed),
        "deck": [], "discard": [], "proc": [], "players": [], "lord": 0, "turn": None,
        "phase": "", "round": 0, "turns": 0, "sha_used": 0, "skip": [], "reshuffles": 0,
        "winners": None, "dead_order": [], "log": [], "acts": [[0] * n for _ in range(n)],
        "tflags": {}, "queued": [], **extra,
    }
    Flow.init(state)
    return state


class Mode:
    """The mode interface (identity mode, ``identity.IdentityMode``, is the first)."""

    name: str = ""
    #: The packs its flow is built from, in install order.
    packs: tuple[Pack, ...] = ()
    #: The deck it plays with (``data.DECKS``).
    deck: str = "standard"

    def new_game(self, options: dict[str, str], n: int, seed: int) -> State:
        """A new state, set up as this mode deals seats (its flow run to the first question)."""
        raise NotImplementedError

    def first_seat(self, state: State) -> int:
        """Whose turn comes first once the game is set up."""
        raise NotImplementedError

    def starts_round(self, state: State, seat: int) -> bool:
        """Whether ``seat``'s turn begins a new round (rounds are counted for the log and AI)."""
        raise NotImplementedError

    def allegiance_ref(self, state: State, seat: int) -> dict[str, Any]:
        """The catalog reference naming ``seat``'s allegiance when it is shown (at death)."""
        raise NotImplementedError

    def shown(self, ctx: Ctx, seat: int, index: int) -> None:
        """A hero was just shown (``rules.reveal``): what the mode settles at once (hegemony: the
        kingdom, 野心家, markers). Whatever must wait for a frame boundary listens to the
        ``hero_shown`` timing point instead."""

    def may_hide(self, state: State, seat: int, index: int) -> bool:
        """May the seat's shown hero ``index`` be turned face down (国战: never a lord)?"""
        return True

    def before_death(self, ctx: Ctx, seat: int) -> None:
        """What happens to a dying seat before its death is told (hegemony: hidden heroes shown)."""

    def winners(self, state: State) -> list[int] | None:
        """The winning seats once the game is decided, else None."""
        raise NotImplementedError

    def camps(self, state: State) -> list[list[int]] | None:
        """The seats that win or lose together (``Engine.teams``); None: every seat alone."""
        return None

    def side(self, state: State, won: list[int]) -> str:
        """The name of the winning side (catalog ``sanguosha.side.<name>``, ``result.<name>``)."""
        raise NotImplementedError

    def reward(self, ctx: Ctx, seat: int, src: int) -> None:
        """What the living killer ``src`` of ``seat`` gets or loses (cards already discarded)."""
        raise NotImplementedError

    def kingdom(self, state: State, seat: int) -> str | None:
        """The seat's kingdom as the rules count it (``rules.kingdom``): the shown hero's."""
        return state["players"][seat].get("kingdom")  # type: ignore[no-any-return]

    def public_allegiance(self, state: State, seat: int) -> str | None:
        """What every view shows of ``seat``'s allegiance (None: hidden)."""
        raise NotImplementedError

    def own_allegiance(self, state: State, seat: int) -> str | None:
        """What ``seat`` itself sees of its allegiance."""
        raise NotImplementedError

    def decide(self, state: State, seat: int, rng: random.Random, level: str) -> list[str]:
        """The AI's answer for ``seat`` (reads only what the mode lets the seat see)."""
        raise NotImplementedError

    def timeout(self, state: State, seat: int) -> list[str]:
        """What an absent seat does when its time is up (identity: ``ai.timeout``)."""
        from engines.sanguosha import ai

        return ai.timeout(state, seat)


def install(mode: Mode, flow: Flow | None = None) -> Flow:
    """Build ``mode``'s flow from its packs (into ``flow`` when given, e.g. ``rules.FLOW``) and
    register both under the mode's name. A name registered twice is an error."""
    if mode.name in R.MODES:
        raise ValueError(f"mode {mode.name} installed twice")
    flow = flow if flow is not None else Flow()
    for pack in mode.packs:
        pack.install(flow)
    R.FLOWS[mode.name] = flow
    R.MODES[mode.name] = mode
    return flow


def uninstall(name: str) -> None:
    """Take a mode out again (tests that install a mode of their own)."""
    R.FLOWS.pop(name, None)
    R.MODES.pop(name, None)


Decide = Callable[[State, int, random.Random, str], list[str]]
