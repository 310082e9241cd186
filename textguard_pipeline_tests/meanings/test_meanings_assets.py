"""resolved_meanings through Dagster on a small corpus: real WordNet meanings, suppression, checks, metadata."""

import shutil
from pathlib import Path

import pytest
from dagster import AssetKey, DagsterInstance

from textguard_pipeline.core.meanings import RESOLVED_COLUMNS
from textguard_pipeline.defs_kit.io_manager import read_parquet

from ._wordnet_mini import mini_wordnet

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "corpus" / "evaluate_bleu_readme.md"

TEX = r"""\section{Introduction}
Thomas Aquinas wrote about the translation of texts. The \emph{encryption} of a message needs a key
\citep{aquinas1265}, and the key $k$ must stay secret.

An academic degree is a credential; the translation quality is judged by a metric.
"""


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    root = tmp_path / "corpus"
    root.mkdir()
    shutil.copy(SAMPLE, root / "bleu.md")
    (root / "paper.tex").write_text(TEX, encoding="utf-8")
    (root / "empty.txt").write_text("\n", encoding="utf-8")
    rules = tmp_path / "suppressions.csv"
    rules.write_text(
        "meaning_id,normalized_label,index_type,scope,suppression_mode\n"
        ",encryption,subject,document:paper.tex,block_all\n",
        encoding="utf-8",
    )
    wh = tmp_path / "warehouse"
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(wh))
    monkeypatch.setenv("TEXTGUARD_SUPPRESSIONS", str(rules))
    for var in ("TEXTGUARD_LLM_URL", "TEXTGUARD_WIKIDATA_URL", "TEXTGUARD_WIKIDATA_MODE", "TEXTGUARD_MEANINGS_LLM"):
        monkeypatch.delenv(var, raising=False)
    with mini_wordnet(str(tmp_path / "wn")):
        yield root, wh


def test_resolved_meanings(corpus):
    from textguard_pipeline.operations.report import materialize_corpus

    root, wh = corpus
    inst = DagsterInstance.ephemeral()
    res = materialize_corpus(
        instance=inst, select="source_documents parsed_chunks resolved_meanings", log=lambda *_: None
    )
    assert not res.step_failures and res.ok
    checks = {o.check for o in res.outcomes if o.check.startswith("resolved_meanings/")}
    assert checks == {
        "resolved_meanings/resolved_meanings_char_ranges",
        "resolved_meanings/resolved_meanings_meaning_ids",
        "resolved_meanings/resolved_meanings_not_suppressed",
        "resolved_meanings/resolved_meanings_merge_keys",
        "resolved_meanings/resolved_meanings_documents_ok",
    }
    assert all(o.status == "passed" for o in res.outcomes if o.check in checks)

    frames = {p.name.removesuffix(".parquet"): read_parquet(p) for p in (wh / "resolved_meanings").glob("*.parquet")}
    assert set(frames) == {"bleu.md", "paper.tex", "empty.txt"}
    assert list(frames["empty.txt"].columns) == RESOLVED_COLUMNS and len(frames["empty.txt"]) == 0
    for name, df in frames.items():
        text = (root / name).read_text(encoding="utf-8")
        assert list(df.columns) == RESOLVED_COLUMNS
        assert all(text[r.start : r.end] == r.text for r in df.itertuples())
    bleu, paper = frames["bleu.md"], frames["paper.tex"]
    assert (bleu["meaning_type"] == "wordnet").sum() >= 10  # real WordNet meanings, not only custom
    assert bleu["meaning_id"].dropna().str.startswith("wn30-").all()
    assert {"translation", "metric", "academic degree"} <= set(paper["label"])
    assert "encryption" not in set(paper["label"])  # suppressed for this document only
    assert paper[paper.index_type == "author"]["label"].tolist() == ["Aquinas, Thomas"]
    assert len(set(bleu["run_id"]) | set(paper["run_id"])) == 1 and bleu["run_id"].iloc[0]

    # each document's materialization carries its own counts
    by_doc = {}
    for rec in inst.fetch_materializations(AssetKey("resolved_meanings"), limit=50).records:
        by_doc.setdefault(rec.asset_materialization.partition, rec.asset_materialization.metadata)
    assert set(by_doc) == {"bleu.md", "paper.tex", "empty.txt"}
    assert all(md["lexicon"].value.startswith("wn30:") and md["llm"].value == "off" for md in by_doc.values())
    # the rule-based default: no token columns filled, no LLM cost metadata
    assert not any(k.startswith("llm_") for md in by_doc.values() for k in md)
    assert all(f["prompt_tokens"].isna().all() and f["completion_tokens"].isna().all() for f in frames.values())
    assert by_doc["paper.tex"]["suppressed"].value >= 1 and by_doc["bleu.md"]["suppressed"].value == 0
    assert by_doc["bleu.md"]["meaning_types"].data["wordnet"] == (bleu["meaning_type"] == "wordnet").sum()
    assert by_doc["bleu.md"]["dagster/row_count"].value == len(bleu)
    # issue 16: per document, the share of noun phrases dropped by each exclusion rule
    paper_stats = by_doc["paper.tex"]["per_document"].data["paper.tex"]
    shares = paper_stats["excluded_share"]
    assert paper_stats["noun_chunks"] > (paper.index_type == "subject").sum()
    assert "everyday_polysemy" in shares  # "the key $k$": 15 WordNet senses
    assert all(0 < v <= 1 for v in shares.values()) and sum(shares.values()) < 1
    assert by_doc["empty.txt"]["per_document"].data["empty.txt"]["excluded_share"] == {}


def test_resource_without_lexicon(tmp_path, monkeypatch):
    from textguard_pipeline.core.wordnet_setup import WordNetNotInstalled, wn_data_dir
    from textguard_pipeline.meanings.defs import MeaningsResource

    for var in ("TEXTGUARD_LLM_URL", "TEXTGUARD_WIKIDATA_URL", "TEXTGUARD_MEANINGS_LLM", "TEXTGUARD_WN_LEXICON"):
        monkeypatch.delenv(var, raising=False)
    try:
        monkeypatch.setenv("TEXTGUARD_WN_DATA", str(tmp_path / "none"))
        with pytest.raises(WordNetNotInstalled, match="textguard wordnet install"):
            MeaningsResource(install_small_lexicon=False).resolver()
        monkeypatch.setenv("TEXTGUARD_WN_DATA", str(tmp_path / "fresh"))
        r = MeaningsResource.from_env().resolver()  # a fresh clone: the small shipped lexicon, flagged
        assert r.lexicon.endswith("-mini") and "small" in r.lexicon_warning
        assert r.llm is None and r.wikidata_label == "wikidata:off"
    finally:
        monkeypatch.undo()
        wn_data_dir()
