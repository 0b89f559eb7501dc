"""How much of a round's outcome two critics explain, on the same fresh rollouts.

An exported agent's own value head (trained beside it on the seat's view) against the value head of a
``--privileged-critic`` checkpoint (which also reads the other hands and the next draws): the agent
plays the learner seat (sampling, as in training) against the opponents, and each critic's explained
variance of the discounted outcome (``--gamma``, that of training) is measured on every decision of the
rounds that finish.  If hidden cards decided the outcome, the privileged critic would explain far more.

    python -m research.critic_probe --agent ppo-standard_en-4p --checkpoint runs/pc4p/checkpoints/latest.zip
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np


def probe(agent_name: str, checkpoint: str, rules: str, players: int, opponents: str, decisions: int,
          n_envs: int = 64, gamma: float = 0.995, seed: int = 9191) -> dict:
    import torch
    from sb3_contrib import MaskablePPO

    import agents
    from agents.privileged import is_privileged
    from training.train_ppo import discounted_outcomes
    from uno_env.learner import LearnerGames

    model = MaskablePPO.load(checkpoint, device="cpu")
    for layout in ("v3", "v2"):  # the observation layout the checkpoint was trained on
        games = LearnerGames(rules, players, n_envs, [o.strip() for o in opponents.split(",")], seed=seed,
                             privileged=True, observation=layout)
        if model.observation_space.shape == (games.observation_size,):
            break
    agent = agents.load(agent_name, game=games.game)
    agent.deterministic = False
    if not is_privileged(model.policy) or model.observation_space.shape != (games.observation_size,):
        raise ValueError(f"{checkpoint} is not a --privileged-critic checkpoint for {rules} with {players} players")
    rng = np.random.default_rng(seed)
    steps, pub = max(1, decisions // n_envs), games.public_size
    obs = np.zeros((steps, n_envs, games.observation_size), np.float32)
    reward = np.zeros((steps, n_envs), np.float32)
    done = np.zeros((steps, n_envs), bool)
    for t in range(steps):
        obs[t] = games.observe()
        out = games.step(agent.act(obs[t][:, :pub], games.action_masks(), rng))
        reward[t], done[t] = out["reward"], out["terminated"] | out["truncated"]
        games.restart(np.flatnonzero(done[t]))
    ret, keep = discounted_outcomes(reward, done, gamma)  # unfinished rounds are dropped
    X, Y = torch.as_tensor(obs[keep]), torch.as_tensor(ret[keep])
    with torch.no_grad():
        own = agent.policy.predict_values(X[:, :pub]).flatten()
        privileged = model.policy.predict_values(X).flatten()

    def explained(v) -> float:
        return round(float(1 - ((v - Y) ** 2).mean() / Y.var()), 4)
    return {"probe": "critic", "agent": agent_name, "checkpoint": checkpoint, "rules": rules, "players": players,
            "opponents": opponents, "decisions": int(len(Y)), "gamma": gamma, "seed": seed,
            "agent_critic_explained_variance": explained(own),
            "privileged_critic_explained_variance": explained(privileged)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m research.critic_probe", description=__doc__.split("\n")[0])
    p.add_argument("--agent", default="ppo-standard_en-4p", help="exported agent (name or path) that plays")
    p.add_argument("--checkpoint", required=True, help="a --privileged-critic MaskablePPO checkpoint (.zip)")
    p.add_argument("--rules", default="standard_en")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--opponents", default="heuristic", help="comma-separated opponent agents")
    p.add_argument("--decisions", type=int, default=64_000, help="learner decisions to play")
    p.add_argument("--seed", type=int, default=9191)
    a = p.parse_args(argv)
    try:
        line = probe(a.agent, a.checkpoint, a.rules, a.players, a.opponents, a.decisions, seed=a.seed)
    except (ValueError, FileNotFoundError) as exc:
        print(f"critic_probe: error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
