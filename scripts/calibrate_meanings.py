"""Refit the hand-weighted score's calibration (issue 51); collect the rows the sense ranker is fitted on.

    .venv/bin/python scripts/calibrate_meanings.py [--rows CACHE.json] [--no-write]

Every labelled noun of ``textguard_pipeline_tests/meanings/data/sense_labels.tsv`` is resolved where it stands
(its whole document, as ``sense_eval.score`` does), with the shipped calibration and the low-confidence
threshold switched off. A row counts when the resolver gave the labelled span a WordNet sense; it is right
when that sense is the gold one (``gold = none``: never right). The calibration is fitted on the **dev** half only
and written to ``textguard_pipeline/meanings/confidence_calibration.json``; the **held-out** half is only scored:
per-bin accuracy is printed. Needs the full WordNet 3.0 installed (``textguard wordnet
install``) and the dev corpus in ../shared/corpus. The rows also keep every label (those without a WordNet
sense, for the accuracy's count) and each option's ranker features: ``scripts/fit_sense_ranker.py`` fits the ranker
that sets ``meaning_confidence`` today (and draws the picture) from them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textguard_pipeline.meanings.calibration import CALIBRATION_FILE, Calibration, fit  # noqa: E402

SVG = ROOT / "docs" / "img" / "meaning_confidence_reliability.svg"
BINS = [0.0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0001]


def collect(part: tuple[int, int] = (0, 1)) -> list[dict]:
    """One record per labelled span that got a WordNet sense: split, features, right, lemma, reason. ``part`` =
    (k, n): only the k-th of every n documents (several processes, their row files merged with ``--rows``)."""
    from textguard_pipeline.ingest.build import parse_chunks
    from textguard_pipeline.meanings.resolver import ResolveStats, build_resolver
    from textguard_pipeline.settings import MeaningsSettings
    from textguard_pipeline_tests.meanings.sense_eval import FORMATS, load_labels

    resolver = build_resolver(replace(MeaningsSettings(wikidata_mode="off"), low_confidence=0.0))
    resolver.chooser.calibration = None  # the raw evidence, not the shipped map of it
    resolver.chooser.ranker = None  # the cascade's choice; every option's ranker features kept beside it
    resolver.chooser.keep_options = True
    by_doc: dict[Path, list] = {}
    for lab in load_labels():
        by_doc.setdefault(lab.source, []).append(lab)
    out = []
    for n, (path, labs) in enumerate(sorted(by_doc.items()), 1):
        if (n - 1) % part[1] != part[0]:
            continue
        text = path.read_text(encoding="utf-8")
        fmt = FORMATS[path.suffix]
        mentions, _found, decisions, *_rest = resolver.decide(text, parse_chunks(text, fmt), fmt, ResolveStats())
        at = {(m.start, m.end): d for m, d in zip(mentions, decisions)}
        # a compound WordNet lacks that ends with the label ("test suite" for "suite"): its head's own decision
        heads = {
            m.end: h
            for m, d, h in zip(mentions, decisions, resolver.head_decisions)
            if h is not None and d.candidate.meaning_type == "custom"
        }
        for lab in labs:
            d = at.get((lab.start, lab.end))
            head = d is None and lab.end in heads
            if head:
                d = heads[lab.end]
            if d is None or d.candidate.meaning_type != "wordnet" or d.features is None:
                # no WordNet sense at the label (a name, a custom row, no row): kept for the accuracy's count
                reason = "no_row" if d is None else d.reason_code
                out.append({"id": lab.id, "split": lab.split, "lemma": lab.lemma, "gold": lab.gold, "reason": reason})
                continue
            out.append(
                {
                    "id": lab.id,
                    "split": lab.split,
                    "lemma": lab.lemma,
                    "gold": lab.gold,
                    "chosen": d.candidate.meaning_id,
                    "reason": d.reason_code,
                    "features": d.features,
                    "right": d.candidate.meaning_id == lab.gold,
                    "options": d.ranking.as_json() if d.ranking is not None else None,
                    "head": head,
                }
            )
        print(f"[{n}/{len(by_doc)}] {path.name}: {len(labs)} labels", file=sys.stderr)
    return out


def binned(pairs: list[tuple[float, bool]]) -> list[tuple[float, float, int, float, float]]:
    """(bin low, bin high, rows, mean confidence, share right) per non-empty bin of (confidence, right) pairs."""
    out = []
    for lo, hi in zip(BINS, BINS[1:]):
        inside = [(p, ok) for p, ok in pairs if lo <= p < hi]
        if inside:
            n = len(inside)
            out.append((lo, min(hi, 1.0), n, sum(p for p, _ in inside) / n, sum(ok for _, ok in inside) / n))
    return out


def reliability(cal: Calibration, rows: list[dict]) -> list[tuple[float, float, int, float, float]]:
    """:func:`binned` over the calibrated confidence of ``rows``."""
    return binned([(cal.probability(r["features"]), r["right"]) for r in rows])


def svg(table: list[tuple], title: str) -> str:
    """A hand-written SVG reliability diagram: share right against mean confidence per bin, the diagonal, and
    each bin's row count."""
    w, h, pad = 420, 420, 50
    side = w - 2 * pad

    def xy(x: float, y: float) -> tuple[float, float]:
        return pad + x * side, h - pad - y * side

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 20}" font-family="sans-serif" '
        'font-size="11">',
        f'<rect x="0" y="0" width="{w}" height="{h + 20}" fill="white"/>',
        f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="13">{title}</text>',
    ]
    x0, y0 = xy(0, 0)
    x1, y1 = xy(1, 1)
    parts.append(f'<rect x="{x0}" y="{y1}" width="{side}" height="{side}" fill="none" stroke="#888"/>')
    parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#bbb" stroke-dasharray="4 3"/>')
    for t in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        tx, ty = xy(t, 0)
        parts.append(f'<text x="{tx}" y="{ty + 15}" text-anchor="middle">{t:.1f}</text>')
        lx, ly = xy(0, t)
        parts.append(f'<text x="{lx - 6}" y="{ly + 4}" text-anchor="end">{t:.1f}</text>')
    parts.append(f'<text x="{w / 2}" y="{h - 8}" text-anchor="middle">meaning_confidence (bin mean)</text>')
    parts.append(f'<text x="14" y="{h / 2}" text-anchor="middle" transform="rotate(-90 14 {h / 2})">share right</text>')
    points = []
    for lo, hi, n, conf, acc in table:
        bx0, _ = xy(lo, 0)
        bx1, by = xy(hi, acc)
        parts.append(
            f'<rect x="{bx0 + 1}" y="{by}" width="{bx1 - bx0 - 2}" height="{y0 - by}" fill="#9ecae1" opacity="0.6"/>'
        )
        px, py = xy(conf, acc)
        points.append(f"{px:.1f},{py:.1f}")
        parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3.5" fill="#08519c"/>')
        parts.append(f'<text x="{(bx0 + bx1) / 2:.1f}" y="{by - 5:.1f}" text-anchor="middle">{n}</text>')
    parts.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="#08519c"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def accuracy_with_threshold(cal: Calibration, rows: list[dict], threshold: float) -> tuple[int, int, int, int]:
    """(right among gold senses, gold senses, gold=none rows abstained, gold=none rows) at ``threshold``."""
    gold = [r for r in rows if r["gold"] != "none"]
    none = [r for r in rows if r["gold"] == "none"]
    right = sum(r["right"] and cal.probability(r["features"]) >= threshold for r in gold)
    dropped = sum(cal.probability(r["features"]) < threshold for r in none)
    return right, len(gold), dropped, len(none)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=Path, help="cache of the collected rows (read if present, else written)")
    ap.add_argument("--no-write", action="store_true", help="print only; leave the JSON file and the picture")
    ap.add_argument("--part", default="0/1", help="K/N: collect only every N-th document from the K-th (0-based)")
    args = ap.parse_args(argv)
    if args.rows and "," in str(args.rows):  # several row files collected in parts: merged
        rows = [r for f in str(args.rows).split(",") for r in json.loads(Path(f).read_text(encoding="utf-8"))]
    elif args.rows and args.rows.is_file():
        rows = json.loads(args.rows.read_text(encoding="utf-8"))
    else:
        k, n = map(int, args.part.split("/"))
        rows = collect((k, n))
        if args.rows:
            args.rows.write_text(json.dumps(rows), encoding="utf-8")
    labels = rows
    rows = [r for r in labels if "features" in r]  # the labels that got a WordNet sense
    dev = [r for r in rows if r["split"] == "dev"]
    held = [r for r in rows if r["split"] == "heldout"]
    today = datetime.date.today().isoformat()
    cal = fit([(r["features"], r["right"]) for r in dev], f"{today}: dev half of sense_labels.tsv, {len(dev)} rows")
    print(f"fitted on {len(dev)} dev rows ({sum(r['right'] for r in dev)} right); held-out rows: {len(held)}")
    for name, part in (("dev", dev), ("held-out", held)):
        print(f"\n{name}: bin        rows  mean conf  share right")
        for lo, hi, n, conf, acc in reliability(cal, part):
            print(f"  [{lo:.1f}, {hi:.1f})  {n:5d}  {conf:9.3f}  {acc:11.3f}")
        high = [r for r in part if cal.probability(r["features"]) >= 0.8]
        if high:
            print(f"  confidence ≥ 0.8: {len(high)} rows, {sum(r['right'] for r in high) / len(high):.3f} right")
    from textguard_pipeline_tests.meanings.sense_eval import load_labels

    gold_labels = {s: sum(lab.gold != "none" for lab in load_labels(s)) for s in ("dev", "heldout")}
    for name, split, part in (("dev", "dev", dev), ("held-out (reported, never chosen on)", "heldout", held)):
        n_gold = gold_labels[split]
        print(f"\n{name}: threshold → right among the {n_gold} gold-synset labels (no WordNet meaning = not right)")
        print("     and gold=none rows that got a WordNet sense but abstain")
        for t in (0.0, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5):
            right, _n, dropped, n_none = accuracy_with_threshold(cal, part, t)
            print(f"  {t:.2f}: {right} = {right / n_gold:.3f}; {dropped}/{n_none} none rows abstained")
    if not args.no_write:
        # the picture is the ranker's (scripts/fit_sense_ranker.py): meaning_confidence is its probability
        CALIBRATION_FILE.write_text(json.dumps(cal.as_json(), indent=1) + "\n", encoding="utf-8")
        print(f"\nwrote {CALIBRATION_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
