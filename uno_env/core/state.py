"""Batch-first game state: one row per game, every field a numpy array with a leading ``B`` axis.

``P`` seats, ``K`` card kinds, ``N`` cards in the deck, ``A`` actions.  Piles store kinds bottom
first, so the top card is ``pile[b, n[b] - 1]``; this makes drawing a gather and a pointer decrement.

Phases (``phase``), i.e. the decision the seat ``actor`` is asked:

============  =======================================================================================
TURN          its own turn: play a card or draw (also ``uno``, ``catch``)
DRAWN         it drew a playable card: play that card or ``keep``
PENDING       a draw penalty (``pending``) targets it: stack a draw card, ``draw`` the whole penalty, or
              ``challenge``/``accept`` a restricted wild draw card
CHOOSE_COLOR  it declares the colour of a wild first card or of a wild face a Flip revealed
JUMP          out of turn: jump in with the card identical to the top card, or ``pass``
DEFLECT       the victim of a Skip may pass it on with a Skip (``stack_skip``), or ``pass``
OVER          the round is over
============  =======================================================================================
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from .memory import Memory

TURN, DRAWN, PENDING, CHOOSE_COLOR, JUMP, DEFLECT, OVER = range(7)
PHASE_NAMES = ("turn", "drawn", "pending", "choose", "jump_in", "deflect", "over")  # as the notation names them
NOT_ASKED = 127  # ``offer_rank`` of a seat that an out-of-turn offer does not ask


@dataclass
class State:
    """Arrays of ``B`` games (see the module docstring for the phases)."""

    hands: np.ndarray  # (B, P, K) int8    copies of each kind held by each seat
    hand_n: np.ndarray  # (B, P) int16      cards held (the sum of hands over kinds)
    held: np.ndarray  # (B, P, W) uint64    bitmask of the kinds held (bit k of word k // 64)
    draw: np.ndarray  # (B, N) uint8       draw pile kinds, bottom first
    draw_n: np.ndarray  # (B,) int16        cards in the draw pile
    discard: np.ndarray  # (B, N) uint8     discard pile kinds, bottom first
    disc_n: np.ndarray  # (B,) int16        cards in the discard pile
    pile_counts: np.ndarray  # (B, K) int8  copies of each kind in the discard pile
    color: np.ndarray  # (B,) int8          active colour (0-7, FREE, NO_COLOR)
    side: np.ndarray  # (B,) int8           0 light, 1 dark (UNO Flip)
    direction: np.ndarray  # (B,) int8      +1 clockwise (seat order), -1
    phase: np.ndarray  # (B,) int8          decision asked (TURN ... OVER)
    actor: np.ndarray  # (B,) int8          seat asked now
    turn_seat: np.ndarray  # (B,) int8      seat whose turn it is: the actor, except during an offer or a
    #                                        colour choice, after which it decides (notation: "turn")
    resume: np.ndarray  # (B,) int8         phase of ``turn_seat`` after an out-of-turn offer
    origin: np.ndarray  # (B,) int8         seat that played the top card (offender of a challenge)
    offer_rank: np.ndarray  # (B, P) int8   order in which seats are asked to jump in (NOT_ASKED)
    pending: np.ndarray  # (B,) int16       cards the victim of draw cards must take
    pending_color: np.ndarray  # (B,) bool  ... plus draw until the active colour (Wild Draw Colour)
    challengeable: np.ndarray  # (B,) bool  the pending card may be challenged
    guilty: np.ndarray  # (B,) bool         ... and it was played against the restriction
    prev_color: np.ndarray  # (B,) int8     active colour before the top card was played
    prev_prev_color: np.ndarray  # (B,) int8  ... before the card under it (prev_color after a retract)
    prev_pending: np.ndarray  # (B,) int16  pending total before the top card (retract)
    drawn: np.ndarray  # (B,) int16         kind drawn and awaiting play or keep (-1: none)
    declared: np.ndarray  # (B,) bool       the actor has declared UNO for its next play
    vulnerable: np.ndarray  # (B, P) bool   seats that can be caught for a missed UNO
    drew_on: np.ndarray  # (B, P) int8      colour active when the seat last drew on its turn instead of
    #                                        playing, if it has not played since (-1: none); public
    first_play: np.ndarray  # (B,) bool     no card has been played this round yet
    passes: np.ndarray  # (B,) int16        consecutive turns with nothing played or drawn (E2)
    turn_count: np.ndarray  # (B,) int32    actions counted this round (E3: max_turns_per_round; notation: "turns")
    dealer: np.ndarray  # (B,) int8
    scores: np.ndarray  # (B, P) int32      game scores
    rounds: np.ndarray  # (B,) int32        rounds finished in this game
    winner: np.ndarray  # (B,) int8         winner of the finished round (-1: none or void)
    round_points: np.ndarray  # (B,) int32  points of the finished round (the opponents' hands)
    truncated: np.ndarray  # (B,) bool      the round hit max_turns_per_round
    game_over: np.ndarray  # (B,) bool
    seed: np.ndarray  # (B,) int64          seed of each game's random stream
    key: np.ndarray  # (B,) uint64          its key
    counter: np.ndarray  # (B,) uint64      draws made from it
    mask: np.ndarray  # (B, A) bool         legal actions of the actor (kept up to date)
    nlegal: np.ndarray  # (B,) int16        number of legal actions
    # what the table has seen (observation v3; ``core.memory``): arrays of the same B games, or None where
    # nobody reads it, so that a v2 state pays no bytes or copies for it (``Engine.new_state(memory=True)``)
    memory: Memory | None = None

    @classmethod
    def zeros(cls, batch: int, players: int, kinds: int, cards: int, actions: int) -> State:
        words = (kinds + 63) // 64
        B, P = batch, players
        z = np.zeros
        return cls(
            hands=z((B, P, kinds), np.int8), hand_n=z((B, P), np.int16), held=z((B, P, words), np.uint64),
            draw=z((B, cards), np.uint8), draw_n=z(B, np.int16),
            discard=z((B, cards), np.uint8), disc_n=z(B, np.int16),
            pile_counts=z((B, kinds), np.int8), color=z(B, np.int8), side=z(B, np.int8),
            direction=np.ones(B, np.int8), phase=np.full(B, OVER, np.int8), actor=z(B, np.int8),
            turn_seat=z(B, np.int8), resume=z(B, np.int8), origin=z(B, np.int8),
            offer_rank=np.full((B, P), NOT_ASKED, np.int8), pending=z(B, np.int16),
            pending_color=z(B, bool), challengeable=z(B, bool), guilty=z(B, bool),
            prev_color=z(B, np.int8), prev_prev_color=z(B, np.int8), prev_pending=z(B, np.int16),
            drawn=np.full(B, -1, np.int16),
            declared=z(B, bool), vulnerable=z((B, P), bool), drew_on=np.full((B, P), -1, np.int8),
            first_play=z(B, bool),
            passes=z(B, np.int16), turn_count=z(B, np.int32), dealer=z(B, np.int8),
            scores=z((B, P), np.int32), rounds=z(B, np.int32), winner=np.full(B, -1, np.int8),
            round_points=z(B, np.int32), truncated=z(B, bool), game_over=z(B, bool),
            seed=z(B, np.int64), key=z(B, np.uint64), counter=z(B, np.uint64),
            mask=z((B, actions), bool), nlegal=z(B, np.int16),
        )

    @property
    def batch_size(self) -> int:
        return self.phase.shape[0]

    def _arrays(self) -> list[str]:
        """The fields holding arrays or a ``Memory`` (every field but a memory that is off)."""
        return [f.name for f in dataclasses.fields(self) if getattr(self, f.name) is not None]

    def take(self, rows) -> State:
        """A new state holding copies of ``rows`` (a slice or index array), their memory included."""
        rows = np.atleast_1d(np.asarray(rows)) if not isinstance(rows, slice) else rows
        return State(**{name: _take(getattr(self, name), rows) for name in self._arrays()})

    def put(self, rows, other: State) -> None:
        """Write the games of ``other`` into ``rows`` (and their memory, where both keep one)."""
        for name in self._arrays():
            if name == "memory":
                if other.memory is not None:
                    if self.memory is None:
                        raise ValueError("put: the other state keeps the table's memory and this one does not")
                    self.memory.put(rows, other.memory)
            else:
                getattr(self, name)[rows] = getattr(other, name)

    def copy(self) -> State:
        return State(**{name: getattr(self, name).copy() for name in self._arrays()})

    def nbytes_per_game(self) -> float:
        """Bytes per game, the memory's included."""
        return sum(getattr(self, name).nbytes for name in self._arrays()) / self.batch_size


def _take(array, rows):
    return array.take(rows) if isinstance(array, Memory) else array[rows].copy()
