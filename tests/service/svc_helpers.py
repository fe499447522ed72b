"""Shared fixtures and fakes for the service tests (imported by the test modules; no conftest so
test folders of other packages cannot clash with it)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
import svc_toy_engine

from service.matches import MatchService
from service.models import Change, MatchInfo
from store.db import Store

HOST, BOB, CAROL, DAVE = 101, 202, 303, 404


class Clock:
    """An injectable clock the tests move by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Recorder:
    """A publisher that remembers what it was told (and can be told to fail)."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.infos: list[MatchInfo] = []
        self.fail = False

    async def publish(self, match: MatchInfo, change: Change) -> None:
        if self.fail:
            raise RuntimeError("publisher down")
        self.infos.append(match)
        self.changes.append(change)

    def kinds(self, match_id: int | None = None) -> list[str]:
        return [c.kind for c in self.changes if match_id is None or c.match_id == match_id]


@pytest.fixture
def toy() -> Iterator[svc_toy_engine.ToyEngine]:
    """The toy game, registered for one test only (``registry.available()`` stays clean)."""
    yield svc_toy_engine.install()
    svc_toy_engine.uninstall()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "matches.sqlite3"


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


def _target_maker(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Path | str]:
    if request.param == "postgres":
        return request.getfixturevalue("pg_schemas")  # type: ignore[no-any-return]
    numbers = itertools.count()
    return lambda: tmp_path / f"db{next(numbers)}.sqlite3"


@pytest.fixture(params=["sqlite", "postgres"])
def new_target(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Path | str]:
    """Makes what a test that opens its own stores passes to ``Store.open``, one independent store
    per call: a new SQLite file, or a new PostgreSQL schema's URL (``pg_schemas`` in
    tests/conftest.py, one server per session); the test runs once on each backend."""
    return _target_maker(request, tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """One store's target on each backend (as ``new_target``); reopening it is a restart."""
    return _target_maker(request, tmp_path)()


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Store]:
    """Every test taking ``store`` (or ``service``) runs on both backends; the PostgreSQL one gets
    a fresh database on the session's throwaway server (``tests/conftest.py``)."""
    target = request.getfixturevalue("pg_url") if request.param == "postgres" else db_path
    s = await Store.open(target)
    yield s
    await s.close()


@pytest.fixture
def service(store: Store, recorder: Recorder, clock: Clock, toy: svc_toy_engine.ToyEngine) -> MatchService:
    return MatchService(store, publisher=recorder, clock=clock, offload=False)


async def two_humans(service: MatchService, *, target: str = "15", turn_seconds: int = 3600) -> MatchInfo:
    """A started toy match: HOST at seat 0, BOB at seat 1."""
    info = await service.create_lobby(svc_toy_engine.SLUG, host_id=HOST, host_name="Host", locale="en",
                                      channel_id=9, options={"target": target}, turn_seconds=turn_seconds)
    await service.join(info.id, BOB, "Bob")
    return await service.start(info.id, HOST)


async def play_own_turn(service: MatchService, match_id: int, user_id: int, amount: str = "1") -> MatchInfo:
    """Answer the user's (single) pending request with the smallest legal move."""
    (rid,) = await service.pending_for_user(match_id, user_id)
    step = await service.step(match_id, user_id, rid, [])
    verb = step.options[0].value
    return await service.act(match_id, user_id, rid, [verb, amount if verb == "add" else "1"])


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every call queued to an SQLite connection's thread: the store trips the tests count."""
    calls: list[Any] = []
    real = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn)
        return await real(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    yield calls


def counted_loads(monkeypatch: pytest.MonkeyPatch, service: MatchService) -> list[int]:
    """The ids of the matches ``service`` loads from now on, in order (a load is a store trip)."""
    loads: list[int] = []
    real = service._load

    async def load(match_id: int, **kwargs: Any) -> Any:
        loads.append(match_id)
        return await real(match_id, **kwargs)

    monkeypatch.setattr(service, "_load", load)
    return loads
