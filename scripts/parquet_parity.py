"""Materialize a corpus into a fresh warehouse, or compare two warehouses file by file.

Used to prove that a refactor changes nothing (issue "one house"):

    python scripts/parquet_parity.py snapshot /tmp/before          # on the old commit
    python scripts/parquet_parity.py snapshot /tmp/after           # on the new commit
    python scripts/parquet_parity.py compare /tmp/before /tmp/after

``snapshot DIR`` runs ``textguard report`` over the corpus (default: data/corpus) with a fresh
DAGSTER_HOME and warehouse under DIR. ``compare`` reads every ``<asset>/<doc>.parquet`` on both
sides, drops the per-run columns below, sorts the rows and requires equal frames; it lists every
file that is missing on one side or differs, and exits 1 when anything does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

#: Columns that legitimately change between runs (run ids, timings, settings hashes).
PER_RUN_COLUMNS = frozenset({"run_id", "settings_hash", "materialized_at", "seconds", "latency_s"})
#: Columns a later change may add on purpose; compared when both sides have them.
ROOT = Path(__file__).resolve().parents[1]


def snapshot(out: Path, corpus: Path) -> int:
    if out.exists():
        shutil.rmtree(out)
    home = out / "dagster_home"
    home.mkdir(parents=True)
    shutil.copy(ROOT / "deploy" / "sqlite" / "dagster.yaml", home / "dagster.yaml")
    env = dict(
        os.environ, DAGSTER_HOME=str(home), TEXTGUARD_WAREHOUSE=str(out / "warehouse"), TEXTGUARD_CORPUS_DIR=str(corpus)
    )
    exe = Path(sys.executable).with_name("textguard")
    return subprocess.run([str(exe), "report", "--out", str(out / "reports"), "--quiet"], env=env).returncode


def _canonical(df: pd.DataFrame) -> pd.DataFrame:
    df = df.drop(columns=[c for c in df.columns if c in PER_RUN_COLUMNS])
    df = df[sorted(df.columns)]
    key = df.astype(str)
    order = key.sort_values(list(key.columns), kind="stable").index
    return df.loc[order].reset_index(drop=True)


def _files(base: Path) -> dict[str, Path]:
    return {str(p.relative_to(base)): p for p in sorted(base.rglob("*.parquet"))}


def compare(a: Path, b: Path, ignore_new_columns: bool) -> int:
    fa, fb = (
        _files(a / "warehouse" if (a / "warehouse").is_dir() else a),
        _files(b / "warehouse" if (b / "warehouse").is_dir() else b),
    )
    problems = [f"only in {a}: {k}" for k in sorted(set(fa) - set(fb))]
    problems += [f"only in {b}: {k}" for k in sorted(set(fb) - set(fa))]
    for key in sorted(set(fa) & set(fb)):
        da, db = pd.read_parquet(fa[key]), pd.read_parquet(fb[key])
        if ignore_new_columns:
            db = db[[c for c in db.columns if c in da.columns]]
        ca, cb = _canonical(da), _canonical(db)
        if list(ca.columns) != list(cb.columns):
            problems.append(f"{key}: columns differ: {sorted(set(ca.columns) ^ set(cb.columns))}")
            continue
        if len(ca) != len(cb):
            problems.append(f"{key}: {len(ca)} rows vs {len(cb)}")
            continue
        if not ca.astype(str).equals(cb.astype(str)):
            diff = (ca.astype(str) != cb.astype(str)).any()
            problems.append(f"{key}: values differ in {sorted(diff[diff].index)}")
    print(f"compared {len(set(fa) & set(fb))} files: {len(problems)} difference(s)")
    for p in problems:
        print("  " + p)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("snapshot")
    s.add_argument("out", type=Path)
    s.add_argument("--corpus", type=Path, default=ROOT / "data" / "corpus")
    c = sub.add_parser("compare")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument(
        "--ignore-new-columns",
        action="store_true",
        help="columns present only on the second side are not differences (a feature added them)",
    )
    args = p.parse_args(argv)
    if args.cmd == "snapshot":
        return snapshot(args.out.resolve(), args.corpus.resolve())
    return compare(args.a, args.b, args.ignore_new_columns)


if __name__ == "__main__":
    sys.exit(main())
