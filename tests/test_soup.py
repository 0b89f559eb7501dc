"""Model soups (``training.soup``): the weight average of policies fine-tuned from one parent, exported
as one policy that records its members."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import export_agent

import agents
from training.soup import soup
from uno_env import VecGame

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

ROOT = Path(__file__).resolve().parent.parent


def _weights(path):
    return torch.load(path.with_suffix(".pt"), weights_only=True)


def test_a_soups_weights_are_its_members_mean_and_it_loads_as_a_policy(tmp_path):
    a, b, c = (export_agent(tmp_path / n, 2) for n in "abc")
    out = soup([str(a), str(b), str(c)], tmp_path / "s")
    mean, wa, wb, wc = _weights(out), _weights(a), _weights(b), _weights(c)
    assert set(mean) == set(wa)
    for k in wa:
        torch.testing.assert_close(mean[k], (wa[k] + wb[k] + wc[k]) / 3)
    game = VecGame("standard_en", 2, batch_size=8, seed=0, observation="v3")
    actions = agents.load(str(out), game=game).act(game.observe(), game.legal_mask())
    assert game.legal_mask()[np.arange(8), actions].all()


def test_a_soup_of_one_policy_twice_plays_as_that_policy(tmp_path):
    a = export_agent(tmp_path / "a", 2)
    out = soup([str(a), str(a)], tmp_path / "s")
    game = VecGame("standard_en", 2, batch_size=32, seed=1, observation="v3")
    obs, mask = game.observe(), game.legal_mask()
    np.testing.assert_allclose(agents.load(str(out), game=game).probabilities(obs, mask),
                               agents.load(str(a), game=game).probabilities(obs, mask), atol=1e-6)


def test_a_soups_json_records_its_members_and_sums_their_steps(tmp_path):
    a, b = export_agent(tmp_path / "a", 2), export_agent(tmp_path / "b", 2)
    for path, steps in ((a, 1000), (b, 2500)):  # as a trainer's export records them
        meta = json.loads(path.read_text())
        path.write_text(json.dumps(dict(meta, trained_steps=steps, train_seconds=steps / 100)))
    meta = json.loads(soup([str(a), str(b)], tmp_path / "s", name="my-soup").read_text())
    assert meta["name"] == "my-soup" and meta["trainer"] == "training.soup"
    assert [m["member"] for m in meta["soup_of"]] == [str(a), str(b)]
    assert meta["trained_steps"] == 3500 and meta["train_seconds"] == 35.0


def test_a_soup_refuses_networks_of_another_shape_or_game_naming_both(tmp_path):
    a, four = export_agent(tmp_path / "a", 2), export_agent(tmp_path / "four", 4)
    with pytest.raises(ValueError, match="observation_size 1273.*has 993"):
        soup([str(a), str(four)], tmp_path / "s")
    with pytest.raises(ValueError, match="'heuristic' is a bot"):
        soup([str(a), "heuristic"], tmp_path / "s")
    with pytest.raises(ValueError, match="at least two policies, got 1"):
        soup([str(a)], tmp_path / "s")
    assert not (tmp_path / "s.json").exists()


def test_soup_script_reports_a_bad_member_and_writes_nothing(tmp_path):
    a = export_agent(tmp_path / "a", 2)
    run = subprocess.run([sys.executable, "-m", "training.soup", str(a), "no-such-agent", "--out",
                          str(tmp_path / "s")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and "'no-such-agent' is not an agent" in run.stderr
    assert not (tmp_path / "s.json").exists()
