"""Policies trained with Ray RLlib (``training.rllib_train``) as batched agents.

>>> from agents.rllib_policy import load_rllib
>>> agent = load_rllib("runs/rllib-standard_en-2p-s0", game=game)        # doctest: +SKIP
>>> actions = agent.act(observations, action_masks)                         # doctest: +SKIP

``load_rllib`` takes an RLlib algorithm checkpoint directory (the one ``Algorithm.save`` writes, with
``rllib_checkpoint.json`` in it) or the directory of one RLModule inside it, and loads the trained
module with ``RLModule.from_checkpoint`` from ``learner_group/learner/rl_module/<module id>``: the
module id is read from ``uno_rllib.json`` (written next to the checkpoint by ``training.rllib_train``),
else ``learner`` (the AEC path) or ``default_policy`` (the batched path) is taken, whichever exists.

With ``game``, the checkpoint is checked against that game: the layout fingerprints of
``uno_rllib.json`` (env version, observation and action layouts, as ``agents.policy`` checks its own
exports) and the module's observation and action sizes.  Needs ray (the ``scale`` extra).

Note that an RLlib checkpoint is pickled (``class_and_ctor_args.pkl``, ``module_state.pkl``): load
only checkpoints you trust.  For a pickle-free file to ship, use the SB3 export of ``agents.policy``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .base import check_batch
from .policy import ModelMismatchError, check_compatible

META_FILE = "uno_rllib.json"  # written by training.rllib_train next to rllib_checkpoint.json
MODULE_DIR = ("learner_group", "learner", "rl_module")
MODULE_IDS = ("learner", "default_policy")


class RLlibAgent:
    """An RLlib action-masking RLModule acting on batches: ``act(obs, masks) -> actions``.

    Args:
        module: a torch ``RLModule`` whose observations are ``{"observations", "action_mask"}`` dicts
            and whose ``forward_inference`` returns masked action logits
            (``uno_env.rllib.MaskedPPOTorchRLModule``).
        name: the agent's name in results.
        deterministic: take the most likely legal action (default) or sample from the policy.
        seed: seed of the samples when not deterministic (an ``rng`` given to ``act`` takes precedence).
    """

    def __init__(self, module, name: str = "rllib", deterministic: bool = True, meta: dict | None = None,
                 seed: int | None = None):
        self.module = module
        self.name = name
        self.deterministic = deterministic
        self.meta = meta or {}
        self.rng = np.random.default_rng(seed)
        if hasattr(module, "eval"):
            module.eval()
        space = getattr(module, "observation_space", None)
        try:
            self.observation_size = int(space["observations"].shape[0])
        except (TypeError, KeyError, AttributeError):
            self.observation_size = None
        self.num_actions = int(getattr(getattr(module, "action_space", None), "n", 0)) or None
        # trained on the v2 layout (a checkpoint's meta from before v3 names no layout): read the v2 part of a v3 one
        layout = self.meta.get("observation", "v2" if "env_version" in self.meta else None)
        self.v2_prefix = self.observation_size is not None and layout == "v2"

    def logits(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """``(B, A)`` action logits, illegal actions at ``-inf``."""
        import torch
        from ray.rllib.core.columns import Columns

        obs, mask = check_batch(observations, action_masks)
        if self.v2_prefix and obs.shape[1] > self.observation_size:
            obs = obs[:, :self.observation_size]  # a v3 observation starts with the v2 one (uno_env.core.observe)
        if self.observation_size is not None and obs.shape[1] != self.observation_size:
            raise ModelMismatchError(f"{self.name} takes observations of size {self.observation_size}, "
                                     f"got {obs.shape[1]}")
        batch = {Columns.OBS: {"observations": torch.as_tensor(np.ascontiguousarray(obs, np.float32)),
                               "action_mask": torch.as_tensor(mask.astype(np.float32))}}
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        logits = out[Columns.ACTION_DIST_INPUTS].detach().cpu().numpy().astype(np.float64)
        logits[~mask] = -np.inf
        return logits

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        logits = self.logits(observations, action_masks)
        if not self.deterministic:
            rng = rng or self.rng
            logits = logits + rng.gumbel(size=logits.shape)  # Gumbel-max: a sample of softmax(logits)
        return logits.argmax(1).astype(np.int64)


def is_rllib_checkpoint(path) -> bool:
    """True for a directory ``load_rllib`` reads: an algorithm checkpoint (``rllib_checkpoint.json``)."""
    p = Path(path)
    return p.is_dir() and (p / "rllib_checkpoint.json").is_file()


def find_module_dir(path) -> tuple[Path, dict]:
    """The trained module's directory inside a checkpoint, and the checkpoint's ``uno_rllib.json``."""
    p = Path(path)
    if not p.is_dir():
        raise FileNotFoundError(f"no RLlib checkpoint directory at {p}")
    meta: dict = {}
    meta_path = p / META_FILE
    if meta_path.is_file():
        try:
            meta = json.loads(meta_path.read_text())
        except json.JSONDecodeError as exc:
            raise ModelMismatchError(f"{meta_path} is not valid JSON ({exc}); the file is corrupt") from None
    if (p / "module_state.pkl").exists() or (p / "module_state.msgpack").exists() or (
            p / "module_state").exists():
        return p, meta  # the directory of one RLModule
    root = p.joinpath(*MODULE_DIR)
    ids = [meta["module_id"]] if meta.get("module_id") else list(MODULE_IDS)
    for mid in ids:
        if (root / mid).is_dir():
            return root / mid, meta
    have = sorted(x.name for x in root.iterdir() if x.is_dir()) if root.is_dir() else []
    raise FileNotFoundError(f"{p} holds no trained module {' or '.join(ids)} under {'/'.join(MODULE_DIR)} "
                            f"(found: {', '.join(have) or 'nothing'}); is it an RLlib algorithm checkpoint?")


def load_rllib(path, game=None, name: str | None = None, deterministic: bool = True,
               seed: int | None = None) -> RLlibAgent:
    """Load the trained module of an RLlib checkpoint as an agent (see the module docstring)."""
    try:
        from ray.rllib.core.rl_module.rl_module import RLModule
    except ImportError:  # pragma: no cover - depends on the install
        raise ImportError("loading an RLlib checkpoint needs ray: pip install -e '.[scale]'") from None
    from uno_env import rllib  # noqa: F401  (the module class the checkpoint names)

    module_dir, meta = find_module_dir(path)
    if game is not None and meta:
        check_compatible(meta, game, str(Path(path) / META_FILE))
    try:
        module = RLModule.from_checkpoint(str(module_dir))
    except Exception as exc:
        raise ModelMismatchError(f"cannot load the RLModule in {module_dir}: {type(exc).__name__}: {exc}") from None
    agent = RLlibAgent(module, name or meta.get("name") or Path(path).name, deterministic, meta, seed)
    if game is not None:
        from .policy import layout_fingerprint
        v2 = layout_fingerprint(game, "v2")["observation_size"]
        fits = (game.observation_size, v2) if agent.v2_prefix else (game.observation_size,)
        if agent.observation_size is not None and agent.observation_size not in fits:
            raise ModelMismatchError(
                f"{path} takes observations of size {agent.observation_size}, but this game's are "
                f"{game.observation_size} ({game.rules.name}, {game.num_players} players)")
        if agent.num_actions is not None and agent.num_actions != game.num_actions:
            raise ModelMismatchError(f"{path} has {agent.num_actions} actions, but this game has "
                                     f"{game.num_actions} ({game.rules.name}, {game.num_players} players)")
    return agent


__all__ = ["RLlibAgent", "find_module_dir", "is_rllib_checkpoint", "load_rllib"]
