"""Before/after figures on a shared machine: today's bench scripts against an older commit and this
checkout, run interleaved in one run, then a table of the medians and their ratios.

Other work on the machine shifts timings from minute to minute, so the two sides take turns
bench by bench (old, new, then new, old in the next round ...) and each side's figure is the
median over the rounds. ``REV`` is built in a temporary git worktree (removed at the end); a
folder holding a checkout may be given instead. The bench script is always this checkout's: it
reaches the code under test through ``BENCH_ROOT`` (``bench/harness.py``), so both sides are
measured the same way, each with its own parallel load (``BENCH_LOAD``). Run::

    python3 tasks.py bench --compare REV [NAME ...] [--rounds N] [-- bench args]

With no NAME it runs the benches of the issue-22 targets (:data:`TARGETS`).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKOUT = HERE.parent

#: The benches ``--compare`` runs when none is named: one per target of issue 22.
TARGETS = ("click", "engines", "risk", "run_due")


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(CHECKOUT), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


@contextmanager
def checkout_of(rev: str) -> Iterator[Path]:
    """A folder holding ``rev``'s code: the folder itself when ``rev`` is one, else a temporary
    detached worktree removed afterwards."""
    if Path(rev).is_dir():
        yield Path(rev).resolve()
        return
    tmp = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    tree = tmp / "old"
    subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "add", "--detach", "--quiet", str(tree), rev],
                   check=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "-C", str(CHECKOUT), "worktree", "remove", "--force", str(tree)], check=False)
        subprocess.run(["rmdir", str(tmp)], check=False)


def run_side(name: str, root: Path, out: Path, extra: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    import harness

    env = dict(os.environ, BENCH_ROOT=str(root), BENCH_OUT=str(out))
    return harness.run_script(name, HERE / f"bench_{name}.py", extra, cwd=root, env=env)


def read_figures(path: Path) -> tuple[dict[tuple[str, str], list[float]], list[float]]:
    """Every figure's values over the rounds, and how many cores others kept busy in each run."""
    found: dict[tuple[str, str], list[float]] = {}
    others: list[float] = []
    if not path.exists():
        return found, others
    for line in path.read_text(encoding="utf-8").splitlines():
        run = json.loads(line)
        others.append(run["others"])
        for label, fig in run["figures"].items():
            found.setdefault((run["bench"], f"{label} ({fig['unit']})"), []).append(fig["value"])
    return found, others


def table(old: dict[tuple[str, str], list[float]], new: dict[tuple[str, str], list[float]],
          old_name: str, new_name: str) -> list[str]:
    lines = [f"| bench | figure | old {old_name} | new {new_name} | new/old |", "|---|---|---:|---:|---:|"]
    for key in list(dict.fromkeys([*old, *new])):
        a = statistics.median(old[key]) if key in old else None
        b = statistics.median(new[key]) if key in new else None
        ratio = f"{b / a:.2f}" if a and b is not None else "–"
        lines.append(f"| {key[0]} | {key[1]} | {'–' if a is None else f'{a:.3f}'} | "
                     f"{'–' if b is None else f'{b:.3f}'} | {ratio} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    ap = argparse.ArgumentParser(prog="bench --compare", description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="commit (or a folder holding a checkout) of the code before the change")
    ap.add_argument("names", nargs="*", help=f"benches (default: {' '.join(TARGETS)})")
    ap.add_argument("--rounds", type=int, default=3)
    ns = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    names = [n.removeprefix("bench_").removesuffix(".py") for n in ns.names] or list(TARGETS)
    missing = [n for n in names if not (HERE / f"bench_{n}.py").exists()]
    if missing:
        print(f"no bench {' '.join(missing)}")
        return 2
    with checkout_of(ns.rev) as old_root, tempfile.TemporaryDirectory(prefix="bench-figures-") as tmp:
        sides = {"old": old_root, "new": CHECKOUT}
        outs = {side: Path(tmp) / f"{side}.jsonl" for side in sides}
        for r in range(ns.rounds):
            order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
            for name in names:
                for side in order:
                    print(f"\n== round {r + 1}/{ns.rounds}  {name}  {side} ({sides[side]}) ==", flush=True)
                    run_side(name, sides[side], outs[side], extra)
        old_name = _describe(old_root)
        new_name = _describe(CHECKOUT)
        print(f"\n## bench --compare {ns.rev}: medians of {ns.rounds} interleaved rounds,"
              f" parallel load {os.environ.get('BENCH_LOAD', '1')} (BENCH_LOAD)")
        (old, old_others), (new, new_others) = read_figures(outs["old"]), read_figures(outs["new"])
        print(f"old: {old_name}\nnew: {new_name}")
        print(f"cores kept busy by others during the runs, mean: old {_mean(old_others)}, "
              f"new {_mean(new_others)}\n")
        print("\n".join(table(old, new, old_name.split()[0], new_name.split()[0])))
    return 0


def _mean(values: list[float]) -> str:
    return f"{statistics.fmean(values):.2f}" if values else "–"


def _describe(root: Path) -> str:
    sys.path.insert(0, str(HERE))
    import harness

    return harness.commit_of(root)


if __name__ == "__main__":
    sys.exit(main())
