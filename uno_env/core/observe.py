"""Observations: one flat float32 vector per seat, laid out as a table of named slices.

Two layouts: ``v2`` (``SLOTS``) and ``v3`` (``SLOTS`` then ``SLOTS_V3``), chosen by
``Observer(engine, version)``.  v3 starts with v2's slices, unchanged, and adds what the table has seen
this round (``core.memory``): each seat's plays, declared colours, the colours it drew or passed on
and the cards it drew since it last played; per seat, the moves a belief about its hand rests on, one
number each (its last card's colour and the colour before it, whether it played after a lack or changed
the colour, the colour it declared last, the colours it played since it last drew, how long each lack
has lasted in cards drawn); the cards the observer knows another seat holds; the
cards whose place it does not know; the last plays in order.  A v2 observation is therefore the
first ``Observer(engine, "v2").size`` entries of a v3 one.

Seats are relative to the observer (position 0 is the observer, 1 the next seat in seat order, ...),
except ``seat``, which says which absolute seat the observer is (actions such as ``catch @2`` name
absolute seats).  ``F`` is the number of faces of the deck (both sides for UNO Flip), ``P`` the
number of players.  Nothing a seat may not see is encoded (rules §1.10): its own hand by active
faces only (in UNO Flip a player cannot see the backs of its own cards), the opponents' hands by
size only, and, in UNO Flip, the backs of the opponents' cards and of the draw pile's top card.

The table of slices (``SLOTS``) follows; ``Observer(engine).spec`` gives their positions for one
configuration.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

import numpy as np

from .cards import NUM_COLOR_STATES
from .layout import DESCRIPTIONS, NOT_ENCODED, SLOTS, SLOTS_V3, VERSIONS, table
from .matching import top_face
from .memory import LACK_CAP, SEAT_FIELDS, TALLY_CAP
from .state import CHOOSE_COLOR, DEFLECT, DRAWN, JUMP, OVER, PENDING, PHASE_NAMES, TURN, State
from .tables import RuleTables

LACK_DECAY = (0.7 ** np.arange(128)).astype(np.float32)  # weight of a lack after ``n`` cards drawn
DECAY = (0.85 ** np.minimum(np.arange(64), 63)).astype(np.float32)  # weight of a move ``age`` plays ago
PRIVILEGED_DRAWS = 4  # draw-pile cards in ``Observer.privileged`` (the next draws decide much of a round)

__doc__ += "\n" + table() + "\n"
__all__ = ["NOT_ENCODED", "SLOTS", "SLOTS_V3", "VERSIONS", "Observer", "public_decision", "public_decision_one"]


def public_decision(e: RuleTables, st: State, R: np.ndarray,
                    viewers: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(seat asked, phase, seat whose turn it is)`` in games ``R`` as ``viewers`` may know them (rules §1.10).

    The seat asked sees its own decision.  Another seat sees a decision that only a hand it cannot see
    explains (a jump-in offer, a Skip its victim may pass on, a playable card just drawn) as if it had
    been declined, which is what the table sees when there is no such card: the turn of the seat whose
    turn it is, or of the next seat."""
    actor, phase = st.actor[R].astype(np.intp), st.phase[R].astype(np.intp)
    turn = st.turn_seat[R].astype(np.intp)
    hide = (actor != viewers) & (phase != OVER)
    who, shown = actor.copy(), phase.copy()
    j = np.flatnonzero(hide & (phase == JUMP))  # the offer declined: the seat whose turn it is, as it was
    who[j], shown[j] = turn[j], st.resume[R[j]]
    k = np.flatnonzero(hide & (who != viewers) & ((shown == DEFLECT) | (shown == DRAWN)))  # Skip taken, card kept
    who[k], shown[k] = (who[k] + st.direction[R[k]]) % e.P, TURN
    turn = np.where(hide & ((phase == JUMP) | (phase == DEFLECT) | (phase == DRAWN)), who, turn)
    return who, shown, turn


def public_decision_one(e: RuleTables, st: State, viewer: int) -> tuple[int, int, int]:
    """``public_decision`` of game 0 for a seat that is not asked, by item reads (``observe_one``)."""
    who, phase = st.actor.item(0), st.phase.item(0)
    if phase == JUMP:
        who, phase = st.turn_seat.item(0), st.resume.item(0)
    if (phase == DEFLECT or phase == DRAWN) and who != viewer:
        who, phase = (who + st.direction.item(0)) % e.P, TURN
    return who, phase, who


