"""What the web table says in words: each move's label (a colour for a wild, what a challenge risks), what
score ends the game, and the public view a spectator gets.

The engine names actions by code (``play W+4 R``, ``challenge``, ``catch @2``); a person wants "red",
"challenge heuristic_3's W+4: if they were bluffing they draw 4, otherwise you draw 6".  The stakes come
from the rules in play (``challenge_guilty``, ``challenge_extra``) and the penalty on the table, so they
are right in every preset.
"""

from __future__ import annotations

import numpy as np

from uno_env.core.actions import ACCEPT, CATCH, CHALLENGE, CHOOSE, DRAW, KEEP, PASS, PLAY, UNO
from uno_env.core.cards import COLOR_NAMES
from uno_env.core.state import DEFLECT, JUMP, OVER, PENDING, PHASE_NAMES, State
from uno_env.render import plural
from uno_env.table import Table
from uno_env.view import public_turn

PUBLIC = -1  # a viewer that is no seat: ``Event.text(PUBLIC)`` names only cards every seat has seen


def _owed(n: int, until: bool, colour: int, extra: int = 0) -> str:
    """``4``, ``until a green card``, ``until a teal card, then 2 more``."""
    if not until:
        return str(n + extra)
    text = (f"{n}, then " if n else "") + f"until a {COLOR_NAMES[colour]} card"
    return text + (f", then {extra} more" if extra else "")


def penalty_words(table: Table, st: State | None = None) -> tuple[str, str]:
    """What the seat asked risks in a draw penalty: ``(if it accepts, if it challenges)``, as
    ``("draw 4 cards", "if they were bluffing they draw 4, otherwise you draw 6")``; ``st``: another state of
    the table's game (default: the one in play)."""
    st = table.state if st is None else st
    c = table.engine.config
    n, until, colour = int(st.pending[0]), bool(st.pending_color[0]), int(st.color[0])
    accept = "draw " + (plural(n, "card") if not until else _owed(n, True, colour))
    if c.challenge_guilty == "retract_and_draw_2":
        bluff = f"they take the card back and draw {2 + int(st.prev_pending[0])}"
    else:
        bluff = f"they draw {_owed(n, until, colour)}"
    return accept, f"if they were bluffing {bluff}, otherwise you draw {_owed(n, until, colour, c.challenge_extra)}"


def moves(table: Table, seat: int, st: State | None = None) -> list[dict]:
    """The legal moves of ``seat`` (none when it is not asked), each ``{"action", "label", "face",
    "colour"}``: ``face`` is the card a play puts down (the page offers those by clicking the card, and a
    card with several moves, a wild, asks which: ``label`` is then the colour or the seat aimed at).
    ``st``: another state of the table's game (default: the one in play)."""
    st = table.state if st is None else st
    if int(st.phase[0]) == OVER or int(st.actor[0]) != seat:
        return []
    e = table.engine
    act, names, phase = e.actions, table.names, int(st.phase[0])
    out = []
    for name in (act.names[j] for j in np.flatnonzero(st.mask[0])):
        a = act.index[name]
        kind, face, col, target = int(act.kind[a]), int(act.face[a]), int(act.color[a]), int(act.target[a])
        wild = kind == CHOOSE or (kind == PLAY and bool(e.F_WILD[face]))
        colour = COLOR_NAMES[col] if wild and 0 <= col < len(COLOR_NAMES) else None
        if kind == PLAY:
            label = colour or (f"swap hands with {names[target]}" if target >= 0 else f"play {e.deck.faces[face].name}")
        elif kind == CHOOSE:
            label = colour
        elif kind == DRAW:
            label = f"take the penalty: {penalty_words(table, st)[0]}" if phase == PENDING else "draw a card"
        elif kind == KEEP:
            label = "keep the card drawn"
        elif kind == PASS:
            label = {JUMP: "do not jump in", DEFLECT: "take the skip"}.get(phase, "pass")
        elif kind == CHALLENGE:
            o = int(st.origin[0])
            top = e.deck.faces[int(e.KF[int(st.side[0]), int(st.discard[0, st.disc_n[0] - 1])])].name
            label = f"challenge {names[o]}'s {top}: {penalty_words(table, st)[1]}"
        elif kind == ACCEPT:
            label = f"accept: {penalty_words(table, st)[0]}"
        elif kind == UNO:
            label = "call UNO"
        elif kind == CATCH:
            label = f"catch {names[target]} without UNO"
        else:
            label = name
        out.append({"action": name, "label": label, "face": face if kind == PLAY else None, "colour": colour})
    return out


def public_view(table: Table) -> dict:
    """What every seat can see, for a spectator: hand sizes, not hands (until they are laid down at the
    round's end), and no backs of any hand (a seat never sees its own backs: a spectator link opened by
    a player must not show them); the draw pile's top back only where every seat sees it; and the seat
    asked as the table sees it: a decision that only a hand explains (a playable card drawn, a jump-in, a
    Skip to pass on) shows as if declined, as it does to every seat not asked (``view.public_turn``)."""
    e, st = table.engine, table.state
    view = table.view(None)
    over = view["over"]
    for s in view["seats"]:
        s["backs"] = None
        if not over:
            s["cards"] = None
    if not (e.two_sided and e.config.flip_back_faces_visible):
        view["draw_top_back"] = None
    actor, phase = public_turn(e, st, 0, None)
    view.update(viewer=None, legal=[], turns=None, actor=actor, phase=PHASE_NAMES[phase])
    view.pop("drawn", None)
    return view


def goal_words(config) -> str:
    """What ends the game and who wins it, from the rules in play: ``"first to 500 points"``..."""
    mode = config.scoring_mode
    if mode == "winner_takes_sum":
        return f"the game ends when a seat reaches {config.target} points; the highest score wins"
    if mode == "cumulative_low":
        return f"the game ends when a seat reaches {config.target} points; the lowest score wins"
    if mode == "plus_minus":
        return f"the game lasts {plural(config.max_rounds, 'round')}; the highest score wins"
    return (f"every seat starts with {config.starting_points} points and loses its hand's points when another "
            f"goes out; the game ends when a seat drops below 0, and the highest score wins")


__all__ = ["PUBLIC", "goal_words", "moves", "penalty_words", "public_view"]
