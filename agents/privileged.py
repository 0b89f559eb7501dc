"""A critic trained with privileged information: MaskablePPO whose value net also reads the hidden state.

Where the outcome hangs on cards nobody sees, a critic that reads only the seat's observation leaves
PPO's advantages noisy.  The asymmetric actor-critic (Pinto et al., 2018; the perfect-information
critic of PerfectDou) gives the *critic* the hidden state and keeps the *actor* on the seat's own view.
With a Markov state the value of the full state is a valid baseline, so the policy gradient stays
unbiased.  (For four-player UNO against heuristic bots it explains little more of the outcome than the
agent's own critic, 16.3% against 15.5%: ``training/critic_probe.py`` and docs/training.md.)

* The environment appends the hidden state to the learner's observation
  (``UnoVecEnv(..., privileged=True)``, ``Observer.privileged``: the other hands and the next draws).
* ``PrivilegedCriticPolicy`` is sb3-contrib's ``MaskableActorCriticPolicy`` with an MLP extractor whose
  actor reads only the first ``public_dim`` entries; the critic reads them all.
* ``actor_only`` copies the actor into a plain ``MaskableActorCriticPolicy`` over the public
  observation, so the trained agent is exported, loaded, evaluated and played like any other.  Its
  value head is left untrained (it would need the hidden state), which acting never reads.

    python -m training.train_ppo --players 4 --privileged-critic --init-actor ppo-standard_en-4p ...
"""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import MlpExtractor


class SplitMlpExtractor(MlpExtractor):
    """``MlpExtractor`` whose policy net reads the first ``public_dim`` features only."""

    def __init__(self, feature_dim: int, public_dim: int, net_arch, activation_fn, device="auto"):
        if not 0 < public_dim <= feature_dim:
            raise ValueError(f"public_dim must be in 1..{feature_dim} (the features), got {public_dim}")
        super().__init__(feature_dim, net_arch, activation_fn, device)
        self.public_dim = public_dim
        self.policy_net = MlpExtractor(public_dim, net_arch, activation_fn, device).policy_net

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return self.policy_net(features[..., :self.public_dim])


class PrivilegedCriticPolicy(MaskableActorCriticPolicy):
    """Actor on the public observation (the first ``public_dim`` entries), critic on all of it."""

    def __init__(self, observation_space, action_space, lr_schedule, public_dim: int = 0, **kwargs):
        self.public_dim = int(public_dim)
        if kwargs.get("share_features_extractor") is False:
            raise ValueError("PrivilegedCriticPolicy shares its (flattening) features extractor")
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build_mlp_extractor(self) -> None:
        self.mlp_extractor = SplitMlpExtractor(self.features_dim, self.public_dim, self.net_arch,
                                               self.activation_fn, self.device)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), "public_dim": self.public_dim}


def value_parameters(policy) -> list[torch.nn.Parameter]:
    """The critic's own weights of an actor-critic policy (``--critic-warmup`` fits these alone)."""
    return [*policy.mlp_extractor.value_net.parameters(), *policy.value_net.parameters()]


def is_privileged(policy) -> bool:
    return isinstance(policy, PrivilegedCriticPolicy)


def actor_only(policy) -> MaskableActorCriticPolicy:
    """A plain ``MaskableActorCriticPolicy`` over the public observation with ``policy``'s actor (on the
    CPU, in evaluation mode); its value head is freshly initialised, not trained."""
    if not is_privileged(policy):
        return policy
    low = np.full(policy.public_dim, -np.inf, np.float32)
    plain = MaskableActorCriticPolicy(spaces.Box(low, -low, dtype=np.float32), policy.action_space,
                                      lambda _: 0.0, net_arch=policy.net_arch, activation_fn=policy.activation_fn)
    state = {k: v.detach().cpu() for k, v in policy.state_dict().items()
             if k.startswith(("mlp_extractor.policy_net.", "action_net."))}
    missing, unexpected = plain.load_state_dict(state, strict=False)
    if unexpected or any(not k.startswith(("mlp_extractor.value_net.", "value_net.")) for k in missing):
        raise RuntimeError(f"actor weights do not fit a plain policy: missing {missing}, unexpected {unexpected}")
    plain.set_training_mode(False)
    return plain


def load_actor(policy, source) -> None:
    """Copy an agent's actor (``mlp_extractor.policy_net`` and ``action_net``; a plain or privileged
    policy with the same layers) into ``policy``, leaving its critic as it is."""
    theirs = source.state_dict()
    mine = policy.state_dict()
    keys = [k for k in mine if k.startswith(("mlp_extractor.policy_net.", "action_net."))]
    wrong = [f"{k} {tuple(theirs[k].shape) if k in theirs else 'absent'} vs {tuple(mine[k].shape)}"
             for k in keys if k not in theirs or theirs[k].shape != mine[k].shape]
    if wrong:
        raise ValueError("the initial actor does not fit this network (same --net-arch, rules and players "
                         "needed): " + "; ".join(wrong))
    policy.load_state_dict({k: theirs[k].to(mine[k].device) for k in keys}, strict=False)
