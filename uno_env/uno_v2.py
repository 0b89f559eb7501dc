"""Versioned name of the PettingZoo environment (PettingZoo's classic convention)."""

from .aec import env, raw_env

__all__ = ["env", "raw_env"]
