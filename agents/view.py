"""``ObsView``: what a scripted bot may know about a configuration, and readers of observation batches.

A bot sees only the observation vector and the legal-action mask of its seat.  To read them it needs
the static tables of the configuration, which every player knows: the faces of the deck (colour,
symbol, points, wild, draw amount, restricted), the action table (kind, face, declared colour, target
seat), the rule options and the observation layout (``uno_env.core.observe``).  ``ObsView`` gathers
those tables once and offers batched readers::

    view = ObsView(game)                     # a VecGame, a PettingZoo raw_env, or an object with
                                             # .engine and .observer
    hand = view.get(obs, "hand")             # (B, F) copies of each face held (active side)
    me = view.seat(obs)                      # (B,) the observer's absolute seat
    nxt = view.next_rel(obs)                 # (B,) relative position of the next seat in play order
    tgt = view.action_target_rel(obs)        # (B, A) relative seat named by each action (-1: none)

Seats in the observation are relative to the observer (0 = the observer, 1 = the next seat in seat
order, whatever the direction), except ``seat``; seats in actions (``play RX @k``, ``catch @k``)
are absolute.  ``rel_to_abs`` and ``abs_to_rel`` convert.
"""

from __future__ import annotations

import numpy as np

from uno_env.core.actions import ACCEPT, CATCH, CHALLENGE, CHOOSE, DRAW, KEEP, PASS, PLAY, UNO
from uno_env.core.cards import (
    DRAW_TWO,
    FLIP,
    FREE,
    NO_COLOR,
    REVERSE,
    SKIP,
    SKIP_EVERYONE,
    SWAP,
    SWAP_IN_TURN,
    WILD_DRAW_COLOR,
)

NUM_COLORS = 8  # global colour ids 0-7 (light R Y G B, dark P T O U)


def resolve(game):
    """``(engine, observer)`` of the game ``find_game`` finds."""
    g = find_game(game)
    return g.engine, g.observer


def find_game(game):
    """The ``VecGame`` (or any object with ``.engine`` and ``.observer``) behind ``game``: itself, a
    PettingZoo ``raw_env`` or its wrappers (``.game``), or a training env (``.games.game``)."""
    seen = 0
    obj = game
    while obj is not None and seen < 8:
        if hasattr(obj, "engine") and hasattr(obj, "observer"):
            return obj
        if hasattr(obj, "game"):
            obj = obj.game
        elif hasattr(obj, "games"):  # uno_env's training envs hold their LearnerGames as .games
            obj = obj.games
        elif hasattr(obj, "unwrapped") and obj.unwrapped is not obj:
            obj = obj.unwrapped
        elif hasattr(obj, "env"):
            obj = obj.env
        else:
            break
        seen += 1
    raise ValueError(f"agents need the game they play to read its layout: pass game= a uno_env.VecGame, "
                     f"a PettingZoo raw_env (it has .game), a training env (it has .games) or an object "
                     f"with .engine and .observer; got {type(game).__name__}")


