"""Runs the real start commands (``bot.py``, ``python -m tools.cluster``) in subprocesses with
test hooks, set through a ``sitecustomize`` module on PYTHONPATH that Python itself imports at
start-up: so the commands run unchanged, and each bot process the cluster starts gets them too.

- ``api_base``: discord.py's REST base (``Route.BASE``), as ``FakeDiscord.patch_discord`` sets it
  in-process: a loopback port where nothing listens, or a running fake Discord.
- ``held``: that bot process (by shard) waits before it even imports the bot until the marker
  ``said`` exists, or for a minute when ``said`` is not used: a bot the scheduler left behind on
  a loaded machine.
- ``lingers``: that bot process, on its way out (``atexit``, so after it said why it stops),
  creates the marker ``said`` and then takes this many seconds more to exit: a slow interpreter
  shutdown on a loaded machine.
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from i18n import t

ROOT = Path(__file__).resolve().parents[2]

SITECUSTOMIZE = '''
import atexit
import os
import time

_shard = os.environ.get("SHARD_IDS")
_said = os.environ.get("TEST_SAID", "")
if _shard is not None and _shard == os.environ.get("TEST_HELD"):
    _until = time.monotonic() + 60
    while time.monotonic() < _until and not (_said and os.path.exists(_said)):
        time.sleep(0.05)
_shard_s, _, _seconds = os.environ.get("TEST_LINGERS", "").partition(":")
if _shard is not None and _shard == _shard_s:
    def _linger():
        open(_said, "w").close()
        time.sleep(float(_seconds))

    atexit.register(_linger)
if os.environ.get("TEST_DISCORD_API_BASE"):
    import discord.http

    discord.http.Route.BASE = os.environ["TEST_DISCORD_API_BASE"]
'''


def hooked_env(tmp_path: Path, *, api_base: str | None = None, held: int | None = None,
               lingers: tuple[int, float] | None = None, **settings: str) -> dict[str, str]:
    """A clean environment (no inherited DISCORD_TOKEN/DATABASE_URL) with the hooks and ``settings``."""
    hooks = tmp_path / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8",
           "PYTHONPATH": os.pathsep.join((str(hooks), str(ROOT))), **settings}
    for name in ("PG_BIN", "CI"):
        if name in os.environ:
            env[name] = os.environ[name]
    if api_base is not None:
        env["TEST_DISCORD_API_BASE"] = api_base
    if held is not None:
        env["TEST_HELD"] = str(held)
    if lingers is not None:
        env["TEST_LINGERS"] = f"{lingers[0]}:{lingers[1]}"
        env["TEST_SAID"] = str(hooks / "said")
    return env

@contextmanager
def closed_port() -> Iterator[str]:
    """An API base on a loopback port that is bound but not listening: every connection to it is
    refused at once, and no other program can take the port while the test runs."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/api/v10"


def message_lines(output: str, key: str, locale: str = "en") -> list[str]:
    """The lines of ``output`` that are the catalog message ``key`` (its ``{error}`` filled in)."""
    pattern = re.escape(t(locale, key, error="ERROR")).replace("ERROR", ".+")
    return [line for line in output.splitlines() if re.fullmatch(pattern, line)]


def check_cluster(code: int, out: str, err: str, processes: int, *, exit_code: int) -> list[int]:
    """What ``tools.cluster`` reports when its bots cannot start: exit 1; one line of its own about
    each bot process, which either failed with ``exit_code`` or was stopped by the cluster (it
    stops the others once one ended, maybe before they got as far); at least one failed; no
    traceback. Returns the processes that failed (each printed its own reason)."""
    assert code == 1, err
    assert all(f"runs shard {i} of {processes}" in out for i in range(processes)), out
    lines: dict[int, str] = {}
    for line in err.splitlines():
        if line.startswith("cluster: bot process "):
            index = int(line.split()[3])
            assert index not in lines, f"two lines about bot process {index}:\n{err}"
            lines[index] = line
    who = {i: f"cluster: bot process {i} (shard {i} of {processes}) " for i in range(processes)}
    failed = [i for i, line in lines.items() if line == who[i] + f"failed with exit code {exit_code} (its message is above)"]
    stopped = [i for i, line in lines.items() if line == who[i] + "was stopped because another bot process ended"]
    assert failed and sorted(failed + stopped) == list(range(processes)), err
    assert "Traceback" not in out + err
    return failed
