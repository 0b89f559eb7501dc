"""The type gate of the rules core ([tool.mypy] in pyproject.toml): every rule function takes the engine as
``e: RuleTables`` and every scalar twin its stepper as ``s: ScalarTables``, so a misspelt table or flag name in
any core module is a mypy error.  Planted in a copy of the core, one per module, each must be caught."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "uno_env" / "core"
def _plant(text: str) -> tuple[str, str] | None:
    """``text`` with its first read of the engine, the stepper or an object's own field (``e.PLAYBITS``, ``s.plays``)
    misspelt, and the name misspelt (None: the module reads none)."""
    reads = [node for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Attribute)
             and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
             and node.value.id in ("e", "s", "engine", "self")]
    if not reads:
        return None
    # the engine or the stepper first; an object's own field where the module reads neither
    node = min(reads, key=lambda n: (n.value.id == "self", n.lineno, n.col_offset))
    lines = text.splitlines(keepends=True)
    line = lines[node.lineno - 1].encode()  # ast's offsets count bytes
    at = node.value.end_col_offset + 1  # past "e."
    assert line[at:at + len(node.attr)].decode() == node.attr
    lines[node.lineno - 1] = (line[:at] + (node.attr + "_misspelt").encode() + line[at + len(node.attr):]).decode()
    return "".join(lines), node.attr


def test_a_misspelt_table_name_in_any_core_module_fails_mypy(tmp_path):
    pytest.importorskip("mypy")
    copy = tmp_path / "uno_env" / "core"
    shutil.copytree(CORE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "uno_env" / "__init__.py").write_text("")
    planted = {}
    for path in sorted(copy.glob("*.py")):
        out = _plant(path.read_text())
        if out is not None:
            path.write_text(out[0])
            planted[path.name] = out[1]
    assert {"play.py", "forced.py", "memory.py", "legal.py", "deal.py", "deflect.py", "scalar.py"} <= set(planted)
    run = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
                          "--check-untyped-defs", "--no-incremental", str(copy)],
                         capture_output=True, text=True, cwd=tmp_path)
    caught = {Path(line.split(":")[0]).name for line in run.stdout.splitlines()
              if "_misspelt" in line and "error" in line}
    assert run.returncode == 1
    assert caught == set(planted), f"not caught: {sorted(set(planted) - caught)}\n{run.stdout[-3000:]}"


def test_the_unchanged_core_passes_mypy():
    pytest.importorskip("mypy")
    run = subprocess.run([sys.executable, "-m", "mypy"], capture_output=True, text=True, cwd=CORE.parent.parent)
    assert run.returncode == 0, run.stdout[-3000:]
