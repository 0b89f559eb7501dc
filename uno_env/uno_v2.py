"""``uno_v2``: the environment with v2's defaults, kept importable (the version policy).

v3 plays the same seeded games, so v2 can be given exactly: an illegal move raises
(``illegal_action="raise"``) where v3 ends the episode with -1 for the offender, and observations keep
the v2 layout.  Every argument of ``uno_v3`` is accepted; ``uno_v3.env`` is the current version.
"""

from pettingzoo.utils import wrappers

from . import aec

V2_DEFAULTS = {"illegal_action": "raise", "observation": "v2"}


class raw_env(aec.raw_env):
    metadata = {**aec.raw_env.metadata, "name": "uno_v2"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **{**V2_DEFAULTS, **kwargs})


def env(**kwargs):
    """The wrapped environment (order enforcing), as PettingZoo's classic environments are."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["env", "raw_env"]
