import json

import pytest

from textguard_pipeline.core.llm import ChatClient, LLMConfig
from textguard_pipeline.core.mentions import (
    LLMMentionDetector,
    Mention,
    MentionDetectionError,
    MentionRangeError,
    TextLayout,
    analysis_text,
    author_label,
    llm_pages,
    locate_mentions,
)
from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.core.spans import check_char_ranges

ROUTE = "POST /v1/chat/completions"
PAGE1 = "The doctrine of divine simplicity holds that God is simple.\n"
PAGE2 = "Critics of divine simplicity argue, with Thomas Aquinas, that it is coherent.\n"
DOC = PAGE1 + "\f" + PAGE2


def reply(standin, entries):
    return standin.chat_reply(json.dumps({"entries": entries}))


def m(page, quote, start, end=None):
    return {
        "pageNumber": page,
        "textQuote": quote,
        "charStart": start,
        "charEnd": start + len(quote) if end is None else end,
    }


def detector(standin, **kw):
    client = ChatClient(
        LLMConfig(
            base_url=f"{standin.base_url}/v1",
            model="stand-in",
            timeout_s=kw.pop("timeout_s", 5),
            max_retries=0,
            backoff_s=0.01,
            # one request at a time: these tests script the answers as a queue, in request order
            concurrency=kw.pop("concurrency", 1),
        )
    )
    return LLMMentionDetector(client, **kw)


def test_author_label():
    assert author_label("Thomas Aquinas") == "Aquinas, Thomas"
    assert author_label("John Stuart Mill") == "Mill, John Stuart"
    assert author_label("Ludwig van Beethoven") == "van Beethoven, Ludwig"
    assert author_label("Athanasius") == "Athanasius"
    assert author_label("Aquinas, Thomas") == "Aquinas, Thomas"
    assert author_label("Martin Luther King Jr.") == "King, Martin Luther, Jr."


def test_analysis_text_keeps_length_and_blanks_markup():
    tex = r"We use \emph{dilated convolutions} \citep{yu2015} and ⟨MATH_000⟩ % comment"
    out = analysis_text(tex, "tex")
    assert len(out) == len(tex)
    assert "dilated convolutions" in out and "\\" not in out and "yu2015" not in out and "MATH" not in out
    tex = "some patches \\citep{%\nboureau-cvpr-10,saxe_551}.\n"  # the keys go on after a line break
    assert analysis_text(tex, "tex").split() == ["some", "patches", "."]
    tex = r"the recent \mintinline{python}{tf-keras-vis} package"  # inline code with its arguments
    assert analysis_text(tex, "tex").split() == ["the", "recent", "package"]
    md = "See [the BLEU paper](https://x.org/a) and **brevity penalty**."
    out = analysis_text(md, "md")
    assert len(out) == len(md) and "https" not in out and "*" not in out and "brevity penalty" in out
    # an identifier goes whole: blanking its underscore alone left "smart" and "open" as words
    md = "# smart_open streams files; set brevity\\_penalty, _emphasis_ stays."
    assert analysis_text(md, "md").split() == ["streams", "files;", "set", ",", "emphasis", "stays."]
    # a file path's parts are not the text's nouns: "/usr/share/omf" gave the entry "share" (assets)
    txt = "Install it in /usr/share/omf, ~/.config/app or debian/source/format; and/or TCP/IP w/ none, read/write."
    assert analysis_text(txt, "txt").split() == [
        "Install",
        "it",
        "in",
        ",",
        "or",
        ";",
        "and/or",
        "TCP/IP",
        "w/",
        "none,",
        "read/write.",
    ]


def test_analysis_text_blanks_restructuredtext_markup():
    # READMEs written in reStructuredText arrive as .txt or .md (PyPI long descriptions): a directive's line, its
    # options, link targets, roles and a package's reference name are markup, not prose ("node-celery_" was read as
    # the nouns node and celery, ":alt:" as alt); a named reference ("Redis_") keeps its word, an admonition its text.
    rst = (
        ".. image:: https://x.org/logo.svg\n   :alt: Project logo\n   :width: 200px\n\n"
        "Use it from Node.js with node-celery_ or from Go, with RabbitMQ_ or Redis_ (see :ref:`install`).\n\n"
        ".. note:: Keep the broker running.\n.. code-block:: python\n.. _node-celery: https://x.org/n\n"
    )
    out = analysis_text(rst, "txt")
    assert len(out) == len(rst)
    for gone in ("image", "alt", "width", "node-celery", "celery", "ref", "code-block", "python", "_"):
        assert gone not in out, (gone, out)
    for kept in ("Project logo", "Node.js", "RabbitMQ", "Redis", "Keep the broker running", "install"):
        assert kept in out, (kept, out)
    prose = "Note: times such as 10:30, a.b.c and |a|b| cells stay."
    assert analysis_text(prose, "txt") == prose


def _prose_read(text: str) -> str:
    """What the detector reads of a plain-text document: the analysis text of its prose chunks."""
    return " ".join(analysis_text(c.text, "txt") for c in parse_document(text, "txt") if c.chunk_type == "prose")