class _BitPositions(dict):
    """``start << NUM_COLOR_STATES | mask`` -> the positions of the mask's bits from ``start``, filled as read."""

    def __missing__(self, key: int) -> tuple:
        value = self[key] = tuple((key >> NUM_COLOR_STATES) + c for c in range(NUM_COLOR_STATES) if key >> c & 1)
        return value


class _PlayPositions(dict):
    """A remembered play's code (seat | face << 4 | (declared colour + 1) << 12, ``core.memory``) -> the positions
    of its one-hots in the entry of ``recent`` at ``at``, seen from ``seat``; filled as read."""

    def __init__(self, at: int, seat: int, P: int, F: int, color_slot: list):
        super().__init__()
        self.at, self.seat, self.P, self.F, self.color_slot = at, seat, P, F, color_slot

    def __missing__(self, code: int) -> tuple:
        at, P, c = self.at, self.P, self.color_slot[code >> 12]
        value = self[code] = (at + ((code & 0xF) - self.seat) % P, at + P + ((code >> 4) & 0xFF)) + \
            ((at + P + self.F + c,) if c >= 0 else ())
        return value


@dataclass(frozen=True)
class Slot:
    name: str
    start: int
    stop: int
    help: str

    @property
    def size(self) -> int:
        return self.stop - self.start


