"""Versioned name of the PettingZoo environment (PettingZoo's classic convention): ``uno_v4``."""

from .aec import env, raw_env

__all__ = ["env", "raw_env"]