def test_restructuredtext_code_blocks_are_not_read():
    # Sphinx sources and READMEs in reStructuredText put code in literal blocks (after "::" or a code directive),
    # doctest blocks and ``inline literals``. A .txt file is read as plain text, where each block was a prose
    # paragraph: "import requests" gave a row for the act of requesting and "time import sleep" one for sleep.
    rst = (
        "Download a file with progress::\n\n    import requests\n    for chunk in response:\n\n"
        "        bar.update(len(chunk))\n\nThe ``miniters`` option sets the update interval.\n\n"
        ".. code-block:: python\n   :linenos:\n\n   from time import sleep\n\n"
        "- An item whose example follows::\n\n      user = fetch()\n\n  The item's second paragraph.\n\n"
        ">>> schema.dump(user)\n{'name': 'Monty'}\n\n"
        ".. note::\n\n   The console shows the bar.\n\nA closing paragraph::\nnot a literal block.\n"
        ".. index::\n   single: operator; precedence\n\nCall :func:`os.getcwd` or :py:class:`Field <fields.Field>`"
        " (see :ref:`install`).\n"
    )
    out = _prose_read(rst)
    for gone in (
        "import",
        "requests",
        "chunk",
        "update(",
        "miniters",
        "sleep",
        "user",
        "fetch",
        "schema",
        "Monty",
        "single",
        "operator",
        "getcwd",
        "Field",
    ):
        assert gone not in out, (gone, out)
    for kept in (
        "Download a file with progress",
        "option sets the update interval",
        "An item whose example",
        "second paragraph",
        "console shows the bar",
        "not a literal block",
        "Call",
        "install",
    ):
        assert kept in out, (kept, out)
    # Markdown has its own code blocks; "::" there is not a literal block
    md = "Example::\n\n    indented words\n"
    assert "indented words" in " ".join(analysis_text(c.text, "md") for c in parse_document(md, "md"))


def test_a_literal_block_of_sphinxs_text_output_is_not_read():
    # Sphinx's text output (and many plain-text manuals) writes "::" as one colon: the literal block after it was
    # read as prose, and its tags and names became rows ("endblock", "navigation", "textarea" in Jinja's
    # documentation). After a colon, an indented block whose lines mostly read as code is blanked; a block quote,
    # an admonition's text and a list of sentences about code stay.
    txt = (
        'Below is a minimal template:\n\n   <ul id="navigation">\n   {% for item in navigation %}\n'
        "       <li>{{ item.caption }}</li>\n   {% endfor %}\n\nRun it from a shell:\n\n   $ tmux attach\n\n"
        "Note:\n\n  The template engine caches compiled templates.\n\n"
        "These replacements are performed:\n\n   -   Variables preceded by $ are replaced with their value.\n\n"
        "   -   Any other characters preceded by \\ are replaced by themselves (the \\ is removed).\n"
    )
    out = _prose_read(txt)
    for gone in ("navigation", "item", "caption", "endfor", "tmux"):
        assert gone not in out, (gone, out)
    for kept in ("minimal template", "template engine caches", "Variables preceded", "replaced by themselves"):
        assert kept in out, (kept, out)


def test_layout_pages_lines_chunks():
    chunks = parse_document(DOC, "txt")
    layout = TextLayout(DOC, chunks)
    assert layout.page_ranges() == [(0, len(PAGE1) + 1), (len(PAGE1) + 1, len(DOC))]
    s = DOC.index("Thomas Aquinas")
    loc = layout.locate(s, s + 14)
    assert loc.page == 2 and loc.line == 2 and loc.column == PAGE2.index("Thomas") + 1  # the form feed opens line 2
    c = next(c for c in chunks if c.start <= s < c.end)
    assert loc.chunk_index == c.index and loc.chunk_start == s - c.start


def test_locate_mentions_refuses_wrong_range():
    layout = TextLayout(DOC)
    ok = Mention(16, 33, "divine simplicity", "subject", "divine simplicity", "t")
    (got,) = locate_mentions([ok], layout)
    assert got.page == 1 and got.line == 1 and got.column == 16
    with pytest.raises(MentionRangeError):
        locate_mentions([Mention(15, 32, "divine simplicity", "subject", "x", "t")], layout)


def test_stage_a_windows_validation_and_reanchoring(fresh_standin):
    p2_ds = PAGE2.index("divine simplicity")
    fresh_standin.script(
        {
            ROUTE: [
                # window 1 (primary page 1, page 2 as context): the page-2 mention must not be created here
                reply(
                    fresh_standin,
                    [
                        {
                            "label": "divine simplicity",
                            "indexType": "subject",
                            "mentions": [m(1, "divine simplicity", 16), m(2, "divine simplicity", p2_ds)],
                        }
                    ],
                ),
                # window 2: offsets off by 3 → re-anchored to the exact occurrence; an author in LastName, FirstName form
                reply(
                    fresh_standin,
                    [
                        {
                            "label": "divine simplicity",
                            "indexType": "subject",
                            "mentions": [m(2, "divine simplicity", p2_ds + 3)],
                        },
                        {
                            "label": "Aquinas, Thomas",
                            "indexType": "author",
                            "mentions": [m(2, "Thomas Aquinas", PAGE2.index("Thomas Aquinas"))],
                        },
                    ],
                ),
            ]
        }
    )
    det = detector(fresh_standin)
    layout = TextLayout(DOC, parse_document(DOC, "txt"))
    got = locate_mentions(det.detect(layout), layout)
    assert not check_char_ranges([{"start": x.start, "end": x.end, "text": x.text} for x in got], DOC)
    assert [(x.text, x.index_type, x.page, x.validation_status) for x in got] == [
        ("divine simplicity", "subject", 1, "valid"),
        ("divine simplicity", "subject", 2, "reanchored"),
        ("Thomas Aquinas", "author", 2, "valid"),
    ]
    assert got[2].label == "Aquinas, Thomas" and got[0].detector == "llm:stand-in"
    assert det.stats.context_page_skipped == 1 and det.stats.reanchored == 1 and det.stats.retries == 0
    reqs = fresh_standin.requests()
    assert len(reqs) == 2
    payload = json.loads(json.loads(reqs[0]["body"])["messages"][1]["content"])
    assert [p["pageText"] for p in payload["pages"]] == [PAGE1 + "\f", PAGE2] and payload["primaryPage"] == 1
    system = json.loads(reqs[0]["body"])["messages"][0]["content"]
    assert "pageText.substring(charStart, charEnd) === textQuote" in system and "LastName, FirstName" in system


