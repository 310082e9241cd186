"""Counting validation, safe repair of the listed variants, and what is never guessed."""

import pytest

from textguard_pipeline.lib.placeholder_audit import (
    audit,
    find_tokens,
    missing_occurrences,
    originals_kept,
    residue,
    stray_tokens,
)

PROTECTED = "By ⟨TERM_000⟩, ⟨TERM_001⟩ holds for ⟨MATH_000⟩; ⟨TERM_000⟩ agrees."
ISSUED = ["⟨TERM_000⟩", "⟨TERM_001⟩", "⟨MATH_000⟩"]
CLEAN = "By ⟨TERM_000⟩, ⟨TERM_001⟩ holds for ⟨MATH_000⟩; ⟨TERM_000⟩ agrees."


@pytest.mark.parametrize(
    "variant,kind",
    [
        ("⟨ TERM_001 ⟩", "inner_spaces"),
        ("<TERM_001>", "ascii_brackets"),
        ("[TERM_001]", "square_brackets"),
        ("〈TERM_001〉", "cjk_brackets"),
        ("⟨term_001⟩", "case"),
        ("⟨TERM_1⟩", "unpadded"),
        ("TERM_001", "bare"),
        ("\\⟨TERM\\_001\\⟩", "markdown_escaped"),
        ("⟨TERM_００１⟩", "fullwidth_digits"),
        ("⟨TE\u200bRM_001⟩", "zero_width"),
        ("⟨TERM_\u200b001⟩", "zero_width"),
        ("⟨⟨TERM_001⟩⟩", "doubled_brackets"),
    ],
)
def test_each_listed_variant_is_repaired_and_recorded(variant, kind):
    a = audit(CLEAN.replace("⟨TERM_001⟩", variant), PROTECTED, ISSUED)
    assert a.ok and a.text == CLEAN
    assert a.repairs == [{"found": variant, "placeholder": "⟨TERM_001⟩", "kind": kind}]


def test_counts_not_presence():
    once = "By ⟨TERM_000⟩, ⟨TERM_001⟩ holds for ⟨MATH_000⟩."
    a = audit(once, PROTECTED, ISSUED)
    assert not a.ok and a.lost == ["⟨TERM_000⟩"] and "expected 2, found 1" in a.problems()[0]
    assert missing_occurrences(PROTECTED, once) == ["⟨TERM_000⟩"]
    extra = CLEAN + " And ⟨TERM_001⟩ again."
    b = audit(extra, PROTECTED, ISSUED)
    assert b.ok and b.extra == {"⟨TERM_001⟩": 1} and any("extra copies" in p for p in b.problems())


def test_invented_and_unissued_variants_are_named_not_guessed():
    a = audit(CLEAN + " ⟨TERM_042⟩ <MATH_7>", PROTECTED, ISSUED)
    assert not a.ok and a.invented == ["⟨TERM_042⟩", "<MATH_7>"] and a.repairs == []


def test_overpadded_is_ambiguous():
    a = audit(CLEAN.replace("⟨TERM_001⟩", "⟨TERM_0001⟩"), PROTECTED, ISSUED)
    assert not a.ok and a.unrepaired == ["⟨TERM_0001⟩"]


def test_a_variant_that_is_also_source_text_is_never_repaired():
    protected = "The literal [TERM_001] stays; ⟨TERM_001⟩ is a term."
    issued = ["⟨TERM_001⟩"]
    # the model kept the literal and the token: fine
    assert audit(protected, protected, issued).ok
    # the model turned the token into the same shape as the literal: ambiguous, not repaired
    a = audit("The literal [TERM_001] stays; [TERM_001] is a term.", protected, issued)
    assert not a.ok and a.unrepaired == ["[TERM_001]"] and a.lost == ["⟨TERM_001⟩"]
    # another variant of the same placeholder is ambiguous too (the literal may have been reformatted)
    b = audit("The literal [TERM_001] stays; <TERM_001> is a term.", protected, issued)
    assert not b.ok and b.unrepaired == ["<TERM_001>"]


def test_neighbouring_text_is_not_swallowed():
    a = audit("By ⟨TERM_000⟩> x, ⟨TERM_001⟩s and ⟨MATH_000⟩; TERM_000s ⟨TERM_000⟩.", PROTECTED, ISSUED)
    assert a.text == "By ⟨TERM_000⟩> x, ⟨TERM_001⟩s and ⟨MATH_000⟩; TERM_000s ⟨TERM_000⟩."
    assert a.ok and a.repairs == []
    assert find_tokens("x TERM_0012y") == []


def test_stray_tokens_and_residue():
    assert stray_tokens(CLEAN + " <TERM_000>", PROTECTED, ISSUED) == ["<TERM_000>"]
    assert stray_tokens(CLEAN, PROTECTED, ISSUED) == []
    assert residue("Smith said [TERM_001] and ⟨ TERM_002 ⟩", "Smith said [TERM_001]") == ["⟨ TERM_002 ⟩"]
    assert residue("plain text", "plain text") == []


def test_originals_kept_counts_nested_originals():
    mapping = {"⟨TERM_000⟩": "Smith", "⟨TERM_001⟩": "Smith (2024)"}
    protected = "⟨TERM_000⟩ wrote ⟨TERM_001⟩."
    assert originals_kept("Smith wrote Smith (2024).", protected, mapping) == []
    # the lone "Smith" was dropped; the one inside the citation must not hide that
    assert originals_kept("He wrote Smith (2024).", protected, mapping) == ["Smith"]
