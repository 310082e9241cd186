"""Display maths and tables in PDF text are not prose; reference entries, contents lines and headings stay as they
were."""

from textguard_pipeline.ingest.displays import line_kind
from textguard_pipeline.ingest.parsing import parse_document

_PARA = (
    "In the general linear model, it is typically assumed that the errors have zero mean and variance\n"
    "equal to a known matrix. Under suitable regularity conditions, the coefficients can be consistently\n"
    "estimated by OLS giving the well-known OLS estimator with corresponding OLS residuals:\n"
)
_AFTER = (
    "where In is the n-dimensional identity matrix and H is usually called hat matrix. The estimates\n"
    "are unbiased and asymptotically normal, and their covariance matrix is usually written so.\n"
)


def _chunks(text: str):
    chunks = parse_document(text, "txt")
    assert "".join(c.source_text() for c in chunks) == text
    return chunks


def _kind_of(chunks, needle: str) -> str:
    return next(str(c.chunk_type) for c in chunks if needle in c.source_text())


def test_a_display_equation_in_pdf_text_is_a_math_block_between_two_prose_paragraphs():
    display = (
        "                                          −1\n"
        "                       β̂ =         X ⊤X         X ⊤y                                         (2)\n"
        "                                                                              −1\n"
        "                       û = (In − H) y = (In − X X ⊤ X                               X ⊤) y   (3)\n"
    )
    chunks = _chunks(_PARA + display + _AFTER)
    assert _kind_of(chunks, "β̂ =") == "math_block"
    assert _kind_of(chunks, "(In − H)") == "math_block"
    prose = [c for c in chunks if c.chunk_type == "prose"]
    assert [c.text[:20] for c in prose] == [_PARA[:20], _AFTER[:20]]


def test_a_fraction_s_lone_digit_inside_a_display_is_maths_not_a_page_number():
    display = "                k++tη,\n           1\n  Wn (t) =   √        ũi     (0 ≤ t ≤ 1),      (7)\n        σ̃ η\n"
    chunks = _chunks(_PARA + display + _AFTER)
    maths = [c.source_text() for c in chunks if c.chunk_type == "math_block"]
    assert len(maths) == 1 and "k++tη," in maths[0] and "\n           1\n" in maths[0] and "σ̃ η" in maths[0]


def test_rows_of_a_numeric_table_are_one_structural_chunk():
    table = (
        "(Intercept)     1.029    1.029    0.929    1.198\n"
        "                (0.024)  (0.065)  (0.055)  (0.059)\n"
        "hosp            0.165    0.165    0.218    0.212\n"
        "                (0.006)  (0.022)  (0.020)  (0.021)\n"
    )
    chunks = _chunks(_PARA + table + _AFTER)
    tables = [c for c in chunks if "(Intercept)" in c.source_text()]
    assert len(tables) == 1 and tables[0].chunk_type == "structural" and "(0.021)" in tables[0].source_text()
    assert sum(c.chunk_type == "prose" for c in chunks) == 2


def test_maths_inside_a_sentence_stays_prose():
    text = (
        "with dependent variable yi , k-dimensional regressor xi with coefficient vector β and error\n"
        "term ui . In the usual matrix notation comprising all n observations this can be formulated\n"
        "as y = Xβ + u.\n" + _AFTER
    )
    chunks = _chunks(text)
    assert all(c.chunk_type == "prose" for c in chunks)


def test_reference_entries_contents_lines_and_headings_stay_as_they_were():
    text = (
        "Table of Contents\n\n"
        "   1.  Introduction  . . . . . . . . . . . . . . . . . . . . . . .   5\n"
        "     1.1.  Conventions and Terminology . . . . . . . . . . . . . .   6\n"
        "     1.2.  Major Differences from TLS 1.2  . . . . . . . . . . . .   7\n\n"
        "A. R code\n"
        "The code below fits every model of this paper to the data set of the last section and prints them.\n\n"
        '   [RFC5246]  Dierks, T. and E. Rescorla, "The Transport Layer Security (TLS) Protocol\n'
        '              Version 1.2", RFC 5246, DOI 10.17487/RFC5246, August 2008,\n'
        "              <https://www.rfc-editor.org/info/rfc5246>.\n\n"
        "Zeileis A (2004). Econometric Computing with HC and HAC Covariance Matrix Estimators.\n"
        "   Journal of Statistical Software, 11(10), 1–17.\n"
        "   http://www.jstatsoft.org/v11/i10/\n"
    )
    chunks = _chunks(text)
    assert {str(c.chunk_type) for c in chunks} == {"prose"}
    for line in text.splitlines():
        assert line_kind(line) in ("", "filler"), line


