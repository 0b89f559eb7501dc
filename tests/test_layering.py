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
