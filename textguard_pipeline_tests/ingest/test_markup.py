"""The markup finder (ingest/markup.py) and the `markup_spans` column of `parsed_chunks`."""

import time

import pandas as pd
import pyarrow as pa

from textguard_pipeline.core.frames import chunks_from_frame, parsed_chunks_frame
from textguard_pipeline.defs_kit.io_manager import frame_to_table, table_to_frame
from textguard_pipeline.ingest.markup import blank, chunk_text_ranges, find_markup
from textguard_pipeline.ingest.parsing import parse_document
from textguard_pipeline.ingest.rules import markup_spans_rule

TEX = r"""\section{Results}\label{sec:res}
As Table~\ref{tab:main} and \citet{smith2020} show, \emph{recall} rises; code at \url{https://x.org/a_b}.
Model & Score \\ \hline
GPT-4o & 8.15 \\ % tuned on http://y.org/dev
See \href{https://z.org/p}{the project page}, doi:10.1000/xyz123, arXiv:2101.00001v2 and \verb+\end{x}+;
write to a.b@c.org. \includegraphics[width=3cm]{figs/plot.pdf} \input{sections/intro} $x_1$ done.
"""

MD = """Some [link text](https://img.shields.io/x.svg "badge") and ![a plot](img/p.png) with `pip install x`.
<b>bold</b> &amp; <https://auto.org>; mail foo@bar.com or see https://example.com/wiki/A_(b). Also [t][ref].
"""

RST = """See :ref:`intro`, ``literal text``, `the site <https://x.org>`_ and |version| here.

.. _target: https://t.org
"""


def quotes(text: str, fmt: str) -> list[tuple[str, str]]:
    return [(s.label, s.text) for s in find_markup(text, fmt)]


def test_latex_commands_references_tables_and_comments_are_found_with_their_kind():
    q = quotes(TEX, "tex")
    for item in [
        ("latex_ref", r"\label{sec:res}"),
        ("latex_ref", r"Table~\ref{tab:main}"),  # the noun goes with its reference
        ("latex_cite", r"\citet{smith2020}"),
        ("url", r"\url{https://x.org/a_b}"),
        ("url", r"\href{https://z.org/p}"),
        ("latex_verb", r"\verb+\end{x}+"),
        ("latex_file", r"\includegraphics[width=3cm]{figs/plot.pdf}"),
        ("latex_file", r"\input{sections/intro}"),
        ("latex_command", r"\emph"),
        ("table_sep", "&"),
        ("row_end", "\\\\"),
        ("latex_comment", "% tuned on http://y.org/dev"),
        ("doi", "doi:10.1000/xyz123"),
        ("arxiv", "arXiv:2101.00001v2"),
        ("email", "a.b@c.org"),
    ]:
        assert item in q, item
    # the prose arguments stay out of the markup: \emph's and \href's text
    assert not any("recall" in t or "project page" in t for _, t in q)


def test_a_reference_takes_the_noun_before_it_and_nothing_else():
    text = r"In Fig.\ \ref{f}, Eq.~\eqref{e}, \S\ref{s}, Tables \ref{a} and~\ref{b}; the xTable~\ref{q} and \label{l}."
    refs = [t for k, t in quotes(text, "tex") if k == "latex_ref"]
    assert refs == [
        r"Fig.\ \ref{f}",
        r"Eq.~\eqref{e}",
        r"\S\ref{s}",
        r"Tables \ref{a}",
        r"\ref{b}",
        r"\ref{q}",
        r"\label{l}",
    ]


def test_markdown_targets_code_html_and_addresses_are_found_whole():
    q = quotes(MD, "md")
    for item in [
        ("md_target", '](https://img.shields.io/x.svg "badge")'),
        ("md_target", "](img/p.png)"),
        ("md_code", "`pip install x`"),
        ("html_tag", "<b>"),
        ("html_tag", "</b>"),
        ("html_entity", "&amp;"),
        ("md_autolink", "<https://auto.org>"),
        ("email", "foo@bar.com"),
        ("url", "https://example.com/wiki/A_(b)"),
        ("md_target", "][ref]"),
    ]:
        assert item in q, item
    assert not any("link text" in t or "a plot" in t for _, t in q)


