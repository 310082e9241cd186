"""Paragraphs where the text has no blank lines, page furniture, and the length limit of prose chunks."""

import random
import textwrap

import pytest

from textguard_pipeline.ingest.paragraphs import usual_width
from textguard_pipeline.ingest.parsing import parse_document

_WORDS = (
    "the estimator of a covariance matrix is computed from residuals and weights so that inference in "
    "linear models remains valid under heteroskedasticity with unknown form while sample sizes grow"
).split()


def _paragraph(rnd: random.Random, sentences: int) -> str:
    out = []
    for _ in range(sentences):
        words = [rnd.choice(_WORDS) for _ in range(rnd.randint(10, 22))]
        out.append(" ".join(words).capitalize() + ".")
    return " ".join(out)


def _tiles(text: str, fmt: str = "txt", **limits):
    chunks = parse_document(text, fmt, **limits)
    assert "".join(c.source_text() for c in chunks) == text
    assert all(a.end == b.start for a, b in zip(chunks, chunks[1:], strict=False))
    return chunks


def _pdf_like(n_paragraphs: int, seed: int = 3, header: str = "Journal of Made-up Results") -> tuple[str, list[str]]:
    """Hard-wrapped paragraphs with no blank line, a running header and a page number every 30 lines."""
    rnd = random.Random(seed)
    paragraphs = [
        textwrap.fill(_paragraph(rnd, rnd.randint(2, 6)), 72, break_on_hyphens=False) for _ in range(n_paragraphs)
    ]
    lines, out, page = "\n".join(paragraphs).split("\n"), [], 1
    for k, line in enumerate(lines, 1):
        out.append(line)
        if k % 30 == 0:
            page += 1
            out += [f"{page}", f"\f{header} {page}" if page % 2 else f"\f{page} {header}"]
    return "\n".join(out) + "\n", paragraphs


def test_hard_wrapped_text_without_blank_lines_has_one_prose_chunk_per_paragraph():
    text, paragraphs = _pdf_like(40)
    chunks = _tiles(text)
    prose = [c for c in chunks if c.chunk_type == "prose"]
    # a paragraph crossing a page break is two chunks; a last line that happens to be long joins two
    assert len(paragraphs) - 3 <= len(prose) <= len(paragraphs) + len(text.split("\f"))
    opened = {c.text[:40] for c in prose}
    assert sum(p[:40] in opened for p in paragraphs) >= len(paragraphs) - 3


def test_running_headers_page_numbers_and_form_feeds_are_structural():
    text, _ = _pdf_like(40)
    chunks = _tiles(text)
    structural = [c.text for c in chunks if c.chunk_type == "structural"]
    assert any(s.startswith("\fJournal of Made-up Results") for s in structural)
    assert any(s.strip().endswith("Journal of Made-up Results") for s in structural)
    assert any(s.strip().isdigit() for s in structural)
    for c in chunks:
        if c.chunk_type == "prose":
            assert "Journal of Made-up" not in c.text and "\f" not in c.text


def test_a_line_repeated_close_together_is_not_a_running_header():
    body = "Results\n" + "\n".join(f"Results line {k} says more." for k in range(3)) + "\nResults\nResults\n"
    chunks = _tiles(body)
    assert all(c.chunk_type == "prose" for c in chunks)


def test_an_indented_line_or_a_list_item_opens_a_paragraph_and_hyphens_stay():
    text = (
        "A first paragraph fills its lines up to the usual width of this text, and\n"
        "it keeps going with a hy-\nphenated word that stays exactly as it was written\n"
        "in the source, and it goes on and on until it comes to its very last words\n"
        "    An indented line starts a new paragraph even though the line before it\n"
        "does not end a sentence, and this one then runs on to a full stop here.\n"
        "- a list item starts one too, with its words going on to the end of a line\n"
        "  and a continuation line that stays with the item's text for a while more.\n"
    )
    prose = [c.text for c in _tiles(text) if c.chunk_type == "prose"]
    assert [p.lstrip()[:12] for p in prose] == ["A first para", "An indented ", "- a list ite"]
    assert "hy-\nphenated" in prose[0]


def test_one_sentence_per_line_paragraphs_stay_whole():
    text = "First sentence here.\nA second, shorter one.\nAnd a third line that ends.\n\nNext paragraph.\n"
    prose = [c.text for c in _tiles(text) if c.chunk_type == "prose"]
    assert len(prose) == 2


@pytest.mark.parametrize("fmt", ["txt", "md", "tex"])
def test_no_prose_chunk_exceeds_the_limits_and_cuts_fall_at_sentence_ends(fmt):
    rnd = random.Random(5)
    text = " ".join(_paragraph(rnd, 1) for _ in range(400)) + "\n"  # one line, no paragraph end at all
    chunks = _tiles(text, fmt)
    prose = [c for c in chunks if c.chunk_type == "prose"]
    assert len(prose) > 1
    assert all(len(c.source_text()) <= 4000 for c in prose)
    assert all(c.source_text().rstrip().endswith(".") for c in prose)


