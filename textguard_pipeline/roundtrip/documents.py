"""Whole documents back from the round trip: the `rewritten_documents` table, its rules and review page.

A document is put back together chunk by chunk in source order: every non-prose chunk byte for byte
from the source, every prose chunk as its `rewritten_chunks` row has it (the rewrite, or on fallback the
source text). ``segments`` records where each chunk went, so the checks can prove the non-prose bytes
verbatim and in order; ``originals`` records how often each protected original must appear. Dagster-free.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any, Iterable, Mapping

import pandas as pd

from ..lib.placeholders import PLACEHOLDER_RE

DOCUMENT_COLUMNS = [
    "doc_id",
    "path",
    "format",
    "text",
    "n_chunks",
    "n_rewritten",
    "n_fallback",
    "share_rewritten",
    "status",
    "segments",
    "originals",
]
#: `status`: every prose chunk rewritten | some fell back | the text is the source (all fell back, or no prose)
DOCUMENT_STATUSES = ("rewritten", "partial", "source")


def _seq(v: Any) -> list:
    return [] if v is None else list(v)


def _required(protected_text: str, mapping: Mapping[str, str]) -> Counter[str]:
    """How often each original must appear in a chunk (an original inside another counts too)."""
    counts = Counter(m.group(0) for m in PLACEHOLDER_RE.finditer(protected_text) if m.group(0) in mapping)
    out: Counter[str] = Counter()
    for orig in {mapping[p] for p in counts}:
        if orig:
            out[orig] = sum(n * (1 if mapping[p] == orig else mapping[p].count(orig)) for p, n in counts.items())
    return out


def _reason(problems: Iterable[str]) -> str:
    """Why a chunk fell back: the findings of its attempts (the last line only restates the fallback)."""
    found = [p for p in problems if not p.startswith("fallback:")]
    return "; ".join(found)[:400] or "fell back"


def assemble(source: str, parsed: pd.DataFrame, rewritten: pd.DataFrame) -> tuple[str, list[dict[str, Any]], Counter]:
    """(document text, segments, required originals) from the source, its chunks and their rewrites."""
    rows = {int(r["chunk_index"]): r for r in rewritten.to_dict("records")} if len(rewritten) else {}
    parts: list[str] = []
    segments: list[dict[str, Any]] = []
    required: Counter[str] = Counter()
    pos = 0
    for c in parsed.sort_values("chunk_index").to_dict("records"):
        i, start, end, kind = int(c["chunk_index"]), int(c["start"]), int(c["end"]), str(c["chunk_type"])
        src = source[start:end]
        r = rows.get(i) if kind == "prose" else None
        if r is None:
            out, status, reason = src, ("verbatim" if kind != "prose" else "missing"), ""
            if kind == "prose":
                reason = "no rewritten_chunks row: the source text is kept"
        else:
            out, status = str(r["rewritten_text"]), str(r["status"])
            reason = _reason(_seq(r["problems"])) if status == "fallback" else ""
            if status == "fallback" or out == src:
                out = src
            required.update(_required(str(r["protected_text"]), dict(r["placeholders"] or {})))
        segments.append(
            {
                "chunk_index": i,
                "chunk_type": kind,
                "start": start,
                "end": end,
                "out_start": pos,
                "out_end": pos + len(out),
                "status": status,
                "reason": reason,
            }
        )
        parts.append(out)
        pos += len(out)
    return "".join(parts), segments, required


def build_rewritten_documents(
    doc_id: str, source: str, fmt: str, path: str, parsed: pd.DataFrame, rewritten: pd.DataFrame
) -> pd.DataFrame:
    """One row: the whole rewritten document and how much of it was rewritten."""
    text, segments, required = assemble(source, parsed, rewritten)
    prose = [s for s in segments if s["chunk_type"] == "prose"]
    n_fallback = sum(s["status"] in ("fallback", "missing") for s in prose)
    n_rewritten = len(prose) - n_fallback
    share = n_rewritten / len(prose) if prose else 0.0
    status = "source" if n_rewritten == 0 else ("partial" if n_fallback else "rewritten")
    row = {
        "doc_id": doc_id,
        "path": path,
        "format": fmt,
        "text": text,
        "n_chunks": len(segments),
        "n_rewritten": n_rewritten,
        "n_fallback": n_fallback,
        "share_rewritten": round(share, 4),
        "status": status,
        "segments": segments,
        "originals": [{"original": o, "required": int(n)} for o, n in sorted(required.items())],
    }
    return pd.DataFrame([row], columns=DOCUMENT_COLUMNS)


# -- rules (the asset's blocking checks) -----------------------------------------------------------


def verbatim_failures(df: pd.DataFrame, source: str) -> list[dict[str, Any]]:
    """Segments tile the source and the text in order; non-prose and fallback chunks are byte for byte."""
    out: list[dict[str, Any]] = []
    for r in df.to_dict("records"):
        text, src_pos, out_pos = str(r["text"]), 0, 0
        for s in _seq(r["segments"]):
            where = {"chunk_index": int(s["chunk_index"]), "chunk_type": s["chunk_type"]}
            if s["start"] != src_pos or s["out_start"] != out_pos:
                out.append(where | {"reason": f"out of order: source {s['start']} (expected {src_pos})"})
            src_pos, out_pos = int(s["end"]), int(s["out_end"])
            keep = s["chunk_type"] != "prose" or s["status"] in ("fallback", "missing")
            if keep and text[s["out_start"] : s["out_end"]] != source[s["start"] : s["end"]]:
                out.append(where | {"reason": "not the source's bytes", "expected": source[s["start"] : s["end"]][:80]})
        if src_pos != len(source) or out_pos != len(text):
            out.append({"reason": f"segments end at {src_pos}/{out_pos}, document lengths {len(source)}/{len(text)}"})
    return out


def originals_failures(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Every protected original at least as often as the chunks' protected texts ask for it."""
    out = []
    for r in df.to_dict("records"):
        text = str(r["text"])
        for o in _seq(r["originals"]):
            have = text.count(o["original"])
            if have < int(o["required"]):
                out.append({"reason": "protected original lost", "original": o["original"][:80], "found": have})
    return out


