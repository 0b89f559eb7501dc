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

The memory is part of the game state, like the hands and the piles: ``State.memory``, a ``Memory`` of
arrays with the same leading ``B`` axis, so that copying a state (``State.take``, ``copy``, pickle),
writing a position (``snapshot``: the memory keys of docs/notation.md) and stepping any number of states
on one ``Engine`` all carry what the table saw.  It is ``None`` unless something asks for it
(``VecGame(observation="v3")``, ``Engine.new_state(memory=True)``): a v2 state pays no bytes and no copy
for it, and the engine and the one-game stepper call the hooks below only where ``st.memory`` is set,
so games, speed and the game fingerprint are the same for everybody else.  Each hook is a function of
(engine, state, rows ...) called at a choke point of the rules (a card played, cards entering a hand, a
draw or pass on a colour, an exchange, a rotation, a challenge, a flip, a deal) and updates those rows
of ``st.memory`` only; the configuration's look-up tables (``MemoryTables``) are built once per engine.
Hooks with a ``_one`` suffix are the one-game stepper's (``core.scalar``), by item writes;
``tests/test_memory.py`` plays random games through both and compares every array after every step.

Knowledge is kept by *face on the side in play* (for one-sided decks a face is a kind): what the
observer saw.  Known copies are a lower bound: a seat that plays a face the observer knows it held
may have played another copy, so the observer keeps ``max(known - 1, 0)``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from .actions import CHOOSE as A_CHOOSE
from .actions import PLAY
from .tables import RuleTables

HISTORY = 8  # plays remembered in order (observation v3's ``recent``)
SEAT_FIELDS = ("lacks", "drawn", "held", "last_col", "last_prev", "last_flags", "last_at", "decl", "decl_at")
LACK_CAP = 100  # cards drawn since a lack: counted up to here (int8)
TALLY_CAP = 30  # a tally the observation reads is capped here (so its bound is finite)
_SEAT_BITS, _FACE_BITS = 4, 8  # a history entry packs seat | face << 4 | (colour + 1) << 12


class MemoryTables:
    """The look-up tables of the memory hooks for one configuration (``Engine.memory_tables``; built once).

    ``T`` tallies per seat: the deck's ``C`` colours then wild, number then each action symbol of the deck
    (``symbols``), then the ``C`` colours declared (from ``declared_at``).  A colour slot below ``C`` is the
    global colour id (``C`` is 4, or 8 for the two sides of UNO Flip)."""

    def __init__(self, e: RuleTables):
        self.P, self.F, self.K = P, F, _ = e.P, e.F, e.K
        self.deck = e.deck
        self.two_sided = e.two_sided
        self.colors = (0, 1, 2, 3, 4, 5, 6, 7) if e.two_sided else (0, 1, 2, 3)
        self.C = C = len(self.colors)
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
        self.A_NEW_COLOR = e.A_NEW_COLOR
        self.A_FACE = e.A_FACE
        self.NEW_COLOR_L = e.A_NEW_COLOR.tolist()
        self.A_FACE_L = e.A_FACE.tolist()
        assert F < 1 << _FACE_BITS and P <= 1 << _SEAT_BITS
        self.KF = e.KF  # (2, K) the face each kind shows on each side

    def faces(self, st, R, kinds_counts):
        """``(n, K)`` copies per kind in rows ``R`` -> ``(n, F)`` copies per face on the side in play."""
        if not self.two_sided:
            return kinds_counts
        n, F = kinds_counts.shape[0], self.F
        cell = np.arange(n)[:, None] * F + self.KF[st.side[R].astype(np.intp)]
        return np.bincount(cell.ravel(), kinds_counts.ravel().astype(np.int64), n * F).reshape(n, F)


def tables(e: RuleTables) -> MemoryTables:
    """The engine's ``MemoryTables``, built the first time a hook or a reader needs them."""
    t = e.memory_tables
    if t is None:
        t = e.memory_tables = MemoryTables(e)
    return t


