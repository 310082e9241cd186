"""Stage A — the LLM mention detector over sliding page windows (seed 003).

The seed's Stage A prompt over pages with explicit ``pageText``; each mention is validated
(``pageText[charStart:charEnd] == textQuote``), re-anchored to an exact occurrence near the offset,
or the window is retried once with a stricter prompt. Sliding windows carry one *primary* page plus
context pages; only mentions on the primary page are kept, so none is created twice. Mentions
crossing a page boundary are split or rejected (``boundary="split"|"reject"``).

Windows run ``concurrency`` at a time (results merged in page order: the output does not depend on
which answer came first). Every call's tokens are counted per window (:attr:`LLMMentionDetector.usage`,
split evenly over the window's mentions by :attr:`LLMMentionDetector.mention_tokens`) and per pass
(:attr:`LLMMentionDetector.tally`). A window answered before — e.g. by a run that was killed — comes
from the client's response cache (same window, same request) and costs nothing again.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, fields
from typing import Any, Sequence

from ..lib.llm import LLMError, UsageTally, parse_json_content
from .llm_runs import ordered_map, split_evenly
from .mentions import (
    BOUNDARY_POLICIES,
    INDEX_TYPES,
    Mention,
    MentionDetectionError,
    TextLayout,
    author_label,
)

# ---------------------------------------------------------------------------
# LLM detector (Stage A)

STAGE_A_SYSTEM = """You will receive pages as structured objects with explicit text.

For each index entry you identify, return:
- label (the index term)
- pageNumber (which page it appears on)
- textQuote (MUST be an exact substring of pageText)
- charStart (0-indexed position where textQuote starts in pageText)
- charEnd (0-indexed position where textQuote ends in pageText)

CRITICAL: Validate that pageText.substring(charStart, charEnd) === textQuote
If you cannot find an exact substring match, skip that mention.

EXCLUDE:
- Common verbs (do, have, make, get, see)
- Generic nouns (thing, person, way, time)
- Everyday language (very, really, always, never)
- Structural terms (chapter, section, conclusion)
"""

INDEX_TYPE_CRITERIA = {
    "subject": """Subject index: identify KEY CONCEPTS, THEMES, and TECHNICAL TERMS discussed in the text.

INCLUDE:
- Specific concepts (e.g., "divine simplicity", "modal realism")
- Technical terms (e.g., "transubstantiation", "soteriology")
- Philosophical/theological themes (e.g., "free will", "incarnation")
- Abstract ideas discussed substantively (e.g., "virtue", "causation")

EXCLUDE:
- Proper nouns (people, places, organizations) - these belong in Author index
- Common verbs, generic nouns, everyday language
""",
    "author": """Author index: identify AUTHORS mentioned or discussed in the text.

INCLUDE:
- Proper names of authors, scholars, thinkers, writers
- Format: "LastName, FirstName" (e.g., "Aquinas, Thomas")
- Both cited sources and authors discussed as subjects
- Historical and contemporary figures

EXCLUDE:
- Fictional characters
- Hypothetical persons used in examples
- The current book's author (unless self-citing)
""",
}

RESPONSE_SHAPE = """Answer with JSON only, in this shape:
{"entries": [{"label": "divine simplicity", "indexType": "subject",
  "mentions": [{"pageNumber": 5, "textQuote": "divine simplicity", "charStart": 16, "charEnd": 33}]}]}
