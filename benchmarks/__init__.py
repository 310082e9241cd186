"""Benchmarks (`make bench`); see ``__main__``."""

from pathlib import Path

#: The public dev corpus, ``../shared/corpus`` beside the project's root (where CI and a checkout put it).
SHARED_CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
