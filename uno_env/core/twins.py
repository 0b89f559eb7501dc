"""The tables of the scalar twins (``core.scalar``): ``ScalarTables``, a ``RuleTables`` of the engine's
configuration with Python-value copies of the tables a one-game move reads, and the reads and writes of
one game's state that the twins share.  Each rule module's scalar twin (``play.act_play_one`` ...) takes
one (``s: ScalarTables``); ``scalar.ScalarStepper`` adds the dispatch.  Below the rule modules, so that
they name the type without an import cycle.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np

from . import matching
from .state import State
from .tables import NC, RuleTables


def _as_int(words) -> int:
    """A row of uint64 bitmask words as one Python int (bit k of word k // 64 is bit k)."""
    return sum(int(w) << (64 * i) for i, w in enumerate(words))


class ScalarTables(RuleTables):
    """The tables of ``engine``'s configuration as the scalar twins read them: the engine's own (the same
    arrays and flags, read as attributes: ``s.reverse_skips``, ``s.config``), and the same again as Python
    values (lists per action, face, side and kind; bitmasks as ints), with the twins' reads and writes of
    one game's state."""

    ROW = np.zeros(1, np.intp)  # the batch-1 row index the batched rules are given

    def __init__(self, engine: RuleTables):
        RuleTables.__init__(self, **{f.name: getattr(engine, f.name) for f in fields(RuleTables) if f.init})
        e: RuleTables = engine
        self.e = e  # the engine itself, for the batched rules the twins hand rare moves to
        c = e.config
        # the options the twins read per move, beside the engine's flags
        self.voluntary = c.voluntary_draw
        self.catch_out_of_turn = c.uno_catch_out_of_turn
        self.penalty_skips = c.draw_penalty_skips_turn
        self.stack_skip = c.stack_skip
        self.jump_in, self.jump_in_self = c.jump_in, c.jump_in_self
        self.call_after_exchange = c.uno_call_after_exchange
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
        self.face_kinds = [[k for k in row if k < e.K] for row in e.FACE_KINDS.tolist()]  # UNO Flip
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