def test_a_line_without_words_is_maths_and_a_line_of_numbers_a_row():
    assert line_kind("  yi = x⊤i β + ui      (i = 1, . . . , n),     (1)") == "math"
    assert line_kind("RealGNP       0.1691     0.0168   10.10   <2e-16 ***") == "row"
    assert line_kind("  (3)") == "number"
    assert line_kind("0.00 0.02 0.04") == "row" and line_kind("   0.04") == "row"  # a plot's axis
    assert line_kind("1990") == ""
    assert line_kind("2.1. Generalized linear models") == ""
    assert line_kind("A.1") == ""
    assert line_kind("3 Usage 2") == "" and line_kind("2.1 Pens  4") == ""  # contents lines without leaders


def test_a_table_whose_first_rows_a_code_block_took_keeps_its_other_rows_out_of_prose():
    text = (
        "The numbers below are printed by the program::\n\n"
        "    (Intercept)   1.029    1.029    0.929\n"
        "    hosp          0.165    0.165    0.218\n"
        "healthpoor        0.248    0.248    0.305\n"
        "numchron          0.147    0.147    0.175\n\n" + _AFTER
    )
    chunks = _chunks(text)
    assert _kind_of(chunks, "(Intercept)") == "code"
    assert _kind_of(chunks, "healthpoor") == "structural" and _kind_of(chunks, "numchron") == "structural"


def test_a_heading_after_a_table_and_a_blank_line_is_not_a_wrapped_cell():
    text = (
        _PARA
        + "    Type             Distribution   Method   Description\n"
        + "    GLM              Poisson        ML       Poisson regression: classical GLM, estimated\n"
        + "                                             by maximum likelihood (ML)\n"
        + "    zero-augmented   Poisson        ML       zero-inflated Poisson (ZIP), hurdle Poisson\n\n\n"
        + "                                             3. Combining the models with other packages\n"
        + _AFTER
    )
    chunks = _chunks(text)
    assert _kind_of(chunks, "by maximum likelihood") == "structural"
    assert _kind_of(chunks, "3. Combining") == "prose"


def test_lines_of_python_in_a_rest_file_are_not_maths():
    text = (
        "Options are added with a decorator:\n\n.. click:example::\n\n"
        "    @click.option('--count', default=1)\n    @click.option('--name', prompt=True)\n\n"
        ".. click:run::\n\n    invoke(hello, args=['--count=3'])\n    invoke(hello, input=['John'])\n\n"
        '    <li><a href="/">Index</a>\n    <li><a href="/downloads">Downloads</a>\n'
    )
    assert not [c for c in _chunks(text) if c.chunk_type == "math_block"]


def test_a_plot_s_labels_between_its_axes_go_with_them_and_its_caption_stays_prose():
    plot = (
        "\n                    0.04\n        Physician visits\n                    0.00\n"
        "                    −0.04\n\n                 1960    1970     1980   1990\n\n                         Time\n\n"
        "                 Figure 1: The jocci series and AR(6) residual plot\n\n"
    )
    chunks = _chunks(_PARA + plot + _AFTER)
    assert _kind_of(chunks, "Physician visits") == "structural"
    assert _kind_of(chunks, "Figure 1:") == "prose"
    assert line_kind("a grayscale palette;") == ""


def test_a_manual_s_page_references_option_flags_paths_and_inline_code_are_not_maths():
    # lines of a plain-text README or NEWS file: no word of running text, but signs of code, not of maths
    assert line_kind("  mytool(1)") == "" and line_kind("  mytool.conf(5)") == ""  # a manual page, not "(1)"
    assert line_kind("    ./configure --prefix=/opt/tool --with-zlib") == ""
    assert line_kind("  keyfile:path=/etc/tool/key.pem") == ""
    assert line_kind("  - ``Obj.setName`` => :attr:`pkg.Obj.name`") == ""
    assert line_kind("                       y = Xb + u                         (3)") == "math"  # still maths
    text = _PARA + "\n  mytool(1)\n  mytool.conf(5)\n  othertool(8)\n\n" + _AFTER
    assert all(c.chunk_type != "math_block" for c in _chunks(text))
