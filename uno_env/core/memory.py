"""The table's memory: what every seat has seen this round, kept per game for observation v3.

The rules make public every card played, every colour declared, every draw and pass, and show a
challenged hand to the challenger only (rules §1.10, §1.6).  ``Memory`` records, for the ``B`` games of
one ``State``, what a seat at a real table would remember of that, and nothing more:

* per seat, public: the cards it played this round (tallied by colour and by kind), the colours it
  declared, the colours it drew or passed on in its turn since it last played (evidence that it lacked
  them), and the cards it drew since then;
* per observer and seat, private: the cards the observer *knows* the seat holds, because a challenge
  showed them to it or because it handed them over itself (a Swap, a Seven-O exchange, a rotation);
  dropped as that seat plays cards of the same face, carried along when hands move on, kept through a
  reshuffle (a reshuffle moves only the discard pile), and forgotten at a flip (UNO Flip: the observer
  saw one side of those cards, and the other side now shows);
* per seat, public, its last moves in a form a belief model reads directly: the colour of the card it
  played last, the colour active before it, whether that play came after it drew or passed in its turn,
  whether it changed the colour, when (the round's play count); the colour it declared last, and when;
  the colours it played since it last drew (moves with its hand); for each colour, how many cards it
  has drawn since it last drew or passed on that colour in its turn (the lack fades as it draws, and
  survives its plays; moves with its hand);
* the last ``HISTORY`` plays of the round, in order (seat, face, declared colour);
* the last challenge of each game (challenger, offender, the hand shown, the verdict), for the
  challenger's ``infos`` and a human challenger's screen.

The memory is off unless something asks for it (``VecGame(observation="v3")``): the engine and the
one-game stepper call its hooks only when ``Engine.memory`` is set, so games, speed and the game
fingerprint are the same for everybody else.  Each hook is called at a choke point of the rules (a card
played, cards entering a hand, a draw or pass on a colour, an exchange, a rotation, a challenge, a
flip, a deal) with the rows it touched, and updates those rows only.  Hooks with a ``_one`` suffix are
the one-game stepper's (``core.scalar``), by item writes; ``tests/test_memory.py`` plays random games
through both and compares every array after every step.

Knowledge is kept by *face on the side in play* (for one-sided decks a face is a kind): what the
observer saw.  Known copies are a lower bound: a seat that plays a face the observer knows it held
may have played another copy, so the observer keeps ``max(known - 1, 0)``.
"""

from __future__ import annotations

import numpy as np

from .actions import CHALLENGE, PLAY
from .actions import CHOOSE as A_CHOOSE

HISTORY = 8  # plays remembered in order (observation v3's ``recent``)
SEAT_FIELDS = ("lacks", "drawn", "held", "last_col", "last_prev", "last_flags", "last_at", "decl", "decl_at")
LACK_CAP = 100  # cards drawn since a lack: counted up to here (int8)
TALLY_CAP = 30  # a tally the observation reads is capped here (so its bound is finite)
_SEAT_BITS, _FACE_BITS = 4, 8  # a history entry packs seat | face << 4 | (colour + 1) << 12


