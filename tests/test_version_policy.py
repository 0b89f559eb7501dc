"""The version policy, enforced: seeded games may change only together with the env version.

``uno_env.fingerprint`` hashes seeded games of every preset at 2, 3, 4, 7 and 10 players (policy and
engine integer-only, so the hash does not depend on numpy's random generators).  A speed-up or a
refactor keeps it; a rules fix that alters any seeded game changes it, and then ``ENV_VERSION`` must
move on (docs/versioning.md) and the new fingerprint is pinned here.  For scale: the uno_v0
engine gives a different fingerprint (its 10-player SOLO games differ: a draw chain longer than the
look-ahead window), so the pin is sensitive to rare events.
"""

from uno_env import ENV_VERSION
from uno_env.fingerprint import fingerprint

# uno_v3 changed defaults and the observation, not the games: the same fingerprint as uno_v2. uno_v4 fixed a Wild
# Draw Colour on an empty draw pile (flip_jp) and keeps prev_color in every preset (a state field the hash reads).
PINNED = {"uno_v2": "195a37155fa0568b761915c1a7bd7eed9f07bc5908ed53b0b66f0122bbbe8603",
          "uno_v3": "195a37155fa0568b761915c1a7bd7eed9f07bc5908ed53b0b66f0122bbbe8603",
          "uno_v4": "2903dc18f8acf356a225ff5fc6b33da3a61c77bb5159074ff6c79c881b9d5400"}


def test_seeded_games_are_those_pinned_for_this_env_version():
    assert ENV_VERSION in PINNED, f"pin the fingerprint of {ENV_VERSION}: python -m uno_env.fingerprint"
    got = fingerprint()["fingerprint"]
    assert got == PINNED[ENV_VERSION], (
        f"seeded games changed under {ENV_VERSION} (fingerprint {got}): a change that alters games must bump "
        f"ENV_VERSION (docs/versioning.md) and pin its fingerprint; a pure speed-up must not alter them "
        f"(python -m uno_env.fingerprint --verbose names the preset and player count)")


def test_a_retired_version_fails_with_a_clear_error():
    import pytest

    for old in ("uno_v1", "uno_v2", "uno_v3"):
        with pytest.raises(ImportError, match=f"{old} is retired; use uno_v4"):
            __import__("uno_env", fromlist=[old])


def test_the_current_version_is_the_one_importable_env_module():
    from uno_env import uno_v4

    assert uno_v4.raw_env(num_players=2).illegal_action == "lose"
    assert uno_v4.raw_env(num_players=2).metadata["name"] == "uno_v4"