def test_unanchorable_quote_retried_with_strict_prompt(fresh_standin):
    fresh_standin.script(
        {
            ROUTE: [
                reply(
                    fresh_standin,
                    [
                        {
                            "label": "divine simplicity",
                            "indexType": "subject",
                            "mentions": [m(1, "Divine Simplicity", 16)],
                        }
                    ],
                ),  # not in the text at all
                reply(
                    fresh_standin,
                    [
                        {
                            "label": "divine simplicity",
                            "indexType": "subject",
                            "mentions": [m(1, "divine simplicity", 16)],
                        }
                    ],
                ),
            ]
        }
    )
    det = detector(fresh_standin, context_pages=0)
    got = det.detect(TextLayout(PAGE1))
    assert [(x.start, x.end, x.text, x.validation_status) for x in got] == [(16, 33, "divine simplicity", "retried")]
    bodies = [json.loads(r["body"]) for r in fresh_standin.requests()]
    assert len(bodies) == 2
    assert "STRICT MODE" not in bodies[0]["messages"][0]["content"]
    assert (
        "STRICT MODE" in bodies[1]["messages"][0]["content"]
        and "Divine Simplicity" in bodies[1]["messages"][0]["content"]
    )
    assert det.stats.retries == 1 and det.stats.recovered_by_retry == 1 and det.stats.rejected_invalid == 0


def test_still_wrong_after_retry_is_rejected_not_stored(fresh_standin):
    bad = reply(fresh_standin, [{"label": "x", "indexType": "subject", "mentions": [m(1, "no such words", 3)]}])
    fresh_standin.script({ROUTE: [bad]})
    det = detector(fresh_standin, context_pages=0)
    assert det.detect(TextLayout(PAGE1)) == []
    assert det.stats.rejected_invalid == 1 and len(fresh_standin.requests()) == 2


def test_invalid_json_retried_then_error(fresh_standin):
    fresh_standin.script(
        {
            ROUTE: [
                fresh_standin.chat_reply("not json at all"),
                reply(fresh_standin, [{"label": "God", "indexType": "subject", "mentions": [m(1, "God", 45)]}]),
            ]
        }
    )
    got = detector(fresh_standin, context_pages=0).detect(TextLayout(PAGE1))
    assert [x.text for x in got] == ["God"]
    fresh_standin.script({ROUTE: [fresh_standin.chat_reply("{broken")]})
    with pytest.raises(MentionDetectionError, match="invalid JSON twice"):
        detector(fresh_standin, context_pages=0).detect(TextLayout(PAGE1))


def test_timeout_is_a_detection_error(fresh_standin):
    fresh_standin.script({ROUTE: [{**reply(fresh_standin, []), "delay": 1.0}]})
    with pytest.raises(MentionDetectionError, match="timeout"):
        detector(fresh_standin, timeout_s=0.3).detect(TextLayout(PAGE1))


@pytest.mark.parametrize("policy", ["split", "reject"])
def test_page_boundary_mentions_split_or_rejected(fresh_standin, policy):
    text = "Some filler words here.\nThe doctrine of divine\nsimplicity holds firm.\n"
    layout = TextLayout(text)
    pages = llm_pages(layout, max_chars=len("Some filler words here.\nThe doctrine of divine\n") + 3)
    assert pages[0].text.endswith("divine\n") and "".join(p.text for p in pages) == text
    quote = "divine\nsimplicity"
    fresh_standin.script(
        {
            ROUTE: [
                reply(
                    fresh_standin,
                    [
                        {
                            "label": "divine simplicity",
                            "indexType": "subject",
                            "mentions": [m(1, quote, pages[0].text.index("divine"))],
                        }
                    ],
                ),
                reply(fresh_standin, []),
            ]
        }
    )
    det = detector(fresh_standin, page_chars=pages[0].end + 0, boundary=policy)
    got = det.detect(layout)
    if policy == "split":
        assert [(x.text, x.validation_status) for x in got] == [("divine", "split"), ("simplicity", "split")]
        assert all(text[x.start : x.end] == x.text for x in got)
        assert det.stats.split == 1
    else:
        assert got == [] and det.stats.rejected_boundary == 1


# ---------------------------------------------------------------------------
# Embedded detector (spaCy + the shipped small WordNet lexicon)


@pytest.fixture(scope="module")
def embedded(tmp_path_factory):
    from textguard_pipeline.core.mentions import EmbeddedDetector
    from textguard_pipeline.core.nlp import load_spacy

    from ._wordnet_mini import mini_wordnet

    with mini_wordnet(str(tmp_path_factory.mktemp("wn"))) as wnet:
        yield EmbeddedDetector(load_spacy(profile="parse"), wnet)


def detect(embedded, text, fmt):
    chunks = parse_document(text, fmt)
    found = locate_mentions(embedded.detect(text, chunks, fmt), TextLayout(text, chunks))
    assert not check_char_ranges([{"start": x.start, "end": x.end, "text": x.text} for x in found], text)
    return found


