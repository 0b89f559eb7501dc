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

# uno_v3 changed defaults and the observation, not the games: the same fingerprint as uno_v2
PINNED = {"uno_v2": "195a37155fa0568b761915c1a7bd7eed9f07bc5908ed53b0b66f0122bbbe8603",
          "uno_v3": "195a37155fa0568b761915c1a7bd7eed9f07bc5908ed53b0b66f0122bbbe8603"}


def test_seeded_games_are_those_pinned_for_this_env_version():
    assert ENV_VERSION in PINNED, f"pin the fingerprint of {ENV_VERSION}: python -m uno_env.fingerprint"
    got = fingerprint()["fingerprint"]
    assert got == PINNED[ENV_VERSION], (
        f"seeded games changed under {ENV_VERSION} (fingerprint {got}): a change that alters games must bump "
        f"ENV_VERSION (docs/versioning.md) and pin its fingerprint; a pure speed-up must not alter them "
        f"(python -m uno_env.fingerprint --verbose names the preset and player count)")


def test_a_retired_version_fails_with_a_clear_error():
    import pytest

    with pytest.raises(ImportError, match="uno_v1 is retired; use uno_v3"):
        from uno_env import uno_v1  # noqa: F401


def test_a_version_whose_games_are_unchanged_stays_importable_with_its_defaults():
    from uno_env import uno_v2, uno_v3

    assert uno_v2.raw_env(num_players=2).illegal_action == "raise"
    assert uno_v3.raw_env(num_players=2).illegal_action == "lose"
