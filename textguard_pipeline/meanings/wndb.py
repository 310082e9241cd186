"""WNDB (Princeton WordNet database files) → WN-LMF conversion, and the small shipped lexicon.

Debian's ``wordnet-base`` puts WNDB files in ``/usr/share/wordnet``; :func:`convert_wndb` writes
the WN-LMF file that ``wn.add`` reads (synset ids ``wn30-<offset>-<pos>``).
``python -m textguard_pipeline.meanings.wndb build-mini`` regenerates ``data/wordnet``.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence
from xml.sax.saxutils import escape, quoteattr

from ..settings import PROJECT_ROOT

#: Lexicon shipped with the project (used when nothing better is available).
MINI_LEXICON_PATH = PROJECT_ROOT / "data" / "wordnet" / "wn30-mini.xml"
MINI_VERSION_SUFFIX = "-mini"

LMF_XMLDECL = '<?xml version="1.0" encoding="UTF-8"?>'
LMF_DOCTYPE = '<!DOCTYPE LexicalResource SYSTEM "http://globalwordnet.github.io/schemas/WN-LMF-1.4.dtd">'
LMF_DC_NS = "https://globalwordnet.github.io/schemas/dc/"

WORDNET_LICENSE_URL = "https://wordnet.princeton.edu/license-and-commercial-use"
WORDNET_NOTICE = """\
WordNet Release 3.0. This software and database is being provided to you, the LICENSEE,
by Princeton University under the following license. By obtaining, using and/or copying
this software and database, you agree that you have read, understood, and will comply
with these terms and conditions.: Permission to use, copy, modify and distribute this
software and database and its documentation for any purpose and without fee or royalty
is hereby granted, provided that you agree to comply with the following copyright notice
and statements, including the disclaimer, and that the same appear on ALL copies of the
software, database and documentation, including modifications that you make for
internal use or for distribution. WordNet 3.0 Copyright 2006 by Princeton University.
All rights reserved. THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF
EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES
OF MERCHANT- ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE
LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS,
COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or Princeton
may not be used in advertising or publicity pertaining to distribution of the software
and/or database. Title to copyright in this software, database and any associated
documentation shall at all times remain with Princeton University and LICENSEE agrees
to preserve same."""


# --------------------------------------------------------------------------- WNDB → WN-LMF

WNDB_POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

# Pointer symbols (wndb(5)) → WN-LMF relation types; keyed by the file's pos where they differ.
_POINTERS = {
    "!": "antonym",
    "@": "hypernym",
    "@i": "instance_hypernym",
    "~": "hyponym",
    "~i": "instance_hyponym",
    "#m": "holo_member",
    "#s": "holo_substance",
    "#p": "holo_part",
    "%m": "mero_member",
    "%s": "mero_substance",
    "%p": "mero_part",
    "=": "attribute",
    "+": "derivation",
    "*": "entails",
    ">": "causes",
    "^": "also",
    "$": "similar",
    "&": "similar",
    "<": "participle",
    "\\": "pertainym",
    ";c": "domain_topic",
    "-c": "has_domain_topic",
    ";r": "domain_region",
    "-r": "has_domain_region",
    ";u": "exemplifies",
    "-u": "is_exemplified_by",
}


@dataclass(frozen=True)
class ConversionStats:
    lexicon_id: str
    version: str
    synsets: int
    senses: int
    entries: int
    definitions: int
    examples: int
    synset_relations: int
    sense_relations: int
    forms: int


def find_wndb(directory: str | Path) -> bool:
    d = Path(directory)
    return all((d / f"data.{n}").is_file() and (d / f"index.{n}").is_file() for n in WNDB_POS_FILES.values())


def wndb_version(directory: Path) -> str:
    """'3.0' / '3.1' from the licence header of data.noun (defaults to 3.0)."""
    with open(directory / "data.noun", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not line.startswith("  "):
                break
            m = re.search(r"WordNet (\d+\.\d+)", line)
            if m:
                return m.group(1)
    return "3.0"


_EXAMPLE_SPLIT = re.compile(r'(?:^|;\s*)"')


def split_gloss(gloss: str) -> tuple[str, list[str]]:
    """WNDB gloss 'definition; "example one"; "example two"' → (definition, examples)."""
    gloss = gloss.strip()
    m = _EXAMPLE_SPLIT.search(gloss)
    if not m:
        return gloss.rstrip("; "), []
    definition = gloss[: m.start()].strip().rstrip(";").strip()
    examples = [e.strip() for e in re.findall(r'"([^"]+)"', gloss[m.start() :]) if e.strip()]
    return definition, examples


@dataclass
class _Synset:
    offset: str
    pos: str  # ss_type: n v a s r
    lexfile: int
    words: list  # [(lemma_with_underscores, adjposition or None)]
    pointers: list  # [(symbol, target_offset, target_file_pos, src_word, tgt_word)]
    definition: str
    examples: list


def _read_data(path: Path, file_pos: str) -> dict[str, _Synset]:
    synsets: dict[str, _Synset] = {}
    with open(path, encoding="utf-8", errors="strict") as fh:
        for line in fh:
            if line.startswith("  "):
                continue  # licence header
            data, _, gloss = line.partition(" | ")
            f = data.split()
            offset, lexfile, ss_type = f[0], int(f[1]), f[2]
            n_words = int(f[3], 16)
            words = []
            i = 4
            for _ in range(n_words):
                word = f[i]
                adjpos = None
                m = re.fullmatch(r"(.+)\((a|p|ip)\)", word)
                if m:
                    word, adjpos = m.group(1), m.group(2)
                words.append((word, adjpos))
                i += 2
            n_ptrs = int(f[i])
            i += 1
            ptrs = []
            for _ in range(n_ptrs):
                sym, toff, tpos, st = f[i], f[i + 1], f[i + 2], f[i + 3]
                ptrs.append((sym, toff, "a" if tpos == "s" else tpos, int(st[:2], 16), int(st[2:], 16)))
                i += 4
            definition, examples = split_gloss(gloss)
            synsets[offset] = _Synset(offset, ss_type, lexfile, words, ptrs, definition, examples)
    return synsets


def _read_index(path: Path) -> dict[str, list[str]]:
    """lemma (lower case, underscores) → synset offsets in sense-rank order."""
    ranks: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            f = line.split()
            n_synsets, n_ptr = int(f[2]), int(f[3])
            ranks[f[0]] = f[4 + n_ptr + 2 : 4 + n_ptr + 2 + n_synsets]
    return ranks


def _read_exceptions(directory: Path, name: str) -> dict[str, list[str]]:
    """lemma → irregular inflected forms (from <pos>.exc), e.g. mouse → [mice]."""
    forms: dict[str, list[str]] = {}
    path = directory / f"{name}.exc"
    if path.is_file():
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                f = line.split()
                for lemma in f[1:]:
                    forms.setdefault(lemma, []).append(f[0])
    return forms


def _xml_id(text: str) -> str:
    """A lemma made safe for an XML id (letters, digits, '_', '.', '-'; others hex-escaped)."""
    return re.sub(r"[^A-Za-z0-9_.]", lambda m: f"-{ord(m.group()):x}-", text)


def convert_wndb(
    directory: str | Path,
    out_path: str | Path,
    lexicon_id: str | None = None,
    version: str | None = None,
    keep: Callable[[dict], set] | None = None,
    label: str | None = None,
) -> ConversionStats:
    """Convert a Princeton WNDB directory to a WN-LMF 1.4 file that ``wn.add`` accepts.

    Synset ids are ``<lexicon>-<offset>-<pos>`` (e.g. ``wn30-02084071-n``),
    sense ids ``<synset id>-<word number>``; senses of each entry are written in
    the sense-rank order of the index files; irregular forms from the ``.exc``
    files become ``<Form>`` elements so wn finds "mice" → mouse. ``keep``
    (given every synset keyed ``(file_pos, offset)``) restricts the output to a
    subset, e.g. for the shipped small lexicon; relations to dropped synsets are
    left out. The file is written to a temp name and renamed.
    """
    directory = Path(directory)
    out_path = Path(out_path)
    wnver = wndb_version(directory)
    lexicon_id = lexicon_id or "wn" + wnver.replace(".", "")
    version = version or wnver

    data: dict[tuple[str, str], _Synset] = {}
    ranks: dict[str, dict[str, list[str]]] = {}
    exceptions: dict[str, dict[str, list[str]]] = {}
    for fpos, name in WNDB_POS_FILES.items():
        for off, ss in _read_data(directory / f"data.{name}", fpos).items():
            data[(fpos, off)] = ss
        ranks[fpos] = _read_index(directory / f"index.{name}")
        exceptions[fpos] = _read_exceptions(directory, name)

    kept = set(keep(data)) if keep else set(data)

    def ssid(key: tuple[str, str]) -> str:
        return f"{lexicon_id}-{key[1]}-{data[key].pos}"

    # Entries: one per (written form, ss_type); senses ordered by the index rank.
    entries: dict[tuple[str, str], list[tuple[int, tuple[str, str], int, str | None]]] = {}
    for key in kept:
        ss = data[key]
        for wnum, (word, adjpos) in enumerate(ss.words, 1):
            order = ranks[key[0]].get(word.lower())
            try:
                rank = order.index(key[1]) + 1 if order else 1000 + wnum
            except ValueError:
                rank = 1000 + wnum
            entries.setdefault((word, ss.pos), []).append((rank, key, wnum, adjpos))

    def sense_id(key: tuple[str, str], wnum: int) -> str:
        return f"{ssid(key)}-{wnum:02d}"

    # Lexical pointers become sense relations on the source sense.
    sense_rels: dict[str, list[tuple[str, str]]] = {}
    n_ssrel = n_senserel = n_def = n_ex = n_forms = 0
    tmp = out_path.with_name(out_path.name + ".tmp")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    synset_xml: list[str] = []
    for key in sorted(kept, key=lambda k: (k[0], k[1])):
        ss = data[key]
        rels = []
        for sym, toff, tpos, src, tgt in ss.pointers:
            tkey = (tpos, toff)
            if tkey not in kept or tkey not in data:
                continue
            rel = _POINTERS.get(sym)
            if rel is None:
                continue
            if src == 0 and tgt == 0:
                rels.append(f'<SynsetRelation relType="{rel}" target="{ssid(tkey)}"/>')
            else:
                sense_rels.setdefault(sense_id(key, src), []).append((rel, sense_id(tkey, tgt)))
        parts = [f'<Synset id="{ssid(key)}" ili="" partOfSpeech="{ss.pos}" lexfile="{_LEXFILES[ss.lexfile]}">']
        if ss.definition:
            parts.append(f"<Definition>{escape(ss.definition)}</Definition>")
            n_def += 1
        parts.extend(rels)
        for ex in ss.examples:
            parts.append(f"<Example>{escape(ex)}</Example>")
        n_ex += len(ss.examples)
        n_ssrel += len(rels)
        parts.append("</Synset>")
        synset_xml.append("".join(parts))

    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        out.write(LMF_XMLDECL + "\n" + LMF_DOCTYPE + "\n")
        out.write("<!--\n" + WORDNET_NOTICE.replace("--", "- -") + "\n-->\n")
        out.write(f'<LexicalResource xmlns:dc="{LMF_DC_NS}">\n')
        out.write(
            f"<Lexicon id={quoteattr(lexicon_id)} label={quoteattr(label or f'Princeton WordNet {wnver} (from WNDB)')}"
            f' language="en" email="wordnet@princeton.edu" license="{WORDNET_LICENSE_URL}"'
            f' version={quoteattr(version)} url="https://wordnet.princeton.edu/">\n'
        )
        n_senses = 0
        for (word, pos), senses in sorted(entries.items()):
            senses.sort()
            form = word.replace("_", " ")
            lines = [
                f'<LexicalEntry id="{lexicon_id}-{_xml_id(word)}-{pos}">',
                f'<Lemma writtenForm={quoteattr(form)} partOfSpeech="{pos}"/>',
            ]
            fpos = "a" if pos == "s" else pos
            for irregular in exceptions[fpos].get(word.lower(), ()) if word.islower() else ():
                lines.append(f"<Form writtenForm={quoteattr(irregular.replace('_', ' '))}/>")
                n_forms += 1
            for rank, key, wnum, adjpos in senses:
                sid = sense_id(key, wnum)
                # n = rank of this sense for the lower-cased lemma in the index file, so that
                # case variants ("Key" the poet, "key" the device) interleave in WordNet's order.
                attrs = f' n="{rank}"' + (f' adjposition="{adjpos}"' if adjpos else "")
                rels = sense_rels.get(sid, ())
                if rels:
                    lines.append(f'<Sense id="{sid}" synset="{ssid(key)}"{attrs}>')
                    lines.extend(f'<SenseRelation relType="{r}" target="{t}"/>' for r, t in rels)
                    lines.append("</Sense>")
                    n_senserel += len(rels)
                else:
                    lines.append(f'<Sense id="{sid}" synset="{ssid(key)}"{attrs}/>')
                n_senses += 1
            lines.append("</LexicalEntry>\n")
            out.write("".join(lines))
        out.write("\n".join(synset_xml))
        out.write("\n</Lexicon>\n</LexicalResource>\n")
    tmp.replace(out_path)
    return ConversionStats(
        lexicon_id, version, len(kept), n_senses, len(entries), n_def, n_ex, n_ssrel, n_senserel, n_forms
    )


# lexnames(5): lexicographer file numbers → names.
_LEXFILES = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
]


# --------------------------------------------------------------------------- the shipped small lexicon


def build_mini_lexicon(
    wndb_dir: str | Path, words_file: str | Path, out_path: str | Path, max_senses: int = 2
) -> ConversionStats:
    """Write the small WN-LMF lexicon shipped in ``data/wordnet`` from a WNDB directory.

    ``words_file`` lines are ``lemma<TAB>pos[<TAB>all]``: the first ``max_senses``
    senses of each (every sense with ``all``), plus their hypernym closure so
    that depth and related-gloss signals still work. Same synset ids as the
    full conversion (``wn30-<offset>-<pos>``), version ``3.0-mini``.
    """
    wndb_dir = Path(wndb_dir)
    wanted: list[tuple[str, str, bool]] = []
    for line in Path(words_file).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        wanted.append((f[0].strip().lower().replace(" ", "_"), f[1].strip(), len(f) > 2 and f[2].strip() == "all"))
    index = {p: _read_index(wndb_dir / f"index.{n}") for p, n in WNDB_POS_FILES.items()}

    def keep(data: dict) -> set:
        chosen: set = set()
        for lemma, pos, every in wanted:
            offsets = index.get(pos, {}).get(lemma, [])
            chosen.update((pos, off) for off in (offsets if every else offsets[:max_senses]))
        todo = list(chosen)
        while todo:  # hypernym closure
            key = todo.pop()
            for sym, toff, tpos, _s, _t in data[key].pointers:
                if sym in ("@", "@i") and (tpos, toff) not in chosen and (tpos, toff) in data:
                    chosen.add((tpos, toff))
                    todo.append((tpos, toff))
        return chosen

    version = wndb_version(wndb_dir)
    return convert_wndb(
        wndb_dir,
        out_path,
        lexicon_id="wn" + version.replace(".", ""),
        version=version + MINI_VERSION_SUFFIX,
        keep=keep,
        label=f"Princeton WordNet {version} (small subset shipped with textguard_pipeline)",
    )


def _main(argv: Sequence[str] | None = None) -> int:
    """``python -m textguard_pipeline.meanings.wndb build-mini WNDB_DIR`` regenerates data/wordnet."""
    p = argparse.ArgumentParser(prog="python -m textguard_pipeline.meanings.wndb")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build-mini", help="regenerate data/wordnet/wn30-mini.xml from a WNDB directory")
    b.add_argument("wndb_dir", nargs="?", default="/usr/share/wordnet")
    b.add_argument("--words", default=str(MINI_LEXICON_PATH.parent / "mini_words.txt"))
    b.add_argument("--out", default=str(MINI_LEXICON_PATH))
    c = sub.add_parser("convert", help="convert a WNDB directory to a WN-LMF file")
    c.add_argument("wndb_dir")
    c.add_argument("out")
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    if args.cmd == "build-mini":
        stats = build_mini_lexicon(args.wndb_dir, args.words, args.out)
        _write_gloss_frequency(Path(args.wndb_dir), MINI_LEXICON_PATH.parent / "gloss_frequency.tsv")
        from .sense_counts import MINI_COUNTS_PATH, write_sense_counts  # lazy: sense_counts imports this module

        kept = re.findall(r'<Synset id="([^"]+)"', Path(args.out).read_text(encoding="utf-8"))
        write_sense_counts(
            args.wndb_dir, MINI_COUNTS_PATH, "wn" + wndb_version(Path(args.wndb_dir)).replace(".", ""), kept
        )
    else:
        stats = convert_wndb(args.wndb_dir, args.out)
    print(f"{stats} in {time.perf_counter() - t0:.1f}s")
    return 0


def _write_gloss_frequency(wndb_dir: Path, out: Path, min_count: int = 20) -> None:
    """How many WordNet definitions use each word (≥ ``min_count``): the generality signal for the small lexicon."""
    df: Counter = Counter()
    n = 0
    for name in WNDB_POS_FILES.values():
        for ss in _read_data(wndb_dir / f"data.{name}", name[0]).values():
            n += 1
            df.update(set(re.findall(r"[a-z][a-z'-]*[a-z]|[a-z]", ss.definition.lower())))
    lines = [
        f"# Word -> number of WordNet {wndb_version(wndb_dir)} definitions using it "
        f"(words used by >= {min_count}). WordNet 3.0 Copyright 2006 by Princeton University.",
        f"# glosses = {n}",
    ]
    lines += [f"{w}\t{c}" for w, c in sorted(df.items(), key=lambda wc: (-wc[1], wc[0])) if c >= min_count]
    tmp = out.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(out)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
