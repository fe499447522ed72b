"""One entry point for every task, so a fresh machine with only Python 3.11 needs nothing else.

    python3 tasks.py bot              install what is needed, then run the Discord bot
    python3 tasks.py test [pytest args]  install what is needed, then lint and run the test suite
    python3 tasks.py play GAME        play a game against the AI in the terminal (no Discord)
    python3 tasks.py bench [NAME]     run the benchmarks in bench/ (each loads the machine with a
                                      parallel CPU-bound job: --load N before NAME, default 1)
    python3 tasks.py bench --compare REV [NAME ...]   REV and this checkout, interleaved: ratios
    python3 tasks.py cluster [--processes N]   a throwaway PostgreSQL + N sharded bot processes
    python3 tasks.py migrate-db [--from FILE] [--to URL]   copy the SQLite database into PostgreSQL
    python3 tasks.py ratings --rebuild [--check]   recompute every rating from the match logs
    python3 tasks.py replay FILE [--images DIR]   play a /match export back (text, or board images)

Dependencies come from pyproject.toml and are installed into ./.venv; a stamp file holds the hash
of pyproject.toml so the install runs again only when the dependencies change.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")


def _requirements(with_test: bool) -> list[str]:
    import tomllib  # 3.11+; imported here so older Pythons reach the friendly version message

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    reqs = list(meta["dependencies"])
    if with_test:
        reqs += meta["optional-dependencies"]["test"]
    return reqs


def ensure_env(with_test: bool) -> None:
    """Create .venv and install the pinned-compatible dependencies when they changed."""
    if not PY.exists():
        print("Creating virtual environment in .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    reqs = _requirements(with_test)
    digest = hashlib.sha256("\n".join(reqs).encode()).hexdigest()
    stamp = VENV / (".stamp-test" if with_test else ".stamp-run")
    if stamp.exists() and stamp.read_text() == digest:
        return
    print("Installing dependencies ...", flush=True)
    code = subprocess.call([str(PY), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *reqs])
    if code != 0:
        sys.exit("Installing the dependencies failed (see pip's message above). Check the network "
                 "connection to the package index and run the command again.")
    stamp.write_text(digest)


def _run(args: list[str]) -> int:
    return subprocess.call([str(PY), *args], cwd=ROOT)


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 - the runner itself may be started by an older python3
        print(f"Python 3.11 or newer is needed (found {sys.version.split()[0]}).")
        return 2
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(__doc__)
        return 0
    task, rest = argv[0], argv[1:]
    if task == "bot":
        ensure_env(with_test=False)
        return _run(["bot.py", *rest])
    if task == "test":
        ensure_env(with_test=True)
        lint = _run(["-m", "ruff", "check", "."])
        if lint != 0:
            print("ruff found problems (see above).", flush=True)
            return lint
        return _run(["-m", "pytest", *rest])
    if task == "play":
        ensure_env(with_test=False)
        return _run(["-m", "cli", "play", *rest])
    if task == "bench":
        ensure_env(with_test=True)
        return _run(["-m", "bench", *rest])
    if task == "cluster":
        ensure_env(with_test=False)
        return _run(["-m", "tools.cluster", *rest])
    if task == "migrate-db":
        ensure_env(with_test=False)
        return _run(["-m", "tools.migrate_db", *rest])
    if task == "replay":
        ensure_env(with_test=False)
        return _run(["-m", "cli.replay", *rest])
    if task == "ratings":
        ensure_env(with_test=False)
        return _run(["-m", "tools.ratings", *rest])
    print(f"unknown task {task!r}\n{__doc__}")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
