"""The three holes of the protection library's restore path (issue 13); each test failed before the fix."""

import pytest

from textguard_pipeline.protection import (
    MissingPlaceholdersError,
    TermProtectionConfig,
    TermProtector,
    UnknownPlaceholdersError,
    restore_protected,
)

RULES_ONLY = TermProtectionConfig(use_ner=False)


@pytest.fixture(scope="module")
def tp():
    return TermProtector(RULES_ONLY)


def test_hole1_a_repeated_term_kept_once_is_missing(tp):
    pc = tp.protect_text("Smith (2024) found it; later Smith (2024) confirmed 95% of it.")
    assert pc.protected_text.count("⟨TERM_000⟩") == 2
    answer = "⟨TERM_000⟩ found it and confirmed ⟨TERM_001⟩ of it."  # the second citation is gone
    assert tp.validate_placeholders(answer, pc) == (False, ["⟨TERM_000⟩"])
    with pytest.raises(MissingPlaceholdersError) as exc:
        tp.restore(answer, pc)
    assert exc.value.missing == ["⟨TERM_000⟩"]


@pytest.mark.parametrize("stray", ["<TERM_000>", "⟨ TERM_000 ⟩", "[TERM_000]", "⟨term_000⟩"])
def test_hole2_a_stray_variant_copy_next_to_the_correct_token_is_refused(tp, stray):
    pc = tp.protect_text("As shown by Smith (2024), it works.")
    answer = f"As ⟨TERM_000⟩ showed, it works ({stray})."
    with pytest.raises(UnknownPlaceholdersError) as exc:
        tp.restore(answer, pc)
    assert exc.value.placeholders == [stray]


def test_hole2_source_text_that_looks_like_a_variant_is_not_a_stray(tp):
    pc = tp.protect_text("The token [TERM_000] is literal text; Smith (2024) agrees.")
    assert "[TERM_000]" in pc.protected_text
    assert tp.restore(pc.protected_text, pc) == "The token [TERM_000] is literal text; Smith (2024) agrees."


def test_hole3_restore_protected_refuses_a_dropped_placeholder():
    terms = {"⟨TERM_000⟩": "(Smith, 2024)", "⟨TERM_001⟩": "95%"}
    maths = {"⟨MATH_000⟩": "$x$"}
    assert (
        restore_protected("⟨TERM_000⟩ gets ⟨TERM_001⟩ on ⟨MATH_000⟩.", terms, maths) == "(Smith, 2024) gets 95% on $x$."
    )
    with pytest.raises(MissingPlaceholdersError) as exc:
        restore_protected("It gets ⟨TERM_001⟩ on ⟨MATH_000⟩.", terms, maths)  # the citation vanished
    assert exc.value.missing == ["⟨TERM_000⟩"]
    with pytest.raises(MissingPlaceholdersError):
        restore_protected("⟨TERM_000⟩ gets ⟨TERM_001⟩.", terms, maths)  # the formula vanished


def test_hole3_counts_against_the_protected_text_when_given():
    terms = {"⟨TERM_000⟩": "Smith"}
    src = "⟨TERM_000⟩ and ⟨TERM_000⟩"
    assert restore_protected("⟨TERM_000⟩ twice ⟨TERM_000⟩", terms, {}, expected_text=src) == "Smith twice Smith"
    with pytest.raises(MissingPlaceholdersError):
        restore_protected("⟨TERM_000⟩ once", terms, {}, expected_text=src)


def test_hole3_a_math_placeholder_swallowed_by_a_term_is_not_missing():
    terms = {"⟨TERM_000⟩": r"\citep[for $z$]{k}"}
    maths = {"⟨MATH_000⟩": "$z$"}
    assert restore_protected("See ⟨TERM_000⟩.", terms, maths) == r"See \citep[for $z$]{k}."
