"""The recogniser registry: the configuration names the recogniser classes; each carries its priority.

Adding a recogniser is one new module (a class with ``name``, ``priority``,
``from_config`` and ``find_many``) plus one line in
:data:`DEFAULT_RECOGNIZERS` (or in a config's ``recognizers``).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable

from .errors import RecognizerConfigError

if TYPE_CHECKING:  # model imports this module (its config's default is DEFAULT_RECOGNIZERS)
    from .model import TermProtectionConfig

_BUILTIN_PACKAGE = __package__ + ".recognizers"

#: The recognisers that run unless a config names others: one "module:Class" line per recogniser
#: (a bare module name is looked up in ``protection.recognizers``). Order does not matter: each
#: class carries its own ``priority`` (E1: lower runs first and wins an overlap).
DEFAULT_RECOGNIZERS: tuple[str, ...] = (
    "literal:LiteralRecognizer",
    "markup:MarkupRecognizer",  # what machines read, hidden whole (issue 45)
    "markup_forms:MarkupFormRecognizer",  # citations [N], cross-references, identifiers … (issue 45)
    "citation_language:LanguageCitationRecognizer",  # citation:CitationRecognizer + per-language tables (issue 17)
    "custom:CustomTermRecognizer",
    "ner_language:LanguageNerRecognizer",  # ner:NerRecognizer with each chunk's language's model (issue 17)
    "number_language:LanguageNumberRecognizer",  # number:NumberRecognizer + decimal comma etc. (issue 17)
)


@lru_cache(maxsize=None)
def load_class(spec: str) -> type:
    """The class named by ``"module:Class"`` (a bare module is under ``protection.recognizers``)."""
    module, sep, cls_name = spec.partition(":")
    if not sep or not module or not cls_name:
        raise RecognizerConfigError(f"recogniser {spec!r}: expected 'module:Class'")
    path = module if "." in module else f"{_BUILTIN_PACKAGE}.{module}"
    try:
        cls = getattr(importlib.import_module(path), cls_name)
    except (ImportError, AttributeError) as exc:
        raise RecognizerConfigError(f"recogniser {spec!r} cannot be loaded: {exc}") from exc
    for attr in ("name", "priority", "from_config", "find_many"):
        if not hasattr(cls, attr):
            raise RecognizerConfigError(f"recogniser {spec!r} has no {attr!r} (see recognizers/base.py)")
    return cls


def recognizer_classes(specs: tuple[str, ...] = DEFAULT_RECOGNIZERS) -> list[type]:
    """The configured classes in priority order (E1), names unique."""
    classes = sorted((load_class(s) for s in specs), key=lambda c: c.priority)  # stable on ties
    names = [c.name for c in classes]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise RecognizerConfigError(f"recogniser name(s) configured twice: {', '.join(dupes)}")
    return classes


def build_recognizers(config: TermProtectionConfig) -> dict[str, Any]:
    """name → recogniser for the recognisers the config switches on, in priority order."""
    out: dict[str, Any] = {}
    for cls in recognizer_classes(config.recognizers):
        rec = cls.from_config(config)
        if rec is not None:
            out[cls.name] = rec
    return out


def default_names() -> tuple[str, ...]:
    """Names of the default recognisers in priority order (the ``source`` values of term rows)."""
    return tuple(c.name for c in recognizer_classes())


def legacy_factories() -> dict[str, Callable[[TermProtectionConfig], Any]]:
    """name → factory(config) of the default recognisers (the pre-registry ``RECOGNIZERS`` dict)."""
    return {c.name: c.from_config for c in recognizer_classes()}