class Memory:
    """The public and private memory of the ``B`` games of ``state`` (see the module docstring).

    Arrays (``P`` seats, ``F`` faces, ``T`` tallies, ``K`` kinds):
        tally: ``(B, P, T) int16`` cards each seat played this round by colour (the deck's colours,
            then wild), by kind (number, then each action symbol of the deck), then colours declared.
        lacks, drawn, held, last_col, last_prev, last_flags, last_at, decl, decl_at: ``(B, P) int32`` each, the
            columns of ``seat_record`` (``SEAT_FIELDS``; one block, so that one game's record is read with
            one call, as the one-game observation does):
        lacks: bit ``c``: the seat drew or passed in its turn while colour state ``c`` was active, or an
            innocent challenge verdict showed it held no card of colour ``c``, since it last played (moves with
            its hand).
        drawn: cards the seat drew since it last played (moves with its hand).
        held: bit ``c``: the seat played a card of colour ``c`` since it last drew (moves with its hand).
        last_col: the colour slot (the deck's colours, then wild) of the card the seat played last this
            round, -1 none; ``last_prev``: the colour state active before it; ``last_flags``: bit 0: it
            drew or passed in its turn since its play before (the play followed a lack), bit 1: it changed
            the active colour; ``last_at``: ``plays_n`` just after it.
        decl: the colour slot the seat declared last this round, -1 none; ``decl_at``: ``plays_n`` when
            it declared.
        known: ``(B, P, P, F) int8`` ``known[b, o, s, f]``: copies of face ``f`` (side in play) that
            seat ``o`` knows seat ``s`` holds.
        reveals: ``(B,) int32`` hands shown or handed over this round (challenges, exchanges, rotations,
            cards taken back) since ``known`` was last cleared; 0: nobody knows a card (the one-game paths
            skip ``known`` then).
        lack_n: ``(B, P, C) int8`` cards the seat drew since it last drew or passed in its turn on colour
            ``c`` (the deck's colours), capped at ``LACK_CAP``; -1: never this round (moves with its hand).
        history: ``(B, HISTORY) int32`` the last plays, packed (``plays`` decodes), ring-indexed by
            ``plays_n``; ``plays_n``: ``(B,) int32`` plays this round.
        challenges: ``(B,) int32`` challenges made so far (a counter: a new one means a new reveal);
            ``challenger``, ``offender``: ``(B,) int8``; ``guilty``: ``(B,) bool``; ``shown``:
            ``(B, K) int8`` the offender's hand (kinds) as shown.
    """

    def __init__(self, engine, state):
        e = self.e = engine
        self.st = state
        B, P, F, K = state.batch_size, e.P, e.F, e.K
        self.P, self.F = P, F
        self.two_sided = e.two_sided
        self.colors = (0, 1, 2, 3, 4, 5, 6, 7) if e.two_sided else (0, 1, 2, 3)
        C = len(self.colors)
        symbols = sorted({int(s) for s in e.F_SYM if s >= 10})  # the deck's action symbols
        self.symbols = symbols
        self.T = T = (C + 1) + (1 + len(symbols)) + C  # colour+wild | number+actions | declared
        self.declared_at = (C + 1) + (1 + len(symbols))
        # the tally row each action adds to its player's (a play: its face's colour and kind, and the
        # colour a wild declares; a colour choice: the colour declared)
        A = e.actions
        rows = np.zeros((e.A, T), np.int16)
        sym_col = {s: C + 2 + i for i, s in enumerate(symbols)}
        for a in range(e.A):
            if A.kind[a] == PLAY:
                f = int(A.face[a])
                col = int(e.F_COLOR[f])
                rows[a, C if col < 0 else self.colors.index(col)] = 1
                s = int(e.F_SYM[f])
                rows[a, C + 1 if s < 10 else sym_col[s]] = 1
                if e.F_WILD[f] and A.color[a] >= 0:
                    rows[a, self.declared_at + self.colors.index(int(A.color[a]))] = 1
            elif A.kind[a] == A_CHOOSE:
                rows[a, self.declared_at + self.colors.index(int(A.color[a]))] = 1
        self.ACTION_TALLY = rows
        self.ACTION_TALLY_COLS = [np.flatnonzero(r).tolist() for r in rows]  # the columns a play adds 1 to
        # the history entry of each play action: its face and declared colour (-1: none)
        declared = np.where((A.kind == PLAY) & e.F_WILD[np.maximum(A.face, 0)], A.color, -1).astype(np.int32)
        self.ACTION_CODE = ((np.maximum(A.face, 0).astype(np.int32) << _SEAT_BITS)
                            | ((declared + 1) << (_SEAT_BITS + _FACE_BITS)))
        self.ACTION_CODE_L = self.ACTION_CODE.tolist()
        # per action, what the seat's last moves record: its card's colour slot (C: wild; -1 not a play),
        # the colour slot it declares (-1 none) and the colour bit its card shows it held
        colslot = np.full(e.A, -1, np.int8)
        decl = np.full(e.A, -1, np.int8)
        colbit = np.zeros(e.A, np.int16)
        for a in range(e.A):
            if A.kind[a] == PLAY:
                col = int(e.F_COLOR[int(A.face[a])])
                colslot[a] = C if col < 0 else self.colors.index(col)
                if col >= 0:
                    colbit[a] = 1 << col
            if A.kind[a] in (PLAY, A_CHOOSE) and rows[a, self.declared_at:].any():
                decl[a] = int(rows[a, self.declared_at:].argmax())
        self.ACTION_COLSLOT, self.ACTION_DECL, self.ACTION_COLBIT = colslot, decl, colbit
        self.ACTION_COLSLOT_L, self.ACTION_DECL_L, self.ACTION_COLBIT_L = colslot.tolist(), decl.tolist(), \
            colbit.tolist()
        self.NEW_COLOR_L = e.A_NEW_COLOR.tolist()
        self.A_FACE_L = e.A_FACE.tolist()
        assert F < 1 << _FACE_BITS and P <= 1 << _SEAT_BITS
        self.KF = e.KF  # (2, K) the face each kind shows on each side
        self.KF_L = e.KF.tolist()
        z = np.zeros
        self.tally = z((B, P, T), np.int16)
        self.seat_record = z((B, P, len(SEAT_FIELDS)), np.int32)
        self._seat_views()
        self.last_col[:] = self.last_prev[:] = self.decl[:] = -1
        self.known = z((B, P, P, F), np.int8)
        self.reveals = z(B, np.int32)
        self.C = C
        self.lack_n = np.full((B, P, C), -1, np.int8)
        self.history = z((B, HISTORY), np.int32)
        self.plays_n = z(B, np.int32)
        self.challenges = z(B, np.int32)
        self.challenger = np.full(B, -1, np.int8)
        self.offender = np.full(B, -1, np.int8)
        self.guilty = z(B, bool)
        self.shown = z((B, K), np.int8)
        self._rot = {d: (np.arange(P) - d) % P for d in (-1, 1)}  # seat p takes the hand of p - d
        self._next = {d: (np.arange(P) + d) % P for d in (-1, 1)}

    def _seat_views(self) -> None:
        """``lacks``, ``drawn`` ... as views of ``seat_record``: writes to them are writes to the record."""
        for i, name in enumerate(SEAT_FIELDS):
            setattr(self, name, self.seat_record[:, :, i])

    def __getstate__(self) -> dict:  # a copy (pickle, deepcopy) makes the views again, of its own record
        return {k: v for k, v in self.__dict__.items() if k not in SEAT_FIELDS}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._seat_views()

    ARRAYS = ("tally", "lacks", "drawn", "known", "reveals", "last_col", "last_prev", "last_flags", "last_at", "decl",
              "decl_at", "held", "lack_n", "history", "plays_n", "challenges", "challenger", "offender", "guilty",
              "shown")

    def nbytes_per_game(self) -> float:
        return sum(getattr(self, n).nbytes for n in self.ARRAYS) / self.st.batch_size

    def _faces(self, st, R, kinds_counts):
        """``(n, K)`` copies per kind in rows ``R`` -> ``(n, F)`` copies per face on the side in play."""
        if not self.two_sided:
            return kinds_counts
        n, F = kinds_counts.shape[0], self.F
        cell = np.arange(n)[:, None] * F + self.KF[st.side[R].astype(np.intp)]
        return np.bincount(cell.ravel(), kinds_counts.ravel().astype(np.int64), n * F).reshape(n, F)

    # ------------------------------------------------------------------ batched hooks (Engine)
    def reset(self, st, R) -> None:
        """A deal or a loaded position: a new round starts with nothing remembered."""
        if st is not self.st:
            return
        for name in ("tally", "lacks", "drawn", "known", "reveals", "last_flags", "last_at", "decl_at", "held",
                     "history", "plays_n"):
            getattr(self, name)[R] = 0
        for name in ("last_col", "last_prev", "decl", "lack_n"):
            getattr(self, name)[R] = -1

    def drew(self, st, R, seats, counts) -> None:
        """Seats took ``counts`` cards from the draw pile (a draw, a penalty, a catch)."""
        if st is not self.st:
            return
        self.drawn[R, seats] += np.asarray(counts, np.int16)
        self.held[R, seats] = 0
        ln = self.lack_n[R, seats]  # (n, C)
        more = np.broadcast_to(counts, R.shape)[:, None]
        self.lack_n[R, seats] = np.where(ln >= 0, np.minimum(ln + more, LACK_CAP), -1)

    def lacked(self, st, R, seats) -> None:
        """Seats drew, or passed, in their turn on the active colour (they could or would not match it)."""
        if st is not self.st:
            return
        self.lacks[R, seats] |= np.left_shift(1, st.color[R].astype(np.int16)).astype(np.int16)
        c = st.color[R].astype(np.intp)
        ok = c < self.C
        self.lack_n[R[ok], seats[ok], c[ok]] = 0

    def chain_drew(self, st, R, seats, counts) -> None:
        """A chain of forced draws: seat ``seats[i, j]`` drew one card on the active colour, ``j < counts[i]``
        (a seat may come round twice)."""
        if st is not self.st:
            return
        P = self.P
        on = np.arange(seats.shape[1])[None, :] < counts[:, None]
        cell = ((R * P)[:, None] + seats)[on]
        game, seat = np.broadcast_to(R[:, None], on.shape)[on], seats[on]
        np.add.at(self.drawn, (game, seat), 1)
        self.held[game, seat] = 0
        ln = self.lack_n.reshape(P * self.lack_n.shape[0], -1)  # (game * seat, C)
        seen = np.zeros(ln.shape[0], np.int16)
        np.add.at(seen, cell, 1)  # cards each (game, seat) drew in this chain
        hit = np.flatnonzero(seen)
        ln[hit] = np.where(ln[hit] >= 0, np.minimum(ln[hit] + seen[hit, None], LACK_CAP), -1)
        c = np.broadcast_to(st.color[R].astype(np.intp)[:, None], on.shape)[on]
        ok = c < self.C
        ln[cell[ok], c[ok]] = 0  # it drew on that colour: the lack is fresh
        bit = np.left_shift(1, st.color[R].astype(np.int16)).astype(np.int16)
        self.lacks[game, seat] |= np.broadcast_to(bit[:, None], on.shape)[on]

    def played(self, st, R, seats, kinds, actions) -> None:
        """Seats played ``kinds`` by ``actions`` (before the card's effect)."""
        if st is not self.st:
            return
        self.tally[R, seats] += self.ACTION_TALLY[actions]
        n = self.plays_n[R]
        prev = st.color[R]
        self.last_col[R, seats] = self.ACTION_COLSLOT[actions]
        self.last_prev[R, seats] = prev
        self.last_flags[R, seats] = ((self.lacks[R, seats] != 0).astype(np.int8)
                                     | ((self.e.A_NEW_COLOR[actions] != prev).astype(np.int8) << 1))
        self.last_at[R, seats] = n + 1
        d = self.ACTION_DECL[actions]
        has = d >= 0
        self.decl[R[has], seats[has]] = d[has]
        self.decl_at[R[has], seats[has]] = n[has] + 1
        self.held[R, seats] |= self.ACTION_COLBIT[actions]
        self.lacks[R, seats] = 0
        self.drawn[R, seats] = 0
        face = self.e.A_FACE[actions]
        k = self.known[R, :, seats, face]  # (n, P): every observer's known copies of that face
        self.known[R, :, seats, face] = np.maximum(k - 1, 0)
        self.history[R, n % HISTORY] = self.ACTION_CODE[actions] | seats
        self.plays_n[R] = n + 1

    def chose(self, st, R, seats, actions) -> None:
        """Seats declared a colour (a wild first card, a wild revealed by a flip)."""
        if st is not self.st:
            return
        self.tally[R, seats] += self.ACTION_TALLY[actions]
        d = self.ACTION_DECL[actions]
        has = d >= 0
        self.decl[R[has], seats[has]] = d[has]
        self.decl_at[R[has], seats[has]] = self.plays_n[R[has]]

    def exchanged(self, st, R, a, b) -> None:
        """After seats ``a`` and ``b`` swapped hands: each knows the hand it gave; what the others knew,
        and the evidence about each hand, moves with it."""
        if st is not self.st:
            return
        for arr in (self.lacks, self.drawn, self.held, self.lack_n):
            arr[R, a], arr[R, b] = arr[R, b], arr[R, a].copy()
        ka = self.known[R, :, a].copy()
        self.known[R, :, a] = self.known[R, :, b]
        self.known[R, :, b] = ka
        self.known[R, a, b] = self._faces(st, R, st.hands[R, b])
        self.known[R, b, a] = self._faces(st, R, st.hands[R, a])
        self.known[R, a, a] = 0
        self.known[R, b, b] = 0
        self.reveals[R] += 1

    def rotated(self, st, R, d) -> None:
        """After every hand passed one seat on in direction ``d``: each seat knows the hand it passed."""
        if st is not self.st:
            return
        P = self.P
        src = (np.arange(P)[None, :] - d[:, None]) % P  # seat p took the hand of p - d
        self.lacks[R] = self.lacks[R[:, None], src]
        self.drawn[R] = self.drawn[R[:, None], src]
        self.held[R] = self.held[R[:, None], src]
        self.lack_n[R] = self.lack_n[R[:, None], src]
        known = self.known[R]
        known = known[np.arange(R.size)[:, None, None], np.arange(P)[None, :, None], src[:, None, :]]
        nxt = (np.arange(P)[None, :] + d[:, None]) % P  # (n, P): where each seat's hand went
        cells = st.hands[R[:, None], nxt].reshape(R.size * P, -1)  # the hand each seat passed on
        faces = self._faces(st, np.repeat(R, P), cells).reshape(R.size, P, -1)
        ar = np.arange(R.size)[:, None]
        known[ar, np.arange(P)[None, :], nxt] = faces
        known[ar, np.arange(P)[None, :], np.arange(P)[None, :]] = 0
        self.known[R] = known
        self.reveals[R] += 1

    def challenged(self, st, R, challenger, offender, guilty) -> None:
        """A challenge: the offender's hand is shown to the challenger (rules §1.6), before any card moves."""
        if st is not self.st:
            return
        hand = st.hands[R, offender]
        self.known[R, challenger, offender] = self._faces(st, R, hand)
        self.challenges[R] += 1
        self.reveals[R] += 1
        self.challenger[R] = challenger
        self.offender[R] = offender
        self.guilty[R] = guilty
        self.shown[R] = hand
        # an innocent verdict is public and proves the offender held no card of the colour before its wild
        # draw card (rules §1.6): a lack, as if it had drawn on that colour
        i = np.flatnonzero(~np.asarray(guilty, bool))
        if i.size:
            Ri, oi, c = R[i], np.asarray(offender)[i], st.prev_color[R[i]].astype(np.intp)
            real = c < 8  # a colour, not "free" or "none"
            self.lacks[Ri[real], oi[real]] |= np.left_shift(1, c[real]).astype(np.int16)
            ok = c < self.C
            self.lack_n[Ri[ok], oi[ok], c[ok]] = 0

    def returned(self, st, R, seats, kinds) -> None:
        """A guilty card taken back into its player's hand (``retract_and_draw_2``): everyone saw it."""
        if st is not self.st:
            return
        face = self.KF[st.side[R].astype(np.intp), kinds] if self.two_sided else kinds
        self.known[R, :, seats, face] += 1
        self.known[R, seats, seats, face] = 0
        self.reveals[R] += 1

    def flipped(self, st, R) -> None:
        """UNO Flip: every card turns over; the faces the observers knew no longer show."""
        if st is not self.st:
            return
        self.known[R] = 0
        self.reveals[R] = 0

    # ------------------------------------------------------------------ one-game hooks (ScalarStepper)
    def drew_one(self, st, seat: int, k: int) -> None:
        if st is self.st:
            self.drawn[0, seat] += k
            self.held[0, seat] = 0
            lack_n = self.lack_n[0, seat]
            for c, n in enumerate(lack_n.tolist()):  # a few colours: item writes beat array calls
                if n >= 0:
                    lack_n[c] = min(n + k, LACK_CAP)

    def lacked_one(self, st, seat: int) -> None:
        if st is self.st:
            c = st.color.item(0)
            self.lacks[0, seat] |= 1 << c
            if c < self.C:
                self.lack_n[0, seat, c] = 0

    def played_one(self, st, seat: int, a: int) -> None:
        if st is not self.st:
            return
        tally = self.tally[0, seat]
        for t in self.ACTION_TALLY_COLS[a]:
            tally[t] += 1
        n, prev = self.plays_n.item(0), st.color.item(0)
        record = self.seat_record[0, seat]  # SEAT_FIELDS, read and written in one call each
        lacks, _, held, _, _, _, _, decl, decl_at = record.tolist()
        d = self.ACTION_DECL_L[a]
        record[:] = (0, 0, held | self.ACTION_COLBIT_L[a], self.ACTION_COLSLOT_L[a], prev,
                     (lacks != 0) | ((self.NEW_COLOR_L[a] != prev) << 1), n + 1,
                     decl if d < 0 else d, decl_at if d < 0 else n + 1)
        if self.reveals.item(0):  # somebody may know this card
            face = self.A_FACE_L[a]
            col = self.known[0, :, seat, face]
            if np.count_nonzero(col):  # a C call: a fraction of ``col.any()`` on a few seats
                self.known[0, :, seat, face] = np.maximum(col - 1, 0)
        self.history[0, n % HISTORY] = self.ACTION_CODE_L[a] | seat
        self.plays_n[0] = n + 1

    def exchanged_one(self, st, a: int, b: int) -> None:
        if st is self.st:
            R = np.zeros(1, np.intp)
            self.exchanged(st, R, np.array([a]), np.array([b]))

    def rotated_one(self, st, d: int) -> None:
        if st is self.st:
            self.rotated(st, np.zeros(1, np.intp), np.array([d]))

    def flipped_one(self, st) -> None:
        if st is self.st:
            self.known[0] = 0
            self.reveals[0] = 0

    # ------------------------------------------------------------------ readers
    def plays(self, row: int) -> list[tuple[int, int, int]]:
        """The remembered plays of game ``row``, oldest first: (seat, face, declared colour or -1)."""
        n = int(self.plays_n[row])
        out = []
        for i in range(max(n - HISTORY, 0), n):
            code = int(self.history[row, i % HISTORY])
            out.append((code & 0xF, (code >> _SEAT_BITS) & 0xFF, (code >> (_SEAT_BITS + _FACE_BITS)) - 1))
        return out

    def last_challenge(self, row: int = 0) -> dict | None:
        """The last challenge of game ``row``, as its challenger saw it (rules §1.6: the hand is shown to the
        challenger only; give it to nobody else): ``{"challenger", "offender", "hand", "guilty"}``, the
        hand as card names in the notation (docs/notation.md), or None before any challenge."""
        if not self.challenges[row]:
            return None
        deck = self.e.deck
        kinds = np.repeat(np.arange(self.e.K), np.maximum(self.shown[row], 0))
        return {"challenger": int(self.challenger[row]), "offender": int(self.offender[row]),
                "hand": [deck.kind_name(int(k)) for k in kinds], "guilty": bool(self.guilty[row])}


def enable(engine, state) -> Memory:
    """Attach a ``Memory`` of ``state`` to ``engine`` (its hooks start recording at the next deal or
    loaded position; the current round starts with nothing remembered)."""
    mem = engine.memory
    if mem is None or mem.st is not state:
        mem = engine.memory = Memory(engine, state)
    return mem



def challenged_hand(engine, st, row: int, action: int) -> dict | None:
    """What ``action`` would show its seat in game ``row`` if it is a challenge (rules §1.6: the offender's
    hand, to the challenger only), read before the challenge is applied; None for any other action.
    ``{"challenger", "offender", "hand" (card names, docs/notation.md), "guilty"}``.  For the AEC env's
    ``infos`` and a human challenger's screen; needs no memory (any observation layout)."""
    if engine.A_KIND[action] != CHALLENGE:
        return None
    off = int(st.origin[row])
    kinds = np.repeat(np.arange(engine.K), np.maximum(st.hands[row, off], 0))
    return {"challenger": int(st.actor[row]), "offender": off, "hand": [engine.deck.kind_name(int(k)) for k in kinds],
            "guilty": bool(st.guilty[row])}


__all__ = ["HISTORY", "Memory", "SEAT_FIELDS", "challenged_hand", "enable"]
