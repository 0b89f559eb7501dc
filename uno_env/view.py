"""What one seat may see of a game (rules §1.10), as a plain JSON-serialisable dict: ``seat_view``.

Every screen draws this view and nothing else: the text and SVG drawings (``uno_env.render``), a
``Table``'s events and notebook display (``uno_env.table``), the terminal game, the replay page and the web
app (``uno_apps``).  So a seat's screen cannot show a card its seat may not see: its own hand by active
faces, the others' hand sizes (and, in UNO Flip, the backs of their cards and of the draw pile's top card),
the public table; a decision of another seat that only a hand it may not see can explain shows as if
already declined (``public_turn``, the rule ``core.observe.public_decision`` that the observation follows).
"""

from __future__ import annotations

import numpy as np

from .core.game import VecGame
from .core.notation import color_text
from .core.observe import public_decision
from .core.state import DRAWN, OVER, PHASE_NAMES, State


def seat_view(game: VecGame, viewer: int | None = None, names=None, row: int = 0, state: State | None = None) -> dict:
    """What ``viewer`` may see of game ``row`` (rules §1.10), JSON-serialisable; ``None``: everything.

    Cards are face ids (``game.engine.deck.faces``).  ``cards`` of a seat are its hand's active faces,
    given for the viewer's own seat (every seat for a spectator, and every seat once the round is over:
    hands are laid down to be scored); ``backs`` are the inactive faces of a hand, given in UNO Flip to the
    other seats only (``flip_back_faces_visible``).  ``actor`` and ``phase`` are the seat asked and its
    decision, except that a seat not asked sees a hidden decision as ``public_turn`` shows it.  ``state``: a
    stored copy of the game (an event's)."""
    e, st = game.engine, (game.state if state is None else state)
    P = e.P
    if viewer is not None and not 0 <= viewer < P:
        raise ValueError(f"viewer must be None or a seat from 0 to {P - 1}, got {viewer!r}")
    names = list(names) if names is not None else [f"player_{p}" for p in range(P)]
    side = int(st.side[row])
    over = bool(st.phase[row] == OVER)
    backs_on = e.two_sided and e.config.flip_back_faces_visible
    seats = []
    for p in range(P):
        kinds = np.repeat(np.arange(e.K), st.hands[row, p])
        faces = e.KF[side, kinds]
        seat = {"seat": p, "name": names[p], "count": int(st.hand_n[row, p]), "score": int(st.scores[row, p]),
                "vulnerable": bool(st.vulnerable[row, p]), "dealer": bool(st.dealer[row] == p),
                "cards": None, "backs": None}
        if viewer is None or viewer == p or over:
            seat["cards"] = sorted(int(f) for f in faces)
        if e.two_sided and ((viewer is None and not over) or (backs_on and viewer is not None and viewer != p
                                                              and not over)):
            seat["backs"] = sorted(int(f) for f in e.KF[1 - side, kinds])
        seats.append(seat)
    asked = -1 if over else int(st.actor[row])
    actor, phase = (asked, int(st.phase[row])) if viewer is None or viewer == asked else \
        public_turn(e, st, row, viewer)
    draw_n = int(st.draw_n[row])
    top_back = None
    if e.two_sided and draw_n and (viewer is None or backs_on):
        top_back = int(e.KF[1 - side, int(st.draw[row, draw_n - 1])])
    view = {
        "rules": game.rules.name, "players": P, "viewer": viewer, "two_sided": bool(e.two_sided),
        "side": ("dark" if side else "light") if e.two_sided else None,
        "top": int(e.KF[side, int(st.discard[row, st.disc_n[row] - 1])]),
        "color": color_text(int(st.color[row])), "direction": int(st.direction[row]),
        "draw_n": draw_n, "discard_n": int(st.disc_n[row]), "draw_top_back": top_back,
        "pending": int(st.pending[row]), "pending_color": bool(st.pending_color[row]),
        "phase": PHASE_NAMES[phase], "actor": actor, "seats": seats,
        "turns": int(st.turn_count[row]) if viewer is None else None,  # it counts hidden decisions too
        "round": int(st.rounds[row]) + (0 if over else 1),
        "over": over, "legal": [], "scoring": e.config.scoring_mode,
    }
    if viewer is None or viewer == asked:
        view["legal"] = [] if over else [e.actions.names[j] for j in np.flatnonzero(st.mask[row])]
        d = int(st.drawn[row])
        view["drawn"] = int(e.KF[side, d]) if d >= 0 and st.phase[row] == DRAWN else None
    if over:
        w = int(st.winner[row])
        view.update(winner=w, round_points=int(st.round_points[row]), truncated=bool(st.truncated[row]),
                    game_over=bool(st.game_over[row]),
                    game_winners=[int(p) for p in np.flatnonzero(e.game_winners(st, np.array([row]))[0])]
                    if st.game_over[row] else [])
    return view


def public_turn(e, st: State, row: int = 0, viewer: int | None = None) -> tuple[int, int]:
    """``(seat, phase)`` to move as ``viewer``, a seat that is not asked, sees it (rules §1.10; the rule is
    ``core.observe.public_decision``, which the observation follows too): a decision that only a hand it may
    not see can explain shows as if already declined."""
    if int(st.phase[row]) == OVER:
        return -1, OVER
    who, phase, _ = public_decision(e, st, np.array([row]), np.array([-1 if viewer is None else viewer]))
    return int(who[0]), int(phase[0])


__all__ = ["public_turn", "seat_view"]
