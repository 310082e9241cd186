"""SemCor sense frequencies: how often each WordNet sense was tagged in the SemCor corpus.

Princeton WordNet's ``cntlist.rev`` (shipped by Debian's ``wordnet-base``) has lines
``sense_key sense_number tag_count``; ``sense_number`` is the lemma's rank in ``index.<pos>``,
so the synset is the ``sense_number``-th offset of that lemma there. ``textguard wordnet install``
writes them as a sidecar ``lemma<TAB>synset_id<TAB>count`` beside the installed lexicon; the shipped
small lexicon carries the counts of its lemmas in ``data/wordnet/sense_counts.tsv``. A lexicon
without a sidecar (installed before the counts existed, or not from WNDB) ranks senses by order only.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from ..lib.atomic import write_text_atomic
from .wndb import MINI_LEXICON_PATH, MINI_VERSION_SUFFIX, WNDB_POS_FILES, _read_index, wndb_version

logger = logging.getLogger(__name__)

CNTLIST = "cntlist.rev"
MINI_COUNTS_PATH = MINI_LEXICON_PATH.parent / "sense_counts.tsv"
# ss_type digit of a sense key → (index file pos, synset id pos)
_SS_TYPES = {"1": ("n", "n"), "2": ("v", "v"), "3": ("a", "a"), "4": ("r", "r"), "5": ("a", "s")}


def read_cntlist(wndb_dir: str | Path, lexicon_id: str = "wn30") -> dict[tuple[str, str], int]:
    """(lemma in lower case with spaces, synset id) → SemCor tag count, for senses tagged at least once."""
    wndb_dir = Path(wndb_dir)
    index = {p: _read_index(wndb_dir / f"index.{n}") for p, n in WNDB_POS_FILES.items()}
    counts: dict[tuple[str, str], int] = {}
    with open(wndb_dir / CNTLIST, encoding="utf-8") as fh:
        for line in fh:
            f = line.split()
            if len(f) != 3 or "%" not in f[0]:
                continue
            lemma, _, rest = f[0].partition("%")
            kind = _SS_TYPES.get(rest[:1])
            offsets = index[kind[0]].get(lemma.lower()) if kind else None
            n, tags = int(f[1]), int(f[2])
            if not offsets or not 1 <= n <= len(offsets) or tags <= 0:
                continue
            key = (lemma.lower().replace("_", " "), f"{lexicon_id}-{offsets[n - 1]}-{kind[1]}")
            counts[key] = counts.get(key, 0) + tags
    return counts


def write_sense_counts(
    wndb_dir: str | Path, out: str | Path, lexicon_id: str = "wn30", synsets: Iterable[str] | None = None
) -> int:
    """Write the sidecar (atomically); ``synsets`` restricts it (the small lexicon). Returns the row count."""
    counts = read_cntlist(wndb_dir, lexicon_id)
    if synsets is not None:
        wanted = set(synsets)
        counts = {k: v for k, v in counts.items() if k[1] in wanted}
    version = wndb_version(Path(wndb_dir))
    lines = [
        f"# SemCor tag counts of WordNet {version} senses (cntlist.rev), lexicon {lexicon_id}: lemma, synset, count.",
        "# WordNet 3.0 Copyright 2006 by Princeton University.",
    ]
    lines += [f"{lemma}\t{ssid}\t{c}" for (lemma, ssid), c in sorted(counts.items())]
    write_text_atomic(out, "\n".join(lines) + "\n")
    return len(counts)


def sidecar_path(lexicon_id: str, version: str, data_dir: Path) -> Path:
    """Where the counts of lexicon ``lexicon_id:version`` live."""
    if version.endswith(MINI_VERSION_SUFFIX):
        return MINI_COUNTS_PATH
    return data_dir / f"sense_counts-{lexicon_id}-{version}.tsv"


def ensure_sense_counts(
    lexicon_id: str, version: str, data_dir: Path, wndb_dirs: Iterable[str], log: Callable[[str], None]
) -> Path | None:
    """Write the sidecar of an installed Princeton lexicon from a WNDB directory with ``cntlist.rev``
    when it is missing (idempotent); None when no counts can be had (e.g. an OEWN download)."""
    out = sidecar_path(lexicon_id, version, data_dir)
    if out.is_file():
        return out
    for d in wndb_dirs:
        d = Path(d)
        if (d / CNTLIST).is_file() and (d / "index.noun").is_file() and wndb_version(d) == version:
            n = write_sense_counts(d, out, lexicon_id)
            load_counts.cache_clear()
            log(f"wordnet: wrote SemCor counts of {n:,} senses to {out}")
            return out
    log(f"wordnet: no SemCor sense counts for {lexicon_id}:{version} (senses are ranked by order only)")
    return None


@lru_cache(maxsize=4)
def load_counts(path: str) -> dict[tuple[str, str], int] | None:
    """The sidecar as a dict (read once per path); None, with one warning, when it is missing or unreadable."""
    counts: dict[tuple[str, str], int] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("#"):
                    continue
                f = line.rstrip("\n").split("\t")
                if len(f) == 3:
                    counts[(f[0], f[1])] = int(f[2])
    except (OSError, ValueError) as exc:
        logger.warning(
            "no SemCor sense counts (%s): senses are ranked by WordNet order only; "
            "run `textguard wordnet install` to write them",
            exc.strerror if isinstance(exc, OSError) else exc,
        )
        return None
    return counts


def counts_for(wnet) -> dict[tuple[str, str], int] | None:
    """The SemCor counts of ``wnet``'s (first) lexicon, or None (rank-only)."""
    from .wordnet_install import wn_data_dir  # lazy: imports wn

    lexicons = wnet.lexicons()
    if not lexicons:
        return None
    lex = lexicons[0]
    return load_counts(str(sidecar_path(lex.id, lex.version, wn_data_dir())))


def sense_tag_count(counts: dict[tuple[str, str], int] | None, lemma: str, synset_id: str) -> int | None:
    """Tag count of ``lemma``'s sense in ``synset_id`` (0 when untagged); None when no counts are installed."""
    if counts is None:
        return None
    return counts.get((lemma.lower(), synset_id), 0)
