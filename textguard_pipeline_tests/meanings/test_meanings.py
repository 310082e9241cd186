import hashlib
import json

import pandas as pd
import pytest

from textguard_pipeline.core.llm import ChatClient, LLMConfig
from textguard_pipeline.core.meanings import (
    Candidate,
    CandidateFinder,
    EmbeddedChooser,
    Item,
    LLMDisambiguator,
    MeaningResolver,
    MeaningSettings,
    SuppressionError,
    custom_candidate,
    frame_rules_for,
    load_suppressions,
    meaning_id_violations,
    merge_key,
    merge_key_violations,
    normalize_label,
    suppression_violations,
)
from textguard_pipeline.core.nlp import load_spacy, model_label
from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.core.wikidata import WikidataClient, WikidataConfig
from textguard_pipeline.core.wordnet_senses import wordnet_candidates

from ._wordnet_mini import mini_wordnet

CHAT = "POST /v1/chat/completions"
WD = "GET /w/api.php"

TEXT = (
    "Thomas Aquinas proposed a metric for machine translation. The translation of each sentence is compared "
    "with a reference translation, and the corpus score is the geometric mean of the precisions.\n\n"
    "An academic degree is not a thing; the encryption of a message needs a key.\n"
)


@pytest.fixture(scope="module")
def wnet(tmp_path_factory):
    with mini_wordnet(str(tmp_path_factory.mktemp("wn"))) as w:
        yield w


@pytest.fixture(scope="module")
def nlp():
    return load_spacy(profile="parse")


def wd_search(*items):
    return {"status": 200, "json": {"search": [{"id": q, "label": lab, "description": d} for q, lab, d in items]}}


def wd_client(standin, tmp_path, mode="online"):
    return WikidataClient(
        WikidataConfig(base_url=standin.base_url, mode=mode, cache_dir=str(tmp_path / "wd"), timeout_s=2)
    )


def chat(standin, **kw):
    return ChatClient(
        LLMConfig(
            base_url=f"{standin.base_url}/v1",
            model="stand-in",
            max_retries=0,
            timeout_s=kw.pop("timeout_s", 5),
            backoff_s=0.01,
            # one request at a time: these tests script the answers as a queue, in request order
            concurrency=kw.pop("concurrency", 1),
        )
    )


def resolver(nlp, wnet, **kw):
    from textguard_pipeline.core.wordnet_setup import wordnet_status

    return MeaningResolver(nlp=nlp, wnet=wnet, lexicon=wordnet_status().spec, spacy_label=model_label(nlp), **kw)


# ---------------------------------------------------------------------------
# labels, keys


def test_normalize_label_and_merge_key():
    assert normalize_label("  Divine   Simplicity. ") == "divine simplicity"
    assert normalize_label("Ｆａｉｔｈ") == "faith"
    assert merge_key("subject", "wordnet", "wn30-1-n", "faith") == "subject|wordnet|wn30-1-n"
    assert merge_key("author", "wikidata", "wikidata:Q1", "x") == "author|wikidata|wikidata:Q1"
    assert merge_key("subject", "custom", None, "modal realism") == "subject|modal realism|custom"


# ---------------------------------------------------------------------------
# candidates (the seed's heuristics) against the Wikidata stand-in


