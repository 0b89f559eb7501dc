"""The light install (``pip install -e .``: numpy, Gymnasium, PettingZoo) meets each feature of an extra with one
line naming the extra and its install command, a non-zero exit and no traceback (``uno_env.extras``).

The commands run in a real light virtual environment, built once per test session: ``python -m venv`` (no
system site-packages) and ``pip install -e`` of this checkout, so that only the light dependencies are there.
That is the user's situation itself, not a model of it: a blocker that hides a list of modules (torch, tqdm,
starlette...) would pass while a module missing from its list (a dependency of a dependency) still broke the
light install.  The venv takes about ten seconds to build from pip's cache or the local package index; where
pip cannot install the light dependencies (offline, no index), the tests skip and say why.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TRAIN = 'needs the train extra'
INSTALL = 'pip install -e ".[{}]"'


def test_each_extras_modules_are_those_its_pyproject_entry_installs():
    """``uno_env.extras.EXTRAS`` names, for each extra, modules of distributions pyproject.toml lists in it."""
    import re

    from uno_env.extras import EXTRAS, PLAY
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for extra, modules in EXTRAS.items():
        assert extra in declared, extra
        dists = {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower().replace("-", "_") for r in declared[extra]}
        assert set(modules) <= dists, (extra, set(modules) - dists)
    assert set(PLAY) <= set(EXTRAS["train"])


@pytest.fixture(scope="session")
def light(tmp_path_factory) -> Path:
    """The ``bin`` folder of a virtual environment holding the light install of this checkout."""
    venv = tmp_path_factory.mktemp("light") / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot make a virtual environment here: {made.stderr.strip()[-300:]}")
    bin_ = venv / ("Scripts" if os.name == "nt" else "bin")
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    try:
        pip = subprocess.run([str(bin_ / "python"), "-m", "pip", "install", "--quiet", "-e", str(ROOT)],
                             capture_output=True, text=True, env=env, timeout=600)
    except subprocess.TimeoutExpired:
        pytest.skip("pip could not install the light dependencies within 10 minutes (offline?)")
    if pip.returncode != 0:
        pytest.skip(f"pip could not install the light dependencies (offline?): {pip.stderr.strip()[-300:]}")
    return bin_


def run(light: Path, args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    exe = str(light / args[0]) if args[0] in ("uno", "python") else args[0]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    return subprocess.run([exe, *args[1:]], cwd=cwd, input=stdin, capture_output=True, text=True, env=env,
                          timeout=300)


def test_the_light_venv_has_none_of_the_extras(light, tmp_path):
    """The premise of the tests below: the extras' modules are absent there, the light ones present."""
    code = ("import importlib.util as u; print(sorted(m for m in ('torch', 'stable_baselines3', 'sb3_contrib', "
            "'tqdm', 'openskill', 'matplotlib', 'starlette', 'uvicorn', 'ray') if u.find_spec(m)), "
            "all(u.find_spec(m) for m in ('numpy', 'gymnasium', 'pettingzoo', 'uno_env', 'agents', 'training')))")
    out = run(light, ["python", "-c", code], tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[]", "True"]


COMMANDS = {
    "uno play, a trained opponent": (["uno", "play", "--players", "2", "--opponents", "ppo-standard_en-2p"], "train"),
    "uno watch, a trained agent": (["uno", "watch", "--players", "2", "--bots", "heuristic,ppo-standard_en-2p"],
                                   "train"),
    "uno eval, a trained agent": (["uno", "eval", "--agents", "ppo-standard_en-2p,random", "--games", "10"], "train"),
    "uno serve": (["uno", "serve", "--port", "0"], "web"),
    "the lean trainer": (["python", "-m", "training.ppo_lean", "--total-steps", "64", "--run-name", "x"], "train"),
    "the MaskablePPO trainer": (["python", "-m", "training.train_ppo", "--total-steps", "64", "--run-name", "x"],
                                "train"),
    "the RLlib trainer": (["python", "-m", "training.rllib_train", "--iterations", "1"], "scale"),
    "a best response": (["python", "-m", "training.best_response", "greedy", "--total-steps", "64"], "train"),
    "a recipe": (["python", "-m", "training.recipe", "ppo-standard_en-2p", "--dir", "recipe"], "train"),
    "an evaluation of a trained agent": (["python", "-m", "training.evaluate", "--agents", "ppo-standard_en-2p,random",
                                          "--games", "10"], "train"),
    "the leaderboard": (["python", "-m", "training.leaderboard", "--quick"], "train"),
    "a model soup": (["python", "-m", "training.soup", "a", "b", "--out", "soup"], "train"),
}


@pytest.mark.parametrize("args, extra", COMMANDS.values(), ids=COMMANDS.keys())
def test_a_command_of_an_extra_says_in_one_line_which_extra_to_install(light, tmp_path, args, extra):
    out = run(light, args, tmp_path, stdin="q\n")
    said = [line for line in out.stderr.splitlines() if line.strip()]
    assert out.returncode != 0, out.stdout + out.stderr
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    assert len(said) == 1, out.stderr
    assert f"needs the {extra} extra" in said[0] and INSTALL.format(extra) in said[0], said[0]
    assert "error" in said[0] and not out.stdout.strip(), out.stdout  # nothing on screen before it
    assert not (tmp_path / "runs").exists()  # nothing started: no run folder left behind


LIBRARY = {
    "agents.load": "import agents; agents.load('ppo-standard_en-2p')",
    "an environment's trained opponent": "from uno_env.vector import UnoEnv; UnoEnv(opponents=['ppo-standard_en-2p'])",
    "the SB3 environment": "import uno_env.sb3",
}


@pytest.mark.parametrize("code", LIBRARY.values(), ids=LIBRARY.keys())
def test_a_library_call_of_an_extra_raises_an_import_error_naming_the_extra(light, tmp_path, code):
    """Library code gets an exception, as Python's own missing modules are: a ``ModuleNotFoundError`` (so an
    ``except ImportError`` still catches it) whose message names the extra and how to install it."""
    wrapped = (f"try:\n    {code}\nexcept ImportError as exc:\n"
               f"    print(type(exc).__name__, isinstance(exc, ModuleNotFoundError), exc.name, '|', exc)\n")
    out = run(light, ["python", "-c", wrapped], tmp_path)
    assert out.returncode == 0, out.stderr
    kind, subclass, module, bar, *message = out.stdout.split()
    assert (kind, subclass, bar) == ("MissingExtraError", "True", "|")
    assert module in ("'torch'", "torch", "stable_baselines3")
    message = " ".join(message)
    assert TRAIN in message and INSTALL.format("train") in message, message


def test_the_bots_still_play_on_the_light_install(light, tmp_path):
    """What the light install promises keeps working: a round of bots, watched."""
    out = run(light, ["uno", "watch", "--players", "3", "--bots", "heuristic,greedy", "--seed", "1", "--quiet"],
              tmp_path)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "round over" in out.stdout, out.stdout


@pytest.mark.parametrize("command", [["uno", "eval"], ["python", "-m", "training.evaluate"]])
def test_a_match_of_bots_needs_no_extra(light, tmp_path, command):
    """The bots' matches are numpy only (``uno_env.arena``): the table comes out, with a note for each part an
    extra would add (the ratings of a table of three, the plot of ``--out``)."""
    out = run(light, [*command, "--agents", "heuristic,greedy,random", "--players", "3", "--games", "12",
                      "--out", "res"], tmp_path)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "| 0 | heuristic |" in out.stdout and "no ratings: OpenSkill is not installed" in out.stdout, out.stdout
    assert "no results.png" in out.stdout and INSTALL.format("train") in out.stdout, out.stdout
    assert sorted(p.name for p in (tmp_path / "res").iterdir()) == ["results.json", "results.md"]
