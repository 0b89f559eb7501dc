"""Scripted bots: ``greedy`` and ``heuristic``.

Both read only the observation and the legal-action mask (through ``ObsView``, which takes the static
tables of the configuration from the game they play) and work for every preset, option and player
count.  Each ``act`` call scores every action of every row at once, a ``(B, A)`` matrix, and takes the
masked argmax: no Python loop over rows, no random numbers (ties go to the lowest action id).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from uno_env.core.cards import SWAP_IN_TURN
from uno_env.core.state import DRAWN, PENDING, TURN  # phase ids of the observation's ``phase`` slot

from .base import ModelMismatchError, check_batch, one_blas_thread
from .view import FREE, NUM_COLORS, ObsView


class _ScriptedBot:
    """Common plumbing: the view of the game and the masked argmax over a score matrix."""

    name = "scripted"
    needs_game = True
    observation = "v2"  # the layout read: v2's slices, which also start every v3 observation


    def __init__(self, game=None, seed: int | None = None):
        if game is None:
            raise ValueError(f"the {self.name!r} bot needs the game it plays to read the observation "
                             f"layout: agents.load({self.name!r}, game=game)")
        self.view = ObsView(game, self.observation)
        self.sizes = {self.view.size, ObsView(game).size}  # a v2 observation, or the game's own (v3)

    def scores(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        obs, mask = check_batch(observations, action_masks)
        if obs.shape[1] not in self.sizes or mask.shape[1] != self.view.A:
            raise ModelMismatchError(f"the {self.name!r} bot was built for observations of size "
                             f"{' or '.join(map(str, sorted(self.sizes)))} "
                             f"and {self.view.A} actions; got {obs.shape[1]} and {mask.shape[1]} (pass the "
                             f"game it plays to agents.load)")
        obs = obs[:, :self.view.size]
        with one_blas_thread(obs.shape[0] * self.view.F * self.view.A):
            s = self.scores(obs.astype(np.float32, copy=False), mask).astype(np.float64)
        s[~mask] = -np.inf
        return s.argmax(1)


class GreedyAgent(_ScriptedBot):
    """The highest-point legal card, wilds last.

    Rules, in order of priority:

    1. Catch a vulnerable seat; declare UNO when offered (both let the seat act again).
    2. Play a card rather than draw, keep or pass: the non-wild card with the most points, then the
       wild with the most points (ties: the lowest action id); a wild declares the colour held most
       (on the active side; ties: the first colour).  Swap targets the seat holding the fewest cards.
       This covers jump-ins, Skip deflections, stacking and the drawn card.
    3. A pending wild draw card is accepted (never challenged); a colour choice names the colour held
       most; otherwise draw.
    """

    name = "greedy"

    def scores(self, obs, mask):
        v = self.view
        hand = v.hand(obs)
        cc = v.color_counts(hand)  # (B, 8)
        B = obs.shape[0]
        s = np.zeros((B, v.A), np.float32)
        pts = v.face_points[v.action_face0]
        wild = v.face_wild[v.action_face0]
        play = v.action_is_play
        base = np.where(wild, 500.0, 1000.0) + pts
        after = cc @ v.action_after_onehot.T  # (B, A) cards held of the colour active after
        s += np.where(play, base, 0)[None, :]
        s += np.where(play & wild, 0.01, 0.0)[None, :] * after
        tgt = v.action_target_rel(obs)
        hs = v.hand_sizes(obs)
        targeted = play & (v.action_target >= 0)
        if targeted.any():
            sizes = np.take_along_axis(hs, np.maximum(tgt, 0), 1)
            s -= np.where(targeted, 1e-3, 0.0)[None, :] * sizes
        s[:, v.catch_ids] = 1e5
        s[:, v.UNO] = 1e5 - 1
        s[:, v.choose_ids] = 100 + cc @ v.choose_onehot[v.choose_ids].T
        s[:, v.ACCEPT] = 10
        s[:, v.CHALLENGE] = 0
        s[:, v.KEEP] = 5
        s[:, v.PASS] = 5
        s[:, v.DRAW] = 1
        return s


class HeuristicAgent(_ScriptedBot):
    """A rule-based player: every action of every row gets a score and the best legal one is taken.

    The ``threat`` of a seat is 1 with one card left, 0.6 with two, 0.3 with three, then about 0;
    "late" means the own hand or an opponent's is down to three cards.  Rules (weights in
    ``DEFAULTS``, measured against ``greedy``):

    1. Catch every vulnerable seat and declare UNO whenever offered (both are free).
    2. Play rather than draw, with one exception: when the only playable card is a lone wild (or wild
       draw card), the hand holds four cards or more and it is not late, draw instead and keep the
       wild.  Stack a draw card rather than take a pending penalty; jump in and pass a Skip on (both
       shed a card out of turn) unless the card is an exchange that does not pay (rule 10).
    3. Colour control: prefer the play that leaves the most cards of the colour active after it in the
       hand (keep the current colour while holding many of it, switch to the colour held most).
    4. Card counting: prefer the play after which the next seat most likely holds nothing that
       follows it (same colour, same number or symbol, wilds), estimated from the cards the observer
       cannot see (the deck less its hand and the discard pile) and that seat's hand size.  A seat
       that just drew instead of playing on the current top card holds none of its colour, number or
       wilds, and a seat that just played a wild had none of the previous colour; in UNO Flip the
       next seat's visible backs give its cards' faces.  Making a seat draw is worth a tempo only
       when the observer's own hand can follow the card it plays.
    5. Wilds are worth keeping (each play of one costs ``w_wild``, a wild draw card more).  With two
       players draw cards are kept as weapons while the opponent does not threaten; with more they are
       played (any opponent's extra cards help).
    6. Hit a threatening next seat: Skip, Draw cards, Skip Everyone and wild draw cards score by the
       next seat's threat; with more than two players a Reverse scores by how much more the next seat
       threatens than the previous one.  A card that gives another turn (with two players Skip,
       Reverse and draw cards; Skip Everyone always) is preferred when the hand holds a card to
       follow it, and avoided otherwise.
    7. A wild declares the colour held most (after counting rule 4; ties: the colour with the most
       cards discarded).  Avoid a colour an opponent just declared with a wild (and in UNO Flip the
       colours the next seat's backs show).  A colour chosen for the observer's own next play only
       counts its own cards.
    8. Never bluff a restricted wild draw card (against ``wild_draw_restriction``) unless the next seat
       holds one card.
    9. Challenge a wild draw card only when it pays: P(the offender held a forbidden card) from the
       unseen cards and its hand size (UNO Flip: its backs), turned into P(bluff) assuming opponents
       bluff at ``bluff_rate`` times the rate of honest plays, against the break-even
       ``extra / (pending + extra + lost turn + offender's penalty)``.
    10. Exchanges (SOLO Swap and Swap-in-turn, Seven-O 7 and 0) score by the cards gained: swap with
        the seat holding the fewest cards, only when it holds fewer than the own hand after the play.
    11. A drawn playable card is played, except a wild while the hand holds four cards or more and it
        is not late.
    12. Ties: high points first (they cost the most if the round is lost).

    The weights are ``DEFAULTS`` unless ``agents/heuristic_params.json`` holds weights tuned for the preset
    and table size being played (``training.tune_heuristic --store``, which stores them only when they beat
    the default weights on held-out seeds): then ``heuristic`` on that preset and table size is the tuned
    bot, and a figure measured against it before the tuning was measured against another bot.
    ``HeuristicAgent.params_for(rules, players)`` says which weights a table gets; the weights apply to the
    preset exactly as defined (a preset with options changed plays ``DEFAULTS``).  ``standard_en`` keeps
    ``DEFAULTS``: the shipped agents were trained against them.  Weights given to the constructor override
    both.
    """

    name = "heuristic"
    TUNED = Path(__file__).with_name("heuristic_params.json")  # weights tuned per preset and table size

    DEFAULTS = dict(
        w_col=5.1,  # per card of the colour active after the play left in the hand
        w_stuck=93.0,  # times P(the next seat holds nothing that follows the card played)
        stuck_nofollow=0.17,  # ... scaled down when the own hand could not follow its own card
        w_wild=63.5,  # cost of playing a wild (its value kept in hand)
        w_restricted=26.0,  # extra cost of playing a wild draw card
        w_hit=62.0,  # times the next seat's threat, for cards that stop or hit it
        w_draw=15.5,  # per card drawn by the victim, times (draw_base + threat):
        draw_base=-0.36, draw_base_multi=0.5,  # two players: keep them as weapons; more: play them
        w_extra=14.4, w_noextra=18.3,  # a card giving another turn, with/without a card to follow it
        w_rev=40.0,  # more players: Reverse, times (threat of the next seat - of the previous one)
        w_swap=60.0,  # per card gained by an exchange
        w_oppcol=9.0,  # cost of a colour an opponent just declared (UNO Flip: the next seat's backs)
        w_discard=0.01,  # colour tie-break: cards of the colour already discarded
        w_pts=0.05,  # tie-break: high points first
        late_hand=3, late_opp=3,  # "late": own hand or an opponent's at or below these
        draw_wild_hand=4, save_max_wilds=1,  # draw to keep a lone wild (not late) from this hand size
        keep_wild_hand=4,  # keep a drawn wild from this hand size (not late)
        w_bluff=200.0, bluff_next=1,  # cost of a bluffed wild draw card unless the next seat holds <= 1
        bluff_rate=0.5,  # opponents' bluff rate relative to honest plays (challenge estimate)
    )

    @classmethod
    def tuned_entries(cls) -> list[dict]:
        """The entries of ``agents/heuristic_params.json``: rules, players, the weights that differ from
        ``DEFAULTS`` and how they were found and checked."""
        if not cls.TUNED.is_file():
            return []
        return list(json.loads(cls.TUNED.read_text(encoding="utf-8")).get("tuned", []))

    @classmethod
    def params_for(cls, rules, players: int) -> dict:
        """The weights ``heuristic`` plays with on ``rules`` (a preset name or a ``RuleConfig``) at
        ``players`` seats: ``DEFAULTS``, with the stored tuned weights of that preset and table size when the
        rules are the preset exactly."""
        from uno_env.core.config import PRESETS

        config = PRESETS.get(rules) if isinstance(rules, str) else rules
        name = getattr(config, "name", None)
        params = dict(cls.DEFAULTS)
        if config is None or name not in PRESETS or config != PRESETS[name]:
            return params
        for entry in cls.tuned_entries():
            if entry.get("rules") == name and int(entry.get("players", -1)) == int(players):
                unknown = set(entry["params"]) - set(cls.DEFAULTS)
                if unknown:
                    raise ValueError(f"{cls.TUNED}: unknown heuristic parameters {sorted(unknown)}")
                params.update(entry["params"])
        return params

    def __init__(self, game=None, seed: int | None = None, **params):
        super().__init__(game, seed)
        unknown = set(params) - set(self.DEFAULTS)
        if unknown:
            raise ValueError(f"unknown heuristic parameters {sorted(unknown)}; they are: {sorted(self.DEFAULTS)}")
        self.p = {**self.params_for(self.view.rules, self.view.P), **params}
        v = self.view
        P = v.P
        f = v.action_face0
        play = v.action_is_play
        r = v.rules
        self.a_play = play
        self.a_wild = play & v.face_wild[f]
        self.a_restricted = play & v.face_restricted[f]
        self.a_nonwild = play & ~v.face_wild[f]
        self.a_points = np.where(play, v.face_points[f], 0).astype(np.float32)
        self.a_targeted = play & (v.action_target >= 0)
        self.a_rotate = play & v.face_rotate[f]
        self.a_exchange = self.a_targeted | self.a_rotate
        self.a_skip = play & v.face_skip[f]
        self.a_skip_all = play & v.face_skip_everyone[f]
        self.a_reverse = play & v.face_reverse[f]
        self.a_draw = np.where(play, v.face_draw[f] + 4.0 * v.face_until[f], 0).astype(np.float32)
        # cards that give the player another turn
        extra = self.a_skip_all.copy()
        if P == 2:
            extra |= self.a_skip
            if r.two_player_reverse == "skip":
                extra |= self.a_reverse
            if r.draw_penalty_skips_turn:
                extra |= self.a_draw > 0
        self.a_extra = extra
        # cards that make the next seat lose its turn (P > 2)
        self.a_stops_next = self.a_skip | ((self.a_draw > 0) & r.draw_penalty_skips_turn)
        fs = v.face_skip | v.face_skip_everyone | (v.face_is_draw & r.draw_penalty_skips_turn)
        if P == 2 and r.two_player_reverse == "skip":
            fs = fs | v.face_reverse
        self.f_skips_next = fs  # (F,) the seat after the player of this face loses its turn
        self.a_symbol = np.where(play, v.face_symbol[f], -1)
        self._cond_cache: dict = {}
        self.challenge_on = bool(v.face_restricted.any()) and r.wild_draw_restriction != "none" and r.challenge
        # (A, F): faces a seat could play on the top card an action leaves (colour after, the same
        # number or symbol on a coloured card, wilds); everything after Swap-in-turn (FREE)
        ca = v.action_color_after
        fcol, fsym, fw = v.face_color[None, :], v.face_symbol[None, :], v.face_wild[None, :]
        match = fw | (fcol == ca[:, None]) | ((fsym == self.a_symbol[:, None]) & self.a_nonwild[:, None])
        match |= (ca == FREE)[:, None]
        self.match = (match & play[:, None]).astype(np.float32)
        cc = v.action_color[v.choose_ids]
        self.choose_match = (fw | (fcol == cc[:, None])).astype(np.float32)
        if v.two_sided:  # P(a card whose other face is g shows a face that follows), per side
            self.match_back = np.stack([v.other_to_active[s] @ self.match.T for s in (0, 1)])  # (2, F, A)
            self.choose_match_back = np.stack([v.other_to_active[s] @ self.choose_match.T for s in (0, 1)])

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _threat(n: np.ndarray) -> np.ndarray:
        table = np.array([0.0, 1.0, 0.6, 0.3, 0.1, 0.05], np.float32)
        return table[np.clip(n, 0, 5)] * (n < 6)

    def _p_holds(self, obs, off_rel, off_n, guilty_faces):
        """P(the offender holds at least one face in ``guilty_faces`` ``(B, F)``)."""
        v = self.view
        B = obs.shape[0]
        ar = np.arange(B)
        if v.backs:
            backs = v.get(obs, "opponent_backs").reshape(B, v.P - 1, v.F)
            mine = backs[ar, np.maximum(off_rel - 1, 0)]  # (B, F) backs of the offender's cards
            side = v.side(obs)
            q = np.empty((B, v.F), np.float32)  # P(a card with that back shows a guilty face)
            for s in (0, 1):
                i = np.flatnonzero(side == s)
                if i.size:
                    q[i] = guilty_faces[i] @ v.other_to_active[s].T
            q = np.clip(q, 0, 1 - 1e-6)
            return 1 - np.exp((mine * np.log1p(-q)).sum(1))
        unseen = v.unseen(obs)
        U = unseen.sum(1)
        G = (unseen * guilty_faces).sum(1)
        h = np.maximum(off_n, 0)
        hmax = int(h.max()) if h.size else 0
        if hmax == 0:
            return np.zeros(B, np.float32)
        i = np.arange(hmax)[None, :]
        num = (U - G)[:, None] - i
        den = U[:, None] - i
        frac = np.where(i < h[:, None], np.clip(num, 0, None) / np.maximum(den, 1), 1.0)
        return 1 - frac.prod(1)

    # ------------------------------------------------------------------ scores
    def scores(self, obs, mask):
        v, p = self.view, self.p
        B, P, A = obs.shape[0], v.P, v.A
        ar = np.arange(B)
        hand = v.hand(obs)
        n_me = hand.sum(1)
        hs = v.hand_sizes(obs)
        d = v.direction(obs)
        nxt, prv = d % P, (-d) % P
        n_next, n_prev = hs[ar, nxt], hs[ar, prv]
        min_opp = hs[:, 1:].min(1)
        phase = v.phase(obs)
        col = v.color(obs)
        cc = v.color_counts(hand)  # (B, 8)
        wilds = hand @ v.face_wild.astype(np.float32)
        discard = v.get(obs, "discard")
        dc = v.color_counts(discard)
        threat_next = self._threat(n_next)
        threat_prev = self._threat(n_prev)
        late = (n_me <= p["late_hand"]) | (min_opp <= p["late_opp"])

        s = np.zeros((B, A), np.float32)
        play = self.a_play[None, :]
        # 3. colour control: cards of the colour active after the play left in the hand
        after = cc @ v.action_after_onehot.T - self.a_nonwild[None, :]  # (B, A)
        colour_term = p["w_col"] * after
        # 7. colours the opponents likely hold: an opponent's fresh wild; UNO Flip backs
        opp_col = np.zeros((B, NUM_COLORS), np.float32)
        top_wild = v.face_wild[v.top(obs)]
        by = v.played_by_rel(obs)
        declared = top_wild & (by != 0) & (col < NUM_COLORS)
        if declared.any():
            i = np.flatnonzero(declared)
            opp_col[i, col[i]] = 1.0
        nxt_est = v.opponents_active(obs, nxt)  # UNO Flip: (B, F) expected faces of the next seat
        if nxt_est is not None:
            nc = v.color_counts(nxt_est)
            opp_col = np.maximum(opp_col, nc / np.maximum(nc.sum(1, keepdims=True), 1) * 2)
        colour_term -= p["w_oppcol"] * (opp_col @ v.action_after_onehot.T)
        # 4. chance that the next seat cannot follow (card counting: unseen cards, UNO Flip backs)
        passed = self._passed(obs, phase)  # (B, P) seats seen drawing on this top card
        lack, lack_col, lack_sym, lack_wild = self._lacks(obs, phase, passed[ar, nxt], nxt)
        stuck, stuck_choose = self._stuck(obs, nxt, n_next, lack, lack_col, lack_sym, lack_wild)
        # ... worth a tempo only if the observer can follow its own card when the seat draws instead
        my_follow = hand @ self.match.T - self.a_play[None, :]  # (B, A) cards left that follow
        colour_term += p["w_stuck"] * stuck * np.where(my_follow > 0, 1.0, p["stuck_nofollow"])
        colour_term += p["w_discard"] * (dc @ v.action_after_onehot.T)
        # 10. an exchange replaces the own hand: colour counts and follow-ups mean nothing for it
        colour_term = np.where(self.a_exchange[None, :], 0.0, colour_term)
        s += np.where(play, 100.0 + colour_term, 0.0)
        s += p["w_pts"] * self.a_points[None, :]  # 12.
        # 5. wilds last; wild draw cards kept as weapons (the hits below pay for them when needed)
        s -= p["w_wild"] * self.a_wild[None, :]
        s -= p["w_restricted"] * self.a_restricted[None, :]
        # 6. hit the next seat; with two players, cards that give another turn
        has_follow = (my_follow > 0) | (n_me[:, None] <= 1)
        s += np.where(has_follow, p["w_extra"], -p["w_noextra"]) * self.a_extra[None, :]
        if P == 2:
            s += (p["w_hit"] * threat_next)[:, None] * (self.a_extra | (self.a_draw > 0))[None, :]
        else:
            s += (p["w_hit"] * threat_next)[:, None] * (self.a_stops_next | self.a_skip_all)[None, :]
            s += (p["w_rev"] * (threat_next - threat_prev))[:, None] * self.a_reverse[None, :]
        base = p["draw_base"] if P == 2 else p["draw_base_multi"]
        s += (p["w_draw"] * (base + threat_next))[:, None] * self.a_draw[None, :]
        # 10. exchanges: cards gained
        if self.a_targeted.any():
            tgt = v.action_target_rel(obs)
            t_n = np.take_along_axis(hs, np.maximum(tgt, 0), 1)
            s += np.where(self.a_targeted[None, :], p["w_swap"] * (n_me[:, None] - 1 - t_n), 0.0)
        if self.a_rotate.any():
            s += np.where(self.a_rotate[None, :], p["w_swap"] * (n_me - 1 - n_prev)[:, None], 0.0)
        # 8. no bluffing a restricted wild draw card
        if self.challenge_on:
            guilty = self._guilty(obs, mask, cc, col, phase)
            bad = guilty & (n_next > p["bluff_next"])
            s -= np.where(bad, p["w_bluff"], 0.0)[:, None] * self.a_restricted[None, :]
            # a bluffing stack would beat the stacking bonus below: answer with it only when honest
            s -= np.where(bad & (phase == PENDING), 500.0, 0.0)[:, None] * self.a_restricted[None, :]

        # 2. a voluntary draw only to keep a lone wild while the hand is large and it is not late
        only_wild = ~(mask & self.a_nonwild[None, :]).any(1) & (phase == TURN)
        save = only_wild & (n_me >= p["draw_wild_hand"]) & ~late & (wilds <= p["save_max_wilds"])
        s[:, v.DRAW] = np.where(save, 1000.0, 0.0)
        keep_wild = (phase == DRAWN) & (n_me >= p["keep_wild_hand"]) & ~late
        drawn_wild = (v.get(obs, "drawn") @ v.face_wild.astype(np.float32)) > 0
        s[:, v.KEEP] = np.where(keep_wild & drawn_wild, 1000.0, 0.0)
        # 2. stack rather than take a pending penalty; jump in and pass a Skip on unless the card is
        # an exchange that does not pay (a pass scores 0, any ordinary play well above)
        s += np.where((phase == PENDING)[:, None] & play, 500.0, 0.0)
        s[:, v.PASS] = 0.0
        s[:, v.ACCEPT] = 0.0
        s[:, v.CHALLENGE] = -1.0
        if self.challenge_on:
            chal = v.get(obs, "challengeable")[:, 0] > 0.5
            if chal.any():
                i = np.flatnonzero(chal)
                good = self._challenge_pays(obs[i])
                s[i, v.CHALLENGE] = np.where(good, 1.0, -1.0)
        # 7. colour choice (a first card or a revealed wild)
        ch = v.choose_onehot[v.choose_ids]  # (n, 8)
        s[:, v.choose_ids] = 100 + p["w_col"] * (cc @ ch.T) + p["w_discard"] * (dc @ ch.T) \
            + np.where(v.turn_rel(obs) == 0, 0.0, p["w_stuck"])[:, None] * stuck_choose \
            - np.where(v.turn_rel(obs) == 0, 0.0, p["w_oppcol"])[:, None] * (opp_col @ ch.T)
        # 1. free actions first
        s[:, v.catch_ids] = 1e5
        s[:, v.UNO] = 1e5 - 1
        return s

    def _passed(self, obs, phase) -> np.ndarray:
        """``(B, P)`` relative seats known to hold nothing that follows the top card: the seats
        between the one that played it and the observer, who drew instead of playing (a Skip's or a
        draw card's victim excluded).  Read only on the observer's own turn, after the first play."""
        v = self.view
        B, P = obs.shape[0], v.P
        by = v.played_by_rel(obs)
        d = v.direction(obs)
        m = (-by * d) % P
        m = np.where(m == 0, P, m)  # the observer played it: every other seat passed
        top = v.top(obs)
        skipper = self.f_skips_next[top] & ~v.face_skip_everyone[top]
        first = np.where(skipper, 2, 1)
        j = np.arange(1, P)[None, :]  # steps after the player
        seat = (by[:, None] + j * d[:, None]) % P
        ok = (j >= first[:, None]) & (j < m[:, None])
        ok &= ((phase == TURN) & (v.get(obs, "discard").sum(1) > 1) & (v.color(obs) < NUM_COLORS)
               & ~v.face_skip_everyone[top])[:, None]
        out = np.zeros((B, P), bool)
        rows = np.repeat(np.arange(B), P - 1).reshape(B, P - 1)
        out[rows[ok], seat[ok]] = True
        out[:, 0] = False
        return out & v.drew(obs)  # seen drawing (not a first card turned, nor a seat never asked)

    def _lacks(self, obs, phase, passed_next, nxt):
        """What the next seat is known not to hold: ``(B,) bool`` known, the colour ``(B,)``, the
        number or symbol ``(B,)`` (-1: none) and whether wilds too ``(B,) bool``.  A seat that passed
        on the top card (``_passed``) holds none of its colour, number or symbol, nor wilds; a seat
        that just played a plain wild or an honest wild draw card had nothing of the previous colour
        (players keep their wilds for when they need them)."""
        v = self.view
        col = v.color(obs)
        top = v.top(obs)
        wild_top = v.face_wild[top]
        tsym = np.where(wild_top, -1, v.face_symbol[top])
        prev = v.prev_color(obs)  # the colour before the top card (what a challenge tests)
        by_next = (v.played_by_rel(obs) == nxt) & wild_top & (prev < NUM_COLORS) & (prev != col)
        by_next &= self.challenge_on
        by_next &= (phase == TURN) & ~passed_next & (v.face_symbol[top] != SWAP_IN_TURN)
        lack = passed_next | by_next
        lack_col = np.where(passed_next, col, prev)
        lack_sym = np.where(passed_next, tsym, -1)
        return lack, lack_col, lack_sym, passed_next.copy()

    @staticmethod
    def _excluded_faces(v, col, sym, wilds) -> np.ndarray:
        """``(n, F)`` faces of colour ``col``, of number or symbol ``sym`` (coloured faces; -1: none)
        and, where ``wilds``, the wilds."""
        ex = v.face_color[None, :] == col[:, None]
        ex |= (v.face_symbol[None, :] == sym[:, None]) & (sym[:, None] >= 0) & ~v.face_wild[None, :]
        ex |= v.face_wild[None, :] & wilds[:, None]
        return ex

    def _stuck(self, obs, nxt, n_next, lack, lack_col, lack_sym, lack_wild):
        """``(B, A)`` and ``(B, n_choose)``: probability that the next seat holds no card that
        follows the top card each play (or colour choice) leaves, given what it is known not to
        hold where ``lack`` (``_lacks``)."""
        v = self.view
        if v.backs:
            B = obs.shape[0]
            backs = v.get(obs, "opponent_backs").reshape(B, v.P - 1, v.F)
            nb = backs[np.arange(B), np.maximum(nxt - 1, 0)]  # (B, F)
            side = v.side(obs)
            out = np.empty((B, v.A), np.float32)
            outc = np.empty((B, len(v.choose_ids)), np.float32)
            for s in (0, 1):
                i = np.flatnonzero(side == s)
                if i.size:
                    out[i] = nb[i] @ np.log1p(-np.clip(self.match_back[s], 0, 1 - 1e-6))
                    outc[i] = nb[i] @ np.log1p(-np.clip(self.choose_match_back[s], 0, 1 - 1e-6))
            li = np.flatnonzero(lack)
            if li.size:  # condition each card's face on the faces the seat cannot hold
                col, tsym, wl = lack_col[li], lack_sym[li], lack_wild[li]
                key = ((side[li] * NUM_COLORS + col) * 32 + tsym + 1) * 2 + wl
                for k in np.unique(key):
                    sel = key == k
                    j = li[sel]
                    lq, lqc = self._conditioned_logs(int(side[j[0]]), int(col[sel][0]), int(tsym[sel][0]),
                                                     bool(wl[sel][0]))
                    out[j] = nb[j] @ lq
                    outc[j] = nb[j] @ lqc
            return np.exp(out), np.exp(outc)
        unseen = v.unseen(obs)
        if lack.any():
            unseen = unseen * ~(self._excluded_faces(v, lack_col, lack_sym, lack_wild) & lack[:, None])
        U = np.maximum(unseen.sum(1, keepdims=True), 1)
        h = n_next[:, None].astype(np.float32)
        frac = np.clip(1 - (unseen @ self.match.T) / U, 1e-6, 1)
        fracc = np.clip(1 - (unseen @ self.choose_match.T) / U, 1e-6, 1)
        return np.exp(h * np.log(frac)), np.exp(h * np.log(fracc))

    def _conditioned_logs(self, side: int, col: int, tsym: int, wilds: bool):
        """UNO Flip: ``log P(a card with back g does not follow)`` ``(F, A)`` and ``(F, n_choose)``
        for a seat that holds none of the faces ``_excluded_faces`` names; cached per argument."""
        key = (side, col, tsym, wilds)
        hit = self._cond_cache.get(key)
        if hit is None:
            v = self.view
            ex = self._excluded_faces(v, np.array([col]), np.array([tsym]), np.array([wilds]))[0]
            M = v.other_to_active[side] * ~ex[None, :]
            den = M.sum(1, keepdims=True)
            M = np.divide(M, den, out=np.zeros_like(M), where=den > 0)
            hit = (np.log1p(-np.clip(M @ self.match.T, 0, 1 - 1e-6)),
                   np.log1p(-np.clip(M @ self.choose_match.T, 0, 1 - 1e-6)))
            self._cond_cache[key] = hit
        return hit

    def _guilty(self, obs, mask, cc, col, phase):
        """(B,) playing a restricted wild draw card now would break the restriction."""
        v = self.view
        if v.rules.wild_draw_restriction == "color_only":
            ok = col < NUM_COLORS
            return ok & (np.take_along_axis(cc, np.minimum(col, NUM_COLORS - 1)[:, None], 1)[:, 0] > 0)
        other = mask & self.a_play[None, :] & ~self.a_restricted[None, :]
        turn = other.any(1) & (phase == TURN)
        # outside its turn (a stack) the mask shows only answers: test the hand against the top card
        top = v.top(obs)
        sym = np.where(v.face_wild[top], -1, v.face_symbol[top])
        fits = self._excluded_faces(v, col, sym, np.ones(len(col), bool)) & ~v.face_restricted[None, :]
        return np.where(phase == TURN, turn, ((v.get(obs, "hand") > 0) & fits).any(1))

    def _challenge_pays(self, obs) -> np.ndarray:
        """(n,) challenging the pending wild draw card is worth it (rule 8)."""
        v, p = self.view, self.p
        n = obs.shape[0]
        ar = np.arange(n)
        off = v.played_by_rel(obs)
        hs = v.hand_sizes(obs)
        off_n = hs[ar, off]
        prev = v.prev_color(obs)
        guilty_faces = np.zeros((n, v.F), np.float32)
        pc = np.minimum(prev, NUM_COLORS - 1)
        has_col = prev < NUM_COLORS
        guilty_faces += (v.face_color[None, :] == pc[:, None]) & has_col[:, None]
        if v.rules.wild_draw_restriction == "no_playable":
            guilty_faces += (v.face_wild & ~v.face_restricted)[None, :]
        guilty_faces *= v.side_faces[v.side(obs)]
        guilty_faces = np.minimum(guilty_faces, 1)
        p_hold = self._p_holds(obs, off, off_n, guilty_faces)
        r = p["bluff_rate"]
        p_bluff = p_hold * r / np.maximum(p_hold * r + (1 - p_hold), 1e-9)
        pend, until = v.pending(obs)
        A = np.where(until, 4.0, 0.0) + pend
        E = float(v.rules.challenge_extra)
        if v.rules.challenge_guilty == "retract_and_draw_2":
            G = 3.0 + 0 * A
        else:
            G = A
        w = 1.0 if v.P == 2 else 0.5
        T = 1.0 if v.rules.draw_penalty_skips_turn else 0.0
        threshold = E / (A + E + T + w * G)
        return p_bluff > threshold
