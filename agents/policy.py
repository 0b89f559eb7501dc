"""Trained policies as batched agents, and a safe file format for shipping them.

An exported agent is two files side by side:

* ``NAME.json``: what the policy was trained for (env version, rules, options, player count, the
  observation layout and action names, each with a fingerprint), its network architecture, and how
  it was trained (command, time, evaluation);
* ``NAME.pt``: the policy network's weights only (a ``state_dict``), read with
  ``torch.load(weights_only=True)``, so loading runs no pickled code.

``PolicyAgent.load`` refuses a model whose env version, observation layout or action space differ
from the game it is asked to play, with an error naming both.  Training checkpoints (for resuming)
are SB3's own ``.zip`` files; ``PolicyAgent.from_sb3`` wraps one as an agent.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from .base import ModelMismatchError, check_batch, check_width, sample

FORMAT = "uno-env-policy/1"


def layout_fingerprint(game, observation: str | None = None) -> dict[str, Any]:
    """The observation layout (``observation``, default the game's) and action names of a configuration,
    with short fingerprints."""
    from uno_env import ENV_VERSION
    from uno_env.core.observe import Observer

    observer = game.observer
    if observation is not None and observation != getattr(observer, "version", "v2"):
        observer = Observer(game.engine, observation)
    obs = [[s.name, s.size] for s in observer.spec]
    names = list(game.action_names)
    h_obs = hashlib.sha256(json.dumps(obs).encode()).hexdigest()[:16]
    h_act = hashlib.sha256(json.dumps(names).encode()).hexdigest()[:16]
    return {"env_version": ENV_VERSION, "observation": getattr(observer, "version", "v2"),
            "observation_size": int(observer.size),
            "num_actions": int(game.num_actions), "observation_fingerprint": h_obs,
            "action_fingerprint": h_act}


def layout_of(meta: dict) -> str | None:
    """The observation layout an exported policy's metadata says it reads: an export from before v3 names
    none and reads v2; ``None`` when the metadata is not an export's."""
    layout = meta.get("observation", "v2" if "env_version" in meta else None) if isinstance(meta, dict) else None
    return layout if layout in ("v2", "v3") else None


class PolicyAgent:
    """A (Maskable) actor-critic policy acting on batches: ``act(obs, masks) -> actions``.

    Args:
        policy: an sb3-contrib ``MaskableActorCriticPolicy`` (``model.policy``).
        name: the agent's name in results.
        deterministic: take the most likely legal action (default) or sample (from the ``rng`` given
            to ``act``, so a seeded generator repeats the choices; torch's generator without one).
    """

    def __init__(self, policy, name: str = "ppo", deterministic: bool = True, meta: dict | None = None):
        self.policy = policy
        self.name = name
        self.deterministic = deterministic
        self.meta = meta or {}
        # the layout it was trained on (an exported model from before v3 reads v2; None: unknown, the game's);
        # the training envs give each opponent its layout
        self.observation = layout_of(self.meta)
        self.size = self.meta.get("observation_size")

    def _own_layout(self, obs: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        if self.observation == "v2" and self.size and obs.shape[1] > self.size:
            obs = obs[:, :self.size]  # a v3 observation starts with the v2 one (uno_env.core.observe)
        size = self.size or self.policy.observation_space.shape[0]
        check_width(self.name, obs, size, mask, self.meta.get("num_actions") or self.policy.action_space.n)
        return obs.astype(np.float32, copy=False)

    def probabilities(self, observations, action_masks) -> np.ndarray:
        """``(B, A)``: the policy's probability of each action (0 for illegal ones)."""
        import torch

        obs, mask = check_batch(observations, action_masks)
        with torch.no_grad():
            obs_t = torch.as_tensor(self._own_layout(obs, mask), device=self.policy.device)
            return self.policy.get_distribution(obs_t, action_masks=mask).distribution.probs.cpu().numpy()

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        obs, mask = check_batch(observations, action_masks)
        if self.deterministic or rng is None:
            actions, _ = self.policy.predict(self._own_layout(obs, mask), deterministic=self.deterministic,
                                             action_masks=mask)
            return np.asarray(actions, np.int64).reshape(-1)
        return sample(self.probabilities(obs, mask), rng)

    # ------------------------------------------------------------------ files
    def export(self, path: str | Path, game, extra: dict | None = None) -> Path:
        """Write ``path.json`` and ``path.pt`` (see the module docstring); returns the json path."""
        import torch

        path = Path(path).with_suffix("")
        path.parent.mkdir(parents=True, exist_ok=True)
        rules = game.rules
        meta = {
            "format": FORMAT, "name": path.name, **layout_fingerprint(game),
            "rules": rules.name, "options": rules.diff(_preset(rules.name)) if _preset(rules.name) else rules.options(),
            "players": int(game.num_players),
            "net_arch": _net_arch(self.policy), "activation": type(self.policy.activation_fn()).__name__,
            **(extra or {}),
        }
        torch.save({k: v.detach().cpu() for k, v in self.policy.state_dict().items()}, path.with_suffix(".pt"))
        path.with_suffix(".json").write_text(json.dumps(meta, indent=1))
        return path.with_suffix(".json")

    @classmethod
    def load(cls, path: str | Path, game=None, name: str | None = None, deterministic: bool = True) -> PolicyAgent:
        """Load an exported policy; with ``game``, check it was trained for that game's layout."""
        import torch
        from gymnasium import spaces
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

        path = Path(path)
        base = path.with_suffix("") if path.suffix in (".json", ".pt") else path
        meta_path, weights = base.with_suffix(".json"), base.with_suffix(".pt")
        if not meta_path.exists() or not weights.exists():
            raise FileNotFoundError(f"no exported policy at {base} (expected {meta_path.name} and {weights.name})")
        try:
            meta = json.loads(meta_path.read_text())
        except json.JSONDecodeError as exc:
            raise ModelMismatchError(f"{meta_path} is not valid JSON ({exc}); the file is corrupt") from None
        if meta.get("format") != FORMAT:
            raise ModelMismatchError(f"{meta_path} has format {meta.get('format')!r}; this loader reads {FORMAT!r}")
        if game is not None:
            check_compatible(meta, game, str(meta_path))
        low = np.full(meta["observation_size"], -np.inf, np.float32)
        policy = MaskableActorCriticPolicy(
            spaces.Box(low, -low, dtype=np.float32), spaces.Discrete(meta["num_actions"]), lambda _: 0.0,
            net_arch=meta["net_arch"], activation_fn=getattr(torch.nn, meta["activation"]))
        try:
            state = torch.load(weights, map_location="cpu", weights_only=True)
            policy.load_state_dict(state)
        except Exception as exc:  # truncated or corrupt weights
            raise ModelMismatchError(f"cannot read the weights in {weights}: {exc}") from None
        policy.set_training_mode(False)
        return cls(policy, name or meta.get("name", base.name), deterministic, meta)

    @classmethod
    def from_sb3(cls, path: str | Path, game=None, name: str | None = None, deterministic: bool = True):
        """Wrap an SB3 ``MaskablePPO`` checkpoint (``.zip``, e.g. an RL run's model) as an agent."""
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(str(path), device="cpu")
        policy, size = model.policy, model.observation_space.shape
        public_dim = getattr(policy, "public_dim", None)
        if public_dim:  # a privileged critic's checkpoint (agents/privileged.py): the actor alone plays
            from agents.privileged import actor_only
            policy, size = actor_only(policy), (public_dim,)
        v2 = layout_fingerprint(game, "v2")["observation_size"] if game is not None else None
        if game is not None and size not in ((game.observation_size,), (v2,)):
            raise ModelMismatchError(f"{path} takes observations of size {size}, "
                                     f"this game's are ({game.observation_size},)")
        if game is not None and getattr(model.action_space, "n", None) != game.num_actions:
            raise ModelMismatchError(f"{path} chooses among {getattr(model.action_space, 'n', None)} actions, "
                                     f"this game has {game.num_actions} ({game.rules.name}, "
                                     f"{game.num_players} players)")
        meta = None
        if game is not None:
            layout = "v2" if size == (v2,) else game.observer.version
            meta = {"observation": layout, "observation_size": size[0]}
        return cls(policy, name or Path(path).stem, deterministic, meta)


    @classmethod
    def from_run(cls, run: str | Path, game=None, name: str | None = None, deterministic: bool = True):
        """The latest checkpoint of a run still training (or stopped before its export): a ``ppo_lean`` run's
        ``checkpoints/latest.pt`` or a ``train_ppo`` run's ``checkpoints/latest.zip``.  The lean checkpoint
        holds the games in play, pickled: load only runs you trust (your own)."""
        import torch
        from gymnasium import spaces
        from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

        run = Path(run)
        name = name or f"{run.name}@latest"
        if (run / "checkpoints" / "latest.zip").is_file():
            return cls.from_sb3(run / "checkpoints" / "latest.zip", game=game, name=name, deterministic=deterministic)
        path = run / "checkpoints" / "latest.pt"
        try:
            state = torch.load(path, map_location="cpu", weights_only=False)
            weights, cfg = state["model"], state["config"]
        except Exception as exc:
            raise ModelMismatchError(f"cannot read the checkpoint {path}: {type(exc).__name__}: {exc}") from None
        obs_size = int(next(v for k, v in weights.items() if k.endswith("weight")).shape[1])
        actions = int(weights["action_net.weight"].shape[0])
        meta = {"observation": cfg.get("observation") or "v3", "observation_size": obs_size, "num_actions": actions,
                "rules": cfg.get("rules"), "players": cfg.get("players"), "trained_steps": int(state.get("step", 0))}
        if game is not None and actions != game.num_actions:
            raise ModelMismatchError(f"{path} chooses among {actions} actions, this game has {game.num_actions} "
                                     f"({game.rules.name}, {game.num_players} players)")
        low = np.full(obs_size, -np.inf, np.float32)
        arch = cfg.get("net_arch", "256,256")
        arch = [int(x) for x in str(arch).split(",")] if not isinstance(arch, (list, dict)) else arch
        policy = MaskableActorCriticPolicy(spaces.Box(low, -low, dtype=np.float32), spaces.Discrete(actions),
                                           lambda _: 0.0, net_arch=arch, activation_fn=torch.nn.Tanh)
        policy.load_state_dict(weights)
        policy.set_training_mode(False)
        return cls(policy, name, deterministic, meta)


def check_compatible(meta: dict, game, where: str) -> None:
    """Raise ``ModelMismatchError`` naming both sides if ``meta`` was trained for another layout."""
    layout = meta.get("observation", "v2")
    if layout != game.observer.version and getattr(game.engine, "memory", None) is None:
        raise ModelMismatchError(f"{where} was trained on observation {layout}, and this game observes "
                                 f"{game.observer.version} without the table's memory; make it with "
                                 f"observation={layout!r}")
    have = layout_fingerprint(game, layout)
    preset = _preset(game.rules.name)
    ours = game.rules.diff(preset) if preset else game.rules.options()

    def rules_of(name, options) -> str:  # "standard_en", or "standard_en with seven_o=True"
        return name + (" with " + ", ".join(f"{k}={v!r}" for k, v in options.items()) if options else "")
    for key, what in (("env_version", "env version"), ("observation_size", "observation size"),
                      ("observation_fingerprint", "observation layout"), ("num_actions", "number of actions"),
                      ("action_fingerprint", "action layout")):
        if meta.get(key) != have[key]:
            raise ModelMismatchError(
                f"{where} was trained for {what} {meta.get(key)!r} ({meta.get('env_version')}, "
                f"{rules_of(meta.get('rules'), meta.get('options'))}, {meta.get('players')} players), but this "
                f"game has {have[key]!r} ({have['env_version']}, {rules_of(game.rules.name, ours)}, "
                f"{game.num_players} players)")


def _preset(name: str):
    from uno_env.core.config import PRESETS
    return PRESETS.get(name)


def _net_arch(policy) -> Any:
    arch = getattr(policy, "net_arch", None)
    if isinstance(arch, dict):
        return {k: list(v) for k, v in arch.items()}
    return list(arch) if arch is not None else [64, 64]
