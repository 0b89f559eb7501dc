"""The colour symmetry of UNO: relabelling the four colours of a deck maps a game onto another game.

The rules treat the colours of a one-sided deck alike (every colour has the same cards, and no rule names
a colour), so renaming them, red to green and so on, maps every position onto a position of equal value,
every legal action onto a legal action, and every observation onto the observation of the renamed game.
``ColourMaps`` computes those maps as index arrays for one configuration: for a colour permutation ``pi``,
``obs[:, maps.obs[i]]`` is the observation of the renamed game and ``probs_renamed[:, maps.act[i]]`` puts
the renamed game's action probabilities back on the original actions.  ``tests/test_symmetry.py`` plays
random games side by side with their renamed twins and checks both maps at every step.

A trained network is only nearly equivariant: it answers the renamed positions slightly differently, and
those differences behave much like the partly independent mistakes of policies trained apart.
``ColourAveraged`` plays the mean of a policy's probabilities over the renamings (test-time augmentation),
an ensemble of one network that costs no training: both shipped agents play so (their exports say
``"play": "colour_average"``), 0.4 to 0.8 points stronger against ``heuristic`` than their networks alone
(docs/training.md), at 24 forward passes a decision.
"""

from __future__ import annotations

import itertools

import numpy as np

from uno_env.core.cards import NUM_COLOR_STATES

from .base import check_batch, check_width, choose


class ColourMaps:
    """Index maps of the colour permutations of one game configuration (a ``VecGame``'s engine and observer).

    Attributes:
        perms: ``(n, C)`` the permutations, ``perms[i][c]`` the colour that colour ``c`` becomes; the first is
            the identity.
        obs: ``(n, D)`` ``obs[:, self.obs[i]]`` is the observation of the game renamed by ``perms[i]``.
        act: ``(n, A)`` action ``a`` of the original game is action ``act[i, a]`` of the renamed one, so the
            renamed game's mask or probabilities ``x`` read ``x[:, act[i]]`` on the original actions.
    """

    def __init__(self, game, perms=None):
        engine, observer = game.engine, game.observer
        deck, table = engine.deck, engine.actions
        if deck.two_sided:
            raise ValueError(f"colour symmetry is defined for one-sided decks; {deck.name!r} is two-sided "
                             f"(UNO Flip pairs its light and dark colours)")
        colors = sorted({f.color for f in deck.faces if f.color >= 0})
        C = len(colors)
        if colors != list(range(C)):
            raise ValueError(f"expected the deck's colours to be 0..{C - 1}, got {colors}")
        counts = {(f.color, f.symbol, f.points): 0 for f in deck.faces}
        for k, n in enumerate(deck.kind_counts):
            f = deck.faces[int(deck.kind_faces[k, 0])]
            counts[(f.color, f.symbol, f.points)] += int(n)
        for f in deck.faces:
            if f.color >= 0 and any(counts.get((c, f.symbol, f.points)) != counts[(f.color, f.symbol, f.points)]
                                    for c in colors):
                raise ValueError(f"deck {deck.name!r} does not hold the same cards in every colour "
                                 f"({f.name!r}): renaming its colours changes the game")
        perms = np.array(list(itertools.permutations(range(C))) if perms is None else perms, dtype=np.intp)
        if perms.ndim != 2 or perms.shape[1] != C or any(sorted(p) != list(range(C)) for p in perms.tolist()):
            raise ValueError(f"perms must be permutations of the {C} colours, got {perms.tolist()}")
        self.perms = perms
        self.C = C
        face_of = {(f.color, f.symbol, f.points): i for i, f in enumerate(deck.faces)}
        F, A = len(deck.faces), table.size
        self.obs = np.stack([self._obs_map(observer, engine.P, p, F, face_of, deck) for p in perms])
        key = {(int(table.kind[a]), int(table.face[a]), int(table.color[a]), int(table.target[a])): a
               for a in range(A)}
        self.act = np.stack([[key[(int(table.kind[a]), self._face(p, int(table.face[a]), face_of, deck),
                                   self._color(p, int(table.color[a])), int(table.target[a]))]
                              for a in range(A)] for p in perms]).astype(np.intp)

    def _color(self, p, c: int) -> int:
        return int(p[c]) if 0 <= c < self.C else c

    def _face(self, p, f: int, face_of, deck) -> int:
        if f < 0:
            return f
        face = deck.faces[f]
        return face_of[(self._color(p, face.color), face.symbol, face.points)]

    def _obs_map(self, observer, P, p, F, face_of, deck) -> np.ndarray:
        """``src``: entry ``j`` of the renamed observation is entry ``src[j]`` of the original one."""
        C = self.C
        inv = np.argsort(p)  # the colour that becomes colour c
        inv_face = np.array([self._face(inv, f, face_of, deck) for f in range(F)])
        color10 = np.r_[inv, np.arange(C, NUM_COLOR_STATES)]  # 8 colour places, FREE, NO_COLOR: the deck's move
        color_c1 = np.r_[inv, C]  # the deck's colours, then wild
        src = np.arange(observer.size)
        for slot in observer.spec:
            n = slot.stop - slot.start
            if slot.name in _SAME:
                continue
            if slot.name in _FACES:
                block = inv_face
            elif slot.name in _COLOR10:
                block = color10
            elif slot.name in _COLORS:
                block = inv
            elif slot.name == "last_play":
                block = color_c1
            elif slot.name == "played":  # colour+wild | number+actions | declared colours (core.memory tally)
                T = n // P
                block = np.r_[inv, np.arange(C, T - C), T - C + inv]
            elif slot.name == "recent":  # per play: seat | face | colour declared
                block = np.r_[np.arange(P), P + inv_face, P + F + inv]
            else:
                raise ValueError(f"observation slice {slot.name!r} has no colour mapping; add it to "
                                 f"agents.symmetry before averaging over colours")
            if n % block.size:
                raise ValueError(f"observation slice {slot.name!r} has {n} entries, not a multiple of {block.size}")
            reps = n // block.size
            src[slot.start:slot.stop] = slot.start + (np.arange(reps)[:, None] * block.size + block[None, :]).ravel()
        return src


