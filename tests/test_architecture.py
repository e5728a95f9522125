"""The package's shape: the model imports no stage, stage modules import alone, and no import cycle exists."""
from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "generators"
STAGES = ("load", "validate", "link", "derive", "checks", "render", "build", "diff", "cli", "mkdocs_plugin", "explain")


def unit_of(module: str) -> str:
    """The architectural unit a module belongs to: its top-level module or subpackage under generators."""
    return module.split(".")[1] if module.count(".") >= 1 else module


def runtime_imports(path: Path, module: str) -> set[str]:
    """Modules of this package imported at run time (imports under `if TYPE_CHECKING:` do not count)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.level:
                base = package.split(".")
                base = base[: len(base) - (child.level - 1)]
                target = ".".join(base + ([child.module] if child.module else []))
                found.update([target] if child.module else [f"{target}.{a.name}" for a in child.names])
            elif isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.startswith("generators"))
            visit(child)

    visit(tree)
    return found


@functools.cache  # parsing every module is most of these tests' time; the package does not change during a run
def graph() -> dict[str, frozenset[str]]:
    edges: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if module == "generators" or ".verify." in module + ".":
            continue
        unit = unit_of(module)
        targets = {unit_of(m) for m in runtime_imports(path, module) if m.startswith("generators.")}
        edges.setdefault(unit, set()).update(t for t in targets if t != unit)
    return {unit: frozenset(targets) for unit, targets in edges.items()}


def test_the_model_imports_no_stage():
    assert graph().get("model", frozenset()) <= {"kinds", "paths", "problems"}


def test_no_import_cycle_between_units():
    edges = graph()
    state: dict[str, int] = {}

    def cycle_from(node: str, trail: list[str]) -> list[str] | None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return trail + [node, nxt]
            if nxt not in state and (found := cycle_from(nxt, trail + [node])):
                return found
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            assert cycle_from(start, []) is None, "import cycle: " + " -> ".join(cycle_from(start, []) or [])


def test_each_stage_module_imports_alone():
    code = "import importlib, sys\nfor m in sys.argv[1:]:\n    importlib.import_module(m)\n    [sys.modules.pop(k) for k in list(sys.modules) if k.startswith('generators')]\n"
    result = subprocess.run([sys.executable, "-c", code, *(f"generators.{s}" for s in STAGES)],
                            capture_output=True, text=True, cwd=PACKAGE.parent)
    assert result.returncode == 0, result.stderr


def test_render_reads_no_findings_explains_list():
    """Which published cells a finding explains is derived once (derive/published_grid.py, published_history.py);
    render formats the `published_grids` view and never walks findings' `explains` itself."""
    readers = [p.name for p in (PACKAGE / "render").glob("*.py") if '"explains"' in p.read_text(encoding="utf-8")]
    assert readers == []


def test_render_builds_no_list_of_release_disagreements():
    """Which releases' selection code disagreed with a published cell is derived once (derive/published_grid.py,
    `GridCell.observed_otherwise`); render formats it and never walks the release claims itself."""
    readers = [p.name for p in (PACKAGE / "render").glob("*.py")
               if "release_claims" in p.read_text(encoding="utf-8") and p.name != "changelog.py"]
    assert readers == []
