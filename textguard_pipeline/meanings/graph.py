"""Personalized PageRank over WordNet's synset graph (issue 16 item 3).

Every noun of a document puts weight on the senses it may have (1 / number of senses per lemma, as the
domain votes do); a random walk over WordNet's synset relations (hypernyms, hyponyms, parts, members,
domains …), restarting at those senses, then ranks the senses the document's nouns hold together: the
"crown" next to "molar" and "enamel" is the dental one. This is the "ppr" walk of Agirre & Soroa
(UKB, EACL 2009) without its disambiguated-gloss edges. A lemma's own restart weight (the same on each of its
senses) is taken out before the senses are compared, so that what counts is what the walk brings them from
the other nouns (UKB's word-to-word variant, to first order: echoes of that weight stay in).

:func:`graph_scores` gives each sense ln(its rank / the best rank among its lemma's senses): 0 for the
best-connected sense, negative for the others. :class:`~.domains.DomainProfile` adds it, times a weight
chosen on the dev half of the labelled set, to the domain bonus. Plain numpy, one walk per profile
(≈ 0.05 s on the full WordNet 3.0: 117,659 synsets, 285,348 edges). No dagster imports.
"""

from __future__ import annotations

import hashlib
import math
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from .senses import lexicon_cache
from .wordnet_install import lexicon_database, read_only

#: Probability of following an edge rather than restarting (UKB's default).
DAMPING = 0.85
#: Power iterations (the ranks change by < 1e-4 after ≈ 30 on WordNet).
ITERATIONS = 30
#: Floor of a sense's ln rank ratio: a sense far from the document's nouns is unlikely, not impossible.
MIN_LOG_RATIO = -5.0


class SynsetGraph:
    """WordNet's synsets as nodes, its synset relations as edges (both directions are stored by wn)."""

    def __init__(self, ids: Sequence[str], edges: np.ndarray):
        self.index = {sid: i for i, sid in enumerate(ids)}
        self.size = len(ids)
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        self._src, self._dst = edges[:, 0], edges[:, 1]
        degree = np.bincount(self._src, minlength=self.size).astype(np.float64)
        self._step = 1.0 / np.maximum(degree[self._src], 1.0)

    @property
    def edge_count(self) -> int:
        return len(self._src)

    @classmethod
    def from_database(cls, db_path: str, specs: Sequence[str]) -> "SynsetGraph":
        """The graph of the lexicons ``specs`` in wn's SQLite database."""
        return cls(*cls.rows(db_path, specs))

    @staticmethod
    def rows(db_path: str, specs: Sequence[str]) -> tuple[list[str], np.ndarray]:
        """(synset ids, edges as index pairs) of the lexicons ``specs`` in wn's SQLite database."""
        marks = ",".join("?" * len(specs))
        with read_only(db_path) as conn:
            rows = conn.execute(
                "SELECT s.rowid, s.id FROM synsets AS s JOIN lexicons AS l ON l.rowid = s.lexicon_rowid "
                f"WHERE l.specifier IN ({marks})",
                list(specs),
            ).fetchall()
            position = {rowid: i for i, (rowid, _id) in enumerate(rows)}
            pairs = conn.execute(
                "SELECT r.source_rowid, r.target_rowid FROM synset_relations AS r "
                f"JOIN lexicons AS l ON l.rowid = r.lexicon_rowid WHERE l.specifier IN ({marks})",
                list(specs),
            ).fetchall()
        edges = [(position[a], position[b]) for a, b in pairs if a in position and b in position]
        return [sid for _rowid, sid in rows], np.array(edges, dtype=np.int64)

    def rank(self, restart: np.ndarray) -> np.ndarray:
        """Personalized PageRank with restart distribution ``restart`` (sums to 1)."""
        p = restart.copy()
        for _ in range(ITERATIONS):
            p = (1 - DAMPING) * restart + DAMPING * np.bincount(
                self._dst, weights=p[self._src] * self._step, minlength=self.size
            )
        return p


def synset_graph(wnet: Any) -> SynsetGraph | None:
    """The lexicon's graph, read once per machine (≈ 0.5 s for WordNet 3.0; then an .npz beside the database,
    stale when the database is newer) and once per process; None if it has no relations."""
    cache = lexicon_cache(wnet, "synset_graph")
    if "graph" not in cache:
        db_path, specs = lexicon_database(wnet)
        try:
            stamp = Path(db_path).stat().st_mtime
        except OSError:
            stamp = 0.0
        cache["graph"] = load_graph(db_path, tuple(specs), stamp)
    return cache["graph"]


@lru_cache(maxsize=4)
def load_graph(db_path: str, specs: tuple[str, ...], _stamp: float) -> SynsetGraph | None:
    """The graph of ``specs`` in the database at ``db_path`` (as it was at modification time ``_stamp``): the
    report's parent loads it before forking (``operations/preload.py``), so its workers find it here."""
    db = Path(db_path)
    stored = db.with_name("synset-graph-" + hashlib.sha1("|".join(specs).encode()).hexdigest()[:12] + ".npz")
    graph = None
    try:
        if stored.stat().st_mtime >= db.stat().st_mtime:
            with np.load(stored) as z:
                graph = SynsetGraph(z["ids"].tolist(), z["edges"])
    except (OSError, ValueError, KeyError):
        graph = None
    if graph is None:
        ids, edges = SynsetGraph.rows(db_path, specs)
        graph = SynsetGraph(ids, edges)
        try:  # best effort: a read-only data directory just means reading the database next time
            tmp = stored.with_name(f".{stored.stem}.{os.getpid()}.tmp.npz")
            np.savez(tmp, ids=np.array(ids), edges=np.asarray(edges, dtype=np.int64).reshape(-1, 2))
            tmp.replace(stored)
        except OSError:
            pass
    return graph if graph.edge_count else None


def graph_scores(graph: SynsetGraph | None, senses_of: Mapping[str, Sequence[str]]) -> dict[str, dict[str, float]]:
    """lemma → {meaning id: ln(rank / best rank among the lemma's senses)} for lemmas with ≥ 2 senses.

    ``senses_of``: each noun lemma of the document (or section) → its WordNet meaning ids.
    """
    if graph is None:
        return {}
    known = {lemma: [m for m in ids if m in graph.index] for lemma, ids in senses_of.items()}
    known = {lemma: ids for lemma, ids in known.items() if ids}
    if len(known) < 2:  # a lone noun has no other noun to be connected with
        return {}
    restart = np.zeros(graph.size)
    for ids in known.values():
        for m in ids:
            restart[graph.index[m]] += 1.0 / len(ids)
    total = restart.sum()
    restart /= total
    ranks = graph.rank(restart)
    out = {}
    for lemma, ids in known.items():
        if len(ids) < 2:
            continue
        own = (1 - DAMPING) / (len(ids) * total)  # the lemma's own restart weight on each of its senses
        vals = {m: max(1e-300, ranks[graph.index[m]] - own) for m in ids}
        best = max(vals.values())
        out[lemma] = {m: max(MIN_LOG_RATIO, math.log(v / best)) for m, v in vals.items()}
    return out
