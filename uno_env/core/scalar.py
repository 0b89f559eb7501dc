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
penalties drawn automatically, an ambiguous UNO Flip card) go to the batched ``Engine`` on the same
state, so they keep one source.

Both write the same state, for every preset and option: ``tests/test_scalar.py`` plays random games
side by side with ``Engine.step`` and compares every field after every step.
"""

from __future__ import annotations

import numpy as np

from .actions import ACCEPT, CHALLENGE, DRAW, KEEP, PASS, PLAY, UNO
from .cards import FLIP, NO_COLOR, NUM_COLOR_STATES, REVERSE, SKIP, SKIP_EVERYONE, WILD_DRAW_COLOR
from .rules import Engine, StepResult
from .state import CHOOSE, DEFLECT, DRAWN, JUMP, OVER, PENDING, TURN, State

_ROW = np.zeros(1, np.intp)  # the batch-1 row index the batched engine is given


def _as_int(words) -> int:
    """A row of uint64 bitmask words as one Python int (bit k of word k // 64 is bit k)."""
    return sum(int(w) << (64 * i) for i, w in enumerate(words))


class ScalarStepper:
    """The scalar fast path of ``engine``'s configuration (see the module docstring)."""

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
        self.flipper_chooses = c.flip_revealed_wild == "flipper"
        # the tables, as Python lists: per action, per face, per side and kind
        self.kind, self.face, self.target = e.A_KIND.tolist(), e.A_FACE.tolist(), e.A_TARGET.tolist()
        self.new_color, self.counted = e.A_NEW_COLOR.tolist(), e.A_COUNTED.tolist()
        self.keeps_declared = e.A_KEEPS_DECLARED.tolist()
        self.sym, self.wild, self.color = e.F_SYM.tolist(), e.F_WILD.tolist(), e.F_COLOR.tolist()
        self.draws, self.is_draw, self.restricted = e.F_DRAW.tolist(), e.F_IS_DRAW.tolist(), e.F_RESTR.tolist()
        self.targeted, self.rotates = e.F_TARGETED.tolist(), e.F_ROTATE.tolist()
        self.two_sided = e.two_sided
        self.kind_face = e.KF.tolist()  # [side][kind]: the face it shows
        self.k_restricted = e.K_RESTR.tolist()  # [side][kind]
        self.face_kinds = [[k for k in row if k < e.K] for row in e.FACE_KINDS.tolist()] if e.two_sided else None
        self.rotation = {d: (np.arange(e.P) - d) % e.P for d in (-1, 1)}  # seat p takes the hand of p - d
        self.id, self.catch_ids = dict(e.ID), e.CATCH_IDS
        self.bit = [1 << k for k in range(e.K)]
        plays = [[] for _ in range(e.F)]  # per face: the play actions showing it (a wild: one per colour)
        for a in e.PLAY_IDS.tolist():
            plays[e.A_FACE[a]].append(a)
        self.plays = [np.asarray(p, np.intp) for p in plays]
        # a targeted card (Swap, a Seven-O 7) has one action per seat; a seat never targets itself
        self.nplays = [len(p) - bool(e.F_TARGETED[f]) for f, p in enumerate(plays)]
        self.self_target = [{e.A_TARGET[a]: a for a in p} if e.F_TARGETED[f] else None
                            for f, p in enumerate(plays)]
        # the engine's bitmask tables as Python ints, per top face (and colour) or per side
        self.playable = [_as_int(row) for row in e.PLAYBITS]
        self.stackable = [_as_int(row) for row in e.STACKBITS]
        self.skips = [_as_int(row) for row in e.SKIPBITS]
        self.identical = [_as_int(row) for row in e.IDENTBITS]

    # ------------------------------------------------------------------ helpers
    def _held(self, st: State, seat: int) -> int:
        """The kinds ``seat`` holds, as one int (``State.held``'s words joined)."""
        if self.W == 1:
            return st.held.item(0, seat, 0)
        words = st.held[0, seat].tolist()
        return words[0] | words[1] << 64 if self.W == 2 else _as_int(words)

    def _set_held(self, st: State, seat: int, bits: int) -> None:
        if self.W == 1:
            st.held[0, seat, 0] = bits
        else:
            st.held[0, seat] = [(bits >> (64 * i)) & 0xFFFFFFFFFFFFFFFF for i in range(self.W)]

    def _top_face(self, st: State) -> int:
        top = st.discard.item(0, st.disc_n.item(0) - 1)
        return self.kind_face[st.side.item(0)][top] if self.two_sided else top

    def _matching(self, st: State) -> int:
        """Kinds that match the top card under the active colour (``Engine._matching``), as bits."""
        idx = (self._top_face(st) * NUM_COLOR_STATES + st.color.item(0)) * 2 + int(st.first_play.item(0))
        return self.playable[idx]

    def _guilty(self, st: State, seat: int) -> bool:
        return bool(self.e._guilt(st, _ROW, np.array([seat]), st.side.astype(np.intp))[0])

    def _pick_kind(self, st: State, actor: int, face: int) -> int:
        """``Engine._pick_kind``: the card that plays ``face`` (UNO Flip: one of the kinds showing it)."""
        if not self.two_sided:
            return face
        hand = st.hands[0, actor]
        held = [k for k in self.face_kinds[face] if hand[k] > 0]
        if len(held) > 1:  # a random one of the copies held: the engine draws from the game's stream
            return int(self.e._pick_kind(st, _ROW, np.array([actor]), np.array([face]))[0])
        return st.drawn.item(0) if st.phase.item(0) == DRAWN else held[0]

    def _goto(self, st: State, seat: int, phase: int) -> None:
        st.turn[0] = seat
        st.actor[0] = seat
        st.phase[0] = phase

    def _others_vulnerable(self, st: State, seat: int) -> bool:
        v = st.vulnerable[0]
        n = np.count_nonzero(v)  # a C call: a tenth of ``v.any()`` on a few seats
        return n > 1 or (n == 1 and not v[seat])

    def _close_windows(self, st: State, seat: int, discard: bool) -> None:
        """``Engine._close_windows`` under ``catch`` enforcement (``automatic`` goes to the engine)."""
        if self.enforce == "off" or (not discard and self.e.window_discard_only):
            return
        v = st.vulnerable[0]
        if np.count_nonzero(v):
            mine = v[seat]
            v[:] = False
            v[seat] = mine

    def _take(self, st: State, seat: int, k: int) -> None:
        """``seat`` takes the top ``k`` cards of the draw pile (there are at least ``k``)."""
        dn = st.draw_n.item(0)
        hand = st.hands[0, seat]
        held = self._held(st, seat)
        for j in range(k):
            card = st.draw.item(0, dn - 1 - j)
            hand[card] += 1
            held |= self.bit[card]
        self._set_held(st, seat, held)
        if self.e.memory is not None:  # memory hook: cards enter a hand
            self.e.memory.drew_one(st, seat, k)
        st.hand_n[0, seat] += k
        st.draw_n[0] = dn - k
        if k:
            st.vulnerable[0, seat] = False  # E28: its hand grew

    # ------------------------------------------------------------------ moves
    def _can(self, st: State, a: int) -> bool:
        """Whether the scalar path plays legal action ``a`` in the current state."""
        k = self.kind[a]
        phase = st.phase.item(0)
        actor = st.actor.item(0)
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

    def _apply(self, st: State, a: int) -> None:
        """``Engine.apply`` of legal action ``a`` in row 0, scalar where ``_can`` allows."""
        if not self._can(st, a):
            self.e.apply(st, _ROW, np.array([a]))
            return
        e = self.e
        actor = st.actor.item(0)
        if e.log is not None:
            e.log.append((0, actor, a))
        st.turns[0] += self.counted[a]
        k = self.kind[a]
        if k == PLAY:
            self._play(st, a, actor)
        elif k == DRAW or k == ACCEPT:
            if st.phase.item(0) == PENDING:
                self._take_penalty(st, actor)
            else:
                self._draw(st, actor)
        elif k == KEEP:
            st.drawn[0] = -1
            self._goto(st, (actor + st.direction.item(0)) % self.P, TURN)
        elif k == PASS:
            if st.phase.item(0) == JUMP:
                self._pass_offer(st, actor)
            else:  # the Skip stands: the victim loses its turn (E33)
                self._goto(st, (actor + st.direction.item(0)) % self.P, TURN)
        else:  # UNO
            st.declared[0] = True
        if not self.keeps_declared[a]:
            st.declared[0] = False
        if st.turns.item(0) >= self.max_turns and st.phase.item(0) != OVER:  # E3
            e._finish_blocked(st, _ROW, truncated=True)

    def _play(self, st: State, a: int, actor: int) -> None:
        """``Engine._play`` of a card that is not the seat's last nor a Flip."""
        e, P = self.e, self.P
        face = self.face[a]
        kind = self._pick_kind(st, actor, face)
        sym = self.sym[face]
        if e.challenge_on:
            restr = self.restricted[face]
            st.prev_color[0] = st.color.item(0)
            st.prev_pending[0] = st.pending.item(0)
            st.guilty[0] = restr and self._guilty(st, actor)
            st.challengeable[0] = restr
        hn = st.hand_n.item(0, actor)
        hand = st.hands[0, actor]
        hand[kind] -= 1
        if hand[kind] == 0:  # the last copy of that kind left the hand
            self._set_held(st, actor, self._held(st, actor) & ~self.bit[kind])
        st.hand_n[0, actor] = hn - 1
        dn = st.disc_n.item(0)
        st.discard[0, dn] = kind
        st.disc_n[0] = dn + 1
        st.pile_counts[0, kind] += 1
        st.first_play[0] = False
        st.drawn[0] = -1
        st.passes[0] = 0
        st.origin[0] = actor
        st.drew_on[0, actor] = -1
        if self.e.memory is not None:  # memory hook: a card played (before its effect)
            self.e.memory.played_one(st, actor, a)
        st.color[0] = self.new_color[a]
        # E27: an out-of-turn jump-in is a discard but not the next player beginning a turn
        if st.phase.item(0) != JUMP or self.e.window_discard_only:
            self._close_windows(st, actor, discard=True)
        d = st.direction.item(0)
        nseat, nphase = (actor + d) % P, TURN
        if sym == REVERSE:
            st.direction[0] = -d
            nseat = actor if self.reverse_skips else (actor - d) % P
        elif sym == SKIP:
            victim, nseat = nseat, (actor + 2 * d) % P
            if self.stack_skip and self._held(st, victim) & self.skips[st.side.item(0)]:  # E33: pass it on
                nseat, nphase = victim, DEFLECT
        elif sym == SKIP_EVERYONE:
            nseat = actor
        chooser = nseat
        if self.is_draw[face]:
            st.pending[0] += self.draws[face]
            if sym == WILD_DRAW_COLOR:
                st.pending_color[0] = True
            nphase = PENDING
        if self.targeted[face]:
            self._exchange(st, actor, self.target[a])
        elif self.rotates[face]:
            self._rotate(st, actor, d)
        elif sym == FLIP and self._flip(st):  # a wild face revealed: its colour is declared first (E19)
            nphase = CHOOSE
            chooser = actor if self.flipper_chooses else nseat
        st.turn[0] = nseat
        st.phase[0] = nphase
        st.actor[0] = chooser
        # RULES.md 1.5, E16: checked after the whole effect (an exchange may have brought one card)
        if self.enforce != "off" and hn == 2 and st.hand_n.item(0, actor) == 1 and not st.declared.item(0):
            st.vulnerable[0, actor] = True
            if self.catch_out_of_turn:  # it moves again at once: the others are offered a catch first
                e._offer_catch(st, _ROW)
        self._offer_jump_in(st)

    def _flip(self, st: State) -> bool:
        """``Engine._flip``: the game turns over; returns whether the new top card is a wild."""
        side = 1 - st.side.item(0)
        st.side[0] = side
        if self.e.memory is not None:  # memory hook: the faces known no longer show
            self.e.memory.flipped_one(st)
        for pile, n, turn in ((st.discard, st.disc_n.item(0), self.invert_pile), (st.draw, st.draw_n.item(0), True)):
            if turn:  # the first n cards in reverse order
                pile[0, :n] = pile[0, n - 1::-1] if n else pile[0, :0]
        face = self.kind_face[side][st.discard.item(0, st.disc_n.item(0) - 1)]
        wild = self.wild[face]
        st.color[0] = NO_COLOR if wild else self.color[face]
        return wild

    def _exchange(self, st: State, a: int, b: int) -> None:
        """``Engine._exchange``: seats ``a`` and ``b`` swap hands (Swap; a 7 under Seven-O)."""
        for arr in (st.hands, st.hand_n, st.held, st.drew_on):
            row = arr[0]
            row[[a, b]] = row[[b, a]]
        st.vulnerable[0, a] = False
        st.vulnerable[0, b] = self.call_after_exchange and st.hand_n.item(0, b) == 1
        if self.e.memory is not None:  # memory hook: each seat knows the hand it gave
            self.e.memory.exchanged_one(st, a, b)

    def _rotate(self, st: State, actor: int, d: int) -> None:
        """``Engine._rotate``: every hand passes one seat on in direction ``d`` (Swap-in-turn; a 0)."""
        src = self.rotation[d]
        for arr in (st.hands, st.hand_n, st.held, st.drew_on):
            arr[0] = arr[0][src]
        if self.e.memory is not None:  # memory hook: each seat knows the hand it passed on
            self.e.memory.rotated_one(st, d)
        v = st.vulnerable[0]
        if self.call_after_exchange:
            v[:] = st.hand_n[0] == 1
            v[actor] = False
        else:
            v[:] = False

    def _pass_offer(self, st: State, seat: int) -> None:
        """``Engine._pass`` of a jump-in offer: the next seat in the offer's order is asked, or after
        the last one the seat to move resumes."""
        rank = st.offer_rank[0].tolist()
        cur = rank[seat]
        later = [r if r > cur else 127 for r in rank]
        best = min(later)
        if best < 127:
            st.actor[0] = later.index(best)
            st.phase[0] = JUMP
        else:
            st.actor[0] = st.turn.item(0)
            st.phase[0] = st.resume.item(0)
            st.offer_rank[0] = 127

    def _offer_jump_in(self, st: State) -> None:
        """``Engine._offer_jump_in`` after a new top card; the engine opens the offer when a seat holds
        the identical card (rare), so the scalar path only looks for one."""
        if not self.jump_in:
            return
        phase = st.phase.item(0)
        if not (phase == TURN or phase == DEFLECT
                or (self.stacking and phase == PENDING and not st.challengeable.item(0))):
            return
        ident = self.identical[self._top_face(st)]
        nxt, origin = st.actor.item(0), st.origin.item(0)
        for p in range(self.P):
            if p != nxt and (p != origin or self.jump_in_self) and self._held(st, p) & ident:
                self.e._offer_jump_in(st, _ROW, exclude_origin=True)
                return

    def _draw(self, st: State, actor: int) -> None:
        """``Engine._draw_action`` in turn, with a card left to draw."""
        card = st.draw.item(0, st.draw_n.item(0) - 1)
        self._take(st, actor, 1)
        st.drew_on[0, actor] = st.color.item(0)  # public: it drew on this colour
        if self.e.memory is not None:  # memory hook: a draw on the active colour
            self.e.memory.lacked_one(st, actor)
        self._close_windows(st, actor, discard=False)
        st.passes[0] = 0
        playable = False
        if not self.drawn_never and self._matching(st) >> card & 1:
            playable = not (self.e.hard and self.k_restricted[st.side.item(0)][card] and self._guilty(st, actor))
        if playable:
            st.drawn[0] = card
            st.phase[0] = DRAWN
        else:
            st.drawn[0] = -1
            self._goto(st, (actor + st.direction.item(0)) % self.P, TURN)

    def _take_penalty(self, st: State, victim: int) -> None:
        """``Engine._take_penalty`` of a penalty the pile covers, not ending the round."""
        self._take(st, victim, st.pending.item(0))
        st.pending[0] = 0
        st.pending_color[0] = False
        st.challengeable[0] = False
        st.guilty[0] = False
        self._close_windows(st, victim, discard=False)
        self._goto(st, (victim + st.direction.item(0)) % self.P if self.penalty_skips else victim, TURN)
        if not self.stacking:  # RULES.md 1.7: the victim drew at once; now the card is open to jump-ins
            self._offer_jump_in(st)

    # ------------------------------------------------------------------ legality
    def _refresh(self, st: State) -> None:
        """``Engine.refresh`` of row 0 (the batched one for a colour choice or under the hard
        restriction)."""
        phase = st.phase.item(0)
        if self.e.hard or phase == OVER or phase == CHOOSE:
            self.e.refresh(st, _ROW)
            return
        actor = st.actor.item(0)
        if phase == TURN:
            bits = self._matching(st) & self._held(st, actor)
        elif phase == DRAWN:
            bits = self.bit[st.drawn.item(0)]
        elif phase == PENDING:  # stacking (RULES.md 1.7), never on a going-out draw card (E10)
            bits = 0
            if not st.pending_color.item(0) and st.hand_n.item(0, st.origin.item(0)) > 0:
                bits = self.stackable[self._top_face(st)] & self._held(st, actor)
        elif phase == DEFLECT:  # pass the Skip on with a Skip
            bits = self.skips[st.side.item(0)] & self._held(st, actor)
        elif self.jump_in:  # JUMP: jump in with the identical card
            bits = self.identical[self._top_face(st)] & self._held(st, actor)
        else:  # JUMP without jump-ins: only a catch offer (uno_catch_out_of_turn)
            bits = 0
        m = np.zeros(self.A, bool)
        n = 0
        b = bits
        faces = self.kind_face[st.side.item(0)] if self.two_sided else None
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
            m[self.plays[k]] = True
            n += self.nplays[k]
            if self.self_target[k] is not None:
                m[self.self_target[k][actor]] = False
        ids = self.id
        if phase == TURN:
            draw = not bits or (self.voluntary and (st.draw_n.item(0) > 0 or st.disc_n.item(0) > 1))
            m[ids[DRAW]] = draw
            n += draw
        elif phase == DRAWN:
            m[ids[KEEP]] = self.keep_ok
            n += self.keep_ok
        elif phase == DEFLECT or phase == JUMP:
            m[ids[PASS]] = True
            n += 1
        elif st.challengeable.item(0):
            m[ids[CHALLENGE]] = m[ids[ACCEPT]] = True
            n += 2
        else:
            m[ids[DRAW]] = True
            n += 1
        if self.enforce != "off":
            if bits and st.hand_n.item(0, actor) == 2 and not st.declared.item(0):
                m[ids[UNO]] = True
                n += 1
            if self.enforce == "catch":
                v = st.vulnerable[0]
                if np.count_nonzero(v):
                    v = v.copy()
                    v[actor] = False
                    m[self.catch_ids] = v
                    n += np.count_nonzero(v)
        st.mask[0] = m
        st.nlegal[0] = n

    # ------------------------------------------------------------------ the step
    def step(self, st: State, a: int) -> bool:
        """Apply legal action ``a`` in row 0, then every forced move, and refresh the mask (what
        ``Engine.step`` does for one game); returns whether the round ended."""
        self._apply(st, a)
        while st.phase.item(0) != OVER:
            self._refresh(st)
            if st.nlegal.item(0) != 1:
                return False
            self._apply(st, int(st.mask[0].argmax()))
        return True

    def step_rows(self, st: State, R, actions) -> StepResult:
        """``Engine.step_rows`` of row 0 (the same checks and result; other rows go to the engine)."""
        if np.shape(R) != (1,) or int(np.asarray(R)[0]) != 0:
            return self.e.step_rows(st, R, actions)
        R, actions = self.e.check_rows(st, R, actions)
        self.step(st, int(actions[0]))
        return self.e.result(st, np.zeros(1, bool), R)
