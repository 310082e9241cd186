"""Build textguard_pipeline_tests/ingest/data/language_chunks.jsonl: labelled EN/FR/PL prose chunks.

Source: the manual pages that Debian packages install in English and in their French and Polish
translations (man-db, apt, dpkg, passwd, procps, vim, debianutils, psmisc … — none of the acceptance
packages). Each page is rendered with `man -l` to plain text, cut into paragraphs, and paragraphs of
≥ 200 characters that are mostly words are kept. Every example records its package and file. Examples
alternate between the "tune" and the "heldout" split per language (held-out never used to tune).

Run: python scripts/build_language_set.py [--per-language 160]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "textguard_pipeline_tests" / "ingest" / "data" / "language_chunks.jsonl"
DIRS = {"en": "/usr/share/man", "fr": "/usr/share/man/fr", "pl": "/usr/share/man/pl"}


#: Function words used only to LABEL (a translated page keeps some paragraphs untranslated): a paragraph
#: is kept for its directory's language when that language's words clearly dominate. Neither detector
#: under test is involved in labelling.
FUNCTION_WORDS = {
    "en": set("the and of to is in that for with are be this by or not which an as on".split()),
    "fr": set("le la les des est une un et du dans pour que qui sur par pas avec sont ce au".split()),
    "pl": set("i w z na nie się jest do że to oraz jak dla lub są przez od po czy".split()),
}


def clearly(lang: str, text: str) -> bool:
    words = re.findall(r"[^\W\d_]+", text.lower())
    hits = {k: sum(w in v for w in words) for k, v in FUNCTION_WORDS.items()}
    others = max(v for k, v in hits.items() if k != lang)
    return hits[lang] >= 4 and others * 3 <= hits[lang]


def package_of(path: str) -> str:
    out = subprocess.run(["dpkg", "-S", os.path.realpath(path)], capture_output=True, text=True)
    return out.stdout.split(":", 1)[0].strip() if out.returncode == 0 else "unknown"


def render(path: str) -> str:
    env = {**os.environ, "MANWIDTH": "3000", "LANG": "C.UTF-8", "MAN_KEEP_FORMATTING": "0"}
    out = subprocess.run(["man", "-l", "-E", "UTF-8", path], capture_output=True, env=env)
    text = subprocess.run(["col", "-b"], input=out.stdout, capture_output=True, env=env).stdout
    return text.decode("utf-8", "replace")


def paragraphs(text: str) -> list[str]:
    out = []
    for para in re.split(r"\n[ \t]*\n", text):
        flat = " ".join(line.strip() for line in para.splitlines() if line.strip())
        letters = sum(ch.isalpha() or ch.isspace() for ch in flat)
        if 200 <= len(flat) <= 1200 and letters / len(flat) > 0.88 and len(flat.split()) >= 30:
            out.append(flat)
    return out


def pages(lang: str) -> list[str]:
    base = Path(DIRS[lang])
    found = []
    for sec in ("man1", "man5", "man8"):
        d = base / sec
        if d.is_dir():
            found += sorted(str(p) for p in d.iterdir() if p.name.endswith(".gz"))
    if lang == "en":  # the English originals of the translated pages
        translated = {Path(p).name for lg in ("fr", "pl") for p in pages(lg)}
        found = [p for p in found if Path(p).name in translated]
    return found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-language", type=int, default=160)
    args = ap.parse_args()
    rows = []
    for lang in ("en", "fr", "pl"):
        seen: set[str] = set()
        picked = []
        per_page: dict[str, list[tuple[str, str]]] = {}
        for page in pages(lang):
            paras = [p for p in paragraphs(render(page)) if p not in seen and clearly(lang, p)]
            seen.update(paras)
            if paras:
                per_page[page] = [(page, p) for p in paras]
        # round-robin over pages so that no single page dominates
        while len(picked) < args.per_language and any(per_page.values()):
            for page in list(per_page):
                if per_page[page] and len(picked) < args.per_language:
                    picked.append(per_page[page].pop(0))
        for i, (page, text) in enumerate(picked):
            rows.append(
                {
                    "language": lang,
                    "split": "tune" if i % 2 == 0 else "heldout",
                    "text": text,
                    "package": package_of(page),
                    "file": page,
                }
            )
        print(lang, len(picked), "from", len({p for p, _ in picked}), "pages")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print("wrote", OUT, len(rows))


if __name__ == "__main__":
    main()