def test_embedded_subjects_authors_and_exclusions(embedded):
    text = (
        "In this chapter, Thomas Aquinas discusses the encryption of each message. "
        "The thing is that an academic degree takes time, and the next section shows the way.\n"
    )
    found = detect(embedded, text, "txt")
    labels = {(x.index_type, x.label, x.detector) for x in found}
    assert ("author", "Aquinas, Thomas", "spacy_ner:PERSON") in labels
    assert ("subject", "encryption", "spacy_noun_chunk") in labels
    assert ("subject", "academic degree", "wordnet_mwe") in labels  # a WordNet multi-word lemma
    subjects = {x.label for x in found if x.index_type == "subject"}
    # generic nouns, structural terms and everyday words are not subjects (WordNet signals, no hand list)
    assert not subjects & {"chapter", "section", "thing", "time", "way"}
    assert all(x.page == 1 and x.line == 1 and x.chunk_index == 0 for x in found)


def test_embedded_keeps_an_acronym_the_tagger_calls_a_name_in_the_term_it_starts(embedded):
    # spaCy's small model tags lone acronyms as organisations ("ANSI", "GPU"); the compound they start is a
    # technical term, not a name followed by a generic noun ("colors" alone is dropped as generic).
    text = "The tool prints ANSI colors in the terminal. The model needs more GPU memory.\n"
    found = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert {("ANSI colors", "ANSI color"), ("GPU memory", "GPU memory")} <= found, found
    # a place is a name ("the UK government" → government), and so is a name of several words: "the Apache
    # Software Foundation board" is no term of its own
    found = detect(
        embedded, "Mary Smith chairs the Apache Software Foundation board. The UK government agreed.\n", "txt"
    )
    subjects = {x.text for x in found if x.index_type == "subject"}
    assert {"board", "government"} <= subjects, subjects
    assert not any(name in t for t in subjects for name in ("Apache", "Mary", "UK")), subjects


def test_embedded_never_quotes_markup_or_placeholders(embedded):
    tex = (
        "We study the \\emph{encryption} of a message $m$ with a key $k$ \\citep{aquinas}.\n"
        "The corpus_size variable and the translation of $x^2$ matter.\n"
    )
    found = detect(embedded, tex, "tex")
    assert found and all("$" not in x.text and "\\" not in x.text and "_" not in x.text for x in found)
    assert "encryption" in {x.label for x in found}
    md = "See **encryption** in [the translation guide](https://example.org/translation) and `key_size`.\n"
    found = detect(embedded, md, "md")
    assert {x.text for x in found} >= {"encryption"} and not any("http" in x.text or "*" in x.text for x in found)


def test_min_occurrences(embedded):
    from textguard_pipeline.core.mentions import EmbeddedDetector, EmbeddedSettings

    strict = EmbeddedDetector(
        embedded.nlp, embedded.signals.wnet, EmbeddedSettings(min_occurrences={"subject": 2, "author": 1})
    )
    text = "The encryption of a message. Another encryption. A translation.\n"
    chunks = parse_document(text, "txt")
    assert [x.label for x in strict.detect(text, chunks, "txt")] == ["encryption", "encryption"]


# ---------------------------------------------------------------------------
# Property: whatever offsets a model returns, a stored mention quotes the document exactly.

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=150, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(["divine", "simplicity", "faith", "God", "is", "the", "\n", "\f", "of"]),
        min_size=3,
        max_size=60,
    ),
    pick=st.integers(0, 10_000),
    length=st.integers(1, 30),
    delta=st.integers(-50, 50),
    page_chars=st.integers(20, 200),
    policy=st.sampled_from(["split", "reject"]),
    garbage=st.booleans(),
)
def test_anchoring_never_stores_a_wrong_range(words, pick, length, delta, page_chars, policy, garbage):
    text = " ".join(words)
    layout = TextLayout(text)
    det = LLMMentionDetector(client=None, page_chars=page_chars, boundary=policy, context_pages=1)
    pages = llm_pages(layout, page_chars)
    assert "".join(p.text for p in pages) == text
    page = pages[pick % len(pages)]
    start = pick % max(1, len(page.text))
    quote = "zzz-not-there" if garbage else text[page.start + start : page.start + start + length]
    if not quote.strip():
        quote = "zzz-not-there"
    raw = {
        "pageNumber": page.number,
        "textQuote": quote,
        "charStart": start + delta,
        "charEnd": start + delta + len(quote),
    }
    window = pages[page.number - 1 : page.number + 1]
    good, failures = det._validate(
        layout, window, page, {"entries": [{"label": "x", "indexType": "subject", "mentions": [raw]}]}, status="valid"
    )
    for m in good:
        assert text[m.start : m.end] == m.text and m.text.strip()
        assert m.validation_status == "split" or m.text == quote
    if quote == "zzz-not-there":
        assert good == [] and failures


@pytest.mark.timeout(600)  # a hang guard against the quadratic case, not a speed target
def test_embedded_detector_on_long_symbol_runs_is_fast(tmp_path):
    """Regression: 20,000 "(" in a chunk made spaCy's tokenizer quadratic (≈ 40 s in resolved_meanings);
    the detector feeds spaCy the same-length text with symbol runs blanked."""

    from textguard_pipeline.core.mentions import EmbeddedDetector
    from textguard_pipeline.core.nlp import load_spacy

    from ._wordnet_mini import mini_wordnet

    text = "(" * 20_000 + " The doctrine of divine simplicity was defended by Thomas Aquinas. " + "_" * 20_000 + "\n"
    with mini_wordnet(str(tmp_path / "wn")) as wnet:
        det = EmbeddedDetector(load_spacy(profile="parse"), wnet)
        found = det.detect(text, parse_document(text, "txt"), "txt")
    assert "Thomas Aquinas" in {x.text for x in found}
    assert not check_char_ranges([{"start": x.start, "end": x.end, "text": x.text} for x in found], text)


