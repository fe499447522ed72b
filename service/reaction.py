"""Reaction time: how long a response window (闪, 桃, 无懈, a skill's yes/no, a duel's secret
move) waits for a person, set apart from the turn time.

Why apart: a week-long game has a one-day turn clock, and a window that waits on it lets one
南蛮入侵 hold an 8-seat table for days; a live 12 s window loses every answer of somebody who
looks at Discord three times a day. So a match has both, and a window never waits on the turn.

The choice is a lobby option of the service (not of the engine: it changes no rule) kept in the
match's ``options`` under :data:`OPTION`; ``"auto"`` (and a match stored before the option
existed) takes :func:`default_seconds` of the turn time. The engine never sees it
(:func:`engine_options`).
"""

from __future__ import annotations

from engines.base import Engine, Msg, OptionSpec
from service.settings import ServiceSettings

__all__ = ["AUTO", "OPTION", "PRESETS", "default_seconds", "engine_options", "is_reaction", "lobby_specs",
           "reaction_seconds", "spec", "with_reaction"]

#: The options key (a service option beside the engine's).
OPTION = "reaction"
#: The value that follows the turn time.
AUTO = "auto"
#: Offered reaction times (seconds): live (12 s … 10 min) to asynchronous (1–8 h).
PRESETS = (12, 30, 120, 600, 3600, 7200, 28800)
#: A window of an asynchronous match waits at least a twelfth of a turn: a one-day turn gets 2 h,
#: so somebody who looks in three times a day misses few windows, yet a 南蛮入侵 at 8 seats that
#: nobody answers costs hours, not days.
ASYNC_SHARE = 12


def default_seconds(turn_seconds: int, settings: ServiceSettings) -> float:
    """``"auto"``: the live window (``window_seconds``) while the turn clock is live
    (≤ ``async_turn_seconds``), else the longest preset within :data:`ASYNC_SHARE` of a turn."""
    if turn_seconds <= settings.async_turn_seconds:
        return settings.window_seconds
    fits = [p for p in PRESETS if p * ASYNC_SHARE <= turn_seconds]
    return float(fits[-1] if fits else PRESETS[0])


def reaction_seconds(options: dict[str, str], turn_seconds: int, settings: ServiceSettings) -> float:
    """The match's reaction time; a missing or unreadable value is ``"auto"`` (old matches load)."""
    value = options.get(OPTION, AUTO)
    if value != AUTO and value.isascii() and value.isdigit() and int(value) in PRESETS:
        return float(value)
    return default_seconds(turn_seconds, settings)


def is_reaction(engine: Engine) -> bool:
    """Whether the game has response windows (only those offer the option)."""
    return bool(getattr(engine, "reaction_windows", False))  # duck-typed engines (tests) lack it


def spec() -> OptionSpec:
    """The lobby select: "auto" first, then the presets."""
    choices = [(AUTO, Msg("core.reaction.auto"))] + [(str(p), Msg(f"core.reaction.s{p}")) for p in PRESETS]
    return OptionSpec(OPTION, Msg("core.reaction.label"), choices, AUTO)


def lobby_specs(engine: Engine) -> list[OptionSpec]:
    """The lobby's options of a game: the engine's, and the reaction time where it has windows."""
    return engine.option_specs() + ([spec()] if is_reaction(engine) else [])


def with_reaction(engine: Engine, normalized: dict[str, str], given: dict[str, str]) -> dict[str, str]:
    """``normalized`` (the engine's options) plus the reaction choice of ``given``, checked.
    Raises ValueError for a value that is not offered."""
    if not is_reaction(engine) or OPTION not in given:
        return normalized
    value = given[OPTION]
    if value not in {v for v, _ in spec().choices}:
        raise ValueError(value)
    return {**normalized, OPTION: value}


def engine_options(options: dict[str, str]) -> dict[str, str]:
    """The options an engine is given (the service's own taken out)."""
    return {k: v for k, v in options.items() if k != OPTION}
