"""run_document on adversarial documents: no step crashes and every asset check rule holds.

The rules are the ones the Dagster checks run (checks.py and the CHECKS of assets/*.py),
applied here to the frames of ``run_document`` (rule-based math NER, no LLM, no Wikidata,
the small shipped WordNet lexicon).
"""

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textguard_pipeline.citations import defs as a_cit
from textguard_pipeline.core.citations import CitationParser
from textguard_pipeline.core.markers import CandidateMiner, StructureGateConfig, occurrences_frame
from textguard_pipeline.core.math_ner import RuleBasedExtractor
from textguard_pipeline.core.meanings import default_suppressions_path
from textguard_pipeline.core.protection import TermProtectionConfig, TermProtector
from textguard_pipeline.defs_kit import checks
from textguard_pipeline.ingest import rules as ingest_rules
from textguard_pipeline.markers import defs as a_mark
from textguard_pipeline.math_ner import defs as a_ner
from textguard_pipeline.meanings import defs as a_mean
from textguard_pipeline.meanings.resolver import build_resolver
from textguard_pipeline.pipeline import (
    ASSETS,
    Components,
    MeaningsSettings,
    build_citation_maps,
    build_gated_markers,
    build_ner_frames,
    build_parsed_chunks,
    build_protected_chunks,
    find_markers,
    make_gate,
    parse_chunks,
    run_document,
)
from textguard_pipeline.protection import defs as a_prot

from .meanings._wordnet_mini import mini_wordnet

#: asset → the rules of its (error-severity) checks
RULES = {
    "parsed_chunks": [ingest_rules.chunk_tiling_rule],
    "protected_chunks": [a_prot._restoration_rule, checks.char_range_rule, a_prot._term_ranges_rule],
    "ner_frames": [checks.char_range_rule, a_ner.schema_rule],
    "citation_maps": [checks.char_range_rule, a_cit.sentence_rule],
    "candidate_markers": [checks.char_range_rule],
    "gated_markers": [checks.char_range_rule, a_mark._decision_rule],
    "resolved_meanings": [
        checks.char_range_rule,
        a_mean._meaning_id_rule,
        a_mean._suppression_rule,
        a_mean._merge_key_rule,
    ],
}

PROSE = "The encryption of a message needs a key. Thomas Aquinas proposed Method 2 in Section 3 [1]."

FRAGMENTS = {
    "crlf": "First line.\r\nSecond line [2].\r\n\r\n# Heading\r\nText with $x+1$ and Table 4.\r\n",
    "lone_cr": "First line.\rSecond line [2].\r\rParagraph two with Figure 3.\r",
    "bom": "\ufeffStarts with a BOM. Step 1 then Step 2.",
    "nul_controls": "NUL\x00here, bell\x07, escape\x1b[0m, DEL\x7f, \x01\x02\x03 and C1 \x85\x9f end.",
    "tabs_ff": "Col\tumn\t1\n\x0cNew page\x0c\vvertical tab\n\tindented [3]\n",
    "line_separators": "one\u2028two\u2029three\x85four\x1cfive\x1dsix\x1eseven [1].",
    "zero_width": "zero\u200bwidth\u200cjoin\u200d word\u2060 and e\u0301\u0301\u0301 combining a\u0308 Method\u00a02",
    "rtl": "\u202eRTL override\u202c and עברית טקסט and العربية نص [1] ثم الفصل 3.",
    "emoji": "Emoji 😀🎉 and astral 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math 𝑥 = 2 + 2 = 4 𐍈 and flags 🇵🇱 [1].",
    "nested": "(" * 500 + "[" * 300 + "{" * 300 + "deep" + "}" * 250 + "]" * 280 + ")" * 10,
    "unbalanced_close": ")" * 200 + "]]]}}}" + "\\end{itemize}" + "$$",
    "unclosed_dollar": "Cost is $5 and then $x + unclosed to the end",
    "unclosed_begin": "\\begin{equation} a = b \n\n more text \\begin{",
    "unclosed_fence": "```python\nprint('hi')\n\nno close [1]\n",
    "unclosed_comment": "<!-- comment never closed\n\nStep 1.",
    "many_citations": "[1]" * 3000 + " [2, 3] [4-6]",
    "digits_punct": "1.2.3.4 -- 5,6;7:8 !!! ??? 10/11/12 (13) [14] {15} 16% 17° 18'19\"",
    "placeholders": "Literal ⟨TERM_001⟩ and ⟨MATH_000⟩ and ⟨CODE_003⟩ ⟨LIT_000⟩ lone ⟨ ⟩ ⟨ and ⟩ ⟨TERM_⟩",
    "polish": "Zażółć gęślą jaźń. Rozdział 3 opisuje Metodę 2 [1]. Łódź i Kraków.",
    "cyrillic": "Съешь же ещё этих мягких французских булок. Глава 5, Таблица 2 [2].",
    "cjk": "这是中文文本。第3章介绍方法2。日本語のテキスト、表4。한국어 텍스트 [1].",
    "md_mix": (
        "# Title\n\n- item 1\n- item 2\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quote $$x$$\n\n"
        "    indented code\n\n`code ⟨MATH_000⟩` and ``double`` ` lone\n"
    ),
    "tex_mix": (
        "\\section{Intro} \\cite{a} \\( x \\) \\[ y \\] % comment\n\\begin{itemize}\\item One\\end{itemize}\n"
        "\\verb|x$| $$ z $$ \\\\ \\$ escaped"
    ),
    "only_newlines": "\n\n\n\r\n\r\r\n",
    "nonchars": "text \U0010ffff \ufffe \uffff private \ue000 end",
    "arith": "Compute 2 + 2 = 5. Then 3 × 4 = 12 and 10 / 0 = 1 and 99999999999999999999 * 9 = 1.",
    "refs": "Claim [1] and [7].\n\nReferences\n[1] A. Author. Title.\n[2] B. Author.\n",
}
FORMATS = ("md", "tex", "txt")


