"""training.curve: a run's learning curve from the TensorBoard scalars ppo_lean writes."""

import json

import pytest

pytest.importorskip("tensorboard")
from torch.utils.tensorboard import SummaryWriter  # noqa: E402

from training import curve  # noqa: E402


def test_windows_average_the_rollouts_ending_in_each_window_and_the_last_ends_at_the_last_rollout():
    points = [(100, 0.2), (200, 0.4), (300, 0.6), (450, 1.0)]
    assert curve.windows(points, every=200) == [
        {"steps_to": 200, "rollouts": 2, "training_win_rate": 0.3},
        {"steps_to": 400, "rollouts": 1, "training_win_rate": 0.6},
        {"steps_to": 450, "rollouts": 1, "training_win_rate": 1.0},
    ]


def test_windows_reject_a_window_that_is_not_a_positive_number_of_steps():
    with pytest.raises(ValueError, match="every must be a positive number of steps, got 0"):
        curve.windows([(1, 0.5)], every=0)


def test_a_step_written_again_after_a_resume_counts_once_with_its_later_value(tmp_path):
    run = tmp_path / "run"
    first = SummaryWriter(str(run / "tb"))
    for step, value in ((10, 0.1), (20, 0.2), (30, 0.9)):  # 30: past the checkpoint at 20, then stopped
        first.add_scalar(curve.TAG, value, step)
    first.close()
    second = SummaryWriter(str(run / "tb"))  # the resumed session replays step 30
    for step, value in ((30, 0.3), (40, 0.4)):
        second.add_scalar(curve.TAG, value, step)
    second.close()
    assert [(s, round(v, 6)) for s, v in curve.rollouts(run / "tb")] == [(10, 0.1), (20, 0.2), (30, 0.3), (40, 0.4)]
    out = tmp_path / "curve.json"
    assert curve.main([str(run), "--agent", "ppo-x", "--every", "20", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["agent"] == "ppo-x" and data["run"] == "run"
    assert [w["training_win_rate"] for w in data["curve"]] == [0.15, 0.35]


def test_a_folder_without_win_rates_is_an_error_that_names_it(tmp_path, capsys):
    (tmp_path / "tb").mkdir()
    assert curve.main([str(tmp_path), "--agent", "x"]) == 2
    assert "no 'rollout/win_rate' scalars under" in capsys.readouterr().err
