"""A generic resolution stack with timing-point triggers and response windows, for card games.

Card games where things happen *during* other things (a dodge in answer to an attack, a cancel
on a cancel, a skill that fires when damage is taken) need more than "whose turn is it". This
package keeps the whole in-progress resolution as a stack of frames inside the JSON game state,
so a game can stop at any point where a seat must decide, be stored, be replayed, and resume.

- :mod:`engines.flow.stack` — :class:`Flow` (frame kinds → handlers, the driver loop),
  :class:`Ctx` (what a handler may do: push, pop with a return value, ask seats, fire a timing
  point), asks (requests built from the top frame: one seat, any of several, all of several).
- :mod:`engines.flow.pack` — :class:`Pack`: a game part's registrations, installed into a flow
  explicitly, so several flows (a game's modes) can share parts in one process.
- :mod:`engines.flow.triggers` — :class:`Triggers`: handlers registered on named timing points
  with a priority; each may modify the event or cancel it, and may push frames that need
  decisions. Synchronous *modifiers* (distance, range, limits) go through the same registry.

Nothing here knows any game; the game supplies frame handlers and trigger handlers.
"""

from engines.flow.pack import Pack, build_flow
from engines.flow.stack import Ask, Ctx, Flow, FrameFn
from engines.flow.triggers import Handler, Modifier, Triggers

__all__ = ["Ask", "Ctx", "Flow", "FrameFn", "Handler", "Modifier", "Pack", "Triggers", "build_flow"]
