"""Labelled cases for the citation forms of issue 44: ``[N]`` in Markdown and LaTeX table cells, glued to a
word, and reStructuredText footnote/citation references; and code that must give no marker.

Written by hand for this test (no acceptance package), after the rules: not a blind set. Each case is
(format, text, gold) where gold lists (marker, citation_id) in document order. Cases alternate between
a dev half (even index) and a held-out half (odd index); nothing was tuned on the held-out half.
"""

CASES: list[tuple[str, str, list[tuple[str, int]]]] = [
    (
        "md",
        "# Results\n\nThe baseline of this[1] study beats the prior one[2].\n\n"
        "| Model | F1 | Source |\n|---|---|---|\n| BERT | 0.91 | [3] |\n| T5 | 0.93 | shown in [4], [5] |\n",
        [("[1]", 1), ("[2]", 2), ("[3]", 3), ("[4]", 4), ("[5]", 5)],
    ),
    (
        "md",
        "Intro\n\nAs reported earlier[6]; later work disagreed **strongly[7]** and _again[8]_.\n\n"
        "| Year | Claim |\n| ---- | ----- |\n| 2019 | first seen[9] |\n",
        [("[6]", 6), ("[7]", 7), ("[8]", 8), ("[9]", 9)],
    ),
    (
        "tex",
        "\\documentclass{article}\n\\begin{document}\nEarlier methods~[1] and this[2] one.\n"
        "\\begin{tabular}{lll}\n\\hline\nA & 0.9 & [3] \\\\\nB & 0.8 & [4] \\\\[2pt]\n\\end{tabular}\n"
        "\\end{document}\n",
        [("[1]", 1), ("[2]", 2), ("[3]", 3), ("[4]", 4)],
    ),
    (
        "tex",
        "\\begin{document}\nThe estimate follows Smith[5], see also~[6,7].\n"
        "\\begin{tabular}{ll}\nMethod & Ref \\\\\nKalman filter & [8] \\\\\n\\end{tabular}\n"
        "Code \\texttt{buf[3]} and \\verb|a[2]| are not citations.\n\\end{document}\n",
        [("[5]", 5), ("6", 6), ("7", 7), ("[8]", 8)],
    ),
    (
        "txt",
        "Spec\n====\n\nThe header is defined in [1]_ and extended by [2]_; see also [#ext]_ and [RFC9110]_.\n\n"
        ".. [1] The first footnote.\n.. [2] The second.\n.. [#ext] An extension.\n.. [RFC9110] HTTP Semantics.\n",
        [("[1]", 1), ("[2]", 2), ("[#ext]", 3), ("[RFC9110]", 4)],
    ),
    (
        "txt",
        "Notes\n=====\n\nAuto-numbered notes [#]_ and [#]_ follow a labelled one [#first]_.\n\n"
        ".. [#first] Labelled.\n.. [#] Anonymous one.\n.. [#] Anonymous two.\n\n"
        "Literal ``x[1]_`` is code.\n",
        [("[#]", 2), ("[#]", 3), ("[#first]", 1)],
    ),
    (
        "md",
        "Usage\n\nCall `arr[3]` or see [the docs](https://x.org/[4]) and [5](https://y.org).\n\n"
        "```c\nint v = buf[6];\n```\n\nThe claim holds[7].\n",
        [("[7]", 7)],
    ),
    (
        "md",
        "Notes\n\nMeasured by Lee[1], by Kim [2], and in table form:\n\n"
        "| Metric | Value |\n|:--|--:|\n| latency | 4 ms [3] |\n| `x[4]` | code |\n",
        [("[1]", 1), ("[2]", 2), ("[3]", 3)],
    ),
    (
        "txt",
        "Guide\n=====\n\nThe option is documented [CIT2002]_ and in the footnote [3]_.\n\n"
        ".. [3] A numbered note.\n.. [CIT2002] A citation.\n\n"
        "Example::\n\n    value = table[2]\n",
        [("[CIT2002]", 4), ("[3]", 3)],
    ),
    (
        "tex",
        "\\begin{document}\nPrior surveys[1]; the benchmark of Li et al.[2].\n"
        "\\begin{longtable}{ll}\nSet & Ref \\\\\\hline\nGLUE & [3] \\\\\nSQuAD & [4]; [5] \\\\\n\\end{longtable}\n"
        "\\end{document}\n",
        [("[1]", 1), ("[2]", 2), ("[3]", 3), ("[4]", 4), ("[5]", 5)],
    ),
]
