"""Packs: what a game part registers (frame kinds, triggers, modifiers, an idle hook), kept apart
from any one :class:`~engines.flow.stack.Flow` and installed into flows explicitly.

Why: a game with several modes (三国杀's identity mode and 国战) shares most of its parts — the
core frames, the cards, the equipment, a hero pack — but each mode owns a few frames of its own
(set-up, death) that another mode must replace. Registering straight into one module-level flow
at import time allowed exactly one combination per process. A pack records its registrations
at import; a mode builds its own flow from the packs it names (``Pack.install``), so two modes
live side by side and a pack a mode does not name is simply not there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engines.flow.stack import Ctx, Flow, FrameFn
from engines.flow.triggers import CanFn, Handler, HandlerFn, Modifier, ModifierFn


@dataclass
class Pack:
    """A named set of registrations; the decorators mirror ``Flow.kind`` and ``Triggers.on`` /
    ``Triggers.modifier``."""

    name: str
    kinds: dict[str, FrameFn] = field(default_factory=dict)
    handlers: list[Handler] = field(default_factory=list)
    modifiers: list[tuple[str, Modifier]] = field(default_factory=list)
    #: The flow's idle hook (at most one pack of a flow may bring one).
    idle: Callable[[Ctx], bool] | None = None
    #: The flow's namer of integer stages stored by older code (``Flow.legacy_stage``).
    legacy_stage: Callable[[dict[str, Any]], str] | None = None
    #: Names of what the pack implements beyond its handlers and modifiers (a game's skills
    #: that are conversions or actions rather than triggers), see :meth:`names`.
    provides: set[str] = field(default_factory=set)

    def names(self) -> set[str]:
        """Everything the pack registered by name: what it provides, its handlers, its
        modifiers — how a game derives what is implemented from what is registered."""
        return self.provides | {h.name for h in self.handlers} | {m.name for _, m in self.modifiers}

    def kind(self, name: str) -> Callable[[FrameFn], FrameFn]:
        def wrap(fn: FrameFn) -> FrameFn:
            if name in self.kinds:
                raise ValueError(f"{self.name}: frame kind {name} registered twice")
            self.kinds[name] = fn
            return fn

        return wrap

    def on(self, timing: str, name: str, priority: int = 0,
           can: CanFn | None = None) -> Callable[[HandlerFn], HandlerFn]:
        def wrap(fn: HandlerFn) -> HandlerFn:
            self.handlers.append(Handler(timing, name, priority, fn, can))
            return fn

        return wrap

    def modifier(self, quantity: str, name: str, priority: int = 0) -> Callable[[ModifierFn], ModifierFn]:
        def wrap(fn: ModifierFn) -> ModifierFn:
            self.modifiers.append((quantity, Modifier(name, priority, fn)))
            return fn

        return wrap

    def install(self, flow: Flow) -> None:
        """Add everything to ``flow``; a kind, trigger or modifier name already there (from
        another pack) is an error, so two packs never silently shadow each other."""
        for name, fn in self.kinds.items():
            flow.kind(name)(fn)
        for handler in self.handlers:
            flow.triggers.add(handler)
        for quantity, mod in self.modifiers:
            flow.triggers.add_modifier(quantity, mod)
        if self.idle is not None:
            if flow.idle is not None:
                raise ValueError(f"{self.name}: the flow already has an idle hook")
            flow.idle = self.idle
        if self.legacy_stage is not None:
            if flow.legacy_stage is not None:
                raise ValueError(f"{self.name}: the flow already names legacy stages")
            flow.legacy_stage = self.legacy_stage


def build_flow(*packs: Pack) -> Flow:
    """A new flow with ``packs`` installed, in order."""
    flow = Flow()
    for pack in packs:
        pack.install(flow)
    return flow
