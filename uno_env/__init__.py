"""UNO and its variants as a batched numpy rules core, a PettingZoo AEC environment and training envs.

``uno_env.VecGame`` plays B games at once (numpy only); ``uno_env.env(...)`` is the PettingZoo AEC
environment (imported lazily, so the core never pulls in PettingZoo).
"""

from .core import PRESETS, IllegalActionError, PositionError, RuleConfig, StepResult, VecGame, make_rules
from .version import ENV_VERSION, RETIRED, __version__

__all__ = ["ENV_VERSION", "PRESETS", "IllegalActionError", "PositionError", "RuleConfig", "StepResult",
           "VecGame", "env", "make_rules", "raw_env", "__version__"]


class DeprecatedEnv(ImportError):
    """A retired environment version was asked for."""


def __getattr__(name):
    if name in ("env", "raw_env"):
        from . import aec
        return getattr(aec, name)
    if name in RETIRED:  # an ImportError, so `from uno_env import uno_v0` reports it
        raise DeprecatedEnv(f"{name} is retired; use {ENV_VERSION} ({RETIRED[name]})")
    raise AttributeError(f"module 'uno_env' has no attribute {name!r}")
