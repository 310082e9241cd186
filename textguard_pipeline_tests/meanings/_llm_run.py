"""Test helper run as a subprocess: materialize resolved_meanings for the corpus of the environment
(``TEXTGUARD_CORPUS_DIR`` …, an LLM at ``TEXTGUARD_LLM_URL``) and write each document's metadata as JSON.

``python -m textguard_pipeline_tests.meanings._llm_run OUT.json`` (exit status 0 iff the run was ok).
"""

from __future__ import annotations

import json
import sys


def main(out: str) -> int:
    from dagster import AssetKey, DagsterInstance

    from textguard_pipeline.operations.report import materialize_corpus

    inst = DagsterInstance.ephemeral()
    res = materialize_corpus(
        instance=inst, select="source_documents parsed_chunks resolved_meanings", log=lambda *_: None
    )
    meta = {}
    for rec in inst.fetch_materializations(AssetKey("resolved_meanings"), limit=100).records:
        m = rec.asset_materialization
        meta.setdefault(m.partition, {k: getattr(v, "value", None) for k, v in m.metadata.items()})
    logs = [
        {"time": r.timestamp, "message": r.user_message}
        for run_id in res.runs
        for r in inst.all_logs(run_id)
        if "LLM cost estimate" in (r.user_message or "")
    ]
    with open(out, "w", encoding="utf-8") as fh:
        json.dump({"ok": res.ok, "metadata": meta, "estimate_logs": logs}, fh, default=str)
    return 0 if res.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
