"""mazekit's modules import downwards only, with no import circles.

The layers, bottom to top: grid (and errors, _jit) -> search -> generate, universal, sokoban,
minesweeper, articles -> render, batch -> web | cli. web and cli are two edges side by side:
neither imports the other, except that ``mazekit playground`` starts the web app. The graph is
read from the sources (every ``import``, function-level ones included), so a circle hidden in a
function counts as one too.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import mazekit

SRC = Path(mazekit.__file__).parent

#: Each top-level part of the package, by layer (a module may import from its own layer's other
#: parts or from below). ``mazekit`` itself (the facade that loads subpackages lazily) is not ranked.
LAYERS: dict[str, int] = {
    "errors": 0,
    "_jit": 0,
    "_heap": 0,
    "_workers": 0,
    "grid": 0,
    "examples": 0,
    "search": 1,
    "generate": 2,
    "universal": 2,
    "sokoban": 2,
    "minesweeper": 2,
    "articles": 2,
    "render": 3,
    "batch": 3,
    "web": 4,
    "cli": 4,
    "__main__": 5,
}

#: Imports across the two edges that are allowed: the playground command starts the web app.
EDGE_CROSSINGS = {("mazekit.cli.playground", "mazekit.web")}


def _module_name(path: Path) -> tuple[str, bool]:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    package = parts[-1] == "__init__"
    return ".".join(parts[:-1] if package else parts), package


@cache
def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of mazekit: name -> (file, is a package)."""
    found = {}
    for path in SRC.rglob("*.py"):
        name, package = _module_name(path)
        found[name] = (path, package)
    return found


def imports_of(name: str) -> set[str]:
    """The mazekit modules ``name`` imports (``from pkg import sub`` counts as importing ``pkg.sub``)."""
    path, package = modules()[name]
    here = name if package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for a in node.names:
                out.add(f"{target}.{a.name}" if f"{target}.{a.name}" in modules() else target)
    return {m for m in out if m in modules() and m != name}


@cache
def graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(imports_of(name)) for name in modules()}


def circles(g: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(g[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
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


def home(component: list[str]) -> str:
    """The innermost package holding every module of a circle."""
    parts = [m.split(".") for m in component]
    common = []
    for level in zip(*parts, strict=False):
        if len(set(level)) > 1:
            break
        common.append(level[0])
    name = ".".join(common)
    return name if modules().get(name, (None, False))[1] else name.rpartition(".")[0]


def _packages() -> list[str]:
    return sorted(name for name, (_, package) in modules().items() if package and ".examples" not in name)


def _package_param(name: str) -> object:
    return name


@pytest.mark.parametrize("package", [_package_param(p) for p in _packages()])
def test_no_import_circle(package: str) -> None:
    inside = [c for c in circles(graph()) if home(c) == package]
    assert not inside, f"import circles in {package}: {inside}"


def test_the_circle_finder_finds_circles() -> None:
    g = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert circles(g) == [["a", "b", "c"]]
    assert circles({"a": frozenset({"b"}), "b": frozenset()}) == []


def _part(name: str) -> str:
    return name.split(".")[1] if "." in name else ""


def upward_imports(g: dict[str, frozenset[str]]) -> list[tuple[str, str]]:
    """Every import of a module from a higher layer, or across the two edges (web, cli)."""
    bad = []
    for a, targets in g.items():
        for b in targets:
            pa, pb = _part(a), _part(b)
            if not pa or not pb or pa == pb:
                continue
            assert pa in LAYERS and pb in LAYERS, f"put {pa!r} and {pb!r} in a layer of LAYERS"
            crossing = LAYERS[pa] == LAYERS[pb] == LAYERS["web"]
            if (LAYERS[pb] > LAYERS[pa] or crossing) and (a, b) not in EDGE_CROSSINGS:
                bad.append((a, b))
    return sorted(bad)


#: Upward imports that another branch removes: module -> why. Each is a strict xfail below, so
#: the mark must go once the import has.
KNOWN_UPWARD: dict[str, str] = {}


def test_no_import_goes_up_the_layers() -> None:
    bad = [(a, b) for a, b in upward_imports(graph()) if a not in KNOWN_UPWARD]
    assert not bad, f"imports up the layers (or between web and cli): {bad}"


@pytest.mark.parametrize(
    "module", [pytest.param(m, marks=pytest.mark.xfail(strict=True, reason=why)) for m, why in KNOWN_UPWARD.items()]
)
def test_a_known_upward_import_is_gone(module: str) -> None:
    assert [b for a, b in upward_imports(graph()) if a == module] == []


def test_the_layer_check_finds_upward_imports() -> None:
    g = {
        "mazekit.search.bfs": frozenset({"mazekit.render.notebook", "mazekit.grid"}),
        "mazekit.web.api.x": frozenset({"mazekit.cli.robot"}),
        "mazekit.cli.playground": frozenset({"mazekit.web"}),
    }
    assert upward_imports(g) == [
        ("mazekit.search.bfs", "mazekit.render.notebook"),
        ("mazekit.web.api.x", "mazekit.cli.robot"),
    ]


def test_every_module_has_a_layer() -> None:
    assert {_part(m) for m in modules()} - {""} <= set(LAYERS)
    assert {"mazekit.grid", "mazekit.errors", "mazekit.search.bfs"} <= graph()["mazekit.articles"]  # the reader works


def private_solver_uses(source: str) -> list[str]:
    """The private names of the Sokoban solver a test's source reaches: names starting with ``_``
    imported from ``mazekit.sokoban.solver`` or its modules, or read off them as attributes."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("mazekit.sokoban.solver"):
            parts = (node.module or "").split(".")
            found += [f"{node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
            found += [node.module or ""] if any(p.startswith("_") for p in parts) else []
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if "sokoban.solver" in ast.unparse(node.value) or ast.unparse(node.value) == "solver":
                found.append(ast.unparse(node))
    return found


def test_no_test_reaches_into_the_solver() -> None:
    """The solver is observed through its public API (``run_search``, ``watch=``, the statistics),
    so that its insides can change without the tests changing."""
    tests = Path(__file__).parent
    uses = {str(p.relative_to(tests)): private_solver_uses(p.read_text()) for p in sorted(tests.rglob("*.py"))}
    bad = {path: names for path, names in uses.items() if names}
    assert not bad, f"tests reaching into the solver's private names: {bad}"


def test_the_private_name_finder_finds_them() -> None:
    source = (
        "from mazekit.sokoban.solver.search import _search_one, run_search\n"
        "from mazekit.sokoban.solver._old import x\n"
        "import mazekit.sokoban.solver as solver\n"
        "solver._cache.clear()\n"
        "from mazekit.sokoban.solver.kernels.packing import take_out_scratch\n"
    )
    assert private_solver_uses(source) == [
        "mazekit.sokoban.solver.search._search_one",
        "mazekit.sokoban.solver._old",
        "solver._cache",
    ]
