"""The observation layouts (``core.observe``): ``SLOTS`` (v2) and ``SLOTS_V3`` (what v3 appends), each slice
named with its size and meaning, and the public facts no layout carries (``NOT_ENCODED``).  Read by the
observer, which computes them, and by the documentation, which lists them.
"""

from __future__ import annotations

VERSIONS = ("v2", "v3")

# (name, size, meaning): the observation layout, in order.
SLOTS = (
    ("seat", "P", "one-hot: the observer's absolute seat"),
    ("hand", "F", "copies of each face the observer holds (active side)"),
    ("top", "F", "one-hot: the top card's active face"),
    ("color", "10", "one-hot: the active colour (8 colours, free after Swap-in-turn, none declared yet)"),
    ("direction", "1", "+1 seat order, -1 reversed"),
    ("phase", "7", "one-hot: the decision asked (turn, drawn, pending, choose, jump_in, deflect, over); a seat not "
     "asked sees a decision only a hidden hand explains (a jump-in offer, a Skip that may be passed on, a playable "
     "drawn card) as if declined, as the table sees it"),
    ("acting", "P", "one-hot: the seat asked now (relative; for a seat not asked, as the table sees it)"),
    ("turn", "P", "one-hot: the seat whose decision follows an offer or a colour choice (relative)"),
    ("played_by", "P", "one-hot: the seat that played the top card (relative)"),
    ("pending", "2", "cards the victim of draw cards must take / 10; the draw-until-colour flag"),
    ("challengeable", "1", "the pending wild draw card may be challenged"),
    ("prev_color", "10", "one-hot: the active colour before the top card (what a challenge tests)"),
    ("drawn", "F", "one-hot: the card the observer drew and may play now"),
    ("declared", "1", "the observer has declared UNO for its next play"),
    ("hand_sizes", "P", "cards in each hand / 10 (relative)"),
    ("vulnerable", "P", "seats that can be caught for a missed UNO (relative)"),
    ("drew_on", "P*10", "one-hot per seat (relative): the colour active when it last drew on its turn "
     "instead of playing, if it has not played since; public history a player remembers"),
    ("discard", "F", "copies of each face in the discard pile (active faces)"),
    ("draw_pile", "1", "cards in the draw pile / deck size"),
    ("scores", "P", "game scores / max(target, starting_points) (relative); bounded by the scoring mode "
     "(``Observer.bounds``)"),
    ("side", "1", "UNO Flip only: 0 light, 1 dark"),
    ("opponent_backs", "(P-1)*F", "UNO Flip with flip_back_faces_visible: copies of each inactive "
     "face in each opponent's hand (relative seats 1..P-1)"),
    ("draw_top_back", "F", "UNO Flip with flip_back_faces_visible: one-hot inactive face of the "
     "draw pile's top card"),
)


# v3 appends these (``C``: the deck's colours, 4, or 8 for UNO Flip; ``T``: tallies, see ``core.memory``)
SLOTS_V3 = (
    ("played", "P*T", "cards each seat played this round by colour (the deck's, then wild), by kind (number, "
     "then each action symbol of the deck) and the colours it declared, each count / 10 capped at 3 (relative)"),
    ("lacks", "P*10", "multi-hot per seat (relative): the colours active when it drew or passed in its turn "
     "since it last played, and the colour before its wild draw card when a challenge found it innocent "
     "(evidence that it lacked them; it moves with a hand that changes seats)"),
    ("lacked", "P*C", "per seat (relative) and colour: 0.7 to the power of the cards it drew since it last drew or "
     "passed in its turn on that colour, or was found by a challenge to hold none of it (a lack that fades as it "
     "draws and survives its plays; moves with its hand); 0 if it has not this round"),
    ("drawn_since", "P", "cards each seat drew since it last played / 10 (relative; moves with its hand)"),
    ("last_play", "P*(C+1)", "one-hot per seat (relative): the colour of the card it played last this round (the "
     "deck's colours, then wild), times 0.85 to the power of the plays made since (by anyone; counted up to 63, "
     "so a move 63 or more plays old keeps the weight 0.85^63)"),
    ("last_from", "P*10", "one-hot per seat (relative): the colour active before its last play, times the same "
     "decay (with ``last_play``: did it follow the colour or change it)"),
    ("last_how", "P*2", "per seat (relative): its last play came after it drew or passed in its turn (it lacked "
     "the colour); its last card, or the colour it declared, differed from the colour active before it (it did not "
     "follow the colour; a Flip that then turns the colour over does not count)"),
    ("declared_last", "P*C", "one-hot per seat (relative): the colour it declared last this round, times 0.85 to "
     "the power of the plays made since (counted up to 63)"),
    ("held", "P*10", "multi-hot per seat (relative): the colours of the cards it played since it last drew "
     "(moves with its hand)"),
    ("known", "(P-1)*F", "copies of each active face the observer knows each other seat holds (relative "
     "1..P-1): shown to it by a challenge, or handed over by itself (Swap, Seven-O, rotation); dropped as "
     "that seat plays the face, kept through reshuffles, forgotten at a flip"),
    ("unseen", "F", "copies of each active face whose place the observer does not know: the deck less its "
     "hand, the discard pile and the known cards"),
    ("recent", "8*(P+F+C)", "the round's last 8 plays, newest first, each: one-hot seat (relative), one-hot "
     "face, one-hot colour declared (wild plays); zeros before the round's first plays"),
    ("discard_backs", "F", "UNO Flip with flip_back_faces_visible: copies of each inactive face in the discard "
     "pile (the table saw each card's back before it was played or turned, so it knows both its faces)"),
)


# Public facts the observation does not carry (a player with a perfect memory could know them); the environment
# pages list them. (flip: True for UNO Flip only)
NOT_ENCODED = (
    ("a guilty challenge verdict: that the offender held a card of the colour before its wild draw card (only the "
     "challenger sees which; an innocent verdict is kept, in `lacks`)", False),
    ("who declared UNO, once the window to catch a missed call has closed", False),
    ("beyond the last 8 plays (`recent`), the order of the round's plays, and the plays of earlier rounds", False),
    ("the face that a card seen from behind before a flip shows after it (an opponent's backs, the draw pile's top "
     "card, a card you drew): after a flip only the side in play is shown", True),
    ("which card the next flip turns up: the other face of the discard pile's bottom card, seen when it was turned",
     True),
)


def table(slots=None) -> str:
    """The slices of ``slots`` (default: every layout's) as a reStructuredText table."""
    rows = [("slice", "size", "meaning")] + [tuple(x) for x in (SLOTS + SLOTS_V3 if slots is None else slots)]
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    line = "  ".join("=" * x for x in w)
    fmt = ["  ".join(r[i].ljust(w[i]) for i in range(3)).rstrip() for r in rows]
    return "\n".join([line, fmt[0], line, *fmt[1:], line])


DESCRIPTIONS = {name: text for name, _, text in SLOTS + SLOTS_V3}
