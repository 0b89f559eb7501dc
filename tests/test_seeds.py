"""The seeds that publish figures (the leaderboard, the best responses' measurement, the tuned heuristic's
check) are never the seeds that train, tune or select (``training/seeds.py``)."""

from __future__ import annotations

import itertools
import json
import re
import shlex
from pathlib import Path

import pytest

from training import seeds

ROOT = Path(__file__).resolve().parent.parent


def published(seed: int, width: int = 1) -> list[str]:
    """The published ranges that seeds ``seed`` to ``seed + width - 1`` touch."""
    probe = seeds.SeedRange("probe", int(seed), int(seed) + max(1, int(width)), "")
    return [r.name for r in seeds.PUBLISHED if r.overlaps(probe)]


def test_the_named_ranges_are_apart():
    for a, b in itertools.combinations(seeds.RANGES, 2):
        assert not a.overlaps(b), (a.name, b.name)
    assert set(seeds.PUBLISHED) | set(seeds.FITTING) == set(seeds.RANGES)
    assert not set(seeds.PUBLISHED) & set(seeds.FITTING)
    assert seeds.range_of(seeds.LEADERBOARD.start) is seeds.LEADERBOARD and seeds.range_of(-1) is None


def test_the_publishing_commands_use_their_own_ranges():
    from training import best_response, leaderboard

    assert seeds.LEADERBOARD.span(leaderboard.SEED, leaderboard.BATCH)
    assert seeds.BEST_RESPONSE_CHECK.span(seeds.BEST_RESPONSE_CHECK.start, best_response.BATCH)
    assert seeds.HEURISTIC_CHECK.span(seeds.HEURISTIC_CHECK.start, 2048)


def test_the_training_code_seeds_stay_out_of_the_published_ranges():
    """Every seed the training and selection code uses: the recipes' runs (their games, and a resume that restarts
    them at seed + step), ppo_lean's and train_ppo's defaults, train_ppo's evaluations during training, the
    rllib trainer's, tune_heuristic's default search and confirmation."""
    from training import ppo_lean, recipe, rllib_train, train_ppo, tune_heuristic

    cfg = ppo_lean.Config()
    assert not published(cfg.seed, cfg.n_envs + cfg.total_steps)
    for r in recipe.RECIPES.values():
        for step in r.steps:
            if not isinstance(step, recipe.Run):
                continue
            for total, args in step.sessions:
                words = shlex.split(args)
                seed = int(words[words.index("--seed") + 1]) if "--seed" in words else cfg.seed
                n_envs = int(words[words.index("--n-envs") + 1]) if "--n-envs" in words else cfg.n_envs
                assert not published(seed, n_envs + total + 1_000_000), (r.agent, step.name, seed)
    # train_ppo evaluates during training on seed 10_000 + t % 9973 with batches of at most 512 games
    source = Path(train_ppo.__file__).read_text()
    assert "seed=10_000 + t % 9973" in source and "batch_size=min(512, args.eval_games)" in source
    assert not published(10_000, 9973 + 512)
    assert not published(train_ppo.Args().seed, 1 << 16)
    rllib = (ROOT / "training" / "rllib_train.py").read_text()
    assert "seed=10_000 + args.seed" in rllib and not published(10_000 + rllib_train.Args().seed, 1 << 16)
    for seed in (tune_heuristic.DEFAULT_SEED, tune_heuristic.DEFAULT_SEED + tune_heuristic.CONFIRM_OFFSET):
        assert not published(seed, 2048)


def test_no_seed_literal_of_the_training_code_is_a_published_one():
    """A seed written into the training scripts (``seed=N``, ``seed + N``, ``--seed N``) lies outside the
    published ranges (the publishing commands take theirs from ``training.seeds``)."""
    pattern = re.compile(r"(?:seed\s*[=+]\s*|--seed[ =])(\d[\d_]*)")
    for path in sorted([*(ROOT / "training").glob("*.py"), *(ROOT / "research").glob("*.py")]):  # and the probes
        if path.name == "seeds.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for m in pattern.finditer(line):
                assert not published(int(m.group(1).replace("_", "")), 1 << 14), f"{path.name}:{n}: {line.strip()}"


RECORDS = [ROOT / "training" / "results", ROOT / "results", ROOT / "agents" / "models"]
OWN = {"leaderboard", "heuristic_tuning", "held_out"}  # folders of published figures (held_out: the README's)


def recorded_seeds():
    """(file, seed) of every seed recorded with a training run, a selection or an earlier evaluation."""
    pattern = re.compile(r"\"(?:seed|confirm_seed|training_seed)\": ?(\d+)|--seed[ =](\d+)")
    for top in RECORDS:
        if not top.is_dir():
            continue
        for path in top.rglob("*"):
            if not path.is_file() or path.suffix not in (".json", ".jsonl", ".log", ".md", ".txt") \
                    or OWN & set(path.relative_to(top).parts):
                continue
            for m in pattern.finditer(path.read_text(errors="replace")):
                yield path.relative_to(ROOT), int(m.group(1) or m.group(2))


def test_the_seeds_of_the_records_kept_so_far_are_not_published_ones():
    found = list(recorded_seeds())
    assert len(found) > 50  # the evaluations and runs of training/results and the model cards
    bad = [f"{p}: {s} ({', '.join(published(s, 2048))})" for p, s in found if published(s, 2048)]
    assert not bad, "\n".join(bad)


def test_the_results_measured_on_published_ranges_say_so():
    """The best responses and the heuristic's tuning checks kept in git name the ranges they used."""
    br = ROOT / "results" / "leaderboard" / "best_response.jsonl"
    for line in (br.read_text().splitlines() if br.is_file() else []):
        r = json.loads(line)
        assert seeds.BEST_RESPONSE_CHECK.span(r["seed"], r["batch_size"])
        assert r["training_seed"] in seeds.BEST_RESPONSE_TRAINING


@pytest.mark.parametrize("r", seeds.RANGES, ids=lambda r: r.name)
def test_a_range_describes_itself(r):
    d = r.as_dict()
    assert d["first"] == r.start and d["last"] == r.stop - 1 and d["purpose"]
    assert r.start in r and r.stop - 1 in r and r.stop not in r
