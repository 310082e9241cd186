"""Suppression rules (seed 003: never re-suggest a rejected entry) and the row rules shared by the
resolver's self-check and the asset checks."""

from __future__ import annotations

import csv
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

import pandas as pd

from ..settings import default_suppressions_path  # noqa: F401  (re-exported: core.meanings)
from .candidates import MEANING_TYPES, SUPPRESSION_MODES, WIKIDATA_ID, merge_key, normalize_label
from .mentions import INDEX_TYPES

# ---------------------------------------------------------------------------
# Suppression


class SuppressionError(ValueError):
    """The suppression file is malformed (the message names the file and line)."""


@dataclass(frozen=True)
class SuppressionRule:
    index_type: str  # "" = every index type
    normalized_label: str
    meaning_id: str
    meaning_type: str
    scope: str  # project | document:<doc_id> | page_range:<a>-<b>
    suppression_mode: str  # block_suggestion | block_all
    reason: str = ""

    def in_scope(self, doc_id: str, page: int) -> bool:
        if self.scope in ("", "project"):
            return True
        kind, _, arg = self.scope.partition(":")
        if kind == "document":
            return arg == doc_id
        if kind == "page_range":
            a, _, b = arg.partition("-")
            return int(a) <= page <= int(b or a)
        return False

    def matches(self, row: Mapping[str, Any], doc_id: str) -> bool:
        """block_suggestion: the suppressed meaning (by meaning_id; by label for custom rules);
        block_all: the meaning or the label, whatever meaning the row resolved to."""
        if self.index_type and row.get("index_type") != self.index_type:
            return False
        if not self.in_scope(doc_id, int(row.get("page") or 0)):
            return False
        mid = row.get("meaning_id") or ""
        label = row.get("normalized_label") or ""
        if self.suppression_mode == "block_all":
            return bool(
                (self.meaning_id and mid == self.meaning_id)
                or (self.normalized_label and label == self.normalized_label)
            )
        if self.meaning_id:
            return mid == self.meaning_id
        # A label-only suggestion block is the fallback for custom entries (seed: merge by label only
        # when there is no meaning id); a meaning_type column widens it to that type.
        if row.get("meaning_type") != (self.meaning_type or "custom"):
            return False
        return bool(self.normalized_label) and label == self.normalized_label


SUPPRESSION_COLUMNS = ("meaning_id", "normalized_label", "index_type", "scope", "suppression_mode")
_SCOPE = re.compile(r"^(?:project|document:[a-z0-9._-]+|page_range:\d+(?:-\d+)?)$")


def load_suppressions(path: str | Path | None) -> list[SuppressionRule]:
    """Rules from a CSV with columns meaning_id, normalized_label, index_type, scope, suppression_mode
    (optional: meaning_type, reason). A missing file means no rules; a malformed one raises."""
    if not path:
        return []
    p = Path(path)
    if not p.is_file():
        return []
    with p.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(line for line in fh if not line.lstrip().startswith("#")))
    if rows:
        missing = [c for c in SUPPRESSION_COLUMNS if c not in rows[0]]
        if missing:
            raise SuppressionError(f"{p}: missing columns {missing} (need {', '.join(SUPPRESSION_COLUMNS)})")
    out = []
    for n, r in enumerate(rows, 2):
        mode = (r.get("suppression_mode") or "block_suggestion").strip()
        scope = (r.get("scope") or "project").strip()
        itype = (r.get("index_type") or "").strip()
        mid = (r.get("meaning_id") or "").strip()
        label = normalize_label(r.get("normalized_label") or "")
        mtype = (r.get("meaning_type") or "").strip()
        if mode not in SUPPRESSION_MODES:
            raise SuppressionError(f"{p} line {n}: suppression_mode {mode!r} is not one of {SUPPRESSION_MODES}")
        if not _SCOPE.match(scope):
            raise SuppressionError(
                f"{p} line {n}: scope {scope!r} is not project, document:<doc_id> or page_range:<a>-<b>"
            )
        if itype and itype not in INDEX_TYPES:
            raise SuppressionError(f"{p} line {n}: index_type {itype!r} is not one of {INDEX_TYPES}")
        if mtype and mtype not in MEANING_TYPES:
            raise SuppressionError(f"{p} line {n}: meaning_type {mtype!r} is not one of {MEANING_TYPES}")
        if not mid and not label:
            raise SuppressionError(f"{p} line {n}: a rule needs a meaning_id or a normalized_label")
        out.append(SuppressionRule(itype, label, mid, mtype, scope, mode, (r.get("reason") or "").strip()))
    return out


