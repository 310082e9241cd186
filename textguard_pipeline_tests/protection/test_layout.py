"""The protection slice's shape: the old import path keeps every public name, the registry is
configuration-driven, and a new recogniser is one module plus one line of configuration."""

import importlib
import subprocess
import sys

import pytest

from textguard_pipeline.protection import (
    DEFAULT_RECOGNIZERS,
    RecognizerConfigError,
    TermProtectionConfig,
    TermProtector,
)
from textguard_pipeline.protection.recognizers.base import Recognizer
from textguard_pipeline.protection.registry import build_recognizers, recognizer_classes

#: the public names of textguard_pipeline.core.protection before the move (issue 12)
OLD_PUBLIC = [
    "CLOSE",
    "OPEN",
    "Candidate",
    "CitationRecognizer",
    "CustomTermRecognizer",
    "EmptyTextError",
    "InvalidCustomTermError",
    "LiteralRecognizer",
    "MissingPlaceholdersError",
    "NER_LABELS",
    "NerRecognizer",
    "NotProseChunkError",
    "NumberRecognizer",
    "PRIORITY",
    "PROTECTED_COLUMNS",
    "PlaceholderError",
    "ProtectedChunk",
    "ProtectedTerm",
    "ProtectionError",
    "RECOGNIZERS",
    "Recognizer",
    "SOURCES",
    "TERM_FIELDS",
    "TERM_NS",
    "TermProtectionConfig",
    "TermProtector",
    "UnknownPlaceholdersError",
    "apply_placeholders",
    "find_citations",
    "find_numbers",
    "keep_entity",
    "protected_frame",
    "restoration_failures",
    "restore_protected",
    "term_rows",
    "validate_custom_terms",
]


def test_old_module_keeps_every_public_name():
    old = importlib.import_module("textguard_pipeline.core.protection")
    missing = [n for n in OLD_PUBLIC if not hasattr(old, n)]
    assert missing == []
    assert old.TermProtector is TermProtector
    assert old.PRIORITY == old.SOURCES == ("literal", "markup", "citation", "custom", "markup_forms", "ner", "number")
    assert set(old.RECOGNIZERS) == set(old.PRIORITY)
    assert old.RECOGNIZERS["citation"](TermProtectionConfig(protect_citations=False)) is None


def test_library_modules_import_without_dagster():
    """The library side of the slice never imports Dagster (only defs.py does); checked in a fresh interpreter."""
    code = """
import importlib, pkgutil, sys
sys.modules["dagster"] = None  # `import dagster` now raises ImportError
import textguard_pipeline.protection as pkg
for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
    if info.name.rsplit(".", 1)[-1] != "defs":
        importlib.import_module(info.name)
importlib.import_module("textguard_pipeline.core.protection")
try:
    importlib.import_module("textguard_pipeline.protection.defs")
except ImportError:
    print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


def test_every_built_in_recogniser_keeps_the_contract():
    classes = recognizer_classes()
    assert [c.name for c in classes] == ["literal", "markup", "citation", "custom", "markup_forms", "ner", "number"]
    assert [c.priority for c in classes] == sorted(c.priority for c in classes)
    rules = build_recognizers(TermProtectionConfig(use_ner=False, custom_terms=("x",)))
    assert all(isinstance(r, Recognizer) for r in rules.values())


def test_a_new_recogniser_is_one_module_and_one_line_of_configuration():
    """textguard_pipeline_tests/protection/hashtag_recognizer.py is the whole recogniser; its config line below."""
    cfg = TermProtectionConfig(
        use_ner=False,
        recognizers=DEFAULT_RECOGNIZERS + ("textguard_pipeline_tests.protection.hashtag_recognizer:HashtagRecognizer",),
    )
    tp = TermProtector(cfg)
    # priority 35: after custom
    assert list(tp.recognizers) == ["literal", "markup", "citation", "hashtag", "markup_forms", "number"]
    text = "We tag #ablation runs; (Smith, 2020) reports 95% on #squad_v2."
    pc = tp.protect_text(text)
    assert [(t.original, t.source) for t in pc.terms] == [
        ("#ablation", "hashtag"),
        ("(Smith, 2020)", "citation"),
        ("95%", "number"),
        ("#squad_v2", "hashtag"),
    ]
    assert tp.restore(pc.protected_text, pc) == text
    plain = TermProtector(TermProtectionConfig(use_ner=False))  # without the line: no hashtag recogniser
    assert "hashtag" not in plain.recognizers and "#ablation" in plain.protect_text(text).protected_text


def test_recogniser_configuration_errors_are_clear():
    for bad in ("nope", "nope:Nope", "citation:Nope", "textguard_pipeline.core.spans:Span"):
        with pytest.raises(RecognizerConfigError, match="recogniser"):
            TermProtector(TermProtectionConfig(use_ner=False, recognizers=(bad,)))
    with pytest.raises(RecognizerConfigError, match="twice"):
        TermProtector(TermProtectionConfig(use_ner=False, recognizers=("number:NumberRecognizer",) * 2))


def test_recognisers_get_chunks_with_context():
    """A chunk carries its parser placeholders and a language slot (issue 17 will fill it)."""
    from textguard_pipeline.core.parsing import parse_document
    from textguard_pipeline.protection.model import TextChunk

    chunk = next(c for c in parse_document("Loss $x$ is 0.5% lower.\n", "md") if c.chunk_type == "prose")
    tc = TextChunk.of(chunk)
    assert tc.text == chunk.text and tc.parser_placeholders == frozenset(chunk.math_placeholders)
    assert tc.language is None and TextChunk.of("plain").text == "plain"


def test_a_language_extends_the_vocabulary_not_the_patterns(monkeypatch):
    """Issue 17's path: a chunk's language picks its word tables; English stays the default."""
    from textguard_pipeline.protection import vocabularies, vocabulary
    from textguard_pipeline.protection.model import TextChunk
    from textguard_pipeline.protection.recognizers.citation import CitationRecognizer
    from textguard_pipeline.protection.recognizers.number import NumberRecognizer

    xx = vocabulary.extend(vocabulary.ENGLISH, not_surnames=("Zorblat",), count_nouns=("grobs",))
    monkeypatch.setitem(vocabularies.VOCABULARIES, "xx", xx)
    text = "As in (Zorblat 2019), we ran 12 grobs."
    cit, num = CitationRecognizer(), NumberRecognizer()
    en = [TextChunk(text)]
    other = [TextChunk(text, language="xx")]
    assert "(Zorblat 2019)" in [text[c.start : c.end] for c in cit.find_many(en)[0]]  # candidates may overlap
    assert cit.find_many(other) == [[]]
    assert num.find_many(en) == [[]]
    assert [text[c.start : c.end] for c in num.find_many(other)[0]] == ["12"]