def violations(frames: dict[str, pd.DataFrame], corpus) -> list[tuple[str, str, dict]]:
    """Every failing row of every check rule over one document's frames."""
    src = frames["source_documents"]
    doc_id, text = src.iloc[0]["doc_id"], src.iloc[0]["text"]
    out = [
        ("source_documents", "readable", dict(f))
        for f in ingest_rules.source_rule_factory(lambda: str(corpus))(doc_id, src, None)
    ]
    for asset, rules in RULES.items():
        if asset in frames:
            for rule in rules:
                out += [(asset, rule.__name__, dict(f)) for f in rule(doc_id, frames[asset], text)]
    return out


@pytest.fixture(scope="module")
def comps(tmp_path_factory):
    with mini_wordnet(str(tmp_path_factory.mktemp("wn"))):
        resolver = build_resolver(MeaningsSettings(wikidata_mode="off", suppressions_path=default_suppressions_path()))
        # StructureGateConfig(): no LLM endpoint, SOFT_FLAG candidates stay weak markers
        yield Components(
            protector=TermProtector(TermProtectionConfig(use_ner=True)),
            ner_backend=RuleBasedExtractor(),
            gate=make_gate(StructureGateConfig(soft_flag_action="weak_marker")),
            resolver=resolver,
        )


def run(tmp_path, comps, name: str, text: str) -> dict[str, pd.DataFrame]:
    (tmp_path / name).write_text(text, encoding="utf-8", newline="")
    frames = run_document(tmp_path / name, tmp_path, comps)
    assert list(frames) == list(ASSETS), name
    assert frames["source_documents"].iloc[0]["text"] == text
    bad = violations(frames, tmp_path)
    assert not bad, (name, bad[:5])
    return frames


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("frag", sorted(FRAGMENTS))
def test_adversarial_fragment_in_prose(tmp_path, comps, frag, fmt):
    run(tmp_path, comps, f"{frag}.{fmt}", f"{PROSE}\n\n{FRAGMENTS[frag]}\n\n{PROSE}\n")


@pytest.mark.parametrize("fmt", FORMATS)
def test_fragments_alone_and_empty_documents(tmp_path, comps, fmt):
    for frag, text in sorted(FRAGMENTS.items()):
        run(tmp_path, comps, f"{frag}_bare.{fmt}", text)
    for name, text in (("empty", ""), ("blank", "  \n\t\n \r\n "), ("bom_only", "\ufeff")):
        frames = run(tmp_path, comps, f"{name}.{fmt}", text)
        assert frames["resolved_meanings"].empty and frames["citation_maps"].empty


def test_long_line_without_newline(tmp_path, comps):
    line = ("word Section 3 encryption key [1] " * 4000)[:100_000]
    frames = run(tmp_path, comps, "long_line.txt", line)
    # issue 46: a line of 100,000 characters is cut at word boundaries into prose chunks of at most 4,000
    chunks = frames["parsed_chunks"]
    assert len(chunks) == 26 and chunks["text"].str.len().max() <= 4000 and "".join(chunks["text"]) == line
    assert len(frames["citation_maps"]) > 0


