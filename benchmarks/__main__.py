"""`make bench`: run every benchmarks/bench_*.py module's ``main()`` in one run.

Each benchmark prints its own table, with results as ratios against a baseline
measured in the same run. ``python -m benchmarks NAME ...`` runs a subset.
"""

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if argv:
        names = [n for n in names if any(a in n for a in argv)]
    failed = []
    for name in names:
        print(f"\n=== {name} ===", flush=True)
        t = time.perf_counter()
        try:
            importlib.import_module(f"benchmarks.{name}").main()
        except Exception as exc:  # one broken benchmark must not hide the others
            failed.append(name)
            print(f"!! {name} failed: {type(exc).__name__}: {exc}", flush=True)
        print(f"(--- {name}: {time.perf_counter() - t:.1f}s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
