"""The frame every bench runs in, so its figures can be compared from run to run and side by side.

The machine is 2 cores shared with other work: a figure taken at an idle moment does not hold when
others load it. So a bench (``with Session("name") as s:``)

* runs against the code under test, which is this checkout or the one named by ``BENCH_ROOT``
  (``bench --compare REV`` measures an older commit with today's bench script);
* starts its own parallel CPU-bound load (``BENCH_LOAD`` processes, default 1: with the bench
  itself that fills both cores) and stops it at the end, so it always measures a loaded machine;
* prints a header with the commit under test, the load average before it started and the
  parallel-load setting, and a footer with how busy the machine was during the run, split into
  this bench, its load and everything else (other people's work);
* prints each figure with :meth:`Session.figure` and, when ``BENCH_OUT`` names a file, writes
  them there as JSON for ``bench --compare`` to put old and new side by side.

Bench scripts are run by path (``python bench/bench_x.py``), so this module is imported as
``harness`` from the script's own folder; :func:`use_code` then puts the code under test first on
``sys.path``.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

HERE = Path(__file__).resolve().parent
#: The checkout whose code is measured (``BENCH_ROOT``: an older commit's worktree).
ROOT = Path(os.environ.get("BENCH_ROOT") or HERE.parent).resolve()

#: A CPU-bound loop in pure Python: the kind of work a second bench or a test run puts on a core.
LOAD_CODE = "x = 1\nwhile True:\n    x = (x * 1103515245 + 12345) & 0xFFFFFFFF\n"


def use_code() -> Path:
    """Put the code under test first on ``sys.path`` and return its folder."""
    if sys.path[:1] != [str(ROOT)]:
        sys.path.insert(0, str(ROOT))
    return ROOT


def load_setting() -> int:
    """How many parallel CPU-bound processes a bench starts (``BENCH_LOAD``, default 1; 0: none)."""
    try:
        return max(0, int(os.environ.get("BENCH_LOAD", "1")))
    except ValueError:
        return 1


def commit_of(root: Path) -> str:
    """``<short sha> <subject>`` of ``root``, with ``+changes`` when tracked files differ from it."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                                  check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return ""
    sha = git("rev-parse", "--short=10", "HEAD") or "unknown"
    dirty = "+changes" if git("status", "--porcelain", "--untracked-files=no") else ""
    subject = git("log", "-1", "--format=%s")[:60]
    return f"{sha}{dirty} {subject}".strip()


def pct(values: Iterable[float], q: float) -> float:
    """The ``q`` quantile by rank (p99 of 200 samples is the second largest)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def wilson_bounds(k: int, n: int) -> tuple[float, float]:
    """The 95 % interval of a rate ``k / n`` (Wilson score): self-play figures are samples."""
    if n == 0:
        return float("nan"), float("nan")
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return centre - half, centre + half


def wilson(k: int, n: int) -> str:
    """:func:`wilson_bounds` as text."""
    if n == 0:
        return "n/a"
    lo, hi = wilson_bounds(k, n)
    return f"{100 * lo:.1f}–{100 * hi:.1f} %"


def _cpu_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine since boot (Linux; zeros elsewhere)."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return sum(fields[:8]) - idle, sum(fields[:8])


def _proc_ticks(pid: int) -> int:
    """utime + stime jiffies of one process (0 when unknown)."""
    try:
        parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(parts[11]) + int(parts[12])
    except (OSError, ValueError, IndexError):
        return 0


def _loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


class Session:
    """One bench run: header, parallel load, figures, footer (see the module's docstring)."""

    def __init__(self, name: str, *, load: int | None = None, root: Path | None = None) -> None:
        self.name = name
        self.root = ROOT if root is None else root.resolve()
        self.load = load_setting() if load is None else load
        self.figures: dict[str, dict[str, Any]] = {}
        self._procs: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> Session:
        cores = os.cpu_count() or 1
        print(f"# bench {self.name}  code {commit_of(self.root)}  ({self.root})", flush=True)
        if HERE.parent.resolve() != self.root:
            print(f"# bench script from {commit_of(HERE.parent)}", flush=True)
        print(f"# machine: {cores} cores, load average {_loadavg()} before the run;"
              f" parallel load: {self.load} CPU-bound process{'es' if self.load != 1 else ''}"
              f" (BENCH_LOAD)", flush=True)
        self._procs = [subprocess.Popen([sys.executable, "-c", LOAD_CODE], stdin=subprocess.DEVNULL)
                       for _ in range(self.load)]
        self._t0 = time.perf_counter()
        self._ticks0 = _cpu_ticks()
        self._own0 = os.times()
        return self

    def figure(self, label: str, value: float, unit: str = "ms", *, note: str = "") -> float:
        """Print one figure and keep it for ``BENCH_OUT`` (``bench --compare`` matches by label)."""
        self.figures[label] = {"value": value, "unit": unit}
        print(f"  {label:<52} {value:10.3f} {unit}{'  ' + note if note else ''}", flush=True)
        return value

    def series(self, label: str, values_ms: list[float], *, unit: str = "ms", quantiles: tuple[str, ...] = ("median", "p99"),
               note: str = "") -> None:
        """Figures of one series of samples: ``<label> median`` and ``<label> p99`` (and ``max``)."""
        if not values_ms:
            return
        for q in quantiles:
            value = {"median": statistics.median(values_ms), "mean": statistics.fmean(values_ms),
                     "p99": pct(values_ms, 0.99), "max": max(values_ms)}[q]
            self.figure(f"{label} {q}", value, unit, note=f"n={len(values_ms)}" + (f"  {note}" if note else ""))

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        load_ticks = sum(_proc_ticks(p.pid) for p in self._procs)
        busy1, total1 = _cpu_ticks()
        own1 = os.times()
        for p in self._procs:
            p.kill()
        for p in self._procs:
            p.wait()
        wall = time.perf_counter() - self._t0
        cores = os.cpu_count() or 1
        hz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        busy = (busy1 - self._ticks0[0]) / max(1, total1 - self._ticks0[1]) * cores
        own = (own1.user + own1.system + own1.children_user + own1.children_system
               - self._own0.user - self._own0.system - self._own0.children_user - self._own0.children_system) / wall
        load = load_ticks / hz / wall
        others = max(0.0, busy - own - load)
        print(f"# {wall:.1f} s; cores busy on average {busy:.2f} of {cores}: this bench {own:.2f},"
              f" its parallel load {load:.2f}, others {others:.2f}", flush=True)
        out = os.environ.get("BENCH_OUT")
        if out:
            with open(out, "a", encoding="utf-8") as fh:
                fh.write(json.dumps({"bench": self.name, "code": commit_of(self.root), "others": others,
                                     "figures": self.figures}) + "\n")


def run_script(name: str, path: Path, extra: list[str], *, cwd: Path,
               env: dict[str, str] | None = None) -> int:
    """Run one bench script in its own process. A script that does not frame itself (no
    ``harness.Session``) is framed from here: the same header, parallel load and footer."""
    command = [sys.executable, str(path), *extra]
    if "harness.Session" in path.read_text(encoding="utf-8"):
        return subprocess.call(command, cwd=cwd, env=env)
    root = (env or os.environ).get("BENCH_ROOT")
    with Session(name, root=Path(root) if root else None):
        return subprocess.call(command, cwd=cwd, env=env)
