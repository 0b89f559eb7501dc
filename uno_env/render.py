"""Text rendering of a table: coloured cards (ANSI), whose turn it is and the last moves.

In UNO Flip both faces are shown, the active face in its colour and the other dimmed; the side in
play is named.  ``render_table`` shows every hand by default (a spectator's view) or only ``viewer``'s.
"""

from __future__ import annotations

import numpy as np

from .core.cards import COLOR_NAMES
from .core.notation import color_text
from .core.state import OVER, PHASE_NAMES

_ANSI = {"R": "31", "Y": "33", "G": "32", "B": "34", "P": "95", "T": "36", "O": "38;5;208", "U": "35"}
_DIM, _BOLD, _RESET = "\x1b[2m", "\x1b[1m", "\x1b[0m"


def paint(text: str, color_letter: str | None, ansi: bool = True, dim: bool = False) -> str:
    if not ansi:
        return text
    code = _ANSI.get(color_letter or "", "97")
    return f"\x1b[{code}m{_DIM if dim else ''}{text}{_RESET}"


def face_text(engine, face: int, ansi: bool = True, dim: bool = False) -> str:
    f = engine.deck.faces[face]
    letter = f.name[0] if f.color >= 0 else None
    return paint(f.name, letter, ansi, dim)


def card_text(engine, kind: int, side: int, ansi: bool = True) -> str:
    """A card by its active face; UNO Flip shows ``active/other`` with the other face dimmed."""
    active = face_text(engine, int(engine.KF[side, kind]), ansi)
    if not engine.two_sided:
        return active
    other = face_text(engine, int(engine.KF[1 - side, kind]), ansi, dim=True)
    return f"{active}/{other}" if side == 0 else f"{other}/{active}"


def hand_text(engine, counts: np.ndarray, side: int, ansi: bool = True) -> str:
    kinds = np.repeat(np.arange(len(counts)), counts)
    order = np.argsort(engine.KF[side, kinds], kind="stable")
    return " ".join(card_text(engine, int(k), side, ansi) for k in kinds[order]) or "-"


def render_table(game, row: int = 0, viewer: int | None = None, history=(), ansi: bool = True,
                 seat_names=None) -> str:
    """The table of game ``row`` as text.

    Args:
        game: a ``VecGame``.
        viewer: show only this seat's hand (others by size); ``None`` shows every hand.
        history: recent moves as ``(seat, action name)`` pairs, oldest first.
        seat_names: optional display names per seat.
    """
    e, st = game.engine, game.state
    side = int(st.side[row])
    P = e.P
    names = seat_names or [f"player_{p}" for p in range(P)]
    top = card_text(e, int(st.discard[row, st.disc_n[row] - 1]), side, ansi)
    col = color_text(int(st.color[row]))
    col_txt = {"free": "any (free)", None: "to be chosen"}.get(col) or paint(
        COLOR_NAMES["RYGBPTOU".index(col)], col, ansi)
    over = st.phase[row] == OVER
    side_txt = f" - {'dark' if side else 'light'} side" if e.two_sided else ""
    direction = "clockwise" if st.direction[row] > 0 else "counter-clockwise"
    bold, reset = (_BOLD, _RESET) if ansi else ("", "")
    lines = [f"{bold}{game.rules.name} - {P} players{side_txt}{reset}",
             f"top: {top}   colour: {col_txt}   direction: {direction}"
             f"   draw pile: {int(st.draw_n[row])}   discard: {int(st.disc_n[row])}"]
    if st.pending[row] or st.pending_color[row]:
        lines.append(f"pending penalty: {int(st.pending[row])}"
                     f"{' + draw until ' + str(col) if st.pending_color[row] else ''}")
    for p in range(P):
        marker = "->" if (not over and st.actor[row] == p) else "  "
        vul = " (can be caught: no UNO!)" if st.vulnerable[row, p] else ""
        dealer = " [dealer]" if st.dealer[row] == p else ""
        if viewer is None or viewer == p:
            cards = hand_text(e, st.hands[row, p], side, ansi)
        else:
            backs = ""
            if e.two_sided:  # opponents see the other side of a player's cards
                other = 1 - side
                kinds = np.repeat(np.arange(e.K), st.hands[row, p])
                backs = "  backs: " + " ".join(face_text(e, int(e.KF[other, k]), ansi, dim=True) for k in kinds)
            cards = f"{int(st.hand_n[row, p])} cards{backs}"
        lines.append(f"{marker} {names[p]:<10} score {int(st.scores[row, p]):>5}  {cards}{vul}{dealer}")
    if history:
        lines.append("last moves: " + "; ".join(f"{names[s]} {a}" for s, a in list(history)[-8:]))
    if over:
        w = int(st.winner[row])
        result = f"{names[w]} wins {int(st.round_points[row])} points" if w >= 0 else "void"
        lines.append(f"round over: {result}{' - game over' if st.game_over[row] else ''}")
    else:
        lines.append(f"{names[int(st.actor[row])]} to act ({PHASE_NAMES[int(st.phase[row])]})")
    return "\n".join(lines)
