"""The technical-usage prior (meanings/tech_prior.py, scripts/build_tech_prior.py) and the ranker features built
on it."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import numpy as np
import pytest

from textguard_pipeline.meanings import ranker as rk
from textguard_pipeline.meanings.tech_prior import load_tech_prior

ROOT = Path(__file__).resolve().parents[2]
WNDB = Path("/usr/share/wordnet")


def test_the_shipped_table_finds_manual_words_technical_and_everyday_words_not():
    prior = load_tech_prior()
    assert prior is not None and prior.man_total > 1_000_000 and prior.semcor_total > 50_000
    # "kernel": common in man pages, 8 SemCor tags; "child": common everywhere (hundreds of SemCor tags)
    assert prior.technicality("kernel", 8) > 2.0
    assert prior.technicality("Kernel", 8) == prior.technicality("kernel", 8)
    assert prior.technicality("child", 500) < 1.0
    assert prior.technicality("zzzunknown", 0) == 0.0  # unseen in both: no evidence either way
    assert prior.is_computing("wn30-06509210-n")  # computer file
    assert not prior.is_computing("wn30-13137010-n")  # a kernel of grain
    assert prior.is_living("wn30-10399491-n")  # a parent (a person)
    assert not prior.is_computing("wn30-06509210-v") and not prior.is_living("bogus")


def test_a_table_without_its_totals_or_with_an_unknown_row_is_refused(tmp_path):
    bad = tmp_path / "t.tsv"
    bad.write_text("# c\nlemma\tkernel\t5\n", encoding="utf-8")
    with pytest.raises(ValueError, match="totals"):
        load_tech_prior(str(bad))
    bad.write_text("total\t10\nsemcor\t10\nweird\tx\n", encoding="utf-8")
    with pytest.raises(ValueError, match="unknown row"):
        load_tech_prior(str(bad))
    assert load_tech_prior(str(tmp_path / "missing.tsv")) is None


def _page(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))


@pytest.mark.skipif(not (WNDB / "data.noun").is_file(), reason="Debian's wordnet-base is not installed")
def test_the_build_script_counts_nouns_of_man_pages_folding_plurals_and_is_deterministic(tmp_path):
    sys.path.insert(0, str(ROOT))
    from scripts import build_tech_prior as build

    man = tmp_path / "man"
    page = '.TH X 1\n.\\" a comment about dogs\n.SH DESCRIPTION\nThe \\fBkernel\\fR sends signals to threads.\n'
    _page(man / "man1" / "x.1.gz", page + ".B kernels\nqueries\n" * 5)
    _page(man / "man7" / "tcp.7.gz", "kernel " * 50)  # a page the labelled set quotes: left out
    _page(man / "man8" / "y.8.gz", ".so man1/x.1\n")  # a link: left out
    _page(man / "fr" / "man1" / "z.1.gz", "noyau " * 50)  # not an English section
    out1, out2 = tmp_path / "a.tsv", tmp_path / "b.tsv"
    assert build.main(["--man", str(man), "--wordnet", str(WNDB), "--out", str(out1)]) == 0
    assert build.main(["--man", str(man), "--wordnet", str(WNDB), "--out", str(out2)]) == 0
    assert out1.read_bytes() == out2.read_bytes()
    prior = load_tech_prior(str(out1))
    assert prior is not None
    assert prior.man["kernel"] == 6 and prior.man["query"] == 5  # "kernel" once, "kernels" ×5; "queries"
    assert "dog" not in prior.man and "noyau" not in prior.man and "signal" not in prior.man  # < 5
    assert prior.is_computing("wn30-06509210-n") and len(prior.computing) > 300


def test_the_ranker_marks_computing_senses_and_a_technical_lemma_without_one():
    from textguard_pipeline.meanings.senses import MeaningCandidate

    class Lesk:  # the ranker only asks the disambiguator for context stems and scores
        def context_stems(self, _m, _c):
            return set()

        def score(self, _stems, _c):
            return 0.0

    kernel = [
        MeaningCandidate("wn30-13137010-n", "kernel", "a single whole grain of a cereal", "n", 1),
        MeaningCandidate("wn30-05921123-n", "kernel", "the choicest or most essential part", "n", 2),
    ]
    counts = {("kernel", "wn30-13137010-n"): 4, ("kernel", "wn30-05921123-n"): 4}
    opts = rk.option_features(Lesk(), "kernel", "the kernel sends a signal", kernel, None, counts)
    none = dict(zip(rk.NONE_FEATURES, opts.none))
    assert none["tech"] > 2.0 and none["tech_nocomp"] == none["tech"]
    files = [MeaningCandidate("wn30-06509210-n", "file", "(computer science) a file maintained in computer", "n", 1)]
    f = rk.option_features(Lesk(), "file", "open the file", files, None, {("file", "wn30-06509210-n"): 3})
    col = {n: i for i, n in enumerate(rk.SENSE_FEATURES)}
    assert f.senses[0, col["computing"]] == 1.0 and dict(zip(rk.NONE_FEATURES, f.none))["tech_nocomp"] == 0.0
    bare = rk.option_features(Lesk(), "kernel", "the kernel", kernel, None, None)
    assert dict(zip(rk.NONE_FEATURES, bare.none))["tech"] == 0.0  # no SemCor counts: no comparison
    assert np.all(np.isfinite(opts.senses))
