"""A small corpus on disk for the defs_kit runs: the files, and the corpus/warehouse environment pointing at them."""

from pathlib import Path


def small_corpus(tmp_path: Path, monkeypatch, docs: dict[str, str]) -> Path:
    """Write ``docs`` (name → text) under ``tmp_path/corpus``; the warehouse is ``tmp_path/wh``."""
    root = tmp_path / "corpus"
    root.mkdir(exist_ok=True)
    for name, text in docs.items():
        (root / name).write_text(text, encoding="utf-8")
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(tmp_path / "wh"))
    return root
