"""The 极武三国 engine: the game-specific parts of :class:`engines.adapter.TreeEngine`."""

from __future__ import annotations

import random
from typing import Any

from engines.adapter import TreeEngine, mint_request_id
from engines.base import Action, Msg, OptionSpec, Request, State
from engines.jiwu import actions, ai, choices, levels, rules, standing, summary, views
from engines.jiwu.rules import m
from engines.jsoncopy import clone


class JiwuEngine(TreeEngine):
    slug = "jiwu"
    min_seats = 2
    max_seats = 4
    hidden_information = True
    #: Each player's hand and 计策 cards live in one standing DM panel (cogs/utils/panel.py) with
    #: the buttons to play and recruit; the duel's secret choice is prompted there too.
    private_panel = True
    reaction_windows = True
    #: 2 (issue 23): new games play by rules 2 (the last seat places first, the central deck is
    #: dealt by player count; ``rules.RULES``), stamped in the state (``state["ed"]``) so a game
    #: stored earlier finishes, and its export replays, by rules 1 (see :meth:`upgrade_step`).
    edition = 2
    choices = choices
    actions = actions
    views = views

    def __init__(self, rules_edition: int | None = None) -> None:
        #: The rules new games are stamped with (older ones only to replay old exports).
        self.rules_edition = rules_edition or rules.RULES

    def upgrade_step(self, state: State, edition: int) -> State:
        """1 → 2: a running game keeps the rules it was set up by (its deck holds all 80 cards,
        its first soldiers stand where turn order put them): it is stamped rules 1."""
        if edition != 1:
            return super().upgrade_step(state, edition)
        new: State = clone(state)
        new["ed"] = 1
        return new

    def replay_engine(self, edition: int) -> JiwuEngine:
        """Exports started at edition 1 were dealt and placed by rules 1."""
        if edition < 2:
            return _RULES_1
        return super().replay_engine(edition)  # type: ignore[return-value]

    def panel_fingerprint(self, view: dict[str, Any], seat: int) -> Any:
        """The hand picture draws the hand and 计策 cards with this turn's might and silver and
        the deck and discard sizes."""
        you = view.get("you") or {}
        me = next((p for p in view.get("players", []) if p.get("seat") == seat), {})
        return [you.get("hand"), you.get("plans"), [me.get(k) for k in ("power", "gold", "deck", "discard")]]

    def option_specs(self) -> list[OptionSpec]:
        """``ending``: the seed does not say at which moment the game ends once the last soldier
        is deployed or the central deck is empty; the default ``round`` plays the round out so
        every player has had as many turns (the published yardstick game's rule: the start
        player's 68 % at 2 players falls to 52 %, docs/rules/jiwu.md); ``turn`` ends it with the
        turn that met the condition."""
        return [OptionSpec("ending", m("option.ending"),
                           [(v, m(f"ending.{v}")) for v in rules.ENDINGS], "round")]

    def standing_specs(self, view: dict[str, Any]) -> list[OptionSpec]:
        return standing.specs(view)

    def standing_ask_always(self, view: dict[str, Any]) -> dict[str, str]:
        return standing.ask_always(view)

    def standing_answer(self, view: dict[str, Any], request: Request, settings: dict[str, str]) -> Action | None:
        return standing.answer(view, request, settings)

    def start(self, options: dict[str, str], seats: int, seed: int) -> State:
        return rules.new_game(seats, seed, options["ending"], self.rules_edition)

    def refresh(self, state: State, actor: int | None) -> None:
        _refresh(state)

    def pending(self, state: State) -> list[Request]:
        out = []
        for rid, seat, kind in state["req"] or []:
            if kind == "duel":
                out.append(Request(rid, seat, kind, m("req.duel"), window=rid.rsplit(".", 1)[0], mode="all",
                                       short=True))  # a reaction: the match's reaction time
            else:
                out.append(Request(rid, seat, kind, m(f"req.{kind}")))
        return out

    def step_picture(self, node: Any, path: Action) -> dict[str, Any] | None:
        # Choosing what to recruit: the market row with its effects (the buttons only name them).
        return {"kind": "market"} if path == ["buy"] else None

    def score(self, state: State, seat: int) -> int:
        return rules.score(state, seat)

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> Action:
        if level == "easy":
            return levels.easy(state, seat, rng)
        if level == "hard":
            return levels.hard(state, seat, rng)
        return ai.decide(state, seat, rng)

    def ai_levels(self) -> list[str]:
        return ["easy", "normal", "hard"]

    def compact(self, msgs: list[Msg]) -> list[Msg]:
        """A turn's public lines told shorter for the thread (see ``summary.compact``)."""
        return summary.compact(msgs)


#: The engine that replays exports started before edition 2 (rules 1).
_RULES_1 = JiwuEngine(rules_edition=1)


def _refresh(state: State) -> None:
    """Request ids: a fresh one after every change, except a duel choice, whose id stays while
    the other duellist decides (answering one secret choice must not stale the other's button)."""
    old = {(seat, kind): rid for rid, seat, kind in state["req"] or []}
    out = []
    for seat in choices.asked(state):
        kind = state["phase"] if state["phase"] != "main" else "turn"
        if kind == "duel":
            d = state["duel"]
            prefix = f"d{state['stats']['duels']}.{d['round']}."
            rid = old.get((seat, "duel"))
            if rid is None or not rid.startswith(prefix):
                rid = mint_request_id(state, prefix)
        else:
            rid = mint_request_id(state)
        out.append([rid, seat, kind])
    state["req"] = out or None
