"""Frame builders of the rule-based extractor: sentences, formula chains, ARITH_EXAMPLE / PROPERTY /
PROCEDURE / DEFINITION frames read from resolved entities."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from .arith import apply_op, json_number, same
from .lexicons import _GAP_OK_RE, _NEGATION_RE, _RESULT_CONCEPTS, _UNIT_GAP_RE, _ZERO_RE, _Cand
from .schemas import ArithExampleFrame, DefinitionFrame, ProcedureFrame, PropertyFrame

# Sentence ends: . ! ? ; before whitespace, a blank line, a line ending in ":", a line break before a
# list item. A plain line break is a soft wrap (hard-wrapped text such as RFCs), not an end.
_SENT_END_RE = re.compile(
    r"(?<=[.!?;])\s+|\n[ \t]*\n\s*|(?<=:)[ \t]*\n\s*"
    r"|\n(?=[ \t]*(?:\d{1,3}[.)]|[-*•+]|[a-z][.)])[ \t])"
)


def _sentence_start(text: str, pos: int) -> int:
    start = 0
    for m in _SENT_END_RE.finditer(text, 0, pos):
        start = m.end()
    return start


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of sentences: split at . ! ? ; followed by space, and at line ends."""
    out, pos = [], 0
    for m in _SENT_END_RE.finditer(text):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if pos < len(text):
        out.append((pos, len(text)))
    return [(s, e) for s, e in out if text[s:e].strip()]


_COPULA_GAP_RE = re.compile(r"[ \t$)]*\s(?:is|are|was|will be|jest|są|będzie)\s+", re.I)


def _gap_ok(text: str, a: int, b: int, before_relation: bool = False, unit_before_symbol: bool = False) -> bool:
    """Only formula glue between two tokens (a copula may precede a relation: "7 jest równe")."""
    if b < a or "\n\n" in text[a:b]:
        return False
    if _GAP_OK_RE.fullmatch(text, a, b) is not None:
        return True
    if unit_before_symbol and _UNIT_GAP_RE.fullmatch(text, a, b) is not None:
        return True  # "4 * 20 sheep = 80"
    return before_relation and _COPULA_GAP_RE.fullmatch(text, a, b) is not None


def _chains(text: str, ents: list[_Cand]) -> list[list[_Cand]]:
    """Alternating operand / operator-or-relation runs: "3 + 4 = 7", "x < 5"."""
    chains: list[list[_Cand]] = []
    cur: list[_Cand] = []
    for c in ents:
        is_operand = c.type in ("NUMBER", "VARIABLE")
        is_op = c.type in ("OPERATION", "RELATION")
        if cur and _gap_ok(
            text,
            cur[-1].end,
            c.start,
            c.type == "RELATION",
            cur[-1].type == "NUMBER" and is_op and not text[c.start].isalpha(),
        ):
            want_operand = cur[-1].type in ("OPERATION", "RELATION")
            if (want_operand and is_operand) or (not want_operand and is_op):
                cur.append(c)
                continue
        if cur:
            chains.append(cur)
        cur = [c] if is_operand else []
    if cur:
        chains.append(cur)
    out = []
    for ch in chains:
        while ch and ch[-1].type not in ("NUMBER", "VARIABLE"):
            ch = ch[:-1]
        if len(ch) >= 3:
            out.append(ch)
    return out


def _apply(op: str, operands: list[Any]) -> Fraction | None:
    return apply_op(op, operands)


def _same(a: Any, b: Any) -> bool:
    return a is not None and b is not None and same(a, b)


def _num(v: Fraction) -> int | float | str:
    return json_number(v)


def _build_frames(text: str, ents: list[_Cand]) -> tuple[list[Any], list[str]]:
    frames: list[Any] = []
    unmapped: list[str] = []
    frames += _arith_frames(text, ents, unmapped)
    frames += _result_concept_frames(text, ents)
    frames += _property_frames(text, ents)
    frames += _procedure_frames(text, ents)
    frames += _definition_frames(text, ents)
    frames.sort(key=lambda f: (f.start or 0, f.end or 0))
    return frames, unmapped


