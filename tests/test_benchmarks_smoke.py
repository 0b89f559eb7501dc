"""The benchmark scripts run and print well-formed JSON lines. No timing or speed is asserted here, and the
timeouts only guard against a hang (generous, so a busy machine passes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE_KEYS = {"bench", "preset", "players", "batch_size", "policy", "rounds_per_s", "decisions_per_s",
             "engine_only_decisions_per_s", "seconds", "repeats", "warmup_excluded", "peer",
             "ratio_rounds_vs_peer_games", "ratio_decisions_vs_peer_steps", "versions"}
PEER_KEYS = {"name", "players", "games_per_s", "steps_per_s"}
MEMORY_KEYS = {"bench", "preset", "players", "batch_size", "state_bytes_per_game", "tracemalloc_peak_bytes",
               "peak_rss_bytes", "versions"}
VERSION_KEYS = {"uno_env", "numpy", "rlcard", "python"}


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    pytest.importorskip("rlcard")
    out = tmp_path_factory.mktemp("bench") / "smoke.jsonl"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "bench_core.py"), "--smoke", "--out", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    return proc, out


def test_bench_core_smoke_prints_one_json_line_per_setting(smoke_run):
    proc, out = smoke_run
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    core = [r for r in records if r["bench"] == "core"]
    assert {(r["batch_size"], r["policy"]) for r in core} == {(b, p) for b in (1, 64)
                                                             for p in ("play_first", "uniform")}
    for r in core:
        assert "error" not in r, r
        assert CORE_KEYS <= r.keys(), CORE_KEYS - r.keys()
        assert PEER_KEYS <= r["peer"].keys()
        assert VERSION_KEYS <= r["versions"].keys()
        assert r["warmup_excluded"] is True
        assert r["decisions_per_s"] > 0
    memory = [r for r in records if r["bench"] == "core_memory"]
    assert {r["batch_size"] for r in memory} == {1, 64}
    for r in memory:
        assert MEMORY_KEYS <= r.keys(), MEMORY_KEYS - r.keys()
    assert out.read_text().splitlines() == [line for line in proc.stdout.splitlines() if line.strip()]


def test_plot_reads_the_smoke_output(smoke_run, tmp_path):
    pytest.importorskip("matplotlib")
    _, out = smoke_run
    png = tmp_path / "smoke.png"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "plot.py"), str(out), "--png", str(png)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert png.stat().st_size > 0


def test_plot_draws_a_setting_measured_twice_from_its_last_line():
    pytest.importorskip("matplotlib")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from plot import latest

    def rec(preset, batch, rate):
        return {"preset": preset, "policy": "play_first", "batch_size": batch, "players": 4, "rounds_per_s": rate}

    old, other, new = rec("standard_en", 1, 144.0), rec("standard_en", 64, 2173.0), rec("standard_en", 1, 524.0)
    assert latest([old, other, new]) == [new, other]


@pytest.mark.parametrize("script,bench,keys", [
    ("bench_aec.py", "aec", {"steps_per_s", "peer_steps_per_s", "ratio_vs_peer", "versions"}),
    ("bench_rss.py", "rss", {"rss_mib", "rss_growth_after_warmup_mib", "state_bytes_per_game", "versions"}),
    ("bench_training.py", "training", {"path", "versions"}),
    ("bench_web.py", "web", {"latency_ms", "rss_mib", "statuses", "versions"}),
])
def test_bench_script_smoke_prints_a_json_line(script, bench, keys):
    if script == "bench_aec.py":
        pytest.importorskip("rlcard")
    if script == "bench_web.py":
        pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
    if script == "bench_training.py":
        pytest.importorskip("sb3_contrib")
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "--smoke"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    records = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert records and all(r["bench"] == bench and keys <= r.keys() for r in records)


def test_bench_aec_profile_prints_the_share_of_each_function_in_the_loop():
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_aec.py"), "--rules", "flip_jp",
                           "--profile", "0.3"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (record,) = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert record["bench"] == "aec_profile" and record["rules"] == "flip_jp" and record["steps"] > 0
    shares = record["inclusive"]
    assert shares and all(0 < v <= 1 for v in shares.values()) and "observe.py:observe_one" in shares


def test_bench_aec_ask_forced_times_the_option_beside_the_default():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this tree's env, whatever is installed
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_aec.py"), "--ask-forced", "--smoke",
                           "--rules", "solo_bga", "--players", "3"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (record,) = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert record["bench"] == "aec_ask_forced" and (record["rules"], record["players"]) == ("solo_bga", 3)
    for name in ("default", "ask_forced"):
        assert {"steps_per_s", "rounds_per_s", "steps_per_round"} <= record[name].keys()
    assert {"ratio_steps_per_s", "ratio_rounds_per_s", "versions"} <= record.keys()


def test_ab_core_times_two_trees_in_alternating_processes(tmp_path):
    cmd = [sys.executable, str(ROOT / "benchmarks" / "ab_core.py"), str(ROOT), str(ROOT), "--batch-size", "8",
           "--seconds", "0.05", "--repeats", "1"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    assert [r["bench"] for r in lines] == ["ab_core", "ab_core"]
    assert lines[0]["rounds_ratio"] == 1.0 and lines[1]["engine_speedup"] > 0
    assert all(VERSION_KEYS | {"uno_env_git"} <= r["versions"].keys() for r in lines)
    bad = subprocess.run([*cmd[:2], str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "is not a source tree of this project" in bad.stderr


def test_ab_core_compares_presets_per_decision_and_per_move():
    cmd = [sys.executable, str(ROOT / "benchmarks" / "ab_core.py"), str(ROOT), "--preset", "standard_en", "house_cn",
           "--batch-size", "8", "--seconds", "0.05", "--repeats", "1"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    assert [r["preset"] for r in lines] == ["standard_en", "house_cn"]
    assert lines[0]["decisions_ratio"] == 1.0
    ratio = lines[0]["decisions_per_s"] / lines[1]["decisions_per_s"]  # from the printed (rounded) rates
    assert abs(lines[1]["decisions_ratio"] - ratio) <= 0.005 * ratio
    # every decision is a move, and the forced moves come on top of them
    assert all(r["moves_per_decision"] >= 1 for r in lines) and lines[0]["moves_ratio"] == 1.0
    moves = lines[0]["moves_per_s"] / lines[1]["moves_per_s"]
    assert abs(lines[1]["moves_ratio"] - moves) <= 0.005 * moves


@pytest.mark.parametrize("extra,bench", [([], "core_profile"), (["--passes"], "settle_passes")])
def test_profile_core_prints_a_json_line(extra, bench):
    cmd = [sys.executable, str(ROOT / "benchmarks" / "profile_core.py"), "--preset", "house_cn", "--batch-size", "16",
           "--steps", "20", "--warmup-rounds", "0.2", *extra]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (line,) = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    assert line["bench"] == bench and "versions" in line
    if extra:  # every step settles at least one pass over the whole batch
        assert line["passes"][0]["pass"] == 0 and line["passes"][0]["mean_rows"] == 16
        assert 0 < line["settle_share"] <= 1 and line["passes_per_step"] >= 1


def test_ab_jobs_times_jobs_run_at_once_under_two_trees(tmp_path):
    cmd = [sys.executable, str(ROOT / "benchmarks" / "ab_jobs.py"), str(ROOT), str(ROOT), "--workload",
           "greedy,random@standard_en:20", "--jobs", "2", "--repeats", "1", "--batch-size", "8"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    assert [(r["bench"], r["jobs"], r["rules"]) for r in lines] == [("ab_jobs", 2, "standard_en")] * 2
    assert lines[0]["speedup"] == 1.0 and lines[1]["rounds_per_s_all_jobs"] > 0
    assert all(VERSION_KEYS | {"uno_env_git"} <= r["versions"].keys() for r in lines)
    bad = subprocess.run([*cmd[:3], "--workload", "heuristic@standard_en"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert bad.returncode == 2 and "AGENTS@RULES" in bad.stderr


def test_ab_core_times_the_step_with_the_tables_memory_on_request():
    cmd = [sys.executable, str(ROOT / "benchmarks" / "ab_core.py"), str(ROOT), "--observation", "v3",
           "--batch-size", "8", "--seconds", "0.05", "--repeats", "1"]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (line,) = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    assert line["observation"] == "v3" and line["decisions_per_s"] > 0
