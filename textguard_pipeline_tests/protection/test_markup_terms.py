"""Markup hidden whole as terms (source "markup"), and no term cutting through markup (issue 45)."""

import pandas as pd
import pytest

from textguard_pipeline.ingest.parsing import parse_document
from textguard_pipeline.protection import TermProtectionConfig, TermProtector
from textguard_pipeline.protection.markup_rules import markup_crossings, prose_hidden_share
from textguard_pipeline.protection.restore import protected_frame

USER_TRIAL = (
    "As shown in [1] and [2, 3], and [4–7], ROUGE-L 41.2 on an NVIDIA A100 with GPT-4o; 1.2M examples, 350k steps, "
    "a 7B model. See arXiv:2101.00001, RFC 7159 and CVE-2021-44228. Table 2, Fig. 3, Eq. (4), Section 2.1 and § 3 "
    "say so. Mail a.b@c.org or see https://x.org/a.\n"
)

TEX = r"""As shown in Table~\ref{tab:main} and \citet{smith2020}, \emph{recall} rises \url{https://x.org/a_b}.
\noindent Model & Score \\ \hline
Sgr & 8.15 \\ % tuned on http://y.org/dev
See \href{https://z.org/p}{the project page} and \verb+\end{subequations}+ \label{subsec:x}.
"""

MD = (
    "Badge [![PyPI version](https://img.shields.io/pypi/v/x.svg)](https://pypi.org/x) and "
    '[the documentation site](https://docs.x.org "Docs") by Google engineers.\n'
)


@pytest.fixture(scope="module")
def rules_only():
    return TermProtector(TermProtectionConfig(use_ner=False))


@pytest.fixture(scope="module")
def with_ner():
    return TermProtector(TermProtectionConfig())


def protect(tp, text, fmt):
    out = tp.protect_many([c for c in parse_document(text, fmt) if c.chunk_type == "prose"])
    for pc in out:
        assert tp.restore(pc.protected_text, pc) == pc.chunk.source_text()
    return out


def terms_of(out):
    return {(t.original, t.source, t.label) for pc in out for t in pc.terms}


def test_what_a_new_user_tried_is_hidden_whole_with_its_kind(rules_only):
    found = terms_of(protect(rules_only, USER_TRIAL, "md"))
    for original, label in [
        ("[1]", "citation_numeric"),
        ("[2, 3]", "citation_numeric"),
        ("[4–7]", "citation_numeric"),
        ("ROUGE-L 41.2", "name_with_digits"),
        ("NVIDIA A100", "name_with_digits"),
        ("GPT-4o", "name_with_digits"),
        ("1.2M", "quantity"),
        ("350k", "quantity"),
        ("7B", "quantity"),
        ("arXiv:2101.00001", "identifier"),
        ("RFC 7159", "identifier"),
        ("CVE-2021-44228", "identifier"),
        ("Table 2", "crossref"),
        ("Fig. 3", "crossref"),
        ("Eq. (4)", "crossref"),
        ("Section 2.1", "crossref"),
        ("§ 3", "crossref"),
        ("a.b@c.org", "email"),
        ("https://x.org/a", "url"),
    ]:
        assert (original, "markup", label) in found, original


def test_latex_references_addresses_and_code_are_terms_and_emph_text_stays_prose(rules_only):
    (pc,) = protect(rules_only, TEX, "tex")
    found = terms_of([pc])
    assert ("Table~\\ref{tab:main}", "markup", "crossref") in found
    assert ("\\url{https://x.org/a_b}", "markup", "url") in found
    assert ("\\href{https://z.org/p}", "markup", "url") in found
    assert ("\\verb+\\end{subequations}+", "markup", "code") in found
    assert ("\\label{subsec:x}", "markup", "latex_ref") in found
    assert ("% tuned on http://y.org/dev", "markup", "comment") in found
    assert "\\emph{recall}" in pc.protected_text and "{the project page}" in pc.protected_text


def test_a_markdown_target_is_one_term_and_the_link_text_stays_prose(rules_only):
    (pc,) = protect(rules_only, MD, "md")
    targets = [t.original for t in pc.terms if t.label == "md_target"]
    assert targets == [
        "](https://img.shields.io/pypi/v/x.svg)",
        "](https://pypi.org/x)",
        '](https://docs.x.org "Docs")',
    ]
    assert "the documentation site" in pc.protected_text


def test_no_entity_holds_markup_and_none_cuts_it(with_ner):
    out = protect(with_ner, TEX, "tex") + protect(with_ner, MD, "md")
    ner = [t.original for pc in out for t in pc.terms if t.source == "ner"]
    assert not any(ch in t for t in ner for ch in "\\{}&`]()<>"), ner
    frame = protected_frame("d", [pc.chunk for pc in out], with_ner)
    assert markup_crossings(frame) == []


