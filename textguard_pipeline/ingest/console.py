"""Console transcripts inside plain text: a prompt line, its continuations and the output after it.

Text extracted from a PDF (an R vignette, a Python tutorial) has its console sessions as plain lines:
``R> fm <- glm(…)``, ``+ family = poisson)``, then the printed output. Read as prose, every call and output
block became several prose chunks (``Call:``, ``Coefficients:`` …) sent to the model and read for names and
citations. :func:`console_spans` finds them for :func:`.regions._txt_regions`, which makes them code chunks.
An e-mail quote (``> `` before ordinary sentences) is not a transcript. Stdlib only; one pass over the lines.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import Sequence

#: a prompt and the text after it; ">>>" before ">" so that a doctest reads as Python
_PROMPT = re.compile(r"[ \t]*(R>|>>>|\$|>)[ \t]+(?=\S)")
#: the continuation of a prompt's input, by prompt
_CONTINUATION = {
    "R>": re.compile(r"[ \t]*\+[ \t]"),
    ">": re.compile(r"[ \t]*\+[ \t]"),
    ">>>": re.compile(r"[ \t]*\.\.\.(?:[ \t]|$)"),
}
#: a quote line (one or more ">"), for the e-mail guard
_QUOTE = re.compile(r"[ \t]*>")
#: signs of code after an ambiguous prompt: brackets, assignment, comparison, pipes, options, paths
_CODE_SIGN = re.compile(r"[(){}\[\]=<|;\\~]|(?:^|\s)--?[A-Za-z]|\./|/\w")
#: a bare name or command ("z1", "fm_pois", "ls")
_NAME = re.compile(r"[a-z_.][\w.$@]*[\w)\]]?")
#: a word of running text, with its quotes, brackets and punctuation
_LETTERS = r"(?:[^\W\d_][\u0300-\u036f]*)+"  # combining accents too: PDF text writes a hat as one ("φ̂")
_PROSE_TOKEN = re.compile(r"[(\"'“‘]*" + _LETTERS + r"(?:['’-]" + _LETTERS + r")*-?[)\"'”’]*[,.;:!?]?[)\"'”’]*")
#: a numbered heading ("3.2. Hurdle models")
_HEADING = re.compile(r"[ \t]*\d{1,2}(?:\.\d{1,2})*\.?[ \t]+[^\W\d_]{2,}")
_SENTENCE_END = re.compile(r"[.!?…:][\"'”’»)\]]*$")


def prose_like(line: str) -> bool:
    """A line of running text: seven words or more, at least 80 % of its tokens (not a comment, not a line
    wholly in brackets, as R prints "(Dispersion parameter for poisson family taken to be 1)")."""
    body = line.strip()
    if body.startswith("#") or (body.startswith("(") and body.endswith(")")):
        return False
    tokens = body.split()
    words = sum(1 for t in tokens if _PROSE_TOKEN.fullmatch(t))
    return words >= 7 and words >= 0.8 * len(tokens)


def _short_prose(line: str) -> bool:
    """A few words of a sentence: lower-case start, words only, no colon at the end (R prints "sample
    estimates:", "Likelihood ratio test")."""
    body = line.strip()
    tokens = body.split()
    return len(tokens) >= 2 and body[0].islower() and body[-1] != ":" and all(_PROSE_TOKEN.fullmatch(t) for t in tokens)


def _ends_output(line: str) -> bool:
    """The line after a transcript's output: running text or a numbered heading."""
    if prose_like(line):
        return True
    m = _HEADING.match(line)
    return bool(m) and all(_PROSE_TOKEN.fullmatch(t) for t in line[m.end() :].split())


def _code_like(prompt: str, rest: str) -> bool:
    """The text after an ambiguous prompt reads as a command: not running text, and code signs or one name."""
    if prose_like(rest) or rest.startswith(">"):
        return False
    if prompt in ("R>", ">>>"):
        return True
    if prompt == "$" and not rest[:1].isalpha() and rest[:1] not in "./~_":
        return False  # "$ 5 million"
    return bool(_CODE_SIGN.search(rest)) or (len(rest.split()) == 1 and bool(_NAME.fullmatch(rest.strip())))


def console_spans(text: str, width: int, skip: Sequence[tuple[int, int]] = (), stops=()) -> list[tuple[int, int]]:
    """Console transcripts: from a prompt line (``R> ``, ``>>> ``, ``> ``, ``$ ``) whose text reads as code,
    through its continuations (``+ ``, ``... ``), further prompts and the output lines, up to the next line of
    running text or numbered heading (blank lines inside are taken in, except after ``>>> ``: a doctest's
    blank line ends it). ``> `` and ``$ `` open one only after a
    line that could end a paragraph (blank, short against ``width``, or a sentence or colon end), and a run of
    ``>`` lines with a line of running text in it is a quote. ``skip``: sorted spans (page furniture) passed over
    and left out of the result, so a transcript across a page break is two spans; ``stops``: sorted spans
    (reStructuredText structure) that end one."""
    lines: list[tuple[int, int]] = []
    pos = 0
    while pos < len(text):
        nl = text.find("\n", pos)
        e = len(text) if nl == -1 else nl + 1
        lines.append((pos, e))
        pos = e

    def within(spans, k: int) -> bool:
        s, e = lines[k]
        i = bisect_right(spans, (e, 0)) - 1
        return i >= 0 and spans[i][1] > s

    skip, stops = sorted(skip), sorted(stops)
    # a run of ">" lines with running text in it is an e-mail quote (a "#" comment in R's session is not)
    quoted = [False] * len(lines)
    k = 0
    while k < len(lines):
        if not _QUOTE.match(text, *lines[k]):
            k += 1
            continue
        j = k
        while j < len(lines) and _QUOTE.match(text, *lines[j]):
            j += 1
        if any(prose_like(text[lines[q][0] : lines[q][1]].lstrip(" \t>")) for q in range(k, j)):
            quoted[k:j] = [True] * (j - k)
        k = j
    spans: list[tuple[int, int]] = []
    prev = ""  # the last non-blank line before k outside furniture
    k = 0
    while k < len(lines):
        s, e = lines[k]
        line = text[s:e]
        m = _PROMPT.match(text, s, e)
        if not m or quoted[k] or within(skip, k) or not _opens(m.group(1), line[m.end() - s :].strip(), prev, width):
            if not within(skip, k):
                prev = line if line.strip() else ""
            k += 1
            continue
        family = m.group(1)
        indent = _indent(line)
        last, q = k, k + 1
        while q < len(lines):
            body = text[lines[q][0] : lines[q][1]]
            if family == ">>>" and not body.strip() and not within(skip, q):
                break  # a Python session ends at a blank line, as a doctest block does
            if within(skip, q) or not body.strip():
                q += 1
                continue
            if within(stops, q) or quoted[q]:
                break
            pm = _PROMPT.match(body)
            cont = _CONTINUATION.get(family)
            if not (pm or (cont and cont.match(body))) and q > last + 1 and _short_prose(body):
                # a few words of a sentence after a blank line, before the next prompt ("or an LR test")
                n = _next_line(text, lines, q + 1, lambda n: within(skip, n))
                if n is not None and _PROMPT.match(text, *lines[n]):
                    break
            # output ends at running text, or at a line less indented than an indented prompt (the text
            # around a command shown indented in a manual)
            if not (pm or (cont and cont.match(body))) and (_ends_output(body) or _indent(body) < indent):
                # a caption line of the output ("Count model coefficients (negbin with log link):") is
                # followed by more output; a sentence ending in a colon before a prompt is not
                n = _next_line(text, lines, q + 1, lambda n: within(skip, n))
                if n is None or not body.rstrip().endswith(":") or _indent(body) < indent or within(stops, n):
                    break
                after = text[lines[n][0] : lines[n][1]]
                if _PROMPT.match(after) or _ends_output(after):
                    break
            last, q = q, q + 1
        spans.extend(_pieces(text, lines, k, last, lambda n: within(skip, n)))
        prev = text[lines[last][0] : lines[last][1]]
        k = last + 1
    return spans


def _next_line(text: str, lines, k: int, skipped) -> int | None:
    """The first non-blank line from ``lines[k]`` on that is not skipped (page furniture), or None."""
    while k < len(lines):
        if text[lines[k][0] : lines[k][1]].strip() and not skipped(k):
            return k
        k += 1
    return None


def _indent(line: str) -> int:
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip(" "))


def _opens(prompt: str, rest: str, prev: str, width: int) -> bool:
    if not _code_like(prompt, rest):
        return False
    if prompt in ("R>", ">>>"):
        return True
    before = prev.rstrip()
    return not before or len(before) < 0.8 * width or bool(_SENTENCE_END.search(before))


def _pieces(text: str, lines, first: int, last: int, skipped) -> list[tuple[int, int]]:
    """``lines[first..last]`` as spans around the skipped lines, each from a non-blank line to one."""
    out: list[tuple[int, int]] = []
    start = end = None
    for n in range(first, last + 1):
        s, e = lines[n]
        if skipped(n):
            if start is not None:
                out.append((start, end))
            start = end = None
        elif text[s:e].strip():
            start = s if start is None else start
            end = e
    if start is not None:
        out.append((start, end))
    return out
