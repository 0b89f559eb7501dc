"""Registry entries, so that the environments are made by id as their frameworks' users expect.

==================================  =======================================================================
``gymnasium.make("uno_env/UnoLearner-v4", ...)``  one game against opponents (``uno_env.vector.UnoEnv``)
``gymnasium.make_vec("uno_env/UnoLearner-v4", num_envs=64, ...)``  the batched ``UnoVectorEnv`` (its
                                    ``vector_entry_point``: one numpy batch, not 64 environment copies)
``pettingzoo.make("aec", "uno_env/uno-v4", ...)``  the AEC environment (``uno_env.uno_v4.env``)
==================================  =======================================================================

Keyword arguments are the environments' own (``rules``, ``num_players``, ``opponents``, rule options...).
Importing ``uno_env.vector`` registers the Gymnasium ids and ``uno_env.aec`` the PettingZoo ones; the
``module:id`` form needs no import first: ``gymnasium.make("uno_env.vector:uno_env/UnoLearner-v4")``.
``import uno_env`` alone registers nothing, so that the rules core never imports a framework.
"""

from __future__ import annotations

GYMNASIUM_ID = "uno_env/UnoLearner-v4"
PETTINGZOO_IDS = {"uno_env/uno-v4": "uno_env.uno_v4:env"}


def register_gymnasium() -> None:
    import gymnasium

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(GYMNASIUM_ID, entry_point="uno_env.vector:UnoEnv",
                           vector_entry_point="uno_env.vector:UnoVectorEnv")


def register_pettingzoo() -> None:
    """PettingZoo's registry, where the installed PettingZoo has one (``pettingzoo.env_registry``)."""
    try:
        from pettingzoo.env_registry.registration import aec_registry, register
    except ImportError:
        return
    for env_id, entry_point in PETTINGZOO_IDS.items():
        if env_id not in aec_registry:
            register("aec", env_id, entry_point)