@dataclass(eq=False, repr=False)
class Memory:
    """What the table has seen in the ``B`` games of a state (``State.memory``; the module docstring says what).

    Arrays (``P`` seats, ``F`` faces, ``T`` tallies and ``C`` colours: ``MemoryTables``, ``K`` kinds):
        tally: ``(B, P, T) int16`` cards each seat played this round by colour (the deck's colours,
            then wild), by kind (number, then each action symbol of the deck), then colours declared.
        seat_record: ``(B, P, 9) int32`` the per-seat columns ``SEAT_FIELDS``, kept in one block so that one
            game's record is read with one call (as the one-game observation does), and read as views
            (``lacks``, ``drawn`` ...: writes to them are writes to the record):
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
            skip ``known`` then; a loaded position counts 1 if any card is known).
        lack_n: ``(B, P, C) int8`` cards the seat drew since it last drew or passed in its turn on colour
            ``c`` (the deck's colours), capped at ``LACK_CAP``; -1: never this round (moves with its hand).
        history: ``(B, HISTORY) int32`` the last plays, packed (``plays`` decodes), ring-indexed by
            ``plays_n``; ``plays_n``: ``(B,) int32`` plays this round.
        challenges: ``(B,) int32`` challenges made so far (a counter: a new one means a new reveal);
            ``challenger``, ``offender``: ``(B,) int8``; ``guilty``: ``(B,) bool``; ``shown``:
            ``(B, K) int8`` the offender's hand (kinds) as shown.

    It behaves as the state's other arrays do: ``take``/``put``/``copy`` by rows, ``==`` compares every array.
    """

    tally: np.ndarray
    seat_record: np.ndarray
    known: np.ndarray
    reveals: np.ndarray
    lack_n: np.ndarray
    history: np.ndarray
    plays_n: np.ndarray
    challenges: np.ndarray
    challenger: np.ndarray
    offender: np.ndarray
    guilty: np.ndarray
    shown: np.ndarray

    ARRAYS = ("tally", "lacks", "drawn", "known", "reveals", "last_col", "last_prev", "last_flags", "last_at", "decl",
              "decl_at", "held", "lack_n", "history", "plays_n", "challenges", "challenger", "offender", "guilty",
              "shown")

    @classmethod
    def zeros(cls, batch: int, t: MemoryTables) -> Memory:
        """An empty memory of ``batch`` games (nothing seen yet)."""
        B, P, z = batch, t.P, np.zeros
        mem = cls(tally=z((B, P, t.T), np.int16), seat_record=z((B, P, len(SEAT_FIELDS)), np.int32),
                  known=z((B, P, P, t.F), np.int8), reveals=z(B, np.int32), lack_n=np.full((B, P, t.C), -1, np.int8),
                  history=z((B, HISTORY), np.int32), plays_n=z(B, np.int32), challenges=z(B, np.int32),
                  challenger=np.full(B, -1, np.int8), offender=np.full(B, -1, np.int8), guilty=z(B, bool),
                  shown=z((B, t.K), np.int8))
        mem.last_col[:] = mem.last_prev[:] = mem.decl[:] = -1
        return mem

    # ``lacks``, ``drawn`` ... (``SEAT_FIELDS``): views of ``seat_record``, so writes to them are writes to it

    @property
    def lacks(self) -> np.ndarray:
        return self.seat_record[:, :, 0]

    @property
    def drawn(self) -> np.ndarray:
        return self.seat_record[:, :, 1]

    @property
    def held(self) -> np.ndarray:
        return self.seat_record[:, :, 2]

    @property
    def last_col(self) -> np.ndarray:
        return self.seat_record[:, :, 3]

    @property
    def last_prev(self) -> np.ndarray:
        return self.seat_record[:, :, 4]

    @property
    def last_flags(self) -> np.ndarray:
        return self.seat_record[:, :, 5]

    @property
    def last_at(self) -> np.ndarray:
        return self.seat_record[:, :, 6]

    @property
    def decl(self) -> np.ndarray:
        return self.seat_record[:, :, 7]

    @property
    def decl_at(self) -> np.ndarray:
        return self.seat_record[:, :, 8]

    def __getstate__(self) -> dict:  # a copy (pickle, deepcopy) makes the views again, of its own record
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def __eq__(self, other) -> bool:
        return isinstance(other, Memory) and all(np.array_equal(getattr(self, f.name), getattr(other, f.name))
                                                 for f in fields(self))

    __hash__ = None  # type: ignore[assignment]  # mutable arrays

    def take(self, rows) -> Memory:
        return Memory(**{f.name: getattr(self, f.name)[rows].copy() for f in fields(self)})

    def put(self, rows, other: Memory) -> None:
        for f in fields(self):
            getattr(self, f.name)[rows] = getattr(other, f.name)

    def copy(self) -> Memory:
        return Memory(**{f.name: getattr(self, f.name).copy() for f in fields(self)})

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, f.name).nbytes for f in fields(self))


