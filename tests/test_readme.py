"""The README is part of the interface: its generated tables match the code and its examples run."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PY_BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_generated_tables_match_the_code():
    out = subprocess.run([sys.executable, "-m", "uno_env.docs", "README.md", "--check"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_every_generated_section_is_filled():
    for name in ("options", "observation", "actions"):
        block = re.search(rf"<!-- BEGIN GENERATED: {name} -->\n(.*?)<!-- END GENERATED: {name} -->", README, re.S)
        assert block and block.group(1).count("\n|") >= 5, name


def test_the_readme_has_no_unfilled_placeholders():
    assert "@@" not in README


@pytest.mark.parametrize("code", PY_BLOCKS, ids=[f"block{i}" for i in range(len(PY_BLOCKS))])
def test_python_examples_run(code, capsys):
    exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})


def test_the_quick_start_is_two_commands():
    quick = README.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    lines = [ln for ln in quick.splitlines() if ln.strip()]
    assert len(lines) == 2 and lines[0].startswith("pip install") and "python -m pytest" in lines[1]
