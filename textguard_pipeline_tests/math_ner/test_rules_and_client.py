"""textguard_pipeline.math_ner: rule-based extractor (EN + PL), schemas, HTTP backend client against real servers."""

import json
import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.core.spans import check_char_ranges
from textguard_pipeline.math_ner import (
    ArithExampleFrame,
    HttpNerBackend,
    LLMNEROutput,
    NerBackendError,
    NEREntity,
    NERRequest,
    RuleBasedExtractor,
    anchor_entities,
    frame_dict,
    make_backend,
    ner_frame,
    parse_number_words,
    text_units,
    validate_frame,
)
from textguard_pipeline_tests.standin.client import free_port

X = RuleBasedExtractor()


def ents(text):
    return [(e.type, e.text, e.canonical) for e in X.extract(text).entities]


def frames(text):
    out = []
    for f in X.extract(text).frames:
        d = frame_dict(f)
        d.pop("start", None)
        d.pop("end", None)
        out.append(d)
    return out


# --- seed §9 verification cases (rule-based) --------------------------------------------------


def assert_seed_case_1(result):
    types = {(e.type, e.canonical) for e in result.entities}
    assert ("OPERATION", "add") in types and ("PROPERTY", "commutative") in types
    arith = [f for f in result.frames if f.frame_type == "ARITH_EXAMPLE"]
    assert len(arith) == 2
    assert sorted(tuple(f.operands) for f in arith) == [(3, 4), (4, 3)]
    assert all(f.operation == "add" and f.result == 7 and f.correct for f in arith)
    assert any(
        f.frame_type == "PROPERTY" and f.subject == "add" and f.property_name == "commutative" and f.value is True
        for f in result.frames
    )


def assert_seed_case_2(result, text):
    by_canon = {e.canonical: e for e in result.entities}
    assert by_canon["add"].type == "OPERATION" and by_canon["add"].text == "dodać"
    assert by_canon["eq"].type == "RELATION" and by_canon["eq"].text == "równa się"
    for e in result.entities:
        assert text[e.start : e.end] == e.text
    (arith,) = [f for f in result.frames if f.frame_type == "ARITH_EXAMPLE"]
    assert (arith.operation, arith.operands, arith.result, arith.correct) == ("add", [3, 4], 7, True)


def test_seed_smoke_english():
    assert_seed_case_1(X.extract("Addition is commutative: 3 + 4 = 4 + 3"))


def test_seed_multilingual_polish():
    text = "3 dodać 4 równa się 7"
    assert_seed_case_2(X.extract(text), text)


def test_seed_full_example_offsets():
    text = "3 plus 4 equals 7, because addition is commutative"
    got = [(e.text, e.type, e.start, e.end, e.canonical) for e in X.extract(text).entities]
    assert got == [
        ("3", "NUMBER", 0, 1, "3"),
        ("plus", "OPERATION", 2, 6, "add"),
        ("4", "NUMBER", 7, 8, "4"),
        ("equals", "RELATION", 9, 15, "eq"),
        ("7", "NUMBER", 16, 17, "7"),
        ("addition", "OPERATION", 27, 35, "add"),
        ("commutative", "PROPERTY", 39, 50, "commutative"),
    ]
    assert frames(text) == [
        {"frame_type": "ARITH_EXAMPLE", "operation": "add", "operands": [3, 4], "result": 7, "correct": True},
        {"frame_type": "PROPERTY", "subject": "add", "property_name": "commutative", "value": True},
    ]


# --- numbers ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "words,value",
    [
        ("twenty-one", 21),
        ("twenty one", 21),
        ("one hundred", 100),
        ("one hundred and five", 105),
        ("three thousand two hundred", 3200),
        ("ninety-nine", 99),
        ("zero", 0),
        ("twelve", 12),
        ("sto", 100),
        ("dwadzieścia jeden", 21),
        ("sto dwadzieścia trzy", 123),
        ("dwa tysiące dwadzieścia", 2020),
        ("tysiąc", 1000),
        ("dziewięćset dziewięćdziesiąt dziewięć", 999),
        ("pięciu", 5),
        ("trzech", 3),
        ("dwieście pięć", 205),
        ("czterdzieści", 40),
    ],
)
def test_number_words(words, value):
    (e,) = X.extract(words).entities
    assert (e.type, e.canonical, e.text) == ("NUMBER", str(value), words)


