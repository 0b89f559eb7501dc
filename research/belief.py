"""What the other hands may hold, read from how the bots have played: a particle filter over whole deals.

The search probe's uniformly dealt worlds (``--information seen``) ignore what the other seats' plays
reveal.  The bots are known programs (``heuristic`` reads only its observation and mask), so a seat can
do what a player who knows its opponents would: keep ``M`` candidate deals per game (particles: whole
game states that agree with everything the seat has seen) and drop those in which a bot would not have
done what it did.  ``python -m research.search_probe --information inferred`` searches on them.

Each real step, in every particle of its game:

1. A card a bot plays is in its hand: a particle whose hand lacks it swaps a random card of that hand
   for it from its pile (a repair: killing it would leave a handful of distinct hands after two plays).
   A drawn card it plays becomes the particle's drawn card, weighted by the odds of having drawn it.
2. The bot's decision: the particle survives only if ``heuristic`` on its hand takes the same action
   (a draw while holding a card that fits, a colour not held most, another card...).
3. The cards the seat itself draws are known: they go where it drew them in each particle's pile (a
   particle whose hidden hands hold them dies).
4. The step is played in the particle, forced moves and the others' draws included (those come from the
   particle's own shuffled pile: the hidden draws are sampled), and the particle survives only if what
   the seat saw happen (hand sizes, top card, colour, phase, penalties, its own hand, a challenge's
   verdict, a seat asked to choose rather than moved on) happened there too.  One that went another way
   because a seat that had to draw held a card that fits, or a bot now choosing holds none, is mended
   once (those cards swapped with the pile) and played again.

Dead particles are replaced by copies of live ones.  A game whose particles all die (``restarts``), or
whose discard pile was shuffled into the draw pile (``reshuffles``), is dealt again uniformly.  One-sided
decks only, as the search.
"""

from __future__ import annotations

import numpy as np

from agents.bots import HeuristicAgent
from uno_env import VecGame
from uno_env.core import legal, matching
from uno_env.core.invariants import row_counts
from uno_env.core.observe import Observer
from uno_env.core.state import DRAWN, OVER, TURN, State

# fields every particle must share with the real game after a step (all public to the seat)
PUBLIC = ("phase", "actor", "hand_n", "color", "pending", "direction", "draw_n", "disc_n", "winner",
          "challengeable")


