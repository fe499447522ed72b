"""三国杀 identity mode (身份局): the :class:`engines.base.Engine` face of this package."""

from __future__ import annotations

import random
from typing import Any

from engines.adapter import GameEngine, random_action
from engines.base import EngineError, Event, Msg, OptionSpec, Request, Result, State, Step
from engines.flow import Ctx, Flow
from engines.jsoncopy import clone, clone_sharing
from engines.sanguosha import (  # noqa: F401 - identity and hegemony install their modes' flows
    ai,
    choices,
    frames,
    hegemony,
    identity,
    skills,
    stages,
    standing,
    views,
    walks,
)
from engines.sanguosha import digest as sgs_digest
from engines.sanguosha import rules as R
from engines.sanguosha import summary as sgs_summary
from engines.sanguosha.rules import m

HEROES = ("standard", "beginner")
#: The modes offered in the lobby (identity first: the default).
MODES = ("identity", "hegemony")
#: The lobby's default (docs/rules/sanguosha.md, "Heroes"): the standard heroes, the game players
#: expect; beginner (no skills) stays one click away for a first game.
DEFAULT_HEROES = "standard"
#: State keys whose list items ``apply`` shares with its input (see ``jsoncopy.clone_sharing``).
_SHARED = frozenset({"log"})


def new_game(options: dict[str, str], n: int, seed: int) -> State:
    """A new game of the mode ``options["mode"]`` (identity mode by default), set up by the mode."""
    return R.MODES[options.get("mode", R.DEFAULT_MODE)].new_game(options, n, seed)  # type: ignore[no-any-return]


