"""The walls of the layout, checked from the code's own imports (issue "one house").

- library modules import no Dagster: each is imported in a fresh interpreter where ``dagster`` is blocked;
- only the settings package and the CLI read the environment;
- nothing imports the CLI;
- no module is over 600 lines;
- every public name pinned under ``textguard_pipeline.core`` stays importable, and nothing in the package
  imports ``core`` or ``pipeline.py`` (outside callers' doors);
- the package's module-level imports have no cycle, and every function-level import says why.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "textguard_pipeline"
ROOT = PACKAGE.parent

#: Where Dagster may be imported: each slice's defs.py and the Dagster-side folders.
DAGSTER_HOMES = ("defs_kit", "operations", "cli")
DAGSTER_FILES = ("definitions.py",)
#: The only modules that touch the environment: the settings package, and the CLI, which sets the corpus, warehouse and
#: DAGSTER_HOME of the run it starts from its options.
ENV_READERS = ()
ENV_FOLDERS = ("cli", "settings")


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


#: Where the outside callers' doors (``core``, ``pipeline.py``) may be imported: the CLI, and core itself.
DOOR_USERS = ("cli", "core")
DOORS = ("textguard_pipeline.core", "textguard_pipeline.pipeline")


def test_no_package_module_imports_core_or_the_pipeline_module():
    offenders = [
        f"{_rel(p)}: {m}"
        for p in _modules()
        if _rel(p).split("/")[0] not in DOOR_USERS
        for m in sorted(_imports(ast.parse(p.read_text()), p))
        if m in DOORS or m.startswith(tuple(d + "." for d in DOORS))
    ]
    assert offenders == []


def test_every_core_module_names_where_its_names_live():
    vague = []
    for p in sorted((PACKAGE / "core").glob("*.py")):
        if p.name.startswith("_"):
            continue
        doc = ast.get_docstring(ast.parse(p.read_text())) or ""
        homes = [
            m
            for m in re.findall(r"textguard_pipeline(?:\.\w+)+", doc)
            if _module_of(m) not in (None, "textguard_pipeline")
        ]
        if not homes:
            vague.append(_rel(p))
    assert vague == []


def _module_of(name: str) -> str | None:
    """The package module an imported dotted name belongs to (``pkg.mod.func`` → ``pkg.mod``), or None."""
    while name and name not in _DOTTED:
        name = name.rpartition(".")[0]
    return name or None


_DOTTED = {_dotted(p): p for p in _modules()}


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def _module_level_imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Imports run when the module is imported: outside functions and ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.If) and _is_type_checking(child):
                for n in child.orelse:
                    visit(ast.Module(body=[n], type_ignores=[]))
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            visit(child)

    visit(tree)
    return found


def _import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, p in _DOTTED.items():
        targets: set[str] = set()
        for node in _module_level_imports(ast.parse(p.read_text())):
            targets.update(filter(None, (_module_of(m) for m in _imports(ast.Module(body=[node], type_ignores=[]), p))))
        targets.discard(name)
        graph[name] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_the_package_has_no_import_cycles():
    assert _cycles(_import_graph()) == []


#: A function-level import carries one of these on its line or the line above (a block of imports: above the first).
IMPORT_REASON = re.compile(r"#\s*(lazy|cycle|heavy):")


def _function_level_imports(tree: ast.Module) -> list[list[ast.Import | ast.ImportFrom]]:
    """Blocks of consecutive imports inside function bodies."""
    blocks: list[list[ast.Import | ast.ImportFrom]] = []

    def scan(body: list[ast.stmt]) -> None:
        block: list[ast.Import | ast.ImportFrom] = []
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) and (
                not block or stmt.lineno == block[-1].end_lineno + 1
            ):
                block.append(stmt)
                continue
            if block:
                blocks.append(block)
            block = [stmt] if isinstance(stmt, (ast.Import, ast.ImportFrom)) else []
        if block:
            blocks.append(block)

    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                for field in ("body", "orelse", "finalbody"):
                    body = getattr(node, field, None)
                    if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                        scan(body)
    return blocks


def test_every_function_level_import_says_why():
    unexplained = []
    for p in _modules():
        lines = p.read_text().splitlines()
        for block in _function_level_imports(ast.parse("\n".join(lines))):
            first = block[0]
            said = lines[first.lineno - 2 : first.end_lineno]
            if not any(IMPORT_REASON.search(line) for line in said):
                unexplained.append(f"{_rel(p)}:{first.lineno}: {lines[first.lineno - 1].strip()}")
    assert sorted(set(unexplained)) == []
