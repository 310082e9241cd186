import pytest

from textguard_pipeline.lib.placeholders import (
    UnknownPlaceholderError,
    find_placeholders,
    make_placeholder,
    restore_placeholders,
)


def test_make_placeholder_has_three_digits_at_least():
    assert make_placeholder("MATH", 7) == "⟨MATH_007⟩"
    assert make_placeholder("TERM", 1234) == "⟨TERM_1234⟩"


def test_restore_is_single_pass_and_repeats_every_occurrence():
    m = {"⟨TERM_000⟩": "⟨MATH_000⟩", "⟨MATH_000⟩": "$x$"}
    # The original put back ("⟨MATH_000⟩") is not scanned again.
    assert restore_placeholders("a ⟨TERM_000⟩ b ⟨MATH_000⟩ ⟨MATH_000⟩", m) == "a ⟨MATH_000⟩ b $x$ $x$"


def test_unknown_placeholder_is_a_typed_error_unless_lenient():
    with pytest.raises(UnknownPlaceholderError) as ei:
        restore_placeholders("⟨TERM_009⟩ and ⟨X_1⟩", {})
    assert ei.value.placeholders == ["⟨TERM_009⟩", "⟨X_1⟩"]
    assert restore_placeholders("⟨TERM_009⟩ ⟨ ⟩", {}, strict=False) == "⟨TERM_009⟩ ⟨ ⟩"
    assert find_placeholders("⟨A_1⟩⟨B_22⟩ ⟨c_1⟩") == ["⟨A_1⟩", "⟨B_22⟩"]
