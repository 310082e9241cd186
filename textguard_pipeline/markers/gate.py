"""StructureNumberingGate v2.1 (seed 004): signals S1 / S2 / S3, the §4 matrix, SOFT_FLAG and fallback.

Separates product/version numbers from structural numbering (page footers
"PUBLIC 3", section labels) with signals computed from the document itself.
No Dagster imports here.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..lib.outage import Outage
from .model import (
    FALLBACK,
    GATE_OFF,
    HARD_REJECT,
    LOW,
    SOFT_FLAG,
    MarkerCandidate,
    SequenceDetectionResult,
    StructureGateConfig,
    _Log,
    logger,
)

__all__ = [
    "SECTION_POSITION_PATTERNS",
    "StructureNumberingGate",
    "GateResult",
    "detect_sequence",
    "detect_sequences",
    "check_position_indicator",
    "check_prefix_mostly_numbered",
    "compute_structure_risk",
]


# ---------------------------------------------------------------------------
# StructureNumberingGate v2.1: signals S1 / S2 / S3 and the §4 matrix

#: S2 (seed §3.2), per candidate: the candidate opens its line and either stands alone
#: on it, or is followed by ":", ".", "-" (not a decimal, sub-number or compound:
#: "PUBLIC 3.2" is not "PUBLIC 3.", "64-bit" is not "64 -"). ``{v}`` = the escaped candidate.
SECTION_POSITION_PATTERNS = [
    r"^[ \t\f]*{v}[ \t]*(?:[:\u2013\u2014]|-(?!\w)|\.(?!\d))",  # "PUBLIC 3:" / "PUBLIC 3." / "PUBLIC 3 -"
    r"^[ \t\f]*{v}[ \t\f]*\r?$",  # "PUBLIC 3" alone on its line
]

#: S1 counts numbers of 1–2 digits, the numeral of the seed's ENTITY_NUMERAL, S2 and S3
#: patterns: page and section numbering; identifiers such as RFC 6961/6962 are not numbering.
S1_MAX_DIGITS = 2


def detect_sequences(candidates: Iterable[MarkerCandidate]) -> dict[str, SequenceDetectionResult]:
    """S1 for every prefix: longest run of consecutive integers among the SAME prefix's numbers.

    NON-NEGOTIABLE (seed §3.1): only "X N" with the same prefix X count; isolated
    numbers of the document never do. Dotted versions ("TLS 1.3") are not integers
    and never extend a run.
    """
    numbers: dict[str, set[int]] = {}
    for c in candidates:
        if not c.prefix:
            continue
        n = c.int_number
        bucket = numbers.setdefault(c.prefix, set())
        if n is not None and len(c.number) <= S1_MAX_DIGITS:
            bucket.add(n)
    out = {}
    for prefix, nums in numbers.items():
        ordered = sorted(nums)
        best, best_end, cur = (1 if ordered else 0), (ordered[0] if ordered else 0), 1
        for i in range(1, len(ordered)):
            cur = cur + 1 if ordered[i] == ordered[i - 1] + 1 else 1
            if cur > best:
                best, best_end = cur, ordered[i]
        best = max(best, 1)  # a prefix with only dotted versions still has a "run" of 1 (seed §9.3)
        run = tuple(range(best_end - best + 1, best_end + 1)) if ordered else ()
        out[prefix] = SequenceDetectionResult(prefix, tuple(ordered), best, run)
    return out


def detect_sequence(prefix: str, candidates: Iterable[MarkerCandidate]) -> int:
    """S1 of ``prefix``: "PUBLIC 1", "PUBLIC 2", "PUBLIC 3" → 3; "PUBLIC 1", "PUBLIC 3" → 1."""
    res = detect_sequences(c for c in candidates if c.prefix == prefix)
    return res[prefix].longest_run if prefix in res else 1


def _continues_sentence(full_text: str, line_start: int) -> bool:
    """Whether the line at ``line_start`` continues a hard-wrapped sentence: the previous
    line is not blank and ends with a lower-case letter or a comma ("... used with\n TLS 1.3.")."""
    if line_start == 0:
        return False
    prev_start = full_text.rfind("\n", 0, line_start - 1) + 1
    prev = full_text[prev_start : line_start - 1].rstrip()
    return bool(prev) and (prev[-1].islower() or prev[-1] == ",")


class _PositionIndex:
    """S2 for many candidates of one document: lines bucketed by their first characters,
    so each candidate is tested against the few lines that can start with it."""

    KEY = 3

    def __init__(self, full_text: str):
        self.text = full_text
        self.buckets: dict[str, list[tuple[int, str]]] = {}
        pos = 0
        for line in full_text.split("\n"):
            body = line.lstrip(" \t\f")
            if body:
                self.buckets.setdefault(body[: self.KEY], []).append((pos, line))
            pos += len(line) + 1

    def has(self, candidate_value: str) -> bool:
        lines = self.buckets.get(candidate_value[: self.KEY], ())
        if not lines:
            return False
        v = re.escape(candidate_value)
        punct, alone = (re.compile(p.replace("{v}", v)) for p in SECTION_POSITION_PATTERNS)
        for start, line in lines:
            if alone.match(line):
                return True
            if punct.match(line) and not _continues_sentence(self.text, start):
                return True
        return False


def check_position_indicator(candidate_value: str, full_text: str) -> bool:
    """S2: the candidate opens a line and stands alone on it, or is followed by ":" / "." / "-".

    The punctuation form does not count on a line that continues a wrapped sentence
    (a sentence ending "... with\n   TLS 1.3." is prose, not a heading).
    """
    return _PositionIndex(full_text).has(candidate_value)


_NUMBERED_AFTER = re.compile(r"\s+(\d{1,2})\b")
_DIGIT_AFTER = re.compile(r"\s+\d")


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def check_prefix_mostly_numbered(prefix: str, full_text: str) -> bool:
    """S3 (the robust definition, seed §3.3): the prefix is almost always followed by a number.

    TRUE iff count("X N") >= 3 and count(X not followed by a number) <= 1 and
    the numbers take >= 2 distinct values. Case-sensitive, as the seed. Same counts as
    the seed's ``\\bX\\s+\\d{1,2}\\b`` and ``\\bX\\b(?!\\s+\\d)``, found by a literal
    search first (fast on long documents).
    """
    if not prefix:
        return False
    numbered: list[str] = []
    standalone = 0
    for m in re.finditer(re.escape(prefix), full_text):
        s, e = m.start(), m.end()
        if (s > 0 and _is_word_char(full_text[s - 1])) or (e < len(full_text) and _is_word_char(full_text[e])):
            continue
        n = _NUMBERED_AFTER.match(full_text, e)
        if n:
            numbered.append(n.group(1))
        elif not _DIGIT_AFTER.match(full_text, e):
            standalone += 1
    return len(numbered) >= 3 and standalone <= 1 and len(set(numbered)) >= 2


def compute_structure_risk(s1: int, s2: bool, s3: bool, sequence_threshold: int = 3) -> tuple[str, str]:
    """The §4 decision matrix: (HARD_REJECT | SOFT_FLAG | LOW, reason).

    HARD_REJECT: S1 >= threshold and (S2 or S3).
    SOFT_FLAG:   2 <= S1 < threshold; S1 >= threshold alone; or S2 and/or S3 with S1 = 1
                 ("Seq=2 OU signal isolé").
    LOW:         no signal.
    This function is the one place the matrix lives; the asset check re-applies it.
    """
    s1 = int(s1)
    sig = "+".join(n for n, on in (("S2", s2), ("S3", s3)) if on)
    if s1 >= sequence_threshold and sig:
        return HARD_REJECT, f"S1={s1}>={sequence_threshold} with {sig}"
    if s1 >= sequence_threshold:
        return SOFT_FLAG, f"S1={s1}>={sequence_threshold} alone (isolated signal)"
    if s1 >= 2:
        return SOFT_FLAG, f"S1={s1}<{sequence_threshold}" + (f" with {sig}" if sig else "")
    if s2 and s3:
        return SOFT_FLAG, f"S1={s1}<{sequence_threshold} but S2+S3"
    if sig:
        return SOFT_FLAG, f"{sig} alone (isolated signal)"
    return LOW, "no structural signal"


@dataclass
class GateResult:
    """The gate's outcome for one document."""

    candidates: list[MarkerCandidate]
    kept: list[MarkerCandidate]
    rejected: list[MarkerCandidate]
    fallback_used: bool = False
    llm: str = ""  # endpoint label when the LLM was asked
    llm_error: str = ""

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.candidates:
            out[c.structure_risk] = out.get(c.structure_risk, 0) + 1
        return out


