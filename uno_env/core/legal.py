"""Legal actions (rules §1.3): the legal-action mask of every decision phase (``refresh``), built on
matching and the wild draw restriction (rules §1.2, §1.6: ``matching``), whose per-phase parts live
with their rule: stacking in ``penalty``, Skip deflection in ``deflect``, jump-ins in ``jump_in``,
UNO calls and catches in ``uno_call``, colour choices in ``color_choice``.  ``refresh_one`` is the
scalar twin of ``refresh``.

Illegal plays are masked (rules §1.3); the one exception is the bluffable wild draw card under
challenges (rules §1.6), which ``play`` marks guilty instead.
"""

from __future__ import annotations

import numpy as np

from . import color_choice, deflect, jump_in, penalty, uno_call
from .actions import ACCEPT, CHALLENGE, DRAW, KEEP, PASS
from .matching import playable_bits, top_face
from .rows import any_bits, flat, sel
from .state import CHOOSE_COLOR, DEFLECT, DRAWN, JUMP, OVER, PENDING, PHASE_NAMES, TURN, State
from .tables import RuleTables
from .twins import ScalarTables


def refresh(e: RuleTables, st: State, R, bits: np.ndarray | None = None, tface: np.ndarray | None = None) -> None:
    """Recompute the legal-action mask and count of ``R`` (``bits``: their turn-playable kinds, and
    ``tface``: the top card's face, if known)."""
    R = np.asarray(R, np.intp)
    if R.size == 0:
        return
    c = e.config
    S = sel(R)
    phase = st.phase[S]
    actor = st.actor[S].astype(np.intp)
    has = np.bincount(phase, minlength=len(PHASE_NAMES)).tolist()  # rows per phase: skip absent ones
    side = st.side[S].astype(np.intp) if e.two_sided else np.zeros(R.size, np.intp)
    if bits is None:
        tface = top_face(e, st, R) if tface is None else tface
        bits = playable_bits(e, st, R, actor, side, tface)
    if has[TURN] < R.size:
        if tface is None and (has[PENDING] or has[JUMP]):
            tface = top_face(e, st, R)
        bits[phase != TURN] = 0
        if has[DRAWN]:  # only the drawn card (rules §1.3)
            i = flat(phase == DRAWN)
            k = st.drawn[R[i]].astype(np.intp)
            bits[i, e.KWORD[k]] = e.KBIT[k]
        if has[PENDING]:
            assert tface is not None  # looked up above
            i = flat(phase == PENDING)
            bits[i] = penalty.stack_bits(e, st, R[i], actor[i], side[i], tface[i])
        if has[JUMP]:
            i = flat(phase == JUMP)
            bits[i] = jump_in.jump_bits(e, st, R[i], actor[i], side[i], tface[i])  # type: ignore[index]
        if has[DEFLECT]:
            i = flat(phase == DEFLECT)
            bits[i] = deflect.deflect_bits(e, st, R[i], actor[i], side[i])
    ok = e.unpack(bits, pad=e.two_sided)
    if e.two_sided:  # a face is playable if any kind showing it is: 4 kinds (bytes) per face
        u8 = ok.view(np.uint8)
        face_ok = u8.take(e.FACE_PAIRS, axis=1).view(np.uint16) != 0  # (n, F)
        if e.MANY_FACES.size:
            more = u8.take(e.MANY_REST, axis=1).view(np.uint16) != 0
            face_ok[:, e.MANY_FACES] |= more
        face_ok &= e.SIDE_FACES[side]
    else:
        face_ok = ok
    n = len(R)
    m = np.empty((n, e.A), bool)
    for a0, a1, f0, f1 in e.PLAY_SEGMENTS:  # a few slice copies instead of a gather
        m[:, a0:a1] = face_ok[:, f0:f1]
    m[:, e.N_PLAY:] = False
    if e.TGT_COLS.size:  # a seat never targets itself (E15)
        cols = e.TGT_COLS
        m[:, cols] &= e.TGT_SEAT[None, :] != actor[:, None]
    anyplay = any_bits(bits)
    draw = ~anyplay  # in turn: draw when nothing fits, or whenever the rules allow (and a card is left)
    if c.voluntary_draw:
        draw |= (st.draw_n[S] > 0) | (st.disc_n[S] > 1)
    if has[TURN] == n:  # every row in turn: the other non-play columns stay False
        m[:, e.ID[DRAW]] = draw
        extra = draw.astype(np.int16)
    else:
        pend = phase == PENDING
        chal = st.challengeable[S]
        draw = ((phase == TURN) & draw) | (pend & ~chal)
        keep = (phase == DRAWN) & e.keep_ok
        passing = (phase == JUMP) | (phase == DEFLECT)
        answer = pend & chal
        m[:, e.ID[DRAW]] = draw
        m[:, e.ID[KEEP]] = keep
        m[:, e.ID[PASS]] = passing
        m[:, e.ID[CHALLENGE]] = answer
        m[:, e.ID[ACCEPT]] = answer
        # legal non-play actions, counted from the flags (cheaper than summing the mask's columns)
        extra = draw.astype(np.int16) + keep + passing + answer
        extra += answer  # challenge and accept
    if e.enforce != "off":
        uno_call.call_and_catch_columns(e, st, R, actor, anyplay, m, extra)
    if has[CHOOSE_COLOR]:
        color_choice.choose_columns(e, flat(phase == CHOOSE_COLOR), side, m, extra)
    if has[OVER]:
        over = phase == OVER
        m[over] = False
        extra[over] = 0
    st.mask[S] = m
    if e.two_sided:
        st.nlegal[S] = m.view(np.uint8).sum(1, dtype=np.int16)
    else:
        nplay = sum(k * np.bitwise_count(bits & g).sum(1, dtype=np.int16) for k, g in e.PLAY_GROUPS)
        st.nlegal[S] = nplay + extra