# ------------------------------------------------------------------ batched hooks (Engine)
def new_game(e: RuleTables, st, R) -> None:
    """A new game: the last challenge seen (kept across the rounds of a game) is forgotten too."""
    mem = st.memory
    mem.challenges[R] = 0
    mem.challenger[R] = mem.offender[R] = -1
    mem.guilty[R] = False
    mem.shown[R] = 0


_CLEAR_RECORD = np.array([-1 if f in ("last_col", "last_prev", "decl") else 0 for f in SEAT_FIELDS], np.int32)


def reset(e: RuleTables, st, R) -> None:
    """A deal or a loaded position: a new round starts with nothing remembered."""
    mem = st.memory
    for name in ("tally", "known", "reveals", "history", "plays_n"):
        getattr(mem, name)[R] = 0
    mem.seat_record[R] = _CLEAR_RECORD  # lacks, drawn, held, last_flags, last_at, decl_at 0; last_col, last_prev,
    # decl -1
    mem.lack_n[R] = -1


def drew(e: RuleTables, st, R, seats, counts) -> None:
    """Seats took ``counts`` cards from the draw pile (a draw, a penalty, a catch); a seat that found the
    piles empty took none, and what it played since it last drew still holds."""
    mem = st.memory
    if R.size == 1:  # one game (the one-game path's rarer moves come here): ``drew_one``'s item writes
        drew_one(e, st, np.asarray(seats).item(0), int(np.asarray(counts).item(0)), R.item(0))
        return
    counts = np.broadcast_to(np.asarray(counts, np.int16), R.shape)
    mem.drawn[R, seats] += counts
    got = counts > 0
    mem.held[R[got], seats[got]] = 0
    ln = mem.lack_n[R, seats]  # (n, C)
    more = np.broadcast_to(counts, R.shape)[:, None]
    mem.lack_n[R, seats] = np.where(ln >= 0, np.minimum(ln + more, LACK_CAP), -1)


def lacked(e: RuleTables, st, R, seats) -> None:
    """Seats drew, or passed, in their turn on the active colour (they could or would not match it)."""
    mem = st.memory
    mem.lacks[R, seats] |= np.left_shift(1, st.color[R].astype(np.int16)).astype(np.int16)
    c = st.color[R].astype(np.intp)
    ok = c < tables(e).C
    mem.lack_n[R[ok], seats[ok], c[ok]] = 0


def chain_drew(e: RuleTables, st, R, seats, counts) -> None:
    """A chain of forced draws: seat ``seats[i, j]`` drew one card on the active colour, ``j < counts[i]``
    (a seat may come round twice)."""
    mem, t = st.memory, tables(e)
    P = t.P
    on = np.arange(seats.shape[1])[None, :] < counts[:, None]
    cell = ((R * P)[:, None] + seats)[on]
    game, seat = np.broadcast_to(R[:, None], on.shape)[on], seats[on]
    np.add.at(mem.drawn, (game, seat), 1)
    mem.held[game, seat] = 0
    ln = mem.lack_n.reshape(P * mem.lack_n.shape[0], -1)  # (game * seat, C)
    seen = np.zeros(ln.shape[0], np.int16)
    np.add.at(seen, cell, 1)  # cards each (game, seat) drew in this chain
    hit = np.flatnonzero(seen)
    ln[hit] = np.where(ln[hit] >= 0, np.minimum(ln[hit] + seen[hit, None], LACK_CAP), -1)
    c = np.broadcast_to(st.color[R].astype(np.intp)[:, None], on.shape)[on]
    ok = c < t.C
    ln[cell[ok], c[ok]] = 0  # it drew on that colour: the lack is fresh
    bit = np.left_shift(1, st.color[R].astype(np.int16)).astype(np.int16)
    mem.lacks[game, seat] |= np.broadcast_to(bit[:, None], on.shape)[on]


