"""Draw nouns to label from a text (protocol: data/README.md). Prints, per drawn noun, its context and the
WordNet 3.0 noun senses offered, never the resolver's choice: labels are written blind.

    python -m textguard_pipeline_tests.meanings.sample_nouns senses DOMAIN FILE N
    python -m textguard_pipeline_tests.meanings.sample_nouns worthy DOMAIN FILE N
    python -m textguard_pipeline_tests.meanings.sample_nouns single DOMAIN FILE [DOMAIN FILE …] N

``senses``: the embedded detector's one-word subject mentions with ≥ 2 WordNet noun senses, one per lemma,
N drawn with a seed fixed by the file name. ``single``: the same for nouns WordNet gives exactly one sense (is it
the one the text means? its id, or ``none``). ``worthy``: N random 400-character windows, one random lower-case
NOUN token (spaCy tag) each, independent of the detector. Needs TEXTGUARD_WN_DATA with the full WordNet.
"""

from __future__ import annotations

import hashlib
import random
import sys
from functools import lru_cache
from pathlib import Path

from .sense_eval import FORMATS, source_label


def _rng(path: Path, what: str) -> random.Random:
    return random.Random(int(hashlib.sha1(f"{what}:{path.name}".encode()).hexdigest()[:8], 16))


def split_of(source: str, start: int) -> str:
    """The held-out/dev split of a labelled noun: parity of sha1("source:start")."""
    return "heldout" if int(hashlib.sha1(f"{source}:{start}".encode()).hexdigest(), 16) % 2 else "dev"


@lru_cache(maxsize=1)
def _resolver():
    from textguard_pipeline.meanings.resolver import build_resolver
    from textguard_pipeline.settings import MeaningsSettings

    return build_resolver(MeaningsSettings(wikidata_mode="off"))


def senses(domain: str, path: Path, n: int, single: bool = False) -> None:
    """``single``: nouns with exactly one WordNet noun sense instead (does that one sense fit? gold or none)."""
    from textguard_pipeline.ingest.build import parse_chunks
    from textguard_pipeline.meanings.resolver import ResolveStats

    resolver = _resolver()
    text = path.read_text(encoding="utf-8")
    fmt = FORMATS[path.suffix]
    mentions = resolver.detect(text, parse_chunks(text, fmt), fmt, ResolveStats())
    seen: dict[str, object] = {}
    for m in mentions:
        lemma = m.lookup or m.label
        if m.index_type != "subject" or " " in lemma or lemma in seen:
            continue
        syn = resolver.wnet.synsets(lemma, pos="n")
        if (len(syn) == 1) if single else (len(syn) >= 2):
            seen[lemma] = m
    picks = sorted(_rng(path, "single" if single else "senses").sample(sorted(seen), min(n, len(seen))))
    picks.sort(key=lambda k: seen[k].start)
    src = source_label(path)
    for lemma in picks:
        m = seen[lemma]
        ctx = text[max(0, m.start - 160) : m.start] + "[[" + m.text + "]]" + text[m.end : m.end + 160]
        print(f"## {domain}\t{src}\t{m.start}\t{m.end}\t{m.text}\t{lemma}\t?\t{split_of(src, m.start)}")
        print("   ", " ".join(ctx.split()))
        for s in resolver.wnet.synsets(lemma, pos="n")[:8]:
            print(f"    wn30-{s.id.split('-')[1]}-n  {s.lexfile()}: {s.definition()}")


def worthy(domain: str, path: Path, n: int) -> None:
    from textguard_pipeline.lib.nlp import load_spacy

    nlp = load_spacy()
    text = path.read_text(encoding="utf-8")
    rng = _rng(path, "worthy")
    src = source_label(path)
    done: set[int] = set()
    for _ in range(n * 4):
        if len(done) >= n:
            break
        a = rng.randrange(0, max(1, len(text) - 400))
        doc = nlp(text[a : a + 400])
        toks = [t for t in doc if t.pos_ == "NOUN" and t.text.isalpha() and t.text.islower()]
        if not toks:
            continue
        t = rng.choice(toks)
        s = a + t.idx
        if s in done:
            continue
        done.add(s)
        ctx = text[max(0, s - 120) : s] + "[[" + t.text + "]]" + text[s + len(t) : s + len(t) + 120]
        print(f"## {domain}\t{src}\t{s}\t{s + len(t)}\t{t.text}\t?\t{split_of(src, s)}")
        print("   ", " ".join(ctx.split()))


if __name__ == "__main__":
    what, count = sys.argv[1], int(sys.argv[-1])
    for domain, file in zip(sys.argv[2:-1:2], sys.argv[3:-1:2]):  # DOMAIN FILE [DOMAIN FILE …] N
        if what == "single":
            senses(domain, Path(file), count, single=True)
        else:
            {"senses": senses, "worthy": worthy}[what](domain, Path(file), count)
