"""Labelled author–date citations in PDF text as extraction leaves it (issue 46).

Texts: windows of about 250 characters around a bracket holding a year, cut from text that pypdf 6
extracted (plain and layout mode, so names glued to years — "(Mullahy1986)" —, runs of spaces — "( Kuan and
Hornik 1995 )" —, line breaks and hyphenated breaks inside citations) from the vignette PDFs of Debian's
r-cran-pscl, -lmtest, -vcd, -strucchange, -sandwich and -zoo. Reference-list entries (surname and initials,
"doi:", "URL") were left out; windows of code (``as.Date("2000-01-01")``) are negatives. Gold spans follow the
policy of :mod:`.citation_styles_set` (a bracket of citations is one span, prefixes and remarks included;
citations inside a longer bracket are spans of their own; a narrative one runs from the names to the closing
parenthesis), proposed by rules written for the labelling, not the recogniser's, and checked by eye.

Half is held out (:func:`split`, by a hash of the text) and never used to tune.
"""

import hashlib
import json
from pathlib import Path

EXAMPLES = [
    (e["origin"], e["text"], e["gold"])
    for e in map(json.loads, (Path(__file__).parent / "data" / "pdf_citations.jsonl").read_text("utf-8").splitlines())
]


def split(examples=EXAMPLES):
    """``(tune, held_out)``: a fixed half by a hash of each text."""
    tune, held = [], []
    for ex in examples:
        (held if hashlib.sha1(ex[1].encode("utf-8")).digest()[0] % 2 else tune).append(ex)
    return tune, held
