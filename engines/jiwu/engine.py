"""The 极武三国 engine: the game-specific parts of :class:`engines.adapter.TreeEngine`."""

from __future__ import annotations

import random
from typing import Any

from engines.adapter import TreeEngine, mint_request_id
from engines.base import Action, Msg, OptionSpec, Request, State
from engines.jiwu import actions, ai, choices, rules, summary, views
from engines.jiwu.rules import m


class JiwuEngine(TreeEngine):
    slug = "jiwu"
    min_seats = 2
    max_seats = 4
    hidden_information = True
    #: Each player's hand and 计策 cards live in one standing DM panel (cogs/utils/panel.py) with
    #: the buttons to play and recruit; the duel's secret choice is prompted there too.
    private_panel = True
    choices = choices
    actions = actions
    views = views

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

    def start(self, options: dict[str, str], seats: int, seed: int) -> State:
        return rules.new_game(seats, seed, options["ending"])

    def refresh(self, state: State, actor: int | None) -> None:
        _refresh(state)

    def pending(self, state: State) -> list[Request]:
        out = []
        for rid, seat, kind in state["req"] or []:
            if kind == "duel":
                out.append(Request(rid, seat, kind, m("req.duel"), window=rid.rsplit(".", 1)[0], mode="all"))
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
        if level == "easy":  # the random walker: a baseline
            return ai.random_action(state, seat, rng)
        return ai.decide(state, seat, rng)

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
            prefix = f"d{state['stats']['duels']}.{d['round']}."
            rid = old.get((seat, "duel"))
            if rid is None or not rid.startswith(prefix):
                rid = mint_request_id(state, prefix)
        else:
            rid = mint_request_id(state)
        out.append([rid, seat, kind])
    state["req"] = out or None