def test_candidate_heuristics(fresh_standin, tmp_path, wnet):
    humans = {
        "status": 200,
        "json": {"entities": {"Q43115": {"claims": {"P31": [{"mainsnak": {"datavalue": {"value": {"id": "Q5"}}}}]}}}},
    }
    fresh_standin.script({WD: [wd_search(("Q43115", "Athanasius of Alexandria", "bishop")), humans]})
    f = CandidateFinder(wnet, wd_client(fresh_standin, tmp_path))
    cands, rule = f.find("Athanasius", "author")
    assert rule == "author_wikidata_person"
    assert [(c.meaning_type, c.meaning_id) for c in cands] == [("wikidata", "wikidata:Q43115"), ("custom", None)]
    # "LastName, FirstName" labels are searched as "FirstName LastName"
    fresh_standin.script({WD: [wd_search()]})
    f.find("Aquinas, Thomas", "author", lookup="Aquinas, Thomas")
    assert fresh_standin.requests()[-1]["query"]["search"] == "Thomas Aquinas"

    # Title Case with >= 3 hits: Wikidata first
    fresh_standin.script(
        {WD: [wd_search(("Q1", "Deep Learning", "a"), ("Q2", "Deep Learning", "b"), ("Q3", "x", "c"))]}
    )
    cands, rule = f.find("Deep Learning", "subject")
    assert rule == "title_case_wikidata" and len(cands) == 4 and cands[-1].meaning_type == "custom"
    # Title Case with fewer hits falls through to WordNet
    fresh_standin.script({WD: [wd_search(("Q9", "Translation", "a"))]})
    cands, rule = f.find("Translation", "subject", lookup="translation", pos="n")
    assert rule == "wordnet" and all(c.meaning_type == "wordnet" for c in cands) and len(cands) >= 2
    # >= 3 words: Wikidata + custom
    fresh_standin.script({WD: [wd_search(("Q7", "statistical machine translation", "approach"))]})
    cands, rule = f.find("statistical machine translation", "subject")
    assert rule == "multiword_wikidata_custom" and [c.meaning_type for c in cands] == ["wikidata", "custom"]
    # unknown to WordNet: Wikidata, then custom
    fresh_standin.script({WD: [wd_search()]})
    cands, rule = f.find("zorbulation", "subject")
    assert rule == "custom_fallback" and cands == [custom_candidate("zorbulation")]
    # an acronym does not match a lower-case WordNet word ("BLEU" is not the cheese)
    assert f.find("BLEU", "subject", lookup="BLEU")[1] in ("custom_fallback", "wikidata_fallback")
    # cached: asking again makes no request
    n = len(fresh_standin.requests())
    f.find("Athanasius", "author")
    assert len(fresh_standin.requests()) == n


def test_wikidata_errors_fall_back_and_are_counted(fresh_standin, tmp_path, wnet):
    fresh_standin.script({WD: [{"status": 200, "body": "not json", "content_type": "text/plain"}]})
    f = CandidateFinder(wnet, wd_client(fresh_standin, tmp_path))
    cands, rule = f.find("Athanasius", "author")
    assert rule == "author_wikidata_person" and [c.meaning_type for c in cands] == ["custom"]
    assert f.wikidata_errors == {"invalid_json": 1} and "invalid_json" in f.last_wikidata_error


def test_offline_wikidata_serves_cache_only(fresh_standin, tmp_path, wnet):
    fresh_standin.script({WD: [wd_search(("Q1", "A", "a"), ("Q2", "A", "b"), ("Q3", "A", "c"))]})
    CandidateFinder(wnet, wd_client(fresh_standin, tmp_path)).find("Deep Learning", "subject")
    fresh_standin.clear()
    offline = CandidateFinder(wnet, wd_client(fresh_standin, tmp_path, mode="cache_only"))
    assert offline.find("Deep Learning", "subject")[1] == "title_case_wikidata"
    assert offline.find("Machine Learning Systems", "subject")[0] == [custom_candidate("Machine Learning Systems")]
    assert fresh_standin.requests() == []


# ---------------------------------------------------------------------------
# embedded choice


def test_embedded_chooser(wnet):
    ch = EmbeddedChooser(wnet)
    cands = [
        Candidate("wordnet", c.meaning_id, c.lemma, c.gloss, c.sense_rank, c)
        for c in wordnet_candidates(wnet, "sentence", pos="n")
    ]
    d = ch.choose("sentence", "the judge passed sentence on the convicted criminal after the trial", cands)
    assert d.candidate.meaning_type == "wordnet" and d.source == "lesk" and "criminal" in d.candidate.gloss
    wd = [
        Candidate("wikidata", "wikidata:Q1", "A", "a", 1),
        Candidate("wikidata", "wikidata:Q2", "B", "b", 2),
        custom_candidate("A"),
    ]
    d = ch.choose("A", "", wd)
    assert d.candidate.meaning_id == "wikidata:Q1" and d.reason_code == "top_search_hit"
    d = ch.choose("zorb", "", [custom_candidate("zorb")])
    assert d.candidate.meaning_type == "custom" and d.reason_code == "no_candidates" and d.confidence is None


# ---------------------------------------------------------------------------
# LLM disambiguator


def items(n):
    out = []
    for i in range(1, n + 1):
        cands = [
            Candidate("wordnet", f"wn30-{i:08d}-n", "w", "first gloss", 1),
            Candidate("wordnet", f"wn30-{i:08d}-v", "w", "second gloss", 2),
            custom_candidate(f"w{i}"),
        ]
        more = cands[:2] + [Candidate("wordnet", f"wn30-{i:08d}-a", "w", "third gloss", 3), custom_candidate(f"w{i}")]
        out.append(Item(f"entry_{i}", f"w{i}", "subject", f"short context {i}", f"LARGER CONTEXT {i}", cands, more))
    return out


