"""The table's memory in a position (docs/notation.md, "The table's memory"): the memory keys of a game that
keeps one (observation v3, ``core.memory``), written by ``memory_snapshot`` and read back by ``load_memory``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import memory
from .cards import COLOR_LETTERS, NUM_COLOR_STATES, symbol_name
from .notation_fields import bool_field, cards_text, color_field, color_text, fail, int_field, seat_field
from .tables import RuleTables


def _tally_names(t) -> list[tuple[str, str]]:
    """(group, name) of each tally column of ``MemoryTables`` ``t``: the colours played (letters, "wild"), the
    kinds played ("number", symbol names), the colours declared."""
    letters = [COLOR_LETTERS[c] for c in t.colors]
    return ([("colors", x) for x in letters] + [("colors", "wild"), ("kinds", "number")]
            + [("kinds", symbol_name(x)) for x in t.symbols] + [("declared", x) for x in letters])


def memory_snapshot(engine: RuleTables, st, row: int) -> dict:
    """The memory keys of game ``row`` (docs/notation.md): what the table has seen, so that a position rebuilt
    from them gives every seat the same v3 observation."""
    mem, t, deck, P = st.memory, memory.tables(engine), engine.deck, engine.P
    names = _tally_names(t)
    played = []
    for p in range(P):
        tallies: dict[str, dict[str, int]] = {}
        for (group, name), n in zip(names, mem.tally[row, p].tolist()):
            if n:
                tallies.setdefault(group, {})[name] = n
        played.append(tallies)
    lacks, since_draw, last_play, last_declared, lack_ages = [], [], [], [], []
    for p in range(P):
        lk, _, held, last_col, last_prev, flags, last_at, decl, decl_at = mem.seat_record[row, p].tolist()
        lacks.append([color_text(c) for c in range(NUM_COLOR_STATES) if lk >> c & 1])
        since_draw.append([COLOR_LETTERS[c] for c in t.colors if held >> c & 1])
        last_play.append(None if last_col < 0 else {
            "color": "wild" if last_col == t.C else COLOR_LETTERS[last_col], "before": color_text(last_prev),
            "after_lack": bool(flags & 1), "changed_color": bool(flags & 2), "at": last_at})
        last_declared.append(None if decl < 0 else {"color": COLOR_LETTERS[decl], "at": decl_at})
        lack_ages.append({COLOR_LETTERS[c]: n for c, n in zip(t.colors, mem.lack_n[row, p].tolist()) if n >= 0})
    faces = deck.faces
    known = [{"by": o, "of": p, "cards": " ".join(faces[f].name for f in np.repeat(np.arange(t.F), copies))}
             for o in range(P) for p in range(P) if (copies := mem.known[row, o, p]).any()]
    recent = []
    for seat, face, color in memory.remembered_plays(mem, row):
        play: dict[str, Any] = {"seat": seat, "card": faces[face].name}
        if color >= 0:
            play["color"] = COLOR_LETTERS[color]
        if faces[face].side:
            play["side"] = "dark"
        recent.append(play)
    challenge = None
    if mem.challenges[row]:
        challenge = {"challenger": int(mem.challenger[row]), "offender": int(mem.offender[row]),
                     "hand": cards_text(deck, np.maximum(mem.shown[row], 0)), "guilty": bool(mem.guilty[row]),
                     "count": int(mem.challenges[row])}
    return {"played": played, "lacks": lacks, "drew_since_play": [int(x) for x in mem.drawn[row]],
            "colors_since_draw": since_draw, "last_play": last_play, "last_declared": last_declared,
            "lack_ages": lack_ages, "known": known, "plays": int(mem.plays_n[row]), "recent_plays": recent,
            "last_challenge": challenge}


def _per_seat(setup: dict, key: str, P: int, kind: type) -> list:
    v = setup.get(key)
    if v is None:
        return [None] * P
    if not isinstance(v, list) or len(v) != P or not all(x is None or isinstance(x, kind) for x in v):
        fail(f"'{key}' must list one {kind.__name__} (or null) per seat ({P} seats), got {v!r}")
    return v


def _letter(text: Any, key: str, t) -> int:
    """A colour slot of the memory (a deck colour, either side of UNO Flip)."""
    letters = [COLOR_LETTERS[c] for c in t.colors]
    if text not in letters:
        fail(f"'{key}' must name one of the colours {', '.join(letters)}, got {text!r}")
    return COLOR_LETTERS.index(text)


def _count(v: Any, key: str, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi:
        fail(f"'{key}' must hold integers from 0 to {hi}, got {v!r}")
    return v


def load_memory(engine: RuleTables, st, row: int, setup: dict, side: int) -> None:
    """Write the memory keys of ``setup`` into row ``row`` of ``st.memory`` (reset: every key defaults to
    nothing seen)."""
    mem, t, deck, P = st.memory, memory.tables(engine), engine.deck, engine.P
    two = deck.two_sided
    column = {name: i for i, name in enumerate(_tally_names(t))}
    for p, seat in enumerate(_per_seat(setup, "played", P, dict)):
        for group, counts in (seat or {}).items():
            if not isinstance(counts, dict):
                fail(f"'played' of seat {p}: {group!r} must map names to counts, got {counts!r}")
            for name, n in counts.items():
                if (group, name) not in column:
                    fail(f"'played' of seat {p}: no tally {group}/{name!r}; tallies are "
                          f"{', '.join(g + '/' + x for g, x in column)}")
                mem.tally[row, p, column[group, name]] = _count(n, "played", 30000)
    for p, colors in enumerate(_per_seat(setup, "lacks", P, list)):
        mem.lacks[row, p] = sum(1 << color_field(c, "lacks", side, two, True) for c in set(colors or []))
    for p, n in enumerate(_per_seat(setup, "drew_since_play", P, int)):
        mem.drawn[row, p] = _count(n or 0, "drew_since_play", engine.N)
    for p, colors in enumerate(_per_seat(setup, "colors_since_draw", P, list)):
        mem.held[row, p] = sum(1 << _letter(c, "colors_since_draw", t) for c in set(colors or []))
    plays = int_field(setup, "plays", 0)
    mem.plays_n[row] = plays
    for p, last in enumerate(_per_seat(setup, "last_play", P, dict)):
        if last is not None:
            color = last.get("color")
            mem.last_col[row, p] = t.C if color == "wild" else _letter(color, "last_play", t)
            mem.last_prev[row, p] = color_field(last.get("before"), "last_play", side, two, True)
            mem.last_flags[row, p] = (bool_field(last, "after_lack", False)
                                      | bool_field(last, "changed_color", False) << 1)
            mem.last_at[row, p] = int_field(last, "at", plays, 0, plays)
    for p, last in enumerate(_per_seat(setup, "last_declared", P, dict)):
        if last is not None:
            mem.decl[row, p] = _letter(last.get("color"), "last_declared", t)
            mem.decl_at[row, p] = int_field(last, "at", plays, 0, plays)
    for p, ages in enumerate(_per_seat(setup, "lack_ages", P, dict)):
        for c, n in (ages or {}).items():
            mem.lack_n[row, p, _letter(c, "lack_ages", t)] = _count(n, "lack_ages", memory.LACK_CAP)
    known = setup.get("known", [])
    if not isinstance(known, list) or not all(isinstance(x, dict) for x in known):
        fail(f"'known' must list objects {{\"by\": seat, \"of\": seat, \"cards\": faces}}, got {known!r}")
    for entry in known:
        o, p = seat_field(entry, "by", P), seat_field(entry, "of", P)
        cards = entry.get("cards", "")
        try:
            faces = [deck.face_id(x, side) for x in cards.split()] if isinstance(cards, str) else None
        except ValueError as err:
            fail(f"'known' cards {cards!r}: {err}")
        if faces is None:
            fail(f"'known' cards must be a string of faces on the side in play, got {cards!r}")
        mem.known[row, o, p] = np.bincount(np.array(faces, np.int64), minlength=t.F)
    mem.reveals[row] = int(mem.known[row].any())
    recent = setup.get("recent_plays", [])
    if not isinstance(recent, list) or len(recent) > min(plays, memory.HISTORY) or \
            not all(isinstance(x, dict) for x in recent):
        fail(f"'recent_plays' must list at most min(plays, {memory.HISTORY}) plays, oldest first, each "
              f"{{\"seat\", \"card\", \"color\" (a wild's), \"side\" (\"dark\")}}; got {recent!r}")
    for i, play in enumerate(recent):
        at = plays - len(recent) + i
        try:
            face = deck.face_id(play.get("card"), 1 if play.get("side") == "dark" else 0)
        except ValueError as err:
            fail(f"'recent_plays' card {play.get('card')!r}: {err}")
        color = _letter(play["color"], "recent_plays", t) if play.get("color") is not None else -1
        mem.history[row, at % memory.HISTORY] = memory.play_code(seat_field(play, "seat", P), face, color)
    challenge = setup.get("last_challenge")
    mem.challenges[row], mem.challenger[row], mem.offender[row], mem.guilty[row], mem.shown[row] = 0, -1, -1, False, 0
    if challenge is not None:
        if not isinstance(challenge, dict):
            fail(f"'last_challenge' must be an object or null, got {challenge!r}")
        mem.challenges[row] = int_field(challenge, "count", 1, 1)
        mem.challenger[row] = seat_field(challenge, "challenger", P)
        mem.offender[row] = seat_field(challenge, "offender", P)
        mem.guilty[row] = bool_field(challenge, "guilty", False)
        mem.shown[row] = np.bincount(np.array(deck.parse_cards(challenge.get("hand", "")), np.int64), minlength=t.K)
