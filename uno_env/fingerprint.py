"""A fingerprint of the games the engine plays: one SHA-256 over seeded games of every preset.

    python -m uno_env.fingerprint            # prints the env version and the fingerprint
    python -m uno_env.fingerprint --verbose  # one hash per preset and player count too

The games are driven by a policy computed from the engine's own counter-based hash (no numpy random
generator, no floating point), so the fingerprint depends only on the rules engine and its random
streams.  A change that leaves every seeded game as it was (a speed-up, a refactor) keeps it; a
change that alters one changes it, and then the env version must move on (README "Version policy";
``tests/test_version_policy.py`` pins the fingerprint of the current version).
"""

from __future__ import annotations

import argparse
import hashlib
import json

import numpy as np

from .core.chance import _mix
from .core.config import PRESETS
from .core.game import VecGame
from .version import ENV_VERSION

PLAYERS = (2, 3, 4, 7, 10)
# State fields renamed since the fingerprint was defined, hashed under their first names: a rename
# changes no game, so it keeps the fingerprint
HASHED_AS = {"turn_seat": "turn", "turn_count": "turns"}


def _policy_keys(step: int, batch: int, actions: int) -> np.ndarray:
    """(batch, actions) uint64 pseudo-random keys for one step (SplitMix64 of step, row, action)."""
    x = (np.full((1, 1), step, np.uint64) * np.uint64(0x9E3779B97F4A7C15)  # arrays: wrapping, no warning
         + np.arange(batch, dtype=np.uint64)[:, None] * np.uint64(0xD1B54A32D192ED03)
         + np.arange(actions, dtype=np.uint64)[None, :])
    return _mix(_mix(x))


def play_hash(rules: str, players: int, batch: int = 256, steps: int = 300, seed: int = 0) -> str:
    """SHA-256 of ``steps`` steps of ``batch`` seeded games (step results and the final state).
    Half the rows prefer plays to other actions, so both short and long rounds occur."""
    game = VecGame(rules, players, batch_size=batch, seed=seed, observation="v2")  # the games, not the memory
    prefer = ((game.engine.A_KIND == 0)[None, :] & (np.arange(batch) % 2 == 0)[:, None]).astype(np.uint64)
    h = hashlib.sha256()
    for t in range(steps):
        keys = (_policy_keys(t, batch, game.num_actions) >> np.uint64(1)) | (prefer << np.uint64(63))
        out = game.step((keys * game.legal_mask()).argmax(1))
        for arr in out:
            h.update(np.ascontiguousarray(arr).tobytes())
    st = game.state
    for name in sorted(vars(st), key=lambda n: HASHED_AS.get(n, n)):
        if getattr(st, name) is None:  # the table's memory, off in these games (v2): no part of the game
            continue
        h.update(HASHED_AS.get(name, name).encode())
        h.update(np.ascontiguousarray(getattr(st, name)).tobytes())
    return h.hexdigest()


def fingerprint(batch: int = 256, steps: int = 300, verbose: bool = False) -> dict:
    """The fingerprint over every preset at 2, 3, 4, 7 and 10 players (and, if ``verbose``, each part)."""
    parts = {f"{rules}/{p}": play_hash(rules, p, batch, steps) for rules in PRESETS for p in PLAYERS}
    total = hashlib.sha256("".join(parts.values()).encode()).hexdigest()
    out = {"env_version": ENV_VERSION, "fingerprint": total, "batch": batch, "steps": steps}
    if verbose:
        out["parts"] = parts
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", type=int, default=256, help="games per preset and player count")
    p.add_argument("--steps", type=int, default=300, help="steps played")
    p.add_argument("--verbose", action="store_true", help="also one hash per preset and player count")
    args = p.parse_args(argv)
    print(json.dumps(fingerprint(args.batch, args.steps, args.verbose), indent=1 if args.verbose else None))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