def test_embedded_reads_captions_titles_and_front_matter(embedded):
    # Issue 16: prose inside structural chunks names key concepts too; figure bodies and keys stay out.
    tex = (
        "Body text.\n\n\\begin{figure}\n\\centering\n\\node at (0,0) {encryption key};\n"
        "\\caption{The encryption of each message.}\n\\label{fig:encryption}\n\\end{figure}\n\nMore text.\n"
    )
    found = detect(embedded, tex, "tex")
    cap = tex.index("The encryption of each")
    cap_end = tex.index("}", cap)
    subjects = [x for x in found if x.index_type == "subject"]
    assert {x.label for x in subjects} >= {"encryption", "message"}
    assert all(cap <= x.start and x.end <= cap_end for x in subjects)  # not the TikZ node, not the label

    md = (
        "---\ntitle: Cipher\nlicense: apache-2.0\ndescription: >-\n  The encryption of each message is "
        "checked by the protocol.\n---\n\n# Message encryption\n\nBody text.\n"
    )
    found = detect(embedded, md, "md")
    labels = {(x.label, md.index("The encryption") <= x.start < md.index("\n---")) for x in found}
    assert {("encryption", True), ("protocol", True), ("message encryption", False)} <= labels
    assert not any(x.label in {"title", "license", "description"} for x in found)


def test_embedded_keeps_the_owner_and_the_words_beside_a_multiword_lemma(embedded):
    # Issue 16: the clean-tail rule and the multi-word lemma no longer swallow the other nouns of a chunk.
    text = "The message's encryption is checked. Each academic degree requirement is listed.\n"
    found = detect(embedded, text, "txt")
    got = {(x.text, x.detector) for x in found}
    assert {("message", "spacy_noun_chunk"), ("encryption", "spacy_noun_chunk")} <= got
    assert {("academic degree", "wordnet_mwe"), ("requirement", "spacy_noun_chunk")} <= got
    assert [x.start for x in found] == sorted(x.start for x in found)
    # a hyphenated modifier that is no noun adds nothing and is not counted as an excluded phrase
    embedded.detect("A well-known encryption.\n", parse_document("A well-known encryption.\n", "txt"), "txt")
    assert sum(embedded.excluded.values()) == 0


def test_prose_islands_exact_offsets_and_limits():
    from textguard_pipeline.meanings.mentions import prose_islands

    tex = "\\begin{figure}\n\\caption[short]{A {nested} caption \\textbf{here}.}\n\\caption{unclosed\n\\end{figure}\n"
    chunks = parse_document(tex, "tex")
    islands = [i for c in chunks for i in prose_islands(c, "tex")]
    assert [i.text for i in islands] == ["A {nested} caption \\textbf{here}."]  # balanced braces; unclosed: none
    assert all(tex[i.start : i.end] == i.text and i.chunk_type == "prose" for i in islands)
    # prose chunks and code blocks give no islands; a short YAML value is no prose line
    md = "---\ntitle: Cipher\n---\n\nSome prose here.\n\n```python\n# the encryption of each message\n```\n"
    assert [i for c in parse_document(md, "md") for i in prose_islands(c, "md")] == []
    # a commented-out title is read only as a comment line (>= 4 words), not as a title too (issue 16, templates)
    tex = (
        "\\documentclass{article}\n%\\section{Old results}\n%% Put your own keywords on the line below.\n"
        "\\keywords{nonce}\n\\begin{document}\nHello.\n\\end{document}\n"
    )
    islands = [i.text for c in parse_document(tex, "tex") for i in prose_islands(c, "tex")]
    assert islands == ["Put your own keywords on the line below.", "nonce"]


def test_plain_text_titles_are_read_though_ingest_makes_them_structure():
    # A reStructuredText or info-manual title is structure to ingest (never rewritten), yet it names what its
    # section is about, as it did when it was prose: its text is an island; the adornment, a transition,
    # directive and target lines are not.
    from textguard_pipeline.meanings.mentions import prose_islands

    txt = (
        ".. _assets:\n\n3.3 Assets and Liabilities\n==========================\n\nAssets are money you have.\n\n"
        "======\nLedger\n======\n\n----\n\n.. note::\n\nShort\n----------\n\nA title too long\n---\n\nEnd.\n"
    )
    chunks = parse_document(txt, "txt")
    islands = [i for c in chunks for i in prose_islands(c, "txt")]
    assert [i.text for i in islands] == ["3.3 Assets and Liabilities", "Ledger", "Short"], islands
    assert all(txt[i.start : i.end] == i.text and i.chunk_type == "prose" for i in islands)


def test_embedded_reads_the_unit_inside_a_quantity_when_the_text_is_about_it(embedded):
    # Issue 16: "5280 ft mile" or "one meter" is a quantity (no subject as a whole), yet its unit is a key
    # concept of a text about units. The row spans the noun only; the number stays outside it.
    text = "The meter is the base unit of length. Today one meter is 100 centimeters. The meter was redefined.\n"
    found = detect(embedded, text, "txt")
    unit = text.index("meter is 100")
    assert ("meter", unit, unit + 5) in {(x.label, x.start, x.end) for x in found}
    assert not any(x.start < unit and unit < x.end for x in found)  # "one meter" is not a row
    # a word problem measures with the unit and never names it alone: the unit is no subject there
    problem = "The plank is 3 meters long and 2 meters wide. What is the area of the plank?\n"
    assert "meter" not in {x.label for x in detect(embedded, problem, "txt")}


