"""League fine-tuning: a trained agent trained on against a population that keeps changing, so that it learns
what its fixed opponents never punished.

    python -m training.league --init-agent ppo-standard_en-2p --rules standard_en --run-name league-std2p \\
        --total-steps 10000000 --colour-augment
    python -m training.league --run-name league-std2p --resume --total-steps 12000000   # continue

An agent trained only against ``heuristic`` never learned to catch a missed "UNO": ``heuristic`` always declares
it.  Here the learner (``training.ppo_lean``'s loop, network and checkpoints; every ``ppo_lean`` flag works) plays
against a **population**, as AlphaStar's main agents do (``docs/training.md``, "League training"):

* the **fixed part**: ``--opponents`` (default ``heuristic,greedy``) and every flawed player of the preset that
  is not held out (``agents.flawed.gauntlet(rules, include_held_out=False)``); the held-out flaws are refused,
  so that the robustness table can show how the agent does against holes nobody trained it on;
* **frozen snapshots of the learner** (fictitious self-play): the starting agent, and a snapshot every
  ``--league-snapshot-every`` steps (the last ``--league-snapshots`` are kept), playing their network without
  colour averaging (LEAGUE.md: a pool plays cheaply in training and averaged at evaluation);
* **sampling by shortfall**: half the new episodes (``--core-share``) go to the core, ``--opponents`` and the
  snapshots, evenly, so that what the agent already does well stays trained; the other half to the flawed
  players, each in proportion to the learner's **shortfall** against it: how much less it wins (its recent
  episodes, wins and count decayed by ``--pfsp-decay`` each update) than unflawed ``heuristic`` wins against the
  same flaw (the **reference**, measured at the start on 2,000 training-range rounds a flaw), and never less
  than ``--shortfall-floor`` (one point).  AlphaStar's prioritised fictitious self-play weights an opponent by
  how often it beats the learner, ``(1 - p) ** 2``; here that rule gave the flaw that mattered (never declaring
  UNO, which the learner beat 65% of the time but ``heuristic`` 90%) 7% of the games, and the learner's rate
  against it moved from 65% to 69% in 1M samples: a hole is a shortfall against what is possible, not a loss.

At more than two players each episode draws one opponent, for the seat after the learner's, and gives the other
seats to ``--others`` (``heuristic``): the lineup of the leaderboard's robustness table, so the references and the
shortfalls are measured as the table measures them (a flaw's cost at 4 players is shared with the other seats).

The run folder is ``ppo_lean``'s (``runs/NAME/``: resumable, with checkpoints, sessions and the exported
agent), plus ``league.json``: the pool, the sampling rule, and at every update each opponent's estimated win
rate and weight (the curve of what the learner practised against), and ``league/``: the snapshots.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from training import ppo_lean
from training.runs import run_command


@dataclass
class LeagueConfig(ppo_lean.Config):
    """``ppo_lean``'s settings and the league's own."""

    opponents: str = field(default="heuristic,greedy", metadata={"help": "the fixed opponents besides the "
                                                                          "preset's flawed players (comma list)"})
    seed: int = field(default=30_000_000, metadata={"help": "seed of the games, opponents, network and sampling "
                                                            "(training.seeds.TRAINING)"})
    flawed: bool = field(default=True, metadata={"help": "add the preset's flawed players that are not held out"})
    league_snapshot_every: int = field(default=1_000_000, metadata={"help": "steps between snapshots of the "
                                                                            "learner added to the pool"})
    league_snapshots: int = field(default=3, metadata={"help": "snapshots kept in the pool besides the start"})
    core_share: float = field(default=0.5, metadata={"help": "share of the episodes against --opponents and the "
                                                             "snapshots (evenly); the rest go to the flawed players"})
    shortfall_floor: float = field(default=0.01, metadata={"help": "a flawed player's least weight: this "
                                                                   "shortfall (win rate)"})
    reference_rounds: int = field(default=2000, metadata={"help": "rounds of heuristic against each flawed player "
                                                                   "to measure the references (training seeds)"})
    pfsp_decay: float = field(default=0.97, metadata={"help": "decay of each opponent's tallies per update"})
    others: str = field(default="heuristic", metadata={"help": "at more than 2 players: who holds the seats but the "
                                                               "one after the learner's, where the drawn opponent "
                                                               "sits (the robustness table's lineup); one of the "
                                                               "fixed opponents"})

    PROG: ClassVar[str] = "python -m training.league"
    PREFIX: ClassVar[str] = "league"
    RESUMABLE: ClassVar[tuple[str, ...]] = ppo_lean.Config.RESUMABLE + (
        "league_snapshot_every", "league_snapshots", "core_share", "shortfall_floor", "pfsp_decay")

    def validate(self) -> None:
        super().validate()
        if not self.init_agent and not self.distill:
            raise ValueError("a league fine-tunes a trained agent: give --init-agent (or --distill)")
        if self.league_snapshot_every < 1 or self.league_snapshots < 0:
            raise ValueError(f"--league-snapshot-every must be positive and --league-snapshots >= 0, got "
                             f"{self.league_snapshot_every} and {self.league_snapshots}")
        if not 0 < self.core_share <= 1 or self.shortfall_floor <= 0 or not 0 < self.pfsp_decay <= 1 \
                or self.reference_rounds < 1:
            raise ValueError(f"--core-share must be in (0, 1], --shortfall-floor positive, --pfsp-decay in (0, 1] and "
                             f"--reference-rounds positive; got {self.core_share}, {self.shortfall_floor}, "
                             f"{self.pfsp_decay}, {self.reference_rounds}")
        from agents import flawed
        if self.players > 2 and self.others not in self.fixed_opponents():
            raise ValueError(f"--others {self.others!r} must be one of the fixed opponents "
                             f"({', '.join(self.fixed_opponents())}): it holds the seats but the next")
        held = [n for n in self.fixed_opponents() if (f := flawed.flaw_of(n)) is not None and f.held_out]
        if held:
            raise ValueError(f"{', '.join(held)} {'is' if len(held) == 1 else 'are'} held out: no training plays "
                             f"against {'it' if len(held) == 1 else 'them'} (agents.flawed)")

    def fixed_opponents(self) -> list[str]:
        """``--opponents``, then (``--flawed``) the preset's flawed players that are not held out."""
        from agents import flawed
        names = [n.strip() for n in self.opponents.split(",") if n.strip()]
        if self.flawed:
            names += [n for n in flawed.gauntlet(self.rules, include_held_out=False) if n not in names]
        return names


