"""Parse time of a 1,000-word answer with 50 citations (seed 002 target < 10 ms; aim ≤ 1 ms).

Baselines measured in the same run on the same text:
* ``seed regex``: the seed's reference patterns (``\\[(\\d+)\\]`` + ``[^.!?]+[.!?]``)
  with the citation → sentence mapping done by scanning;
* ``ALCE``: ALCE's evaluator style — split sentences on ``[.!?]`` + space and
  ``re.findall(r"\\[\\d+", sent)`` per sentence (reads only the first id of
  ``[1, 2]`` and counts ``[2023]``).
Both do less than ``CitationParser.parse`` (no lists/ranges, no abbreviations,
no clusters, no frontend maps); the ratio shows what the extra work costs.
"""

import re
import statistics
import time

from textguard_pipeline.core.citations import CitationParser

# Sentences in the style of ALCE answers (shapes: single, cluster, list, range, abbreviation, decimal).
_SENTENCES = [
    "Several places on Earth claim to be the most rainy, such as Lloró, Colombia, which reported {c} an average of 12,717 mm.",
    "However, the official record is held by Mawsynram, India with an average annual rainfall of 11,872 mm {c}.",
    "Dr. Smith and Mr. Jones, e.g. in Fig. 3, report that the ratio is 3.14 in most years {c}.",
    "The Treaty of Paris was later signed on September 3, 1783, formally separating the colonies {c}.",
    "Bipolar disorder causes extreme mood swings between excitement and depression, as noted by Lee et al. {c}.",
    "Nowadays, Sunni and Shia are the major branches of Islam, with many local traditions {c}!",
]
_MARKERS = ["[1]", "[2][3]", "[1, 4]", "[2-4]", "[5]", "[3], [6]", "[7]", "[1–2]"]


def make_answer(words: int = 1000, citations: int = 50) -> str:
    """A deterministic answer of about ``words`` words holding exactly ``citations`` ids."""
    parser = CitationParser()
    parts: list[str] = []
    n_words = n_cits = i = 0
    while n_words < words or n_cits < citations:
        tmpl = _SENTENCES[i % len(_SENTENCES)]
        marker = _MARKERS[i % len(_MARKERS)]
        k = len(parser.extract_citations(marker))
        if n_cits + k > citations:
            marker, k = ("[1]", 1) if n_cits < citations else ("", 0)
        s = tmpl.replace(" {c}", " " + marker if marker else "")
        parts.append(s)
        n_words += len(s.split())
        n_cits += k
        i += 1
        if n_words >= words and n_cits >= citations:
            break
    return " ".join(parts)


def seed_regex(text: str):
    """The seed's reference regexes, mapped by scanning (what a straightforward implementation does)."""
    cits = [(int(m.group(1)), m.start(), m.end()) for m in re.finditer(r"\[(\d+)\]", text)]
    sents = [(m.start(), m.end()) for m in re.finditer(r"[^.!?]+[.!?]", text)]
    c2s: dict[int, list[int]] = {}
    for cid, s, _ in cits:
        for k, (ss, se) in enumerate(sents):
            if ss <= s < se:
                c2s.setdefault(cid, []).append(k)
                break
    return cits, sents, c2s


_ALCE_SPLIT = re.compile(r"(?<=[.!?])\s+")


def alce(text: str):
    """ALCE-style: per sentence, ``re.findall(r"\\[\\d+", sent)``, first id of each bracket only."""
    out = []
    for sent in _ALCE_SPLIT.split(text):
        out.append([int(r[1:]) for r in re.findall(r"\[\d+", sent)])
    return out


def _median_ms(fn, text: str, repeat: int = 200) -> float:
    fn(text)  # warm up
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main() -> None:
    text = make_answer()
    parser = CitationParser()
    parsed = parser.parse(text, 7)
    n_words, n_cits = len(text.split()), len(parsed.citations)
    full = _median_ms(lambda t: parser.parse(t, 7), text)
    frontend = _median_ms(lambda t: parser.format_for_frontend(parser.parse(t, 7)), text)
    extract = _median_ms(parser.extract_citations, text)
    split = _median_ms(parser.split_into_sentences, text)
    validate = _median_ms(lambda t: parser.validate_citations(parsed.citations, 7), text)
    base_seed = _median_ms(seed_regex, text)
    base_alce = _median_ms(alce, text)
    print(f"answer: {n_words} words, {len(text)} chars, {n_cits} citations, {len(parsed.sentences)} sentences")
    print(f"{'operation':<38}{'median ms':>10}{'seed target':>13}")
    print(f"{'parse (CitationParser.parse)':<38}{full:>10.3f}{'< 10':>13}")
    print(f"{'parse + format_for_frontend':<38}{frontend:>10.3f}")
    print(f"{'extract_citations':<38}{extract:>10.3f}{'< 5':>13}")
    print(f"{'split_into_sentences':<38}{split:>10.3f}{'< 5':>13}")
    print(f"{'validate_citations':<38}{validate:>10.3f}{'< 1':>13}")
    print(f"{'baseline: seed reference regexes':<38}{base_seed:>10.3f}")
    print(f"{'baseline: ALCE re.findall':<38}{base_alce:>10.3f}")
    found_seed = len(seed_regex(text)[0])
    found_alce = sum(len(x) for x in alce(text))
    print(f"citation ids found: parse {n_cits}, seed regex {found_seed}, ALCE {found_alce} (of {n_cits})")
    print(f"ratio parse / seed-regex baseline: {full / base_seed:.2f}x; parse / ALCE baseline: {full / base_alce:.2f}x")
    print(f"parse vs seed target 10 ms: {10 / full:.0f}x faster; vs aim 1 ms: {'met' if full <= 1 else 'missed'}")


if __name__ == "__main__":
    main()
