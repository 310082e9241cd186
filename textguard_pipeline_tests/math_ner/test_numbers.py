"""Math NER reads a number through the shared reader (lib/numbers.py): one NUMBER entity, one value."""

from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.math_ner import RuleBasedExtractor, ner_frame


def _numbers(text):
    res = RuleBasedExtractor().extract(text)
    return [(e.text, e.canonical) for e in res.entities if e.type == "NUMBER"]


def test_spaced_thousands_and_decimal_commas_are_one_number():
    assert _numbers("Miasto ma 125 000 mieszkańców i 1 234,5 km dróg.") == [
        ("125 000", "125000"),
        ("1 234,5", "1234.5"),
    ]
    assert _numbers("It costs 3\u202f400\u00a0000 or 2\u2009500 euros.") == [
        ("3\u202f400\u00a0000", "3400000"),
        ("2\u2009500", "2500"),
    ]


def test_lists_years_and_rows_stay_separate_numbers():
    assert [v for _, v in _numbers("Pick 2 3 or 4; in 1990 2000; row 10 200 300 4.")] == [
        "2", "3", "4", "1990", "2000", "10", "200", "300", "4",
    ]  # fmt: skip


def test_a_spaced_number_is_one_entity_in_ner_frames_and_its_sum_checks():
    doc = "# Liczby\n\nWiemy, że 125 000 + 1 234,5 = 126 234,5.\n"
    df, _ = ner_frame("d", parse_document(doc, "md"), RuleBasedExtractor())
    nums = df[(df["kind"] == "entity") & (df["entity_type"] == "NUMBER")]
    assert list(nums["text"]) == ["125 000", "1 234,5", "126 234,5"]
    assert list(nums["canonical"]) == ["125000", "1234.5", "126234.5"]
    frames = df[df["kind"] == "frame"]
    assert len(frames) == 1 and frames["text"].iloc[0].startswith("125 000 + 1 234,5")
    assert bool(frames["arith_correct"].iloc[0]) is True  # 125000 + 1234.5, not 125 + 0 + …