class SanguoshaEngine(GameEngine):
    """Lobby, views and AI levels come from :class:`engines.adapter.GameEngine`; actions are not
    a tree walked and executed (``TreeEngine``) but answers to the ask on top of the flow stack,
    which then runs until somebody must decide again and names the requests itself."""

    slug = "sanguosha"
    min_seats = 2
    max_seats = 12
    hidden_information = True
    #: 2: trigger frames keep the names of the handlers already taken (``done``), not a position
    #: (``i``) in the timing point's list, so adding a skill or item at a timing point never
    #: skips or repeats a handler in a game stored inside it (see :meth:`upgrade_step`).
    #: 3: frames keep named stages (``stages.py``), not integers, so a step added inside a frame
    #: never renumbers the steps a stored game is paused at.
    #: 4: two rulings change (issue 23; docs/rules/sanguosha.md, choices 18 and 21): a lord who
    #: kills a loyalist discards the judgement area too, and a card used from the equipment
    #: (武圣) has left it when its targets are judged. The state records the rules it plays by
    #: (``state["ed"]``, :func:`rules.rules_edition`), so an older export replays by its own.
    edition = 4
    private_panel = True
    reaction_windows = True
    views = views

    def panel_fingerprint(self, view: dict[str, Any], seat: int) -> Any:
        """The hand picture draws the hand, the role, the equipment and the judgement area (and
        the HP, which alone does not refresh it: an AoE would cost a DM edit per seat hit); in 国战
        also the seat's two heroes shown or hidden, its markers, 叠置, the heroes it has peeked at
        and, while it chooses, the heroes dealt (render/sanguosha_hg.py)."""
        you = view.get("you") or {}
        me = next((p for p in view.get("players", []) if p.get("seat") == seat), {})
        shown = [you.get("role"), you.get("hand"), me.get("equip"), me.get("judge"), me.get("alive")]
        if "heroes" in you:  # 国战 (identity mode's fingerprint stays as it was)
            shown += [you["heroes"], you.get("peeks"), you.get("offer"), me.get("marks"), me.get("stacked")]
        return shown

    def __init__(self, rules: int | None = None) -> None:
        #: The rules edition new games are stamped with (older ones only to replay old exports).
        self.rules = rules or self.edition

    def upgrade_step(self, state: State, edition: int) -> State:
        if edition not in (1, 2, 3):
            return super().upgrade_step(state, edition)
        new: State = clone(state)
        if edition == 1:  # edition 1's handler list is today's
            flow = R.flow_of(new)
            for frame in new["flow"]["stack"]:
                if frame["k"] == "trigger" and "i" in frame:
                    frame["done"] = [h.name for h in flow.triggers.handlers(frame["t"])[:frame.pop("i")]]
        elif edition == 2:
            stages.name_stages(new)
        else:  # 3: a running game plays on by the corrected rulings
            new["ed"] = 4
        return new

    def replay_engine(self, edition: int) -> SanguoshaEngine:
        """Editions 1-3 played the same rules (only the stored shape changed): their games carry
        no ``ed`` and read as rules edition 3."""
        if edition < 4:
            return _OLD_RULES
        return super().replay_engine(edition)  # type: ignore[return-value]

    def option_specs(self) -> list[OptionSpec]:
        """The hero set (identity mode), the mode (identity by default); 国战 brings its own switches (the seed's additional
        rule: each player looks at the next player's deputy; the 君主 lords, hg_lords.py); the hero set applies to identity
        mode only (国战 always deals its 60 heroes)."""
        return [OptionSpec("heroes", m("option.heroes"), [(h, m(f"option.heroes_{h}")) for h in HEROES],
                           DEFAULT_HEROES),
                OptionSpec("mode", m("option.mode"), [(k, m(f"option.mode_{k}")) for k in MODES],
                           R.DEFAULT_MODE),
                OptionSpec("peek_next", m("option.peek_next"),
                           [(v, m(f"option.peek_next_{v}")) for v in ("off", "on")], "off"),
                OptionSpec("lords", m("option.lords"),
                           [(v, m(f"option.lords_{v}")) for v in ("off", "on")], "off")]

    def normalize_options(self, options: dict[str, str]) -> dict[str, str]:
        """The lobby's options, and ``first`` — the seat 国战 starts from, set by the service (the
        seed: from the second match in a channel, the first to die in the previous one)."""
        out = super().normalize_options(options)
        first = options.get("first")
        if out["mode"] == "hegemony" and isinstance(first, str) and first.isdigit() and len(first) <= 2:
            out["first"] = first
        return out

    def carry_over(self, previous: State, seat_map: dict[int, int], options: dict[str, str]) -> dict[str, str]:
        """国战 after 国战 in a channel: the first to die in the previous match starts (when they
        play again; otherwise the seed's random start)."""
        if options.get("mode") != "hegemony" or R.mode_name(previous) != "hegemony":
            return {}
        dead = previous.get("dead_order") or []
        if not dead or dead[0] not in seat_map:
            return {}
        return {"first": str(seat_map[dead[0]])}

    def visible_options(self, options: dict[str, str]) -> list[str]:
        """The hero set matters in identity mode, the next-deputy and lords switches in 国战."""
        hide = {"heroes"} if options.get("mode") == "hegemony" else {"peek_next", "lords"}
        return [spec.name for spec in self.option_specs() if spec.name not in hide]

    def seat_range(self, options: dict[str, str]) -> tuple[int, int]:
        """Identity mode 2–10 (the role table), 国战 3–12 (the seed)."""
        return (3, 12) if options.get("mode") == "hegemony" else (2, 10)

    def start(self, options: dict[str, str], seats: int, seed: int) -> State:
        state = new_game(options, seats, seed)
        if self.rules >= 4:
            state["ed"] = self.rules
        return state

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
        walks.validate(state, seat, list(action))
        # A state is plain JSON (test_sgs_state_is_plain_json). The turn log's lines are shared
        # with the input (a new list, the same line dicts): lines are never changed once said,
        # and they were a third of what the copy copied (test_sgs_walks checks the input stays).
        new: State = clone_sharing(state, _SHARED)
        events: list[Event] = []
        flow = R.flow_of(new)
        ctx = Ctx(flow, new, events)
        ask = Flow.ask_of(new, seat)
        if ask is not None and ask.kind in skills.ASK_SKILL and tuple(action) != ask.default:
            R.reveal_for(ctx, seat, skills.ASK_SKILL[ask.kind])
        Flow.answer(new, seat, list(action))
        flow.run(ctx)
        return new, events

    def result(self, state: State) -> Result | None:
        won = state["winners"]
        if won is None:
            return None
        side = R.mode_of(state).side(state, won)
        return Result(list(won), None, m(f"result.{side}"))

    def teams(self, state: State) -> list[list[int]] | None:
        return R.mode_of(state).camps(state)  # type: ignore[no-any-return]

    def ai_action(self, state: State, seat: int, rng: random.Random, level: str = "normal",
                  request: Request | None = None) -> list[str]:
        return R.mode_of(state).decide(state, seat, rng, level)  # type: ignore[no-any-return]

    def ai_levels(self) -> list[str]:
        return ["easy", "normal", "hard"]

    def can_answer(self, state: State, request: Request) -> bool:
        ask = Flow.ask_of(state, request.seat)
        if ask is None or ask.rid != request.id:
            return True
        return R.can_respond(state, request.seat, ask.kind, ask.info)

    def standing_specs(self, view: dict[str, Any]) -> list[OptionSpec]:
        return standing.specs(view)

    def standing_ask_always(self, view: dict[str, Any]) -> dict[str, str]:
        return standing.ask_always(view)

    def standing_answer(self, view: dict[str, Any], request: Request, settings: dict[str, str]) -> list[str] | None:
        return standing.answer(view, request, settings)

    def digest(self, msgs: list[Msg], seat: int) -> list[Msg]:
        return sgs_digest.digest(msgs, seat)

    def timeout_action(self, state: State, request: Request, rng: random.Random) -> list[str]:
        return R.mode_of(state).timeout(state, request.seat)  # type: ignore[no-any-return]

    def compact(self, msgs: list[Msg]) -> list[Msg]:
        """A turn's public lines told shorter for the thread (see ``summary.compact``)."""
        return sgs_summary.compact(msgs)


#: The engine that replays exports started before edition 4 (their rules: ``rules_edition`` 3).
_OLD_RULES = SanguoshaEngine(rules=3)


def _check_request(state: State, seat: int, request: Request | None) -> None:
    """A seat is asked one thing at a time here; a request that is no longer open is stale."""
    if request is None:
        return
    ask = Flow.ask_of(state, seat)
    if ask is None or ask.rid != request.id:
        raise EngineError("sanguosha.err.stale")


__all__ = ["SanguoshaEngine", "new_game", "random_action", "Any"]
