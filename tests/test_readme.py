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


PLACE = [c for c in PY_BLOCKS if "place(" in c]  # the block that ranks a strategy of your own (its own test)


@pytest.mark.parametrize("code", [c for c in PY_BLOCKS if c not in PLACE],
                         ids=[f"block{i}" for i, c in enumerate(PY_BLOCKS) if c not in PLACE])
def test_python_examples_run_as_written(code, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # what a block writes goes to a scratch folder, not the clone
    exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})


def test_the_own_strategy_block_ranks_its_class_on_the_standard_en_2_player_table(capsys, tmp_path, monkeypatch):
    """The README's strategy of your own, as written: a batched act, placed by the quick protocol beside the bots
    and the shipped agent (its matches under runs/leaderboard-quick of the working folder, here a scratch one)."""
    pytest.importorskip("torch", reason="the train extra is not installed: the table holds a trained agent")
    monkeypatch.chdir(tmp_path)
    (code,) = PLACE
    scope = {"__name__": "readme_example"}
    exec(compile(code, "README.md", "exec"), scope)
    t, out = scope["t"], capsys.readouterr().out
    classes = [v for v in scope.values() if isinstance(v, type) and callable(getattr(v, "act", None))]
    assert len(classes) == 1 and "quick=True" in code  # one strategy class, ranked by the quick protocol
    name = classes[0].__name__
    assert (t["rules"], t["players"]) == ("standard_en", 2) and name in t["ranking"]
    assert {"random", "greedy", "heuristic", "ppo-standard_en-2p"} <= set(t["ranking"])
    from training.leaderboard import QUICK_ROUNDS
    assert {m["rounds"] + m["void_rounds"] for m in t["matches"]} == {QUICK_ROUNDS}  # each match, every round
    assert any(line.startswith("| ") and f"`{name}`" in line for line in out.splitlines())  # its row, printed
    assert (tmp_path / "runs" / "leaderboard-quick").is_dir()


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


def test_the_first_command_shows_heuristic_bots_play_a_few_screens_at_a_pace_one_can_follow(monkeypatch, capsys):
    """The first command is what a newcomer sees first: the strongest bot, a round long enough to show the game
    (a few screens, not hundreds of lines in a second) and a pause before each move, over seconds, not minutes."""
    import shlex

    from uno_apps import cli, terminal

    install = README.split("## Install and run", 1)[1].split("```bash\n", 1)[1]
    first = install.splitlines()[0].split("&&", 1)[1].split("#", 1)[0]
    argv = shlex.split(first)
    assert argv[0] == "uno" and argv[1] == "watch" and argv[argv.index("--bots") + 1] == "heuristic"
    delay = float(argv[argv.index("--delay") + 1])
    pauses = []
    monkeypatch.setattr(terminal.time, "sleep", pauses.append)  # the pauses counted, not waited
    assert cli.main(argv[1:]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert 60 <= len(shown) <= 200, len(shown)  # a few screens
    assert set(pauses) == {delay} and 10 <= delay * len(pauses) <= 60, (delay, len(pauses))  # seconds to watch
    assert any("round over" in line for line in shown[-8:])  # a whole round


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


def test_the_vecgame_block_prints_the_width_every_env_observes(capsys):
    """VecGame observes the default layout (v3) as every env does, and the README says what it prints."""
    from uno_env import uno_v4

    code = next(c for c in PY_BLOCKS if "VecGame(" in c and "observe()" in c)
    exec(compile(code, "README.md", "exec"), {"__name__": "readme_example"})
    printed = capsys.readouterr().out.strip()
    env = uno_v4.env(rules="standard_en", num_players=4)
    width = env.observation_space("player_0")["observation"].shape[0]
    assert printed == f"(1024, 4) (1024, {width})"
    assert f"# {printed}" in code  # the block's comment shows that output


def test_the_light_install_and_the_test_suites_needs_are_said():
    install = README.split("## Install and run", 1)[1].split("\n## ", 1)[0]
    assert "pip install -e ." in install and "no PyTorch" in install
    assert "minutes" in install and "chromium" in install and "scale" in install
    assert (ROOT / "LICENSE").is_file() and "MIT License" in (ROOT / "LICENSE").read_text()


def test_the_readme_and_getting_started_name_each_trainer_by_its_command_and_say_what_scale_changes():
    """The same command on both first pages (not a file path on one and a module on the other), and the scale
    extra's one side effect said where it is offered: Ray pins an older Gymnasium."""
    started = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    for page in (README, started):
        assert "python -m training.rllib_train" in page and "training/rllib_train.py" not in page
        assert any("scale" in line and "older Gymnasium" in line for line in page.splitlines())