def played(e: RuleTables, st, R, seats, kinds, actions) -> None:
    """Seats played ``kinds`` by ``actions`` (before the card's effect)."""
    if R.size == 1:  # one game (the one-game path's rarer plays come here): ``played_one``'s item writes
        played_one(e, st, np.asarray(seats).item(0), np.asarray(actions).item(0), R.item(0))
        return
    mem, t = st.memory, tables(e)
    mem.tally[R, seats] += t.ACTION_TALLY[actions]
    n = mem.plays_n[R]
    prev = st.color[R]
    mem.last_col[R, seats] = t.ACTION_COLSLOT[actions]
    mem.last_prev[R, seats] = prev
    mem.last_flags[R, seats] = ((mem.lacks[R, seats] != 0).astype(np.int8)
                                | ((t.A_NEW_COLOR[actions] != prev).astype(np.int8) << 1))
    mem.last_at[R, seats] = n + 1
    d = t.ACTION_DECL[actions]
    has = d >= 0
    mem.decl[R[has], seats[has]] = d[has]
    mem.decl_at[R[has], seats[has]] = n[has] + 1
    mem.held[R, seats] |= t.ACTION_COLBIT[actions]
    mem.lacks[R, seats] = 0
    mem.drawn[R, seats] = 0
    face = t.A_FACE[actions]
    k = mem.known[R, :, seats, face]  # (n, P): every observer's known copies of that face
    mem.known[R, :, seats, face] = np.maximum(k - 1, 0)
    mem.history[R, n % HISTORY] = t.ACTION_CODE[actions] | seats
    mem.plays_n[R] = n + 1


def chose(e: RuleTables, st, R, seats, actions) -> None:
    """Seats declared a colour (a wild first card, a wild revealed by a flip)."""
    mem, t = st.memory, tables(e)
    mem.tally[R, seats] += t.ACTION_TALLY[actions]
    d = t.ACTION_DECL[actions]
    has = d >= 0
    mem.decl[R[has], seats[has]] = d[has]
    mem.decl_at[R[has], seats[has]] = mem.plays_n[R[has]]


def exchanged(e: RuleTables, st, R, a, b) -> None:
    """After seats ``a`` and ``b`` swapped hands: each knows the hand it gave; what the others knew,
    and the evidence about each hand, moves with it."""
    mem, t = st.memory, tables(e)
    for arr in (mem.lacks, mem.drawn, mem.held, mem.lack_n):
        arr[R, a], arr[R, b] = arr[R, b], arr[R, a].copy()
    ka = mem.known[R, :, a].copy()
    mem.known[R, :, a] = mem.known[R, :, b]
    mem.known[R, :, b] = ka
    mem.known[R, a, b] = t.faces(st, R, st.hands[R, b])
    mem.known[R, b, a] = t.faces(st, R, st.hands[R, a])
    mem.known[R, a, a] = 0
    mem.known[R, b, b] = 0
    mem.reveals[R] += 1


def rotated(e: RuleTables, st, R, d) -> None:
    """After every hand passed one seat on in direction ``d``: each seat knows the hand it passed."""
    mem, t = st.memory, tables(e)
    P = t.P
    src = (np.arange(P)[None, :] - d[:, None]) % P  # seat p took the hand of p - d
    mem.lacks[R] = mem.lacks[R[:, None], src]
    mem.drawn[R] = mem.drawn[R[:, None], src]
    mem.held[R] = mem.held[R[:, None], src]
    mem.lack_n[R] = mem.lack_n[R[:, None], src]
    known = mem.known[R]
    known = known[np.arange(R.size)[:, None, None], np.arange(P)[None, :, None], src[:, None, :]]
    nxt = (np.arange(P)[None, :] + d[:, None]) % P  # (n, P): where each seat's hand went
    cells = st.hands[R[:, None], nxt].reshape(R.size * P, -1)  # the hand each seat passed on
    faces = t.faces(st, np.repeat(R, P), cells).reshape(R.size, P, -1)
    ar = np.arange(R.size)[:, None]
    known[ar, np.arange(P)[None, :], nxt] = faces
    known[ar, np.arange(P)[None, :], np.arange(P)[None, :]] = 0
    mem.known[R] = known
    mem.reveals[R] += 1