def test_a_cut_never_falls_inside_inline_math_a_url_or_a_command_argument():
    rnd = random.Random(9)
    unit = "A claim $a + b = c$ is shown at https://example.org/a/very/long/path and \\emph{in some words} here. "
    filler = " ".join(_paragraph(rnd, 1).rstrip(".") for _ in range(3))
    text = "".join(unit + filler + " " for _ in range(120)) + "\n"
    for fmt, limit in (("tex", 700), ("txt", 650)):
        chunks = _tiles(text, fmt, chunk_chars=limit, chunk_max_chars=limit * 3)
        for c in chunks:
            src = c.source_text()
            assert src.count("$") % 2 == 0
            assert src.count("\\emph{") == src.count("some words}")
            assert src.count("https://") == src.count("long/path")
            assert len(src) <= limit * 3


def test_a_text_with_no_boundary_is_cut_at_the_hard_limit():
    text = "x" * 30_000
    chunks = _tiles(text, "txt")
    assert [len(c.text) for c in chunks] == [12_000, 12_000, 6_000]


def test_chunk_limits_are_checked():
    with pytest.raises(ValueError, match="chunk limits"):
        parse_document("text", "txt", chunk_chars=5000, chunk_max_chars=4000)


def test_usual_width_is_the_upper_quartile_of_line_lengths():
    text = "\n".join(["x" * 70] * 6 + ["y" * 20] * 2) + "\n"
    assert usual_width(text) == 70
    assert usual_width("short\n") == 0


def test_the_chunk_limits_are_a_setting_and_reach_the_chunker(monkeypatch):
    from textguard_pipeline import settings
    from textguard_pipeline.pipeline import parse_chunks

    assert settings.chunk_limits({}) == (4000, 12000)
    with pytest.raises(settings.SettingsError, match="TEXTGUARD_CHUNK_MAX_CHARS"):
        settings.chunk_limits({"TEXTGUARD_CHUNK_CHARS": "5000", "TEXTGUARD_CHUNK_MAX_CHARS": "4000"})
    rnd = random.Random(2)
    text = " ".join(_paragraph(rnd, 1) for _ in range(60)) + "\n"
    monkeypatch.setenv("TEXTGUARD_CHUNK_CHARS", "500")
    monkeypatch.setenv("TEXTGUARD_CHUNK_MAX_CHARS", "900")
    chunks = parse_chunks(text, "md", run_language="en")
    assert len(chunks) > 5 and all(len(c.source_text()) <= 500 for c in chunks)


def test_a_padded_or_lower_case_running_header_is_structural_and_a_title_page_may_repeat_it():
    text, _ = _pdf_like(40, header="zoo   Quick    Reference")
    text = "zoo Quick Reference\nzoo Quick Reference\n" + text
    chunks = _tiles(text)
    assert all("Quick" not in c.text for c in chunks if c.chunk_type == "prose")


def _body(n: int, seed: int = 4) -> str:
    """``n`` hard-wrapped paragraphs at 78 columns ending in a short line, no blank line between them."""
    rnd = random.Random(seed)
    return "".join(
        textwrap.fill(_paragraph(rnd, 3) + " As shown", 78, break_on_hyphens=False) + ".\n" for _ in range(n)
    )


def test_a_reference_with_a_hanging_indent_is_one_paragraph_but_an_indented_first_line_still_opens_one():
    text = _body(3) + (
        "    Indented again, this first line of a paragraph opens one even though the\n"
        "line before it ends with a full stop or not, as this one shows.\n"
        "Cameron AC, Trivedi PK (1998). Regression Analysis of Count Data. Cambridge\n"
        "      University Press, Cambridge.\n"
        "Zeileis A (2004). Econometric computing with heteroskedasticity and autocorre-\n"
        "      lation consistent covariance matrix estimators. Journal of Statistical\n"
        "      Software, 11(10), 1-17.\n"
    )
    prose = [c.text for c in _tiles(text) if c.chunk_type == "prose"]
    assert prose[-3].lstrip().startswith("Indented again")
    assert prose[-2].startswith("Cameron AC") and prose[-2].rstrip().endswith("Press, Cambridge.")
    assert prose[-1].startswith("Zeileis A") and prose[-1].rstrip().endswith("1-17.")


def test_a_wrapped_line_starting_with_a_plus_or_a_roman_numeral_word_does_not_open_a_list_item():
    text = _body(2) + (
        "The conditional mean of the response is a linear function of the regressors\n"
        "xi. The variance is the mean times a dispersion parameter that is estimated\n"
        "from the sum of the squared Pearson residuals of the first fitted model here\n"
        "+ a correction term, and the two estimates agree closely.\n"
        "Three steps follow:\n"
        "a) the first step has a long description that fills up its line to the width\n"
        "   of the text and runs on over a second line without any end punctuation\n"
        "b) the second step follows it at once and is a list item of its own again.\n"
    )
    prose = [c.text for c in _tiles(text) if c.chunk_type == "prose"]
    assert any(p.startswith("The conditional") and p.rstrip().endswith("agree closely.") for p in prose)
    assert [p[:14] for p in prose[-3:]] == ["Three steps fo", "a) the first s", "b) the second "]


