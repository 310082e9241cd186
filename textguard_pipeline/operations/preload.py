"""Load what every report worker needs, once, in the parent, before the workers are forked.

A forked worker inherits the parent's memory copy-on-write, so a model the parent has loaded costs the worker
nothing (each worker otherwise paid ≈ 6 s of CPU in its first document: spaCy's NER and parse pipelines, the
language identifier, the compiled citation and number patterns, the sentence encoder). Only read-only,
fork-safe things are loaded here: nothing that keeps a database connection open (WordNet's SQLite, the
instance: WordNet's bulk tables, gloss statistics and synset graph are files beside its database) or starts a thread — a thread in the parent makes :func:`.parallel.start_method` choose *spawn*, which
inherits nothing, and an SQLite connection must not cross a fork. Each piece goes through the same cached
function the assets call, with the same arguments, so the workers find it in those caches.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from .. import settings
from ..ingest.build import parse_chunks
from ..ingest.languages import default_detector
from ..lib.encoder import default_encoder
from ..lib.nlp import load_spacy
from ..meanings import graph, wn_tables
from ..meanings.gloss_stats import gloss_stats_for
from ..meanings.wordnet_install import wn_data_dir, wordnet_status
from ..protection.build import build_protected_chunks, protector_for

log = logging.getLogger(__name__)

#: a little English prose with a citation, numbers and a list: enough to reach every lazily loaded model
_SAMPLE = (
    "# Notes\n\nThe survey by Smith et al. (2020) covers 12 methods; see [3] and Table 2.\n\n"
    "1. First, the committee met in Paris on 3 May 2021.\n2. Second, it measured 4.5 kg of samples.\n"
)


def preload_shared() -> float:
    """Load the shared read-only models and patterns in this process; returns the CPU seconds it took.
    A piece that cannot load (a model not installed) is left to the worker, which reports it as before."""
    t0 = time.process_time()
    for step in (_ingest, _protection, _meanings, _wordnet):
        try:
            step()
        except Exception as exc:  # noqa: BLE001 - the asset meets the same error and reports it properly
            log.debug("preload %s skipped: %s", step.__name__, exc)
    return time.process_time() - t0


def _ingest() -> None:
    default_detector()._ident()  # the language identifier's model (≈ 120 MB)
    parse_chunks(_SAMPLE, "md", "preload.md", ".")


def _protection() -> None:
    # spaCy's `ner` profile, the citation and number patterns of English, the recogniser registry
    build_protected_chunks(
        "preload.md",
        parse_chunks(_SAMPLE, "md", "preload.md", "."),
        protector_for(settings.protection_settings()),
    )


def _meanings() -> None:
    meanings = settings.meanings_settings()
    load_spacy(meanings.spacy_model or None, profile="parse")  # as meanings.resolver.build_resolver asks for it
    if meanings.sense_encoder != "off":
        default_encoder(meanings.sense_encoder_precision)


def _wordnet() -> None:
    # read from their files beside wn.db (or built with a connection closed at once), never through wn's pool
    import wn  # lazy: wn opens its database on use; nothing here asks it to

    info = wordnet_status()
    if info is None:
        return
    wn_data_dir()
    db = Path(wn.config.database_path)
    spec = (info.spec,)  # the lexicons of meanings.wordnet_install.open_wordnet's wordnet
    wn_tables.load_tables(str(db), info.spec, wn_tables.identity(db))
    gloss_stats_for(spec, str(db))
    graph.load_graph(str(db), spec, db.stat().st_mtime)
