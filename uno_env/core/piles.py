"""The piles: drawing cards into hands (rules §1.4, E1, E4), reshuffling the discard pile into a new draw
pile (rules §1.4, E26), drawing until a colour (Wild Draw Colour, E5, E6) and the draw queue of
``Engine.apply``.

Every card that enters a hand goes through ``add_to_hands`` (the deal sets whole hands, ``deal``);
the verbs, from the rules' view down:

* ``draw_cards``: seats draw ``n`` cards or until a colour, then ``extra``, then what follows in those
  games; inside ``Engine.apply`` the draw waits in the apply's queue and ``draw_queued`` makes every
  handler's draws in one pass;
* ``draw_from_pile``: seats draw a number of cards, reshuffling when the pile runs out;
* ``draw_top``: seats take the top cards of the pile (there are enough);
* ``add_to_hands``: the cards enter the hands.

``draw_top_one`` is the scalar twin of ``draw_top`` (``ScalarStepper``).
"""

from __future__ import annotations

import numpy as np

from . import chance, memory
from .rows import flat
from .state import State
from .tables import RuleTables
from .twins import ScalarTables


def draw_cards(e: RuleTables, st: State, R, seats, n, until, extra, then=None, queue: list | None = None) -> None:
    """Seats draw ``n`` cards, or (``until``) until a card of the active colour, then ``extra``;
    then ``then(got, last)``: what follows the draw in those games (``draw_from_pile``'s result for
    the ``n`` cards).

    Inside ``Engine.apply`` the draw waits in ``queue`` (the apply's own list), and the handlers' draws
    are made in one pass after them (``draw_queued``): each game takes one action, so their rows are
    distinct games, and each game still draws, and runs ``then``, in the order of its own moves."""
    if queue is not None:
        queue.append((R, seats, n, until, np.full(len(R), extra, np.int64), then))
        return
    got, last = _draw_now(e, st, R, seats, n, until, extra)
    if then is not None:
        then(got, last)


def draw_queued(e: RuleTables, st: State, queue: list) -> None:
    """The draws ``Engine.apply``'s handlers queued: one pass for all of them (their games are
    distinct), then what follows each, with its rows' part of the result."""
    parts = list(zip(*queue))  # R, seats, n, until, extra, then
    R, seats, n, until, extra = (p[0] if len(queue) == 1 else np.concatenate(p) for p in parts[:5])
    got, last = _draw_now(e, st, R, seats, n, until, extra)
    start = 0
    for rows, then in zip(parts[0], parts[5]):
        stop = start + len(rows)
        if then is not None:
            then(got[start:stop], last[start:stop])
        start = stop


def _draw_now(e: RuleTables, st: State, R, seats, n, until, extra) -> tuple[np.ndarray, np.ndarray]:
    """``draw_cards``'s draw (``extra``: a number, or one per row); returns ``draw_from_pile``'s result
    for the rows that draw a number of cards (0 and -1 for the others)."""
    fixed = np.where(until, 0, n + extra)
    if np.count_nonzero(fixed):
        got, last = draw_from_pile(e, st, R, seats, fixed)
    else:
        got, last = np.zeros(len(R), np.int64), np.full(len(R), -1, np.intp)
    u = flat(until)
    if u.size:
        draw_until_color(e, st, R[u], seats[u])
        ex = np.broadcast_to(extra, R.shape)[u]
        x = flat(ex > 0)
        if x.size:
            draw_from_pile(e, st, R[u[x]], seats[u[x]], ex[x])
    return got, last


def draw_from_pile(e: RuleTables, st: State, R, seats, counts) -> tuple[np.ndarray, np.ndarray]:
    """Seats draw ``counts`` cards, reshuffling when the pile runs out (rules §1.4, E1, E4: what is
    missing is forgiven).  Returns the cards drawn per row and the kind of the last one (-1: none)."""
    counts = np.asarray(counts, np.int64)
    seats = np.asarray(seats, np.intp)
    first = np.minimum(counts, st.draw_n[R])
    got = first.copy()
    last = draw_top(e, st, R, seats, first)
    short = flat(counts > first)
    if short.size:
        Rs = R[short]
        reshuffle(e, st, Rs)
        second = np.minimum(counts[short] - first[short], st.draw_n[Rs])
        l2 = draw_top(e, st, Rs, seats[short], second)
        got[short] += second
        last[short] = np.where(second > 0, l2, last[short])
    if np.count_nonzero(got) == got.size:
        st.vulnerable[R, seats] = False  # E28: a seat whose hand grew is no longer at one card
    else:
        grew = got > 0
        st.vulnerable[R[grew], seats[grew]] = False
    return got, last


