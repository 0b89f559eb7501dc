"""The README is the first contact: short, install before anything else, a quick start that runs as written,
and links that lead somewhere."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
LINES = README.splitlines()
PY_BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)
FIRST_SCREEN = 50  # lines


def test_the_readme_is_short():
    assert len(LINES) <= 250, f"README.md has {len(LINES)} lines; details belong in docs/"


@pytest.mark.parametrize("code", PY_BLOCKS, ids=[f"block{i}" for i in range(len(PY_BLOCKS))])
def test_python_examples_run_as_written(code, capsys):
    exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})


def test_the_quick_start_is_an_aec_loop_with_masks_on_the_first_screen():
    start = next(i for i, line in enumerate(LINES) if line == "```python")
    code = PY_BLOCKS[0]
    assert start < FIRST_SCREEN and start + code.count("\n") < FIRST_SCREEN
    assert "agent_iter()" in code and 'observation["action_mask"]' in code and "env.step(" in code
    assert len(code.strip().splitlines()) <= 16


def test_install_says_cpu_torch_first_then_the_two_commands():
    install = README.split("## Install and run", 1)[1].split("\n## ", 1)[0]
    torch_note, commands = install.index("download.pytorch.org/whl/cpu"), install.index('pip install -e ".[all]"')
    assert torch_note < commands, "the CPU PyTorch note must come before the install command it changes"
    block = install.split("```bash\n", 1)[1].split("```", 1)[0]
    lines = [ln for ln in block.splitlines() if ln.strip()]
    assert len(lines) == 2 and lines[0].startswith('pip install -e ".[all]"')
    assert lines[1].startswith("python -m pytest")


def test_every_link_leads_to_a_file_and_anchor_of_the_repository():
    for target in re.findall(r"\]\(([^)\s]+)\)", README):
        if re.match(r"[a-z]+://", target):
            continue
        path, _, anchor = target.partition("#")
        assert (ROOT / path).exists(), f"README links to {path}, which does not exist"
        if anchor:
            text = (ROOT / path).read_text(encoding="utf-8")
            ids = set(re.findall(r"\{\s*#([\w-]+)\s*\}", text)) | set(re.findall(r'\bid="([\w-]+)"', text))
            assert anchor in ids, f"{path} has no anchor #{anchor}"


def test_the_readme_has_no_unfilled_placeholders():
    assert "@@" not in README and "TODO" not in README
