"""Drawing a table: as text (ANSI colours or plain) for the terminal, as SVG cards for pages and notebooks.

Everything here draws a *view* (``view.seat_view``: what one seat may see, rules §1.10), never the
game itself, so a seat's screen cannot show a card its seat may not see.  In UNO Flip a player sees the
active faces of their own cards and, on the other seats' cards, the backs (the other side), dimmed;
never the backs of their own cards.

``LEGEND`` explains the card and action codes (shown by ``?`` in ``uno play``; docs/notation.md#legend
says the same, and tests/test_play.py keeps the two in agreement).
"""

from __future__ import annotations

import html

from .core.cards import COLOR_LETTERS, COLOR_NAMES
from .view import seat_view

_ANSI = {"R": "31", "Y": "33", "G": "32", "B": "34", "P": "95", "T": "36", "O": "38;5;208", "U": "35"}
_DIM, _BOLD, _RESET = "\x1b[2m", "\x1b[1m", "\x1b[0m"
NAME_WIDTH = 14  # longer names are cut to this width, so the columns stay put

#: (code, meaning) of every card symbol; a card is a colour letter and a symbol (a wild: the symbol alone)
LEGEND_SYMBOLS = (
    ("0-9", "a number card"),
    ("S", "Skip: the next seat loses its turn"),
    ("R", "Reverse: play changes direction (a Skip with two players)"),
    ("+2", "Draw Two (SOLO: Take Two)"),
    ("X", "Swap: exchange hands with a seat the player chooses (SOLO)"),
    ("+1", "Draw One (UNO Flip, light side)"),
    ("F", "Flip: every card turns to its other side (UNO Flip)"),
    ("+5", "Draw Five (UNO Flip, dark side)"),
    ("SE", "Skip Everyone: the player moves again (UNO Flip, dark side)"),
    ("W", "Wild: choose the colour"),
    ("W+4", "Wild Draw Four (SOLO: Take Four + Wild)"),
    ("WX", "Swap in turn: every hand passes one seat on, then any card may follow (SOLO)"),
    ("W+2", "Wild Draw Two (UNO Flip, light side)"),
    ("W+C", "Wild Draw Colour: draw until a card of the declared colour (UNO Flip, dark side)"),
)
LEGEND_ACTIONS = (
    ("play R5", "play a card"),
    ("play W G", "play a wild and choose its colour (here green)"),
    ("play RX @2", "play a card aimed at seat 2 (Swap; a 7 under Seven-O)"),
    ("draw", "draw a card, or take the penalty you face"),
    ("keep", "keep the card you drew"),
    ("pass", "let a jump-in or a Skip go by"),
    ("challenge / accept", "challenge the wild draw card played on you, or take it"),
    ("uno", "call UNO before playing your second-to-last card"),
    ("catch @3", "catch seat 3, who did not call UNO: they draw the penalty"),
    ("choose P", "choose the colour of a wild turned up by a deal or a flip"),
)


def _legend() -> str:
    colours = "  ".join(f"{c} {n}" for c, n in zip(COLOR_LETTERS, COLOR_NAMES))
    w = max(len(c) for c, _ in LEGEND_SYMBOLS + LEGEND_ACTIONS)
    return "\n".join(
        ["Card codes: a colour letter, then a symbol (a wild has no colour letter): RS is the red Skip, RR the red "
         "Reverse.", f"  colours: {colours}", "  (P pink, T teal, O orange, U purple: the dark side of UNO Flip)"]
        + [f"  {c:<{w}}  {m}" for c, m in LEGEND_SYMBOLS]
        + ["Actions:"] + [f"  {c:<{w}}  {m}" for c, m in LEGEND_ACTIONS]
        + ["Seats are numbered from 0; @k names seat k."])


LEGEND = _legend()


# ====================================================================== text
def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def paint(text: str, color_letter: str | None, ansi: bool = True, dim: bool = False) -> str:
    if not ansi:
        return text
    code = _ANSI.get(color_letter or "", "97")
    return f"\x1b[{code}m{_DIM if dim else ''}{text}{_RESET}"


