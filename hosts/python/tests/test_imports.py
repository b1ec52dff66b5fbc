"""The package's modules import one another one way only: no module imports
another that (directly or through others) imports it back. Checked on the
source with `ast`, so imports inside functions count too."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "qrglue"
SOURCE = Path(__file__).resolve().parents[1] / "src" / PACKAGE


def module_name(path: Path, root: Path) -> str:
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the package modules it imports (a `from . import x` counts
    as importing `x` when `x` is a module, else the package itself)."""
    package = root.name
    modules = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name.split(".")[0] == package)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                if base.split(".")[0] != package:
                    continue
                for alias in node.names:
                    candidate = f"{base}.{alias.name}"
                    targets.add(candidate if candidate in modules else base)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as [a, b, ..., a], or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_package_has_no_import_cycle() -> None:
    graph = import_graph(SOURCE)
    assert {"qrglue", "qrglue._component", "qrglue._fastglue", "qrglue._stockglue",
            "qrglue._instance", "qrglue.raw"} <= set(graph)
    # The component path's layers run one way.
    assert "qrglue._instance" in graph["qrglue._fastglue"] and "qrglue._instance" in graph["qrglue._stockglue"]
    assert {"qrglue._fastglue", "qrglue._stockglue"} <= graph["qrglue._component"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_a_cycle_is_found(tmp_path: Path) -> None:
    # The control: the same checker on a package where two modules import each other.
    root = tmp_path / "qrglue"
    root.mkdir()
    (root / "__init__.py").write_text("from ._a import f\n")
    (root / "_a.py").write_text("def f():\n    from . import _b  # a lazy import still counts\n")
    (root / "_b.py").write_text("from ._a import f\nimport qrglue._c\n")
    (root / "_c.py").write_text("from qrglue import _d\n")
    (root / "_d.py").write_text("import os\n")
    graph = import_graph(root)
    assert graph == {"qrglue": {"qrglue._a"}, "qrglue._a": {"qrglue._b"},
                     "qrglue._b": {"qrglue._a", "qrglue._c"}, "qrglue._c": {"qrglue._d"}, "qrglue._d": set()}
    assert find_cycle(graph) == ["qrglue._a", "qrglue._b", "qrglue._a"]
    (root / "_b.py").write_text("import qrglue._c\n")
    assert find_cycle(import_graph(root)) is None