def test_embedded_counts_a_generic_noun_in_the_compounds_it_forms(embedded):
    # Issue 16: "leaf" is generic by WordNet's gloss counts (a genus term: many kinds of leaf); a text that keeps
    # forming compounds with it ("leaf length", "leaf veins") is about it, so the noun alone is a keyword there —
    # and only there.
    about = "Leaf length sets the crop yield. The leaf veins carry the sap. Gardeners examine the leaf.\n"
    alone = about.rindex("leaf")
    assert ("leaf", alone, alone + 4) in {(x.label, x.start, x.end) for x in detect(embedded, about, "txt")}
    other = "Length sets the crop yield. The veins carry the sap. Gardeners examine the leaf.\n"
    assert "leaf" not in {x.label for x in detect(embedded, other, "txt")}


def test_embedded_counts_a_generic_noun_in_the_wordnet_kinds_of_it(embedded):
    # Issue 16: "signal" is generic by WordNet's gloss counts; a text that names a WordNet kind of it ("input
    # signal", a multi-word lemma) and the noun alone is about signals, so the noun alone is a keyword there.
    about = "The input signal is sampled. An input signal may be noisy. The signal is amplified. A signal fades.\n"
    alone = about.index("The signal") + 4
    assert ("signal", alone, alone + 6) in {(x.label, x.start, x.end) for x in detect(embedded, about, "txt")}
    other = "The sample is taken. A sample may be noisy. The signal is amplified. A signal fades.\n"
    assert "signal" not in {x.label for x in detect(embedded, other, "txt")}


def test_embedded_reads_a_common_word_in_capitals_as_that_word(embedded):
    # Issue 16: "MESSAGE" (a heading's or a field name's capitals) is the word message, one entry with the
    # lower-case mentions and WordNet's senses; a word WordNet spells in capitals or one no gloss uses stays an
    # acronym as written ("BLEU" is not the cheese).
    text = "Each MESSAGE carries a checksum. The sender signs every message.\n"
    found = {(x.label, x.start) for x in detect(embedded, text, "txt")}
    assert {("message", 5), ("message", text.rindex("message"))} <= found
    signals = embedded.signals
    assert signals.shouted("MESSAGES") == "message"
    assert signals.shouted("BLEU") is None  # "bleu" is in WordNet, in no gloss
    assert signals.shouted("Message") is None and signals.shouted("MSG") is None


@pytest.mark.parametrize(
    ("text", "fmt", "marked", "other"),
    [
        ("You can use the *cipher* argument to set the key.\n", "md", "cipher", "argument"),
        ("The server signs the \\emph{encryption} protocol of each message.\n", "tex", "encryption", "protocol"),
    ],
)
def test_embedded_cuts_a_noun_phrase_at_markup_inside_it(embedded, text, fmt, marked, other):
    # Issue 16: a phrase with emphasis or a macro inside can never be a row (its quote would hold markup); it
    # used to be lost whole. Cut at the markup, both words are rows, the marked one too although spaCy, reading
    # it among blanks, tags it an adjective.
    found = {(x.label, x.start, x.end) for x in detect(embedded, text, fmt)}
    for word in (marked, other):
        assert (word, text.index(word), text.index(word) + len(word)) in found


def test_embedded_reads_the_prose_of_latex_comment_lines(embedded):
    # Issue 16: a journal template's instructions live in comments ("% Use the encryption ..."): a comment line
    # of >= 4 words is prose a reader of the source sees; a commented-out command is not.
    tex = (
        "\\documentclass{article}\n% Each message gets its encryption before the protocol starts.\n"
        "% \\usepackage{cipher}\n\\begin{document}\nHello.\n\\end{document}\n"
    )
    found = {(x.label, x.start) for x in detect(embedded, tex, "tex")}
    assert {(w, tex.index(w)) for w in ("message", "encryption")} <= found
    commented = tex.index("% \\usepackage")
    assert not any(commented <= start < commented + 22 for _label, start in found)


def test_embedded_reads_a_templates_keywords_subtitle_and_abstract_commands(embedded):
    # Issue 16: a journal template's \keywords{...} are the author's own index terms; \subtitle, \abstract{...}
    # and \thanks{...} are front matter a reader sees. Each was a structural line nobody read.
    tex = (
        "\\documentclass{article}\n\\subtitle{Encryption of each message}\n"
        "\\abstract{The protocol checks the handshake.}\n\\keywords{certificate, cipher suite, key exchange}\n"
        "\\begin{document}\nHello.\n\\end{document}\n"
    )
    found = {(x.text, x.start) for x in detect(embedded, tex, "tex")}
    for word in ("Encryption", "message", "protocol", "handshake", "certificate", "cipher suite", "key exchange"):
        assert (word, tex.index(word)) in found, word
    assert not any(text in {"keywords", "subtitle", "abstract"} for text, _ in found)


def test_embedded_keeps_a_structural_noun_the_document_makes_terms_of(embedded):
    # Issue 16: "header" is a part of a written work in WordNet, so it was dropped as a structural term — even in
    # a text about HTTP headers, where it is the key concept. A structural noun is now a document keyword when
    # it passes the keyword test and the text forms >= 3 compounds with it ("request header", "header value");
    # "this section", "the next section" only point at the text itself.
    text = (
        "Each request header is sent before the body. The response header gives the type. "
        "A header value may repeat, and every header ends with a line break. "
        "This section shows how to set a header. The next section covers the rest; see the section above.\n"
    )
    found = {(x.text, x.start) for x in detect(embedded, text, "txt")}
    texts = {t for t, _ in found}
    assert {"request header", "response header", "header"} <= texts, texts
    assert ("header", text.index("every header") + 6) in found
    assert not any("section" in t for t in texts)
    assert embedded.excluded["structural_term"] >= 2  # the sections stay counted as excluded


