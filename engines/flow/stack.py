"""The resolution stack: frames in the JSON state, a driver loop, and asks (decisions of seats).

A *frame* is a dict with a kind ``"k"`` plus whatever its handler keeps (a stage counter, the
card being used, the target). The game registers one handler per kind. The driver repeatedly
runs the handler of the top frame; a handler makes progress by pushing child frames, popping
itself (optionally returning a value, which the frame below finds under ``"ret"``), or *asking*:
it puts an :class:`Ask` on its frame and the driver stops until the asked seats answer. Because
everything is in ``state["flow"]``, a game can stop at any ask, be stored and resume later, and
the same action log replays to the same state.

Asks come in three modes, matching :class:`engines.base.Request`:

- ``one``: one seat answers;
- ``any``: several seats may answer; the first real answer (not the default) closes the ask;
  a seat answering the default just leaves the ask, which stays open for the others with their
  request ids unchanged; when every seat has answered the default the ask closes unanswered;
- ``all``: every seat answers (secret simultaneous choices); the ask closes with all answers.

A closed ask leaves ``frame["reply"]`` (``{"seat", "action"}``; seat None when nobody
answered) or, for ``all``, ``frame["replies"]`` (seat → action, in the ask's order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.flow.triggers import Triggers

Frame = dict[str, Any]
FrameFn = Callable[["Ctx", Frame], None]

TRIGGER = "trigger"
MAX_STEPS = 200_000


@dataclass(frozen=True)
class Ask:
    """A decision wanted from seats, as stored on a frame (see module doc)."""

    seat: int
    rid: str
    kind: str
    mode: str
    window: str
    default: tuple[str, ...] | None
    short: bool
    info: dict[str, Any]


class Ctx:
    """What a frame or trigger handler may do. ``events`` collects the game's events; ``game``
    is free for the game (its data tables, a log)."""

    def __init__(self, flow: Flow, state: dict[str, Any], events: list[Any] | None = None,
                 game: Any = None) -> None:
        self.flow = flow
        self.state = state
        self.events: list[Any] = events if events is not None else []
        self.game = game

    @property
    def stack(self) -> list[Frame]:
        return self.state["flow"]["stack"]

    def push(self, kind: str, **data: Any) -> Frame:
        frame: Frame = {"k": kind, **data}
        self.stack.append(frame)
        return frame

    def pop(self, frame: Frame, ret: Any = None) -> None:
        """Remove ``frame`` (must be the top) and hand ``ret`` to the frame below."""
        stack = self.stack
        if not stack or stack[-1] is not frame:
            raise RuntimeError(f"pop of a frame that is not on top: {frame.get('k')}")
        stack.pop()
        if stack:
            stack[-1]["ret"] = ret

    @staticmethod
    def take(frame: Frame, key: str = "ret") -> Any:
        """Read and clear a value a child frame or an ask left on ``frame``."""
        return frame.pop(key, None)

    def below(self, frame: Frame) -> Frame | None:
        """The frame directly under ``frame`` (its parent)."""
        stack = self.stack
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is frame:
                return stack[i - 1] if i > 0 else None
        return None

    def find(self, kind: str) -> Frame | None:
        """The topmost frame of ``kind``."""
        for frame in reversed(self.stack):
            if frame["k"] == kind:
                return frame
        return None

    def fire(self, timing: str, event: dict[str, Any]) -> Frame:
        """Run every trigger of ``timing`` (as a frame: handlers may ask questions). The caller
        receives the (possibly modified or cancelled) event as its ``"ret"`` once all ran."""
        return self.push(TRIGGER, t=timing, ev=event, done=[])

    def ask(self, frame: Frame, seats: list[int], kind: str, *, mode: str = "one",
            default: tuple[str, ...] | None = None, short: bool = False, window: bool = False,
            info: dict[str, Any] | None = None) -> None:
        """Stop the driver until ``seats`` answer (see module doc). ``window`` gives the ask a
        window id (response windows; always for ``any``/``all``)."""
        if not seats:
            raise ValueError("an ask needs at least one seat")
        meta = self.state["flow"]
        wid = ""
        if window or mode != "one":
            meta["win"] += 1
            wid = f"w{meta['win']}"
        open_: dict[str, str] = {}
        for seat in seats:
            meta["seq"] += 1
            open_[str(seat)] = f"q{meta['seq']}"
        frame["ask"] = {"kind": kind, "mode": mode, "window": wid,
                        "default": list(default) if default is not None else None,
                        "short": short, "order": list(seats), "open": open_, "answers": {},
                        "info": info or {}}


class Flow:
    """Frame kinds → handlers, plus the trigger registry; drives a state's stack."""

    def __init__(self, triggers: Triggers | None = None) -> None:
        self.kinds: dict[str, FrameFn] = {TRIGGER: self._run_trigger}
        self.triggers = triggers or Triggers()
        #: Run before each frame handler; returns True when it pushed frames. A game uses it for
        #: triggers that a plain state change causes wherever it happens (a hand becoming empty,
        #: an equipped card leaving), queued in the state and fired at the next frame boundary.
        self.idle: Callable[[Ctx], bool] | None = None
        #: Names an integer stage (``frame["st"]``) of a frame stored before the game named its
        #: stages; run on the top frame before its handler, so a state written by older code
        #: (or built by hand the old way) plays on. None: stages are taken as they are.
        self.legacy_stage: Callable[[Frame], str] | None = None

    def kind(self, name: str) -> Callable[[FrameFn], FrameFn]:
        """Decorator registering the handler of a frame kind."""

        def wrap(fn: FrameFn) -> FrameFn:
            if name in self.kinds:
                raise ValueError(f"frame kind {name} registered twice")
            self.kinds[name] = fn
            return fn

        return wrap

    @staticmethod
    def init(state: dict[str, Any]) -> None:
        """Give a fresh game state its (empty) flow."""
        state["flow"] = {"stack": [], "seq": 0, "win": 0}

    # -- driving -------------------------------------------------------------------------------

    def run(self, ctx: Ctx) -> None:
        """Run handlers until the top frame asks or the stack is empty."""
        stack = ctx.stack
        for _ in range(MAX_STEPS):
            if not stack or "ask" in stack[-1]:
                return
            if self.idle is not None and self.idle(ctx):
                continue
            top = stack[-1]
            if self.legacy_stage is not None and type(top.get("st")) is int:
                top["st"] = self.legacy_stage(top)
            self.kinds[top["k"]](ctx, top)
        raise RuntimeError("flow made no progress (a frame handler loops)")

    def _run_trigger(self, ctx: Ctx, frame: Frame) -> None:
        """Run the timing point's handlers in order. The frame keeps the *names* of the handlers
        already taken (not a position in the list), so a stored game paused inside a trigger
        resumes right after an upgrade that added or removed a handler at that timing point."""
        ev = frame["ev"]
        done: list[str] = frame["done"]
        for handler in self.triggers.handlers(frame["t"]):
            if ev.get("cancel"):
                break
            if handler.name in done:
                continue
            done.append(handler.name)
            if handler.can is None or handler.can(ctx, ev):
                depth = len(ctx.stack)
                handler.run(ctx, ev)
                if len(ctx.stack) != depth:
                    return  # the handler pushed frames: they resolve first
        ctx.pop(frame, ev)

    # -- asks ----------------------------------------------------------------------------------

    @staticmethod
    def top_ask(state: dict[str, Any]) -> tuple[Frame, dict[str, Any]] | None:
        stack = state["flow"]["stack"]
        if stack and "ask" in stack[-1]:
            return stack[-1], stack[-1]["ask"]
        return None

    @classmethod
    def asks(cls, state: dict[str, Any]) -> list[Ask]:
        """The open asks, one per seat still to answer, in the ask's seat order."""
        top = cls.top_ask(state)
        if top is None:
            return []
        _, ask = top
        default = tuple(ask["default"]) if ask["default"] is not None else None
        return [Ask(seat, ask["open"][str(seat)], ask["kind"], ask["mode"], ask["window"], default,
                    ask["short"], ask["info"])
                for seat in ask["order"] if str(seat) in ask["open"]]

    @classmethod
    def ask_of(cls, state: dict[str, Any], seat: int) -> Ask | None:
        for a in cls.asks(state):
            if a.seat == seat:
                return a
        return None

    @classmethod
    def answer(cls, state: dict[str, Any], seat: int, action: list[str]) -> bool:
        """Record ``seat``'s (already validated) answer. True when the ask closed."""
        top = cls.top_ask(state)
        if top is None or str(seat) not in top[1]["open"]:
            raise RuntimeError(f"seat {seat} has nothing to answer")
        frame, ask = top
        del ask["open"][str(seat)]
        if ask["mode"] == "all":
            ask["answers"][str(seat)] = list(action)
            if ask["open"]:
                return False
            frame["replies"] = {str(s): ask["answers"][str(s)] for s in ask["order"]}
        elif ask["mode"] == "any" and ask["default"] is not None and list(action) == ask["default"]:
            if ask["open"]:
                return False
            frame["reply"] = {"seat": None, "action": None}
        else:
            frame["reply"] = {"seat": seat, "action": list(action)}
        del frame["ask"]
        return True