class ParticleBelief:
    """``particles`` candidate deals for each game of ``game`` as seen by seat ``me[b]`` of game ``b``.

    ``deal(st, rows)`` draws fresh particles (uniform deals of the unseen cards) for new rounds;
    ``update(pre, st, rows, actions)`` follows one real step (``pre``: ``st.take(rows)`` before it);
    ``worlds(rows, n)`` draws ``n`` particles per row, by weight, as states for a search."""

    def __init__(self, game: VecGame, particles: int, rng: np.random.Generator, deal_again):
        e = game.engine
        if e.two_sided:
            raise ValueError("the belief follows one-sided decks only")
        if particles < 1:
            raise ValueError(f"particles={particles} is too few; at least 1")
        # the particle worlds keep no table memory, and the bot reads the v2 layout: observe them in v2
        self.e, self.observer, self.rng, self.M = e, Observer(e, "v2"), rng, particles
        self.bot = HeuristicAgent(game)
        self.deal_again = deal_again  # (state, seats) -> None: uniform deal of the unseen cards (the search's)
        B = game.state.batch_size
        self.me = np.zeros(B, np.intp)
        self.pw = game.state.take(np.repeat(np.arange(B), particles))  # particle b*M + m of game b
        self.w = np.ones((B, particles))
        self.restarts = self.reshuffles = 0

    def rows_of(self, rows: np.ndarray) -> np.ndarray:
        return (np.asarray(rows, np.intp)[:, None] * self.M + np.arange(self.M)[None, :]).ravel()

    @staticmethod
    def _swap(ps: State, R, seat, pos, out) -> None:
        """Swap cards of the pile with cards of a hand: in game ``R[i]`` of ``ps``, the pile card at
        ``pos[i]`` joins the hand of ``seat[i]`` and that hand's ``out[i]`` takes its place."""
        took = ps.draw[R, pos].astype(np.intp)
        ps.draw[R, pos] = out
        np.subtract.at(ps.hands, (R, seat, out), 1)
        np.add.at(ps.hands, (R, seat, took), 1)

    def deal(self, st: State, rows: np.ndarray, me: np.ndarray | None = None) -> None:
        """Fresh particles for ``rows`` (``me``: the seat that sees, if it changed): the real game's
        public state, the unseen cards dealt again uniformly, fresh random streams."""
        rows = np.asarray(rows, np.intp)
        if rows.size == 0:
            return
        if me is not None:
            self.me[rows] = me
        idx = np.repeat(rows, self.M)
        fresh = st.take(idx)
        self.deal_again(fresh, self.me[idx])
        drawn = ((fresh.phase == DRAWN) & (fresh.actor != self.me[idx])).nonzero()[0]
        if drawn.size:  # another seat's drawn card is one of its dealt cards that fits, not the real one
            self._redraw(fresh, drawn)
        legal.refresh(self.e, fresh, np.arange(idx.size))  # the masks of the dealt hands, not the real ones
        self.e.seed_rows(fresh, np.arange(idx.size), self.rng.integers(0, 2**62, idx.size))
        self.pw.put(self.rows_of(rows), fresh)
        # a deal that leaves the seat to move a single legal action cannot be: the game asks it to choose
        w = ((fresh.nlegal >= 2) | (fresh.phase == OVER)).reshape(-1, self.M).astype(np.float64)
        w[w.sum(1) == 0] = 1.0
        self.w[rows] = 1.0
        self._resample(rows, w)

    def _redraw(self, ps: State, R: np.ndarray) -> None:
        """The drawn card of the actors of ``R`` (phase DRAWN) becomes a random card of their hand that
        fits the top card; one from the pile, for a random card of the hand, if none does."""
        e, rng = self.e, self.rng
        actor = ps.actor[R].astype(np.intp)
        fits = e.unpack(matching.matching_bits(e, ps, R, matching.top_face(e, ps, R)))
        for i, r in enumerate(R):  # a game just dealt again in DRAWN phase is rare: a short loop
            a = actor[i]
            mine = np.repeat(np.arange(e.K), ps.hands[r, a].astype(np.int64))
            ok = mine[fits[i, mine]]
            if ok.size:
                ps.drawn[r] = rng.choice(ok)
                continue
            pile = ps.draw[r, :ps.draw_n[r]].astype(np.intp)
            cand = fits[i, pile].nonzero()[0]
            if cand.size == 0 or mine.size == 0:
                continue
            pos, out = rng.choice(cand), rng.choice(mine)
            ps.drawn[r] = pile[pos]
            self._swap(ps, r, a, pos, out)
        e.resync(ps, R)

    def worlds(self, rows: np.ndarray, n: int) -> State:
        """``n`` particles of each of ``rows`` drawn by weight (row-major: ``n`` per row)."""
        return self.pw.take((np.asarray(rows, np.intp)[:, None] * self.M + self._draw(self.w[rows], n)).ravel())

    def _draw(self, w: np.ndarray, n: int) -> np.ndarray:
        """(rows, n) particle indices drawn by the weights ``w`` (rows, M): systematic resampling, which
        keeps each particle about ``n * w / sum(w)`` times."""
        p = np.cumsum(w / w.sum(1, keepdims=True), 1)
        u = (self.rng.random((len(w), 1)) + np.arange(n)[None, :]) / n
        return np.minimum((p[:, None, :] <= u[:, :, None]).sum(2), self.M - 1)

    def update(self, pre: State, st: State, rows: np.ndarray, actions: np.ndarray) -> None:
        """Follow the real step ``actions`` in ``rows`` (``pre``: those rows before it, ``st`` after)."""
        e, M = self.e, self.M
        rows = np.asarray(rows, np.intp)
        live = st.phase[rows] != OVER
        shuffled = live & (st.disc_n[rows] < pre.disc_n)  # the discard pile went into the draw pile
        if shuffled.any():
            self.deal(st, rows[shuffled])
            self.reshuffles += int(np.count_nonzero(shuffled))
        keep = (live & ~shuffled).nonzero()[0]
        if keep.size == 0:
            return
        rows, pre, actions = rows[keep], pre.take(keep), np.asarray(actions)[keep]
        n = rows.size
        me = self.me[rows]
        pr = self.rows_of(rows)  # particle rows, game-major
        acts = np.repeat(actions, M)
        w = self.w[rows].copy()  # (n, M)
        pw = self.pw

        # 1. a card the bot plays is in its hand (a drawn one it plays is the particle's drawn card)
        bot_turn = pre.actor.astype(np.intp) != me
        reveal = bot_turn & (pre.phase == DRAWN) & (actions < e.N_PLAY)
        if reveal.any():
            i = np.repeat(reveal, M).nonzero()[0]
            w[reveal] *= self._reveal(pr[i], e.A_FACE[acts[i]]).reshape(-1, M)

        played = bot_turn & (pre.phase != DRAWN) & (actions < e.N_PLAY)
        if played.any():
            i = np.repeat(played, M).nonzero()[0]
            w[played] *= self._hold(pr[i], e.A_FACE[acts[i]]).reshape(-1, M)

        # 2. the bot's decision: would the heuristic, holding the particle's cards, have taken it?
        if bot_turn.any():
            i = np.repeat(bot_turn, M).nonzero()[0]
            R = pr[i]
            obs = self.observer.observe(pw, R, pw.actor[R].astype(np.intp))
            w[bot_turn] *= (self.bot.act(obs, pw.mask[R]) == acts[i]).reshape(-1, M)

        # 3. the seat's own draws come off the top of each particle's pile
        w *= self._force_own_draws(pre, st, rows, me, actions, pr).reshape(n, M)

        # 4. the step in the live particles: those that look the same from the seat stay
        alive = (w > 0).ravel()
        R = pr[alive]
        # mended once, if they go another way: a seat that had to draw this step (on its turn, with
        # nothing to play) gives back the cards that fit; a bot choosing now (in its turn) that holds none
        # that fits takes one.  Only particles of such games are kept as they were before the step.
        now = st.drew_on[rows]
        void = (now >= 0) & ((pre.drew_on != now) | (st.hand_n[rows] > pre.hand_n))
        void[np.arange(n), me] = False
        choosing = (st.phase[rows] == TURN) & (st.actor[rows] != me)
        game_of = np.repeat(np.arange(n), M)[alive]
        mendable = (void[game_of].any(1) | choosing[game_of]).nonzero()[0]
        before = pw.take(R[mendable])
        if R.size:
            e.step_rows(pw, R, acts[alive])
        same = np.zeros(n * M, bool)
        real, seen_by = np.repeat(rows, M)[alive], np.repeat(me, M)[alive]
        same[alive] = self._agrees(st, real, R, seen_by)
        failed = ~same[alive][mendable]
        if failed.any():
            j = mendable[failed]
            again = before.take(failed.nonzero()[0])
            kept = np.repeat(pre.draw_n.astype(np.intp) - st.draw_n[rows], M)[alive][j]
            self._repair(again, st, real[j], void[game_of[j]], choosing[game_of[j]], kept, acts[alive][j])
            e.step_rows(again, np.arange(j.size), acts[alive][j])
            pw.put(R[j], again)
            same[alive.nonzero()[0][j]] = self._agrees(st, real[j], R[j], seen_by[j])
        w *= same.reshape(n, M)
        dead = self._resample(rows, w)
        if dead.any():
            self.deal(st, rows[dead])

    def _reveal(self, R: np.ndarray, kind: np.ndarray) -> np.ndarray:
        """Make ``kind`` the drawn card of particles ``R`` (in DRAWN phase): swap it with the card they
        drew, from their pile; the weight is the odds of having drawn it among the playable cards."""
        e, pw = self.e, self.pw
        n = R.size
        ar = np.arange(n)
        actor = pw.actor[R].astype(np.intp)
        x = pw.drawn[R].astype(np.intp)
        dn = pw.draw_n[R].astype(np.intp)
        pile = pw.draw[R]
        inpile = (pile == kind[:, None]) & (np.arange(e.N)[None, :] < dn[:, None])
        have = inpile.any(1) | (x == kind)
        fits = e.unpack(matching.matching_bits(e, pw, R, matching.top_face(e, pw, R)))  # (n, K) playable kinds
        counts = row_counts(pile, dn, e.K)
        counts[ar, x] += 1  # the pile the card was drawn from
        weight = np.where(have, counts[ar, kind] / np.maximum((counts * fits).sum(1), 1), 0.0)
        swap = have & (x != kind)
        if swap.any():
            s = swap.nonzero()[0]
            self._swap(pw, R[s], actor[s], inpile[s].argmax(1), x[s])
            pw.drawn[R[s]] = kind[s]
            e.resync(pw, R[s])
            legal.refresh(e, pw, R[s])
        return weight

    def _hold(self, R: np.ndarray, kind: np.ndarray) -> np.ndarray:
        """Make the actors of particles ``R`` hold ``kind``: one lacking it swaps a card of its hand, at
        random, with one of its pile; whether each particle holds it now."""
        e, pw = self.e, self.pw
        actor = pw.actor[R].astype(np.intp)
        lack = pw.hands[R, actor, kind] <= 0
        ok = ~lack
        if not lack.any():
            return ok
        s = lack.nonzero()[0]
        Rs, a, k = R[s], actor[s], kind[s]
        dn = pw.draw_n[Rs].astype(np.intp)
        inpile = (pw.draw[Rs] == k[:, None]) & (np.arange(e.N)[None, :] < dn[:, None])
        can = inpile.any(1) & (pw.hand_n[Rs, a] > 0)
        s, Rs, a, k, inpile = s[can], Rs[can], a[can], k[can], inpile[can]
        if s.size:
            held = pw.hands[Rs, a].astype(np.int64)  # (n, K)
            u = self.rng.random(s.size) * held.sum(1)
            out = (np.cumsum(held, 1) <= u[:, None]).sum(1)  # a card of the hand, uniformly
            self._swap(pw, Rs, a, inpile.argmax(1), out)
            e.resync(pw, Rs)
            legal.refresh(e, pw, Rs)
            ok[s] = True
        return ok

    def _repair(self, ps: State, st: State, real: np.ndarray, void: np.ndarray, choosing: np.ndarray,
                kept: np.ndarray, actions: np.ndarray) -> None:
        """Mend particle states ``ps`` (before the step) so that the step may go as it went in ``real``:
        the seats flagged in ``void`` (n, P) give back every card that fits the real top card and colour
        after the step (the card the actor plays in it stays), and where ``choosing``, the real actor
        after the step holds at least one card that fits.  Cards are swapped with random cards of the
        pile below its top ``kept`` (spoken for by the seat's own draws)."""
        e, rng = self.e, self.rng
        n = ps.batch_size
        fits = e.unpack(matching.matching_bits(e, st, real, matching.top_face(e, st, real)))  # (n, K)
        top = ps.draw_n.astype(np.intp) - kept
        for j in range(e.P):
            give = np.zeros((n, e.K), np.int64)
            want = np.zeros(n, bool)
            r = void[:, j].nonzero()[0]
            if r.size:
                hand = ps.hands[r, j].astype(np.int64)
                plays = (ps.actor[r] == j) & (actions[r] < e.N_PLAY)
                hand[plays.nonzero()[0], e.A_FACE[actions[r][plays]]] -= 1
                give[r] = np.maximum(hand, 0) * fits[r]
            c = (choosing & (st.actor[real] == j) & ~void[:, j]).nonzero()[0]
            if c.size:
                want[c] = ~((ps.hands[c, j] > 0) & fits[c]).any(1)
            # a loop over the particles mended (up to most of a game's when a bot had to draw): each trades
            # a different number of cards, and this is the probe's belief, not the core's step
            for i in (give.any(1) | want).nonzero()[0]:
                pile = ps.draw[i, :top[i]].astype(np.intp)
                if want[i]:  # one fitting card in, one random card of the hand out
                    cand = fits[i, pile].nonzero()[0]
                    held = np.repeat(np.arange(e.K), ps.hands[i, j].astype(np.int64))
                    if cand.size == 0 or held.size == 0:
                        continue
                    pos, back = rng.choice(cand, 1), rng.choice(held, 1)
                else:  # every fitting card out, unfitting pile cards in
                    back = np.repeat(np.arange(e.K), give[i])
                    cand = (~fits[i, pile]).nonzero()[0]
                    if cand.size < back.size:
                        continue
                    pos = rng.choice(cand, back.size, replace=False)
                self._swap(ps, np.full(back.size, i), np.full(back.size, j), pos, back)
        e.resync(ps, np.arange(n))
        legal.refresh(e, ps, np.arange(n))

    def _force_own_draws(self, pre: State, st: State, rows, me, actions, pr) -> np.ndarray:
        """Put the cards seat ``me`` drew in the real step where it drew them in each particle's pile;
        whether each particle could (its hidden hands may hold them)."""
        e, M, pw = self.e, self.M, self.pw
        n = rows.size
        ar = np.arange(n)
        got = st.hands[rows, me].astype(np.int64) - pre.hands[ar, me]
        mine = (pre.actor.astype(np.intp) == me) & (actions < e.N_PLAY)
        got[mine.nonzero()[0], e.A_FACE[actions[mine]]] += 1  # a card it played left the hand
        drew = pre.draw_n.astype(np.intp) - st.draw_n[rows]  # cards drawn from the top, in order
        ok = np.ones(n * M, bool)
        if not (got > 0).any():
            return ok
        left = got.copy()
        for t in range(1, int(drew.max()) + 1):  # the t-th card from the top
            has_t = drew >= t
            pos = pre.draw_n.astype(np.intp) - t
            kind = pre.draw[ar, np.maximum(pos, 0)].astype(np.intp)
            to_me = has_t & (left[ar, kind] > 0)
            if not to_me.any():
                continue
            left[ar[to_me], kind[to_me]] -= 1
            g = to_me.nonzero()[0]
            P_ = pr.reshape(n, M)[g].ravel()
            k = np.repeat(kind[g], M)
            top = np.repeat(pos[g], M)
            below = (pw.draw[P_] == k[:, None]) & (np.arange(e.N)[None, :] <= top[:, None])
            found = below.any(1)
            j = below.argmax(1)
            f = found.nonzero()[0]
            a, b = pw.draw[P_[f], top[f]], pw.draw[P_[f], j[f]]
            pw.draw[P_[f], top[f]], pw.draw[P_[f], j[f]] = b, a
            ok.reshape(n, M)[g] &= found.reshape(-1, M)
        return ok

    def _agrees(self, st: State, real: np.ndarray, R: np.ndarray, me: np.ndarray) -> np.ndarray:
        """Whether particles ``R`` look like real games ``real`` from seat ``me``."""
        pw = self.pw
        same = np.ones(R.size, bool)
        if R.size == 0:
            return same
        for f in PUBLIC:
            a, b = getattr(pw, f)[R], getattr(st, f)[real]
            same &= (a == b).reshape(R.size, -1).all(1)
        same &= (pw.hands[R, me] == st.hands[real, me]).all(1)
        e = self.e
        same &= matching.top_face(e, pw, R) == matching.top_face(e, st, real)
        same &= pw.nlegal[R] >= 2  # the real game waits on a real choice: a forced move would have been taken
        over = st.phase[real] == OVER
        return same | (over & (pw.phase[R] == OVER) & (pw.winner[R] == st.winner[real]))

    def _resample(self, rows: np.ndarray, w: np.ndarray) -> np.ndarray:
        """Replace dead particles by copies of live ones, by weight; whether each game has none alive."""
        M = self.M
        total = w.sum(1)
        dead = total <= 0
        self.restarts += int(np.count_nonzero(dead))
        ok = ~dead
        w, rows_ok = w[ok], rows[ok]
        if rows_ok.size:
            ess = total[ok] ** 2 / np.maximum((w ** 2).sum(1), 1e-300)
            redo = (ess < M / 2) | (w == 0).any(1)
            if redo.any():
                r = rows_ok[redo]
                src = (r[:, None] * M + self._draw(w[redo], M)).ravel()
                self.pw.put(self.rows_of(r), self.pw.take(src))
                w[redo] = 1.0
            self.w[rows_ok] = w / w.mean(1, keepdims=True)
        return dead
