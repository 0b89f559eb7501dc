"""UNO and its variants as a batched numpy rules core, a PettingZoo AEC environment and training envs.

``uno_env.VecGame`` plays B games at once (numpy only); ``uno_env.env(...)`` is the PettingZoo AEC
environment (imported lazily, so the core never pulls in PettingZoo).
"""

from .core import PRESETS, IllegalActionError, PositionError, RuleConfig, StepResult, VecGame, make_rules

__version__ = "0.2.0"
ENV_VERSION = "uno_v4"

__all__ = ["ENV_VERSION", "PRESETS", "IllegalActionError", "PositionError", "RuleConfig", "StepResult",
           "VecGame", "env", "make_rules", "raw_env", "__version__"]


# retired env versions -> what changed (PettingZoo's convention: an old version fails with a clear error).
# A version whose games the engine still plays exactly may stay importable with its old defaults instead.
RETIRED = {"uno_v0": "uno_v1 fixed chains of forced draws longer than eight seats (9 and 10 players), "
                     "which changed those seeded games; nothing else differs",
           "uno_v1": "uno_v2 fixes chains of forced draws under drawn_card_play='never', which made a seat "
                     "holding a card it had drawn and could play draw again; seeded games with that option "
                     "change, no preset's",
           "uno_v2": "uno_v4 fixes a Wild Draw Colour accepted on an empty draw pile (the victim drew nothing) "
                     "and what prev_color and a seat not asked observe; for uno_v2's defaults pass "
                     "illegal_action='raise', observation='v2'",
           "uno_v3": "uno_v4 fixes a Wild Draw Colour accepted on an empty draw pile (the victim drew nothing; "
                     "flip_jp) and what prev_color and a seat not asked observe (docs/versioning.md)"}


class DeprecatedEnv(ImportError):
    """A retired environment version was asked for."""


def __getattr__(name):
    if name in ("env", "raw_env"):
        from . import aec
        return getattr(aec, name)
    if name in RETIRED:  # an ImportError, so `from uno_env import uno_v0` reports it
        raise DeprecatedEnv(f"{name} is retired; use {ENV_VERSION} ({RETIRED[name]})")
    raise AttributeError(f"module 'uno_env' has no attribute {name!r}")
