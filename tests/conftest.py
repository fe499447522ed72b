"""Session-wide fixtures: a throwaway PostgreSQL server for the store and service tests.

One server per test session (``tools.pg_local``, started on first use); each test gets a fresh
schema of its own in one database (the URL's ``search_path``), migrated when the store opens: ~40
ms, where ``CREATE DATABASE … TEMPLATE`` took 300 ms (it forces a checkpoint). Without the server binaries the PostgreSQL variants are
skipped with one reason line; in CI (``CI`` set) or with ``--postgres=require`` they fail instead,
so a broken CI image cannot silently drop the PostgreSQL suite.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tools.pg_local import LocalPostgres, PostgresUnavailable, find_bin

TEST_DB = "store_tests"
_numbers = itertools.count(1)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--postgres", choices=("auto", "require", "skip"), default="auto",
                     help="PostgreSQL test variants: auto (skip without server binaries; fail in CI), "
                          "require (fail if the server cannot start), skip")


def _required(config: pytest.Config) -> bool:
    return config.getoption("--postgres") == "require" or bool(os.environ.get("CI"))


_PG_FIXTURES = {"pg_server", "pg_url", "pg_schemas"}
_skipped: list[str] = []


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without the server binaries (and not required), skip the PostgreSQL variants up front and
    say so once at the end (``pytest_terminal_summary``) instead of once per test."""
    if _required(config) or config.getoption("--postgres") == "skip" or find_bin() is not None:
        return
    reason = "PostgreSQL server binaries (initdb, pg_ctl) not found"
    marker = pytest.mark.skip(reason=reason)
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if _PG_FIXTURES & set(getattr(item, "fixturenames", ())) or "postgres" in params.values():
            item.add_marker(marker)
            _skipped.append(item.nodeid)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _skipped:
        terminalreporter.write_line(
            f"PostgreSQL variants skipped ({len(_skipped)} tests): server binaries (initdb, pg_ctl) not found; "
            "install the 'postgresql' package or set PG_BIN. CI (CI set or --postgres=require) fails instead.")


@pytest.fixture(scope="session")
def pg_server(request: pytest.FixtureRequest) -> Iterator[LocalPostgres]:
    """The session's PostgreSQL server (skips or fails as the module docstring says)."""
    if request.config.getoption("--postgres") == "skip":
        pytest.skip("PostgreSQL variants skipped (--postgres=skip)")
    try:
        server = LocalPostgres().start()
    except PostgresUnavailable as err:
        if _required(request.config):
            pytest.fail(f"PostgreSQL is required here (CI or --postgres=require) but did not start: {err}")
        pytest.skip(f"PostgreSQL variants skipped: {str(err).splitlines()[0]}")
    try:
        admin = _Admin(server.url())
        admin.execute(f"CREATE DATABASE {TEST_DB}")
        admin.close()
        server.admin = _Admin(server.url(TEST_DB))  # type: ignore[attr-defined]
    except BaseException:
        server.stop()
        raise
    yield server
    server.admin.close()  # type: ignore[attr-defined]
    server.stop()  # the schemas go with the server


class _Admin:
    """One connection to the test database, on an event loop in a thread of its own: fixtures may
    be first asked for inside a running loop, and a connection per test would cost ~40 ms."""

    def __init__(self, url: str) -> None:
        import asyncpg

        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pg-admin", daemon=True)
        self._thread.start()
        self._conn = self._call(asyncpg.connect(url))

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(60)

    def execute(self, sql: str) -> None:
        self._call(self._conn.execute(sql))

    def close(self) -> None:
        self._call(self._conn.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


@pytest.fixture
def pg_schemas(pg_server: LocalPostgres) -> Callable[[], str]:
    """Makes empty schemas on the session's server, each a store of its own (the store migrates it
    on open), for tests that need several independent stores; they are left for the server's
    removal at the end of the session (dropping each one cost more than it saved)."""
    def new() -> str:
        name = f"t{os.getpid()}_{next(_numbers)}"
        pg_server.admin.execute(f"CREATE SCHEMA {name}")  # type: ignore[attr-defined]
        return f"{pg_server.url(TEST_DB)}?search_path={name}"

    return new


@pytest.fixture
def pg_url(pg_schemas: Callable[[], str]) -> str:
    """An empty schema of its own for one test (see ``pg_schemas``)."""
    return pg_schemas()