def results(ids, conf=0.9, suffix="-n"):
    return {
        "results": [
            {
                "itemId": f"entry_{i}",
                "meaning_type": "wordnet",
                "meaning_id": f"wn30-{i:08d}{suffix}",
                "confidence": conf,
                "reason_code": "clear_match",
            }
            for i in ids
        ]
    }


def test_llm_batches_and_hard_case_retry(fresh_standin):
    first = results(range(1, 21))
    first["results"][4]["confidence"] = 0.4  # entry_5 is a hard case
    first["results"][6]["meaning_id"] = "wn30-99999999-n"  # not offered: ignored, never invented
    retry = {
        "results": [
            {
                "itemId": "entry_5",
                "meaning_type": "wordnet",
                "meaning_id": "wn30-00000005-a",
                "confidence": 0.8,
                "reason_code": "context_match",
            }
        ]
    }
    fresh_standin.script(
        {
            CHAT: [
                fresh_standin.chat_reply(json.dumps(first)),
                fresh_standin.chat_reply(json.dumps(results(range(21, 26), 0.95, "-v"))),
                fresh_standin.chat_reply(json.dumps(retry)),
            ]
        }
    )
    dis = LLMDisambiguator(chat(fresh_standin), batch_size=20)
    got = dis.resolve(items(25))
    reqs = [json.loads(json.loads(r["body"])["messages"][1]["content"]) for r in fresh_standin.requests()]
    assert [len(r["items"]) for r in reqs] == [20, 5, 1]
    assert reqs[2]["items"][0]["itemId"] == "entry_5" and reqs[2]["items"][0]["context"] == "LARGER CONTEXT 5"
    assert len(reqs[2]["items"][0]["candidates"]) == 4  # more candidates on the retry
    assert reqs[0]["items"][0]["candidates"][-1] == {
        "meaning_type": "custom",
        "meaning_id": None,
        "gloss": "None of these fit",
    }
    assert got["entry_5"].candidate.meaning_id == "wn30-00000005-a" and got["entry_5"].confidence == 0.8
    assert "entry_7" not in got and dis.stats["invalid_choice"] == 1
    assert got["entry_22"].candidate.meaning_id == "wn30-00000022-v" and got["entry_1"].source == "llm:stand-in"
    assert dis.stats["hard_retries"] == 1 and dis.stats["batches"] == 2


def test_llm_disambiguator_invalid_json_and_timeout(fresh_standin):
    fresh_standin.script({CHAT: [fresh_standin.chat_reply("no json here")]})
    dis = LLMDisambiguator(chat(fresh_standin))
    assert dis.resolve(items(3)) == {} and dis.stats["error_invalid_json"] == 1
    fresh_standin.script({CHAT: [{**fresh_standin.chat_reply(json.dumps(results([1]))), "delay": 1.0}]})
    dis = LLMDisambiguator(chat(fresh_standin, timeout_s=0.3))
    assert dis.resolve(items(1)) == {} and dis.stats["error_timeout"] == 1
    with pytest.raises(ValueError):
        LLMDisambiguator(None, batch_size=50)


# ---------------------------------------------------------------------------
# suppression


def write_rules(path, lines):
    path.write_text("meaning_id,normalized_label,index_type,scope,suppression_mode\n" + "\n".join(lines) + "\n")
    return path


def test_suppression_rules(tmp_path):
    rules = load_suppressions(
        write_rules(
            tmp_path / "s.csv",
            [
                "wn30-1-n,,subject,project,block_suggestion",
                ",Modal Realism,subject,project,block_suggestion",
                ",faith,,document:a.md,block_all",
                "wikidata:Q5,,author,page_range:2-3,block_suggestion",
            ],
        )
    )
    assert len(rules) == 4 and rules[1].normalized_label == "modal realism"

    def row(**kw):
        return {
            "index_type": "subject",
            "meaning_type": "wordnet",
            "meaning_id": None,
            "normalized_label": "x",
            "page": 1,
            **kw,
        }

    df = pd.DataFrame(
        [
            row(meaning_id="wn30-1-n", start=0, end=1, text="a"),  # blocked by meaning
            row(
                meaning_id="wn30-2-n", normalized_label="modal realism", start=1, end=2, text="b"
            ),  # other meaning: kept
            row(
                meaning_type="custom", normalized_label="modal realism", start=2, end=3, text="c"
            ),  # custom label: blocked
            row(meaning_id="wn30-3-n", normalized_label="faith", start=3, end=4, text="d"),  # block_all on the label
            row(
                index_type="author", meaning_type="wikidata", meaning_id="wikidata:Q5", page=1, start=4, end=5, text="e"
            ),
            row(
                index_type="author", meaning_type="wikidata", meaning_id="wikidata:Q5", page=3, start=5, end=6, text="f"
            ),
        ]
    )
    assert [v["text"] for v in suppression_violations(df, rules, "a.md")] == ["a", "c", "d", "f"]
    assert [v["text"] for v in suppression_violations(df, rules, "b.md")] == ["a", "c", "f"]
    assert load_suppressions(tmp_path / "missing.csv") == []
    with pytest.raises(SuppressionError, match="suppression_mode"):
        load_suppressions(write_rules(tmp_path / "bad.csv", ["x,,subject,project,hide"]))
    with pytest.raises(SuppressionError, match="scope"):
        load_suppressions(write_rules(tmp_path / "bad2.csv", ["x,,subject,chapter 3,block_all"]))
    (tmp_path / "bad3.csv").write_text("meaning_id,label\nx,y\n")
    with pytest.raises(SuppressionError, match="missing columns"):
        load_suppressions(tmp_path / "bad3.csv")


