"""The round trip: protected chunk → model → audit → repair → retry → restore (or fall back).

Usable from a notebook::

    from textguard_pipeline.protection.protector import TermProtector
    from textguard_pipeline.lib.llm import ChatClient, LLMConfig
    from textguard_pipeline.roundtrip import RewriteItem, RoundTrip

    pc = TermProtector().protect_text("As shown by Smith (2024), accuracy is 95%.")
    rt = RoundTrip(ChatClient(LLMConfig("http://127.0.0.1:11434/v1", model="llama3.1")), "translate:German")
    result = rt.rewrite(RewriteItem.from_protected_chunk(pc))
    result.status, result.rewritten_text

Promise: ``rewritten_text`` holds every original of the chunk as often as the protected text asks and no
placeholder residue of any shape, or the row is a ``fallback`` whose ``rewritten_text`` is the source
text unchanged, with the reason in ``problems``. An endpoint that stays unreachable, times out or keeps
answering 5xx/429 after the client's retries (or a spent budget) raises :class:`RoundTripError`: that is
an outage, not a fallback.
"""

from __future__ import annotations

from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..lib.llm import ChatClient, ChatResult, LLMError
from ..lib.outage import outage_label
from ..lib.placeholder_audit import audit, originals_kept, residue, short
from ..lib.placeholders import PLACEHOLDER_RE, UnknownPlaceholderError, restore_placeholders
from .answer_rules import AnswerRules, text_findings
from .prompt import PROMPT_VERSION, build_messages, read_answer, stricter_note, task_instruction
from .split import split_text

STATUSES = ("ok", "repaired", "retried", "fallback")


class RoundTripError(RuntimeError):
    """The endpoint failed for good (unreachable, timeouts, 5xx/429 after retries, budget): no new rows
    (the document's earlier rows stay while still valid, defs_kit/last_good.py)."""

    def __init__(self, message: str, kind: str):
        self.kind = kind
        super().__init__(message)

    @property
    def outage(self) -> str | None:
        return outage_label(self.kind)


@dataclass(frozen=True)
class RewriteItem:
    """One protected prose chunk: the source slice, its protected text and the issued placeholders."""

    protected_text: str
    placeholders: Mapping[str, str]  # issued placeholder present in protected_text → original
    text: str  # the source slice (what a fallback returns)
    doc_id: str = ""
    chunk_index: int = 0
    start: int = 0
    end: int = 0

    @classmethod
    def from_protected_chunk(cls, pc: Any, doc_id: str = "") -> "RewriteItem":
        """From a ``protection.model.ProtectedChunk``."""
        c = pc.chunk
        return cls(pc.protected_text, dict(pc.placeholders()), c.source_text(), doc_id, c.index, c.start, c.end)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> "RewriteItem":
        """From a stored ``protected_chunks`` row (term + math maps restricted to what the text uses)."""
        merged = {**dict(row.get("math_placeholders") or {}), **dict(row.get("term_placeholders") or {})}
        present = {m.group(0) for m in PLACEHOLDER_RE.finditer(row["protected_text"])}
        return cls(
            row["protected_text"],
            {p: o for p, o in merged.items() if p in present},
            row["text"],
            str(row.get("doc_id", "")),
            int(row.get("chunk_index", 0)),
            int(row.get("start", 0)),
            int(row.get("end", 0)),
        )


