"""Asset checks built from core/ invariants by factories (never copied per asset).

Checks are not partitioned: in a run over several documents a check executes
once and receives every document of the run as ``{doc_id: DataFrame}``; the
IO manager gives the same dict shape for one document.
"""

from typing import Any, Callable, Iterable, Mapping

import pandas as pd
from dagster import (
    AssetCheckExecutionContext,
    AssetCheckResult,
    AssetChecksDefinition,
    AssetCheckSeverity,
    AssetIn,
    MetadataValue,
    asset_check,
)

from ..lib.spans import check_char_ranges
from .io_manager import MissingPartition
from .rule_memo import precomputed

#: rule(doc_id, frame, source_text_or_None) -> failing rows as dicts
Rule = Callable[[str, pd.DataFrame, str | None], Iterable[Mapping[str, Any]]]

MAX_REPORTED = 20
#: documents named in a result's ``failing_documents`` (check_history.py reads it)
FAILING_DOCS_CAP = 100

#: asset → {check name: (rule, with_sources)} of its blocking ERROR frame checks. ``per_document`` applies
#: them to each document of a multi-document run and isolates a document that breaks one (runner.py), so
#: that one document's failed invariant does not stop the other documents' downstream steps.
BLOCKING_RULES: dict[str, dict[str, tuple[Rule, bool]]] = {}
#: asset → {check name: (rule, with_sources)} of every frame check: an asset step applies those its run
#: includes and its check step reuses the results (rule_memo.py).
FRAME_RULES: dict[str, dict[str, tuple[Rule, bool]]] = {}


def _frames(value: Any) -> dict[str, pd.DataFrame]:
    if isinstance(value, pd.DataFrame):
        return {"": value}
    if isinstance(value, Mapping):
        return {k: v for k, v in value.items() if isinstance(v, pd.DataFrame)}
    return {}


def source_texts(source_documents: Any) -> dict[str, str]:
    """doc_id → text of the documents that were read."""
    out: dict[str, str] = {}
    for df in _frames(source_documents).values():
        # columns, not itertuples: a check step calls this for every document of the run
        status = df["status"].tolist() if "status" in df else ["ok"] * len(df)
        for doc_id, text, st in zip(df["doc_id"].tolist(), df["text"].tolist(), status):
            if st == "ok":
                out[doc_id] = text
    return out


def failures_markdown(failures: list[Mapping[str, Any]], limit: int = MAX_REPORTED) -> str:
    if not failures:
        return "no failures"
    cols = list(dict.fromkeys(k for f in failures[:limit] for k in f))
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for f in failures[:limit]:
        cells = [str(f.get(c, "")).replace("\n", "⏎").replace("|", "\\|")[:200] for c in cols]
        lines.append("| " + " | ".join(cells) + " |")
    if len(failures) > limit:
        lines.append(f"\n… and {len(failures) - limit} more")
    return "\n".join(lines)


def result_from_failures(
    failures: list[Mapping[str, Any]],
    *,
    checked: int,
    severity: AssetCheckSeverity = AssetCheckSeverity.ERROR,
    extra: Mapping[str, Any] | None = None,
) -> AssetCheckResult:
    docs = sorted({str(f.get("doc_id", "")) for f in failures if f.get("doc_id")})
    metadata: dict[str, Any] = {
        "rows_checked": checked,
        "failures": len(failures),
        "failing_documents": MetadataValue.json(docs[:FAILING_DOCS_CAP]),
        "first_failures": MetadataValue.md(failures_markdown(failures)),
    }
    if extra:
        metadata.update(extra)
    return AssetCheckResult(passed=not failures, severity=severity, metadata=metadata)


def frame_check(
    asset: str,
    name: str,
    rule: Rule,
    *,
    description: str,
    blocking: bool = True,
    with_sources: bool = True,
    severity: AssetCheckSeverity = AssetCheckSeverity.ERROR,
) -> AssetChecksDefinition:
    """A check that applies ``rule`` to every document's frame of ``asset``."""
    ins = {"source_documents": AssetIn("source_documents")} if with_sources else {}
    if blocking and severity == AssetCheckSeverity.ERROR:  # what Dagster blocks downstream on
        BLOCKING_RULES.setdefault(asset, {})[name] = (rule, with_sources)
    FRAME_RULES.setdefault(asset, {})[name] = (rule, with_sources)

    def evaluate(value: Any, source_documents: Any = None) -> AssetCheckResult:
        texts = source_texts(source_documents) if with_sources else {}
        failures: list[Mapping[str, Any]] = []
        checked = 0
        for doc_id, df in _frames(value).items():
            checked += len(df)
            key = doc_id or (str(df["doc_id"].iloc[0]) if len(df) and "doc_id" in df else "")
            text = texts.get(key)
            done = precomputed(df, name, text if with_sources else None)
            for f in done if done is not None else rule(key, df, text):
                failures.append({"doc_id": key, **f})
        return result_from_failures(failures, checked=checked, severity=severity)

    if with_sources:

        @asset_check(asset=asset, name=name, description=description, blocking=blocking, additional_ins=ins)
        def _check(context: AssetCheckExecutionContext, value, source_documents) -> AssetCheckResult:
            return evaluate(value, source_documents)

    else:

        @asset_check(asset=asset, name=name, description=description, blocking=blocking)
        def _check(context: AssetCheckExecutionContext, value) -> AssetCheckResult:  # type: ignore[no-redef]
            return evaluate(value)

    return _check


def char_range_rule(doc_id: str, df: pd.DataFrame, source: str | None) -> list[dict[str, Any]]:
    """Every row's ``text`` is ``source[start:end]`` (the shared span contract)."""
    if df.empty:
        return []
    if source is None:
        return [{"reason": "source document not available"}]
    rows = df[["start", "end", "text"]].to_dict("records")
    return [v.as_dict() | {"doc_id": doc_id} for v in check_char_ranges(rows, source, limit=MAX_REPORTED * 5)]


def char_range_check(asset: str, *, blocking: bool = True) -> AssetChecksDefinition:
    """Blocking check: every span row of ``asset`` quotes the document exactly."""
    return frame_check(
        asset,
        f"{asset}_char_ranges",
        char_range_rule,
        description=f"Every row of {asset} has text == source_documents.text[start:end] (absolute offsets).",
        blocking=blocking,
    )


def documents_ok_check(asset: str) -> AssetChecksDefinition:
    """Non-blocking check: no readable document of the run was left without output.

    Documents whose source could not be read are reported once, by
    ``source_documents_readable``, not again here.
    """

    @asset_check(
        asset=asset,
        name=f"{asset}_documents_ok",
        description=f"Every readable document of the run produced {asset} (failures are isolated, then reported here).",
        blocking=False,
        additional_ins={"source_documents": AssetIn("source_documents")},
    )
    def _check(context: AssetCheckExecutionContext, value, source_documents) -> AssetCheckResult:
        readable = source_texts(source_documents)
        values = value if isinstance(value, Mapping) else {}
        failures = [
            {
                "doc_id": doc_id,
                "reason": v.reason or "no output: the document failed in this asset or upstream (see the run log)",
            }
            for doc_id, v in values.items()
            if isinstance(v, MissingPartition) and (doc_id in readable or v.reason)
        ]
        return result_from_failures(failures, checked=len(values))

    return _check
