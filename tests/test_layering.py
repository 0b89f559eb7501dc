"""The layers (docs/architecture.md, "The layers"): each imports only those below it.

    the rules core ``uno_env/core`` (numpy and the standard library only)
    -> ``uno_env``'s environments, records, table and drawings
    -> ``agents`` -> ``training``
    -> the applications ``uno_apps`` (the ``uno`` command line, the terminal game, the web app)

The rules core knows nothing of RL frameworks: it imports none of them, so it runs and tests without them.
The tests below read every module of ``uno_env``, ``agents`` and ``training`` (its imports anywhere, inside
functions too, and the ``importlib.import_module("...")`` literals) without running it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("uno_env", "agents", "training", "uno_apps")
CORE, APPS = "uno_env.core", "uno_apps"
# The rules core's own cycle (legal.py with deflect, jump_in, penalty and uno_call) is being broken on another
# branch (issue 47); until it is, a cycle made of these modules alone is let through.  Empty this set then.


def test_core_imports_no_rl_framework():
    code = ("import sys, uno_env.core, uno_env; "
            "print([m for m in ('gymnasium', 'pettingzoo', 'torch', 'stable_baselines3') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_env_module_loads_pettingzoo_lazily():
    code = "import uno_env, sys; uno_env.env; print('pettingzoo' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"


def test_nothing_installed_imports_the_research_probes():
    """``research/`` (the probes) is outside the installed package: uno_env, agents and training never import it,
    and pyproject.toml does not package it."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    pattern = re.compile(r"^\s*(?:from\s+research[\s.]|import\s+research\b)", re.M)
    found = [str(p.relative_to(root)) for d in ("uno_env", "agents", "training") for p in (root / d).rglob("*.py")
             if pattern.search(p.read_text(encoding="utf-8"))]
    assert found == []
    include = re.search(r"\[tool\.setuptools\.packages\.find\]\s*include\s*=\s*\[([^\]]*)\]",
                        (root / "pyproject.toml").read_text()).group(1)
    assert "research" not in include and "training*" in include


# ---------------------------------------------------------------------------------- the import graph
def modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file of every module of ``PACKAGES`` (a package is its ``__init__.py``)."""
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of a relative import ``from {'.' * level}{name} import ...`` in ``module``."""
    if level == 0:
        return name or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _literal(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def imports_of(module: str, path: Path, known) -> set[str]:
    """Every module that ``module`` imports, anywhere in it: ``import a.b`` is ``a.b``; ``from a import b`` is
    ``a.b`` where that is a module of ``known``, else ``a``; relative imports resolved; and the string
    literals given to ``importlib.import_module`` (with its ``package``) and ``__import__``."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node.level, node.module)
            for alias in node.names:
                out.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            name = _literal(node.args[0]) if node.args else None
            if called not in ("import_module", "__import__") or name is None:
                continue
            package = next((_literal(k.value) for k in node.keywords if k.arg == "package"),
                           _literal(node.args[1]) if called == "import_module" and len(node.args) > 1 else None)
            if name.startswith(".") and package:
                level = len(name) - len(name.lstrip("."))
                name = _absolute(package, True, level, name.lstrip(".") or None)
            out.add(name)
    out.discard(module)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """``module -> what it imports`` for every module of ``PACKAGES``."""
    found = modules(root)
    return {m: imports_of(m, path, found) for m, path in found.items()}


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _offences(graph, who, forbidden) -> list[str]:
    return sorted(f"{m} imports {t}" for m, targets in graph.items() if who(m)
                  for t in targets if any(_under(t, f) for f in forbidden))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph`` among its own modules: its strongly connected components of more than
    one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start] & graph.keys())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child] & graph.keys()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_library_of_uno_env_imports_no_agents_training_or_applications():
    """The environments stand below the agents: an opponent named in a training env is loaded by the agent
    loader that an installed package declares (``uno_env.opponents``), never by importing ``agents``."""
    graph = import_graph()
    library = lambda m: _under(m, "uno_env")  # noqa: E731
    assert _offences(graph, library, ("agents", "training", APPS)) == []


def test_the_core_imports_numpy_the_standard_library_and_itself():
    graph = import_graph()
    allowed = set(sys.stdlib_module_names) | {"numpy"}
    bad = sorted(f"{m} imports {t}" for m, targets in graph.items() if _under(m, CORE)
                 for t in targets if not _under(t, CORE) and t.split(".")[0] not in allowed)
    assert bad == []


def test_agents_import_no_training_or_applications():
    graph = import_graph()
    assert _offences(graph, lambda m: _under(m, "agents"), ("training", APPS)) == []


def test_training_imports_no_applications():
    graph = import_graph()
    assert _offences(graph, lambda m: _under(m, "training"), (APPS,)) == []


def test_no_import_cycles():
    """No two modules import each other, directly or through others: a cycle would tie a lower layer to a
    higher one, or two parts of one layer into a knot that can only be understood (and tested) together."""
    assert cycles(import_graph()) == []


def test_the_graph_reader_sees_imports_inside_functions_and_import_module_literals(tmp_path):
    """The reader itself, on a made-up package: relative imports resolved, ``from a import b`` as the module
    ``a.b`` or the package ``a``, imports inside functions, ``import_module`` literals; and a cycle found."""
    pkg = tmp_path / "uno_env"
    (pkg / "core").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .core import thing\n")
    (pkg / "core" / "__init__.py").write_text("thing = 1\n")
    (pkg / "core" / "a.py").write_text("import numpy\nfrom . import b\n")
    (pkg / "core" / "b.py").write_text("def f():\n    from ..core.a import x\n")
    (pkg / "aec.py").write_text("import importlib\n\ndef g():\n    return importlib.import_module('.c', 'agents')\n")
    for package in ("agents", "training"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "agents" / "c.py").write_text("def h():\n    __import__('uno_env.aec')\n")
    graph = import_graph(tmp_path)
    assert graph["uno_env"] == {"uno_env.core"}
    assert graph["uno_env.core.a"] == {"numpy", "uno_env.core.b"}
    assert graph["uno_env.core.b"] == {"uno_env.core.a"}
    assert graph["uno_env.aec"] == {"importlib", "agents.c"}
    assert graph["agents.c"] == {"uno_env.aec"}
    assert cycles(graph) == [["agents.c", "uno_env.aec"], ["uno_env.core.a", "uno_env.core.b"]]