def test_number_word_lists_are_not_compounds():
    assert [e.canonical for e in X.extract("one two three").entities] == ["1", "2", "3"]
    assert [e.canonical for e in X.extract("dwa trzy").entities] == ["2", "3"]


@pytest.mark.parametrize(
    "text,canon",
    [("3.14", "3.14"), ("0,5", "0.5"), ("2,75", "2.75"), ("80,000", "80000"), ("1,234.5", "1234.5"), ("42", "42")],
)
def test_decimals_and_thousands(text, canon):
    (e,) = X.extract(text).entities
    assert (e.type, e.canonical) == ("NUMBER", canon)


def test_versions_list_markers_and_ordinals_are_not_numbers():
    assert ents("TLS 1.2.3 and 3rd place") == []
    assert [e.text for e in X.extract("1. Align the digits\n2. Add").entities if e.type == "NUMBER"] == []


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=999_999))
def test_english_number_words_roundtrip(n):
    words = _to_words(n).split()
    value, used = parse_number_words(words)
    assert (value, used) == (n, len(words))


def _to_words(n: int) -> str:
    units = (
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen".split()
    )
    tens = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()

    def below_1000(k: int) -> list[str]:
        out = []
        if k >= 100:
            out += [units[k // 100], "hundred"]
            k %= 100
        if k >= 20:
            out.append(tens[k // 10])
            if k % 10:
                out.append(units[k % 10])
        elif k or not out:
            out.append(units[k])
        return out

    if n < 1000:
        return " ".join(below_1000(n))
    rest = below_1000(n % 1000) if n % 1000 else []
    return " ".join(below_1000(n // 1000) + ["thousand"] + rest)


# --- relations, operations, inflections -----------------------------------------------------------


@pytest.mark.parametrize(
    "text,canon,surface",
    [
        ("5 jest mniejsze od 7", "lt", "mniejsze od"),
        ("5 jest mniejszy niż 7", "lt", "mniejszy niż"),
        ("9 jest większe niż 2", "gt", "większe niż"),
        ("x jest równe 4", "eq", "równe"),
        ("4 jest równa 4", "eq", "równa"),
        ("3 is less than 4", "lt", "less than"),
        ("3 is less than or equal to 4", "lte", "less than or equal to"),
        ("3 ≠ 4", "neq", "≠"),
        ("a ≥ b", "gte", "≥"),
        ("5 jest różne od 6", "neq", "różne od"),
        ("7 > 2", "gt", ">"),
        ("2 is not equal to 3", "neq", "is not equal to"),
        ("wynik wynosi 7", "eq", "wynosi"),
    ],
)
def test_relations(text, canon, surface):
    rels = [(e.canonical, e.text) for e in X.extract(text).entities if e.type == "RELATION"]
    assert rels == [(canon, surface)]


@pytest.mark.parametrize(
    "text,canon",
    [
        ("mnożenie", "mul"),
        ("dzielenia", "div"),
        ("odejmowanie", "sub"),
        ("dodawaniu", "add"),
        ("6 podzielić przez 2", "div"),
        ("7 razy 8", "mul"),
        ("8 divided by 2", "div"),
        ("2 multiplied by 3", "mul"),
        ("3 \\times 4", "mul"),
        ("10 ÷ 2", "div"),
        ("3 x 4", "mul"),
        ("9 − 4", "sub"),
    ],
)
def test_operations(text, canon):
    assert [e.canonical for e in X.extract(text).entities if e.type == "OPERATION"] == [canon]


def test_context_words_need_operands():
    assert [e for e in X.extract("He runs 3 times a week").entities if e.type == "OPERATION"] == []
    assert [e for e in X.extract("Podziel tort na dwie równe części").entities if e.type == "RELATION"] == []
    assert [e for e in X.extract("The answer is 7.").entities if e.type == "RELATION"] == []
    assert [e for e in X.extract("pages 10-20 of the book").entities if e.type == "OPERATION"] == []
    assert [e for e in X.extract("Mnożenie przez jeden: 7 · 1 = 7").entities if e.text == ":"] == []


def test_variables():
    assert ents("x + 3 = 7")[0] == ("VARIABLE", "x", "x")
    assert ("VARIABLE", "N", "n") in ents("N > 5")
    assert ents("I have a cat") == []


# --- frames -----------------------------------------------------------------------------------------


def test_wrong_example_is_flagged():
    (f,) = X.extract("2 + 2 = 5").frames
    assert (f.result, f.correct) == (5, False)
    (f,) = X.extract("sześć razy siedem to czterdzieści osiem").frames
    assert (f.operation, f.operands, f.result, f.correct) == ("mul", [6, 7], 48, False)


def test_chains_and_mixed_operations():
    assert frames("16 - 3 - 4 = 9") == [
        {"frame_type": "ARITH_EXAMPLE", "operation": "sub", "operands": [16, 3, 4], "result": 9, "correct": True}
    ]
    res = X.extract("2 + 3 × 4 = 14")
    assert res.frames == [] and res.unmapped == ["2 + 3 × 4"]
    assert frames("x + 3 = 7") == []  # algebra, not an arithmetic example


def test_property_frames_en_pl_and_negation():
    assert frames("Dodawanie jest przemienne, a mnożenie jest łączne.") == [
        {"frame_type": "PROPERTY", "subject": "add", "property_name": "commutative", "value": True},
        {"frame_type": "PROPERTY", "subject": "mul", "property_name": "associative", "value": True},
    ]
    assert frames("Odejmowanie nie jest przemienne.")[0]["value"] is False
    assert frames("Zero is the neutral element of addition.")[0]["property_name"] == "zero_neutral"


def test_procedure_frame():
    text = (
        "To add two-digit numbers:\n1. Align digits by place value\n2. Add ones column first\n"
        "3. Carry if sum >= 10\n4. Add tens column"
    )
    (f,) = [f for f in X.extract(text).frames if f.frame_type == "PROCEDURE"]
    assert f.operation == "add"
    assert f.steps == ["Align digits by place value", "Add ones column first", "Carry if sum >= 10", "Add tens column"]
    assert (f.start, f.end) == (0, len(text))
    # a list after an intro without an operation is not a procedure
    assert [f for f in X.extract("Bring:\n- pencils\n- paper").frames] == []


@pytest.mark.parametrize(
    "text,term,definition",
    [
        ("The result of addition is called the sum.", "sum", "The result of addition"),
        ("Dodawanie to łączenie dwóch (albo więcej) liczb", "add", "łączenie dwóch (albo więcej) liczb"),
        ("Suma to wynik dodawania.", "sum", "wynik dodawania"),
        ("Subtraction means taking away.", "sub", "taking away"),
        ("Wynik odejmowania nazywamy różnicą.", "difference", "Wynik odejmowania"),
        ("A fraction is a part of a whole.", "fraction", "a part of a whole"),
    ],
)
def test_definition_frames(text, term, definition):
    (f,) = [f for f in X.extract(text).frames if f.frame_type == "DEFINITION"]
    assert (f.term, f.definition) == (term, definition)


def test_no_definition_for_properties_numbers_or_non_math():
    assert [f for f in X.extract("Addition is commutative.").frames if f.frame_type == "DEFINITION"] == []
    assert [f for f in X.extract("The sum is 7.").frames if f.frame_type == "DEFINITION"] == []
    assert X.extract("The client is responsible for the key.").frames == []


# --- schemas ----------------------------------------------------------------------------------------


def test_frame_schemas_discriminate_and_reject():
    f = validate_frame({"frame_type": "ARITH_EXAMPLE", "operation": "add", "operands": [3, 4], "result": 7})
    assert isinstance(f, ArithExampleFrame) and f.source_span_id is None
    for bad in (
        {"frame_type": "ARITH_EXAMPLE", "operation": "addition", "operands": [1], "result": 1},
        {"frame_type": "NOPE"},
        {"frame_type": "PROPERTY", "subject": "add", "property_name": "x", "value": 1},
        {"frame_type": "PROCEDURE", "operation": "add", "steps": []},
    ):
        with pytest.raises(ValidationError):
            validate_frame(bad)
    with pytest.raises(ValidationError):
        NEREntity(text="a", type="THING", start=0, end=1, canonical="a", confidence=0.5)
    with pytest.raises(ValidationError):
        NEREntity(text="a", type="NUMBER", start=0, end=1, canonical="a", confidence=1.5)
    with pytest.raises(ValidationError):
        NERRequest(text="   ")
    with pytest.raises(ValidationError):
        NERRequest(text="x" * 10_001)


def test_output_validates_and_roundtrips():
    out = X.extract("3 plus 4 equals 7, because addition is commutative").to_output()
    again = LLMNEROutput.model_validate_json(out.model_dump_json())
    assert again == out and all("source_span_id" not in f for f in out.frames)


# --- re-anchoring -------------------------------------------------------------------------------------


def test_anchor_entities_moves_to_nearest_or_rejects():
    text = "7 and 7 and 7"
    e = NEREntity(text="7", type="NUMBER", start=5, end=6, canonical="7", confidence=1)
    ok, rej = anchor_entities(text, [e])
    assert [(x.start, x.end) for x in ok] == [(6, 7)] and rej == []
    missing = NEREntity(text="eight", type="NUMBER", start=0, end=5, canonical="8", confidence=1)
    ok, rej = anchor_entities(text, [missing])
    assert ok == [] and rej[0]["text"] == "eight"
    beyond = NEREntity(text="and", type="CONCEPT", start=50, end=53, canonical="and", confidence=1)
    ok, _ = anchor_entities(text, [beyond])
    assert [(x.start, x.end) for x in ok] == [(8, 11)]


# --- HTTP backend client against the scripted stand-in -------------------------------------------------

GOOD = {
    "entities": [
        {"text": "3", "type": "NUMBER", "start": 0, "end": 1, "canonical": "3", "confidence": 0.9},
        {"text": "plus", "type": "OPERATION", "start": 9, "end": 13, "canonical": "add", "confidence": 0.9},
    ],
    "frames": [
        {"frame_type": "ARITH_EXAMPLE", "operation": "add", "operands": [3, 4], "result": 7},
        {"frame_type": "PROPERTY", "subject": "add", "property_name": "sideways", "value": True},
    ],
    "unmapped": ["?"],
}


def backend(standin, **kw):
    kw.setdefault("backoff_s", 0.01)
    return HttpNerBackend(f"{standin.base_url}/ner", **kw)


def test_http_backend_posts_text_plain_and_validates(fresh_standin):
    fresh_standin.script({"POST /ner": [{"status": 200, "json": GOOD}]})
    res = backend(fresh_standin).extract("3 plus 4 = 7")
    (req,) = fresh_standin.requests()
    assert req["body"] == "3 plus 4 = 7" and req["content_type"].startswith("text/plain")
    # "plus" was sent at the wrong offset: re-anchored to where it is
    assert [(e.text, e.start, e.end) for e in res.entities] == [("3", 0, 1), ("plus", 2, 6)]
    assert [f.frame_type for f in res.frames] == ["ARITH_EXAMPLE"]
    assert len(res.invalid_frames) == 1 and "property_name" in res.invalid_frames[0]["error"]
    assert res.unmapped == ["?"]


def test_http_backend_retries_503_then_succeeds(fresh_standin):
    fresh_standin.script({"POST /ner": [{"status": 503, "json": {}}, {"status": 200, "json": GOOD}]})
    assert len(backend(fresh_standin).extract("3 plus 4 = 7").entities) == 2
    assert len(fresh_standin.requests()) == 2


def test_unreachable_maps_to_503():
    b = HttpNerBackend(f"http://127.0.0.1:{free_port()}/ner", timeout_ms=1000, max_retries=1, backoff_s=0.01)
    with pytest.raises(NerBackendError) as ei:
        b.extract("3 + 4 = 7")
    assert (ei.value.kind, ei.value.status) == ("unreachable", 503)


def test_too_slow_maps_to_504_after_bounded_retries(fresh_standin):
    fresh_standin.script({"POST /ner": [{"status": 200, "json": GOOD, "delay": 1.0}]})
    with pytest.raises(NerBackendError) as ei:
        backend(fresh_standin, timeout_ms=200, max_retries=1).extract("3 + 4 = 7")
    assert (ei.value.kind, ei.value.status) == ("timeout", 504)
    assert len(fresh_standin.requests()) == 2  # one retry, then give up


def test_invalid_json_maps_to_500_and_logs_raw(fresh_standin, caplog):
    raw = "Sorry, I cannot answer that {" + "x" * 5000
    fresh_standin.script({"POST /ner": [{"status": 200, "body": raw, "content_type": "application/json"}]})
    with caplog.at_level(logging.ERROR, logger="textguard_pipeline.math_ner.http_backend"):
        with pytest.raises(NerBackendError) as ei:
            backend(fresh_standin).extract("3 + 4 = 7")
    assert (ei.value.kind, ei.value.status) == ("invalid_response", 500)
    assert len(fresh_standin.requests()) == 1  # not retried
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "Sorry, I cannot answer that {" in logged and len(logged) < 2600  # raw body, truncated
    assert ei.value.raw.startswith("Sorry")


def test_schema_mismatch_maps_to_500(fresh_standin, caplog):
    fresh_standin.script({"POST /ner": [{"status": 200, "json": {"entities": [{"text": "3"}], "frames": []}}]})
    with caplog.at_level(logging.ERROR, logger="textguard_pipeline.math_ner.http_backend"):
        with pytest.raises(NerBackendError) as ei:
            backend(fresh_standin).extract("3")
    assert ei.value.status == 500 and '"text": "3"' in caplog.text


def test_other_http_errors_are_not_retried(fresh_standin):
    fresh_standin.script({"POST /ner": [{"status": 422, "json": {"detail": "bad"}}]})
    with pytest.raises(NerBackendError) as ei:
        backend(fresh_standin).extract("x")
    assert ei.value.kind == "http" and len(fresh_standin.requests()) == 1


def test_make_backend_switches_on_url():
    assert make_backend("").label == "rule_based"
    assert make_backend("http://127.0.0.1:8001/ner").label == "http://127.0.0.1:8001/ner"


# --- the ner_frames table ---------------------------------------------------------------------------------


def test_ner_frame_offsets_are_absolute_and_math_is_included():
    text = "# Title\n\nWe know that $3 + 4 = 7$ and\n$$x$$\n\nTo subtract:\n\n- take away ones\n- take away tens\n"
    chunks = parse_document(text, "md")
    df, report = ner_frame("doc", chunks, X)
    assert check_char_ranges(df[["start", "end", "text"]].to_dict("records"), text) == []
    fr = df[df["kind"] == "frame"]
    assert set(fr["frame_type"]) == {"ARITH_EXAMPLE", "PROCEDURE"}
    arith = fr[fr["frame_type"] == "ARITH_EXAMPLE"].iloc[0]
    assert arith["text"] == "3 + 4 = 7" and bool(arith["arith_correct"])
    assert "start" not in json.loads(arith["frame_json"])
    proc = json.loads(fr[fr["frame_type"] == "PROCEDURE"].iloc[0]["frame_json"])
    assert proc["steps"] == ["take away ones", "take away tens"]
    assert set(df["backend"]) == {"rule_based"} and report["rejected_entities"] == []


def test_text_units_cut_long_chunks_at_line_ends():
    text = "sum 3+4=7\n" * 1000  # a word on each line: lines of maths alone are a math block (docs/ingest.md)
    units = text_units(parse_document(text, "txt"), max_chars=4000)
    assert all(len(u[2]) <= 4000 for u in units)
    assert "".join(u[2] for u in units) == text and all(u[2].endswith("\n") for u in units)


_TOKENS = [
    "3",
    "4",
    "7",
    "0,5",
    "2.5",
    "80,000",
    "+",
    "-",
    "−",
    "×",
    "*",
    "/",
    ":",
    "=",
    "<",
    ">=",
    "≠",
    "x",
    "n",
    "a",
    "plus",
    "minus",
    "times",
    "divided by",
    "equals",
    "is",
    "less than",
    "dodać",
    "odjąć",
    "razy",
    "równa się",
    "jest",
    "równe",
    "to",
    "mniejsze od",
    "twenty-one",
    "sto",
    "dwadzieścia",
    "jeden",
    "addition",
    "commutative",
    "przemienne",
    "not",
    "nie",
    "sum",
    "suma",
    "is called",
    "nazywamy",
    "means",
    "the",
    "of",
    "and",
    "i",
    "$",
    "(",
    ")",
    ".",
    ",",
    ":\n1.",
    "\n- ",
    "\n",
    "\n\n",
    "⟨",
    "\\times",
    "one hundred",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_TOKENS), max_size=30),
    st.lists(st.sampled_from([" ", "", "  "]), min_size=30, max_size=30),
)
def test_any_text_gives_exact_quotes_and_valid_frames(tokens, seps):
    text = "".join(t + s for t, s in zip(tokens, seps))
    res = X.extract(text)
    for e in res.entities:
        assert text[e.start : e.end] == e.text
    for f in res.frames:
        validate_frame(frame_dict(f))
        assert 0 <= f.start <= f.end <= len(text)
    spans = [(e.start, e.end) for e in res.entities]
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))  # no overlaps
