"""Extract the paragraphs of the blind French/Polish set (issue 17, second round).

Real public prose from Debian packages that are neither manual pages nor acceptance packages
(downloaded with ``apt-get download`` and unpacked with ``dpkg-deb -x`` into ``SRC``):

* fr: debian-reference-fr (Debian Reference), maint-guide-fr (New Maintainers' Guide),
  aptitude-doc-fr (aptitude manual), debian-edu-doc-fr (Debian Edu manual);
* pl: kicad-doc-pl (KiCad manuals), debian-edu-doc-legacy-pl (Audacity manual), fortunes-pl
  (quotations: Seneca, Pratchett, Sapkowski, Winnie-the-Pooh, proverbs, …).

Paragraphs of 200–1,200 characters written in the language (a function-word count, no detector)
are picked per source by their SHA-1 (no look at their content) and split tune / held-out by the
parity of that hash. This script writes the candidates only; the labels are written by hand in
``textguard_pipeline_tests/protection/blind_labels.py`` before the pipeline ever runs on them.

Run: SRC=/tmp/langsrc python scripts/build_blind_language_set.py
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path

SRC = Path(os.environ.get("SRC", "/tmp/langsrc"))
OUT = Path(__file__).resolve().parents[1] / "textguard_pipeline_tests" / "protection" / "data" / "blind_texts.jsonl"

#: (language, package, glob under the unpacked package, how many paragraphs)
SOURCES = (
    ("fr", "debian-reference-fr", "usr/share/debian-reference/ch*.fr.html", 12),
    ("fr", "maint-guide-fr", "usr/share/doc/maint-guide-fr/html/*.fr.html", 10),
    ("fr", "aptitude-doc-fr", "usr/share/doc/aptitude/html/fr/*.html", 8),
    ("fr", "debian-edu-doc-fr", "usr/share/doc/debian-edu-doc-fr/debian-edu-bookworm-manual.html", 10),
    ("pl", "kicad-doc-pl", "usr/share/doc/kicad/help/pl/*.html", 16),
    ("pl", "debian-edu-doc-legacy-pl", "usr/share/doc/debian-edu-doc-legacy-pl/*.html", 10),
    ("pl", "fortunes-pl", "usr/share/games/fortunes/pl/[a-z]*[!t8]", 14),
)
FUNCTION_WORDS = {
    "fr": {"le", "la", "les", "de", "des", "du", "et", "est", "un", "une", "pour", "dans", "que", "qui", "pas", "sur"},
    "pl": {
        "i",
        "w",
        "z",
        "na",
        "się",
        "nie",
        "do",
        "to",
        "jest",
        "że",
        "jak",
        "po",
        "od",
        "przez",
        "dla",
        "oraz",
        "a",
        "o",
        "ze",
        "we",
        "czy",
        "co",
        "tak",
        "by",
        "lub",
    },
}
ENGLISH_WORDS = {"the", "of", "and", "is", "you", "for", "that", "this", "be", "with", "are", "it"}
#: fortune files read: quotations and stories (not IRC logs, mailing-list quarrels or jokes about people)
FORTUNE_FILES = {
    "bajki",
    "dzieci",
    "nauka",
    "pratchett",
    "puchatek",
    "sapkowski",
    "seneka",
    "stachura",
    "stirlitz",
    "zen",
}


class _Paragraphs(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.buf: list[str] = []
        self.out: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "p":
            self.depth += 1
            if self.depth == 1:
                self.buf = []

    def handle_endtag(self, tag):
        if tag == "p" and self.depth:
            self.depth -= 1
            if self.depth == 0:
                self.out.append(" ".join("".join(self.buf).split()))

    def handle_data(self, data):
        if self.depth:
            self.buf.append(data)


def _html_paragraphs(path: Path) -> list[str]:
    p = _Paragraphs()
    p.feed(path.read_text(encoding="utf-8", errors="replace"))
    return p.out


def _fortunes(path: Path) -> list[str]:
    if path.name not in FORTUNE_FILES:
        return []
    text = path.read_text(encoding="utf-8", errors="replace")
    return [" ".join(e.split()) for e in text.split("\n%\n")]


def _in_language(text: str, lang: str) -> bool:
    words = re.findall(r"\w+", text.lower())
    if len(words) < 30 or sum(w in ENGLISH_WORDS for w in words) / len(words) > 0.02:
        return False  # an untranslated paragraph
    return sum(w in FUNCTION_WORDS[lang] for w in words) / len(words) >= (0.12 if lang == "fr" else 0.08)


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def candidates() -> list[dict]:
    rows: list[dict] = []
    seen: set[str] = set()
    for lang, package, pattern, n in SOURCES:
        pool = []
        for f in sorted((SRC / package).glob(pattern)):
            read = _html_paragraphs if f.suffix == ".html" else _fortunes
            for para in read(f):
                para = html.unescape(para)
                if 200 <= len(para) <= 1200 and _in_language(para, lang) and para not in seen:
                    seen.add(para)
                    pool.append((_sha(para), para, f"{package}:{f.relative_to(SRC / package)}"))
        for sha, para, source in sorted(pool)[:n]:
            rows.append(
                {
                    "id": sha[:10],
                    "language": lang,
                    "kind": "real",
                    "text": para,
                    "source": source,
                    "split": "heldout" if int(sha, 16) % 2 else "tune",
                }
            )
    return rows


if __name__ == "__main__":
    rows = candidates()
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"{len(rows)} paragraphs → {OUT}")
