"""``uno replay FILE --html OUT.html``: one self-contained page that steps through a recorded game.

The page holds everything it needs (the script, the styles, each face drawn as an SVG, and every frame:
the table after each recorded action as each seat saw it and as the whole table), so it opens offline
from a file; nothing is fetched.
"""

from __future__ import annotations

import html
import json
from importlib.resources import files
from pathlib import Path

from uno_env.render import face_table


def static(name: str) -> str:
    return files("uno_apps.web").joinpath("static", name).read_text(encoding="utf-8")


def _script_json(data) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/").replace("<!--", "<\\!--")


def replay_data(record, where: str = "record") -> dict:
    """Every frame of ``record`` (the deal, then each recorded action) as every viewer saw it."""
    from uno_apps.terminal import replay_table
    table, frames = replay_table(record, where)
    P = record.num_players
    viewers = ["all"] + [str(p) for p in range(P)]
    events = [{"kind": ev.kind, "seat": ev.seat,
               "text": {v: ev.text(None if v == "all" else int(v)) for v in viewers}} for ev in table.events]
    out_frames = []
    for upto in frames:
        after = table.events[upto - 1].after
        out_frames.append({"upto": upto, "views": {v: table.view(None if v == "all" else int(v), after)
                                                   for v in viewers}})
    title = (f"{record.rules}, {P} players, seed {record.seed}, {len(record.actions)} recorded actions"
             + (f" ({', '.join(record.agents)})" if record.agents else ""))
    return {"title": title, "names": table.names, "faces": face_table(table.engine.deck), "frames": out_frames,
            "events": events}


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>@@TITLE@@</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>@@CSS@@</style></head>
<body><header><h1>UNO replay</h1><span id="meta"></span>
<button id="first" title="first action">|◀ first</button><button id="prev" title="back one action">◀ back</button>
<button id="play">▶ play</button><button id="next" title="next action">next ▶</button>
<button id="last" title="last action">last ▶|</button>
<input id="slider" type="range" min="0" value="0">
<span id="step"></span>
<label>seen by <select id="viewer"></select></label>
<label>speed <select id="speed"><option value="1200">slow</option><option value="600" selected>normal</option>
<option value="200">fast</option></select></label></header>
<main><div id="table"></div><div id="side"><div id="status"></div><div id="log"></div></div></main>
<script>window.UNO_REPLAY = @@DATA@@;</script>
<script>@@JS@@</script>
</body></html>
"""


def replay_page(record, where: str = "record") -> str:
    data = replay_data(record, where)
    parts = {"@@TITLE@@": html.escape("UNO replay: " + data["title"]), "@@CSS@@": static("uno.css"),
             "@@DATA@@": _script_json(data), "@@JS@@": static("uno.js")}
    page = PAGE
    for key, value in parts.items():  # str.format would trip on the braces of the styles and the script
        page = page.replace(key, value)
    return page


def write_replay_page(path, out, game_index: int = 0) -> Path:
    """Write game ``game_index`` of the record file ``path`` as one HTML page at ``out``."""
    from uno_apps.terminal import pick_record
    record = pick_record(str(path), game_index)
    out = Path(out)
    out.write_text(replay_page(record, f"{path}, game {game_index}"), encoding="utf-8")
    return out