def test_embedded_keeps_a_stop_list_noun_that_is_a_keyword(embedded):
    # Issue 16: spaCy's stop list holds nouns ("move", "name", "call", "bottom"); "a move" was trimmed to nothing,
    # so in a chess protocol its key concept never got a row. A stop-list noun heading its phrase is now judged
    # like a generic noun (a row only as a document keyword); "at the bottom of" and "sys-call" stay out.
    text = (
        "The engine sends a move. Each move is checked, and an illegal move is refused before the next move. "
        "The board is drawn at the bottom of the screen; the bottom of the list shows the time at the bottom of "
        "the page. Trace each sys-call, every sys-call and the last sys-call.\n"
    )
    found = {(x.text, x.start) for x in detect(embedded, text, "txt")}
    assert {("move", text.index("a move") + 2), ("move", text.index("next move") + 5)} <= found, found
    assert not any(t in {"bottom", "call"} for t, _ in found), found


def test_embedded_keeps_a_plural_form_noun_wordnet_lists(embedded):
    # Issue 16: spaCy lemmatizes "mathematics" to "mathematic", no noun: the mention became a custom entry. A
    # plural form WordNet lists stays when its singular is no noun; other plurals are lemmatized as before
    # ("statistics" is a statistic's plural as often as the field).
    text = "The proofs use mathematics. We keep the statistics of the vectors and read them with mathematics.\n"
    labels = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert {("mathematics", "mathematics"), ("vectors", "vector"), ("statistics", "statistic")} <= labels, labels
    assert not any(label == "mathematic" for _t, label in labels), labels
    # spaCy's suffix rule cuts "backslashes" to "backslashe": a noun WordNet lacks ends in -sh/-ss/-x there
    text = "Escape the backslashes twice. The checksums of the hashes differ.\n"
    labels = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert {("backslashes", "backslash"), ("hashes", "hash")} <= labels, labels


def test_embedded_reads_a_hyphenated_word_whole_and_never_starts_a_phrase_inside_one(embedded):
    # Issue 16: spaCy splits "know-how" into three tokens, and the cut at a hyphen kept what followed it as the
    # phrase: "third-party package" became "party package", "a command-line tool" "line tool", and "the
    # know-how" nothing at all. A hyphenated word WordNet knows whose tail is no noun is now one word; the parts of
    # any other are judged alone ("command"), and the noun after a hyphenated modifier is the phrase.
    text = (
        "Install the third-party package with a command-line tool.\n"
        "The know-how of the maintainer matters. Two GPUs share one GPU bus.\n"
    )
    found = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert {("know-how", "know-how"), ("command", "command"), ("package", "package")} <= found, found
    assert ("GPUs", "GPU") in found, found  # an acronym's plural is the acronym's entry
    assert not any(t in {"party package", "line tool"} for t, _ in found), found
    # A hyphenated word with a part WordNet does not know is a package's name, one entry, never its parts; the word
    # before a hyphen and a function word ("read-only", "state-of-the-art") is no noun on its own.
    text = (
        "Add python-dotenv to the project. The python-dotenv package reads the file in read-only mode.\n"
        "It is a state-of-the-art tool with an opt-in cache.\n"
    )
    found = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert ("python-dotenv", "python-dotenv") in found, found
    assert not {t for t, _ in found} & {"python", "dotenv", "read", "state", "opt"}, found
    # A word with a bound prefix is one word ("meta-packages" as "subcommand"), no package's name, and
    # the prefix is no word of its own (not the sandwich "sub")
    text = "Packages should use meta-packages. Each sub-command has a parser.\n"
    found = {(x.text, x.label, x.detector) for x in detect(embedded, text, "txt")}
    assert {
        ("meta-packages", "meta-package", "spacy_noun_chunk"),
        ("sub-command", "sub-command", "spacy_noun_chunk"),
    } <= found, found
    assert not {t for t, _, _ in found} & {"meta", "sub"}, found


def test_embedded_reads_a_word_hyphenated_across_a_line_end_whole(embedded):
    # Text set by nroff (manuals, guidebooks) or extracted from a PDF breaks words at line ends with a hyphen. spaCy
    # read "certifi-" and "cate" as two words: the term was lost, or became a fragment ("ing capacity"). The word is
    # now read whole, its row quotes the text as it stands, and a hyphen that belongs to the word stays one.
    text = (
        "\t  The server checks the certifi-\n\t  cate of each client before the encryp-\n"
        "\t  tion of any message. A fixed-\n\t  length key opens every en-\n\t  try.\n"
    )
    found = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert {
        ("certifi-\n\t  cate", "certificate"),
        ("encryp-\n\t  tion", "encryption"),
        ("en-\n\t  try", "entry"),
    } <= found, found
    assert not any("fixedlength" in label or label in {"cate", "tion", "try"} for _, label in found), found


def test_embedded_ends_a_phrase_where_a_definition_lists_term_ends(embedded):
    # A definition list in plain text (reStructuredText, man pages, Sphinx's text output) puts each term on a line of
    # its own and its definition below, indented: spaCy read across the line break, so "certificate⏎ Directory of …"
    # was one phrase, "certificate Directory". The term is now a phrase of its own. Wrapped prose is left whole.
    text = (
        "Settings:\n\ncertificate\n    Directory of the server keys.\n\nencryption\n"
        "    Number of rounds.\n\nEach key names a server\ncertificate file.\n"
    )
    found = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert {("certificate", "certificate"), ("encryption", "encryption")} <= found, found
    assert not any("\n" in t and t.split()[-1][:1].isupper() for t, _ in found), found
    # (a line indented deeper than the one before starts a paragraph in plain text: ingest cuts the chunk there)
    assert ("server\ncertificate file", "server certificate file") in found, found
    # a term after another one on its line ("nobody, nogroup") ends where the definition below starts, indented
    text = "Accounts:\n\nproxy, encryption\n          Directory that holds the keys.\n"
    found = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert ("encryption", "encryption") in found and not any("\n" in t for t, _ in found), found
    # a manual page's heading in capitals, its text indented below
    text = "KEYS AND ENCRYPTION\n     server keys are kept in one directory.\n"
    found = {(x.text, x.label) for x in detect(embedded, text, "txt")}
    assert not any("\n" in t for t, _ in found), found


