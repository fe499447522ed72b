"""``python3 tasks.py cluster --processes 3``: a local cluster for trying the scale-out set-up.

Starts a throwaway PostgreSQL server (``tools.pg_local``; its data is deleted on exit) unless
DATABASE_URL already names one, then N bot processes on it, process i running shard i of N
(``SHARD_COUNT=N``, ``SHARD_IDS=i``). The token and the other settings come from ``.env`` as for
``tasks.py bot``. Ctrl-C (or SIGTERM) stops the bots cleanly, then the server. When a bot process
ends by itself (a start-up error: no token, Discord unreachable or refusing the token), the
cluster stops the others and the server; the bot printed its reason in one line, and the cluster
adds one line per process saying which shard failed or was stopped.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from store.base import is_postgres_url
from tools.pg_local import LocalPostgres, PostgresUnavailable

ROOT = Path(__file__).resolve().parent.parent


def bot_env(base: dict[str, str], url: str, processes: int, index: int) -> dict[str, str]:
    """The environment of bot process ``index`` of ``processes`` on the store ``url``."""
    return {**base, "DATABASE_URL": url, "SHARD_COUNT": str(processes), "SHARD_IDS": str(index)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tasks.py cluster", description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3, help="bot processes = shards (default 3)")
    args = parser.parse_args(argv)
    if not 1 <= args.processes <= 64:
        print("--processes must be between 1 and 64", file=sys.stderr)
        return 2
    url = os.environ.get("DATABASE_URL", "")
    server: LocalPostgres | None = None
    if not is_postgres_url(url):
        try:
            server = LocalPostgres().start()
        except PostgresUnavailable as err:
            print(f"cluster: {err}", file=sys.stderr)
            return 1
        url = server.url()
        print(f"Throwaway PostgreSQL at {url} (data in {server.root}, deleted on exit)", flush=True)
    procs: list[subprocess.Popen[bytes]] = []
    stopped: set[int] = set()  # the processes this cluster sent SIGTERM
    killed: set[int] = set()  # ... and those that did not stop within 30 s
    stopping = interrupted = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    try:
        for i in range(args.processes):
            env = bot_env(dict(os.environ), url, args.processes, i)
            procs.append(subprocess.Popen([sys.executable, str(ROOT / "bot.py")], env=env))
            print(f"bot process {i} (pid {procs[-1].pid}) runs shard {i} of {args.processes}", flush=True)
        while not stopping and all(p.poll() is None for p in procs):
            time.sleep(0.5)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for i, p in enumerate(procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)  # the bot's clean shutdown
                stopped.add(i)
        for i, p in enumerate(procs):
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                killed.add(i)
        if server is not None:
            server.stop()
    for line in outcomes([p.returncode for p in procs], stopped, killed, asked_to_stop=stopping or interrupted):
        print(f"cluster: {line}", file=sys.stderr, flush=True)
    codes = [p.returncode for p in procs]
    return 0 if stopping or all(c in (0, -signal.SIGTERM, -signal.SIGINT) for c in codes) else 1


def outcomes(codes: list[int], stopped: set[int], killed: set[int], *, asked_to_stop: bool) -> list[str]:
    """One line per bot process that failed and, when the cluster stopped the others because one
    ended by itself, per process it stopped: which process and shard, what became of it. A bot
    says why it failed itself (one line on stderr, above); a bot the cluster stopped while it was
    still starting says nothing, so without its line here it would just vanish. After Ctrl-C or
    SIGTERM a clean stop is not worth a line."""
    clean = (0, -signal.SIGTERM, -signal.SIGINT)
    n = len(codes)
    lines = []
    for i, code in enumerate(codes):
        who = f"bot process {i} (shard {i} of {n})"
        if i in killed:
            lines.append(f"{who} did not stop within 30 s and was killed")
        elif asked_to_stop and code in clean:
            continue
        elif i in stopped and code in clean:
            lines.append(f"{who} was stopped because another bot process ended")
        elif code > 0:
            lines.append(f"{who} failed with exit code {code} (its message is above)")
        elif code < 0:
            lines.append(f"{who} was ended by signal {_signal_name(-code)}")
        else:
            lines.append(f"{who} ended by itself (exit code 0)")
    return lines


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
