"""The walls of the layout, checked from the code's own imports (issue "one house").

- library modules import no Dagster: each is imported in a fresh interpreter where ``dagster`` is blocked;
- only settings.py and the CLI read the environment;
- nothing imports the CLI;
- no module is over 600 lines;
- every public name the earlier issues pinned under ``textguard_pipeline.core`` stays importable.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "textguard_pipeline"
ROOT = PACKAGE.parent

#: Where Dagster may be imported: each slice's defs.py and the Dagster-side folders.
DAGSTER_HOMES = ("defs_kit", "operations", "cli")
DAGSTER_FILES = ("definitions.py",)
#: The only modules that touch the environment: settings.py, and the CLI, which sets the corpus, warehouse and
#: DAGSTER_HOME of the run it starts from its options.
ENV_READERS = ("settings.py",)
ENV_FOLDERS = ("cli",)


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _rel(p: Path) -> str:
    return p.relative_to(PACKAGE).as_posix()


def _is_dagster_side(p: Path) -> bool:
    rel = _rel(p)
    return p.name == "defs.py" or rel in DAGSTER_FILES or rel.split("/")[0] in DAGSTER_HOMES


def _dotted(p: Path) -> str:
    parts = list(p.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


LIBRARY = [p for p in _modules() if not _is_dagster_side(p)]


def test_library_modules_import_with_dagster_blocked():
    names = [_dotted(p) for p in LIBRARY]
    code = (
        "import sys, importlib\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'dagster' or name.startswith('dagster.') or name.startswith('dagster_'):\n"
        "            raise ImportError('dagster is blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        f"for n in {names!r}:\n"
        "    importlib.import_module(n)\n"
        "assert not any(m == 'dagster' or m.startswith('dagster.') for m in sys.modules)\n"
        "print('ok', len(sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]


def _imports(tree: ast.AST, p: Path) -> set[str]:
    found: set[str] = set()
    pkg = _dotted(p).split(".")
    if p.name != "__init__.py":
        pkg = pkg[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = pkg[: len(pkg) - node.level + 1] if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names)
    return found


def test_no_library_module_mentions_dagster_in_its_imports():
    offenders = [
        _rel(p)
        for p in LIBRARY
        if any(m == "dagster" or m.startswith(("dagster.", "dagster_")) for m in _imports(ast.parse(p.read_text()), p))
    ]
    assert offenders == []


def test_only_settings_and_the_cli_read_the_environment():
    offenders = []
    for p in _modules():
        if _rel(p) in ENV_READERS or _rel(p).split("/")[0] in ENV_FOLDERS:
            continue
        for node in ast.walk(ast.parse(p.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("environ", "getenv")
                and isinstance(node.value, ast.Name)
                and node.value.id == "os"
            ):
                offenders.append(f"{_rel(p)}:{node.lineno}")
    assert offenders == []


def test_nothing_imports_the_cli():
    offenders = [
        _rel(p)
        for p in _modules()
        if not _rel(p).startswith("cli/")
        and any(
            m == "textguard_pipeline.cli" or m.startswith("textguard_pipeline.cli.")
            for m in _imports(ast.parse(p.read_text()), p)
        )
    ]
    assert offenders == []


def test_no_module_is_over_600_lines():
    long = {_rel(p): n for p in _modules() if (n := len(p.read_text().splitlines())) > 600}
    assert long == {}


#: Every public name the core modules defined before the move (generated once from that commit).
PINNED = json.loads((Path(__file__).with_name("pinned_core_names.json")).read_text())


@pytest.mark.parametrize("module", sorted(PINNED))
def test_the_pinned_core_names_stay_importable(module):
    mod = importlib.import_module(f"textguard_pipeline.core.{module}")
    missing = [n for n in PINNED[module] if not hasattr(mod, n)]
    assert missing == []