@pytest.mark.timeout(
    600
)  # a hang guard (took ≈ 2 min before spacy_input, minutes more per 10× input), not a speed target
def test_long_symbol_runs_stay_fast(tmp_path, comps):
    """spaCy's tokenizer is O(n²) on a run of prefix/suffix symbols; both spaCy steps must not be."""
    text = PROSE + "\n\n" + "(" * 20_000 + " " + "=" * 20_000 + "\n\n" + "😀" * 5_000 + "_" * 5_000 + "\n\n" + PROSE
    frames = run(tmp_path, comps, "symbols.md", text)
    assert "Thomas Aquinas" in set(frames["resolved_meanings"]["text"])


def test_two_megabyte_document_cheap_assets(comps):
    """2 MB through the rule-based assets (the spaCy ones are linear and covered by the corpus sweep)."""
    unit = PROSE + "\n\n" + FRAGMENTS["md_mix"] + "\n" + FRAGMENTS["arith"] + " Table 4 [2].\n\n"
    text = unit * (2_000_000 // len(unit) + 1)
    frames = cheap_frames(text, "md", ner_on=False)
    for asset, df in frames.items():
        for rule in RULES[asset]:
            assert not list(rule("big", df, text)), (asset, rule.__name__)
    assert len(frames["citation_maps"]) > 10_000 and len(frames["ner_frames"]) > 10_000


# ---------------------------------------------------------------------------
# Composed documents (hypothesis): the cheap assets

_TP_OFF = TermProtector(TermProtectionConfig(use_ner=False))
_PARSER, _MINER, _NER = CitationParser(), CandidateMiner(), RuleBasedExtractor()
_GATE = make_gate(StructureGateConfig(soft_flag_action="weak_marker"))
_tp_on: list[TermProtector] = []


def cheap_frames(text: str, fmt: str, ner_on: bool) -> dict[str, pd.DataFrame]:
    if ner_on and not _tp_on:
        _tp_on.append(TermProtector(TermProtectionConfig(use_ner=True)))
    chunks = parse_chunks(text, fmt)
    occ = find_markers(text, chunks, _MINER)
    return {
        "parsed_chunks": build_parsed_chunks("d", text, fmt),
        "protected_chunks": build_protected_chunks("d", chunks, _tp_on[0] if ner_on else _TP_OFF),
        "ner_frames": build_ner_frames("d", chunks, _NER)[0],
        "citation_maps": build_citation_maps("d", text, chunks, None, _PARSER)[0],
        "candidate_markers": occurrences_frame("d", occ),
        "gated_markers": build_gated_markers("d", text, occ, _GATE),
    }


_ATOMS = st.sampled_from(
    [f for f in FRAGMENTS.values() if len(f) < 2000]
    + [
        PROSE,
        "$",
        "$$",
        "`",
        "```",
        "~~~",
        "\n",
        "\r",
        "\r\n",
        "\\begin{",
        "\\end{",
        "{",
        "}",
        "[",
        "]",
        "[1]",
        "[2-4]",
        "⟨",
        "⟩",
        "⟨TERM_001⟩",
        "⟨MATH_000⟩",
        "<!--",
        "-->",
        "\\",
        "%",
        "#",
        "Table 4",
        "Step 2",
        "Figure 1",
        " ",
        "\t",
        "\x00",
        "\ufeff",
        "é",
        "😀",
        "2 + 2 = 4",
        "x = 3",
        "References\n[1] A.\n",
        "    ",
        "- ",
        "1. ",
        "|",
        "\\(",
        "\\)",
        "\\[",
        "\\]",
        "\x0c",
        "\u2028",
        "\x85",
        "\u0301",
        "\\section{",
        "\\item",
        "\\verb|",
        "\\cite{",
        "Section",
        "a",
        "1",
    ]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ATOMS, max_size=25).map("".join), st.sampled_from(FORMATS), st.integers(0, 9))
def test_composed_documents_keep_every_invariant(text, fmt, k):
    frames = cheap_frames(text, fmt, ner_on=k == 0)  # spaCy NER on about one document in ten
    bad = [(a, r.__name__, f) for a, df in frames.items() for r in RULES[a] for f in r("d", df, text)]
    assert not bad, bad[:3]
