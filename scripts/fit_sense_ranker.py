"""Fit the sense ranker (``textguard_pipeline/meanings/ranker.py``, issue 51) on the dev half and score it.

    .venv/bin/python scripts/calibrate_meanings.py --rows /tmp/r0.json --part 0/2 --no-write   # and 1/2
    .venv/bin/python scripts/fit_sense_ranker.py /tmp/r0.json /tmp/r1.json [--write]

The rows are those ``calibrate_meanings.py`` collects (every label; for a label that got a WordNet sense, the
ranker features of each of its options). The conditional logit is fitted on the **dev** half; its isotonic map
on out-of-fold dev probabilities. Both halves are scored: right among gold-synset labels (an abstention or a
label without a WordNet sense is not right), ``none`` labels abstained, the cascade shipped today on the same
rows, rows with confidence ≥ 0.8 and their share right, a reliability table. ``--write`` writes
``sense_ranker.json`` and the reliability diagram (held-out rows).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.calibrate_meanings import SVG, binned, svg  # noqa: E402
from textguard_pipeline.meanings.calibration import isotonic, load_calibration  # noqa: E402
from textguard_pipeline.meanings.ranker import (  # noqa: E402
    NONE_FEATURES,
    RANKER_FILE,
    SENSE_FEATURES,
    Options,
    SenseRanker,
    fit_logit,
    split_weights,
)

THRESHOLD = 0.35  # the default low_confidence setting


#: features left out of a fit (``--drop``): their columns are zero, so they weigh nothing
DROPPED: set[str] = set()


def options(r: dict) -> Options:
    """The row's options, with the ``--drop`` features' columns zeroed."""
    o = Options.from_json(r["options"])
    if o.senses.shape[1] != len(SENSE_FEATURES) or o.none.shape[0] != len(NONE_FEATURES):
        raise SystemExit("rows collected with other ranker features: collect them again (calibrate_meanings.py)")
    for i, name in enumerate(SENSE_FEATURES):
        if name in DROPPED:
            o.senses[:, i] = 0.0
    for i, name in enumerate(NONE_FEATURES):
        if name in DROPPED:
            o.none[i] = 0.0
    return o


def gold_index(r: dict, opts: Options) -> int | None:
    if r["gold"] == "none":
        return len(opts.ids)
    return opts.ids.index(r["gold"]) if r["gold"] in opts.ids else None


#: weights kept from the shipped ranker (``--from-shipped``): NaN where a weight is fitted
FIXED: list[np.ndarray] = []


def shipped_fixed(free: set[str]) -> np.ndarray:
    """The shipped ranker's weights, NaN for ``free`` features, the none bias and features the file lacks."""
    d = json.loads(RANKER_FILE.read_text(encoding="utf-8"))
    sense = dict(zip(d["sense_features"], d["sense_weights"]))
    none = dict(zip(d["none_features"], d["none_weights"]))
    w = [sense.get(n, np.nan) if n not in free else np.nan for n in SENSE_FEATURES]
    w += [none.get(n, np.nan) if n not in free and n != "none_bias" else np.nan for n in NONE_FEATURES]
    return np.array(w, dtype=float)


def fit_ranker(dev: list[dict], fitted_on: str, l2: float, folds: int = 5) -> SenseRanker:
    rows = [(options(r), r) for r in dev]
    train = [(o, g) for o, r in rows if (g := gold_index(r, o)) is not None]
    fixed = FIXED[0] if FIXED else None
    w = fit_logit(train, l2, fixed=fixed)
    fold = np.arange(len(rows)) % folds
    oof_p, oof_ok = [], []
    for k in range(folds):
        wk = fit_logit(
            [(o, g) for i, (o, r) in enumerate(rows) if fold[i] != k and (g := gold_index(r, o)) is not None],
            l2,
            fixed=fixed,
        )
        probe = SenseRanker(*split_weights(wk), (0.0, 1.0), (0.0, 1.0))
        for i, (o, r) in enumerate(rows):
            if fold[i] == k:
                p = probe.probabilities(o)
                best = int(np.argmax(p[:-1]))
                oof_p.append(float(p[best]))
                oof_ok.append(float(o.ids[best] == r["gold"]))
    xs, ys = isotonic(np.array(oof_p), np.array(oof_ok))
    return SenseRanker(*split_weights(w), tuple(xs), tuple(ys), fitted_on)


def decide(ranker: SenseRanker | None, r: dict) -> tuple[str | None, float | None]:
    """(chosen sense id or None, confidence) for one label; the shipped cascade when ``ranker`` is None."""
    if "options" not in r or r["options"] is None:
        return None, None
    if ranker is None:
        return r["chosen"], load_calibration().probability(r["features"])
    o = options(r)
    best, conf, _none = ranker.choose(o)
    return o.ids[best], conf


