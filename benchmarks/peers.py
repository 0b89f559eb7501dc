"""Peer UNO implementations, timed in this process with random legal play.

What is measured (each function runs a warm-up of whole games, then a timed window of whole games, and
returns a dict of counts and rates; the window ends at the first game boundary after ``seconds``):

* ``rlcard_game``: RLCard 1.2.0's rules object ``rlcard.games.uno.game.UnoGame`` with ``num_players``
  seats. A step is one ``game.step(action)``; the action is ``random.choice`` over the legal actions
  the returned state lists (RLCard offers ``draw`` only when nothing is playable, so this is RLCard's
  random agent). ``init_game`` (the deal) is inside the window.
* ``rlcard_env``: the RL environment ``rlcard.make('uno')`` (2 players, observations encoded every
  step), random legal action ids, ``env.reset()`` inside the window.
* ``pettingzoo_uno``: PettingZoo's classic ``uno_v4`` (removed after PettingZoo 1.20) rebuilt on
  pettingzoo 1.27's ``RLCardBase`` exactly as ``pettingzoo/classic/rlcard_envs/uno.py`` subclassed it,
  wrapped like its ``env()``: ``TerminateIllegalWrapper`` (illegal reward -1),
  ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper`` (the old stack also had
  ``CaptureStdoutWrapper``, which only redirects ``render()`` output and is left out). Driven by the
  standard AEC loop (``agent_iter`` / ``last`` / ``step``); a step is a ``step`` with an action, the
  ``None`` steps of finished agents are run but not counted.

A game here is one round of UNO (RLCard has no scoring across rounds), so ``games_per_s`` compares with
the core's ``rounds_per_s``.

``python benchmarks/peers.py`` prints one JSON line per peer (medians of ``--repeats`` windows).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

try:
    from benchmarks.common import emit, median, rounded, versions
except ImportError:  # run as a script: benchmarks/ itself is on sys.path
    from common import emit, median, rounded, versions

RANDOM_POLICY = "random legal (random.choice over the legal actions)"


def _window(play_game: Callable[[], int], seconds: float, warmup: float) -> dict:
    """Play whole games: ``warmup`` seconds untimed, then ``seconds`` timed; ``play_game`` returns the
    number of steps it took."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < warmup:
        play_game()
    games = steps = 0
    t0 = time.perf_counter()
    while True:
        steps += play_game()
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            break
    return {"games": games, "steps": steps, "seconds": elapsed, "games_per_s": games / elapsed,
            "steps_per_s": steps / elapsed, "steps_per_game": steps / games, "warmup_s": warmup,
            "policy": RANDOM_POLICY}


def rlcard_game(num_players: int = 4, seconds: float = 2.0, warmup: float = 0.3, seed: int = 0) -> dict:
    """RLCard ``UnoGame`` with ``num_players`` seats, random legal play: games/s and steps/s."""
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=num_players)
    game.np_random = np.random.RandomState(seed)  # the dealer's and players' generator
    choice = random.Random(seed).choice

    def play_game() -> int:
        state, _ = game.init_game()
        n = 0
        while not game.is_over():
            state, _ = game.step(choice(state["legal_actions"]))
            n += 1
        return n

    return {"peer": "rlcard.UnoGame", "players": num_players, **_window(play_game, seconds, warmup)}


def rlcard_env(seconds: float = 2.0, warmup: float = 0.3, seed: int = 0) -> dict:
    """RLCard's environment ``rlcard.make('uno')`` (2 players), random legal action ids: steps/s."""
    import rlcard

    env = rlcard.make("uno", config={"seed": seed})
    choice = random.Random(seed).choice

    def play_game() -> int:
        state, _ = env.reset()
        n = 0
        while not env.is_over():
            state, _ = env.step(choice(list(state["legal_actions"])))
            n += 1
        return n

    return {"peer": "rlcard.make('uno')", "players": env.num_players, **_window(play_game, seconds, warmup)}


_UNO_V4: type | None = None