def test_join_broken_words_keeps_length_and_maps_each_joined_word_to_its_end():
    from textguard_pipeline.meanings.mentions import join_broken_words

    text = "the certifi-\n  cate and a fixed-\n  length key"
    joined, ends = join_broken_words(text, {"certificate", "fixed", "length"}.__contains__)
    assert joined == "the certificate \n   and a fixed-\n  length key" and len(joined) == len(text)
    assert ends == {15: 19} and text[4:19] == "certifi-\n  cate"
    # the break may fall in the last part of a hyphenated word ("comma-sep‐⏎ arated")
    joined, ends = join_broken_words("a comma-sep-\n arated list", {"separated"}.__contains__)
    assert joined == "a comma-separated \n  list" and ends == {17: 20}
    # groff hyphenates with U+2010, a PDF extractor may leave a soft hyphen
    for hyphen in "\u2010\u00ad":
        assert join_broken_words(f"a certifi{hyphen}\n cate", {"certificate"}.__contains__)[0].startswith(
            "a certificate"
        )


def test_compound_head_of_spaced_and_hyphenated_compounds():
    from textguard_pipeline.meanings.forms import compound_head

    assert compound_head("porcelain crown") == "crown"
    assert compound_head("sub-command") == "command"  # a custom hyphenated word still gets its head's meaning
    assert compound_head("chess move") == "move"  # a stop-list noun heads a spaced compound
    assert compound_head("opt-out") is None and compound_head("model") is None


def test_embedded_reads_title_case_common_words_as_common_nouns(embedded):
    # Issue 16: spaCy tags the words of a Title-Case heading as proper nouns, so "## Human Evaluation" was an entry
    # "Human Evaluation" beside "human evaluation". A Title-Case common word the document also uses in lower case
    # is read as one in a heading or beside another; a phrase is lower-cased whole or not at all, so a name whose
    # words the prose never writes in lower case ("Gold" here) keeps its capitals.
    text = (
        "# Tracker\n\n## Data\n\nThe data of each run is stored as rows.\n\n"
        "## Human Evaluation\n\nWe ran a human evaluation of the answers with three raters.\n\n"
        "### Gold Sponsors\n\nEach sponsor funds one release. Ask the Gold Sponsors of the project.\n"
    )
    found = {(x.text, x.label) for x in detect(embedded, text, "md")}
    assert ("Human Evaluation", "human evaluation") in found, found
    assert {lab for t, lab in found if t == "Gold Sponsors"} == {"Gold Sponsors"}, found
    # a word the prose capitalizes mid-sentence more often than not is a name here, heading or not
    text = (
        "# Tracker\n\n## Human Evaluation\n\nWe ran a human evaluation of the answers. The reports go to Human "
        "Evaluation, the lab of the department, and the raters of Human Evaluation read them.\n"
    )
    found = {(x.text, x.label) for x in detect(embedded, text, "md")}
    assert ("Human Evaluation", "Human Evaluation") in found, found
    # ... but a numbered reference ("see Evaluation 2") names one element of a common kind, not a name
    text = (
        "# Tracker\n\n## Human Evaluation\n\nWe ran a human evaluation of the answers, as in Evaluation 2 and "
        "Evaluation 3 of the report.\n"
    )
    found = {(x.text, x.label) for x in detect(embedded, text, "md")}
    assert ("Human Evaluation", "human evaluation") in found, found


def test_a_mention_context_reaches_across_ingests_cuts_inside_a_paragraph_not_across_a_blank_line():
    # Ingest cuts plain text where the line shape ends a paragraph (hard-wrapped text has no blank lines); the
    # sense evidence read the chunk alone, so a noun near such a cut lost the sentences before it.
    from textguard_pipeline.meanings.mentions import context_window, paragraph_neighbours

    line = "The tutorial shows how the parser reads each record of the sequence file in turn.\n"
    text = line * 3 + "A short line ends here.\n" + "The search finds every motif of the genome in turn, quickly.\n"
    text += line * 2 + "\n" + "Another paragraph after a blank line talks about plants and their roots.\n" + line
    chunks = [c for c in parse_document(text, "txt") if c.chunk_type == "prose"]
    at = text.index("search")
    cut = next(c for c in chunks if c.start <= at < c.end)
    assert cut.start > 0, chunks  # ingest did cut the first paragraph before "search"
    pads = paragraph_neighbours(chunks, [c.text for c in chunks], 250)
    s = at - cut.start
    context = context_window(cut.text, s, s + len("search"), 250, pads[id(cut)])
    assert "A short line ends here." in context and "record of the sequence" in context, context
    assert "plants" not in context  # the blank line ends the paragraph
    last = next(c for c in chunks if "plants" in c.text)
    assert pads[id(last)][0] == "", pads[id(last)]
    # without neighbours the window is the chunk's own text, as before
    assert context_window(cut.text, s, s + 6, 250) == " ".join(cut.text[max(0, s - 250) : s + 256].split())