def challenged(e: RuleTables, st, R, challenger, offender, guilty) -> None:
    """A challenge: the offender's hand is shown to the challenger (rules §1.6), before any card moves."""
    mem, t = st.memory, tables(e)
    hand = st.hands[R, offender]
    mem.known[R, challenger, offender] = t.faces(st, R, hand)
    mem.challenges[R] += 1
    mem.reveals[R] += 1
    mem.challenger[R] = challenger
    mem.offender[R] = offender
    mem.guilty[R] = guilty
    mem.shown[R] = hand
    # an innocent verdict is public and proves the offender held no card of the colour before its wild
    # draw card (rules §1.6): a lack, as if it had drawn on that colour
    i = np.flatnonzero(~np.asarray(guilty, bool))
    if i.size:
        Ri, oi, c = R[i], np.asarray(offender)[i], st.prev_color[R[i]].astype(np.intp)
        real = c < 8  # a colour, not "free" or "none"
        mem.lacks[Ri[real], oi[real]] |= np.left_shift(1, c[real]).astype(np.int16)
        ok = c < t.C
        mem.lack_n[Ri[ok], oi[ok], c[ok]] = 0


def returned(e: RuleTables, st, R, seats, kinds) -> None:
    """A guilty card taken back into its player's hand (``retract_and_draw_2``): everyone saw it."""
    mem, t = st.memory, tables(e)
    face = t.KF[st.side[R].astype(np.intp), kinds] if t.two_sided else kinds
    mem.known[R, :, seats, face] += 1
    mem.known[R, seats, seats, face] = 0
    mem.reveals[R] += 1


def flipped(e: RuleTables, st, R) -> None:
    """UNO Flip: every card turns over; the faces the observers knew no longer show."""
    mem = st.memory
    mem.known[R] = 0
    mem.reveals[R] = 0


# ------------------------------------------------------------------ one-game hooks (ScalarStepper)
def drew_one(e: RuleTables, st, seat: int, k: int, row: int = 0) -> None:
    """``drew`` of one seat in game ``row`` (0: the one-game path's), by item reads and writes."""
    if not k:  # nothing drawn: nothing changes (the counts are capped, the lacks stay)
        return
    mem = st.memory
    record = mem.seat_record
    record[row, seat, 1] = record.item(row, seat, 1) + k  # drawn (SEAT_FIELDS)
    record[row, seat, 2] = 0  # held
    lack_n = mem.lack_n[row, seat]
    for c, n in enumerate(lack_n.tolist()):  # a few colours: item writes beat array calls
        if n >= 0:
            lack_n[c] = n + k if n + k < LACK_CAP else LACK_CAP


def lacked_one(e: RuleTables, st, seat: int) -> None:
    mem = st.memory
    c = st.color.item(0)
    mem.lacks[0, seat] |= 1 << c
    if c < tables(e).C:
        mem.lack_n[0, seat, c] = 0