def refresh_one(s: ScalarTables, st: State) -> None:
    """Scalar twin of ``refresh`` for the game of one of ``ScalarStepper`` ``s`` (the batched one for a
    colour choice or under the hard restriction)."""
    phase = st.phase.item(0)
    if s.e.hard or phase == OVER or phase == CHOOSE_COLOR:
        refresh(s.e, st, s.ROW)
        return
    actor = st.actor.item(0)
    if phase == TURN:
        bits = s.matching(st) & s.held(st, actor)
    elif phase == DRAWN:
        bits = s.bit[st.drawn.item(0)]
    elif phase == PENDING:
        bits = penalty.stack_bits_one(s, st, actor)
    elif phase == DEFLECT:
        bits = deflect.deflect_bits_one(s, st, actor)
    else:
        bits = jump_in.jump_bits_one(s, st, actor)
    m = np.zeros(s.A, bool)
    n = 0
    b = bits
    faces = s.kind_face[st.side.item(0)] if s.two_sided else None
    seen = set()  # UNO Flip: faces already counted (several kinds show one face)
    while b:
        low = b & -b
        k = low.bit_length() - 1
        b ^= low
        if faces is not None:
            k = faces[k]
            if k in seen:
                continue
            seen.add(k)
        m[s.plays[k]] = True
        n += s.nplays[k]
        own = s.self_target[k]
        if own is not None:
            m[own[actor]] = False
    ids = s.id
    if phase == TURN:
        draw = not bits or (s.voluntary and (st.draw_n.item(0) > 0 or st.disc_n.item(0) > 1))
        m[ids[DRAW]] = draw
        n += draw
    elif phase == DRAWN:
        m[ids[KEEP]] = s.keep_ok
        n += s.keep_ok
    elif phase == DEFLECT or phase == JUMP:
        m[ids[PASS]] = True
        n += 1
    elif st.challengeable.item(0):
        m[ids[CHALLENGE]] = m[ids[ACCEPT]] = True
        n += 2
    else:
        m[ids[DRAW]] = True
        n += 1
    if s.enforce != "off":
        n += uno_call.call_and_catch_columns_one(s, st, actor, bits, m)
    st.mask[0] = m
    st.nlegal[0] = n
