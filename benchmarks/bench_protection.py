"""Term protection: speed against the spaCy NER floor, throughput and fidelity against Presidio.

All figures come from one run over the same prose chunks (the sample corpus in
data/corpus, parsed by the project's parser):

(a) median protect+restore time per 1,000 characters of a prose chunk, with NER
    on and off, next to spaCy NER alone on the same chunks (the floor);
(b) throughput in words/s over the whole corpus (≥ 50k words): our
    ``protect_many`` per document + ``restore`` per chunk, against Presidio
    (presidio-analyzer + presidio-anonymizer, same spaCy model, indexed
    placeholders ``⟨PII_NNN⟩`` restored the same way);
(c) chunks restored byte-exactly by each tool, and citations kept whole (one
    placeholder covering the citation) / split / left unprotected.

Presidio comes from the ``[bench]`` extra; without it (b)/(c) are reported as skipped.
"""

from __future__ import annotations

import copy
import statistics
import time

from textguard_pipeline import settings
from textguard_pipeline.core.documents import discover_documents, read_document
from textguard_pipeline.core.nlp import load_spacy, model_label, resolve_model_name
from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.core.placeholders import make_placeholder, restore_placeholders
from textguard_pipeline.protection import TermProtectionConfig, TermProtector

MIN_CHARS = 300  # per-1,000-char medians use chunks at least this long (tiny chunks are all overhead)
REPEAT = 3


def _corpus() -> list[tuple[str, list]]:
    docs = []
    root = settings.corpus_dir()
    for doc_id, path in sorted(discover_documents(root).items()):
        try:
            d = read_document(path, root)
        except Exception:
            continue
        prose = [c for c in parse_document(d.text, d.format) if c.chunk_type == "prose"]
        if prose:
            docs.append((doc_id, prose))
    return docs


def _words(text: str) -> int:
    return len(text.split())


def _interleaved_per_kchar(fns: dict, chunks) -> dict[str, list[float]]:
    """ms per 1,000 chars of each chunk for every fn, best of REPEAT, the fns interleaved
    chunk by chunk so that machine load affects them alike."""
    out: dict[str, list[float]] = {k: [] for k in fns}
    for c in chunks:
        best = {k: float("inf") for k in fns}
        for _ in range(REPEAT):
            for k, fn in fns.items():
                t = time.perf_counter()
                fn(c)
                best[k] = min(best[k], time.perf_counter() - t)
        for k in fns:
            out[k].append(best[k] * 1e6 / len(c.text))
    return out


def _citation_fate(citations: list[tuple[int, int]], replaced: list[tuple[int, int]]) -> tuple[int, int, int]:
    """(whole, split, untouched): a citation is whole when exactly one replaced span covers it."""
    whole = split = untouched = 0
    for s, e in citations:
        hits = [(a, b) for a, b in replaced if a < e and s < b]
        if not hits:
            untouched += 1
        elif len(hits) == 1 and hits[0][0] <= s and hits[0][1] >= e:
            whole += 1
        else:
            split += 1
    return whole, split, untouched


def _offline_tldextract() -> None:
    """Presidio's e-mail recogniser calls tldextract, which fetches the public suffix
    list on first use; use the snapshot bundled with tldextract instead (offline first)."""
    import tldextract
    import tldextract.tldextract as mod

    mod.TLD_EXTRACTOR = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


class _Presidio:
    """Presidio with the same spaCy model and indexed placeholders we can restore."""

    def __init__(self, model: str):
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider
        from presidio_anonymizer import AnonymizerEngine

        _offline_tldextract()
        provider = NlpEngineProvider(
            nlp_configuration={
                "nlp_engine_name": "spacy",
                "models": [{"lang_code": "en", "model_name": model}],
            }
        )
        self.analyzer = AnalyzerEngine(nlp_engine=provider.create_engine(), supported_languages=["en"])
        self.anonymizer = AnonymizerEngine()

    def protect(self, text: str):
        from presidio_anonymizer.entities import OperatorConfig

        results = self.analyzer.analyze(text=text, language="en")
        mapping: dict[str, str] = {}
        by_value: dict[str, str] = {}

        def op(value: str) -> str:
            ph = by_value.get(value)
            if ph is None:
                ph = make_placeholder("PII", len(by_value))
                by_value[value] = ph
                mapping[ph] = value
            return ph

        out = self.anonymizer.anonymize(
            text=text, analyzer_results=results, operators={"DEFAULT": OperatorConfig("custom", {"lambda": op})}
        )
        spans = sorted((r.start, r.end) for r in results)
        return out.text, mapping, spans

    @staticmethod
    def restore(text: str, mapping: dict[str, str]) -> str:
        return restore_placeholders(text, mapping, strict=False)