class ObsView:
    """Static tables of one configuration and readers of its observation batches.

    Attributes (``F`` faces, ``A`` actions, ``P`` players):
        rules: the ``RuleConfig`` (every player knows the rules).
        face_side, face_color, face_symbol, face_points: ``(F,)`` per face (colour -1 for wilds).
        face_wild, face_restricted: ``(F,) bool`` wild-type faces; restricted wild draw cards.
        face_draw: ``(F,)`` cards the victim draws (Wild Draw Colour: 0, see ``face_until``).
        face_until: ``(F,) bool`` Wild Draw Colour (draw until the colour).
        face_is_draw: ``(F,) bool`` any draw card.
        face_copies: ``(F,)`` cards of the deck showing the face on its side.
        face_color_onehot: ``(F, 8)`` float32 one-hot of the face colour (zero rows for wilds).
        action_kind, action_face, action_color, action_target: ``(A,)`` per action (-1: n/a).
        action_is_play: ``(A,) bool``; ``action_face0``: the face with -1 replaced by 0 (for gathers).
        action_color_after: ``(A,)`` colour active after a play (face colour, declared colour,
            ``FREE`` for Swap-in-turn; -1 for other actions).
        DRAW, KEEP, PASS, CHALLENGE, ACCEPT, UNO: action ids; ``catch_ids``, ``choose_ids``: arrays.
        slots: ``{name: slice}`` of the observation.
    """

    def __init__(self, game, observation: str | None = None):
        engine, observer = resolve(game)
        if observation is not None and observation != getattr(observer, "version", "v2"):
            from uno_env.core.observe import Observer
            observer = Observer(engine, observation)  # the layout read (v2 is the first part of v3)
        self.rules = engine.config
        self.P, self.F, self.A = engine.P, engine.F, engine.A
        self.two_sided = bool(engine.two_sided)
        self.backs = bool(getattr(observer, "backs", False))
        deck = engine.deck
        self.deck = deck
        fa = deck.face_arrays
        self.face_names = tuple(f.name for f in deck.faces)
        self.face_side = fa["side"].astype(np.int64)
        self.face_color = fa["color"].astype(np.int64)
        self.face_symbol = fa["symbol"].astype(np.int64)
        self.face_points = fa["points"].astype(np.float32)
        self.face_wild = fa["wild"].copy()
        self.face_restricted = fa["restricted"].copy()
        self.face_draw = fa["draw"].astype(np.float32)
        self.face_until = self.face_symbol == WILD_DRAW_COLOR
        self.face_is_draw = (self.face_draw > 0) | self.face_until
        self.face_skip = self.face_symbol == SKIP
        self.face_reverse = self.face_symbol == REVERSE
        self.face_skip_everyone = self.face_symbol == SKIP_EVERYONE
        self.face_flip = self.face_symbol == FLIP
        self.face_rotate = (self.face_symbol == SWAP_IN_TURN) | (self.rules.seven_o & (self.face_symbol == 0))
        self.face_targeted = (self.face_symbol == SWAP) | (self.rules.seven_o & (self.face_symbol == 7))
        self.face_number = self.face_symbol < 10
        self.face_draw_two = self.face_symbol == DRAW_TWO
        copies = np.zeros(self.F, np.float32)
        kf = deck.kind_faces  # (K, 2)
        for s in ((0, 1) if self.two_sided else (0,)):
            np.add.at(copies, kf[:, s], deck.kind_counts.astype(np.float32))
        self.face_copies = copies
        onehot = np.zeros((self.F, NUM_COLORS), np.float32)
        colored = self.face_color >= 0
        onehot[np.flatnonzero(colored), self.face_color[colored]] = 1
        self.face_color_onehot = onehot
        self.side_faces = np.stack([self.face_side == 0, self.face_side == 1])  # (2, F)
        self.side_colors = np.zeros((2, NUM_COLORS), bool)
        self.side_colors[0, :4] = True
        self.side_colors[1, 4:] = True
        # UNO Flip: expected active face of a card whose other (inactive) face is g, by the deck's
        # pairing: other_to_active[s] maps faces of side 1-s to faces of side s.
        if self.two_sided:
            m = np.zeros((2, self.F, self.F), np.float32)
            for s in (0, 1):
                np.add.at(m[s], (kf[:, 1 - s], kf[:, s]), deck.kind_counts.astype(np.float32))
                tot = m[s].sum(1, keepdims=True)
                m[s] = np.divide(m[s], tot, out=np.zeros_like(m[s]), where=tot > 0)
            self.other_to_active = m

        t = engine.actions
        self.action_names = t.names
        self.action_kind = t.kind.astype(np.int64)
        self.action_face = t.face.astype(np.int64)
        self.action_color = t.color.astype(np.int64)
        self.action_target = t.target.astype(np.int64)
        self.action_is_play = self.action_kind == PLAY
        self.action_face0 = np.maximum(self.action_face, 0)
        after = np.where(self.face_wild[self.action_face0], self.action_color, self.face_color[self.action_face0])
        after = np.where(self.face_symbol[self.action_face0] == SWAP_IN_TURN, FREE, after)
        self.action_color_after = np.where(self.action_is_play, after, -1)
        ids = {k: int(np.flatnonzero(self.action_kind == k)[0]) for k in (DRAW, KEEP, PASS, CHALLENGE, ACCEPT, UNO)}
        self.DRAW, self.KEEP, self.PASS = ids[DRAW], ids[KEEP], ids[PASS]
        self.CHALLENGE, self.ACCEPT, self.UNO = ids[CHALLENGE], ids[ACCEPT], ids[UNO]
        self.catch_ids = np.flatnonzero(self.action_kind == CATCH)
        self.choose_ids = np.flatnonzero(self.action_kind == CHOOSE)
        self.play_ids = np.flatnonzero(self.action_is_play)
        # per action, a (A, F) one-hot of the face played (zero rows for other actions)
        self.action_face_onehot = np.zeros((self.A, self.F), np.float32)
        self.action_face_onehot[self.play_ids, self.action_face[self.play_ids]] = 1
        # per action, the colour that is active after it, as a (A, 8) one-hot (zero rows otherwise)
        self.action_after_onehot = np.zeros((self.A, NUM_COLORS), np.float32)
        ca = self.action_color_after
        i = np.flatnonzero((ca >= 0) & (ca < NUM_COLORS))
        self.action_after_onehot[i, ca[i]] = 1
        self.choose_onehot = np.zeros((self.A, NUM_COLORS), np.float32)
        self.choose_onehot[self.choose_ids, self.action_color[self.choose_ids]] = 1

        self.slots = {s.name: slice(s.start, s.stop) for s in observer.spec}
        self.size = observer.size

    # ------------------------------------------------------------------ raw slices
    def get(self, obs: np.ndarray, name: str) -> np.ndarray:
        """``(B, size)`` the slice ``name`` of a batch of observations (a view)."""
        try:
            return obs[:, self.slots[name]]
        except KeyError:
            raise ValueError(f"no observation slice {name!r} in this configuration; slices are: "
                             f"{', '.join(self.slots)}") from None

    def seat(self, obs) -> np.ndarray:
        """``(B,)`` the observer's absolute seat."""
        return self.get(obs, "seat").argmax(1)

    def phase(self, obs) -> np.ndarray:
        """``(B,)`` the decision asked (``uno_env.core.state`` TURN ... OVER)."""
        return self.get(obs, "phase").argmax(1)

    def color(self, obs) -> np.ndarray:
        """``(B,)`` the active colour (0-7, ``FREE`` 8, ``NO_COLOR`` 9)."""
        return self.get(obs, "color").argmax(1)

    def drew(self, obs) -> np.ndarray:
        """``(B, P) bool`` per relative seat: it drew instead of playing and has not played since
        (public: the table saw it)."""
        d = self.get(obs, "drew_on")
        return d.reshape(d.shape[0], self.P, -1).any(2)

    def prev_color(self, obs) -> np.ndarray:
        """``(B,)`` the active colour before the top card was played (what a challenge tests)."""
        return self.get(obs, "prev_color").argmax(1)

    def top(self, obs) -> np.ndarray:
        """``(B,)`` the top card's active face."""
        return self.get(obs, "top").argmax(1)

    def direction(self, obs) -> np.ndarray:
        """``(B,)`` +1 (seat order) or -1."""
        return np.where(self.get(obs, "direction")[:, 0] < 0, -1, 1)

    def side(self, obs) -> np.ndarray:
        """``(B,)`` 0 light (always for one-sided decks), 1 dark."""
        if not self.two_sided:
            return np.zeros(obs.shape[0], np.int64)
        return (self.get(obs, "side")[:, 0] > 0.5).astype(np.int64)

    def hand(self, obs) -> np.ndarray:
        """``(B, F)`` copies of each face the observer holds (active side)."""
        return self.get(obs, "hand")

    def hand_sizes(self, obs) -> np.ndarray:
        """``(B, P)`` cards in each hand, relative seats."""
        return np.rint(self.get(obs, "hand_sizes") * 10).astype(np.int64)

    def pending(self, obs) -> tuple[np.ndarray, np.ndarray]:
        """``(B,)`` cards the victim of draw cards must take, ``(B,) bool`` draw-until-colour."""
        p = self.get(obs, "pending")
        return np.rint(p[:, 0] * 10).astype(np.int64), p[:, 1] > 0.5

    def played_by_rel(self, obs) -> np.ndarray:
        """``(B,)`` relative seat that played the top card."""
        return self.get(obs, "played_by").argmax(1)

    def turn_rel(self, obs) -> np.ndarray:
        """``(B,)`` relative seat whose decision follows an offer or a colour choice."""
        return self.get(obs, "turn").argmax(1)

    # ------------------------------------------------------------------ seats
    def next_rel(self, obs, k: int = 1) -> np.ndarray:
        """``(B,)`` relative position of the seat ``k`` steps on in the current direction."""
        return (k * self.direction(obs)) % self.P

    def rel_to_abs(self, obs, rel) -> np.ndarray:
        """Absolute seats of relative positions ``rel`` (``(B,)`` or ``(B, n)``)."""
        me = self.seat(obs)
        rel = np.asarray(rel)
        return (me.reshape(me.shape + (1,) * (rel.ndim - 1)) + rel) % self.P

    def abs_to_rel(self, obs, seats) -> np.ndarray:
        """Relative positions of absolute ``seats`` (``(B,)`` or ``(B, n)``)."""
        me = self.seat(obs)
        seats = np.asarray(seats)
        return (seats - me.reshape(me.shape + (1,) * (seats.ndim - 1))) % self.P

    def action_target_rel(self, obs) -> np.ndarray:
        """``(B, A)`` relative seat named by each action (targeted plays, catches); -1 elsewhere."""
        me = self.seat(obs)[:, None]
        t = self.action_target[None, :]
        return np.where(t >= 0, (t - me) % self.P, -1)

    # ------------------------------------------------------------------ derived counts
    def color_counts(self, counts: np.ndarray) -> np.ndarray:
        """``(B, 8)`` cards of each colour in ``counts`` ``(B, F)`` (wilds not counted)."""
        return counts @ self.face_color_onehot

    def unseen(self, obs) -> np.ndarray:
        """``(B, F)`` copies of each active face the observer cannot see (opponents' hands and the
        draw pile): the deck's copies less the own hand and the discard pile."""
        side_mask = self.side_faces[self.side(obs)]
        u = self.face_copies[None, :] - self.hand(obs) - self.get(obs, "discard")
        return np.maximum(u, 0) * side_mask

    def opponents_active(self, obs, rel=None) -> np.ndarray | None:
        """UNO Flip with visible backs: ``(B, P-1, F)`` expected copies of each active face in the
        hands of relative seats 1..P-1, inferred from the faces their backs show (the deck's pairing
        as prior); with ``rel`` ``(B,)`` only that seat's ``(B, F)``.  ``None`` without visible backs."""
        if not self.backs:
            return None
        B = obs.shape[0]
        backs = self.get(obs, "opponent_backs").reshape(B, self.P - 1, self.F)
        if rel is not None:
            backs = backs[np.arange(B), np.maximum(np.asarray(rel) - 1, 0)]
        side = self.side(obs)
        out = np.empty_like(backs)
        for s in (0, 1):
            i = np.flatnonzero(side == s)
            if i.size:
                out[i] = backs[i] @ self.other_to_active[s]
        return out

__all__ = ["NUM_COLORS", "FREE", "NO_COLOR", "ObsView", "resolve"]
