"""Second clean labelled number set (issue 15, recall on real documents): ``data/number_recall_set.jsonl``.

205 sentences (81 negatives) from the docstrings, comments and READMEs of PyPI wheels not used by the
earlier sets (transformers 5.23.0, scikit-learn 1.9.1, keras 3.15.1, torchvision 0.29.1, datasets 5.2.0,
nltk 3.10.4, hyperopt 0.3.0; ``pip download <pkg> --no-deps``) and this machine's Debian docs
(``/usr/share/doc``: git release notes, nodejs, valgrind, util-linux). Each row names its source
(``pypi:<wheel>:<path>`` or ``deb:<path>``). The pool was drawn at random (fixed seed) by surface strata
only — no recogniser: sentences with ``%``, ``±``, ``name=<digit>``, ``--flag <digit>``, a setting word
near a digit, ``default …<digit>``, ``p <op> <digit>``, versions, sections/dates/years, decimals.
The gold was written from the protocol below before any rule was run on these sentences, and the
rules were then tuned on the tuning half only (:func:`split`, by a hash of the text). Corrections made after
the first rule run, none of them a change of what was meant: ten gold items now name their location by
context (``ratio=«1»``: the bare digit occurred earlier, e.g. in ``l1_ratio``), and one tuning-half item
gained ``t=1``, which the protocol's statistic rule below marks and the labeller had missed. The held-out
half was first scored after the rules were final; its two misses (``the threshold is set to 0.5``,
``--max-count=4 -Sfoobar``) were left as they are.

Labelling protocol (span = the value with its sign and unit; names, quotes and backticks stay outside):

- percentages, with ranges sharing or repeating the unit (``20% to 30%``); a sign attached to the value
  is part of it (``+20%``); ``value ± error`` is one span with the units of both (``414 μs ± 309 ns``);
- statistics: a statistic symbol (p, P, r, t, d, F, χ) with a comparison and a number (``p=2``,
  ``p>0``), the symbol included — not when the symbol or the number is an operand of arithmetic
  (``max_l * p > 1``, ``d = 1 + diag``);
- ratios (``1.5x``, ``224×224``), grouped thousands (``1,000,000``);
- setting values: the number assigned to a name — ``name=V``, ``name = V``, ``name: V``, ``"name"=V``,
  ``x["name"] = V``, ``obj.name = V``, ``--flag=V``, ``--flag V`` — where the name is an identifier of two
  characters or more (a single letter is a math variable) or a setting phrase (``batch size of 2``,
  ``sets n_jobs to 1``); and a parameter's default (``default=5``, ``defaults to `80```, ``Default is 0``,
  ``[default: 100]``). Not: versions (``version="2.9.1"``, ``versionchanged:: 1.3``), ports, hosts and
  process ids (``--inspect=9222``, ``--pid=2479``, ``port 9222``), values that are strings, paths,
  tuples, lists, fractions or hex (``--branch=5.1-lkgr``, ``(0.2, 0.3)``, ``--test-shard=1/3``), and a
  number that starts an arithmetic expression (``sliding_window = 8 - 4 - 6``);
- counts before a count noun of the vocabulary (``7 runs``, ``16 steps``; not ``4 commits``, ``1000 loops``);
- E6: any other decimal within 50 characters of a metric word of the vocabulary (``value``, ``loss``,
  ``result``, …), taken mechanically, except inside URLs, DOIs, arXiv ids and versions.

Not protected: years, dates, copyright lines, section and chapter numbers, versions, page numbers,
plain integers in code (``[64, 32, 16]``, ``(224, 896)``), array outputs without a metric word near.
"""

import hashlib
import json
from pathlib import Path

_DATA = Path(__file__).parent / "data" / "number_recall_set.jsonl"

EXAMPLES = [
    (r["origin"], r["text"], r["gold"]) for r in map(json.loads, _DATA.read_text(encoding="utf-8").splitlines())
]


def split(examples=EXAMPLES):
    """``(tune, held_out)``: a fixed half by a hash of each text (sha1, first byte's parity)."""
    tune, held = [], []
    for ex in examples:
        (held if hashlib.sha1(ex[1].encode("utf-8")).digest()[0] % 2 else tune).append(ex)
    return tune, held