def _arith_frames(text: str, ents: list[_Cand], unmapped: list[str]) -> list[Any]:
    out = []
    for ch in _chains(text, ents):
        rels = [c for c in ch if c.type == "RELATION"]
        if not rels or any(r.canonical != "eq" for r in rels):
            continue
        sides: list[list[_Cand]] = [[]]
        for c in ch:
            if c.type == "RELATION":
                sides.append([])
            else:
                sides[-1].append(c)
        if any(c.type == "VARIABLE" for side in sides for c in side):
            continue  # algebra, not an arithmetic example
        exprs = []
        for i, side in enumerate(sides):
            ops = {c.canonical for c in side if c.type == "OPERATION"}
            if not ops:
                continue
            if len(ops) > 1:
                unmapped.append(text[side[0].start : side[-1].end])
                continue
            op = ops.pop()
            operands = [c.value for c in side if c.type == "NUMBER"]
            # the stated result is the number next to the expression: "3 + 4 = 7", "7 = 3 + 4",
            # "f(4) = 0,9 + 0,8 = 1,7"
            near = [sides[j][0].value for j in (i + 1, i - 1) if 0 <= j < len(sides) and len(sides[j]) == 1]
            exprs.append((op, operands, _apply(op, operands), near[0] if near else None))
        if not exprs:
            continue
        span = (ch[0].start, ch[-1].end)
        for op, operands, value, stated in exprs:
            if stated is not None:
                result = stated
                correct = _same(value, result)
            else:
                result = _num(value) if value is not None else "undefined"
                correct = value is not None and all(_same(value, v) for _, _, v, _ in exprs)
            out.append(
                ArithExampleFrame(
                    frame_type="ARITH_EXAMPLE",
                    operation=op,
                    operands=operands,
                    result=result,
                    correct=correct,
                    start=span[0],
                    end=span[1],
                )
            )
    return out


_OF_RE = re.compile(r"\s+(?:of|of the numbers|liczb|z)\s+|\s+", re.I)
_AND_RE = re.compile(r"\s+(?:and|i|oraz)\s+|\s*,\s*", re.I)


def _result_concept_frames(text: str, ents: list[_Cand]) -> list[Any]:
    """ "the sum of 3 and 4 is 7", "Iloczyn liczb 6 i 7 to 42"."""
    out = []
    for i, c in enumerate(ents):
        if c.type != "CONCEPT" or c.canonical not in _RESULT_CONCEPTS or i + 4 >= len(ents):
            continue
        a, b, rel, res = ents[i + 1 : i + 5]
        if not (a.type == b.type == res.type == "NUMBER" and rel.type == "RELATION" and rel.canonical == "eq"):
            continue
        if not (
            _OF_RE.fullmatch(text, c.end, a.start)
            and _AND_RE.fullmatch(text, a.end, b.start)
            and re.fullmatch(r"\s*,?\s*", text[b.end : rel.start])
            and re.fullmatch(r"\s*", text[rel.end : res.start])
        ):
            continue
        op = _RESULT_CONCEPTS[c.canonical]
        value = _apply(op, [a.value, b.value])
        out.append(
            ArithExampleFrame(
                frame_type="ARITH_EXAMPLE",
                operation=op,
                operands=[a.value, b.value],
                result=res.value,
                correct=_same(value, res.value),
                start=c.start,
                end=res.end,
            )
        )
    return out


_CLAUSE_RE = re.compile(
    r",\s*(?:and|but|while|whereas|a|ale|zaś|oraz|natomiast)?\s+"
    r"|\s+(?:whereas|while|natomiast|zaś)\s+",
    re.I,
)


