import pytest

from textguard_pipeline.lib.spans import OffsetMap, Span, check_char_ranges, span_violation


def test_span_rejects_bad_ranges_and_quotes_source():
    with pytest.raises(ValueError):
        Span(5, 3, "")
    s = Span.of("hello world", 6, 11, "X")
    assert s.text == "world" and s.label == "X"
    assert s.overlaps(Span(10, 12, "d!")) and not s.overlaps(Span(0, 6, "hello "))


def test_check_char_ranges_reports_every_kind_of_violation():
    src = {"a": "héllo wörld", "b": "x"}
    rows = [
        {"doc_id": "a", "start": 0, "end": 5, "text": "héllo"},  # ok
        {"doc_id": "a", "start": 6, "end": 11, "text": "world"},  # wrong quote (ö)
        {"doc_id": "a", "start": 6, "end": 99, "text": "wörld"},  # out of range
        {"doc_id": "zz", "start": 0, "end": 1, "text": "x"},  # unknown doc
        {"doc_id": "b", "start": "x", "end": 1, "text": "x"},  # non-integer
    ]
    v = check_char_ranges(rows, src)
    assert [x.row for x in v] == [1, 2, 3, 4]
    assert v[0].found == "wörld" and v[0].expected == "world"
    assert "outside" in v[1].reason and v[2].reason == "unknown doc_id"
    assert check_char_ranges(rows, src, limit=2)[-1].row == 2


def test_check_char_ranges_accepts_spans_and_single_source():
    assert check_char_ranges([Span(0, 1, "a"), Span(1, 1, "")], "ab") == []
    assert span_violation("ab", 0, 2, "ab") is None
    assert span_violation("ab", 0, 2, None) is not None


def test_offset_map_maps_around_replacements():
    # derived "a ⟨M⟩ b" from source "a $x+y$ b" (base 100)
    om = OffsetMap(base=100)
    om.add(2, 5, 2, 9)
    assert om.to_source(0) == 100
    assert om.to_source(2) == 102  # replacement start
    assert om.to_source(5) == 109  # replacement end
    assert om.to_source(6) == 110
    with pytest.raises(ValueError):
        om.to_source(3)
    assert om.span_to_source(0, 5) == (100, 109)