def face_text(deck, face: int, ansi: bool = True, dim: bool = False) -> str:
    f = deck.faces[face]
    return paint(f.name, f.name[0] if f.color >= 0 else None, ansi, dim)


def cards_text(deck, faces, ansi: bool = True, dim: bool = False) -> str:
    return " ".join(face_text(deck, int(f), ansi, dim) for f in faces)


def fit(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` padded or cut to ``width`` characters; a cut keeps the end, where the seat number is, so
    ``ppo-standard_en-4p_1`` and ``ppo-standard_en-4p_2`` stay apart."""
    return name.ljust(width) if len(name) <= width else name[: width - 5] + "…" + name[-4:]


def view_text(view: dict, deck, ansi: bool = True, events=(), names=None) -> str:
    """A view (``view.seat_view``) as lines of text; ``events``: lines to print under the table."""
    bold, reset = (_BOLD, _RESET) if ansi else ("", "")
    seats = view["seats"]
    names = names or [s["name"] for s in seats]
    me = view["viewer"]
    width = min(max(len(n) for n in names), NAME_WIDTH)
    side = f" - {view['side']} side" if view["two_sided"] else ""
    col = view["color"]
    col_txt = {"free": "any (free)", None: "to be chosen"}.get(col) or paint(
        COLOR_NAMES[COLOR_LETTERS.index(col)], col, ansi)
    omniscient = " - omniscient view: every hand shown" if me is None and not view["over"] else ""
    lines = [f"{bold}{view['rules']} - {view['players']} players - round {view['round']}{side}{omniscient}{reset}",
             f"top: {face_text(deck, view['top'], ansi)}   colour: {col_txt}   direction: "
             f"{'clockwise' if view['direction'] > 0 else 'counter-clockwise'}   draw pile: {view['draw_n']}"
             + (f" (top shows {face_text(deck, view['draw_top_back'], ansi, dim=True)})"
                if view.get("draw_top_back") is not None else "")]
    if view["pending"] or view["pending_color"]:
        who = "you" if view["actor"] == me and me is not None else names[view["actor"]]
        owe = plural(view["pending"], "card")
        if view["pending_color"]:
            owe = (owe + " and " if view["pending"] else "") + "cards until the colour shows"
        lines.append(f"penalty: {who} must draw {owe}")
    for s in seats:
        p = s["seat"]
        marker = "->" if p == view["actor"] else "  "
        tags = (" [dealer]" if s["dealer"] else "") + (" (one card, no UNO called: can be caught)"
                                                         if s["vulnerable"] else "")
        if s["cards"] is not None:
            cards = f"{plural(s['count'], 'card'):>8}  {cards_text(deck, s['cards'], ansi)}"
        else:
            cards = f"{plural(s['count'], 'card'):>8}"
        if s["backs"] is not None:
            cards += f"  (backs: {cards_text(deck, s['backs'], ansi, dim=True)})"
        who = names[p] + (" (you)" if p == me and names[p] != "you" else "")
        lines.append(f"{marker} {fit(who, max(width, len(who) if p == me else 0))}  score {s['score']:>5}  "
                     f"{cards}{tags}")
    lines += list(events)
    if view["over"]:
        lines.append(result_text(view, names))
    elif view["actor"] >= 0:
        who = "you" if view["actor"] == me else names[view["actor"]]
        lines.append(f"{who} to act ({view['phase'].replace('_', ' ')})")
    return "\n".join(lines)


def result_text(view: dict, names) -> str:
    w = view["winner"]
    if w < 0:
        head = "round over: void, nobody scores"
    else:
        how = "stopped at the turn cap; lowest hand: " if view["truncated"] else ""
        who = "you take" if w == view["viewer"] or names[w] == "you" else f"{names[w]} takes"
        head = f"round over: {how}{who} the round"
    return head + (" - game over" if view["game_over"] else "")


def standings_text(view: dict, scoring: str, names=None) -> str:
    """The seats ranked by game score (lowest first under ``cumulative_low``)."""
    names = names or [s["name"] for s in view["seats"]]
    scores = [s["score"] for s in view["seats"]]
    order = sorted(range(len(scores)), key=lambda p: scores[p] if scoring == "cumulative_low" else -scores[p])
    width = min(max(len(n) for n in names), NAME_WIDTH)
    lines, rank = ["standings:"], 0
    for i, p in enumerate(order):
        if i == 0 or scores[p] != scores[order[i - 1]]:
            rank = i + 1
        lines.append(f"  {rank:>2}. {fit(names[p], width)}  {scores[p]:>6}")
    return "\n".join(lines)


def render_table(game, row: int = 0, viewer: int | None = None, history=(), ansi: bool = True,
                 seat_names=None) -> str:
    """The table of game ``row`` of a ``VecGame`` as text, as ``viewer`` sees it (``None``: every hand).

    ``history``: recent moves, ``(seat, action name)`` pairs (the last 8 are listed) or ``table.Event``s
    (said in words for ``viewer``)."""
    view = seat_view(game, viewer, seat_names, row)
    lines = []
    hist = list(history)
    if hist and hasattr(hist[0], "text"):
        lines = [text for ev in hist if (text := ev.text(viewer))]  # "": nothing this viewer may know
    elif hist:
        names = [s["name"] for s in view["seats"]]
        lines = ["last moves: " + "; ".join(f"{names[s]} {a}" for s, a in hist[-8:])]
    return view_text(view, game.engine.deck, ansi, events=lines)


# ====================================================================== SVG cards and HTML
CARD_COLORS = {"R": "#d62828", "Y": "#e9b10b", "G": "#2a9d4b", "B": "#1f6fd1",
               "P": "#e0529c", "T": "#129c9c", "O": "#ee7b11", "U": "#7a3db3"}


def card_svg(deck, face: int | None, width: int = 44, dim: bool = False) -> str:
    """One card as an inline SVG: its colour, its code in the middle; ``face=None`` draws a card's back."""
    h = int(width * 1.5)
    if face is None:
        return (f'<svg class="card back" width="{width}" height="{h}" viewBox="0 0 40 60" role="img" '
                f'aria-label="card back"><rect x="1" y="1" width="38" height="58" rx="5" fill="#222" '
                f'stroke="#fff" stroke-width="1.5"/><ellipse cx="20" cy="30" rx="14" ry="22" fill="#c62828" '
                f'transform="rotate(20 20 30)"/><text x="20" y="34" font-size="10" font-weight="bold" '
                f'text-anchor="middle" fill="#ffd600" font-family="sans-serif">UNO</text></svg>')
    f = deck.faces[face]
    fill = CARD_COLORS.get(f.name[0], "#222") if f.color >= 0 else "#222"
    label = f.name[1:] if f.color >= 0 else f.name
    size = 15 if len(label) <= 1 else 12 if len(label) == 2 else 9
    ink = fill if f.color >= 0 else "#222"
    wild = ""
    if f.color < 0:  # a wild: the four colours of its side in the oval
        cs = COLOR_LETTERS[4:] if f.side else COLOR_LETTERS[:4]
        wild = "".join(f'<path d="M20 30 L{x} {y} A14 22 0 0 1 {x2} {y2} Z" fill="{CARD_COLORS[c]}"/>'
                       for c, (x, y, x2, y2) in zip(cs, ((20, 8, 34, 30), (34, 30, 20, 52), (20, 52, 6, 30),
                                                         (6, 30, 20, 8))))
    opacity = ' opacity="0.55"' if dim else ""
    return (f'<svg class="card" width="{width}" height="{h}" viewBox="0 0 40 60" role="img" '
            f'aria-label="{html.escape(f.name)}" data-face="{html.escape(f.name)}"{opacity}>'
            f'<rect x="1" y="1" width="38" height="58" rx="5" fill="{fill}" stroke="#fff" stroke-width="1.5"/>'
            f'<ellipse cx="20" cy="30" rx="14" ry="22" fill="#fff"/>{wild}'
            f'<text x="20" y="{30 + size // 3}" font-size="{size}" font-weight="bold" text-anchor="middle" '
            f'fill="{ink if not wild else "#fff"}" stroke="{"#222" if wild else "none"}" stroke-width="0.6" '
            f'font-family="sans-serif">{html.escape(label)}</text>'
            f'<text x="5" y="10" font-size="7" fill="#fff" font-family="sans-serif">{html.escape(label)}</text>'
            f'</svg>')


def face_table(deck) -> list[dict]:
    """Every face of ``deck`` for a page's script: its code, colour letter, side and SVG (one drawing)."""
    return [{"name": f.name, "color": f.name[0] if f.color >= 0 else None, "side": f.side,
             "svg": card_svg(deck, i), "dim": card_svg(deck, i, width=30, dim=True)}
            for i, f in enumerate(deck.faces)]


TABLE_CSS = """
.uno-table{font-family:sans-serif;background:#0b5d2a;color:#fff;padding:10px;border-radius:10px;max-width:960px}
.uno-table .seat{margin:4px 0;padding:4px 6px;border-radius:6px;background:rgba(0,0,0,.15)}
.uno-table .seat.actor{outline:2px solid #ffd600}
.uno-table .name{display:inline-block;min-width:9em;font-weight:bold;overflow:hidden;text-overflow:ellipsis;
  white-space:nowrap;max-width:12em;vertical-align:middle}
.uno-table .cards{display:inline-flex;flex-wrap:wrap;gap:2px;vertical-align:middle}
.uno-table .center{display:flex;gap:16px;align-items:center;margin:8px 0}
.uno-table .info{font-size:14px;line-height:1.5}
"""


def table_html(view: dict, deck) -> str:
    """A view as a static HTML block with SVG cards (Jupyter shows it inline: ``Table._repr_html_``)."""
    esc = html.escape
    col = view["color"]
    col_txt = {"free": "any (free)", None: "to be chosen"}.get(col) or COLOR_NAMES[COLOR_LETTERS.index(col)]
    rows = []
    for s in view["seats"]:
        cards = "".join(card_svg(deck, f, 34) for f in s["cards"]) if s["cards"] is not None else \
            "".join(card_svg(deck, None, 24) for _ in range(min(s["count"], 30)))
        if s["backs"] is not None:
            cards += " " + "".join(card_svg(deck, f, 24, dim=True) for f in s["backs"])
        cls = "seat actor" if s["seat"] == view["actor"] else "seat"
        rows.append(f'<div class="{cls}"><span class="name">{esc(s["name"])}</span> '
                    f'<span class="info">{plural(s["count"], "card")} &middot; score {s["score"]}</span> '
                    f'<span class="cards">{cards}</span></div>')
    status = ("round over" if view["over"] else
              f'{esc(view["seats"][view["actor"]]["name"])} to act ({view["phase"].replace("_", " ")})')
    side = f' &middot; {view["side"]} side' if view["two_sided"] else ""
    if view["viewer"] is None and not view["over"]:
        side += " &middot; omniscient view: every hand shown"
    return (f'<style>{TABLE_CSS}</style><div class="uno-table"><div><b>{esc(view["rules"])}</b> &middot; '
            f'{view["players"]} players &middot; round {view["round"]}{side}</div>'
            f'<div class="center">{card_svg(deck, view["top"], 60)}<div class="info">colour: {col_txt}<br>'
            f'direction: {"clockwise" if view["direction"] > 0 else "counter-clockwise"}<br>draw pile: '
            f'{view["draw_n"]}<br>{status}</div></div>{"".join(rows)}</div>')


class HtmlTable:
    """A ``VecGame`` row shown inline by Jupyter (``_repr_html_``) as ``viewer`` sees it."""

    def __init__(self, game, row: int = 0, viewer: int | None = None, names=None):
        self.game, self.row, self.viewer, self.names = game, row, viewer, names

    def _repr_html_(self) -> str:
        return table_html(seat_view(self.game, self.viewer, self.names, self.row), self.game.engine.deck)


def show(game, row: int = 0, viewer: int | None = None, names=None) -> HtmlTable:
    """``uno_env.render.show(game)`` in a notebook cell draws the table with SVG cards."""
    return HtmlTable(game, row, viewer, names)


__all__ = ["LEGEND", "card_svg", "face_table", "plural", "render_table", "show", "standings_text", "table_html",
           "view_text"]
