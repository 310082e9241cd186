"""Build ``textguard_pipeline/meanings/tech_prior.tsv`` (issue 51): how technical a noun lemma is, offline.

    .venv/bin/python scripts/build_tech_prior.py [--man /usr/share/man] [--wordnet /usr/share/wordnet]

Counts every WordNet 3.0 noun lemma (single words; plurals folded by WordNet's ``noun.exc`` and the regular
suffixes) in the English man pages of this machine (``man1``–``man8``, roff requests and escapes stripped), leaving
out every file of the acceptance packages (``dpkg -L``) and the man pages the labelled sense set quotes. Beside
the counts it lists the noun synsets that belong to computing: a "(computer science)" / "(computing)" gloss, a topic
link to computer science, or a hypernym path to software, a program, a computer, code, a data structure, a file,
a database or a protocol. :mod:`textguard_pipeline.meanings.tech_prior` compares a lemma's man-page rate with its
SemCor rate: a lemma much commoner in software manuals than in general English none of whose senses is a
computing one is a word whose technical sense WordNet 3.0 lacks ("kernel", "thread", "method"). Deterministic
(sorted files, sorted output); the Debian packages installed decide the counts, so the file records its totals.
"""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "textguard_pipeline" / "meanings" / "tech_prior.tsv"

#: the acceptance packages (BRIEF / DEVELOPERS.md): none of their files is read
ACCEPTANCE = (
    "texlive-publishers-doc texlive-latex-base-doc texlive-lang-polish python3.11-doc debian-policy "
    "developers-reference debian-faq texlive-bibtex-extra texlive-science-doc texlive-lang-french "
    "texlive-humanities-doc texlive-latex-recommended-doc sphinx-doc"
).split()
#: man pages quoted by textguard_pipeline_tests/meanings/data/texts (kept out so the labels do not count twice)
LABELLED = {"sox.1.gz", "tc.8.gz", "crypto.7ssl.gz", "signal.7.gz", "tcp.7.gz", "CREATE_INDEX.7.gz"}
#: synsets whose hyponyms are computing things (software, computer program, computer, computer code, data
#: structure, computer file, computer instruction, database, information processing, protocol (computer science))
ROOTS = {"06566077", "06568978", "03082979", "06355894", "05728493", "06509210", "06584891", "06637824",
         "06142118", "06665108"}  # fmt: skip
CS_DOMAIN = "06128570"
#: lexicographer files of living things and their parts (noun.animal, noun.body, noun.food, noun.person,
#: noun.plant): a technical lemma's sense there ("parent", "python", "kernel" as a seed) rarely fits a manual
LIVING = {5, 8, 13, 18, 20}
MIN_COUNT = 5  # lemmas rarer than this in the man pages are left out (the module reads them as 0)

_ESCAPE = re.compile(r"\\(?:\(..|\[[^\]]*\]|[fF*nmgk](?:\(..|\[[^\]]*\]|.)|s[-+]?\d+|.)")
_WORD = re.compile(r"[A-Za-z][a-z]+")


def excluded_files() -> set[str]:
    out: set[str] = set()
    for pkg in ACCEPTANCE:
        r = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True, check=False)
        if r.returncode == 0:
            out.update(line.strip() for line in r.stdout.splitlines())
    return out


def man_words(man: Path) -> tuple[Counter, int, int]:
    """(word counts in lower case, pages read, words read) over the English man sections."""
    skip = excluded_files()
    counts: Counter = Counter()
    pages = 0
    for f in sorted(p for p in man.glob("man[1-8]/*") if p.is_file() and not p.is_symlink()):
        if str(f) in skip or f.name in LABELLED:
            continue
        try:
            raw = gzip.decompress(f.read_bytes()) if f.suffix == ".gz" else f.read_bytes()
        except (OSError, EOFError, gzip.BadGzipFile):
            continue
        text = raw.decode("utf-8", errors="replace")
        if text.startswith(".so "):
            continue  # a link to another page
        pages += 1
        for line in text.splitlines():
            if line.startswith((".", "'")):
                if line[1:3] in ('\\"', "\\'") or not line[1:].strip():
                    continue  # a comment
                parts = line.split(None, 1)
                line = parts[1] if len(parts) == 2 else ""
            counts.update(w.lower() for w in _WORD.findall(_ESCAPE.sub(" ", line)))
    return counts, pages, sum(counts.values())


#: synset offset → (its lemmas, its noun pointers as (symbol, offset), its gloss, its lexicographer file number)
Synsets = dict[str, tuple[list[str], list[tuple[str, str]], str, int]]