def test_shipped_suppressions_file_loads():
    from textguard_pipeline.core.meanings import default_suppressions_path

    assert all(
        r.suppression_mode in ("block_suggestion", "block_all") for r in load_suppressions(default_suppressions_path())
    )


# ---------------------------------------------------------------------------
# row rules


def test_row_rules_catch_violations():
    base = {
        "doc_id": "d",
        "start": 0,
        "end": 1,
        "text": "a",
        "index_type": "subject",
        "label": "a",
        "normalized_label": "a",
        "entry_label": "a",
        "lexicon": "wn30:3.0",
    }
    df = pd.DataFrame(
        [
            {**base, "meaning_type": "wordnet", "meaning_id": "wn30-1-n", "merge_key": "subject|wordnet|wn30-1-n"},
            {**base, "meaning_type": "wordnet", "meaning_id": None, "merge_key": "subject|a|wordnet"},
            {**base, "meaning_type": "custom", "meaning_id": "wn30-1-n", "merge_key": "subject|wordnet|wn30-1-n"},
            {**base, "meaning_type": "wikidata", "meaning_id": "Q42", "merge_key": "subject|wikidata|Q42"},
            {**base, "meaning_type": "wordnet", "meaning_id": "oewn-1-n", "merge_key": "subject|wordnet|oewn-1-n"},
            {**base, "meaning_type": "custom", "meaning_id": None, "merge_key": "subject|a|custom", "entry_label": "b"},
            {**base, "meaning_type": "custom", "meaning_id": None, "merge_key": "subject|a|custom"},
        ]
    )
    reasons = [v["reason"] for v in meaning_id_violations(df)]
    assert reasons == [
        "wordnet meaning without meaning_id",
        "custom meaning with a meaning_id",
        "wikidata id 'Q42' is not wikidata:Q…",
        "wordnet id 'oewn-1-n' is not prefixed by its lexicon 'wn30'",
    ]
    mk = [v["reason"] for v in merge_key_violations(df)]
    assert mk.count("merge_key does not follow from the row") == 1  # the custom row carrying an id
    assert "several entry labels for one merge key" in mk and "several meanings for one merge key" in mk


# ---------------------------------------------------------------------------
# the resolver, embedded


def test_resolver_embedded_rows(nlp, wnet, tmp_path):
    chunks = parse_document(TEXT, "txt")
    r = resolver(nlp, wnet)
    df, st = r.resolve_document("doc.txt", TEXT, chunks, "txt", run_id="run-1")
    assert len(df) == st.mentions > 5
    assert all(TEXT[a:b] == t for a, b, t in zip(df["start"], df["end"], df["text"]))
    assert (df["meaning_type"] == "wordnet").sum() >= 3  # real WordNet meanings, not only custom
    assert frame_rules_for(df, [], "doc.txt") == {"meaning_id": [], "merge_keys": [], "suppression": []}
    subj = set(df[df.index_type == "subject"]["label"])
    assert {"translation", "encryption", "academic degree"} <= subj
    assert "thing" not in subj  # generic noun excluded
    authors = df[df.index_type == "author"]
    assert authors["label"].tolist() == ["Aquinas, Thomas"] and authors["meaning_type"].tolist() == ["custom"]
    row = df[df.label == "translation"].iloc[0]
    assert row["meaning_id"].startswith("wn30-") and row["meaning_source"] == "lesk" and row["page"] == 1
    assert set(df["run_id"]) == {"run-1"} and set(df["prompt_version"]) == {"embedded/1"}
    assert set(df["extraction_version"]) == {hashlib.sha256(TEXT.encode()).hexdigest()}
    assert df["indexability"].isna().all()  # Pass 3 only with an LLM

    # suppression: block the meaning of "translation" and the custom label of the author
    mid = row["meaning_id"]
    rules = load_suppressions(
        write_rules(
            tmp_path / "s.csv",
            [f"{mid},,subject,project,block_suggestion", ',"Aquinas, Thomas",author,project,block_suggestion'],
        )
    )
    r2 = resolver(nlp, wnet, suppressions=rules)
    df2, st2 = r2.resolve_document("doc.txt", TEXT, chunks, "txt", run_id="run-2")
    assert mid not in set(df2["meaning_id"]) and "Aquinas, Thomas" not in set(df2["label"])
    assert st2.suppressed == (df["meaning_id"] == mid).sum() + 1 == len(df) - len(df2)
    assert not suppression_violations(df2, rules, "doc.txt")
    assert r2.settings_hash() != r.settings_hash()


