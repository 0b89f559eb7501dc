"""Observations: one flat float32 vector per seat, laid out as a table of named slices.

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

import numpy as np

from .cards import NUM_COLOR_STATES
from .legal import top_face
from .state import DRAWN, PHASE_NAMES, State

PRIVILEGED_DRAWS = 4  # draw-pile cards in ``Observer.privileged`` (the next draws decide much of a round)

# (name, size, meaning): the observation layout, in order.
SLOTS = (
    ("seat", "P", "one-hot: the observer's absolute seat"),
    ("hand", "F", "copies of each face the observer holds (active side)"),
    ("top", "F", "one-hot: the top card's active face"),
    ("color", "10", "one-hot: the active colour (8 colours, free after Swap-in-turn, none declared yet)"),
    ("direction", "1", "+1 seat order, -1 reversed"),
    ("phase", "7", "one-hot: the decision asked (turn, drawn, pending, choose, jump_in, deflect, over)"),
    ("acting", "P", "one-hot: the seat asked now (relative)"),
    ("turn", "P", "one-hot: the seat whose decision follows an offer or a colour choice (relative)"),
    ("played_by", "P", "one-hot: the seat that played the top card (relative)"),
    ("pending", "2", "cards the victim of draw cards must take / 10; the draw-until-colour flag"),
    ("challengeable", "1", "the pending wild draw card may be challenged"),
    ("prev_color", "10", "one-hot: the active colour before the top card (what a challenge tests)"),
    ("drawn", "F", "one-hot: the card the observer drew and may play now"),
    ("declared", "1", "the observer has declared UNO for its next play"),
    ("hand_sizes", "P", "cards in each hand / 10 (relative)"),
    ("vulnerable", "P", "seats that can be caught for a missed UNO (relative)"),
    ("drew_on", "P*10", "one-hot per seat (relative): the colour active when it last drew on its turn "
     "instead of playing, if it has not played since; public history a player remembers"),
    ("discard", "F", "copies of each face in the discard pile (active faces)"),
    ("draw_pile", "1", "cards in the draw pile / deck size"),
    ("scores", "P", "game scores / max(target, starting_points) (relative)"),
    ("side", "1", "UNO Flip only: 0 light, 1 dark"),
    ("opponent_backs", "(P-1)*F", "UNO Flip with flip_back_faces_visible: copies of each inactive "
     "face in each opponent's hand (relative seats 1..P-1)"),
    ("draw_top_back", "F", "UNO Flip with flip_back_faces_visible: one-hot inactive face of the "
     "draw pile's top card"),
)


def _table() -> str:
    rows = [("slice", "size", "meaning")] + [tuple(x) for x in SLOTS]
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    line = "  ".join("=" * x for x in w)
    fmt = ["  ".join(r[i].ljust(w[i]) for i in range(3)).rstrip() for r in rows]
    return "\n".join([line, fmt[0], line, *fmt[1:], line])


__doc__ += "\n" + _table() + "\n"
_DESCRIPTIONS = {name: text for name, _, text in SLOTS}


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
    """Encodes observations for an ``Engine``; ``spec`` lists the slices in order."""

    def __init__(self, engine):
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
        spec, pos = [], 0
        for name, size in sizes:
            spec.append(Slot(name, pos, pos + size, _DESCRIPTIONS.get(name, "")))
            pos += size
        self.spec = tuple(spec)
        self.slots = {s.name: s for s in spec}
        self.starts = {s.name: s.start for s in spec}
        self.size = pos
        c = e.config
        self.score_scale = float(max(c.target, c.starting_points))
        if e.two_sided:
            m = np.zeros((2, e.K, F), np.float32)
            for s in (0, 1):
                m[s, np.arange(e.K), e.KF[s]] = 1.0
            self.kind_to_face = m  # counts per kind @ m[side] = counts per face on that side

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
        low[sl.start:sl.stop], high[sl.start:sl.stop] = -np.inf, np.inf
        return low, high

    def _faces(self, counts: np.ndarray, side: np.ndarray) -> np.ndarray:
        """(n, K) copies per kind -> (n, F) copies per face on ``side`` (per row)."""
        if not self.e.two_sided:
            return counts
        # a sum of counts per face with one bincount, not a product with ``kind_to_face``: a BLAS
        # product this small waits on a second thread, for many times its cost on a busy machine
        n, F = counts.shape[0], self.e.F
        cell = np.arange(n)[:, None] * F + self.e.KF[np.asarray(side, np.intp)]  # (n, K): row, face
        return np.bincount(cell.ravel(), counts.ravel(), n * F).reshape(n, F).astype(np.float32)

    def observe_one(self, st: State, seat: int) -> np.ndarray:
        """``observe(st, [0], [seat])[0]`` for a state of one game, by item reads: the same vector at a
        fraction of the cost of ``observe``'s array operations on one row (the AEC env's fast path).
        ``tests/test_scalar.py`` checks that the two agree."""
        e, P, S = self.e, self.e.P, self.starts
        side = st.side.item(0)
        if e.two_sided:  # copies per kind -> copies per face of a side
            faces, face_of = (lambda counts, s: np.bincount(e.KF[s], counts, e.F)), e.KF[side]
        else:  # one side: faces are kinds
            faces, face_of = (lambda counts, s: counts), None
        o = np.zeros(self.size, np.float32)
        o[S["seat"] + seat] = 1
        o[S["hand"]:S["hand"] + e.F] = faces(st.hands[0, seat], side)
        top = st.discard.item(0, st.disc_n.item(0) - 1)
        o[S["top"] + (top if face_of is None else face_of[top])] = 1
        o[S["color"] + st.color.item(0)] = 1
        o[S["direction"]] = st.direction.item(0)
        phase, actor = st.phase.item(0), st.actor.item(0)
        o[S["phase"] + phase] = 1
        o[S["acting"] + (actor - seat) % P] = 1
        o[S["turn"] + (st.turn_seat.item(0) - seat) % P] = 1
        o[S["played_by"] + (st.origin.item(0) - seat) % P] = 1
        o[S["pending"]] = st.pending.item(0) / 10.0
        o[S["pending"] + 1] = st.pending_color.item(0)
        o[S["challengeable"]] = st.challengeable.item(0)
        o[S["prev_color"] + st.prev_color.item(0)] = 1
        mine = actor == seat
        if phase == DRAWN and mine:
            drawn = st.drawn.item(0)
            o[S["drawn"] + (drawn if face_of is None else face_of[drawn])] = 1
        o[S["declared"]] = st.declared.item(0) and mine

        def rel(a: np.ndarray) -> list:  # a seat-indexed row, from the observer's seat on
            x = a[0].tolist()
            return x[seat:] + x[:seat]

        o[S["hand_sizes"]:S["hand_sizes"] + P] = [x / 10.0 for x in rel(st.hand_n)]
        o[S["vulnerable"]:S["vulnerable"] + P] = rel(st.vulnerable)
        for p, c in enumerate(rel(st.drew_on)):
            if c >= 0:
                o[S["drew_on"] + p * NUM_COLOR_STATES + c] = 1
        o[S["discard"]:S["discard"] + e.F] = faces(st.pile_counts[0], side)
        dn = st.draw_n.item(0)
        o[S["draw_pile"]] = dn / e.N
        o[S["scores"]:S["scores"] + P] = [x / self.score_scale for x in rel(st.scores)]
        if e.two_sided:
            o[S["side"]] = side
        if self.backs:  # the other side of the opponents' cards and of the draw pile's top card
            others = st.hands[0][[(seat + i) % P for i in range(1, P)]]
            backs = others.astype(np.float32) @ self.kind_to_face[1 - side]  # (P - 1, F)
            o[S["opponent_backs"]:S["opponent_backs"] + (P - 1) * e.F] = backs.ravel()
            if dn:
                o[S["draw_top_back"] + e.KF[1 - side, st.draw.item(0, dn - 1)]] = 1
        return o

    def privileged_size(self, draws: int = PRIVILEGED_DRAWS) -> int:
        """Length of ``privileged``'s vectors: the other hands, then ``draws`` cards of the draw pile."""
        return (self.e.P - 1 + draws) * self.e.F

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
        phase = st.phase[R].astype(np.intp)
        o[ar, S["phase"].start + phase] = 1
        actor = st.actor[R].astype(np.intp)
        o[ar, S["acting"].start + (actor - seats) % P] = 1
        o[ar, S["turn"].start + (st.turn_seat[R].astype(np.intp) - seats) % P] = 1
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
        return o
