"""TermProtector (seed 000): recognisers, overlap rules, placeholder policy, byte-exact restoration."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textguard_pipeline.core.parsing import Chunk, parse_document
from textguard_pipeline.core.placeholders import UnknownPlaceholderError
from textguard_pipeline.protection import (
    EmptyTextError,
    InvalidCustomTermError,
    MissingPlaceholdersError,
    NotProseChunkError,
    TermProtectionConfig,
    TermProtector,
    UnknownPlaceholdersError,
    protected_frame,
    restoration_failures,
)
from textguard_pipeline.protection.citation_patterns import find_citations
from textguard_pipeline.protection.recognizers.ner import NerRecognizer
from textguard_pipeline.protection.registry import default_names

from .citation_set import EXAMPLES

RULES_ONLY = TermProtectionConfig(use_ner=False)
CITATIONS_ONLY = TermProtectionConfig(use_ner=False, protect_numbers=False, protect_markup=False)


@pytest.fixture(scope="module")
def tp():
    return TermProtector(RULES_ONLY)


@pytest.fixture(scope="module")
def tp_ner():
    return TermProtector(TermProtectionConfig(use_ner=True))


def originals(pc, source=None):
    return [t.original for t in pc.terms if source is None or t.source == source]


def roundtrip(tp, text):
    pc = tp.protect_text(text)
    assert tp.restore(pc.protected_text, pc) == text
    return pc


# ---------------------------------------------------------------------------
# Appendix A.1 / A.2


@pytest.mark.parametrize(
    "text,span",
    [
        ("[Smith, 2024]", "[Smith, 2024]"),  # the seed's expected "(Smith, 2024)" is a typo
        ("(Smith et al., 2024)", "(Smith et al., 2024)"),
        ("Smith (2024)", "Smith (2024)"),
        ("(Smith & Jones, 2024)", "(Smith & Jones, 2024)"),
        ("[Smith, Jones, 2024]", "[Smith, Jones, 2024]"),
        ("(Lee et al., 2023)", "(Lee et al., 2023)"),
    ],
)
def test_appendix_a1_extraction(tp, text, span):
    pc = roundtrip(tp, f"We follow {text} here.")
    assert originals(pc) == [span]
    assert pc.protected_text == "We follow ⟨TERM_000⟩ here."


def test_a2_e1_overlap_citation_wins_over_ner(tp_ner):
    pc = roundtrip(tp_ner, "Smith et al. (2024) showed results")
    assert [(t.original, t.source) for t in pc.terms] == [("Smith et al. (2024)", "citation")]


def test_a2_e4_author_in_prose_and_citation_are_separate(tp_ner):
    pc = roundtrip(tp_ner, "As shown by John Smith in (Smith, 2024), the model improves.")
    assert [(t.original, t.source) for t in pc.terms] == [("John Smith", "ner"), ("(Smith, 2024)", "citation")]
    assert pc.protected_text == "As shown by ⟨TERM_000⟩ in ⟨TERM_001⟩, the model improves."


def test_a2_e6_model_version_is_a_number_only_near_a_metric(tp):
    pc = roundtrip(tp, "Model v3.2 achieves accuracy")
    assert originals(pc) == ["3.2"] and pc.protected_text == "Model v⟨TERM_000⟩ achieves accuracy"
    assert roundtrip(tp, "Model v3.2 was released in spring").terms == []


def test_a2_e8_missing_placeholder_is_a_typed_error(tp):
    pc = roundtrip(tp, "Smith (2024) showed 95% results")
    assert pc.protected_text == "⟨TERM_000⟩ showed ⟨TERM_001⟩ results"
    with pytest.raises(MissingPlaceholdersError) as exc:
        tp.restore("Smith (2024) showed ⟨TERM_001⟩ results", pc)
    assert exc.value.missing == ["⟨TERM_000⟩"]
    assert tp.validate_placeholders("⟨TERM_001⟩ only", pc) == (False, ["⟨TERM_000⟩"])
    assert tp.validate_placeholders("⟨TERM_001⟩ then ⟨TERM_000⟩", pc) == (True, [])


# ---------------------------------------------------------------------------
# Citations


@pytest.mark.parametrize(
    "text,spans",
    [
        (
            r"see \cite{a} and \citep{b,c} or \citet{d}, \citealp{e}",
            [r"\cite{a}", r"\citep{b,c}", r"\citet{d}", r"\citealp{e}"],
        ),
        (
            r"as \citep[see][p.~10]{knuth84, lamport94} and \citet*{x} say",
            [r"\citep[see][p.~10]{knuth84, lamport94}", r"\citet*{x}"],
        ),
        (r"\citep[e.g.,][]{harrison2017,ellison2021}.", [r"\citep[e.g.,][]{harrison2017,ellison2021}"]),
        ("(François Müller, 2024) and Łukasiewicz (1920)", ["(François Müller, 2024)", "Łukasiewicz (1920)"]),
        ("(Müller & Łukasiewicz, 2020)", ["(Müller & Łukasiewicz, 2020)"]),
        ("(Smith, 2024, p. 5)", ["(Smith, 2024, p. 5)"]),
        ("(Smith, 2024a; Jones and Lee, 2019b)", ["(Smith, 2024a; Jones and Lee, 2019b)"]),
        ("[Denis and Baldridge, 2009a; Pradhan et al., 2011]", ["[Denis and Baldridge, 2009a; Pradhan et al., 2011]"]),
        (
            "van der Maaten and Hinton (2008) and LeCun, Bengio, and Hinton (2015)",
            ["van der Maaten and Hinton (2008)", "LeCun, Bengio, and Hinton (2015)"],
        ),
        ("insertion AUC (Petsiuk et al., 2018; see Section 4.6.2)", ["Petsiuk et al., 2018"]),
        (
            "The paper (Papineni et al. 2002) and Lin et al. 2004 smoothing",
            ["(Papineni et al. 2002)", "Lin et al. 2004"],
        ),
        (
            "built on [@Zingale_2018] and [see @a, p. 3; @b]; mail me at a@b.org",
            ["[@Zingale_2018]", "[see @a, p. 3; @b]"],
        ),
    ],
)
def test_citation_forms(text, spans):
    tp = TermProtector(CITATIONS_ONLY)
    pc = roundtrip(tp, text)
    assert originals(pc, "citation") == spans


@pytest.mark.parametrize(
    "text",
    [
        "released in July, 2018 (see Section 4.2)",
        "(32000)",
        "[CoNLL 2012]",
        "[Page 102]",
        "Comanducci, A., Boly, M., et al. (2020). Clinical neurophysiology.",
        "ffdhe2048(0x0100)",
    ],
)
def test_not_citations(text):
    assert originals(roundtrip(TermProtector(CITATIONS_ONLY), text)) == []


def test_year_only_needs_the_switch():
    text = "as reported [2024] before"
    assert originals(roundtrip(TermProtector(CITATIONS_ONLY), text)) == []
    tp = TermProtector(TermProtectionConfig(use_ner=False, protect_numbers=False, protect_year_only=True))
    assert originals(roundtrip(tp, text)) == ["[2024]"]


def test_e2_outermost_citation_wins():
    spans = find_citations("(Smith et al., 2024; Lee, 2020)")
    assert (0, 31, "bracket") in spans  # inner candidates exist too, the longest is chosen
    pc = roundtrip(TermProtector(CITATIONS_ONLY), "(Smith et al., 2024; Lee, 2020)")
    assert originals(pc) == ["(Smith et al., 2024; Lee, 2020)"]


def test_labelled_citation_set_precision_recall():
    """≥ 100 real examples (see citation_set.py); span-exact precision and recall ≥ 95 %."""
    assert len(EXAMPLES) >= 100
    tp = TermProtector(CITATIONS_ONLY)
    tp_n = fp = fn = 0
    misses = []
    for origin, text, gold in EXAMPLES:
        pc = tp.protect_text(text)
        pred = {(t.chunk_start, t.chunk_end) for t in pc.terms if t.source == "citation"}
        want, pos = set(), 0
        for g in gold:
            i = text.index(g, pos)
            want.add((i, i + len(g)))
            pos = i + 1
        tp_n += len(pred & want)
        fp += len(pred - want)
        fn += len(want - pred)
        if pred != want:
            misses.append((origin, [text[a:b] for a, b in pred - want], [text[a:b] for a, b in want - pred]))
    precision = tp_n / max(1, tp_n + fp)
    recall = tp_n / max(1, tp_n + fn)
    gold_n = sum(len(g) for _, _, g in EXAMPLES)
    print(
        f"\ncitation set: {len(EXAMPLES)} examples, {gold_n} gold citations: "
        f"precision {precision:.1%} recall {recall:.1%} (tp={tp_n} fp={fp} fn={fn})"
    )
    for m in misses:
        print("  miss:", m)
    assert precision >= 0.95 and recall >= 0.95


# ---------------------------------------------------------------------------
# Custom terms (E5, E9)


def test_custom_terms_longest_first_word_boundary_case_insensitive():
    tp = TermProtector(TermProtectionConfig(use_ner=False, custom_terms=("Tree", "Monte Carlo Tree Search", "BERT")))
    pc = roundtrip(tp, "monte carlo tree search beats a Tree; BERTology is not BERT, bert is.")
    assert [(t.original, t.source) for t in pc.terms] == [
        ("monte carlo tree search", "custom"),
        ("Tree", "custom"),
        ("BERT", "custom"),
        ("bert", "custom"),
    ]
    # distinct originals (case differs) get distinct placeholders: restoration must be byte-exact
    assert len(pc.term_placeholders) == 4


@pytest.mark.parametrize("term", ["⟨TERM_001⟩", "⟨TERM⟩", "a ⟩ b", "  ", "", "x⟨MATH_000⟩"])
def test_e9_placeholder_like_custom_terms_are_rejected(term):
    with pytest.raises(InvalidCustomTermError):
        TermProtectionConfig(custom_terms=(term,))


def test_custom_terms_beat_ner_and_pin_products(tp_ner):
    text = "We fine-tune the Llama Guard classifier from Meta Platforms in Menlo Park."
    tp = TermProtector(TermProtectionConfig(custom_terms=("Llama Guard",)))
    pc = roundtrip(tp, text)
    assert ("Llama Guard", "custom") in [(t.original, t.source) for t in pc.terms]


# ---------------------------------------------------------------------------
# Numbers


@pytest.mark.parametrize(
    "text,spans",
    [
        ("achieves 92.3% accuracy and 98\\% on the rest", ["92.3%", "98\\%"]),
        ("significant (p < 0.05, r = 0.87)", ["p < 0.05", "r = 0.87"]),
        ("a 1.5x speed-up on 224×224 images", ["1.5x", "224×224"]),
        ("trained on 1,000,000 samples", ["1,000,000"]),
        ("an F1 score of 0.89 and a 3:1 ratio", ["0.89", "3:1"]),
        ("we ran 3 experiments on 5 categories in 2024", []),
        ("see page 42 and TLS 1.3 with code 0x0304", []),
    ],
)
def test_numbers(tp, text, spans):
    assert originals(roundtrip(tp, text), "number") == spans


# ---------------------------------------------------------------------------
# Placeholder policy, determinism, restoration errors


def test_same_original_reuses_one_placeholder_and_every_occurrence_restores(tp):
    pc = roundtrip(tp, "95% here, 95% there, and 96% elsewhere; 95% again.")
    assert pc.protected_text == "⟨TERM_000⟩ here, ⟨TERM_000⟩ there, and ⟨TERM_001⟩ elsewhere; ⟨TERM_000⟩ again."
    assert pc.term_placeholders == {"⟨TERM_000⟩": "95%", "⟨TERM_001⟩": "96%"}
    assert len(pc.terms) == 4  # one row per occurrence
    # the LLM may reorder and repeat placeholders: every occurrence restores
    assert tp.restore("⟨TERM_001⟩ vs ⟨TERM_000⟩ vs ⟨TERM_000⟩ vs ⟨TERM_000⟩", pc) == "96% vs 95% vs 95% vs 95%"
    # ... but keeping a repeated placeholder fewer times than issued loses an occurrence (issue 13, E8 counted)
    with pytest.raises(MissingPlaceholdersError):
        tp.restore("⟨TERM_001⟩ vs ⟨TERM_000⟩ vs ⟨TERM_000⟩", pc)


def test_deterministic_for_same_input_and_config():
    text = "As in (Lee et al., 2023), 95% of ResNet runs; ResNet wins (p < 0.01)."
    cfg = TermProtectionConfig(use_ner=False, custom_terms=("ResNet",))
    a, b = TermProtector(cfg).protect_text(text), TermProtector(cfg).protect_text(text)
    assert (a.protected_text, a.term_placeholders, a.terms) == (b.protected_text, b.term_placeholders, b.terms)


def test_invented_placeholders_are_a_typed_error(tp):
    pc = roundtrip(tp, "It reaches 95% accuracy.")
    with pytest.raises(UnknownPlaceholdersError) as exc:
        tp.restore("It reaches ⟨TERM_000⟩ accuracy, like ⟨TERM_007⟩ and ⟨MATH_003⟩.", pc)
    assert exc.value.placeholders == ["⟨MATH_003⟩", "⟨TERM_007⟩"]
    assert isinstance(exc.value, UnknownPlaceholderError) and isinstance(exc.value, ValueError)
    with pytest.raises(EmptyTextError):
        tp.restore("", pc)


def test_math_placeholders_restore_together_with_terms(tp):
    doc = "As shown by Smith (2023), the loss $\\mathcal{L}$ reaches 0.5% error.\n"
    (chunk,) = parse_document(doc, "md")
    pc = tp.protect(chunk)
    assert pc.protected_text == "As shown by ⟨TERM_000⟩, the loss ⟨MATH_000⟩ reaches ⟨TERM_001⟩ error.\n"
    assert pc.placeholders()["⟨MATH_000⟩"] == "$\\mathcal{L}$"
    assert (
        tp.restore("⟨TERM_001⟩ error for ⟨MATH_000⟩ (see ⟨TERM_000⟩).", pc)
        == "0.5% error for $\\mathcal{L}$ (see Smith (2023))."
    )
    with pytest.raises(MissingPlaceholdersError) as exc:
        tp.restore("⟨TERM_000⟩ and ⟨TERM_001⟩", pc)
    assert exc.value.missing == ["⟨MATH_000⟩"]


def test_term_containing_parser_placeholders_stores_the_source_quote(tp):
    doc = "Intro text.\n\nAs argued \\citep[for $z = 1$][p.~3]{key} and $y$, 95% hold.\n"
    chunks = [c for c in parse_document(doc, "tex") if c.chunk_type == "prose"]
    pcs = TermProtector(RULES_ONLY).protect_many(chunks)
    terms = [t for pc in pcs for t in pc.terms]
    cite = next(t for t in terms if t.source == "citation")
    assert cite.original == "\\citep[for $z = 1$][p.~3]{key}" == doc[cite.start : cite.end]
    for pc in pcs:
        assert tp.restore(pc.protected_text, pc) == doc[pc.chunk.start : pc.chunk.end]
        assert "⟨MATH_000⟩" not in pc.expected_placeholders() or "⟨MATH_000⟩" in pc.protected_text


def test_spans_never_cut_parser_placeholders(tp):
    # a custom term that would cut into ⟨CODE_000⟩ is skipped; one outside it is kept
    doc = "Use `CODE_000 x` then CODE now.\n"
    (chunk,) = parse_document(doc, "md")
    assert chunk.text == "Use ⟨CODE_000⟩ then CODE now.\n"
    tp2 = TermProtector(TermProtectionConfig(use_ner=False, custom_terms=("CODE",)))
    pc = tp2.protect(chunk)
    assert [(t.original, t.start) for t in pc.terms] == [("CODE", doc.index("CODE now"))]
    assert tp2.restore(pc.protected_text, pc) == doc


def test_e11_e9_brackets_and_literal_placeholders_in_the_source(tp):
    doc = "A literal ⟨TERM_001⟩ and ⟨MATH_000⟩, a lone ⟨ and ⟩⟩, and ⟨ notation ⟩ with 95%.\n"
    (chunk,) = parse_document(doc, "txt")
    pc = tp.protect(chunk)
    assert tp.restore(pc.protected_text, pc) == doc
    # no bracket is left in the protected text except our placeholders
    stripped = pc.protected_text
    for ph in pc.placeholders():
        stripped = stripped.replace(ph, "")
    assert "⟨" not in stripped and "⟩" not in stripped
    assert {t.source for t in pc.terms} == {"literal", "number"}
    # the same text protected without the parser: placeholder-shaped text becomes a literal term
    pc2 = roundtrip(tp, doc)
    assert "⟨TERM_001⟩" in pc2.term_placeholders.values()


def test_only_prose_chunks():
    with pytest.raises(NotProseChunkError):
        TermProtector(RULES_ONLY).protect(Chunk(0, "structural", 0, 3, "abc", {}))


def test_registry_switches():
    assert default_names() == ("literal", "markup", "citation", "custom", "markup_forms", "ner", "number")  # E1
    off = TermProtector(
        TermProtectionConfig(use_ner=False, protect_citations=False, protect_numbers=False, protect_markup=False)
    )
    assert list(off.recognizers) == ["literal"]
    pc = roundtrip(off, "(Smith, 2024) got 95%.")
    assert pc.terms == []


# ---------------------------------------------------------------------------
# NER


def test_ner_runs_once_per_document_over_all_chunks():
    calls = []

    class Counting(NerRecognizer):
        def find_many(self, texts):
            calls.append(len(texts))
            return super().find_many(texts)

    cfg = TermProtectionConfig(use_ner=True, protect_numbers=False)
    base = TermProtector(cfg)
    tp = TermProtector(cfg, recognizers={**base.recognizers, "ner": Counting(cfg.spacy_model)})
    doc = ("Barack Obama visited the Google campus.\n\n" * 3) + "Angela Merkel met Emmanuel Macron in Paris.\n"
    chunks = [c for c in parse_document(doc, "txt") if c.chunk_type == "prose"]
    pcs = tp.protect_many(chunks)
    assert calls == [len(chunks)] and len(chunks) == 4
    assert tp.nlp.pipe_names == ["ner"]  # only what NER needs is loaded
    found = [(t.original, t.label) for pc in pcs for t in pc.terms]
    assert ("Barack Obama", "PERSON") in found and ("Google", "ORG") in found
    assert all(label in {"PERSON", "ORG", "GPE", "PRODUCT", "FAC"} for _, label in found)
    # §3.2: single-word non-ORG entities are dropped (Paris is a one-word GPE)
    assert ("Paris", "GPE") not in found
    for pc in pcs:
        assert tp.restore(pc.protected_text, pc) == pc.chunk.source_text()


# ---------------------------------------------------------------------------
# Frames and the restoration rule the asset check uses


def test_frame_and_restoration_rule_detect_corruption():
    doc = "# T\n\nAs shown by Smith (2023), loss $x$ is 0.5% lower.\n\nPlain.\n"
    chunks = parse_document(doc, "md")
    df = protected_frame("d", chunks, TermProtector(RULES_ONLY))
    assert list(df["chunk_index"]) == [1, 2]
    assert restoration_failures(df, doc) == []
    bad = df.copy()
    bad.loc[0, "protected_text"] = bad.loc[0, "protected_text"].replace("⟨TERM_000⟩", "⟨TERM_009⟩")
    assert "unmapped" in restoration_failures(bad, doc)[0]["reason"]
    bad = df.copy()
    bad.at[0, "term_placeholders"] = {**bad.loc[0, "term_placeholders"], "⟨TERM_000⟩": "Smith (2024)"}
    assert "differs" in restoration_failures(bad, doc)[0]["reason"]


# ---------------------------------------------------------------------------
# Property tests: restore(protect(x)) == x (10,000+ examples in total)

_BRACKETY = st.sampled_from(
    [
        "⟨",
        "⟩",
        "⟨TERM_001⟩",
        "⟨MATH_000⟩",
        "⟨LIT_0⟩",
        "⟨TERM_",
        "_000⟩",
        "⟨X_1",
        "⟨⟨",
        "⟩⟩",
        "[",
        "]",
        "(",
        ")",
        "{",
        "}",
        "$",
        "$$",
        "\\(",
        "\\)",
        "`",
        "``",
        "\\cite{",
        "\\citep[p.~3]{k}",
        "(Smith, 2024)",
        "Smith (2024)",
        "[Lee et al., 2023]",
        "95%",
        "0.5",
        "p < 0.05",
        "1,000",
        "accuracy",
        "et al.",
        " & ",
        "; ",
        ", ",
        "\n",
        "\n\n",
        "\\%",
        "#",
        "**",
        "_",
        "@key",
        "[@k]",
        "ResNet",
        "resnet",
        "Müller",
        "Łukasiewicz",
        "\u200b",
        "🙂",
    ]
)
_FRAGMENTS = st.lists(st.one_of(_BRACKETY, st.text(max_size=8)), max_size=25).map("".join)
_CUSTOM = TermProtectionConfig(
    use_ner=False, custom_terms=("ResNet", "et al", "Smith", "p <", "a", "Ł"), protect_year_only=True
)


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_property_arbitrary_unicode_roundtrips(text):
    tp = TermProtector(_CUSTOM)
    pc = tp.protect_text(text)
    assert tp.restore(pc.protected_text, pc) == text


@settings(max_examples=3500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_FRAGMENTS)
def test_property_brackets_fake_placeholders_latex_markdown_roundtrip(text):
    tp = TermProtector(_CUSTOM)
    pc = tp.protect_text(text)
    assert tp.restore(pc.protected_text, pc) == text
    for t in pc.terms:
        assert text[t.start : t.end] == t.original


@settings(max_examples=3500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_FRAGMENTS, st.sampled_from(["md", "tex", "txt"]))
def test_property_parsed_chunks_roundtrip_with_absolute_offsets(text, fmt):
    tp = TermProtector(_CUSTOM)
    prose = [c for c in parse_document(text, fmt) if c.chunk_type == "prose"]
    for pc in tp.protect_many(prose):
        assert tp.restore(pc.protected_text, pc) == text[pc.chunk.start : pc.chunk.end]
        for t in pc.terms:
            assert text[t.start : t.end] == t.original


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_FRAGMENTS)
def test_property_roundtrip_with_ner(text):
    tp = TermProtector(TermProtectionConfig(use_ner=True))
    pc = tp.protect_text("Barack Obama met the Google team. " + text)
    assert tp.restore(pc.protected_text, pc) == pc.chunk.text


def test_long_text_is_windowed_for_ner():
    cfg = TermProtectionConfig(use_ner=True, protect_numbers=False, protect_citations=False)
    tp = TermProtector(cfg)
    tp = TermProtector(cfg, recognizers={**tp.recognizers})
    tp.recognizers["ner"] = NerRecognizer(cfg.spacy_model)
    tp.recognizers["ner"].window = 200  # force several windows on a small text (instance attribute)
    text = ("Barack Obama visited the Google campus in Mountain View. " * 12).strip()
    pc = tp.protect_text(text)
    assert tp.restore(pc.protected_text, pc) == text
    obama = [t for t in pc.terms if t.original == "Barack Obama"]
    assert len(obama) >= 10 and all(text[t.start : t.end] == "Barack Obama" for t in obama)


@pytest.mark.timeout(600)  # a hang guard against the quadratic case, not a speed target
def test_ner_on_long_symbol_runs_is_fast_and_keeps_offsets(tp_ner):
    """Regression: spaCy's tokenizer is O(n²) on a run of prefix/suffix symbols (20,000 "(" took ≈ 60 s);
    runs of 32+ symbols are blanked for spaCy only, offsets unchanged."""

    text = "(" * 20_000 + " Thomas Aquinas wrote to Barack Obama. " + "=" * 20_000 + " " + "😀" * 3_000
    pc = roundtrip(tp_ner, text)
    people = [t for t in pc.terms if t.source == "ner"]
    assert people and all(text[t.start : t.end] == t.original for t in people)
    assert "Barack Obama" in originals(pc, "ner")