def _property_frames(text: str, ents: list[_Cand]) -> list[Any]:
    """PROPERTY frames: a property word and the operation it is said of (same clause first)."""
    out = []
    for s, e in sentences(text):
        inside = [c for c in ents if s <= c.start < e]
        ops = [c for c in inside if c.type == "OPERATION"]
        if not ops:
            continue
        cuts = [s] + [m.end() for m in _CLAUSE_RE.finditer(text, s, e)] + [e]
        seen = set()
        for p in (c for c in inside if c.type == "PROPERTY"):
            lo = max(x for x in cuts if x <= p.start)
            hi = min(x for x in cuts if x > p.start)
            pool = [o for o in ops if lo <= o.start < hi] or ops
            before = [o for o in pool if o.end <= p.start]
            subj = before[-1] if before else min(pool, key=lambda o: abs(o.start - p.end))
            name = p.canonical
            if name == "identity" and _ZERO_RE.search(text, s, e):
                name = "zero_neutral"
            a, b = (subj.end, p.start) if subj.start < p.start else (max(lo, p.start - 20), p.start)
            negated = bool(_NEGATION_RE.search(text[a:b]))
            key = (subj.canonical, name)
            if key in seen:
                continue
            seen.add(key)
            out.append(
                PropertyFrame(
                    frame_type="PROPERTY",
                    subject=subj.canonical,
                    property_name=name,
                    value=not negated,
                    start=min(subj.start, p.start),
                    end=max(subj.end, p.end),
                )
            )
    return out


_ITEM_RE = re.compile(r"^([ \t]*(?:\d{1,3}[.)]|[-*•+]|[a-z][.)])[ \t]+)(.*\S)[ \t]*$")


def _procedure_frames(text: str, ents: list[_Cand]) -> list[Any]:
    """An intro line holding an operation word and ending with ":" followed by ≥ 2 list items."""
    lines = []
    pos = 0
    for ln in text.split("\n"):
        lines.append((pos, pos + len(ln), ln))
        pos += len(ln) + 1
    out = []
    k = 0
    while k < len(lines):
        ls, le, ln = lines[k]
        if not ln.rstrip().endswith(":") or _ITEM_RE.match(ln):
            k += 1
            continue
        ops = [c for c in ents if ls <= c.start < le and c.type == "OPERATION" and text[c.start].isalpha()]
        steps: list[tuple[int, int, str]] = []
        q = k + 1
        while q < len(lines):
            qs, qe, qln = lines[q]
            m = _ITEM_RE.match(qln)
            if m:
                st = qs + len(m.group(1))
                step = m.group(2).rstrip(" .;,")
                steps.append((st, st + len(step), step))
                q += 1
            elif not qln.strip() and q + 1 < len(lines) and _ITEM_RE.match(lines[q + 1][2]):
                q += 1
            else:
                break
        if ops and len(steps) >= 2:
            ls_content = ls + (len(ln) - len(ln.lstrip()))
            out.append(
                ProcedureFrame(
                    frame_type="PROCEDURE",
                    operation=ops[0].canonical,
                    steps=[s[2] for s in steps],
                    start=ls_content,
                    end=steps[-1][0] + len(text[steps[-1][0] : lines[q - 1][1]].rstrip()),
                )
            )
            k = q
        else:
            k += 1
    return out


_DET_RE = re.compile(r"^(?:a|an|the|each|every)\s+", re.I)
_CALLED_RE = re.compile(r"^(?P<x>.+?)\s+(?:is|are)\s+(?:called|known as|named)\s+(?P<y>.+)$", re.I)
_PL_CALLED_RE = re.compile(r"^(?P<x>.+?)\s+(?:nazywamy|nazywa się|nazywają się|to inaczej)\s+(?P<y>.+)$", re.I)
_MEANS_RE = re.compile(
    r"^(?P<x>.+?)\s+(?:means|mean|is defined as|are defined as|refers to|oznacza|oznaczają)"
    r"\s+(?P<y>.+)$",
    re.I,
)
_COPULA_RE = re.compile(r"^(?P<x>.+?)\s+(?P<cop>is|are|to|jest|są)\s+(?P<y>.+)$", re.I)
# Operation words that can head a definition (nouns, not verbs: "added to ..." is no definition).
_OP_NOUN_RE = re.compile(
    r"(?:addition|subtraction|multiplication|division|dodawanie|odejmowanie|mnożenie"
    r"|dzielenie)",
    re.I,
)
_POLISH_WORD_RE = re.compile(r".*(?:[ąćęłńóśźż].*|anie|enie|a|ą|ę|y|ek|ik|yn|az)", re.I)
_NOT_DEFINITION_START = re.compile(r"^(?:not|nie|also|też|także|always|zawsze|never|nigdy|called|equal|równ)", re.I)