# ---------------------------------------------------------------------------
# the resolver with an LLM (Stage A, disambiguation, rating) against the stand-in


def test_resolver_llm_path(fresh_standin, nlp, wnet):
    text = "Each translation is scored. Kishore Papineni wrote about translation quality.\n"
    s1 = text.index("translation")
    s2 = text.index("translation", s1 + 1)
    p = text.index("Kishore Papineni")
    stage_a = {
        "entries": [
            {
                "label": "translation",
                "indexType": "subject",
                "mentions": [
                    {"pageNumber": 1, "textQuote": "translation", "charStart": s1, "charEnd": s1 + 11},
                    {"pageNumber": 1, "textQuote": "translation", "charStart": s2 + 2, "charEnd": s2 + 13},
                ],
            },
            {
                "label": "Papineni, Kishore",
                "indexType": "author",
                "mentions": [{"pageNumber": 1, "textQuote": "Kishore Papineni", "charStart": p, "charEnd": p + 16}],
            },
        ]
    }
    senses = wordnet_candidates(wnet, "translation", pos=None)
    chosen = senses[1].meaning_id
    disamb = {
        "results": [
            {
                "itemId": "entry_1",
                "meaning_type": "wordnet",
                "meaning_id": chosen,
                "confidence": 0.9,
                "reason_code": "clear_match",
            }
        ]
    }
    ratings = {
        "ratings": [
            {"termId": "entry_1", "indexability": 0.8, "specificity": 0.6},
            {"termId": "entry_2", "indexability": 0.9, "specificity": 0.9, "overallConfidence": 0.9},
        ]
    }
    fresh_standin.script({CHAT: [fresh_standin.chat_reply(json.dumps(x)) for x in (stage_a, disamb, ratings)]})
    r = resolver(nlp, wnet, llm=chat(fresh_standin), settings=MeaningSettings(use_llm=True))
    df, st = r.resolve_document("d.txt", text, parse_document(text, "txt"), "txt", run_id="run-9")
    assert st.detector == "llm" and st.stage_a["reanchored"] == 1
    assert df[["text", "index_type", "validation_status"]].values.tolist() == [
        ["translation", "subject", "valid"],
        ["Kishore Papineni", "author", "valid"],
        ["translation", "subject", "reanchored"],
    ]
    assert all(text[a:b] == t for a, b, t in zip(df["start"], df["end"], df["text"]))
    subj = df[df.index_type == "subject"]
    assert set(subj["meaning_id"]) == {chosen} and set(subj["meaning_source"]) == {"llm:stand-in"}
    assert set(subj["overall_confidence"]) == {0.7}
    assert df[df.index_type == "author"]["meaning_type"].tolist() == ["custom"]
    assert set(df["detector"]) == {"llm:stand-in"} and set(df["prompt_version"]) == {
        "stage-a/2024-02-v1+disambiguate/2024-02-v1+rate/2024-02-v1"
    }
    assert len(fresh_standin.requests()) == 3


def test_resolver_falls_back_to_embedded_when_llm_fails(fresh_standin, nlp, wnet):
    fresh_standin.script({CHAT: [{**fresh_standin.chat_reply("{}"), "delay": 1.0}]})
    r = resolver(nlp, wnet, llm=chat(fresh_standin, timeout_s=0.3), settings=MeaningSettings(use_llm=True, rate=False))
    df, st = r.resolve_document("doc.txt", TEXT, parse_document(TEXT, "txt"), "txt")
    assert st.detector == "embedded" and "timeout" in st.llm_fallback
    assert len(df) > 0 and not df["detector"].str.startswith("llm").any()
