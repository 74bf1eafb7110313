"""The code's layering: no import circles in games/ and league/, and a Django-free core.

A circle (a service importing its task, the task importing the service back) makes a module
impossible to read or change alone; services queue their tasks by name
(`config.celery.queue_on_commit`) instead. Imports inside functions count too: they are
circles all the same, only hidden.
"""

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "league")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules that module `name` imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from package import module` imports the module; `from module import name`
            # the module.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        out.update(t for t in targets if t in modules and t != name)
    return out


def import_graph() -> nx.DiGraph:
    modules = _modules()
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        graph.add_edges_from((name, target) for target in _imported(name, path, modules))
    return graph


def test_the_graph_sees_imports():
    graph = import_graph()
    assert graph.has_edge("league.ratings.tasks", "league.ratings.services")
    assert graph.has_edge("games.disputes.batches", "games.disputes.services")  # from . import
    assert graph.has_edge("league.api.apps", "league.api.receivers")  # inside ready()


def test_no_import_circles_in_games_and_league():
    graph = import_graph()
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not circles, f"modules that import each other: {circles}"


def test_the_engine_and_the_pairing_core_import_nothing_from_django():
    code = (
        "import sys, games.engine, league.pairing; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'rest_framework', "
        "'channels', 'celery', 'config'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_every_celery_task_has_an_explicit_name():
    """A task's name is what the broker carries and what services queue it by: it must not
    change when a module is moved or renamed."""
    unnamed = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                call = decorator if isinstance(decorator, ast.Call) else None
                target = call.func if call else decorator
                if getattr(target, "id", getattr(target, "attr", None)) != "shared_task":
                    continue
                if call is None or not any(k.arg == "name" for k in call.keywords):
                    unnamed.append(f"{name}.{node.name}")
    assert unnamed == []