LLM_SYSTEM_PROMPT = (
    "You review candidate document markers of the form 'word + number'. A genuine marker names "
    "a product, version, standard or entity the document is about (e.g. a phone model, a protocol "
    "version). Structural numbering is NOT a marker: page footers or headers with a page number, "
    "classification labels followed by a page number, section or chapter labels. For each candidate "
    "you get structural signals (S1 = longest run of consecutive numbers with the same prefix, "
    "S2 = opens a line followed by punctuation or stands alone, S3 = prefix almost always numbered) "
    "and the lines where it occurs. Reply with JSON only: "
    '{"decisions": [{"value": "<candidate>", "keep": true|false, "reason": "<short>"}]}'
)


class StructureNumberingGate:
    """Separates markers from structural numbering (seed 004 v2.1)."""

    def __init__(self, config: StructureGateConfig | None = None, llm: Any = None, log: _Log | None = None):
        """``llm``: a ``core.llm.ChatClient`` used for SOFT_FLAG when the action is "llm"."""
        self.config = config or StructureGateConfig()
        self.llm = llm
        self.log: _Log = log or logger
        self._config_logged = False

    # the seed's methods, delegating to the module functions (one implementation)
    detect_sequence = staticmethod(detect_sequence)
    detect_sequences = staticmethod(detect_sequences)
    check_position_indicator = staticmethod(check_position_indicator)
    check_prefix_mostly_numbered = staticmethod(check_prefix_mostly_numbered)

    def compute_structure_risk(self, s1: int, s2: bool, s3: bool) -> tuple[str, str]:
        return compute_structure_risk(s1, s2, s3, self.config.sequence_threshold)

    def _log_config(self, log: _Log) -> None:
        if self._config_logged or not self.config.log_config_changes:
            return
        self._config_logged = True
        changes = self.config.changes_from_default()
        if changes:
            log.warning(
                "[StructureNumberingGate] config differs from default: "
                + ", ".join(f"{k}: {a!r} -> {b!r}" for k, (a, b) in changes.items())
            )

    def evaluate(self, candidates: Sequence[MarkerCandidate], full_text: str) -> None:
        """Set S1/S2/S3, decision, structure_risk and reason on every candidate."""
        seqs = detect_sequences(candidates)
        positions = _PositionIndex(full_text)
        s3_cache: dict[str, bool] = {}
        for c in candidates:
            c.s1_sequence = seqs[c.prefix].longest_run if c.prefix in seqs else 1
            c.s2_position = positions.has(c.value)
            if c.prefix not in s3_cache:
                s3_cache[c.prefix] = check_prefix_mostly_numbered(c.prefix, full_text)
            c.s3_prefix_numbered = s3_cache[c.prefix]
            c.decision, c.structure_risk_reason = self.compute_structure_risk(
                c.s1_sequence, c.s2_position, c.s3_prefix_numbered
            )
            c.structure_risk = c.decision

    def filter_candidates(
        self, candidates: Sequence[MarkerCandidate], full_text: str, doc_id: str = "", log: _Log | None = None
    ) -> GateResult:
        """Evaluate, drop HARD_REJECT (logged), apply the SOFT_FLAG action, keep LOW."""
        log = log or self.log
        self._log_config(log)
        cands = list(candidates)
        if not self.config.enabled:
            for c in cands:
                c.decision = c.structure_risk = GATE_OFF
                c.structure_risk_reason = "gate disabled by config (rollback)"
                c.action, c.kept = "gate_off", True
            return GateResult(cands, list(cands), [])
        self.evaluate(cands, full_text)
        kept: list[MarkerCandidate] = []
        rejected: list[MarkerCandidate] = []
        soft: list[MarkerCandidate] = []
        for c in cands:
            if c.decision == HARD_REJECT:
                c.action, c.kept = "reject", False
                rejected.append(c)
            elif c.decision == SOFT_FLAG:
                soft.append(c)
            else:
                c.action, c.kept = "keep", True
                kept.append(c)
        if rejected:
            log.info(
                f"[StructureNumberingGate] Doc '{doc_id}' HARD_REJECT: "
                + "; ".join(f"{c.value} ({c.structure_risk_reason})" for c in rejected)
            )
        res = GateResult(cands, kept, rejected)
        self._resolve_soft(soft, full_text, doc_id, res, log)
        res.kept.sort(key=cands.index)
        res.rejected.sort(key=cands.index)
        return res

    def _resolve_soft(
        self, soft: list[MarkerCandidate], full_text: str, doc_id: str, res: GateResult, log: _Log
    ) -> None:
        verdicts: dict[str, tuple[bool, str]] = {}
        if soft and self.config.soft_flag_action == "llm" and self.llm is not None:
            res.llm = getattr(getattr(self.llm, "config", None), "label", "llm")
            try:
                verdicts = self.ask_llm(soft, full_text)
            except Outage:  # a configured endpoint that is unreachable: the document fails (runner keeps last good)
                raise
            except Exception as exc:  # LLMError or a malformed reply: keep them weak, say so
                res.llm_error = str(exc)
                log.warning(
                    f"[StructureNumberingGate] Doc '{doc_id}': LLM confirmation failed, "
                    f"SOFT_FLAG candidates kept as weak markers: {exc}"
                )
        for c in soft:
            c.is_weak_candidate = True
            if c.value in verdicts:
                keep, why = verdicts[c.value]
                c.action, c.kept = ("llm_keep" if keep else "llm_reject"), keep
                c.structure_risk_reason += f"; LLM: {'keep' if keep else 'reject'} ({why})"
                (res.kept if keep else res.rejected).append(c)
            else:
                c.action, c.kept = "weak", True
                if res.llm and not res.llm_error:
                    c.structure_risk_reason += "; LLM gave no verdict, kept weak"
                res.kept.append(c)

    def ask_llm(self, soft: Sequence[MarkerCandidate], full_text: str) -> dict[str, tuple[bool, str]]:
        """One chat call for the document's SOFT_FLAG candidates → {value: (keep, reason)}."""
        lines = full_text.split("\n")
        items = []
        for c in soft:
            contexts = []
            for ln in sorted(set(c.lines))[:3]:
                lo, hi = max(0, ln - 2), min(len(lines), ln + 1)  # the line and its neighbours
                contexts.append("\n".join(x.strip() for x in lines[lo:hi] if x.strip())[:400])
            items.append(
                {
                    "value": c.value,
                    "S1": c.s1_sequence,
                    "S2": bool(c.s2_position),
                    "S3": bool(c.s3_prefix_numbered),
                    "occurrences": c.occurrences,
                    "pages_covered": c.pages_covered,
                    "context_lines": contexts,
                }
            )
        reply = self.llm.chat_json(
            [
                {"role": "system", "content": LLM_SYSTEM_PROMPT},
                {"role": "user", "content": json.dumps({"candidates": items}, ensure_ascii=False)},
            ]
        )
        decisions = reply.get("decisions") if isinstance(reply, dict) else None
        if not isinstance(decisions, list):
            raise ValueError(f"LLM reply has no 'decisions' list: {str(reply)[:200]}")
        wanted = {c.value for c in soft}
        out: dict[str, tuple[bool, str]] = {}
        for d in decisions:
            if isinstance(d, dict) and d.get("value") in wanted and isinstance(d.get("keep"), bool):
                out[d["value"]] = (d["keep"], str(d.get("reason", ""))[:200])
        return out

    def apply_fallback_if_silent(
        self,
        final_markers: list[MarkerCandidate],
        rejected: list[MarkerCandidate],
        doc_id: str,
        log: _Log | None = None,
    ) -> list[MarkerCandidate]:
        """If every marker was rejected, keep the top K by (occurrences, pages_covered), tagged FALLBACK."""
        log = log or self.log
        if final_markers or not rejected:
            return final_markers
        log.warning(
            f"[StructureNumberingGate] Doc '{doc_id}' silencieux (silent). Rejected: {[c.value for c in rejected]}"
        )
        fallback = sorted(rejected, key=lambda c: (c.occurrences, c.pages_covered), reverse=True)[
            : self.config.fallback_max_markers
        ]
        for m in fallback:
            m.structure_fallback = True
            m.structure_risk = FALLBACK
            m.action, m.kept = "fallback", True
        log.info(f"[StructureNumberingGate] Fallback markers: {[m.value for m in fallback]}")
        return fallback

    def run(
        self, candidates: Sequence[MarkerCandidate], full_text: str, doc_id: str = "", log: _Log | None = None
    ) -> GateResult:
        """filter_candidates, then the silent-document fallback."""
        res = self.filter_candidates(candidates, full_text, doc_id, log)
        final = self.apply_fallback_if_silent(res.kept, res.rejected, doc_id, log)
        if final is not res.kept:
            res.fallback_used = True
            res.kept = final
            res.rejected = [c for c in res.rejected if not c.structure_fallback]
        return res