def _definition_frames(text: str, ents: list[_Cand]) -> list[Any]:
    out = []
    for s, e in sentences(text):
        seg = text[s:e]
        lead = _ITEM_RE.match(seg)
        off = s + (len(lead.group(1)) if lead else len(seg) - len(seg.lstrip()))
        body = text[off:e].rstrip()
        body_core = body.rstrip(".!")
        if not body_core or any(
            c.type == "RELATION" and not text[c.start].isalpha() for c in ents if off <= c.start < e
        ):
            continue
        inside = [c for c in ents if off <= c.start < off + len(body_core)]

        def head_entity(a: int, b: int) -> _Cand | None:
            """The OPERATION/CONCEPT entity opening text[a:b] (after a determiner)."""
            seg_txt = text[a:b]
            det = _DET_RE.match(seg_txt)
            first = a + (det.end() if det else 0)
            for c in inside:
                if c.start == first and c.type in ("OPERATION", "CONCEPT"):
                    return c
            return None

        frame = None
        for rx, swapped in ((_CALLED_RE, True), (_PL_CALLED_RE, True), (_MEANS_RE, False), (_COPULA_RE, False)):
            m = rx.match(body_core)
            if not m:
                continue
            xs, xe = off + m.start("x"), off + m.end("x")
            ys, ye = off + m.start("y"), off + m.end("y")
            if swapped:  # "X is called Y": Y is the term, X its definition
                term_c = head_entity(ys, ye)
                y_words = _DET_RE.sub("", text[ys:ye]).split()
                if term_c is not None:
                    term = term_c.canonical
                elif 1 <= len(y_words) <= 3 and all(w.isalpha() for w in y_words):
                    term = "_".join(w.lower() for w in y_words)
                else:
                    continue
                if not any(c.type in ("OPERATION", "CONCEPT") for c in inside if xs <= c.start < xe):
                    continue
                frame = (term, xs, xe)
            else:
                x_txt = text[xs:xe]
                if len(x_txt.split()) > 5 or re.search(r"[\d,;:]", x_txt) or _NEGATION_RE.search(x_txt):
                    continue
                term_c = head_entity(xs, xe)
                if term_c is None:
                    continue
                head = text[term_c.start : term_c.end]
                if term_c.type == "OPERATION" and not _OP_NOUN_RE.fullmatch(head):
                    continue
                if "cop" in m.groupdict() and m.group("cop").lower() == "to" and not _POLISH_WORD_RE.fullmatch(head):
                    continue  # "X to Y" is a Polish copula only
                y_txt = text[ys:ye]
                y_ents = [c for c in inside if ys <= c.start < ye]
                if _NOT_DEFINITION_START.match(y_txt) or re.match(r"^\W*\d", y_txt):
                    continue
                if (
                    y_ents
                    and y_ents[0].type in ("PROPERTY", "NUMBER", "RELATION")
                    and not _DET_RE.sub("", text[ys : y_ents[0].start] + " ").strip()
                ):
                    continue  # "Addition is commutative", "The sum is 7", "an associative operation"
                frame = (term_c.canonical, ys, ye)
            break
        if frame is not None:
            term, ds, de = frame
            out.append(
                DefinitionFrame(
                    frame_type="DEFINITION", term=term, definition=text[ds:de], start=off, end=off + len(body_core)
                )
            )
    return out