_SAME = {"seat", "direction", "phase", "acting", "turn", "played_by", "pending", "challengeable", "declared",
         "hand_sizes", "vulnerable", "draw_pile", "scores", "side", "drawn_since", "last_how"}
_FACES = {"hand", "top", "drawn", "discard", "known", "unseen"}
_COLOR10 = {"color", "prev_color", "drew_on", "lacks", "last_from", "held"}
_COLORS = {"lacked", "declared_last"}


class ColourAveraged:
    """Plays the legal action with the highest mean probability of ``policy`` over colour renamings.

    Args:
        policy: a trained policy with ``probabilities(observations, action_masks)`` (``PolicyAgent``).
        game: the ``VecGame`` it plays (for the layouts of its observation and actions).
        perms: the colour permutations to average over (default: all of them, 24 for four colours).
    """

    def __init__(self, policy, game, perms=None, name: str | None = None, deterministic: bool = True):
        if not callable(getattr(policy, "probabilities", None)):
            raise ValueError(f"colour averaging needs a policy's action probabilities; "
                             f"{getattr(policy, 'name', policy)!r} gives none")
        self.policy = policy
        self.maps = ColourMaps(game, perms)
        self._back = np.argsort(self.maps.act, axis=1)  # renamed action -> original action
        self.name = name or f"{policy.name}~colours"
        self.deterministic = deterministic
        self.observation = getattr(policy, "observation", None)
        self.meta = {**(getattr(policy, "meta", None) or {}), "colour_renamings": len(self.maps.perms)}

    def probabilities(self, observations, action_masks) -> np.ndarray:
        obs, mask = check_batch(observations, action_masks)
        check_width(self.name, obs, self.maps.obs.shape[1], mask, self.maps.act.shape[1])  # the game it was built for
        n, B = len(self.maps.perms), obs.shape[0]
        renamed = obs[:, self.maps.obs].transpose(1, 0, 2).reshape(n * B, -1)  # renaming-major, (n * B, D)
        renamed_mask = mask[:, self._back].transpose(1, 0, 2).reshape(n * B, -1)
        probs = self.policy.probabilities(renamed, renamed_mask).reshape(n, B, -1).astype(np.float64)
        total = np.take_along_axis(probs, self.maps.act[:, None, :], axis=2).mean(0)  # back on the actions
        return np.where(mask, total, 0.0)

    def act(self, observations, action_masks, rng=None) -> np.ndarray:
        obs, mask = check_batch(observations, action_masks)
        return choose(self.probabilities(obs, mask), mask, self.deterministic, rng)
