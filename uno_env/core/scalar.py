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

from . import deflect, drawn, jump_in, legal, matching, penalty, play, scoring
from .actions import ACCEPT, DRAW, KEEP, PASS, PLAY, UNO
from .rules import Engine, StepResult
from .settling import DEFAULT_SETTLING, Listener, Settling
from .state import DEFLECT, JUMP, OVER, PENDING, TURN, State
from .tables import NC


def _as_int(words) -> int:
    """A row of uint64 bitmask words as one Python int (bit k of word k // 64 is bit k)."""
    return sum(int(w) << (64 * i) for i, w in enumerate(words))


class ScalarStepper:
    """The scalar fast path of ``engine``'s configuration (see the module docstring)."""

    ROW = np.zeros(1, np.intp)  # the batch-1 row index the batched rules are given

    def __init__(self, engine: Engine):
        e = self.e = engine
        c = e.config
        self.P, self.W, self.A = e.P, e.W, e.A
        # the options read per move
        self.max_turns = c.max_turns_per_round
        self.voluntary = c.voluntary_draw
        self.keep_ok = c.drawn_card_play != "forced"
        self.drawn_never = c.drawn_card_play == "never"
        self.enforce = e.enforce
        self.automatic = e.enforce == "automatic"
        self.catch_out_of_turn = c.uno_catch_out_of_turn
        self.reverse_skips = e.P == 2 and c.two_player_reverse == "skip"
        self.penalty_skips = c.draw_penalty_skips_turn
        self.stack_skip = c.stack_skip
        self.stacking = c.stacking != "none"
        self.jump_in, self.jump_in_self = c.jump_in, c.jump_in_self
        self.call_after_exchange = c.uno_call_after_exchange
        self.invert_pile = c.flip_discard_mode == "invert_pile"
        # the tables, as Python lists: per action, per face, per side and kind
        self.kind, self.face, self.target = e.A_KIND.tolist(), e.A_FACE.tolist(), e.A_TARGET.tolist()
        self.new_color, self.counted = e.A_NEW_COLOR.tolist(), e.A_COUNTED.tolist()
        self.keeps_declared = e.A_KEEPS_DECLARED.tolist()
        self.sym, self.turned_color = e.F_SYM.tolist(), e.F_TURNED_COLOR.tolist()
        self.draws, self.is_draw, self.restricted = e.F_DRAW.tolist(), e.F_IS_DRAW.tolist(), e.F_RESTR.tolist()
        self.targeted, self.rotates = e.F_TARGETED.tolist(), e.F_ROTATE.tolist()
        self.two_sided = e.two_sided
        self.kind_face = e.KF.tolist()  # [side][kind]: the face it shows
        self.k_restricted = e.K_RESTR.tolist()  # [side][kind]
        self.face_kinds = ([[k for k in row if k < e.K] for row in e.FACE_KINDS.tolist()]
                           if e.two_sided and e.FACE_KINDS is not None else None)
        self.rotation = {d: (np.arange(e.P) - d) % e.P for d in (-1, 1)}  # seat p takes the hand of p - d
        self.id, self.catch_ids = dict(e.ID), e.CATCH_IDS
        self.bit = [1 << k for k in range(e.K)]
        plays: list[list[int]] = [[] for _ in range(e.F)]  # per face: its play actions (a wild: one per colour)
        for a in e.PLAY_IDS.tolist():
            plays[e.A_FACE[a]].append(a)
        # (``legal.refresh_one`` sets ``mask[plays[f]]``: an index is a third of the cost of a one-entry array)
        self.plays = [p[0] if len(p) == 1 else np.asarray(p, np.intp) for p in plays]
        # a targeted card (Swap, a Seven-O 7) has one action per seat; a seat never targets itself
        self.nplays = [len(p) - bool(e.F_TARGETED[f]) for f, p in enumerate(plays)]
        self.self_target = [{e.A_TARGET[a]: a for a in p} if e.F_TARGETED[f] else None
                            for f, p in enumerate(plays)]
        # the engine's bitmask tables as Python ints, per top face (and colour) or per side
        self.playable = [_as_int(row) for row in e.PLAYBITS]
        self.stackable = [_as_int(row) for row in e.STACKBITS]
        self.skips = [_as_int(row) for row in e.SKIPBITS]
        self.identical = [_as_int(row) for row in e.IDENTBITS]

    # ------------------------------------------------------------------ the twins' reads and writes
    def held(self, st: State, seat: int) -> int:
        """The kinds ``seat`` holds, as one int (``State.held``'s words joined)."""
        if self.W == 1:
            return st.held.item(0, seat, 0)
        if self.W == 2:  # UNO Flip: two item reads (a view and a list cost more)
            h = st.held
            return h.item(0, seat, 0) | h.item(0, seat, 1) << 64
        return _as_int(st.held[0, seat].tolist())

    def set_held(self, st: State, seat: int, bits: int) -> None:
        if self.W == 1:
            st.held[0, seat, 0] = bits
        elif self.W == 2:  # UNO Flip: two item writes (a list of Python ints costs four times as much)
            h = st.held
            h[0, seat, 0] = bits & 0xFFFFFFFFFFFFFFFF
            h[0, seat, 1] = bits >> 64
        else:
            st.held[0, seat] = [(bits >> (64 * i)) & 0xFFFFFFFFFFFFFFFF for i in range(self.W)]

    def top_face(self, st: State) -> int:
        top = st.discard.item(0, st.disc_n.item(0) - 1)
        return self.kind_face[st.side.item(0)][top] if self.two_sided else top

    def matching(self, st: State) -> int:
        """Kinds that match the top card under the active colour (``matching.matching_bits``), as bits."""
        top = st.discard.item(0, st.disc_n.item(0) - 1)  # ``top_face``, inline
        if self.two_sided:
            top = self.kind_face[st.side.item(0)][top]
        return self.playable[(top * NC + st.color.item(0)) * 2 + st.first_play.item(0)]

    def guilty(self, st: State, seat: int) -> bool:
        """``matching.guilt`` of ``seat``: the one guilt check (rules §1.6), not a copy of it."""
        return bool(matching.guilt(self.e, st, self.ROW, np.array([seat]), st.side.astype(np.intp))[0])

    def goto(self, st: State, seat: int, phase: int) -> None:
        st.turn_seat[0] = seat
        st.actor[0] = seat
        st.phase[0] = phase

    def _others_vulnerable(self, st: State, seat: int) -> bool:
        v = st.vulnerable[0].tolist()  # a few seats: one list beats np.count_nonzero's dispatch
        v[seat] = False
        return True in v

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
    def step(self, st: State, a: int, listener: Listener | None = None) -> bool:
        """Apply legal action ``a`` in row 0, then every forced move, and refresh the mask (what
        ``Engine.step`` does for one game; forced moves one by one, whatever ``Settling.bulk`` says: the
        same games); ``listener`` hears of each move.  Returns whether the round ended."""
        self._apply(st, a, listener)
        while st.phase.item(0) != OVER:
            legal.refresh_one(self, st)
            if st.nlegal.item(0) != 1:
                return False
            self._apply(st, int(st.mask[0].argmax()), listener)
        return True

    def step_rows(self, st: State, R, actions, how: Settling = DEFAULT_SETTLING) -> StepResult:
        """``Engine.step_rows`` of row 0 (the same checks and result; other rows go to the engine)."""
        if np.shape(R) != (1,) or int(np.asarray(R)[0]) != 0:
            return self.e.step_rows(st, R, actions, how)
        R, actions = self.e.check_rows(st, R, actions)
        self.step(st, int(actions[0]), how.listener)
        return self.e.result(st, np.zeros(1, bool), R)
