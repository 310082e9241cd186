"""Property: for arbitrary protected chunks and arbitrary manglings of the tokens and of the text around them
(through the stand-in), a row either holds every original as often as required with no placeholder residue
of any shape, no preface or fence, a visible length inside the band and every exposed number unchanged, or
is a fallback equal to the source."""

import uuid

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textguard_pipeline.lib.llm import ChatClient, LLMConfig
from textguard_pipeline.lib.placeholder_audit import find_tokens, originals_kept, residue
from textguard_pipeline.lib.placeholders import make_placeholder, restore_placeholders
from textguard_pipeline.roundtrip import RewriteItem, RoundTrip
from textguard_pipeline.roundtrip.answer_rules import SLACK_HIGH, SLACK_LOW, exposed
from textguard_pipeline_tests.standin.mangle import KINDS, REPAIRABLE, TEXT_REPAIRABLE

EXAMPLES = 2000  # the time is the stand-in round trips: 76 s measured with 8 agents on 2 cores (load average 11)
# Source words include text that looks like a mangled placeholder: it must never be "repaired" or lost.
WORDS = [
    "the",
    "model",
    "reaches",
    "Smith",
    "(2024)",
    "50%",
    "x>y",
    "a<b",
    "TERM_001",
    "[TERM_1]",
    "<MATH_0>",
    "⟨term_000⟩",
    "MATH_000s",
    "data.",
    "results!",
    "really?",
    "é",
    "—",
    "1,000",
]
ORIGINAL = st.text(alphabet="abcXYZ019 ()%$^_.,&-", min_size=1, max_size=12).filter(lambda s: s.strip() == s and s)


@st.composite
def chunks(draw):
    originals = draw(st.lists(ORIGINAL, min_size=1, max_size=5, unique=True))
    n_math = draw(st.integers(0, min(2, len(originals) - 1)))
    mapping = {}
    for i, o in enumerate(originals):
        ns, n = ("MATH", i) if i < n_math else ("TERM", i - n_math)
        mapping[make_placeholder(ns, n)] = o
    keys = list(mapping)
    parts = draw(st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(keys)), min_size=1, max_size=24))
    for k in keys:  # every issued placeholder occurs at least once
        if k not in parts:
            parts.insert(draw(st.integers(0, len(parts))), k)
    protected = " ".join(parts)
    text = restore_placeholders(protected, mapping)
    return RewriteItem(protected, mapping, text, "prop", 0, 0, len(text))


@pytest.fixture(scope="module")
def http(standin):
    """One kept-alive connection for every example; the mangling kinds travel in the model name."""
    standin.script({"POST /v1/chat/completions": [{"mangle": {"by_model": True}}]})
    with httpx.Client(timeout=30) as c:
        yield c


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)
@given(
    item=chunks(),
    kinds=st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=3),
    chunk_chars=st.sampled_from([4000, 4000, 200]),
)
def test_no_term_is_lost_without_a_fallback(standin, http, item, kinds, chunk_chars):
    model = f"stand-in:{','.join(kinds)}:{uuid.uuid4().hex}"  # no HTTP retries: only the round trip's attempts
    client = ChatClient(LLMConfig(base_url=f"{standin.base_url}/v1", model=model, max_retries=0), client=http)
    r = RoundTrip(client, "paraphrase", max_attempts=3, chunk_chars=chunk_chars, concurrency=1).rewrite(item)
    if r.status == "fallback":
        assert r.rewritten_text == item.text
    else:
        assert originals_kept(r.rewritten_text, item.protected_text, dict(item.placeholders)) == []
        assert residue(r.rewritten_text, item.text) == []
        assert r.attempts <= 3 and (r.status == "retried") == (r.attempts > 1)
        out, src = r.rewritten_text, item.text
        assert "Here is the paraphrase" not in out and "I hope this helps" not in out and "```" not in out
        assert 0.5 * len(src) - SLACK_LOW <= len(out) <= 2.0 * len(src) + SLACK_HIGH
        assert not exposed(src) - exposed(out)  # every exposed number / string still there
    if set(kinds) == {"none"}:
        assert (r.status, r.rewritten_text) == ("ok", item.text)
    if kinds[0] in {**REPAIRABLE, **TEXT_REPAIRABLE} and not find_tokens(item.text):
        assert r.attempts == 1  # a repairable first answer is accepted (when no source text makes it ambiguous)
