"""Structure wherever it stands: reStructuredText titles, transitions and directive lines in plain text,
LaTeX sectioning commands mid-line."""

from textguard_pipeline.ingest.parsing import parse_document

RST = """Title
=====

Intro text here.

.. versionadded:: 3.4

.. note::
   :class: aside

   A note's body stays prose.

--------------

Sub section
-----------

.. testsetup:: *

   import os

.. _a-label:

=========
 Inset
=========

Text after. The line below is not a title: it is shorter than its text.

A long line of ordinary words
---

A paragraph follows.
"""


def _kinds(text, fmt):
    chunks = parse_document(text, fmt)
    assert "".join(c.source_text() for c in chunks) == text
    return [(c.chunk_type, c.source_text().strip()) for c in chunks]


def test_restructuredtext_titles_transitions_and_directive_lines_are_structural():
    kinds = _kinds(RST, "txt")
    structural = [t for k, t in kinds if k == "structural"]
    assert structural[:8] == [
        "Title\n=====",
        ".. versionadded:: 3.4",
        ".. note::\n   :class: aside",
        "--------------",
        "Sub section\n-----------",
        ".. testsetup:: *",
        ".. _a-label:",
        "=========\n Inset\n=========",
    ]
    assert ("code", "import os") in kinds
    assert ("prose", "A note's body stays prose.") in kinds
    prose = " ".join(t for k, t in kinds if k == "prose")
    assert "A long line of ordinary words\n---" in prose


def test_a_latex_sectioning_command_is_structural_wherever_it_starts():
    text = "Some prose ends here. \\section{Method} The method uses $x$ and more.\n\\paragraph{Aside} Words.\n"
    kinds = _kinds(text, "tex")
    assert [k for k, _ in kinds] == ["prose", "structural", "prose", "structural", "prose"]
    assert kinds[1][1] == "\\section{Method}" and kinds[3][1] == "\\paragraph{Aside}"