def read_nouns(wndb: Path) -> tuple[set[str], dict[str, str], Synsets]:
    """(single-word noun lemmas, plural → lemma from noun.exc, the noun synsets)."""
    lemmas = set()
    for line in (wndb / "index.noun").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(" "):
            w = line.split(" ", 1)[0]
            if w.isalpha():
                lemmas.add(w)
    exc = {}
    for line in (wndb / "noun.exc").read_text(encoding="utf-8").splitlines():
        f = line.split()
        if len(f) >= 2 and f[1] in lemmas:
            exc[f[0]] = f[1]
    synsets = {}
    for line in (wndb / "data.noun").read_text(encoding="utf-8").splitlines():
        if not line or line.startswith(" "):
            continue
        head, _, gloss = line.partition(" | ")
        f = head.split()
        n = int(f[3], 16)
        words = [f[4 + 2 * i].lower() for i in range(n)]
        at = 4 + 2 * n
        k = int(f[at])
        ptrs = [(f[at + 1 + 4 * i], f[at + 2 + 4 * i]) for i in range(k) if f[at + 3 + 4 * i] == "n"]
        synsets[f[0]] = (words, ptrs, gloss.strip(), int(f[1]))
    return lemmas, exc, synsets


def computing_synsets(synsets: Synsets) -> list[str]:
    """Offsets of the noun synsets that belong to computing (see the module docstring)."""
    memo: dict[str, bool] = {}

    def under_root(off: str, depth: int = 0) -> bool:
        if off in ROOTS:
            return True
        if off in memo or depth > 12:
            return memo.get(off, False)
        memo[off] = False  # cycles
        memo[off] = any(s in ("@", "@i") and under_root(t, depth + 1) for s, t in synsets[off][1])
        return memo[off]

    out = []
    for off, (_words, ptrs, gloss, _lex) in synsets.items():
        marked = gloss.startswith(("(computer science)", "(computing)", "(computer"))
        if marked or any(s == ";c" and t == CS_DOMAIN for s, t in ptrs) or under_root(off):
            out.append(off)
    return sorted(out)


def noun_counts(words: Counter, lemmas: set[str], exc: dict[str, str]) -> Counter:
    """Word counts folded onto noun lemmas (a word that is itself a lemma counts as that lemma)."""
    out: Counter = Counter()
    for w, c in words.items():
        if w in lemmas:
            out[w] += c
        elif w in exc:
            out[exc[w]] += c
        elif w.endswith("ies") and w[:-3] + "y" in lemmas:
            out[w[:-3] + "y"] += c
        elif w.endswith("es") and w[:-2] in lemmas and w[-3] in "sxzh":
            out[w[:-2]] += c
        elif w.endswith("s") and w[:-1] in lemmas:
            out[w[:-1]] += c
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--man", type=Path, default=Path("/usr/share/man"))
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    words, pages, total = man_words(args.man)
    lemmas, exc, synsets = read_nouns(args.wordnet)
    counts = noun_counts(words, lemmas, exc)
    comp = computing_synsets(synsets)
    sys.path.insert(0, str(ROOT))
    from textguard_pipeline.meanings.sense_counts import read_cntlist

    semcor = sum(c for (_lemma, ssid), c in read_cntlist(args.wordnet).items() if ssid.endswith("-n"))
    lines = [
        "# Technical prior of WordNet 3.0 noun lemmas (scripts/build_tech_prior.py; issue 51).",
        f"# man pages read: {pages}; words: {total}; lemmas with at least {MIN_COUNT} occurrences follow.",
        "# Rows: 'total<TAB>noun tokens', 'semcor<TAB>SemCor noun tags', 'lemma<TAB>lemma<TAB>count',",
        "# 'computing<TAB>offset' (noun synsets of computing),",
        "# 'living<TAB>offset' (a listed lemma's synsets of people, animals, plants, body parts, food).",
        "# WordNet 3.0 Copyright 2006 by Princeton University.",
        f"total\t{sum(counts.values())}",
        f"semcor\t{semcor}",
    ]
    lines += [f"lemma\t{w}\t{c}" for w, c in sorted(counts.items()) if c >= MIN_COUNT]
    lines += [f"computing\t{off}" for off in comp]
    kept = {w for w, c in counts.items() if c >= MIN_COUNT}
    living = sorted(off for off, (ws, _p, _g, lex) in synsets.items() if lex in LIVING and kept.intersection(ws))
    lines += [f"living\t{off}" for off in living]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{pages} pages, {total} words, {sum(c >= MIN_COUNT for c in counts.values())} lemmas, "
          f"{len(comp)} computing synsets, {len(living)} living → {args.out}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
