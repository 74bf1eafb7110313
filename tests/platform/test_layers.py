"""The code's layers: the house reads one way, with no import circles and a Django-free core.

From the bottom up (README, Architecture):

1. the pure core: the rule engine (`games.engine`) and the pairing core (`league.pairing`),
   plain Python that any program could use;
2. shared infrastructure (`core`): cache, channel layer, parsers, queuing tasks, health;
3. the competition (`league`): clubs, events, results, standings, ratings;
4. live play (`games`): tables, timers, disputes, statistics;
5. the faces (`api`, `demo`) and the project's wiring (`config`: settings, urls, asgi, the
   Celery app), which may read everything below them.

A module imports only its own layer and those below it. Where a lower layer must learn
something from a higher one (a match held by a dispute, the ranked tables the global rating
pool rates), the higher one registers a hook at start-up or answers a signal. Nothing
imports `config`: it is the top, which Django and the servers load by name.

A circle (a service importing its task, the task importing the service back) makes a module
impossible to read or change alone; services queue their tasks by name
(`core.tasks.queue_on_commit`) instead. Imports inside functions count too: they are
circles all the same, only hidden.
"""

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "league", "core", "api", "demo", "config")
# (layer, the packages in it), from the bottom up; a module is in the layer of its longest
# matching package.
LAYERS = (
    ("pure core", ("games.engine", "league.pairing")),
    ("infrastructure", ("core",)),
    ("competition", ("league",)),
    ("live play", ("games",)),
    ("faces and wiring", ("api", "demo", "config")),
)


def layer_of(module: str) -> int:
    best, rank = -1, None
    for index, (_name, packages) in enumerate(LAYERS):
        for package in packages:
            if (module == package or module.startswith(package + ".")) and len(package) > best:
                best, rank = len(package), index
    assert rank is not None, f"{module} is in no layer"
    return rank


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
    assert graph.has_edge("api.apps", "api.receivers")  # inside ready()


def test_every_import_goes_down_or_stays_in_its_layer():
    upward = sorted(
        f"{source} -> {target}"
        for source, target in import_graph().edges
        if layer_of(target) > layer_of(source)
    )
    assert upward == []


def test_nothing_imports_the_wiring():
    graph = import_graph()
    into_config = sorted(
        f"{source} -> {target}"
        for source, target in graph.edges
        if target.split(".")[0] == "config" and source.split(".")[0] != "config"
    )
    assert into_config == []


def test_the_faces_do_not_read_each_other():
    graph = import_graph()
    across = sorted(
        f"{source} -> {target}"
        for source, target in graph.edges
        if {source.split(".")[0], target.split(".")[0]} == {"api", "demo"}
    )
    assert across == []


def test_the_layers_are_checked_where_the_code_crossed_before():
    """The old back imports are gone, and the graph would have seen them."""
    graph = import_graph()
    assert graph.has_edge("games.services.ratings", "league.ratings.services")
    assert graph.has_edge("games.disputes.apps", "league.services.holds")
    assert not any(
        layer_of(target) == 3 for _source, target in graph.out_edges("league.services.results")
    )
    assert layer_of("league.pairing.swiss") == 0 and layer_of("league.models") == 2


def test_no_import_circles():
    graph = import_graph()
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not circles, f"modules that import each other: {circles}"


def test_the_engine_and_the_pairing_core_import_nothing_from_django():
    code = (
        "import sys, games.engine, league.pairing; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'rest_framework', "
        "'channels', 'celery', 'config', 'core'}))"
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
