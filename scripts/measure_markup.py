"""Measure how term protection treats markup on a folder of documents (issue 45).

    .venv/bin/python scripts/measure_markup.py FOLDER [--no-ner]

For the prose chunks of every ``.tex``/``.md``/``.txt``/``.rst`` file under FOLDER: the share of URLs, LaTeX
reference arguments and Markdown targets + inline code that lie whole inside one placeholder (a term or the
parser's ⟨CODE⟩/⟨MATH⟩), and how many a term cuts; the share of NER terms holding markup; the share of prose
characters hidden. The occurrences are found by patterns of this script, not by the finder under test, and it
uses only APIs older than the finder, so the same script measures an older checkout (``PYTHONPATH=...``).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

from textguard_pipeline.ingest.documents import FORMATS
from textguard_pipeline.ingest.parsing import parse_document
from textguard_pipeline.protection import TermProtectionConfig, TermProtector

_URL = re.compile(r"https?://[^\s<>\"'`{}|\\\]\[()]+")
_TEX_ARG = re.compile(r"\\(?:ref|eqref|autoref|cref|Cref|pageref|label|url|href|cite[a-zA-Z]*|includegraphics)\*?"
                      r"(?:\[[^\]\n]*\])*\{([^{}\n]*)\}")  # fmt: skip
_MD_TARGET = re.compile(r"\]\(([^()\s]+)[^()\n]*\)")
_MD_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_MARKUP_IN_TERM = re.compile(r"\\[A-Za-z]+|[{}]|(?<!\\)&|\]\(|`|</?[A-Za-z][^<>]*>|https?://")


def _trim(text: str, s: int, e: int) -> int:
    while e > s and text[e - 1] in ".,;:!?'\"":
        e -= 1
    return e


def _covers(ranges: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(a <= s and e <= b for a, b in ranges)


def _cut(ranges: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(a < e and s < b and not (a <= s and e <= b) and not (s <= a and b <= e) for a, b in ranges)


def measure(folder: Path, use_ner: bool = True) -> dict:
    protector = TermProtector(TermProtectionConfig(use_ner=use_ner))
    stats: Counter = Counter()
    held: list[str] = []
    seconds = 0.0
    for path in sorted(p for p in folder.rglob("*") if p.suffix.lower() in FORMATS and p.is_file()):
        fmt = FORMATS[path.suffix.lower()]
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        stats["documents"] += 1
        prose = [c for c in parse_document(text, fmt) if c.chunk_type == "prose"]
        t0 = time.perf_counter()
        protected = protector.protect_many(prose)
        seconds += time.perf_counter() - t0
        for pc in protected:
            c = pc.chunk
            src = text[c.start : c.end]
            om = c.offset_map()
            parser = [om.span_to_source(m.start(), m.end()) for m in re.finditer(r"⟨(?:CODE|MATH)_\d+⟩", c.text)]
            terms = [(t.start, t.end) for t in pc.terms]
            whole = terms + parser
            stats["prose_chars"] += len(src)
            stats["hidden_chars"] += sum(e - s for s, e in terms)
            groups = [("url", [(m.start(), _trim(src, m.start(), m.end())) for m in _URL.finditer(src)])]
            if fmt == "tex":
                groups.append(("tex_arg", [m.span(1) for m in _TEX_ARG.finditer(src) if m.end(1) > m.start(1)]))
            if fmt == "md":
                groups.append(("md", [m.span(1) for m in _MD_TARGET.finditer(src)] + [m.span() for m in _MD_CODE.finditer(src)]))  # fmt: skip
            for name, spans in groups:
                for s, e in spans:
                    s, e = s + c.start, e + c.start
                    stats[f"{name}_total"] += 1
                    stats[f"{name}_whole"] += _covers(whole, s, e)
                    stats[f"{name}_cut"] += _cut(terms, s, e)
            for t in pc.terms:
                if t.source == "ner":
                    stats["ner_terms"] += 1
                    if _MARKUP_IN_TERM.search(t.original):
                        stats["ner_with_markup"] += 1
                        held.append(t.original)
    stats["seconds"] = round(seconds, 2)
    return {"stats": dict(stats), "ner_with_markup_examples": held[:15]}


def report(result: dict) -> str:
    s = result["stats"]

    def pct(a: str, b: str) -> str:
        return f"{100 * s.get(a, 0) / s[b]:.1f} % ({s.get(a, 0)}/{s[b]})" if s.get(b) else "n/a"

    lines = [f"documents: {s.get('documents', 0)}, prose characters: {s.get('prose_chars', 0)}"]
    for name, label in [("url", "URLs"), ("tex_arg", "LaTeX reference arguments"), ("md", "Markdown targets + inline code")]:  # fmt: skip
        lines.append(
            f"{label}: whole {pct(name + '_whole', name + '_total')}, cut {pct(name + '_cut', name + '_total')}"
        )
    lines.append(f"NER terms holding markup: {pct('ner_with_markup', 'ner_terms')}")
    lines.append(f"prose characters hidden: {pct('hidden_chars', 'prose_chars')}")
    lines.append(f"protection seconds: {s.get('seconds')}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--no-ner", action="store_true")
    args = ap.parse_args(argv)
    result = measure(args.folder, use_ner=not args.no_ner)
    print(report(result))
    for ex in result["ner_with_markup_examples"]:
        print("  NER term with markup:", repr(ex))
    return 0


if __name__ == "__main__":
    sys.exit(main())