class Observer:
    """Encodes observations for an ``Engine`` in layout ``version`` (``v2`` or ``v3``); ``spec`` lists the
    slices in order.  v3 reads the state's ``memory`` (``core.memory``; ``VecGame(observation="v3")``
    turns it on)."""

    def __init__(self, engine: RuleTables, version: str = "v2"):
        if version not in VERSIONS:
            raise ValueError(f"observation={version!r} is not a layout; layouts are: {', '.join(VERSIONS)}")
        self.version = version
        self.e = e = engine
        P, F = e.P, e.F
        sizes = [("seat", P), ("hand", F), ("top", F), ("color", NUM_COLOR_STATES), ("direction", 1),
                 ("phase", len(PHASE_NAMES)), ("acting", P), ("turn", P), ("played_by", P),
                 ("pending", 2), ("challengeable", 1), ("prev_color", NUM_COLOR_STATES), ("drawn", F),
                 ("declared", 1), ("hand_sizes", P), ("vulnerable", P), ("drew_on", P * NUM_COLOR_STATES),
                 ("discard", F),
                 ("draw_pile", 1), ("scores", P)]
        self.backs = e.two_sided and e.config.flip_back_faces_visible
        if e.two_sided:
            sizes.append(("side", 1))
        if self.backs:
            sizes += [("opponent_backs", (P - 1) * F), ("draw_top_back", F)]
        self.v3 = version == "v3"
        if self.v3:
            from .memory import HISTORY
            self.colors = (0, 1, 2, 3, 4, 5, 6, 7) if e.two_sided else (0, 1, 2, 3)
            C = len(self.colors)
            self.T = T = (C + 1) + (1 + len({int(x) for x in e.F_SYM if x >= 10})) + C  # as Memory's
            self.H = HISTORY
            self.recent_width = P + F + C
            sizes += [("played", P * T), ("lacks", P * NUM_COLOR_STATES), ("lacked", P * C), ("drawn_since", P),
                      ("last_play", P * (C + 1)), ("last_from", P * NUM_COLOR_STATES), ("last_how", P * 2),
                      ("declared_last", P * C), ("held", P * NUM_COLOR_STATES), ("known", (P - 1) * F),
                      ("unseen", F), ("recent", HISTORY * self.recent_width)]
            if self.backs:
                sizes.append(("discard_backs", F))
            # copies of each face in the deck, per side (zeros for the other side's faces)
            cp = np.zeros((2, F), np.float32)
            for s_ in (0, 1):
                np.add.at(cp[s_], e.KF[s_], e.deck.kind_counts.astype(np.float32))
            if not e.two_sided:
                cp[1] = cp[0]
            self.copies_by_side = cp
            self.color_slot = np.full(NUM_COLOR_STATES + 1, -1, np.intp)  # declared colour id + 1 -> slot
            for i, c_ in enumerate(self.colors):
                self.color_slot[c_ + 1] = i
            # ``_memory_one``'s gathers (each observer's seats in relative order) and look-up tables
            rel_rows = [(s_ + np.arange(P)) % P for s_ in range(P)]
            self._tally_cells = [(r[:, None] * T + np.arange(T)).ravel() for r in rel_rows]
            self._lack_cells = [(r[:, None] * C + np.arange(C)).ravel() for r in rel_rows]
            self._tally_value = np.arange(TALLY_CAP + 1, dtype=np.float32) / np.float32(10.0)  # taken with clip
            self._lack_value = np.append(LACK_DECAY[:LACK_CAP + 1], np.float32(0))  # taken with wrap: -1 -> 0
            # in the dtype ``observe_one`` builds its vector in (float64 for UNO Flip: the same float32 values)
            dtype = np.float64 if e.two_sided else np.float32
            self._one_values = (self._tally_value.astype(dtype), self._lack_value.astype(dtype),
                                self.copies_by_side.astype(dtype))
            self._decay = DECAY.tolist()
        spec, pos = [], 0
        for name, size in sizes:
            spec.append(Slot(name, pos, pos + size, DESCRIPTIONS.get(name, "")))
            pos += size
        self.spec = tuple(spec)
        self.slots = {s.name: s for s in spec}
        self.starts = {s.name: s.start for s in spec}
        self.size = pos
        c = e.config
        self.score_scale = float(max(c.target, c.starting_points))
        # ``observe_one``'s tables: each observer's seats in relative order; per side, the face of each kind,
        # and the cell (opponent, face) of each (opponent, kind) of the other hands, for one bincount
        self._rel = [[(s_ + i) % P for i in range(P)] for s_ in range(P)]
        self._rel_rows = [np.array(r, np.intp) for r in self._rel]
        self._kf = [np.ascontiguousarray(e.KF[s_]) for s_ in (0, 1)]
        self._kf_l = e.KF.tolist()
        if e.two_sided:
            self._count_tables()
        if self.v3:
            self._memory_one_tables()

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) float32 bounds of every observation entry (for a Gymnasium ``Box``)."""
        e = self.e
        low = np.zeros(self.size, np.float32)
        high = np.ones(self.size, np.float32)
        copies = np.zeros(e.F, np.float32)  # cards of the deck showing each face
        for s in (0, 1) if e.two_sided else (0,):
            np.add.at(copies, e.KF[s], e.deck.kind_counts.astype(np.float32))
        for name in ("hand", "discard"):
            high[self.slots[name].start:self.slots[name].stop] = copies
        if self.backs:
            sl = self.slots["opponent_backs"]
            high[sl.start:sl.stop] = np.tile(copies, e.P - 1)
        low[self.slots["direction"].start] = -1
        big = e.N / 10.0
        high[self.slots["pending"].start] = big
        high[self.slots["hand_sizes"].start:self.slots["hand_sizes"].stop] = big
        sl = self.slots["scores"]
        low[sl.start:sl.stop], high[sl.start:sl.stop] = self.score_bounds()
        if self.v3:
            for name in ("played", "drawn_since"):
                sl = self.slots[name]
                high[sl.start:sl.stop] = TALLY_CAP / 10.0 if name == "played" else big
            for name in ("unseen", "discard_backs"):
                if name in self.slots:
                    sl = self.slots[name]
                    high[sl.start:sl.stop] = copies
            sl = self.slots["known"]
            high[sl.start:sl.stop] = np.tile(copies, e.P - 1)
        return low, high

    def score_bounds(self) -> tuple[np.float32, np.float32]:
        """(low, high) of the ``scores`` entries: finite, from the scoring mode (rules §3.4, §6.4, §7.5).
        A round moves a score by at most ``D``, the points of the whole deck (on its costlier side): the
        target modes end a game at the first score past the target, ``plus_minus`` after ``max_rounds``
        rounds, ``penalty_countdown`` at the first score below zero."""
        e, c = self.e, self.e.config
        D = float(max((e.K_PTS[s] * e.deck.kind_counts).sum() for s in (0, 1)))
        mode = c.scoring_mode
        if mode in ("winner_takes_sum", "cumulative_low"):
            lo, hi = 0.0, c.target - 1 + D
        elif mode == "plus_minus":
            lo, hi = -c.max_rounds * D, c.max_rounds * D
        else:  # penalty_countdown
            lo, hi = -D, float(c.starting_points)
        return np.float32(lo / self.score_scale), np.float32(hi / self.score_scale)

    def _faces(self, counts: np.ndarray, side: np.ndarray) -> np.ndarray:
        """(n, K) copies per kind -> (n, F) copies per face on ``side`` (per row)."""
        if not self.e.two_sided:
            return counts
        # a sum of counts per face with one bincount, not a product with ``kind_to_face``: a BLAS
        # product this small waits on a second thread, for many times its cost on a busy machine
        n, F = counts.shape[0], self.e.F
        cell = np.arange(n)[:, None] * F + self.e.KF[np.asarray(side, np.intp)]  # (n, K): row, face
        return np.bincount(cell.ravel(), counts.ravel(), n * F).reshape(n, F).astype(np.float32)

    def _count_tables(self) -> None:
        """UNO Flip's counts for ``observe_one``: the cell of the observation each card of a hand or of the discard
        pile adds 1 to, per observer and side in play, so that one ``bincount`` writes every slice of counts
        per face (a face is a kind's side: several kinds show one face).  The counts are those of the
        observer's hand (``hand``), the discard pile (``discard``) and, with ``flip_back_faces_visible``, the
        backs of the other hands (``opponent_backs``) and of the discard pile (``discard_backs``, v3); read
        from ``hands[0]`` (every seat's, or only the observer's without visible backs) and the pile's counts
        (once more for its backs), concatenated in that order."""
        e, P, F, S = self.e, self.e.P, self.e.F, self.starts
        KF = e.KF.astype(np.intp)
        self._count_cells = []
        for s_ in range(P):
            per_side = []
            for sd in (0, 1):
                parts = []
                for p in range(P) if self.backs else (s_,):
                    r = (p - s_) % P  # relative seat
                    parts.append(S["hand"] + KF[sd] if r == 0 else S["opponent_backs"] + (r - 1) * F + KF[1 - sd])
                parts.append(S["discard"] + KF[sd])
                if self.backs and self.v3:
                    parts.append(S["discard_backs"] + KF[1 - sd])
                per_side.append(np.concatenate(parts))
            self._count_cells.append(per_side)

    def observe_one(self, st: State, seat: int) -> np.ndarray:
        """``observe(st, [0], [seat])[0]`` for a state of one game, by item reads: the same vector at a
        fraction of the cost of ``observe``'s array operations on one row (the AEC env's fast path).
        On one game a numpy call costs many times its arithmetic, and an item write about a tenth of a
        call: the one-hots are gathered and written by one ``put``, values only where they are not 0; in
        UNO Flip every count per face is written by one ``bincount`` (``_count_tables``), in float64 (exact
        for counts, and for every value written, each a float32 value or a Python float rounded once), made
        float32 at the end.  ``tests/test_scalar.py`` and ``tests/test_memory.py`` check that the two agree."""
        e, P, F, S = self.e, self.e.P, self.e.F, self.starts
        side = st.side.item(0)
        pile = st.pile_counts[0]
        two_sided = e.two_sided
        if two_sided:  # copies per kind -> copies per face of the side in play (and backs): one bincount
            face_of = self._kf_l[side]
            if self.backs:
                hands = st.hands[0].ravel()
                counts = (hands, pile, pile) if self.v3 else (hands, pile)
            else:
                counts = (st.hands[0, seat], pile)
            o = np.bincount(self._count_cells[seat][side], np.concatenate(counts), self.size)
        else:  # one side: faces are kinds
            o = np.zeros(self.size, np.float32)
            hand = st.hands[0, seat]
            at = S["hand"]
            o[at:at + F] = hand
            at = S["discard"]
            o[at:at + F] = pile
        top = st.discard.item(0, st.disc_n.item(0) - 1)
        phase, actor = st.phase.item(0), st.actor.item(0)
        ones = [S["seat"] + seat, S["top"] + (face_of[top] if two_sided else top), S["color"] + st.color.item(0),
                S["played_by"] + (st.origin.item(0) - seat) % P, S["prev_color"] + st.prev_color.item(0)]
        if actor == seat or phase == OVER or phase == CHOOSE_COLOR or phase == PENDING or phase == TURN:
            who, shown, turn = actor, phase, st.turn_seat.item(0)  # what everyone sees (``public_decision``)
        else:
            who, shown, turn = public_decision_one(e, st, seat)
        ones.append(S["phase"] + shown)
        if shown != OVER:
            ones += (S["acting"] + (who - seat) % P, S["turn"] + (turn - seat) % P)
        o[S["direction"]] = st.direction.item(0)
        pending = st.pending.item(0)
        if pending:
            o[S["pending"]] = pending / 10.0
        if st.pending_color.item(0):
            ones.append(S["pending"] + 1)
        if st.challengeable.item(0):
            ones.append(S["challengeable"])
        if actor == seat:
            if phase == DRAWN:
                drawn = st.drawn.item(0)
                ones.append(S["drawn"] + (face_of[drawn] if two_sided else drawn))
            if st.declared.item(0):
                ones.append(S["declared"])
        hand_n, vulnerable, drew_on = st.hand_n[0].tolist(), st.vulnerable[0].tolist(), st.drew_on[0].tolist()
        scores, scale = st.scores[0].tolist(), self.score_scale
        s_sizes, s_vuln, s_drew, s_scores = S["hand_sizes"], S["vulnerable"], S["drew_on"], S["scores"]
        for i, p in enumerate(self._rel[seat]):
            o[s_sizes + i] = hand_n[p] / 10.0
            if vulnerable[p]:
                ones.append(s_vuln + i)
            if drew_on[p] >= 0:
                ones.append(s_drew + i * NUM_COLOR_STATES + drew_on[p])
            if scores[p]:
                o[s_scores + i] = scores[p] / scale
        dn = st.draw_n.item(0)
        o[S["draw_pile"]] = dn / e.N
        if side:
            ones.append(S["side"])  # (two-sided decks only)
        if self.backs and dn:  # the other side of the draw pile's top card (the backs of the hands: counted above)
            ones.append(S["draw_top_back"] + self._kf_l[1 - side][st.draw.item(0, dn - 1)])
        if self.v3:
            self._memory_one(o, ones, st, seat, side)
        o.put(ones, 1.0)
        return o.astype(np.float32) if two_sided else o

    def memory(self, st: State):
        """The table's memory of ``st`` (``State.memory``; v3 reads it), or a clear error."""
        mem = st.memory
        if mem is None:
            raise ValueError("observation v3 reads the table's memory of this state, which is off: make the game "
                             "with VecGame(..., observation='v3') (or Engine.new_state(..., memory=True), or "
                             "core.memory_view.enable(engine, state) before the deal)")
        return mem

    def _memory_one_tables(self) -> None:
        """``_memory_one``'s positions: per observer, each seat (relative order) with the start of its part of
        each per-seat slice; the one-hots of a bit mask at a start, and of a remembered play in each entry
        of ``recent``, looked up as they first occur."""
        assert SEAT_FIELDS == ("lacks", "drawn", "held", "last_col", "last_prev", "last_flags", "last_at", "decl",
                               "decl_at"), "the order _memory_one unpacks a seat's record in"
        P, F, C, S, W = self.e.P, self.e.F, len(self.colors), self.starts, NUM_COLOR_STATES
        self._seat_slots = [[(p, (S["lacks"] + i * W) << W, (S["held"] + i * W) << W, S["drawn_since"] + i,
                              S["last_play"] + i * (C + 1), S["last_from"] + i * W, (S["last_how"] + 2 * i) << W,
                              S["declared_last"] + i * C) for i, p in enumerate(rel)] for rel in self._rel]
        # ``known[0, observer]``'s rows of the other seats in relative order, as flat positions in ``Memory.known``
        self._known_cells = [((s_ * P + np.asarray(rel[1:], np.intp))[:, None] * F + np.arange(F)).ravel()
                             for s_, rel in enumerate(self._rel)]
        self._hand_at, self._discard_at = S["hand"], S["discard"]
        self._none_known = bytes(P * F)  # ``Memory.known[0, observer]`` when it knows no card (int8 zeros)
        self._bit_ones = _BitPositions()
        color_slot = self.color_slot.tolist()
        self._recent = [[_PlayPositions(S["recent"] + j * self.recent_width, s, P, F, color_slot)
                         for j in range(self.H)] for s in range(P)]

    def _memory_one(self, o: np.ndarray, ones: list, st: State, seat: int, side: int) -> None:
        """v3's slices of one game (``observe_one``), the values ``_memory_rows`` gives (``o`` comes zeroed but
        for the counts of v2's slices; ``tests/test_memory.py`` compares the two after every step): the dense
        slices (tallies, lacks, known cards) by one gather (and one table look-up) each, the others by item
        writes of what is not 0, the positions of the one-hots added to ``ones`` (looked up in
        ``_memory_one_tables``'s tables)."""
        mem, P, F, S = st.memory, self.e.P, self.e.F, self.starts
        if mem is None:
            mem = self.memory(st)  # the error
        tally_value, lack_value, copies = self._one_values
        at = S["played"]
        tally_value.take(mem.tally.take(self._tally_cells[seat]), None, o[at:at + P * self.T], "clip")
        at = S["lacked"]
        lack_value.take(mem.lack_n.take(self._lack_cells[seat]), None, o[at:at + P * len(self.colors)], "wrap")
        plays, decay, bit_ones, N = mem.plays_n.item(0), self._decay, self._bit_ones, self.e.N
        record = mem.seat_record[0].tolist()  # per seat: SEAT_FIELDS
        for p, s_lacks, s_held, s_drawn, s_play, s_from, s_how, s_decl in self._seat_slots[seat]:
            lacks, drawn, held, last_col, last_prev, flags, last_at, decl, decl_at = record[p]
            if lacks:
                ones += bit_ones[s_lacks | lacks]
            if held:
                ones += bit_ones[s_held | held]
            if flags:
                ones += bit_ones[s_how | flags]
            if drawn:  # counts and ages are never negative (last_at, decl_at <= plays_n): clipped above only
                o[s_drawn] = (drawn if drawn < N else N) / 10.0
            if last_col >= 0:
                age = plays - last_at
                o[s_play + last_col] = o[s_from + last_prev] = decay[age if age < 63 else 63]
            if decl >= 0:
                age = plays - decl_at
                o[s_decl + decl] = decay[age if age < 63 else 63]
        # unseen: the deck's copies less the observer's hand, the discard pile (both written in ``o`` already) and
        # the known cards (counts: exact in float32)
        at = S["unseen"]
        unseen = o[at:at + F]
        np.subtract(copies[side], o[self._hand_at:self._hand_at + F], unseen)
        np.subtract(unseen, o[self._discard_at:self._discard_at + F], unseen)
        if mem.reveals.item(0) and mem.known[0, seat].tobytes() != self._none_known:  # (P, F); its own row is empty
            at = S["known"]
            known = o[at:at + (P - 1) * F]
            known[:] = mem.known.take(self._known_cells[seat])  # the other seats' rows, in relative order
            np.subtract(unseen, known if P == 2 else known.reshape(P - 1, F).sum(0), unseen)
        hist = mem.history[0].tolist()  # a ring: the newest play is at (plays - 1) % HISTORY
        k = plays % self.H
        newest_first = hist[k - 1::-1] + hist[:k - 1:-1] if k else hist[::-1]
        if plays < self.H:
            del newest_first[plays:]
        ones += chain.from_iterable(map(dict.__getitem__, self._recent[seat], newest_first))

    def _memory_rows(self, o: np.ndarray, st: State, R: np.ndarray, seats: np.ndarray, rel: np.ndarray,
                     side: np.ndarray) -> None:
        """v3's slices of games ``R`` (``observe``)."""
        mem, P, F, S = self.memory(st), self.e.P, self.e.F, self.slots
        n = R.size
        Rc = R[:, None]
        o[:, S["played"].start:S["played"].stop] = \
            np.minimum(mem.tally[Rc, rel], TALLY_CAP).reshape(n, -1) / np.float32(10.0)
        bits = (mem.lacks[Rc, rel][:, :, None] >> np.arange(NUM_COLOR_STATES, dtype=np.int16)) & 1
        o[:, S["lacks"].start:S["lacks"].stop] = bits.reshape(n, -1)
        o[:, S["drawn_since"].start:S["drawn_since"].stop] = \
            np.clip(mem.drawn[Rc, rel], 0, self.e.N) / np.float32(10.0)
        C = len(self.colors)
        plays = mem.plays_n[R][:, None]
        lc = mem.last_col[Rc, rel]  # (n, P)
        i, p = np.nonzero(lc >= 0)
        w = DECAY[np.clip(plays - mem.last_at[Rc, rel], 0, 63)]
        o[i, S["last_play"].start + p * (C + 1) + lc[i, p]] = w[i, p]
        o[i, S["last_from"].start + p * NUM_COLOR_STATES + mem.last_prev[Rc, rel][i, p]] = w[i, p]
        flags = mem.last_flags[Rc, rel][:, :, None] >> np.arange(2, dtype=np.int8)
        o[:, S["last_how"].start:S["last_how"].stop] = (flags & 1).reshape(n, -1)
        dc = mem.decl[Rc, rel]
        i, p = np.nonzero(dc >= 0)
        w = DECAY[np.clip(plays - mem.decl_at[Rc, rel], 0, 63)]
        o[i, S["declared_last"].start + p * C + dc[i, p]] = w[i, p]
        bits = (mem.held[Rc, rel][:, :, None] >> np.arange(NUM_COLOR_STATES, dtype=np.int16)) & 1
        o[:, S["held"].start:S["held"].stop] = bits.reshape(n, -1)
        ln = mem.lack_n[Rc, rel]  # (n, P, C)
        o[:, S["lacked"].start:S["lacked"].stop] = np.where(ln >= 0, LACK_DECAY[np.maximum(ln, 0)], 0).reshape(n, -1)
        known = mem.known[Rc, seats[:, None], rel[:, 1:]]  # (n, P-1, F)
        o[:, S["known"].start:S["known"].stop] = known.reshape(n, -1)
        hs, ds = S["hand"], S["discard"]
        o[:, S["unseen"].start:S["unseen"].stop] = (self.copies_by_side[side] - o[:, hs.start:hs.stop]
                                                    - o[:, ds.start:ds.stop] - known.sum(1))
        H, w = self.H, self.recent_width
        cnt = mem.plays_n[R]
        j = np.arange(H)[None, :]
        codes = mem.history[Rc, (cnt[:, None] - 1 - j) % H]  # (n, H) newest first
        i, k = np.nonzero(j < np.minimum(cnt, H)[:, None])
        c = codes[i, k]
        at = S["recent"].start + k * w
        o[i, at + ((c & 0xF) - seats[i]) % P] = 1
        o[i, at + P + ((c >> 4) & 0xFF)] = 1
        col = self.color_slot[c >> 12]
        d = col >= 0
        o[i[d], at[d] + P + F + col[d]] = 1

    def privileged_size(self, draws: int = PRIVILEGED_DRAWS) -> int:
        """Length of ``privileged``'s vectors: the other hands, then ``draws`` cards of the draw pile."""
        return (self.e.P - 1 + draws) * self.e.F

    def privileged_bounds(self, draws: int = PRIVILEGED_DRAWS) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) float32 bounds of ``privileged``'s entries (for a Gymnasium ``Box``): the other hands
        (as many copies of a face as the deck holds, as ``hand``), then one-hot draws."""
        high = self.bounds()[1]
        hand = self.slots["hand"]
        extra_high = np.ones(self.privileged_size(draws), np.float32)
        extra_high[:(self.e.P - 1) * hand.size] = np.tile(high[hand.start:hand.stop], self.e.P - 1)
        return np.zeros_like(extra_high), extra_high

    def privileged(self, st: State, R: np.ndarray, seats: np.ndarray, draws: int = PRIVILEGED_DRAWS) -> np.ndarray:
        """``(n, privileged_size(draws)) float32``: what ``seats`` may *not* see (rules §1.10).

        Not an observation. It is for critics trained with privileged information (an asymmetric
        actor-critic; ``agents.privileged``): a value function may read the hidden state, since the
        policy gradient stays unbiased for any baseline of the full state, while the actor must not.
        Laid out as copies of each active face in the hand of each other seat (relative seats 1 to
        P-1, as in ``hand``), then a one-hot active face for each of the next ``draws`` cards of the
        draw pile, top first (zeros past its end).
        """
        e = self.e
        R = np.asarray(R, np.intp)
        seats = np.asarray(seats, np.intp)
        n, P, F = len(R), e.P, e.F
        side = st.side[R].astype(np.intp)
        rel = (seats[:, None] + np.arange(1, P)[None, :]) % P  # (n, P-1) absolute seats
        others = st.hands[R[:, None], rel].reshape(n * (P - 1), e.K)
        out = np.zeros((n, (P - 1 + draws) * F), np.float32)
        out[:, :(P - 1) * F] = self._faces(others, np.repeat(side, P - 1)).reshape(n, -1)
        if draws:
            dn = st.draw_n[R].astype(np.intp)
            j = np.arange(draws)[None, :]
            pos = dn[:, None] - 1 - j  # (n, draws): positions from the top, < 0 past the pile's end
            kind = st.draw[R[:, None], np.maximum(pos, 0)].astype(np.intp)
            face = e.KF[side[:, None], kind] if e.two_sided else kind
            i, k = np.nonzero(pos >= 0)
            out[i, (P - 1 + k) * F + face[i, k]] = 1.0
        return out

    def observe(self, st: State, R: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """``(n, size) float32`` observations of ``seats`` in games ``R``."""
        e, S = self.e, self.slots
        R = np.asarray(R, np.intp)
        seats = np.asarray(seats, np.intp)
        n, P = len(R), e.P
        ar = np.arange(n)
        o = np.zeros((n, self.size), np.float32)
        rel = (seats[:, None] + np.arange(P)[None, :]) % P  # absolute seat at each relative position
        side = st.side[R].astype(np.intp)
        o[ar, S["seat"].start + seats] = 1
        o[:, S["hand"].start:S["hand"].stop] = self._faces(st.hands[R, seats], side)
        tface = top_face(e, st, R)
        o[ar, S["top"].start + tface] = 1
        o[ar, S["color"].start + st.color[R].astype(np.intp)] = 1
        o[:, S["direction"].start] = st.direction[R]
        actor = st.actor[R].astype(np.intp)
        who, phase, turn = public_decision(e, st, R, seats)
        live = np.flatnonzero(phase != OVER)
        o[ar, S["phase"].start + phase] = 1
        o[live, S["acting"].start + (who[live] - seats[live]) % P] = 1
        o[live, S["turn"].start + (turn[live] - seats[live]) % P] = 1
        o[ar, S["played_by"].start + (st.origin[R].astype(np.intp) - seats) % P] = 1
        o[:, S["pending"].start] = st.pending[R] / 10.0
        o[:, S["pending"].start + 1] = st.pending_color[R]
        o[:, S["challengeable"].start] = st.challengeable[R]
        o[ar, S["prev_color"].start + st.prev_color[R].astype(np.intp)] = 1
        mine = actor == seats
        d = np.flatnonzero((phase == DRAWN) & mine)
        if d.size:
            o[d, S["drawn"].start + e.KF[side[d], st.drawn[R[d]]]] = 1
        o[:, S["declared"].start] = st.declared[R] & mine
        o[:, S["hand_sizes"].start:S["hand_sizes"].stop] = st.hand_n[R[:, None], rel] / 10.0
        o[:, S["vulnerable"].start:S["vulnerable"].stop] = st.vulnerable[R[:, None], rel]
        drew = st.drew_on[R[:, None], rel].astype(np.intp)  # (n, P)
        j, p = np.nonzero(drew >= 0)
        o[j, S["drew_on"].start + p * NUM_COLOR_STATES + drew[j, p]] = 1
        o[:, S["discard"].start:S["discard"].stop] = self._faces(st.pile_counts[R], side)
        o[:, S["draw_pile"].start] = st.draw_n[R] / e.N
        o[:, S["scores"].start:S["scores"].stop] = st.scores[R[:, None], rel] / self.score_scale
        if e.two_sided:
            o[:, S["side"].start] = side
        if self.backs:
            other = 1 - side
            opp = st.hands[R[:, None], rel[:, 1:]]  # (n, P-1, K)
            backs = self._faces(opp.reshape(n * (P - 1), e.K), np.repeat(other, P - 1))
            o[:, S["opponent_backs"].start:S["opponent_backs"].stop] = backs.reshape(n, -1)
            has = np.flatnonzero(st.draw_n[R] > 0)
            if has.size:
                Rh = R[has]
                top = st.draw[Rh, st.draw_n[Rh] - 1]
                o[has, S["draw_top_back"].start + e.KF[other[has], top]] = 1
        if self.v3:
            self._memory_rows(o, st, R, seats, rel, side)
            if self.backs:
                sl = S["discard_backs"]
                o[:, sl.start:sl.stop] = self._faces(st.pile_counts[R], 1 - side)
        return o
