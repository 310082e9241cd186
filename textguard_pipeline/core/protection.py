"""Compatibility shim: term protection lives in :mod:`textguard_pipeline.protection`.

Every public name this module had keeps importing from here (tested).
"""

from ..protection import *  # noqa: F401,F403
from ..protection import __all__ as _all
from ..protection.citation_patterns import find_citations
from ..protection.number_patterns import find_numbers
from ..protection.operator import apply_placeholders
from ..protection.recognizers.base import PerChunkRecognizer as _PerText
from ..protection.recognizers.base import Recognizer
from ..protection.recognizers.citation import CitationRecognizer
from ..protection.recognizers.custom import CustomTermRecognizer
from ..protection.recognizers.literal import LiteralRecognizer
from ..protection.recognizers.ner import NER_LABELS, NerRecognizer, keep_entity
from ..protection.recognizers.number import NumberRecognizer
from ..protection.registry import default_names, legacy_factories
from .placeholders import CLOSE, OPEN

#: E1 priority (first wins), from the registry.
PRIORITY = default_names()
#: every default recogniser name (= PRIORITY; kept for old importers).
SOURCES = PRIORITY
#: source name → factory(config) returning a recogniser, or None when switched off.
RECOGNIZERS = legacy_factories()

__all__ = [
    *_all,
    "CLOSE",
    "OPEN",
    "CitationRecognizer",
    "CustomTermRecognizer",
    "LiteralRecognizer",
    "NER_LABELS",
    "NerRecognizer",
    "NumberRecognizer",
    "PRIORITY",
    "RECOGNIZERS",
    "Recognizer",
    "SOURCES",
    "apply_placeholders",
    "find_citations",
    "find_numbers",
    "keep_entity",
    "_PerText",
]