_TEX_ENV = re.compile(r"\\(begin|end)\{([^{}\n]*)\}")
_TEX_SECTION = re.compile(r"\\(part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\b\*?")
_MD_HEADING = re.compile(r"^(#{1,6})[ \t]", re.M)
_MD_TARGET = re.compile(r"\]\(([^()\s]+)")
_FENCE = re.compile(r"^[ \t]*(```|~~~)", re.M)
_RST_DIRECTIVE = re.compile(r"^[ \t]*\.\.[ \t]+([\w:+-]+)::", re.M)
_RST_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+<>:._])\1{3,}[ \t]*$", re.M)


def format_skeleton(text: str, fmt: str) -> dict[str, Any]:
    """What the format depends on: LaTeX environments in sequence, sectioning commands, brace balance;
    Markdown headings, link/image targets, code fences; reST (``txt``) section underlines and directives."""
    if fmt == "tex":
        return {
            "environments": [f"{a} {n}" for a, n in _TEX_ENV.findall(text)],
            "sectioning commands": _TEX_SECTION.findall(text),
            "brace balance": len(re.findall(r"(?<!\\)\{", text)) - len(re.findall(r"(?<!\\)\}", text)),
        }
    if fmt == "md":
        return {
            "headings": _MD_HEADING.findall(text),
            "link and image targets": sorted(_MD_TARGET.findall(text)),
            "code fences": len(_FENCE.findall(text)),
        }
    return {"section underlines": _RST_UNDERLINE.findall(text), "directives": _RST_DIRECTIVE.findall(text)}


def skeleton_failures(df: pd.DataFrame, source: str) -> list[dict[str, Any]]:
    out = []
    for r in df.to_dict("records"):
        want, have = format_skeleton(source, str(r["format"])), format_skeleton(str(r["text"]), str(r["format"]))
        for name in want:
            if want[name] != have[name]:
                out.append(
                    {"reason": f"{name} changed", "expected": str(want[name])[:200], "found": str(have[name])[:200]}
                )
    return out


# -- the review page ------------------------------------------------------------------------------


def _highlight(text: str, terms: list[str]) -> str:
    if not terms:
        return html.escape(text)
    rx = re.compile("|".join(re.escape(t) for t in sorted(set(terms), key=len, reverse=True)[:500]))
    parts, pos = [], 0
    for m in rx.finditer(text):
        parts.append(html.escape(text[pos : m.start()]) + f"<mark>{html.escape(m.group(0))}</mark>")
        pos = m.end()
    return "".join(parts) + html.escape(text[pos:])


_STYLE = """body{font-family:system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse;width:100%}
td,th{vertical-align:top;border:1px solid #ccc;padding:.4em;white-space:pre-wrap;font-size:.9em;width:46%}
td.k{width:8%;white-space:normal;font-size:.8em;color:#555}tr.verbatim td{background:#f4f4f4;color:#666}
tr.fallback td{background:#fff0f0}tr.missing td{background:#fff0f0}mark{background:#ffe58a}
.reason{display:block;color:#a00;font-size:.85em;margin-top:.3em}"""


def review_html(row: Mapping[str, Any], source: str) -> str:
    """Source and rewrite side by side, chunk by chunk; protected terms highlighted; each fallback marked
    with its reason; everything html-escaped."""
    text = str(row["text"])
    terms = [o["original"] for o in _seq(row["originals"]) if o["original"].strip()]
    out = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(str(row['doc_id']))} — rewrite review"
        f"</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(str(row['path']))}</h1><p>status <b>{html.escape(str(row['status']))}</b>: "
        f"{row['n_rewritten']} prose chunks rewritten, {row['n_fallback']} kept as the source "
        f"({float(row['share_rewritten']):.0%} rewritten); {row['n_chunks']} chunks in all. "
        "Protected terms are <mark>highlighted</mark>; grey rows are not prose and kept byte for byte.</p>",
        "<table><tr><th>chunk</th><th>source</th><th>rewrite</th></tr>",
    ]
    for s in _seq(row["segments"]):
        src, new = source[s["start"] : s["end"]], text[s["out_start"] : s["out_end"]]
        status = str(s["status"])
        label = f"{s['chunk_index']} · {html.escape(str(s['chunk_type']))}<br>{html.escape(status)}"
        reason = f"<span class='reason'>{html.escape(str(s['reason']))}</span>" if s["reason"] else ""
        out.append(
            f"<tr class='{html.escape(status)}'><td class='k'>{label}</td><td>{_highlight(src, terms)}</td>"
            f"<td>{_highlight(new, terms)}{reason}</td></tr>"
        )
    out.append("</table></body></html>")
    return "\n".join(out)
