"""Huge operands (issue 14 item 6): exact comparison, no float overflow, no int-string limit, frames kept."""

import json
from fractions import Fraction

import pytest

from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.core.spans import check_char_ranges
from textguard_pipeline.math_ner import RuleBasedExtractor, check_arith, frame_row_problems, ner_frame, validate_frame
from textguard_pipeline.math_ner.arith import apply_op, exact, json_number, same

X = RuleBasedExtractor()


@pytest.mark.parametrize("digits", [308, 309, 400, 4_300, 4_301, 6_000])
def test_a_huge_operand_yields_a_checked_frame(digits):
    a = "9" * digits
    right = X.extract(f"{a} + 1 = 1{'0' * digits}").frames
    wrong = X.extract(f"{a} + 1 = 2{'0' * digits}").frames
    assert [(f.operation, f.correct) for f in right] == [("add", True)]
    assert [(f.operation, f.correct) for f in wrong] == [("add", False)]
    assert exact(right[0].operands[0]) == 10**digits - 1  # the exact value, not a float's 1e308 or inf


def test_huge_products_and_quotients_are_compared_exactly():
    a = 10**400
    assert X.extract(f"{a} * {a} = 1{'0' * 800}").frames[0].correct is True
    assert X.extract(f"{a} / 4 = 25{'0' * 398}").frames[0].correct is True
    assert X.extract(f"{a} / 3 = 1").frames[0].correct is False
    assert X.extract(f"{'1' * 400}.5 + 1 = {'1' * 399}2.5").frames[0].correct is True


def test_documents_with_thousands_of_digits_give_valid_rows():
    a = 10**1_900 + 7
    squares = f"Squares:\n\n{a} * {a} = {a * a}.\n"  # one text unit of 7,600 characters (cut at 4,000)
    long_line = "Big:\n\n" + "7" * 5_000 + " + 3 = 1\n\n2 + 2 = 4.\n"
    for text in (squares, long_line, f"{a} * {a} = {a * a}."[:3_990]):
        df, _ = ner_frame("d", parse_document(text, "md"), X)
        assert all(frame_row_problems(r) == [] for r in df.to_dict("records"))
        assert check_char_ranges(df.to_dict("records"), text) == []
    df, _ = ner_frame("d", parse_document(long_line, "md"), X)
    assert df[df["kind"] == "frame"]["arith_correct"].tolist()[-1:] == [True]  # 2 + 2 = 4 is still found
    b = 10**900 + 3
    text = f"{b} * {b} = {b * b}"  # 3,609 characters: one unit
    df, _ = ner_frame("d", parse_document(text, "md"), X)
    frames = df[df["kind"] == "frame"]
    assert frames["arith_correct"].tolist() == [True]
    assert check_arith(validate_frame(json.loads(frames["frame_json"].iloc[0]))) is True


def test_exact_helpers():
    assert exact("1" * 5_000) == int("1" * 4_000) * 10**1_000 + int("1" * 1_000)
    assert exact("abc") is None and exact(float("inf")) is None and exact(True) is None
    assert apply_op("div", [1, 0]) is None and apply_op("sub", [10, "2.5"]) == Fraction(15, 2)
    assert same(0.1 + 0.2, 0.3) and same(10**400, 10**400 + 1) and not same(10**4, 10**4 + 1)
    assert json_number(Fraction(10**5_000)) == "1" + "0" * 5_000 and json_number(Fraction(7, 2)) == 3.5
