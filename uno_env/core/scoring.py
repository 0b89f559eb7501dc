"""The end of a round and its scoring (rules §1.9, §2, §3.4, §6.4, §7.5; E2, E3, E31): the hands'
points on the side in play, the four ``scoring_mode`` values, the end of the game, a blocked or
stopped round (E2, E3), and the ``StepResult`` a step reports.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .rows import all_rows, flat, sel
from .state import OVER, State
from .tables import RuleTables


class StepResult(NamedTuple):
    """What one ``step`` did, per game (rows whose round did not end hold zeros).

    Attributes:
        round_over: ``(B,) bool`` the round ended during this step.
        rewards: ``(B, P) float32`` +1 for the round's winner, -1 for the others (0 for a void round).
        game_over: ``(B,) bool`` the game ended with this round.
        game_rewards: ``(B, P) float32`` +1 for the game's winners (ties share), -1 for the others.
        truncated: ``(B,) bool`` the round was stopped by ``max_turns_per_round`` (E3).
        winner: ``(B,) int8`` the round's winner (-1: none, or a void round).
        round_points: ``(B,) int32`` points scored by the round (the opponents' hands).
        scores: ``(B, P) int32`` the game scores after the round.
    """

    round_over: np.ndarray
    rewards: np.ndarray
    game_over: np.ndarray
    game_rewards: np.ndarray
    truncated: np.ndarray
    winner: np.ndarray
    round_points: np.ndarray
    scores: np.ndarray


def hand_values(e: RuleTables, st: State, R) -> np.ndarray:
    """(n, P) points in each hand, valued on the side in play (rules §2, §7.5)."""
    hands = st.hands[R].astype(np.float32)  # a matrix product: exact for these small integers
    if not e.two_sided:
        return (hands @ e.K_PTS_F[0]).astype(np.int32)
    return (hands @ e.K_PTS_F[st.side[R].astype(np.intp)][:, :, None])[..., 0].astype(np.int32)


def end_blocked_round(e: RuleTables, st: State, R, truncated: bool = False) -> None:
    """E2: the lowest hand value wins (ties: fewer cards, then the earliest seat from the dealer's
    left), or the round is void (``blocked_round=void_redeal``); E3 (``truncated``): the same when
    ``max_turns_per_round`` stops the round."""
    if e.config.blocked_round == "void_redeal":
        w = np.full(len(R), -1, np.intp)
    else:
        order = (np.arange(e.P)[None, :] - st.dealer[R][:, None] - 1) % e.P
        key = hand_values(e, st, R).astype(np.int64) * 4096 + st.hand_n[R] * 16 + order
        w = key.argmin(1)
    st.truncated[R] = truncated
    end_round(e, st, R, w)


def end_round(e: RuleTables, st: State, R, w) -> None:
    """End the round in ``R`` won by seats ``w`` (-1: void) and score it (rules §3.4, §6.4, §7.5)."""
    if R.size == 0:
        return
    c = e.config
    vals = hand_values(e, st, R)
    valid = w >= 0
    ar = np.arange(len(R))
    wi = np.where(valid, w, 0)
    pts = np.where(valid, vals.sum(1) - vals[ar, wi], 0)
    sc = st.scores[R]
    v = flat(valid)
    mode = c.scoring_mode
    if mode == "winner_takes_sum":
        sc[v, wi[v]] += pts[v]
    elif mode == "cumulative_low":
        sc[v] += vals[v]
    elif mode == "plus_minus":
        sc[v] -= vals[v]
        sc[v, wi[v]] += pts[v]
    else:  # penalty_countdown: the others lose their hands' value
        sc[v] -= vals[v]
    st.scores[R] = sc
    st.round_points[R] = pts
    st.winner[R] = np.where(valid, w, -1)
    st.phase[R] = OVER
    st.pending[R] = 0
    st.rounds[R] += valid
    if mode in ("winner_takes_sum", "cumulative_low"):
        done = (sc >= c.target).any(1)
    elif mode == "plus_minus":
        done = st.rounds[R] >= c.max_rounds
    else:
        done = (sc < 0).any(1)
    st.game_over[R] = done
    st.mask[R] = False
    st.nlegal[R] = 0


def game_winners(e: RuleTables, st: State, R) -> np.ndarray:
    """(n, P) the winners of finished games (ties share, E31): the highest score, or the lowest under
    ``cumulative_low``."""
    sc = st.scores[R]
    if e.config.scoring_mode == "cumulative_low":
        return sc == sc.min(1, keepdims=True)
    return sc == sc.max(1, keepdims=True)


def step_result(e: RuleTables, st: State, was_over: np.ndarray, R: np.ndarray | None = None) -> StepResult:
    """What happened in rows ``R`` (default: all) since ``was_over`` (their phase-OVER flags)."""
    P = e.P
    R = all_rows(st.batch_size) if R is None else R
    S = sel(R)  # the whole batch: views instead of gathers
    n = R.size
    ended = (st.phase[S] == OVER) & ~was_over
    rewards = np.zeros((n, P), np.float32)
    game_rewards = np.zeros((n, P), np.float32)
    x = flat(ended)
    if x.size:
        w = st.winner[R[x]].astype(np.intp)
        valid = w >= 0
        r = np.zeros((x.size, P), np.float32)
        r[valid] = -1.0
        r[flat(valid), w[valid]] = 1.0
        rewards[x] = r
        g = x[st.game_over[R[x]]]
        if g.size:
            game_rewards[g] = np.where(game_winners(e, st, R[g]), 1.0, -1.0)
    return StepResult(ended, rewards, ended & st.game_over[S], game_rewards, ended & st.truncated[S],
                      np.where(ended, st.winner[S], -1).astype(np.int8),
                      np.where(ended, st.round_points[S], 0), st.scores[S].copy())
