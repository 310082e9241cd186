"""Term protection on pathological shapes (issue 14): time against input size, rules only (NER off).

Shapes: ``list`` — one paragraph of comma-separated capitalised words (an author list, a list
of countries), the case that was quadratic; ``dense`` — the same with a year group after every
tenth word (each one anchors a narrative-citation look-back). Linear time shows as a flat
"ms per KB" column and a "× 10 KB" ratio close to the size ratio.
"""

from __future__ import annotations

import time

from textguard_pipeline.protection import TermProtectionConfig, TermProtector
from textguard_pipeline_tests.protection.shapes import shape

SIZES_KB = (10, 30, 70, 150)


def main() -> None:
    tp = TermProtector(TermProtectionConfig(use_ner=False))
    print(f"{'shape':6} {'size':>7} {'time':>9} {'ms/KB':>7} {'× 10 KB':>8} (size ratio)")
    for kind in ("list", "dense"):
        base = None
        for kb in SIZES_KB:
            text = shape(kind, kb)
            best = float("inf")
            for _ in range(2):
                t = time.perf_counter()
                pc = tp.protect_text(text)
                best = min(best, time.perf_counter() - t)
            assert tp.restore(pc.protected_text, pc) == text
            base = base or best
            ratio = f"{best / base:7.1f}× ({kb / SIZES_KB[0]:.0f}×)"
            print(f"{kind:6} {kb:>5}KB {best:8.3f}s {best * 1000 / kb:7.2f} {ratio}")


if __name__ == "__main__":
    main()
