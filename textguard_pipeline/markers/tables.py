"""The Parquet shapes of ``candidate_markers`` and ``gated_markers``, and the decision check's rule."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import pandas as pd

from ..lib.spans import Span
from .gate import GateResult, compute_structure_risk
from .model import FALLBACK, GATE_OFF, HARD_REJECT, LOW, MarkerOccurrence, StructureGateConfig

__all__ = [
    "OCCURRENCE_COLUMNS",
    "GATED_COLUMNS",
    "mining_exclusions",
    "occurrences_frame",
    "occurrences_from_frame",
    "gated_frame",
    "decision_violations",
]

# ---------------------------------------------------------------------------
# Tables (the Parquet shapes of candidate_markers and gated_markers)

OCCURRENCE_COLUMNS = [
    "doc_id",
    "start",
    "end",
    "text",
    "prefix",
    "number",
    "kind",
    "is_weak_candidate",
    "line",
    "page",
    "filtered_by",
]
GATED_COLUMNS = [
    "doc_id",
    "start",
    "end",
    "text",
    "value",
    "prefix",
    "number",
    "kind",
    "is_weak_candidate",
    "occurrences",
    "pages_covered",
    "pages",
    "s1_sequence",
    "s2_position",
    "s3_prefix_numbered",
    "decision",
    "structure_risk",
    "reason",
    "fallback",
    "action",
    "kept",
    "gate_enabled",
    "sequence_threshold",
]


def mining_exclusions(chunks: Iterable[Any]) -> list[tuple[int, int]]:
    """Absolute ranges where no marker is mined: code and math blocks, and the inline
    math/code behind placeholders in prose chunks (``parsing.Chunk`` objects)."""
    out: list[tuple[int, int]] = []
    for c in chunks:
        if str(c.chunk_type) in ("code", "math_block"):
            out.append((c.start, c.end))
        elif str(c.chunk_type) == "prose" and c.math_placeholders:
            om = c.offset_map()
            out.extend((om.base + r[2], om.base + r[3]) for r in om.replacements)
    return sorted(out)


def occurrences_frame(doc_id: str, occurrences: Sequence[MarkerOccurrence]):
    rows = [
        [
            doc_id,
            o.span.start,
            o.span.end,
            o.span.text,
            o.prefix,
            o.number,
            o.kind,
            o.is_weak_candidate,
            o.line,
            o.page,
            o.filtered_by,
        ]
        for o in occurrences
    ]
    return pd.DataFrame(rows, columns=OCCURRENCE_COLUMNS).astype(
        {"start": "int64", "end": "int64", "line": "int64", "page": "int64", "is_weak_candidate": "bool"}
    )


def occurrences_from_frame(df: Any) -> list[MarkerOccurrence]:
    out = []
    for r in df.sort_values("start").itertuples(index=False):
        fb = r.filtered_by if isinstance(r.filtered_by, str) and r.filtered_by else None
        out.append(
            MarkerOccurrence(
                Span(int(r.start), int(r.end), r.text, r.kind), r.prefix, r.number, r.kind, int(r.line), int(r.page), fb
            )
        )
    return out


def gated_frame(doc_id: str, result: GateResult, config: StructureGateConfig):
    """One row per distinct candidate; start/end/text = its first occurrence."""
    rows = []
    for c in result.candidates:
        first = c.spans[0] if c.spans else Span(0, 0, "")
        rows.append(
            [
                doc_id,
                first.start,
                first.end,
                first.text,
                c.value,
                c.prefix,
                c.number,
                c.kind,
                c.is_weak_candidate,
                c.occurrences,
                c.pages_covered,
                sorted(set(c.pages)),
                c.s1_sequence,
                c.s2_position,
                c.s3_prefix_numbered,
                c.decision,
                c.structure_risk,
                c.structure_risk_reason,
                c.structure_fallback,
                c.action,
                c.kept,
                config.enabled,
                config.sequence_threshold,
            ]
        )
    return pd.DataFrame(rows, columns=GATED_COLUMNS).astype(
        {
            "start": "int64",
            "end": "int64",
            "occurrences": "int64",
            "pages_covered": "int64",
            "s1_sequence": "Int64",
            "s2_position": "boolean",
            "s3_prefix_numbered": "boolean",
            "fallback": "bool",
            "kept": "bool",
            "gate_enabled": "bool",
            "sequence_threshold": "int64",
            "is_weak_candidate": "bool",
        }
    )


def decision_violations(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of one document's gated_markers whose stored outcome does not follow from its
    stored signals: the §4 matrix (``compute_structure_risk``) re-applied, plus the
    outcome rules (LOW kept, HARD_REJECT dropped unless FALLBACK, FALLBACK only when silent)."""
    rows = list(rows)
    bad: list[dict[str, Any]] = []
    fallback_rows = [r for r in rows if bool(r["fallback"])]
    others_kept = [r for r in rows if bool(r["kept"]) and not bool(r["fallback"])]

    def fail(r: dict[str, Any], expected: str, reason: str) -> None:
        bad.append(
            {
                "start": r["start"],
                "end": r["end"],
                "value": r["value"],
                "expected": expected,
                "found": f"{r['decision']}/{r['structure_risk']}/kept={r['kept']}",
                "reason": reason,
            }
        )

    for r in rows:
        if not bool(r["gate_enabled"]):
            if r["decision"] != GATE_OFF or not bool(r["kept"]):
                fail(r, f"{GATE_OFF}/kept", "gate disabled: every candidate passes")
            continue
        sig = (r["s1_sequence"], r["s2_position"], r["s3_prefix_numbered"])
        if any(pd.isna(v) for v in sig):
            fail(r, "S1/S2/S3 set", "missing signal")
            continue
        expected, _ = compute_structure_risk(int(sig[0]), bool(sig[1]), bool(sig[2]), int(r["sequence_threshold"]))
        if r["decision"] != expected:
            fail(r, expected, "decision does not follow the §4 matrix from the stored signals")
            continue
        if bool(r["fallback"]):
            if r["structure_risk"] != FALLBACK or not bool(r["kept"]) or r["decision"] == LOW:
                fail(r, "FALLBACK/kept", "a fallback marker is a kept, tagged, rejected candidate")
        elif r["structure_risk"] != r["decision"]:
            fail(r, r["decision"], "structure_risk differs from decision")
        elif r["decision"] == LOW and not bool(r["kept"]):
            fail(r, "kept", "LOW candidates are kept")
        elif r["decision"] == HARD_REJECT and bool(r["kept"]):
            fail(r, "dropped", "HARD_REJECT candidates are dropped")
    if fallback_rows and others_kept:
        for r in fallback_rows:
            fail(r, "no fallback", f"fallback used although {len(others_kept)} marker(s) were kept")
    return bad
