"""A throwaway PostgreSQL server in a temporary folder, on a free loopback port.

Used by the tests (``tests/conftest.py``: one server per test session), ``tasks.py cluster`` and
the benchmarks, so a fresh clone needs no running database: only the server binaries (Debian:
the ``postgresql`` package; ``initdb``/``pg_ctl`` found on PATH, in ``PG_BIN``, or under
``/usr/lib/postgresql/*/bin``). PostgreSQL refuses to run as root, so when we are root the server
runs as the unprivileged ``nobody`` user (``setpriv``), in a folder it owns.

The server is tuned for throwaway data (``fsync=off``): a crash of the machine may lose it, which
is the point of a temporary server, never a setting for a real deployment (docs/deploy.md).

    python -m tools.pg_local        start one, print its URL, stop on Ctrl-C
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The superuser the throwaway cluster is created with (trust authentication, loopback only).
SUPERUSER = "postgres"


class PostgresUnavailable(RuntimeError):
    """The server binaries are missing or the server would not start (the message says which)."""


def find_bin() -> Path | None:
    """The folder with ``initdb`` and ``pg_ctl``, or None. ``PG_BIN``, when set, is the only place
    looked at (so ``PG_BIN=/nowhere`` shows what a machine without the binaries does)."""
    if os.environ.get("PG_BIN"):
        found = Path(os.environ["PG_BIN"])
        return found if (found / "initdb").is_file() and (found / "pg_ctl").is_file() else None
    candidates = []
    which = shutil.which("initdb")
    if which:
        candidates.append(str(Path(which).parent))
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    for c in candidates:
        if c and (Path(c) / "initdb").is_file() and (Path(c) / "pg_ctl").is_file():
            return Path(c)
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalPostgres:
    """``start()`` → ``url(db)`` … → ``stop()`` (also a context manager)."""

    def __init__(self, bin_dir: Path | None = None) -> None:
        found = bin_dir or find_bin()
        if found is None:
            raise PostgresUnavailable("PostgreSQL server binaries (initdb, pg_ctl) not found; "
                                      "install the 'postgresql' package or set PG_BIN")
        self.bin = found
        self.port = 0
        self.root: Path | None = None
        self._as_nobody = hasattr(os, "geteuid") and os.geteuid() == 0

    @property
    def data(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    def _run(self, *args: str, timeout: float = 60) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self._as_nobody:
            cmd = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *cmd]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=self.root)
        if proc.returncode != 0:
            raise PostgresUnavailable(f"{args[0]} failed ({proc.returncode}): {proc.stderr.strip()[-800:]}")

    def start(self) -> LocalPostgres:
        self.root = Path(tempfile.mkdtemp(prefix="pg-local-"))
        if self._as_nobody:
            shutil.chown(self.root, "nobody", "nogroup")
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        self.port = free_port()
        opts = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
                " -c shared_buffers=64MB")
        try:
            self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "server.log"), "-o", opts,
                      "-w", "-t", "60", "start", timeout=90)
        except PostgresUnavailable as err:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-800:] if log.exists() else ""
            self.stop()
            raise PostgresUnavailable(f"{err}\n{tail}") from None
        return self

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        if self.root is None:
            return
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(PostgresUnavailable, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)
        self.root = None

    def __enter__(self) -> LocalPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main() -> int:
    try:
        server = LocalPostgres().start()
    except PostgresUnavailable as err:
        print(err, file=sys.stderr)
        return 1
    print(server.url(), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
