"""UNO and its variants as a batched numpy rules core, a PettingZoo AEC environment and training envs.

``uno_env.VecGame`` plays B games at once (numpy only); ``uno_env.env(...)`` is the PettingZoo AEC
environment (imported lazily, so the core never pulls in PettingZoo).
"""

from .core import PRESETS, IllegalActionError, PositionError, RuleConfig, StepResult, VecGame, make_rules

__version__ = "0.1.0"
ENV_VERSION = "uno_v0"

__all__ = ["ENV_VERSION", "PRESETS", "IllegalActionError", "PositionError", "RuleConfig", "StepResult",
           "VecGame", "env", "make_rules", "raw_env", "__version__"]


def __getattr__(name):
    if name in ("env", "raw_env"):
        from . import aec
        return getattr(aec, name)
    raise AttributeError(f"module 'uno_env' has no attribute {name!r}")