Report mentions only for the page whose pageNumber equals primaryPage; the other pages are context."""

STRICT_NOTE = """STRICT MODE. Your previous answer had mentions whose textQuote is not pageText[charStart:charEnd]:
{failures}
Copy every textQuote character for character from pageText (same case, same whitespace, same punctuation).
charStart and charEnd count characters of pageText from 0; charEnd - charStart == length of textQuote.
Skip any mention you cannot quote exactly."""


def stage_a_system_prompt(index_types: Sequence[str]) -> str:
    """The composable Stage A prompt: base + one criteria module per index type + response shape."""
    return "\n".join([STAGE_A_SYSTEM] + [INDEX_TYPE_CRITERIA[t] for t in index_types] + [RESPONSE_SHAPE])


@dataclass(frozen=True, slots=True)
class Page:
    number: int
    start: int
    end: int
    text: str


def llm_pages(layout: TextLayout, max_chars: int = 6000) -> list[Page]:
    """Pages for Stage A: real pages (form feeds), long ones cut at line ends; they tile the text."""
    out: list[Page] = []
    text = layout.text
    for ps, pe in layout.page_ranges():
        pos = ps
        while pos < pe:
            end = min(pe, pos + max_chars)
            if end < pe:
                cut = text.rfind("\n", pos, end)
                if cut <= pos:
                    cut = text.rfind(" ", pos, end)
                end = cut + 1 if cut > pos else end
            out.append(Page(len(out) + 1, pos, end, text[pos:end]))
            pos = end
    return out


@dataclass
class StageAStats:
    windows: int = 0
    llm_calls: int = 0
    retries: int = 0
    valid: int = 0
    reanchored: int = 0
    recovered_by_retry: int = 0
    split: int = 0
    rejected_boundary: int = 0
    rejected_invalid: int = 0
    context_page_skipped: int = 0
    duplicates: int = 0
    #: windows whose every call the response cache answered (finished by an earlier run)
    windows_from_cache: int = 0

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)

    def merge(self, other: "StageAStats") -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


class LLMMentionDetector:
    """Stage A over sliding windows: one primary page + ``context_pages`` following pages."""

    name = "llm"

    def __init__(
        self,
        client: Any,
        *,
        index_types: Sequence[str] = INDEX_TYPES,
        page_chars: int = 6000,
        context_pages: int = 1,
        boundary: str = "split",
        reanchor_radius: int = 300,
        concurrency: int | None = None,
    ):
        if boundary not in BOUNDARY_POLICIES:
            raise ValueError(f"boundary policy {boundary!r} is not one of {BOUNDARY_POLICIES}")
        self.client = client
        self.index_types = tuple(index_types)
        self.page_chars = page_chars
        self.context_pages = context_pages
        self.boundary = boundary
        self.radius = reanchor_radius
        cfg = getattr(client, "config", None)
        self.concurrency = max(1, concurrency or getattr(cfg, "concurrency", 1) or 1)
        self.stats = StageAStats()
        self.tally = UsageTally()
        #: (prompt, completion) tokens of each window (by primary page number), retries included
        self.usage: dict[int, tuple[int, int]] = {}
        #: (prompt, completion) tokens attributed to each kept mention, keyed (start, end, index_type)
        self.mention_tokens: dict[tuple[int, int, str], tuple[int, int]] = {}
        self._calls = [0, 0, 0]  # prompt tokens, completion tokens, calls not from the cache (per window)

    @property
    def model(self) -> str:
        return getattr(getattr(self.client, "config", None), "model", "?")

    def windows(self, layout: TextLayout) -> list[tuple[list[Page], Page]]:
        """(window pages, primary page) for every page with text."""
        pages = llm_pages(layout, self.page_chars)
        return [(pages[i : i + 1 + self.context_pages], p) for i, p in enumerate(pages) if p.text.strip()]

    def detect(self, layout: TextLayout) -> list[Mention]:
        jobs = self.windows(layout)
        self.stats.windows += len(jobs)
        found: dict[tuple[int, int, str], Mention] = {}
        per_window = ordered_map(lambda job: self._run_window(layout, *job), jobs, self.concurrency)
        for (_window, primary), (mentions, stats, usage) in zip(jobs, per_window):
            self.stats.merge(stats)
            self.usage[primary.number] = usage
            kept = []
            for m in mentions:
                key = (m.start, m.end, m.index_type)
                if key in found:
                    self.stats.duplicates += 1
                    continue
                found[key] = m
                kept.append(key)
            for key, pt, ct in zip(kept, split_evenly(usage[0], len(kept)), split_evenly(usage[1], len(kept))):
                self.mention_tokens[key] = (pt, ct)
        return sorted(found.values(), key=lambda m: (m.start, m.end))

    def _run_window(
        self, layout: TextLayout, window: Sequence[Page], primary: Page
    ) -> tuple[list[Mention], StageAStats, tuple[int, int]]:
        """One window on a worker copy (its own stats and token count; client and tally shared)."""
        worker = copy.copy(self)
        worker.stats = StageAStats()
        worker._calls = [0, 0, 0]
        mentions = worker._window(layout, window, primary)
        if worker.stats.llm_calls and not worker._calls[2]:
            worker.stats.windows_from_cache += 1
        return mentions, worker.stats, (worker._calls[0], worker._calls[1])

    # -- one window -----------------------------------------------------------

    def _messages(self, window: Sequence[Page], primary: Page, failures: list[str] | None) -> list[dict[str, str]]:
        payload = {
            "pages": [{"pageNumber": p.number, "pageText": p.text} for p in window],
            "indexTypes": list(self.index_types),
            "primaryPage": primary.number,
        }
        system = stage_a_system_prompt(self.index_types)
        if failures is not None:
            system += "\n\n" + STRICT_NOTE.format(failures="\n".join(failures[:20]) or "- (reply was not valid JSON)")
        return [
            {"role": "system", "content": system},
            {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
        ]

    def _ask(self, window: Sequence[Page], primary: Page, failures: list[str] | None) -> Any:
        self.stats.llm_calls += 1
        try:
            res = self.client.complete(self._messages(window, primary, failures), json_mode=True)
        except LLMError as exc:
            if exc.kind == "invalid_json":  # not a chat completion at all: retried like invalid JSON
                return exc
            raise MentionDetectionError(f"page {primary.number}: {exc}") from exc
        self.tally.add(res)
        self._calls[0] += res.prompt_tokens
        self._calls[1] += res.completion_tokens
        self._calls[2] += not res.cached
        try:
            return parse_json_content(res.content)
        except LLMError as exc:  # invalid JSON: retried with the strict prompt
            return exc

    def _window(self, layout: TextLayout, window: Sequence[Page], primary: Page) -> list[Mention]:
        reply = self._ask(window, primary, None)
        good, failures = self._validate(layout, window, primary, reply, status="valid")
        if failures:
            self.stats.retries += 1
            retry = self._ask(window, primary, failures)
            more, still = self._validate(layout, window, primary, retry, status="retried")
            if isinstance(retry, Exception) and isinstance(reply, Exception):
                raise MentionDetectionError(f"page {primary.number}: invalid JSON twice: {retry}")
            have = {(m.start, m.end, m.index_type) for m in good}
            for m in more:
                if (m.start, m.end, m.index_type) not in have:
                    good.append(m)
                    self.stats.recovered_by_retry += m.validation_status == "retried"
            self.stats.rejected_invalid += len(still) if not isinstance(retry, Exception) else len(failures)
        return good

    def _validate(
        self, layout: TextLayout, window: Sequence[Page], primary: Page, reply: Any, status: str
    ) -> tuple[list[Mention], list[str]]:
        if isinstance(reply, Exception) or not isinstance(reply, dict) or not isinstance(reply.get("entries"), list):
            return [], ['- the reply was not the JSON object {"entries": [...]}']
        by_number = {p.number: p for p in window}
        good: list[Mention] = []
        failures: list[str] = []
        for entry in reply["entries"]:
            if not isinstance(entry, dict):
                continue
            itype = entry.get("indexType")
            if itype not in self.index_types:
                continue
            label = str(entry.get("label") or "").strip()
            for raw in entry.get("mentions") or []:
                if not isinstance(raw, dict):
                    continue
                page = by_number.get(raw.get("pageNumber"))
                if page is None:
                    failures.append(f"- pageNumber {raw.get('pageNumber')!r} is not in this window")
                    continue
                if page.number != primary.number:
                    self.stats.context_page_skipped += 1  # found again when that page is primary
                    continue
                ms, why = self._anchor(layout, page, raw, itype, label, status)
                if why:
                    failures.append(f"- {why}")
                good.extend(ms)
        return good, failures

    def _anchor(
        self, layout: TextLayout, page: Page, raw: dict, itype: str, label: str, status: str
    ) -> tuple[list[Mention], str | None]:
        """Mentions for one reported mention, or the reason it could not be anchored."""
        quote, cs, ce = raw.get("textQuote"), raw.get("charStart"), raw.get("charEnd")
        if not isinstance(quote, str) or not quote.strip():
            return [], f"empty textQuote on page {page.number}"
        if not isinstance(cs, int) or isinstance(cs, bool):
            cs = None
        if not isinstance(ce, int) or isinstance(ce, bool):
            ce = None
        label = label or quote
        if itype == "author" and "," not in label:
            label = author_label(label)

        def mk(a: int, b: int, st: str) -> Mention:
            return Mention(
                a,
                b,
                layout.text[a:b],
                itype,
                label,
                f"llm:{self.model}",
                lookup=label if itype == "author" else label.lower(),
                context=layout.context(a, b),
                validation_status=st,
            )

        if cs is not None and ce is not None and 0 <= cs <= ce <= len(page.text) and page.text[cs:ce] == quote:
            self.stats.valid += status == "valid"
            return [mk(page.start + cs, page.start + ce, status)], None
        text = layout.text
        hint = page.start + (cs if cs is not None else 0)
        # Re-anchor: the exact occurrence nearest to the given offset, on this page or
        # starting on it and running into the next page (then the boundary policy applies).
        lo = page.start if cs is None else max(page.start, hint - self.radius)
        hi = page.end if cs is None else min(page.end, hint + self.radius + 1)
        occ = []
        j = text.find(quote, lo, hi + len(quote) - 1)
        while j != -1 and j < hi:
            occ.append(j)
            j = text.find(quote, j + 1, hi + len(quote) - 1)
        if occ:
            o = min(occ, key=lambda o: abs(o - hint))
            if o + len(quote) > page.end:
                return self._boundary(layout, page, o, o + len(quote), mk), None
            self.stats.reanchored += 1
            return [mk(o, o + len(quote), "reanchored" if status == "valid" else status)], None
        found = page.text[cs:ce] if cs is not None and ce is not None else None
        return [], f"page {page.number}: textQuote {quote!r} at [{cs}, {ce}) but pageText there is {found!r}"

    def _boundary(self, layout: TextLayout, page: Page, a: int, b: int, mk) -> list[Mention]:
        if self.boundary == "reject":
            self.stats.rejected_boundary += 1
            return []
        out = []
        for s, e in ((a, page.end), (page.end, b)):
            seg = layout.text[s:e]
            s += len(seg) - len(seg.lstrip())
            e -= len(seg) - len(seg.rstrip())
            if e > s:
                out.append(mk(s, e, "split"))
        self.stats.split += 1
        return out
