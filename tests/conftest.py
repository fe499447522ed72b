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
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tools.pg_local import LocalPostgres, PostgresUnavailable

TEST_DB = "store_tests"
_numbers = itertools.count(1)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--postgres", choices=("auto", "require", "skip"), default="auto",
                     help="PostgreSQL test variants: auto (skip without server binaries; fail in CI), "
                          "require (fail if the server cannot start), skip")


def _required(config: pytest.Config) -> bool:
    return config.getoption("--postgres") == "require" or bool(os.environ.get("CI"))


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
        _admin(server, f"CREATE DATABASE {TEST_DB}")
    except BaseException:
        server.stop()
        raise
    yield server
    server.stop()


def _admin(server: LocalPostgres, sql: str, db: str = "postgres") -> None:
    """One statement on the server's maintenance database, from synchronous code (a fixture may
    be first asked for inside a running event loop, so asyncio runs in a thread of its own)."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(server.url(db))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


@pytest.fixture
def pg_url(pg_server: LocalPostgres) -> Iterator[str]:
    """An empty schema of its own for one test (the store migrates it on open); dropped after."""
    name = f"t{os.getpid()}_{next(_numbers)}"
    _admin(pg_server, f"CREATE SCHEMA {name}", TEST_DB)
    yield f"{pg_server.url(TEST_DB)}?search_path={name}"
    _admin(pg_server, f"DROP SCHEMA IF EXISTS {name} CASCADE", TEST_DB)