def draw_top(e: RuleTables, st: State, R, seats, k) -> np.ndarray:
    """Seat ``seats[i]`` takes the top ``k[i]`` cards of row ``R[i]``'s draw pile (it holds that many);
    returns the kind of the last one (-1: none)."""
    if st.memory is not None:  # memory hook: cards enter hands
        memory.drew(e, st, R, seats, k)
    last = np.full(len(R), -1, np.intp)
    m = int(k.max()) if k.size else 0
    if m == 0:
        return last
    if m == 1:
        i = flat(k == 1) if k.min() == 0 else slice(None)
        Ri = R[i]
        card = st.draw.reshape(-1)[Ri * e.N + st.draw_n[Ri] - 1].astype(np.intp)
        st.draw_n[Ri] -= 1
        add_to_hands(e, st, Ri, seats[i], card[:, None], None)
        last[i] = card
        return last
    j = np.arange(m)[None, :]
    pos = np.maximum(st.draw_n[R][:, None] - 1 - j, 0)
    cards = st.draw.reshape(-1)[(R * e.N)[:, None] + pos].astype(np.intp)
    st.draw_n[R] -= k.astype(np.int16)
    add_to_hands(e, st, R, seats, cards, k)
    has = k > 0
    last[has] = cards[flat(has), k[has] - 1]
    return last


def add_to_hands(e: RuleTables, st: State, R, seats, cards, counts) -> None:
    """The one place where cards enter a hand: in row ``R[i]`` seat ``seats[i]`` (or ``seats[i, j]``)
    takes card ``cards[i, j]`` for ``j < counts[i]`` (``counts`` None: one card per row).  The rows are
    distinct games.  Cards enter a hand with the side in play toward its owner (E30): a kind is both."""
    if counts is None:  # one card per row: the common draw
        card = cards[:, 0]
        fs = R * e.P + seats  # flat (game, seat)
        st.hands.reshape(-1)[fs * e.K + card] += 1
        st.held.reshape(-1)[fs * e.W + e.KWORD[card]] |= e.KBIT[card]
        st.hand_n.reshape(-1)[fs] += 1
    elif seats.ndim == 1 and cards.shape[1] >= 3:  # penalties: one count matrix beats a pass per card
        _add_counted(e, st, R, seats, cards, counts)
    else:
        if seats.ndim == 1:
            seats = np.broadcast_to(seats[:, None], cards.shape)
        _add_by_position(e, st, R, seats, cards, counts)


def _add_by_position(e: RuleTables, st: State, R, seats, cards, counts) -> None:
    """``add_to_hands`` one card position at a time, so each pass touches a game once (plain fancy
    ``+=``, which is several times faster than ``np.add.at``)."""
    m = int(counts.max()) if counts.size else 0
    if m == 0:
        return
    hf, nf, bf = st.hands.reshape(-1), st.hand_n.reshape(-1), st.held.reshape(-1)
    cards = cards[:, :m]
    fs = R[:, None] * e.P + seats[:, :m]  # flat (game, seat), (n, m)
    hk = fs * e.K + cards  # flat (game, seat, kind)
    if e.W > 1:
        hw, bits = fs * e.W + e.KWORD[cards], e.KBIT[cards]
    else:
        hw, bits = fs, e.KBIT[cards]
    everyone = counts.min() >= m  # no row stops early
    for j in range(m):
        i = slice(None) if everyone else flat(counts > j)
        hf[hk[i, j]] += 1
        nf[fs[i, j]] += 1
        bf[hw[i, j]] |= bits[i, j]