def played_one(e: RuleTables, st, seat: int, a: int, row: int = 0) -> None:
    """``played`` of one seat in game ``row`` (0: the one-game path's), by item reads and writes."""
    mem, t = st.memory, e.memory_tables or tables(e)
    tally = mem.tally[row, seat]
    for c in t.ACTION_TALLY_COLS[a]:
        tally[c] += 1
    n, prev = mem.plays_n.item(row), st.color.item(row)
    record = mem.seat_record[row, seat]  # SEAT_FIELDS: read in one call, written by item (fewer than a sequence)
    lacks, drawn, held, _, _, _, _, _, _ = record.tolist()
    if lacks:
        record[0] = 0
    if drawn:
        record[1] = 0
    record[2] = held | t.ACTION_COLBIT_L[a]
    record[3] = t.ACTION_COLSLOT_L[a]
    record[4] = prev
    record[5] = (lacks != 0) | ((t.NEW_COLOR_L[a] != prev) << 1)
    record[6] = n + 1
    d = t.ACTION_DECL_L[a]
    if d >= 0:
        record[7] = d
        record[8] = n + 1
    if mem.reveals.item(row):  # somebody may know this card (nobody does while ``reveals`` is 0)
        face = t.A_FACE_L[a]
        col = mem.known[row, :, seat, face]
        if any(col.tolist()):  # a few seats: a list beats np.count_nonzero's dispatch
            mem.known[row, :, seat, face] = np.maximum(col - 1, 0)
    mem.history[row, n % HISTORY] = t.ACTION_CODE_L[a] | seat
    mem.plays_n[row] = n + 1


def _faces_one(t: MemoryTables, st, hands: np.ndarray) -> np.ndarray:
    """``MemoryTables.faces`` of game 0: ``(n, K)`` copies per kind -> ``(n, F)`` per face on the side in play."""
    if not t.two_sided:
        return hands
    n, F = hands.shape[0], t.F
    cell = np.arange(n)[:, None] * F + t.KF[st.side.item(0)]
    return np.bincount(cell.ravel(), hands.ravel().astype(np.int64), n * F).reshape(n, F)


def exchanged_one(e: RuleTables, st, a: int, b: int) -> None:
    """``exchanged`` of game 0, with a few whole-row copies."""
    mem, t = st.memory, tables(e)
    ab, ba = [a, b], [b, a]
    record = mem.seat_record[0]
    record[ab, :3] = record[ba, :3]  # lacks, drawn, held (SEAT_FIELDS) move with the hands
    lack_n = mem.lack_n[0]
    lack_n[ab] = lack_n[ba]
    known = mem.known[0]  # (observer, seat, F)
    known[:, ab] = known[:, ba]
    known[[a, b], [b, a]] = _faces_one(t, st, st.hands[0, ba])  # each knows the hand it gave
    known[ab, ab] = 0
    mem.reveals[0] = mem.reveals.item(0) + 1


def rotated_one(e: RuleTables, st, d: int) -> None:
    """``rotated`` of game 0, with a few whole-row copies."""
    mem, t = st.memory, tables(e)
    P = t.P
    seats = np.arange(P)
    src = (seats - d) % P  # seat p took the hand of p - d
    record = mem.seat_record[0]
    record[:, :3] = record[src, :3]  # lacks, drawn, held (SEAT_FIELDS)
    lack_n = mem.lack_n[0]
    lack_n[:] = lack_n[src]
    nxt = (seats + d) % P  # where each seat's hand went
    known = mem.known[0][:, src]  # (observer, seat, F), what the others knew moving with the hands
    known[seats, nxt] = _faces_one(t, st, st.hands[0, nxt])  # each seat knows the hand it passed on
    known[seats, seats] = 0
    mem.known[0] = known
    mem.reveals[0] = mem.reveals.item(0) + 1


def flipped_one(e: RuleTables, st) -> None:
    mem = st.memory
    mem.known[0] = 0
    mem.reveals[0] = 0


# ------------------------------------------------------------------ the history's code
def remembered_plays(mem: Memory, row: int) -> list[tuple[int, int, int]]:
    """The remembered plays of game ``row``, oldest first: (seat, face, declared colour or -1)."""
    n = int(mem.plays_n[row])
    out = []
    for i in range(max(n - HISTORY, 0), n):
        code = int(mem.history[row, i % HISTORY])
        out.append((code & 0xF, (code >> _SEAT_BITS) & 0xFF, (code >> (_SEAT_BITS + _FACE_BITS)) - 1))
    return out


def play_code(seat: int, face: int, declared: int) -> int:
    """A history entry: ``remembered_plays``' inverse."""
    return seat | face << _SEAT_BITS | (declared + 1) << (_SEAT_BITS + _FACE_BITS)


__all__ = ["HISTORY", "Memory", "MemoryTables", "SEAT_FIELDS", "play_code", "remembered_plays", "tables"]
