"""The trigger registry: who acts at which timing point, in which order.

A *trigger* is code (a skill, a piece of equipment, a rule) that acts when the game reaches a
named timing point (``"turn_start"``, ``"damage_inflicted"``, ...). Handlers are sorted by
priority (higher first), then by name, so the order is deterministic and independent of import
order. A handler receives the :class:`~engines.flow.stack.Ctx` and the event dict; it may change
the event's data, set ``event["cancel"] = True`` (the firing frame stops and the caller sees the
cancellation) or push frames (for example a question to a seat), which resolve before the next
handler runs. Only the handler *names* and the event live in the state, never the functions, so
a stored game resumes after a restart.

*Modifiers* are the synchronous half: pure functions folding a value (a distance, an attack range,
a per-turn limit) that need no decision and must be answerable at any time (legal-move checks).
Equipment and skills register both kinds on the same registry, so a rule lives in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engines.flow.stack import Ctx

Event = dict[str, Any]
HandlerFn = Callable[["Ctx", Event], None]
CanFn = Callable[["Ctx", Event], bool]
ModifierFn = Callable[[dict[str, Any], Any, dict[str, Any]], Any]


@dataclass(frozen=True)
class Handler:
    """One trigger: ``can`` decides whether it acts for this event (cheap, no side effects);
    ``run`` acts."""

    timing: str
    name: str
    priority: int
    run: HandlerFn
    can: CanFn | None = None


@dataclass(frozen=True)
class Modifier:
    """A synchronous value fold: ``fn(state, value, args) -> value``."""

    name: str
    priority: int
    fn: ModifierFn


class Triggers:
    """Handlers by timing point and modifiers by quantity name."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = {}
        self._by_name: dict[str, Handler] = {}
        self._modifiers: dict[str, list[Modifier]] = {}

    def on(self, timing: str, name: str, priority: int = 0,
           can: CanFn | None = None) -> Callable[[HandlerFn], HandlerFn]:
        """Decorator registering ``fn`` at ``timing`` under a unique ``name``."""

        def wrap(fn: HandlerFn) -> HandlerFn:
            self.add(Handler(timing, name, priority, fn, can))
            return fn

        return wrap

    def add(self, handler: Handler) -> None:
        key = f"{handler.timing}/{handler.name}"
        if key in self._by_name:
            raise ValueError(f"trigger {key} registered twice")
        self._by_name[key] = handler
        lst = self._handlers.setdefault(handler.timing, [])
        lst.append(handler)
        lst.sort(key=lambda h: (-h.priority, h.name))

    def handlers(self, timing: str) -> list[Handler]:
        return self._handlers.get(timing, [])

    def modifier(self, quantity: str, name: str, priority: int = 0) -> Callable[[ModifierFn], ModifierFn]:
        """Decorator registering a modifier of ``quantity``."""

        def wrap(fn: ModifierFn) -> ModifierFn:
            self.add_modifier(quantity, Modifier(name, priority, fn))
            return fn

        return wrap

    def add_modifier(self, quantity: str, mod: Modifier) -> None:
        lst = self._modifiers.setdefault(quantity, [])
        if any(m.name == mod.name for m in lst):
            raise ValueError(f"modifier {quantity}/{mod.name} registered twice")
        lst.append(mod)
        lst.sort(key=lambda m: (-m.priority, m.name))

    def fold(self, state: dict[str, Any], quantity: str, value: Any, **args: Any) -> Any:
        """``value`` passed through every modifier of ``quantity`` in priority order."""
        for mod in self._modifiers.get(quantity, ()):
            value = mod.fn(state, value, args)
        return value
