"""The versions: the package's (``__version__``, semantic versioning) and the environment's (``ENV_VERSION``,
PettingZoo's convention: any change to seeded games bumps it), with the retired environment versions and
what changed in each (docs/versioning.md).  ``uno_env`` hands these names on; modules of the package read
them here, so that none of them imports the package's face (``uno_env/__init__.py``, which loads the AEC
environment on demand)."""

__version__ = "0.3.0"
ENV_VERSION = "uno_v4"


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
