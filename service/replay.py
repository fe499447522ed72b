"""Replays: a match is its seed plus its action log, so any stored state can be rebuilt and checked.

Used for match exports (bug reports), integrity checks, the rating rebuild and the step viewer
(:class:`Timeline`). ``["resign"]`` rows (source "system") are replayed through the engine's
``resign`` when it has one and skipped otherwise, mirroring what ``MatchService.resign`` did. An
export names the edition the match started at; a system ``["upgrade", from, to]`` row
(``MatchService.upgrade_matches``) upgrades the state at that point and goes on with that
edition's engine, as the bot did.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engines import registry
from engines.base import Engine, Event, State, View, upgrade_state

#: A keyframe (state kept in memory) every this many steps: any step is then at most this many
#: applies from one, so a step of a 750-action Risk match costs a few ms of engine work.
KEYFRAME_EVERY = 20


class ExportError(ValueError):
    """An export that cannot be replayed (what is wrong is the message)."""


def _start(export: dict[str, Any]) -> tuple[Engine, Engine, State]:
    try:
        latest = registry.get(str(export["game"]))
    except KeyError as err:
        raise ExportError(f"unknown game {export.get('game')!r}") from err
    if "seed" not in export or export["seed"] is None:
        raise ExportError("no seed (the export of a running match cannot be replayed)")
    engine = latest.replay_engine(int(export.get("edition", 1)))
    state = engine.new_state(dict(export["options"]), len(export["seats"]), int(export["seed"]))
    return latest, engine, state


def _apply(latest: Engine, engine: Engine, state: State,
           entry: dict[str, Any]) -> tuple[Engine, State, list[Event], bool]:
    """One log row: (engine, state, events, whether it is a step a player would count)."""
    action = list(entry["action"])
    if entry["source"] == "system" and action[:1] == ["upgrade"]:
        before, after = int(action[1]), int(action[2])
        return latest.replay_engine(after), upgrade_state(latest, state, before, to=after), [], False
    if entry["source"] == "system" and action == ["resign"]:
        resign = getattr(engine, "resign", None)
        if callable(resign):
            state, events = resign(state, entry["seat"])
            return engine, state, list(events), True
        return engine, state, [], True
    state, events = engine.apply(state, entry["seat"], action)
    return engine, state, list(events), True


def walk(export: dict[str, Any]) -> Iterator[tuple[Engine, State, list[Event], dict[str, Any] | None]]:
    """The start (entry None) and then every step: (engine, state after it, its events, entry)."""
    latest, engine, state = _start(export)
    yield engine, state, [], None
    for entry in export["actions"]:
        engine, state, events, counted = _apply(latest, engine, state, entry)
        if counted:
            yield engine, state, events, entry


def replay(export: dict[str, Any]) -> State:
    """The state after the export's actions, from ``new_state(options, seats, seed)``."""
    (last,) = deque(walk(export), maxlen=1)  # only the last state is kept while walking
    return last[1]


@dataclass(frozen=True)
class TimelineStep:
    """One step of a replay: the log row's version (0: the start), who acted and what the
    public saw of it (events with ``to is None``)."""

    version: int
    seat: int | None
    public: list[Event]


class Timeline:
    """Every step of a match, from the start, with keyframe states every ``every`` steps; a
    step's public view is rebuilt from the nearest keyframe. Built once per match version
    (one pass over the log), then any step costs at most ``every - 1`` applies and a view."""

    def __init__(self, export: dict[str, Any], *, every: int = KEYFRAME_EVERY) -> None:
        self.export = export
        self.game = str(export["game"])
        self.every = every
        self.steps: list[TimelineStep] = []
        self._entries: list[list[dict[str, Any]]] = []  # the rows from the previous step to this one
        self._keys: dict[int, tuple[Engine, State]] = {}
        latest, engine, state = _start(export)
        self._latest = latest
        pending: list[dict[str, Any]] = []
        self._keys[0] = (engine, state)
        self.steps.append(TimelineStep(0, None, []))
        self._entries.append([])
        for entry in export["actions"]:
            pending.append(entry)
            engine, state, events, counted = _apply(latest, engine, state, entry)
            if not counted:
                continue
            index = len(self.steps)
            self.steps.append(TimelineStep(int(entry["version"]), entry.get("seat"),
                                           [e for e in events if e.to is None]))
            self._entries.append(pending)
            pending = []
            if index % every == 0:
                self._keys[index] = (engine, state)
        self._last = (engine, state)

    def __len__(self) -> int:
        return len(self.steps)

    def state_at(self, index: int) -> tuple[Engine, State]:
        index = max(0, min(index, len(self.steps) - 1))
        if index == len(self.steps) - 1:
            return self._last
        base = index - index % self.every
        engine, state = self._keys[base]
        for i in range(base + 1, index + 1):
            for entry in self._entries[i]:
                engine, state, _, _ = _apply(self._latest, engine, state, entry)
        return engine, state

    def views(self) -> Iterator[tuple[View, list[Event]]]:
        """Every step's public view and public events, in order, one apply per step (a recap
        walks the whole match once instead of asking step by step)."""
        engine, state = self._keys[0]
        for i, step in enumerate(self.steps):
            if i:
                for entry in self._entries[i]:
                    engine, state, _, _ = _apply(self._latest, engine, state, entry)
            yield engine.view(state, None), step.public

    def view_at(self, index: int) -> View:
        """The public view after step ``index`` — what the thread's image showed then; at the
        end of a finished match that is what the rules reveal at the end."""
        engine, state = self.state_at(index)
        return engine.view(state, None)
