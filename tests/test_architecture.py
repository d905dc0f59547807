"""The import graph stays acyclic and explicit (docs/architecture.md).

import-linter (run by ``make test``) checks the layers; these tests add what it cannot see: a cycle
through imports inside functions, a function-local import without a comment saying why, and an
``except ImportError`` pretending an installed app is optional.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("config", "tournaments", "tables", "dealing", "screens")


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(modules: dict[str, Path]):
    """(importer, imported project module, line, is function-local) for every project import."""
    for module, path in modules.items():
        tree = ast.parse(path.read_text())
        local_lines = {
            inner.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            for inner in ast.walk(node)
            if isinstance(inner, ast.Import | ast.ImportFrom)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, node, path.name == "__init__.py")
                targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
            else:
                continue
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    yield module, target, node.lineno, node.lineno in local_lines
                    break


def test_no_import_cycle_even_counting_imports_inside_functions():
    modules = _modules()
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for importer, imported, _line, _local in _imports(modules):
        graph[importer].add(imported)
    # Tarjan's strongly connected components: any component of two or more modules is a cycle.
    index, low, stack, on_stack, cycles, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in graph:
        if node not in index:
            visit(node)
    assert cycles == []


def test_every_function_local_import_says_why():
    """A lazy import hides an edge from readers; it is allowed only with a comment on the line above
    or on the line itself (e.g. a task module imported by the service that queues it)."""
    modules = _modules()
    unexplained = []
    for importer, _imported, line, local in _imports(modules):
        if not local:
            continue
        lines = modules[importer].read_text().splitlines()
        here, above = lines[line - 1], lines[line - 2] if line > 1 else ""
        if "#" not in here and not above.strip().startswith("#"):
            unexplained.append(f"{importer}:{line}")
    assert sorted(set(unexplained)) == []


def test_no_installed_app_is_treated_as_optional():
    guards = []
    for module, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                names = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
                if names & {"ImportError", "ModuleNotFoundError"}:
                    guards.append(f"{module}:{node.lineno}")
    assert guards == []
