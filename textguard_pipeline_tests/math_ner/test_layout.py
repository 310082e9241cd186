"""The math NER slice keeps its walls: old import paths work, library modules import without Dagster, ≤ 600 lines."""

import subprocess
import sys
from pathlib import Path

import textguard_pipeline.math_ner as slice_pkg

OLD_PUBLIC = [
    "ArithExampleFrame",
    "DefinitionFrame",
    "ENTITY_TYPES",
    "EntityType",
    "FRAME_ADAPTER",
    "Frame",
    "HttpNerBackend",
    "LLMNEROutput",
    "MAX_TEXT_CHARS",
    "NERBatchRequest",
    "NERBatchResponse",
    "NEREntity",
    "NERRequest",
    "NERResponse",
    "NERResult",
    "NER_COLUMNS",
    "NerBackendError",
    "NerExtractor",
    "Operation",
    "ProcedureFrame",
    "PropertyFrame",
    "PropertyName",
    "RAW_LOG_CHARS",
    "RelationName",
    "RuleBasedExtractor",
    "UNIT_MAX_CHARS",
    "anchor_entities",
    "check_arith",
    "frame_dict",
    "frame_row_problems",
    "log",
    "make_backend",
    "ner_frame",
    "parse_number_words",
    "sentences",
    "text_units",
    "validate_frame",
]
SLICE = Path(slice_pkg.__file__).parent
LIBRARY = sorted(p.stem for p in SLICE.glob("*.py") if p.stem not in ("__init__", "defs", "service"))


def test_every_public_name_of_the_old_module_is_importable_from_the_shim():
    import textguard_pipeline.core.math_ner as shim

    missing = [n for n in OLD_PUBLIC if not hasattr(shim, n)]
    assert missing == []
    assert shim.RuleBasedExtractor is slice_pkg.RuleBasedExtractor


def test_old_service_and_asset_paths_still_resolve():
    from textguard_pipeline.math_ner import defs
    from textguard_pipeline.ner_service import create_app

    assert defs.ner_frames.key.to_user_string() == "ner_frames"
    assert callable(create_app)


def test_library_modules_import_with_dagster_blocked():
    mods = ", ".join(repr(f"textguard_pipeline.math_ner.{m}") for m in LIBRARY + ["service"])
    code = (
        "import sys, importlib\nsys.modules['dagster'] = None\n"
        f"for m in [{mods}]:\n    importlib.import_module(m)\n"
        "assert not any(k == 'dagster' or k.startswith('dagster.') for k, v in sys.modules.items() if v)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_no_module_of_the_slice_is_over_600_lines():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in SLICE.glob("*.py")}
    assert {k: v for k, v in sizes.items() if v > 600} == {}
