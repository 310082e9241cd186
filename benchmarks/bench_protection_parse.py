"""``protected_chunks`` against one spaCy parse (issue 50, item 3), and the figures of a parse shared with meanings.

Over the prose chunks of the public dev corpus (../shared/corpus, parsed as the pipeline parses it), in one
run, interleaved, best of two each (wall seconds, and CPU seconds of this process), against spaCy's full English pipeline over the same chunks (the yardstick of
``bench_meanings``, its ``_parse``):

* ``protected_chunks``: the asset's build function per document (every recogniser, the frame);
* its NER pass alone: the ``ner`` profile over protection's text view (markup blanked), what the asset spends
  in spaCy;
* meanings' parse: the ``parse`` profile (tagger, parser, lemmatizer and ``ner``) over meanings' text view
  (``analysis_text``), and the same without ``ner``: what a parse shared by both slices would cost.
"""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks import SHARED_CORPUS
from benchmarks.bench_meanings import _parse
from textguard_pipeline.ingest.build import parse_chunks
from textguard_pipeline.ingest.documents import discover_documents, read_document
from textguard_pipeline.ingest.markup import markup_in_text
from textguard_pipeline.lib.nlp import load_spacy, spacy_input
from textguard_pipeline.meanings.mentions import analysis_text
from textguard_pipeline.protection.build import build_protected_chunks, protector_for
from textguard_pipeline.protection.model import TextChunk
from textguard_pipeline.settings import protection_settings

CORPUS = SHARED_CORPUS
REPEATS = 2


def _documents(root: Path) -> list[tuple[str, str, list]]:
    out = []
    for doc_id, path in sorted(discover_documents(root).items()):
        d = read_document(path, root)
        out.append((doc_id, d.format, parse_chunks(d.text, d.format)))
    return out


def main() -> None:
    if not CORPUS.is_dir():
        print(f"skipped: {CORPUS} is absent")
        return
    docs = _documents(CORPUS)
    prose = [(fmt, c) for _, fmt, chunks in docs for c in chunks if str(c.chunk_type) == "prose" and c.text.strip()]
    raw = [c.text for _, c in prose]
    ours = [spacy_input(TextChunk.of(c).prose_view()) for _, c in prose]
    theirs = [spacy_input(analysis_text(c.text, fmt, markup_in_text(c))) for fmt, c in prose]
    protector = protector_for(protection_settings())
    full, ner, parse = (load_spacy(None, profile=p) for p in ("full", "ner", "parse"))
    for nlp in (full, ner, parse):
        _parse(nlp, raw[:20])
    build_protected_chunks(*docs[0][:1], docs[0][2], protector)

    def protect() -> float:
        t = time.perf_counter()
        for doc_id, _fmt, chunks in docs:
            build_protected_chunks(doc_id, chunks, protector)
        return time.perf_counter() - t

    def parse_no_ner() -> float:
        with parse.select_pipes(disable=["ner"]):
            return _parse(parse, theirs)

    passes = {
        "spaCy full pipeline, chunk text (the yardstick)": lambda: _parse(full, raw),
        "protected_chunks (build_protected_chunks per document)": protect,
        "  its NER pass alone (ner profile, protection's view)": lambda: _parse(ner, ours),
        "meanings' parse (parse profile, meanings' view)": lambda: _parse(parse, theirs),
        "  the same without ner": parse_no_ner,
    }
    times: dict[str, list[float]] = {k: [] for k in passes}
    cpus: dict[str, list[float]] = {k: [] for k in passes}  # CPU seconds move less than wall on a shared machine
    for _ in range(REPEATS):
        for name, fn in passes.items():
            c = time.process_time()
            times[name].append(fn())
            cpus[name].append(time.process_time() - c)
    base = min(next(iter(times.values())))
    base_cpu = min(next(iter(cpus.values())))
    same = sum(a == b for a, b in zip(ours, theirs))
    print(f"{len(docs)} documents, {len(raw)} prose chunks, {sum(map(len, raw)):,} characters")
    print(f"protection's view equals meanings' view in {same} of {len(raw)} chunks")
    print("| pass | seconds | best / full parse | CPU seconds | best CPU / full parse's |")
    print("|---|---|---:|---|---:|")
    for name, ts in times.items():
        cs = cpus[name]
        print(
            f"| {name} | {', '.join(f'{t:.1f}' for t in ts)} | {min(ts) / base:.2f} "
            f"| {', '.join(f'{c:.1f}' for c in cs)} | {min(cs) / base_cpu:.2f} |"
        )
    print(f"**protected_chunks / spaCy full parse: {min(times[list(passes)[1]]) / base:.2f}** (best of {REPEATS})")


if __name__ == "__main__":
    main()
