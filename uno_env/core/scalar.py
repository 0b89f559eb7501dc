"""One game stepped with scalar operations: the fast path of every game of one (the AEC environment,
``VecGame(batch_size=1)``, the one-game learner env).

``Engine.step`` costs about the same for one game as for a hundred: each of its array operations has
a fixed cost of about a microsecond, and a step makes a hundred of them.  An environment that plays one
game at a time (PettingZoo's AEC loop) pays all of that per decision.  ``ScalarStepper`` plays the
common moves of one game (row 0 of a batch-1 ``State``) with item reads and writes instead: a play
that is not the seat's last (stacked, passing a Skip on, jumping in, swapping, flipping), a draw, a
drawn card kept, a penalty taken or accepted, a Skip or an offer passed, an UNO declared, the forced
moves after them and the refreshed legal mask.  The rare events (a round's end, a challenge, a
catch, a reshuffle, a colour choice, a Wild Draw Colour's draw, a blocked or stopped round, UNO
penalties drawn automatically, an ambiguous UNO Flip card) go to the batched rules on the same
state, so they keep one source.

Each move's scalar code is the twin of the batched function it mirrors and sits beside it, named
after it with ``_one`` (``play.act_play`` and ``play.act_play_one``, ``legal.refresh`` and
``legal.refresh_one`` ...); the stepper holds the tables as Python values and dispatches.  Both
write the same state, for every preset and option: ``tests/test_scalar.py`` plays random games side
by side with ``Engine.step`` and compares every field after every step.
"""

from __future__ import annotations

import numpy as np

from . import deflect, drawn, jump_in, legal, penalty, play, scoring
from .actions import ACCEPT, DRAW, KEEP, PASS, PLAY, UNO
from .rules import Engine, StepResult
from .settling import DEFAULT_SETTLING, Listener, Settling
from .state import DEFLECT, JUMP, OVER, PENDING, TURN, State
from .twins import ScalarTables


class ScalarStepper(ScalarTables):
    """The scalar fast path of ``engine``'s configuration (see the module docstring)."""

    def __init__(self, engine: Engine):
        super().__init__(engine)
        self.e: Engine = engine

    # ------------------------------------------------------------------ moves
    def _can(self, st: State, k: int, phase: int, actor: int) -> bool:
        """Whether the scalar path plays a legal action of kind ``k`` in the current state (``phase``, ``actor``:
        its phase and seat asked, read by the caller)."""
        if k == UNO or k == KEEP:
            return True
        if k == PASS:
            return phase == DEFLECT or phase == JUMP
        if k == PLAY:
            return phase != OVER and st.hand_n.item(0, actor) > 1 \
                and not (self.automatic and self._others_vulnerable(st, actor))
        if k == DRAW or k == ACCEPT:
            # a draw closes the others' UNO windows too: automatic penalties go to the engine
            if self.automatic and not self.e.window_discard_only and self._others_vulnerable(st, actor):
                return False
            if phase == TURN:
                return st.draw_n.item(0) > 0
            if phase == PENDING:  # not a Wild Draw Colour's draw-until-colour, nor a going-out card's
                return (not st.pending_color.item(0) and st.draw_n.item(0) >= st.pending.item(0)
                        and st.hand_n.item(0, st.origin.item(0)) > 0)
        return False

    def _apply(self, st: State, a: int, listener: Listener | None) -> None:
        """``Engine.apply`` of legal action ``a`` in row 0, scalar where ``_can`` allows."""
        k = self.kind[a]
        phase = st.phase.item(0)
        actor = st.actor.item(0)
        if not self._can(st, k, phase, actor):
            self.e.apply(st, self.ROW, np.array([a]), listener)
            return
        e = self.e
        if listener is not None:
            listener(((0, actor, a),))
        counted = self.counted[a]
        if counted:
            st.turn_count[0] = st.turn_count.item(0) + counted
        if k == PLAY:
            play.act_play_one(self, st, a, actor)
        elif k == DRAW or k == ACCEPT:
            if phase == PENDING:
                penalty.draw_penalty_one(self, st, actor)
            else:
                drawn.act_draw_one(self, st, actor)
        elif k == KEEP:
            drawn.act_keep_one(self, st, actor)
        elif k == PASS:
            if phase == JUMP:
                jump_in.act_pass_one(self, st, actor)
            else:
                deflect.act_pass_one(self, st, actor)
        else:  # UNO
            st.declared[0] = True
        if not self.keeps_declared[a]:
            st.declared[0] = False
        if st.turn_count.item(0) >= self.max_turns and st.phase.item(0) != OVER:  # E3
            scoring.end_blocked_round(e, st, self.ROW, truncated=True)

    # ------------------------------------------------------------------ the step
    def step(self, st: State, a: int, listener: Listener | None = None, ask: bool = False) -> bool:
        """Apply legal action ``a`` in row 0, then every forced move, and refresh the mask (what
        ``Engine.step`` does for one game; forced moves one by one, whatever ``Settling.bulk`` says: the
        same games; under ``ask`` none, as ``Settling.ask``); ``listener`` hears of each move.  Returns
        whether the round ended."""
        self._apply(st, a, listener)
        while st.phase.item(0) != OVER:
            legal.refresh_one(self, st)
            if ask or st.nlegal.item(0) != 1:
                return False
            self._apply(st, int(st.mask[0].argmax()), listener)
        return True

    def step_rows(self, st: State, R, actions, how: Settling = DEFAULT_SETTLING) -> StepResult:
        """``Engine.step_rows`` of row 0 (the same checks and result; other rows go to the engine)."""
        if np.shape(R) != (1,) or int(np.asarray(R)[0]) != 0:
            return self.e.step_rows(st, R, actions, how)
        R, actions = self.e.check_rows(st, R, actions)
        self.step(st, int(actions[0]), how.listener, how.ask)
        return self.e.result(st, np.zeros(1, bool), R)