def _uno_v4_class() -> type:
    """PettingZoo 1.20's ``uno_v4.raw_env`` on pettingzoo 1.27's ``RLCardBase`` (built on first use so
    that importing this module does not import PettingZoo)."""
    global _UNO_V4
    if _UNO_V4 is not None:
        return _UNO_V4
    from pettingzoo.classic.rlcard_envs.rlcard_base import RLCardBase

    class UnoV4RawEnv(RLCardBase):
        """``pettingzoo/classic/rlcard_envs/uno.py`` as of PettingZoo 1.20 (rendering left out)."""

        metadata = {"render_modes": ["human"], "name": "uno_v4", "is_parallelizable": False,
                    "render_fps": 2}

        def __init__(self, opponents_hand_visible: bool = False, render_mode: str | None = None):
            self._opponents_hand_visible = opponents_hand_visible
            num_planes = 7 if self._opponents_hand_visible else 4
            super().__init__("uno", 2, (num_planes, 4, 15))
            self.render_mode = render_mode  # RLCardBase.step reads it (1.27)

        def observe(self, agent):
            obs = self.env.get_state(self._name_to_int(agent))
            if self._opponents_hand_visible:
                observation = obs["obs"].astype(self._dtype)
            else:
                observation = obs["obs"][0:4, :, :].astype(self._dtype)
            action_mask = np.zeros(61, "int8")
            for i in self.next_legal_moves:
                action_mask[i] = 1
            return {"observation": observation, "action_mask": action_mask}

        def close(self):
            pass

    _UNO_V4 = UnoV4RawEnv
    return _UNO_V4


def make_pettingzoo_uno(**kwargs):
    """The old ``uno_v4.env()``: the raw env inside the classic wrapper stack."""
    from pettingzoo.utils import wrappers

    env = _uno_v4_class()(**kwargs)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    return env


def aec_round(env, pick: Callable[[np.ndarray], int]) -> Callable[[], int]:
    """One round of an AEC env through the standard loop (``agent_iter`` / ``last`` / ``step``), the
    acting agent's action from ``pick(action_mask)``; returns the number of steps with an action (the
    ``None`` steps of finished agents run but are not counted)."""
    def play_round() -> int:
        env.reset()
        n = 0
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(pick(obs["action_mask"]))
                n += 1
        return n

    return play_round


def pettingzoo_uno(seconds: float = 2.0, warmup: float = 0.3, seed: int = 0) -> dict:
    """The rebuilt ``uno_v4`` AEC env stepped with random legal actions through ``agent_iter``: steps/s."""
    env = make_pettingzoo_uno()
    env.reset(seed=seed)
    choice = random.Random(seed).choice
    play_game = aec_round(env, lambda mask: int(choice(np.flatnonzero(mask))))
    return {"peer": "pettingzoo uno_v4 (rebuilt)", "players": 2, **_window(play_game, seconds, warmup)}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=4, help="seats for RLCard UnoGame")
    p.add_argument("--seconds", type=float, default=2.0, help="timed seconds per window")
    p.add_argument("--warmup", type=float, default=0.3, help="untimed seconds before the first window")
    p.add_argument("--repeats", type=int, default=3, help="windows per peer (medians are reported)")
    args = p.parse_args(argv)
    jobs = {"rlcard.UnoGame": lambda w: rlcard_game(args.players, args.seconds, w),
            "rlcard.make('uno')": lambda w: rlcard_env(args.seconds, w),
            "pettingzoo uno_v4 (rebuilt)": lambda w: pettingzoo_uno(args.seconds, w)}
    runs: dict[str, list[dict]] = {name: [] for name in jobs}
    for r in range(args.repeats):  # interleaved, so the peers share the host's noise
        for name, job in jobs.items():
            runs[name].append(job(args.warmup if r == 0 else 0.0))
    for name, rs in runs.items():
        emit({"bench": "peer", "peer": name, "players": rs[0]["players"],
              "games_per_s": rounded(median([r["games_per_s"] for r in rs])),
              "steps_per_s": rounded(median([r["steps_per_s"] for r in rs])),
              "steps_per_game": rounded(sum(r["steps"] for r in rs) / sum(r["games"] for r in rs)),
              "steps_per_s_runs": [rounded(r["steps_per_s"]) for r in rs],
              "seconds": args.seconds, "repeats": args.repeats, "warmup_s": args.warmup,
              "warmup_excluded": True, "policy": RANDOM_POLICY, "versions": versions()})


if __name__ == "__main__":
    main()