@dataclass
class RewriteResult:
    item: RewriteItem
    rewritten_text: str
    status: str
    llm_output: str = ""
    attempts: int = 0
    repairs: list[dict[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    model: str = ""
    prompt_version: str = PROMPT_VERSION
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    pieces: int = 1
    cached: int = 0  # answers served from the response cache

    def row(self) -> dict[str, Any]:
        it = self.item
        return {
            "doc_id": it.doc_id,
            "chunk_index": it.chunk_index,
            "start": it.start,
            "end": it.end,
            "text": it.text,
            "protected_text": it.protected_text,
            "placeholders": dict(it.placeholders),
            "llm_output": self.llm_output,
            "rewritten_text": self.rewritten_text,
            "status": self.status,
            "attempts": self.attempts,
            "repairs": list(self.repairs),
            "problems": list(self.problems),
            "model": self.model,
            "prompt_version": self.prompt_version,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "latency_s": round(self.latency_s, 4),
            "pieces": self.pieces,
        }


@dataclass
class _Piece:
    ok: bool
    text: str = ""  # restored text of the piece (when ok)
    raw: str = ""
    attempts: int = 0
    repairs: list[dict[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class Verdict:
    """The audit of one answer: accepted (``restored`` set) or a failed attempt (``findings``)."""

    restored: str | None = None
    findings: list[str] = field(default_factory=list)  # why the attempt failed
    notes: list[str] = field(default_factory=list)  # accepted but worth recording (extra copies)
    repairs: list[dict[str, str]] = field(default_factory=list)
    lost: dict[str, int] = field(default_factory=dict)  # placeholder → how often it must appear

    @property
    def ok(self) -> bool:
        return self.restored is not None


def accept(
    content: str,
    piece: str,
    mapping: Mapping[str, str],
    issued: list[str],
    *,
    messages: list[dict[str, str]],
    finish_reason: str | None = None,
    refusal: str | None = None,
    rules: AnswerRules | None = None,
) -> Verdict:
    """The local half of an attempt, the one answer audit: unwrap, refusal/echo checks, prefaces and
    fences, counting and repair, the text rules (``answer_rules``), restore. Never raises on what a model
    wrote: everything it finds is a finding."""
    answer = read_answer(content, finish_reason=finish_reason, refusal=refusal, messages=messages, protected_text=piece)
    if answer.problem:
        return Verdict(findings=[answer.problem])
    a = audit(answer.text, piece, issued)
    v = Verdict(repairs=list(answer.repairs) + a.repairs, lost={p: a.expected[p] for p in a.lost})
    v.findings = [p for p in a.problems() if not p.startswith("extra copies")]
    v.notes = [p for p in a.problems() if p.startswith("extra copies")]
    known = {p: mapping[p] for p in issued}
    v.findings += text_findings(a.text, piece, known, rules or AnswerRules())
    if v.findings:
        return v
    try:
        v.restored = restore_placeholders(a.text, known, strict=True)
    except UnknownPlaceholderError as exc:  # residue the rules did not name: still a finding, not a crash
        v.findings.append(f"unknown placeholder(s): {', '.join(short(t) for t in exc.placeholders[:5])}")
    return v


def _size_cap(piece: str) -> int:
    """The most bytes an answer to ``piece`` may have: far above any honest rewrite (UTF-8, JSON escapes,
    a translation into a wordier script), far below what would exhaust memory."""
    return 256 * 1024 + 64 * len(piece.encode("utf-8"))


class RoundTrip:
    """Rewrites protected chunks through a chat client; one instance per run (thread-safe)."""

    def __init__(
        self,
        client: ChatClient,
        task: str,
        *,
        max_attempts: int = 3,
        chunk_chars: int = 4000,
        temperature: float = 0.0,
        concurrency: int | None = None,
        rules: AnswerRules | None = None,
    ):
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.client = client
        self.task = task
        self.instruction = task_instruction(task)
        self.max_attempts = max_attempts
        self.chunk_chars = chunk_chars
        self.temperature = temperature
        self.concurrency = concurrency or getattr(client.config, "concurrency", 4)
        self.rules = rules or AnswerRules.for_task(task)

    # -- one chunk ---------------------------------------------------------
    def rewrite(self, item: RewriteItem) -> RewriteResult:
        core = item.protected_text.strip()
        if not core:  # whitespace only: nothing to send
            return RewriteResult(item, item.text, "ok", model=self.client.config.model)
        lead = item.protected_text[: len(item.protected_text) - len(item.protected_text.lstrip())]
        trail = item.protected_text[len(item.protected_text.rstrip()) :]
        res = RewriteResult(item, item.text, "ok", model=self.client.config.model)
        pieces = split_text(core, self.chunk_chars)
        res.pieces = len(pieces)
        outs: list[str] = []
        raws: list[str] = []
        for i, (piece, sep) in enumerate(pieces):
            p = self._piece(
                piece, item.placeholders, res, label=f"piece {i + 1}/{len(pieces)}: " if len(pieces) > 1 else ""
            )
            raws.append(p.raw + sep)
            res.attempts = max(res.attempts, p.attempts)
            res.problems += p.problems
            if not p.ok:
                res.llm_output = "".join(raws)
                return self._fallback(res, f"no acceptable answer after {p.attempts} attempt(s)")
            res.repairs += p.repairs
            outs.append(p.text + sep)
        res.llm_output = "".join(raws)
        restored = lead + "".join(outs) + trail
        # Last line of defence: nothing placeholder-like left, every original present as often as required.
        left = residue(restored, item.text)
        short = originals_kept(restored, item.protected_text, dict(item.placeholders))
        if left or short:
            res.problems += [f"residue after restore: {t}" for t in left] + [f"original lost: {o!r}" for o in short]
            return self._fallback(res, "restored text failed the final guard")
        res.rewritten_text = restored
        res.status = "retried" if res.attempts > 1 else ("repaired" if res.repairs else "ok")
        return res

    def _fallback(self, res: RewriteResult, reason: str) -> RewriteResult:
        res.status = "fallback"
        res.rewritten_text = res.item.text
        res.repairs = []
        res.problems.append(f"fallback: {reason}; rewritten_text is the source text")
        return res

    def _piece(self, piece: str, mapping: Mapping[str, str], res: RewriteResult, label: str) -> _Piece:
        issued = [p for p in mapping if p in piece]
        out = _Piece(ok=False)
        note: str | None = None
        for attempt in range(1, self.max_attempts + 1):
            messages = build_messages(piece, self.instruction, note)
            verdicts: list[Verdict] = []

            def judge(reply: ChatResult, messages: list[dict[str, str]] = messages) -> bool:
                """Audit before the cache keeps an answer: a failed one is never replayed."""
                verdicts.append(
                    accept(
                        reply.content,
                        piece,
                        mapping,
                        issued,
                        messages=messages,
                        finish_reason=reply.finish_reason,
                        refusal=reply.refusal,
                        rules=self.rules,
                    )
                )
                return verdicts[-1].ok

            tag = f"{label}attempt {attempt}: "
            out.attempts = attempt
            try:
                reply = self.client.complete(
                    messages, temperature=self.temperature, keep=judge, max_response_bytes=_size_cap(piece)
                )
            except LLMError as exc:
                if exc.kind != "too_large":
                    raise RoundTripError(
                        f"{label}chunk {res.item.chunk_index} of {res.item.doc_id!r}: {exc}", exc.kind
                    ) from exc
                out.problems.append(tag + str(exc))  # what the model sent, not an outage: a failed attempt
                note = stricter_note({}, ["an answer far longer than the text"])
                continue
            out.raw = reply.content
            res.prompt_tokens += reply.prompt_tokens
            res.completion_tokens += reply.completion_tokens
            res.latency_s += reply.latency_s
            res.cached += int(reply.cached)
            res.model = reply.model or res.model
            v = verdicts[-1]
            out.problems += [tag + p for p in v.findings + v.notes]
            if v.ok:
                assert v.restored is not None
                out.ok, out.repairs, out.text = True, v.repairs, v.restored
                return out
            note = stricter_note(v.lost, [f for f in v.findings if not f.startswith("lost ")])
        return out

    # -- many chunks -------------------------------------------------------
    def rewrite_many(self, items: Iterable[RewriteItem]) -> list[RewriteResult]:
        """Rewrite chunks concurrently (results in input order). The first endpoint failure cancels the
        rest and raises :class:`RoundTripError`."""
        items = list(items)
        if len(items) <= 1 or self.concurrency <= 1:
            return [self.rewrite(it) for it in items]
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(items))) as pool:
            futures = [pool.submit(self.rewrite, it) for it in items]
            done, pending = wait(futures, return_when=FIRST_EXCEPTION)
            for f in done:
                if f.exception() is not None:
                    for p in pending:
                        p.cancel()
                    raise f.exception()  # type: ignore[misc]
            return [f.result() for f in futures]