def _add_counted(e: RuleTables, st: State, R, seats, cards, counts) -> None:
    """``add_to_hands`` of several cards to one seat per row (a kind may repeat): the copies per kind
    are counted with one ``bincount`` and added in one scatter."""
    n, m = cards.shape
    K = e.K
    valid = np.arange(m)[None, :] < counts[:, None]
    fs = R * e.P + seats  # flat (game, seat), one per row
    idx = np.where(valid, np.arange(n)[:, None] * K + cards, n * K)  # bin n * K: not drawn
    add = np.bincount(idx.ravel(), minlength=n * K + 1)[:n * K].reshape(n, K)
    st.hands.reshape(-1, K)[fs] += add.astype(np.int8)
    st.hand_n.reshape(-1)[fs] += counts.astype(np.int16)
    bits = e.KBIT[cards] * valid
    bf = st.held.reshape(-1)
    if e.W == 1:
        bf[fs] |= np.bitwise_or.reduce(bits, axis=1)
    else:
        word = e.KWORD[cards]
        for w in range(e.W):
            bf[fs * e.W + w] |= np.bitwise_or.reduce(bits * (word == w), axis=1)


def reshuffle(e: RuleTables, st: State, R) -> None:
    """Shuffle the discard pile, less its top card, into a new draw pile (rules §1.4).  Under
    retract_and_draw_2 the card under a challengeable top is kept too (E26)."""
    keep = np.ones(len(R), np.int64)
    if e.retract:
        keep += st.challengeable[R]
    m = st.disc_n[R] - keep
    ok = m > 0
    R, keep, m = R[ok], keep[ok], m[ok]
    if R.size == 0:
        return
    perm = chance.permutations(st.key, st.counter, R, m, e.N)
    src = st.discard[R]
    ar = np.arange(len(R))
    st.draw[R] = src[ar[:, None], perm]
    st.draw_n[R] = m
    dn = st.disc_n[R]
    top = src[ar, dn - 1]
    st.disc_n[R] = keep
    st.pile_counts[R] = 0
    st.pile_counts[R, top] += 1
    if not e.retract:
        st.discard[R, 0] = top
        return
    under = src[ar, np.maximum(dn - 2, 0)]
    two = keep == 2
    st.discard[R, 0] = np.where(two, under, top)
    st.discard[R[two], 1] = top[two]
    st.pile_counts[R[two], under[two]] += 1


def draw_until_color(e: RuleTables, st: State, R, seats) -> None:
    """Wild Draw Colour: draw until a card whose active face has the active colour (E5, E6; at most
    ``wdc_cap`` cards).  A pile that runs out, or is empty from the start, is made again from the discard
    pile (rules §1.4) and the drawing goes on; it stops when no card is left to draw."""
    cap = e.config.wdc_cap
    total = np.zeros(len(R), np.int64)
    todo = np.arange(len(R))
    j = np.arange(e.N)[None, :]
    for _ in range(4):
        Rt = R[todo]
        n = st.draw_n[Rt].astype(np.int64)
        cols = e.K_COLOR[st.side[Rt].astype(np.intp)[:, None], st.draw[Rt]]
        match = (cols == st.color[Rt][:, None]) & (j < n[:, None])
        pos = np.where(match, j, -1).max(1)
        found = pos >= 0
        cnt = np.where(found, n - pos, n)
        if cap:
            cnt = np.minimum(cnt, cap - total[todo])
        got, _ = draw_from_pile(e, st, Rt, seats[todo], cnt)
        total[todo] += got
        more = ~found  # the pile ran out (or was empty) before the colour: reshuffle and go on (rules §1.4, E5)
        if cap:
            more &= total[todo] < cap
        todo = todo[more]
        if todo.size == 0:
            return
        reshuffle(e, st, R[todo])
        todo = todo[st.draw_n[R[todo]] > 0]
        if todo.size == 0:
            return


def draw_top_one(s: ScalarTables, st: State, seat: int, k: int) -> None:
    """Scalar twin of ``draw_top`` (with ``add_to_hands`` and E28) for the game of one of ``s``."""
    dn = st.draw_n.item(0)
    hand = st.hands[0, seat]
    held = s.held(st, seat)
    for j in range(k):
        card = st.draw.item(0, dn - 1 - j)
        hand[card] += 1
        held |= s.bit[card]
    s.set_held(st, seat, held)
    if st.memory is not None:  # memory hook: cards enter a hand
        memory.drew_one(s.e, st, seat, k)
    st.hand_n[0, seat] += k
    st.draw_n[0] = dn - k
    if k:
        st.vulnerable[0, seat] = False  # E28: its hand grew
