"""Scoring the labelled nouns of data/sense_labels.tsv: our resolver vs first sense vs plain Lesk.

Each labelled noun is scored where it stands: its whole source document goes through the resolver (so the
document's domain profile and the pooled contexts of its lemma are those a user would get), and the row
at the labelled offsets is compared with the gold synset. The baselines see the same mention and the
same WordNet candidates: ``first_sense`` takes the lowest sense rank, ``lesk`` the plain Lesk choice from
the mention's own context (no domain, no pooling).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from textguard_pipeline.ingest.documents import FORMATS as DOCUMENT_FORMATS

DATA = Path(__file__).resolve().parent / "data"
CORPUS = Path("/work/shared/corpus")
TEXTS = DATA / "texts"  # excerpts of Debian packages' documentation (data/README.md names each source)
FORMATS = {**DOCUMENT_FORMATS, ".jsonl": "txt"}  # the parser's endings, plus the corpus's JSON lines read as text


WNDB = Path("/usr/share/wordnet")  # Debian's wordnet-base: the full WordNet 3.0 the labels were written against


def full_wordnet_resolver(folder: Path):
    """Yield a resolver over the full WordNet 3.0 installed into ``folder`` (Wikidata off), as a fixture body;
    the environment variables it sets are restored afterwards."""
    import os

    from textguard_pipeline.meanings.resolver import build_resolver
    from textguard_pipeline.meanings.wordnet_install import install_wordnet, open_wordnet
    from textguard_pipeline.settings import MeaningsSettings, restored_environ

    with restored_environ("TEXTGUARD_WN_DATA", "TEXTGUARD_WN_LEXICON", "TEXTGUARD_WN_DOWNLOAD"):
        os.environ["TEXTGUARD_WN_DATA"] = str(folder)
        os.environ["TEXTGUARD_WN_DOWNLOAD"] = "0"
        os.environ.pop("TEXTGUARD_WN_LEXICON", None)
        install_wordnet(wndb_dirs=(str(WNDB),), allow_download=False, log=lambda _m: None)
        open_wordnet.cache_clear()
        yield build_resolver(MeaningsSettings(wikidata_mode="off"))
        open_wordnet.cache_clear()


def source_path(source: str) -> Path:
    """``shared-corpus:<path>`` → a file of the public dev corpus; ``texts/<name>`` → an excerpt kept here."""
    if source.startswith("shared-corpus:"):
        return CORPUS / source.removeprefix("shared-corpus:")
    return DATA / source


def source_label(path: Path) -> str:
    path = path.resolve()
    if path.is_relative_to(CORPUS):
        return "shared-corpus:" + str(path.relative_to(CORPUS))
    return str(path.relative_to(DATA))


@dataclass(frozen=True)
class Label:
    id: int
    domain: str
    source: Path
    start: int
    end: int
    text: str
    lemma: str
    gold: str
    split: str


def load_labels(split: str | None = None) -> list[Label]:
    with (DATA / "sense_labels.tsv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t"))
    out = []
    for r in rows:
        src = source_path(r["source"])
        lab = Label(
            int(r["id"]), r["domain"], src, int(r["start"]), int(r["end"]), r["text"], r["lemma"], r["gold"], r["split"]
        )
        if split is None or lab.split == split:
            out.append(lab)
    return out


def score(resolver, labels: list[Label]) -> dict:
    """Accuracy of resolver / first sense / plain Lesk over labels whose gold is a synset (a row without a
    WordNet meaning there, an abstention, counts as not right). Also: ``abstained`` among those, and for the
    ``none`` labels (no offered sense fits) the share that got no WordNet meaning; ``confident`` lists
    (meaning_confidence, right) per gold-synset label whose own row got a WordNet meaning (a compound's head
    sense has no confidence of its own)."""
    from textguard_pipeline.ingest.build import parse_chunks
    from textguard_pipeline.meanings.senses import LeskDisambiguator, first_sense

    by_doc: dict[Path, list[Label]] = defaultdict(list)
    for lab in labels:
        by_doc[lab.source].append(lab)
    plain = LeskDisambiguator(resolver.wnet)  # plain Lesk: default margin, own context, no domain
    n = ours = first = lesk = abstained = n_none = none_no_sense = 0
    misses: list[tuple] = []
    confident: list[tuple[float, bool]] = []
    for path, labs in by_doc.items():
        text = path.read_text(encoding="utf-8")
        fmt = FORMATS[path.suffix]
        chunks = parse_chunks(text, fmt)
        df, _stats = resolver.resolve_document(path.name, text, chunks, fmt)
        rows = {(r.start, r.end): r for r in df.itertuples()}
        for lab in labs:
            assert text[lab.start : lab.end] == lab.text, f"{path}: label {lab.id} does not quote the file"
            got = _meaning_at(rows, lab)
            is_sense = str(got or "").startswith("wn30-")
            if lab.gold == "none":
                n_none += 1
                none_no_sense += not is_sense
                continue
            n += 1
            ours += got == lab.gold
            abstained += not is_sense
            conf = _confidence_at(rows, lab) if is_sense else None
            if conf is not None:
                confident.append((conf, got == lab.gold))
            cands, _rule = resolver.finder.find(lab.lemma, "subject", lab.lemma, "n")
            wn = [c.wordnet for c in cands if c.meaning_type == "wordnet"]
            fs = first_sense(wn)
            first += fs is not None and fs.meaning_id == lab.gold
            context = text[max(0, lab.start - 250) : lab.end + 250]
            chosen, _c, _r = plain.choose(lab.text, context, wn)
            lesk += chosen is not None and chosen.meaning_id == lab.gold
            if got != lab.gold:
                misses.append((lab.id, lab.lemma, got, lab.gold))
    return {
        "n": n,
        "ours": ours / n,
        "first_sense": first / n,
        "lesk": lesk / n,
        "misses": misses,
        "abstained": abstained,
        "n_none": n_none,
        "none_no_sense": none_no_sense / n_none if n_none else 1.0,
        "confident": confident,
    }


def _confidence_at(rows: dict, lab: Label) -> float | None:
    """The confidence of the row at the label's span; None for the head of a compound (see
    :func:`_meaning_at`): its custom row's confidence is the compound's (none), not the head sense's."""
    row = rows.get((lab.start, lab.end))
    if row is None or row.meaning_confidence is None or row.meaning_confidence != row.meaning_confidence:
        return None
    return float(row.meaning_confidence)


