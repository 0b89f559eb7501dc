"""The rules core knows nothing of RL frameworks: it imports none of them, so it runs and tests without them."""

import subprocess
import sys


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