def test_field_acronyms_and_initials_before_et_al_are_not_entities(with_ner):
    text = (
        "The job is CPU bound, so we moved it to a GPU with more RAM at Google.\n\n"
        "[1] Smith, J. et al. CPU scheduling at scale. Journal of Systems, 2020.\n"
    )
    found = terms_of(protect(with_ner, text, "md"))
    ner = {o for o, s, _ in found if s == "ner"}
    assert not ner & {"CPU", "GPU", "RAM"} and not any("et al" in o and len(o) < 10 for o in ner), ner


def test_the_boundary_rule_reports_every_term_that_cuts_markup_or_holds_some_outside_one_span():
    spans = [{"start": 10, "end": 30, "kind": "url"}, {"start": 40, "end": 46, "kind": "latex_command"}]
    frame = pd.DataFrame(
        {
            "chunk_index": [0],
            "markup_spans": [spans],
            "terms": [
                [
                    {"start": 5, "end": 15, "source": "number", "original": "x"},  # cuts the URL
                    {"start": 12, "end": 20, "source": "markup", "original": "y"},  # inside it: fine
                    {"start": 38, "end": 50, "source": "citation", "original": "z"},  # holds the command
                    {"start": 39, "end": 47, "source": "ner", "original": "w"},  # an entity holding markup
                    {"start": 41, "end": 43, "source": "number", "original": "v"},  # inside the command: fine
                    {"start": 8, "end": 32, "source": "literal", "original": "⟨"},  # a stray bracket: exempt
                ]
            ],
        }
    )
    found = markup_crossings(frame)
    assert [(f["original"] if "original" in f else f["term"], f["reason"].split()[0]) for f in found] == [
        ("x", "cuts"),
        ("z", "holds"),
        ("w", "holds"),
    ]


def test_protected_chunks_carry_their_markup_and_report_the_share_of_prose_hidden(rules_only):
    chunks = parse_document(TEX, "tex")
    frame = protected_frame("d", chunks, rules_only)
    assert "markup_spans" in frame.columns and sum(len(m) for m in frame["markup_spans"]) > 5
    share = prose_hidden_share(frame)
    assert 0.1 < share < 0.9
    assert prose_hidden_share(protected_frame("e", parse_document("Plain words only here.\n", "md"), rules_only)) == 0


def test_a_restructuredtext_literal_stays_readable_but_an_address_in_it_is_hidden(rules_only):
    text = "Set ``endpoint_url`` to ``https://s3.example.com`` and ``scale=20.0`` (see :ref:`config`).\n"
    (pc,) = protect(rules_only, text, "txt")
    found = terms_of([pc])
    assert ("https://s3.example.com", "markup", "url") in found and (":ref:`config`", "markup", "rst_role") in found
    assert "``endpoint_url``" in pc.protected_text and ("20.0", "number", "PARAM") in found


def test_a_term_that_holds_markup_without_lying_inside_one_span_is_dropped_and_one_clear_of_it_kept():
    # custom terms, with markup protection off, so that only the boundary rule stands between them and the markup
    tp = TermProtector(
        TermProtectionConfig(
            use_ner=False, protect_markup=False, custom_terms=("Smith \\emph{et al.}", "see https", "et al.", "x.org")
        )
    )
    text = "As Smith \\emph{et al.} say (et al. again), see https://x.org/a for more.\n"
    (pc,) = protect(tp, text, "tex")
    assert {t.original for t in pc.terms} == {"et al.", "x.org"}  # inside no markup / inside the URL
    assert markup_crossings(protected_frame("d", [pc.chunk], tp)) == []


def test_markup_that_begins_inside_the_parsers_math_is_hidden_by_its_part_outside(rules_only):
    text = "Run it: $ x % y $ now, see https://x.org/a.\nA $\\url{x$ y} z.\n"
    out = protect(rules_only, text, "tex")
    found = [(t.original, t.label) for pc in out for t in pc.terms]
    assert found == [(" now, see https://x.org/a.", "comment"), (" y}", "url")]
    assert sum(pc.protected_text.count("⟨MATH_") for pc in out) == 2  # the math stays the parser's
    assert markup_crossings(protected_frame("d", [pc.chunk for pc in out], rules_only)) == []


def test_a_quantity_is_read_by_the_number_reader_in_the_chunks_language(rules_only):
    from textguard_pipeline.protection.recognizers.markup_forms import MarkupFormRecognizer

    rec = MarkupFormRecognizer()
    quantities = lambda text, lang: [text[c.start : c.end] for c in rec.find(text, lang) if c.label == "quantity"]  # noqa: E731
    assert quantities("1,5M rows and 2.5 bn tokens, 1,200k steps, A100k", "fr") == ["1,5M", "2.5 bn", "1,200k"]
    assert quantities("1,5M rows and 2.5 bn tokens, 1,200k steps, A100k", "en") == ["2.5 bn", "1,200k"]