def _meaning_at(rows: dict, lab: Label) -> str | None:
    """The row's meaning at the label's span; for a compound that ends with the label and has no meaning of
    its own ("porcelain crown"), its ``head_meaning_id`` (as the issue scores compounds)."""
    row = rows.get((lab.start, lab.end))
    if row is not None:
        return row.meaning_id
    for (a, b), r in rows.items():
        if a <= lab.start and b == lab.end and r.meaning_type == "custom":
            return r.head_meaning_id
    return None


def load_nouns(split: str | None = None) -> list[dict]:
    with (DATA / "index_worthy.tsv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader((line for line in fh if not line.startswith("#")), delimiter="\t"))
    for r in rows:
        r["path"] = source_path(r["source"])
        r["start"], r["end"] = int(r["start"]), int(r["end"])
    return [r for r in rows if split is None or r["split"] == split]


def coverage(resolver, nouns: list[dict]) -> dict:
    """Share of index-worthy nouns covered by a resolved row (the row's span contains the noun: "kernel"
    in "kernel" or in "3 × 3 kernel"), and share of excluded nouns that got no row of their own."""
    from textguard_pipeline.ingest.build import parse_chunks

    by_doc: dict[Path, list[dict]] = defaultdict(list)
    for r in nouns:
        by_doc[r["path"]].append(r)
    worthy = worthy_ok = excluded = excluded_ok = 0
    missed: list[str] = []
    for path, rows in by_doc.items():
        text = path.read_text(encoding="utf-8")
        fmt = FORMATS[path.suffix]
        df, _stats = resolver.resolve_document(path.name, text, parse_chunks(text, fmt), fmt)
        spans = list(zip(df["start"].tolist(), df["end"].tolist()))
        for r in rows:
            assert text[r["start"] : r["end"]] == r["text"], f"{path}: noun {r['id']} does not quote the file"
            covered = any(a <= r["start"] and r["end"] <= b for a, b in spans)
            if r["label"] == "index_worthy":
                worthy += 1
                worthy_ok += covered
                if not covered:
                    missed.append(r["text"])
            else:
                excluded += 1
                excluded_ok += not any((a, b) == (r["start"], r["end"]) for a, b in spans)
    return {
        "index_worthy": worthy,
        "coverage": worthy_ok / worthy if worthy else 1.0,
        "excluded": excluded,
        "excluded_dropped": excluded_ok / excluded if excluded else 1.0,
        "missed": missed,
    }
