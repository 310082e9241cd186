"""Word statistics of a lexicon's glosses: the tokens and crude stems Lesk compares, and how many definitions
use each stem (:class:`GlossStats`: the stopword signal, no stopword list). Computed once per lexicon (one pass
over the definitions table, kept in a JSON file beside the database); WordNet 3.0's shipped counts stand in for
a lexicon too small to tell function words. No dagster imports.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

from ..settings import PROJECT_ROOT
from .wordnet_install import lexicon_database, read_only

_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]")


def tokens(text: str) -> list[str]:
    """The words of ``text`` in lower case (ASCII letters, inner apostrophes and hyphens)."""
    text = text or ""
    if text.isascii():  # lower-casing first finds the same words (a word is ASCII only), in one pass
        return _WORD_RE.findall(text.lower())
    return [t.lower().strip("'-") for t in _WORD_RE.findall(text)]


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Crude stem so that 'encrypted', 'encryption', 'encrypts' meet (prefix + plural strip)."""
    w = word.lower()
    for suf in ("'s", "ies", "es", "s"):
        if w.endswith(suf) and len(w) - len(suf) >= 3 and not w.endswith("ss"):
            w = w[: -len(suf)] + ("y" if suf == "ies" else "")
            break
    return w[:6] if len(w) > 7 else w


class GlossStats:
    """Document frequency of stems over every definition of a lexicon (the stopword signal)."""

    def __init__(self, df: Counter, n_docs: int, word_df: Counter | None = None):
        self.df = df
        self.n_docs = max(1, n_docs)
        self.word_df = word_df or Counter()
        self._weights: dict[str, float] = {}  # stem → weight: Lesk asks for the same stems at every mention

    def idf(self, s: str) -> float:
        return math.log((self.n_docs + 1) / (self.df.get(s, 0) + 1))

    def weight(self, s: str) -> float:
        """idf, with words in more than 0.5 % of glosses (the, of, used, ...) weighing nothing."""
        w = self._weights.get(s)
        if w is None:
            w = self._weights[s] = 0.0 if self.df.get(s, 0) > 0.005 * self.n_docs or len(s) < 3 else self.idf(s)
        return w

    def frequency(self, word: str) -> float:
        """Share of glosses that use ``word`` (singular or plural) — how 'defining' it is."""
        w = word.lower()
        return (self.word_df.get(w, 0) + self.word_df.get(w + "s", 0)) / self.n_docs


@lru_cache(maxsize=8)
def gloss_stats_for(specs: tuple[str, ...], db_path: str) -> GlossStats:
    """One pass over the definitions table (≈ 1-2 s for 117k synsets), cached in memory and on disk."""
    db = Path(db_path)
    cache = db.with_name("gloss-stats-" + hashlib.sha1("|".join(specs).encode()).hexdigest()[:12] + ".json")
    try:
        if cache.stat().st_mtime >= db.stat().st_mtime:
            data = json.loads(cache.read_text(encoding="utf-8"))
            return GlossStats(Counter(data["df"]), data["n_docs"], Counter(data["word_df"]))
    except (OSError, ValueError, KeyError):
        pass
    df: Counter = Counter()
    word_df: Counter = Counter()
    n = 0
    with read_only(db_path) as conn:
        rows = conn.execute(
            "SELECT d.definition FROM definitions AS d JOIN lexicons AS l ON l.rowid = d.lexicon_rowid "
            f"WHERE l.specifier IN ({','.join('?' * len(specs))})",
            specs,
        )
        for (definition,) in rows:
            n += 1
            toks = set(tokens(definition or ""))
            word_df.update(toks)
            df.update({stem(t) for t in toks})
    try:  # best effort: a read-only data directory just means recomputing next time
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"n_docs": n, "df": df, "word_df": word_df}), encoding="utf-8")
        tmp.replace(cache)
    except OSError:
        pass
    return GlossStats(df, n, word_df)


def gloss_stats(wnet) -> GlossStats:
    """Gloss frequencies of the lexicon; WordNet 3.0's shipped counts when the lexicon is small."""
    db_path, specs = lexicon_database(wnet)
    stats = gloss_stats_for(specs, db_path)
    if stats.n_docs < 20_000:  # a small lexicon's glosses are too few to tell function words
        stats = shipped_gloss_stats() or stats
    return stats


@lru_cache(maxsize=1)
def shipped_gloss_stats() -> GlossStats | None:
    """Word frequencies over the WordNet 3.0 glosses, shipped for the small lexicon."""
    path = PROJECT_ROOT / "data" / "wordnet" / "gloss_frequency.tsv"
    if not path.is_file():
        return None
    word_df: Counter = Counter()
    n_docs = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            m = re.match(r"#\s*glosses\s*=\s*(\d+)", line)
            if m:
                n_docs = int(m.group(1))
            continue
        word, _, count = line.partition("\t")
        if count:
            word_df[word] = int(count)
    df: Counter = Counter()
    for w, c in word_df.items():
        df[stem(w)] += c
    return GlossStats(df, n_docs, word_df)
