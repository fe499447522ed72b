"""``python -m bench`` runs every ``bench/bench_*.py``; ``python -m bench NAME [args]`` runs one
(``roundtrip`` or ``bench_roundtrip``); ``python -m bench --compare REV [NAME ...]`` runs today's
benches against commit REV and this checkout, interleaved, and prints the ratios
(``bench/compare.py``). ``--load N`` before the rest sets the parallel CPU-bound load every bench
starts (``BENCH_LOAD``, default 1; ``bench/harness.py``). Each benchmark is a standalone script run
in its own process, so one's memory or imports cannot skew another's numbers."""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def scripts() -> dict[str, Path]:
    return {p.stem.removeprefix("bench_"): p for p in sorted(HERE.glob("bench_*.py"))}


def main(argv: list[str]) -> int:
    found = scripts()
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        print("available:", " ".join(found))
        return 0
    if argv[:1] == ["--load"] and len(argv) > 1:
        os.environ["BENCH_LOAD"] = argv[1]
        argv = argv[2:]
    if argv[:1] == ["--compare"]:
        sys.path.insert(0, str(HERE))
        import compare

        return compare.main(argv[1:])
    if argv:
        name = argv[0].removeprefix("bench_").removesuffix(".py")
        if name not in found:
            print(f"no benchmark {argv[0]!r}; available: {' '.join(found)}")
            return 2
        chosen, extra = {name: found[name]}, argv[1:]
    else:
        chosen, extra = found, []
    sys.path.insert(0, str(HERE))
    import harness

    worst = 0
    for name, path in chosen.items():
        print(f"== {name} ==", flush=True)
        worst = max(worst, harness.run_script(name, path, extra, cwd=HERE.parent))
    return worst


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