def shortfall_weights(wins, games, references, core_share: float, floor: float) -> np.ndarray:
    """Sampling weights of a pool: the entries without a reference (``nan``: the core) share ``core_share``
    evenly; the others (the flawed players) share the rest in proportion to the learner's shortfall, the
    reference less its estimated win rate ``(wins + 1) / (games + 2)``, at least ``floor``.  They sum to 1."""
    ref = np.asarray(references, np.float64)
    p = (np.asarray(wins, np.float64) + 1) / (np.asarray(games, np.float64) + 2)
    core = np.isnan(ref)
    w = np.zeros(len(ref))
    if not core.any() or core.all():
        core_share = 1.0 if core.all() else 0.0
    w[core] = core_share / max(1, core.sum())
    if (~core).any():
        short = np.maximum(ref[~core] - p[~core], floor)
        w[~core] = (1 - core_share) * short / short.sum()
    return w / w.sum()


class LeaguePPO(ppo_lean.LeanPPO):
    """``LeanPPO`` whose opponents are a population sampled by shortfall, with snapshots of itself added."""

    TRAINER = "training.league"

    def __init__(self, cfg: LeagueConfig):
        cfg.opponents = ",".join(cfg.fixed_opponents())
        super().__init__(cfg)
        self.run = Path(cfg.run_dir)
        self.pool: list[str] = list(self.games.opponents[i].name for i in range(self.games.pool_size))
        self.snapshots: list[str] = []  # paths (without suffix) of the snapshots in the pool, oldest first
        self.wins = np.zeros(len(self.pool))
        self.played = np.zeros(len(self.pool))
        self.history: list[dict] = []
        if cfg.players > 2:  # the drawn opponent in the next seat, --others in the rest (the robustness lineup)
            self.games.set_fill(self.pool.index(cfg.others))
        self.references = self.measure_references()
        self._add_snapshot("start")  # the starting agent itself, frozen
        self.games.set_weights(self.weights())

    # ------------------------------------------------------------------ the pool
    def _names(self) -> list[str]:
        return [getattr(self.games.opponents[i], "name", f"opponent {i}") for i in range(self.games.pool_size)]

    def _add_snapshot(self, tag: str) -> None:
        from agents.policy import PolicyAgent
        path = self.run / "league" / f"{tag}"
        name = f"{self.cfg.name}@{tag}"
        self.export(path, name, extra={"name": name, "trained_steps": self.step, "trainer": "training.league"})
        snap = PolicyAgent.load(path.with_suffix(".json"), game=self.games.game, name=name)
        keep = [o for o in self.games.opponents[:self.games.pool_size]]
        self.snapshots.append(str(path))
        self.pool.append(name)
        self.wins, self.played = np.append(self.wins, 0.0), np.append(self.played, 0.0)
        if len(self.snapshots) > self.cfg.league_snapshots + 1:  # the start stays; the oldest later one goes
            gone = self.snapshots.pop(1)
            i = self.pool.index(f"{self.cfg.name}@{Path(gone).name}")
            del self.pool[i], keep[i]
            self.wins, self.played = np.delete(self.wins, i), np.delete(self.played, i)
        self.games.set_opponents(keep + [snap], weights=None)

    def measure_references(self) -> dict[str, float]:
        """What unflawed ``heuristic`` wins against each flawed player of the pool, on training seeds; at more than
        two players with the flawed player in the next seat and ``--others`` in the rest, as the learner meets it."""
        from agents import flawed
        from training.evaluate import play_match

        options = {k: v for k, v in self.cfg.env_options().items() if k != "observation"}
        out = {}
        for n in self.pool:
            if flawed.flaw_of(n) is not None:
                lineup = ["heuristic", n] + [self.cfg.others] * (self.cfg.players - 2)
                res = play_match(lineup, self.cfg.rules, self.cfg.players, self.cfg.reference_rounds,
                                 seed=self.cfg.seed + 5_000_000, ratings=False, **options)
                out[n] = float(res.entries[0].win_rate)
        return out

    def weights(self) -> np.ndarray:
        refs = [self.references.get(n, np.nan) for n in self.pool]
        return shortfall_weights(self.wins, self.played, refs, self.cfg.core_share, self.cfg.shortfall_floor)

    # ------------------------------------------------------------------ the rollout, tallied by opponent
    def collect(self) -> dict:
        games, tallies = self.games, []
        step = games.step

        def tallied(actions, rows=None):
            out = step(actions, rows)
            d = np.flatnonzero(out["terminated"] | out["truncated"])
            if d.size:  # the opponent of each ended episode (2 players: the other seat; more: the next one)
                opp = games.assign[d, (games.learner[d] + 1) % games.P]
                tallies.append((opp.copy(), out["reward"][d] > 0))
            return out

        games.step = tallied  # for this rollout only: never pickled with the games
        try:
            out = super().collect()
        finally:
            del games.step
        names = [getattr(o, "name", "") for o in games.opponents]
        self.wins *= self.cfg.pfsp_decay
        self.played *= self.cfg.pfsp_decay
        for opp, won in tallies:
            for k, w in zip(opp, won):
                if names[k] in self.pool:
                    j = self.pool.index(names[k])
                    self.played[j] += 1
                    self.wins[j] += w
        return out

    def learn(self, total_steps: int, on_update=None, stop=None) -> None:
        every = self.cfg.league_snapshot_every

        def hook(tr: LeaguePPO, stats: dict) -> None:
            if tr.step // every > (tr.step - tr.cfg.n_steps * tr.cfg.n_envs) // every:
                tr._add_snapshot(f"step_{tr.step}")
            w = tr.weights()
            tr.games.set_weights(w)
            p = (tr.wins + 1) / (tr.played + 2)
            tr.history.append({"step": tr.step, "opponents": {n: {"win_rate": round(float(p[i]), 4),
                                                                  "reference": tr.references.get(n),
                                                                  "weight": round(float(w[i]), 4),
                                                                  "episodes": round(float(tr.played[i]), 1)}
                                                              for i, n in enumerate(tr.pool)}})
            if on_update is not None:
                on_update(tr, stats)
            tr.write_league()

        super().learn(total_steps, hook, stop=stop)

    def write_league(self) -> None:
        cfg = self.cfg
        (self.run / "league.json").write_text(json.dumps({
            "rule": {"sampling": f"{cfg.core_share:.0%} of the episodes to the core (evenly), the rest to the flawed "
                                 f"players by shortfall (reference - p, at least {cfg.shortfall_floor}), p the "
                                 f"learner's win rate (wins and episodes decayed by {cfg.pfsp_decay} per update, "
                                 f"from 1 in 2)",
                     "snapshots": f"the start, and one every {cfg.league_snapshot_every:,} steps (the last "
                                  f"{cfg.league_snapshots} kept), playing their network"},
            "fixed": cfg.fixed_opponents(), "pool": self.pool, "snapshots": self.snapshots,
            "references": self.references,
            "history": self.history}, indent=None))

    # ------------------------------------------------------------------ checkpoints
    def state(self) -> dict:
        return {**super().state(), "league": {"pool": self.pool, "snapshots": self.snapshots, "wins": self.wins,
                                              "references": self.references,
                                              "played": self.played, "history": self.history}}

    def restore(self, state: dict) -> None:
        super().restore(state)
        lg = state["league"]
        self.pool, self.snapshots = list(lg["pool"]), list(lg["snapshots"])
        self.wins, self.played = np.asarray(lg["wins"]).copy(), np.asarray(lg["played"]).copy()
        self.history = list(lg["history"])
        self.references = dict(lg["references"])


def main(argv: list[str] | None = None) -> int:
    return run_command("league", lambda: ppo_lean.train(
        LeagueConfig.from_args(argv, description=__doc__.split("\n")[0]), trainer=LeaguePPO))


if __name__ == "__main__":
    raise SystemExit(main())