def test_restructuredtext_roles_targets_substitutions_and_literals_are_found_in_plain_text():
    q = quotes(RST, "txt")
    for item in [
        ("rst_role", ":ref:`intro`"),
        ("rst_literal", "``literal text``"),
        ("rst_target", " <https://x.org>"),
        ("rst_subst", "|version|"),
        ("rst_target", ".. _target: https://t.org"),
    ]:
        assert item in q, item


def test_a_url_ends_before_the_sentence_punctuation_and_an_unopened_parenthesis():
    text = "Read it (at https://a.org/x). Then https://b.org/y, and www.c.org."
    assert [s.text for s in find_markup(text, "txt")] == ["https://a.org/x", "https://b.org/y", "www.c.org"]


def test_spans_are_sorted_disjoint_and_quote_the_text():
    for text, fmt in [(TEX, "tex"), (MD, "md"), (RST, "txt")]:
        spans = find_markup(text, fmt)
        assert all(a.end <= b.start for a, b in zip(spans, spans[1:]))
        assert all(text[s.start : s.end] == s.text for s in spans)


def test_prose_chunks_carry_markup_spans_in_absolute_offsets_that_pass_the_check():
    chunks = parse_document("Intro paragraph.\n\n" + TEX, "tex")
    assert any(c.markup_spans for c in chunks)
    doc = "Intro paragraph.\n\n" + TEX
    for c in chunks:
        for s, e, _ in c.markup_spans or ():  # structural chunks (\section{…} since issue 46) have none
            assert c.start <= s < e <= c.end
    df = parsed_chunks_frame("d", chunks)
    assert markup_spans_rule("d", df, doc) == []
    # a shifted offset is reported
    bad = df.copy()
    bad["markup_spans"] = [[{**m, "start": m["start"] + 1} for m in ms] for ms in bad["markup_spans"]]
    assert markup_spans_rule("d", bad, doc)


def test_the_column_survives_parquet_even_for_a_document_without_markup():
    for doc in ["Plain words only.\n", "See https://a.org now.\n"]:
        df = parsed_chunks_frame("d", parse_document(doc, "md"))
        table = frame_to_table(df)
        assert table.schema.field("markup_spans").type == pa.list_(
            pa.struct([("start", pa.int64()), ("end", pa.int64()), ("kind", pa.string())])
        )
        back = chunks_from_frame(table_to_frame(table))
        assert [c.markup_spans for c in back] == [c.markup_spans for c in parse_document(doc, "md")]
    assert isinstance(df, pd.DataFrame)


def test_spans_map_into_a_chunk_text_whose_math_is_behind_placeholders():
    doc = r"Let $a+b$ be \ref{eq:1} and $c$ then \url{https://q.org}."
    (chunk,) = parse_document(doc, "tex")
    ranges = chunk_text_ranges(chunk.text, chunk.math_placeholders, chunk.start, chunk.markup_spans)
    assert [chunk.text[s:e] for s, e, _ in ranges] == [r"\ref{eq:1}", r"\url{https://q.org}"]
    view = blank(chunk.text, ranges)
    assert len(view) == len(chunk.text) and "ref" not in view and "https" not in view


def test_the_finder_stays_linear_on_pathological_input():
    for text in ["`" * 20000 + "a", "[" * 20000, "](" * 20000, "<a " * 10000, "\\verb+" * 5000, "a@" * 10000]:
        t0 = time.perf_counter()
        for fmt in ("tex", "md", "txt"):
            find_markup(text, fmt)
        assert time.perf_counter() - t0 < 2.0, text[:10]


def test_the_markup_found_once_for_a_long_stretch_is_the_markup_of_each_of_its_pieces():
    line = "See https://x.org/a, :ref:`intro` and ``code`` in a.b@c.org; |version| holds. "
    text = "\n".join(line * 3 for _ in range(60)) + "\n"  # plain text without blank lines: cut by line shape and size
    chunks = [c for c in parse_document(text, "txt", chunk_chars=500, chunk_max_chars=1500) if c.chunk_type == "prose"]
    assert len(chunks) > 5
    for c in chunks:
        assert c.markup_spans == [(s.start, s.end, s.label) for s in find_markup(text, "txt", c.start, c.end)]