def _paged(header_at: int, lines_per_page: int = 40, pages: int = 6) -> str:
    rnd = random.Random(8)
    lines = textwrap.fill(" ".join(_paragraph(rnd, 4) for _ in range(40)), 78).split("\n")
    out, k = [], 0
    for page in range(pages):
        body = lines[k : k + lines_per_page]
        k += lines_per_page
        body.insert(header_at, "Results overview table")
        out.append(("\f" if page else "") + "Handbook\n" + "\n".join(body) + f"\n{page + 1}\n")
    return "".join(out)


def test_with_form_feeds_a_header_stands_at_the_edge_of_a_page_and_a_line_repeated_mid_page_is_not_one():
    chunks = _tiles(_paged(header_at=20))
    structural = "".join(c.text for c in chunks if c.chunk_type == "structural")
    prose = "".join(c.text for c in chunks if c.chunk_type == "prose")
    assert structural.count("Handbook") == 6  # one word, but at the top of every page
    assert prose.count("Results overview table") == 6
    chunks = _tiles(_paged(header_at=1))
    assert "Results overview table" not in "".join(c.text for c in chunks if c.chunk_type == "prose")


def test_without_form_feeds_a_header_has_words_and_recurs_as_often_as_the_running_title():
    rnd = random.Random(6)
    parts = []
    for page in range(1, 13):
        parts.append(f"Econometric Computing with Sandwich Estimators {page}\n")
        parts.append(textwrap.fill(" ".join(_paragraph(rnd, 3) for _ in range(4)), 78) + "\n")
        if page % 3 == 0:  # console output that comes back four times
            parts.append("z test of coefficients:\n(Intercept) 1.028874 0.064530 15.9442\nR> z1\n")
    text = "".join(parts)
    chunks = _tiles(text)
    structural = "".join(c.text for c in chunks if c.chunk_type == "structural")
    assert structural.count("Econometric Computing") == 12
    assert "z test of coefficients:" not in structural and "R> z1" not in structural  # console output: code


def _prose_texts(text: str) -> list[str]:
    return [c.source_text() for c in _tiles(text) if c.chunk_type == "prose"]


def test_a_short_line_ending_in_a_footnote_mark_ends_its_paragraph():
    rnd = random.Random(5)
    first = textwrap.fill(_paragraph(rnd, 3), 72) + "\nas it is called).5"
    second = textwrap.fill(_paragraph(rnd, 3), 72)
    text = first + "\n" + second + "\n" + textwrap.fill(_paragraph(rnd, 3), 72) + "\n"
    assert any(p.rstrip().endswith("called).5") for p in _prose_texts(text))
    # a version number at a line end is not a footnote mark
    assert not any(p.rstrip().endswith("version 1.5") for p in _prose_texts(text.replace("called).5", "version 1.5")))


def test_a_heading_over_a_one_line_paragraph_is_its_own_chunk():
    body = "\n\n" + textwrap.fill(_paragraph(random.Random(1), 4), 90) + "\n"
    text = "                        2. The linear regression model\nTo fix notations, we consider the model\n" + body
    assert _prose_texts(text)[:2] == [
        "                        2. The linear regression model\n",
        "To fix notations, we consider the model\n\n\n",
    ]
    # an ASCII diagram's centred line is no heading
    diagram = "                 START <----+\n  Send ClientHello |        | Recv HelloRetryRequest\n" + body
    assert _prose_texts(diagram)[0].startswith("                 START <----+\n  Send ClientHello")


def test_a_mixed_case_pair_or_a_lone_letter_mid_page_is_not_a_page_number():
    rnd = random.Random(2)
    lines = textwrap.fill(" ".join(_paragraph(rnd, 3) for _ in range(8)), 72).split("\n")
    page = "\n".join(lines[:12] + ["Cc", "v"] + lines[12:24]) + "\n"
    text = "\f".join([page, page, page])
    structural = [c.source_text().strip() for c in _tiles(text) if c.chunk_type == "structural"]
    assert "Cc" not in structural and "v" not in structural
    # a roman page number at a page's edge still is one
    edged = "\f".join(page + "v\n" for _ in range(3))
    assert "v" in [c.source_text().strip() for c in _tiles(edged) if c.chunk_type == "structural"]


def test_without_form_feeds_a_repeated_prompt_or_label_is_not_a_running_header():
    rnd = random.Random(4)
    parts = []
    for _ in range(6):
        parts += [
            textwrap.fill(_paragraph(rnd, 3), 72),
            "You have: _",
            "General form:",
            textwrap.fill(_paragraph(rnd, 2), 72),
        ]
    text = "\n".join(parts) + "\n"
    structural = [c.source_text().strip() for c in _tiles(text) if c.chunk_type == "structural"]
    assert "You have: _" not in structural and "General form:" not in structural