def suppressing_rule(rules: Sequence[SuppressionRule], row: Mapping[str, Any], doc_id: str) -> SuppressionRule | None:
    return next((r for r in rules if r.matches(row, doc_id)), None)


# ---------------------------------------------------------------------------
# Row rules (shared by the resolver's self-check and the asset checks)


def meaning_id_violations(df: pd.DataFrame) -> list[dict[str, Any]]:
    """meaning_id set iff meaning_type is wordnet/wikidata, with the right id shape."""
    out = []
    for r in df.itertuples(index=False):
        mid, mtype = r.meaning_id, r.meaning_type
        has = isinstance(mid, str) and mid != ""
        why = None
        if mtype not in MEANING_TYPES:
            why = f"meaning_type {mtype!r} is not one of {MEANING_TYPES}"
        elif mtype == "custom" and has:
            why = "custom meaning with a meaning_id"
        elif mtype != "custom" and not has:
            why = f"{mtype} meaning without meaning_id"
        elif mtype == "wikidata" and not WIKIDATA_ID.match(mid):
            why = f"wikidata id {mid!r} is not wikidata:Q…"
        elif mtype == "wordnet":
            lex = str(getattr(r, "lexicon", "") or "").split(":", 1)[0]
            if lex and not mid.startswith(lex + "-"):
                why = f"wordnet id {mid!r} is not prefixed by its lexicon {lex!r}"
        if why:
            out.append(
                {
                    "start": r.start,
                    "end": r.end,
                    "text": r.text,
                    "meaning_type": mtype,
                    "meaning_id": mid,
                    "reason": why,
                }
            )
    return out


def merge_key_violations(df: pd.DataFrame) -> list[dict[str, Any]]:
    """merge_key recomputes from the row; one entry_label and one meaning per merge key."""
    out = []
    labels: dict[str, set] = defaultdict(set)
    meanings: dict[str, set] = defaultdict(set)
    for r in df.itertuples(index=False):
        mid = r.meaning_id if isinstance(r.meaning_id, str) and r.meaning_id else None
        expected = merge_key(r.index_type, r.meaning_type, mid, r.normalized_label)
        if r.merge_key != expected:
            out.append(
                {
                    "start": r.start,
                    "end": r.end,
                    "text": r.text,
                    "expected": expected,
                    "found": r.merge_key,
                    "reason": "merge_key does not follow from the row",
                }
            )
        if normalize_label(r.label) != r.normalized_label:
            out.append(
                {
                    "start": r.start,
                    "end": r.end,
                    "text": r.text,
                    "expected": normalize_label(r.label),
                    "found": r.normalized_label,
                    "reason": "normalized_label is not normalize_label(label)",
                }
            )
        labels[r.merge_key].add(r.entry_label)
        meanings[r.merge_key].add((r.index_type, r.meaning_type, mid))
    for key, ls in labels.items():
        if len(ls) > 1:
            out.append(
                {
                    "merge_key": key,
                    "found": sorted(map(str, ls))[:5],
                    "reason": "several entry labels for one merge key",
                }
            )
    for key, ms in meanings.items():
        if len(ms) > 1:
            out.append(
                {"merge_key": key, "found": sorted(map(str, ms))[:5], "reason": "several meanings for one merge key"}
            )
    return out


def suppression_violations(df: pd.DataFrame, rules: Sequence[SuppressionRule], doc_id: str) -> list[dict[str, Any]]:
    out = []
    if not rules or df.empty:
        return out
    # Every rule names a meaning_id or a label and matches only rows that carry it: test those rows only.
    mids = {r.meaning_id for r in rules if r.meaning_id}
    labels = {r.normalized_label for r in rules if r.normalized_label}
    hit = df["meaning_id"].isin(mids) if "meaning_id" in df else pd.Series(False, index=df.index)
    if "normalized_label" in df:
        hit |= df["normalized_label"].isin(labels)
    if not hit.any():
        return out
    for row in df[hit].to_dict("records"):
        rule = suppressing_rule(rules, row, doc_id)
        if rule is not None:
            out.append(
                {
                    "start": row["start"],
                    "end": row["end"],
                    "text": row["text"],
                    "meaning_id": row["meaning_id"],
                    "reason": f"suppressed by {rule.suppression_mode} rule {rule.meaning_id or rule.normalized_label!r}",
                }
            )
    return out


def frame_rules_for(df: pd.DataFrame, rules: Sequence[SuppressionRule], doc_id: str) -> dict[str, list[dict[str, Any]]]:
    """All row-rule violations of a resolved_meanings frame (used by tests and notebooks)."""
    return {
        "meaning_id": meaning_id_violations(df),
        "merge_keys": merge_key_violations(df),
        "suppression": suppression_violations(df, rules, doc_id),
    }
