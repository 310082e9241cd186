"""The one number reader (lib/numbers.py): a number is one token with one value, by locale."""

import pytest

from textguard_pipeline.lib.numbers import find_ranges, locale_for, read_magnitudes, read_numbers, widen


def _read(text, locale="en"):
    return [(t.text, t.value) for t in read_numbers(text, locale)]


@pytest.mark.parametrize("sep", [" ", "\u00a0", "\u202f", "\u2009"])
def test_spaced_thousands_are_one_number_with_every_kind_of_space(sep):
    assert _read(f"about 125{sep}000 people", "fr") == [(f"125{sep}000", 125000)]
    assert _read(f"1{sep}234,5 zł", "pl") == [(f"1{sep}234,5", 1234.5)]
    assert _read(f"3{sep}400{sep}000.25 m", "en") == [(f"3{sep}400{sep}000.25", 3400000.25)]


def test_small_numbers_years_and_table_rows_are_not_merged():
    assert _read("pick 2 3 or 4") == [("2", 2), ("3", 3), ("4", 4)]
    assert _read("between 1990 2000 and 2010") == [("1990", 1990), ("2000", 2000), ("2010", 2010)]
    assert _read("row: 10 200 300 4") == [("10", 10), ("200", 200), ("300", 300), ("4", 4)]
    assert _read("cols 1.5 125 000") == [("1.5", 1.5), ("125", 125), ("000", 0)]  # a row of a table
    assert _read("code 07 123") == [("07", 7), ("123", 123)]  # a leading zero is no leading group
    assert _read("12 3456") == [("12", 12), ("3456", 3456)]  # a group of four digits is not a group
    # the spaces may be mixed (copied text), but a plain space still keeps a row apart
    assert _read("1\u00a0234\u202f567", "fr") == [("1\u00a0234\u202f567", 1234567)]
    assert _read("1\u00a0234 567 8", "fr") == [("1", 1), ("234", 234), ("567", 567), ("8", 8)]


def test_commas_and_dots_follow_the_locale():
    assert _read("1,234,567.5 and 1,5", "en") == [("1,234,567.5", 1234567.5)]  # "1,5" is no English number
    assert _read("1,234 et 0,5", "fr") == [("1,234", 1.234), ("0,5", 0.5)]
    assert _read("1,234 and 1,5 and 0.25", "auto") == [("1,234", 1234), ("1,5", 1.5), ("0.25", 0.25)]
    assert _read("1.234.567 und 1.234,5", "de") == [("1.234.567", 1234567), ("1.234,5", 1234.5)]
    assert _read("Python 3.11.2, lists 1,2,3") == []  # versions and lists are no single number
    assert locale_for(None) == "en" and locale_for("pl") == "pl" and locale_for("ja") == "en"


def test_ranges_of_each_language_are_read_with_their_words_and_dashes():
    def spans(text, lang):
        return [(text[r.start : r.end], r.low.value, r.high.value) for r in find_ranges(text, lang)]

    assert spans("from 1 000 to 2 000 runs, 10–20 %, 5 to 3 and 7-2", "en") == [
        ("from 1 000 to 2 000", 1000, 2000),
        ("10–20", 10, 20),
    ]
    assert spans("entre 2,5 et 4 heures, de 8 à 10", "fr") == [("entre 2,5 et 4", 2.5, 4), ("de 8 à 10", 8, 10)]
    assert spans("od 10 do 20 osób, 2019–2020", "pl") == [("od 10 do 20", 10, 20), ("2019–2020", 2019, 2020)]


def test_widen_never_cuts_a_number():
    text = "we saw 125 000 birds"
    toks = read_numbers(text)
    s = text.index("000")
    assert widen(s, s + 3, toks) == (text.index("125"), s + 3)
    assert widen(0, 2, toks) == (0, 2)


def test_a_comma_list_of_spaced_numbers_is_not_a_table_row():
    assert _read("sizes 125 000, 1 234,5 and 2 500.", "fr") == [
        ("125 000", 125000),
        ("1 234,5", 1234.5),
        ("2 500", 2500),
    ]


def test_a_number_with_a_magnitude_suffix_is_one_token_valued_with_its_magnitude():
    text = "1.2M examples, 350k steps, a 7B model, 2.5 bn tokens; not A100k, v1.2M, 1.2.3k or -3k"
    assert [(t.text, t.value) for t in read_magnitudes(text)] == [
        ("1.2M", 1_200_000),
        ("350k", 350_000),
        ("7B", 7_000_000_000),
        ("2.5 bn", 2_500_000_000),
    ]
    assert [(t.text, t.value) for t in read_magnitudes("1,5M et 1,200k", "fr")] == [
        ("1,5M", 1_500_000),
        ("1,200k", 1200),
    ]
    assert [t.text for t in read_magnitudes("1,5M and 1,200k")] == ["1,200k"]