def main() -> None:
    docs = _corpus()
    chunks = [c for _, prose in docs for c in prose]
    words = sum(_words(c.source_text()) for c in chunks)
    chars = sum(len(c.text) for c in chunks)
    model = resolve_model_name(None)
    nlp = load_spacy(model, profile="ner")
    tp_on = TermProtector(TermProtectionConfig(use_ner=True))
    tp_off = TermProtector(TermProtectionConfig(use_ner=False))
    tp_cit = TermProtector(TermProtectionConfig(use_ner=False, protect_numbers=False))
    print(
        f"corpus: {len(docs)} documents, {len(chunks)} prose chunks, {words:,} words, {chars:,} chars; "
        f"spaCy {model_label(nlp)} components={nlp.pipe_names}"
    )

    # warm up (model load, regex caches)
    for c in chunks[:20]:
        tp_on.protect(c)
        nlp(c.text)

    # (a) per 1,000 chars, one chunk at a time
    long_chunks = [c for c in chunks if len(c.text) >= MIN_CHARS]

    def ours(tp):
        def run(c):
            pc = tp.protect(c)
            tp.restore(pc.protected_text, pc)

        return run

    per = _interleaved_per_kchar({"floor": lambda c: nlp(c.text), "on": ours(tp_on), "off": ours(tp_off)}, long_chunks)
    floor, on, off = (statistics.median(per[k]) for k in ("floor", "on", "off"))
    ratio = statistics.median(a / b for a, b in zip(per["on"], per["floor"]))
    print(
        f"\n(a) median per 1,000 chars over {len(long_chunks)} chunks ≥ {MIN_CHARS} chars "
        f"(best of {REPEAT}, interleaved):"
    )
    print(f"    spaCy NER only (floor)      {floor:7.2f} ms")
    print(
        f"    protect+restore, NER on     {on:7.2f} ms   = {ratio:.2f}× the floor (median per-chunk ratio; "
        f"goal ≤ 1.2×, seed < 100 ms)"
    )
    print(f"    protect+restore, NER off    {off:7.3f} ms   (goal ≤ 1 ms)")

    # (b) throughput, whole corpus; ours per document (NER once per document over all chunks); "plain" is ours
    # without the markup work of issue 45 (no markup recognisers, NER on the raw text), the baseline of its
    # "within 10 % of the ratio against Presidio" rule, measured in the same run
    tp_plain = TermProtector(TermProtectionConfig(use_ner=True, protect_markup=False))
    ours_exact = 0
    ours_pcs = []
    ours_s = floor_s = plain_s = 0.0
    for k, (_, prose) in enumerate(docs):  # interleaved per document with the NER-only pass, order alternating

        def floor_pass():
            t = time.perf_counter()
            list(nlp.pipe([c.text for c in prose]))
            return time.perf_counter() - t

        def plain_pass():
            bare = [copy.copy(c) for c in prose]
            for c in bare:
                c.markup_spans = None
            t = time.perf_counter()
            for pc in tp_plain.protect_many(bare):
                tp_plain.restore(pc.protected_text, pc)
            return time.perf_counter() - t

        if k % 2 == 0:
            floor_s += floor_pass()
            plain_s += plain_pass()
        t = time.perf_counter()
        pcs = tp_on.protect_many(prose)
        restored = [tp_on.restore(pc.protected_text, pc) for pc in pcs]
        ours_s += time.perf_counter() - t
        if k % 2 == 1:
            plain_s += plain_pass()
            floor_s += floor_pass()
        ours_pcs.extend(pcs)
        ours_exact += sum(r == pc.chunk.source_text() for r, pc in zip(restored, pcs))
    ours_wps = words / ours_s
    plain_wps = words / plain_s
    print(f"\n(b) throughput over {words:,} words:")
    print(
        f"    ours (NER on, per document) {ours_wps:9,.0f} words/s  ({ours_s:.2f} s; spaCy nlp.pipe alone {words / floor_s:,.0f} words/s)"
    )
    print(f"    ours without markup work    {plain_wps:9,.0f} words/s  ({plain_s:.2f} s)")

    # citations in the corpus (our citation recogniser, validated by the labelled set in the tests)
    cites_per_chunk = [
        [(t.chunk_start, t.chunk_end) for t in tp_cit.protect(c).terms if t.source == "citation"] for c in chunks
    ]
    n_cites = sum(map(len, cites_per_chunk))
    ours_fate = [0, 0, 0]
    for pc, cites in zip(ours_pcs, cites_per_chunk):
        for i, v in enumerate(_citation_fate(cites, [(t.chunk_start, t.chunk_end) for t in pc.terms])):
            ours_fate[i] += v

    try:
        presidio = _Presidio(model)
    except ImportError as exc:
        print(f"    Presidio: skipped ({exc}); install the [bench] extra")
        print(
            f"\n(c) ours: {ours_exact}/{len(chunks)} chunks restored byte-exactly; "
            f"citations whole/split/unprotected {ours_fate[0]}/{ours_fate[1]}/{ours_fate[2]} of {n_cites}"
        )
        return
    presidio.protect(chunks[0].text)  # warm up
    t = time.perf_counter()
    p_exact = 0
    p_fate = [0, 0, 0]
    for c, cites in zip(chunks, cites_per_chunk):
        text, mapping, spans = presidio.protect(c.text)
        # same input as ours (chunk text with parser placeholders), restored with the parser map too
        if restore_placeholders(presidio.restore(text, mapping), c.math_placeholders, strict=False) == c.source_text():
            p_exact += 1
        for i, v in enumerate(_citation_fate(cites, spans)):
            p_fate[i] += v
    p_s = time.perf_counter() - t
    p_wps = words / p_s
    print(f"    Presidio (same model)       {p_wps:9,.0f} words/s  ({p_s:.2f} s)")
    print(f"    ratio ours / Presidio       {ours_wps / p_wps:9.2f}×  (goal ≥ 2×)")
    print(
        f"    without markup work         {plain_wps / p_wps:9.2f}×  (issue 45: ours within 10 % of it; "
        f"{ours_wps / plain_wps - 1:+.1%} now)"
    )
    print(f"\n(c) fidelity over {len(chunks)} chunks and {n_cites} citations:")
    print(
        f"    ours      restored byte-exactly {ours_exact}/{len(chunks)}; citations whole/split/unprotected "
        f"{ours_fate[0]}/{ours_fate[1]}/{ours_fate[2]}"
    )
    print(
        f"    Presidio  restored byte-exactly {p_exact}/{len(chunks)}; citations whole/split/unprotected "
        f"{p_fate[0]}/{p_fate[1]}/{p_fate[2]}"
    )


if __name__ == "__main__":
    main()