def report(name: str, ranker: SenseRanker | None, labels: list[dict]) -> dict:
    gold = [r for r in labels if r["gold"] != "none"]
    none = [r for r in labels if r["gold"] == "none"]
    out = {}
    for t in (0.0, THRESHOLD):
        right = 0
        for r in gold:
            mid, conf = decide(ranker, r)
            right += mid == r["gold"] and conf is not None and conf >= t
        kept_out = sum(1 for r in none if (c := decide(ranker, r))[0] is None or c[1] < t)
        out[t] = (right, len(gold), kept_out, len(none))
        print(
            f"  {name} threshold {t:.2f}: right {right}/{len(gold)} = {right / len(gold):.3f}; none abstained {kept_out}/{len(none)}"
        )
    pairs = [(c, mid == r["gold"]) for r in labels if (d := decide(ranker, r))[0] is not None for mid, c in [d]]
    high = [ok for c, ok in pairs if c >= 0.8]
    print(f"  {name}: {len(high)} rows at ≥ 0.8, {sum(high) / max(1, len(high)):.3f} right")
    return {"table": binned(pairs), "accuracy": out, "high": (len(high), sum(high))}


def out_of_fold(dev: list[dict], l2: float, folds: int = 5) -> None:
    """Dev scored out of fold: each fifth of the documents' rows by a ranker (and map) fitted on the rest."""
    fold = {r["id"]: i % folds for i, r in enumerate(dev)}
    decided: dict = {}
    for k in range(folds):
        ranker = fit_ranker([r for r in dev if r.get("options") and fold[r["id"]] != k], "out of fold", l2)
        for r in dev:
            if fold[r["id"]] == k:
                decided[r["id"]] = decide(ranker, r)
    gold = [r for r in dev if r["gold"] != "none"]
    none = [r for r in dev if r["gold"] == "none"]
    for t in (0.0, THRESHOLD):
        right = sum(decided[r["id"]][0] == r["gold"] and decided[r["id"]][1] >= t for r in gold)
        out = sum(decided[r["id"]][0] is None or decided[r["id"]][1] < t for r in none)
        print(f"  dev out of fold, threshold {t:.2f}: right {right}/{len(gold)}; none abstained {out}/{len(none)}")
    high = [decided[r["id"]][0] == r["gold"] for r in dev if decided[r["id"]][0] and decided[r["id"]][1] >= 0.8]
    print(f"  dev out of fold: {len(high)} rows at ≥ 0.8, {sum(high) / max(1, len(high)):.3f} right")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", nargs="+", type=Path)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--drop", default="", help="comma-separated features to leave out of the fit")
    ap.add_argument("--oof", action="store_true", help="also score dev out of fold (5 folds)")
    ap.add_argument(
        "--from-shipped", action="store_true", help="keep the shipped weights; fit only the features it lacks"
    )
    ap.add_argument("--quiet-heldout", action="store_true", help="score dev only (while choosing features)")
    args = ap.parse_args(argv)
    DROPPED.update(f for f in args.drop.split(",") if f)
    if DROPPED - set(SENSE_FEATURES) - set(NONE_FEATURES):
        raise SystemExit(f"unknown features: {sorted(DROPPED - set(SENSE_FEATURES) - set(NONE_FEATURES))}")
    if args.from_shipped:
        FIXED.append(shipped_fixed(set()))
    labels = [r for f in args.rows for r in json.loads(f.read_text(encoding="utf-8"))]
    dev = [r for r in labels if r["split"] == "dev"]
    held = [r for r in labels if r["split"] == "heldout"]
    today = datetime.date.today().isoformat()
    fitted = [r for r in dev if r.get("options")]
    ranker = fit_ranker(fitted, f"{today}: dev half of sense_labels.tsv, {len(fitted)} rows", args.l2)
    print("sense weights:", dict(zip(SENSE_FEATURES, np.round(ranker.sense_weights, 3))))
    print("none weights:", dict(zip(NONE_FEATURES, np.round(ranker.none_weights, 3))))
    print("isotonic:", np.round(ranker.knots_x, 3).tolist(), np.round(ranker.knots_y, 3).tolist())
    if args.oof:
        out_of_fold(dev, args.l2)
    for name, part in (("dev", dev), ("held-out", held))[: 1 if args.quiet_heldout else 2]:
        print(f"\n{name} ({len(part)} labels, {sum(1 for r in part if r.get('options'))} with a WordNet sense):")
        report("cascade", None, part)
        got = report("ranker", ranker, part)
        print("  ranker reliability: bin, rows, mean confidence, share right")
        for lo, hi, n, conf, acc in got["table"]:
            print(f"    [{lo:.1f}, {hi:.1f})  {n:5d}  {conf:6.3f}  {acc:6.3f}")
    if args.write:
        RANKER_FILE.write_text(json.dumps(ranker.as_json(), indent=1) + "\n", encoding="utf-8")
        pairs = [(c, mid == r["gold"]) for r in held if (d := decide(ranker, r))[0] is not None for mid, c in [d]]
        SVG.write_text(svg(binned(pairs), f"meaning_confidence on the held-out half ({len(pairs)} rows, {today})"))
        print(f"wrote {RANKER_FILE.relative_to(ROOT)} and {SVG.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
