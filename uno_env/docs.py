"""Documentation pages generated from the code's own tables, so the docs cannot drift from the code.

The documentation site (``properdocs build -f mkdocs.yml``) writes these pages at build time (``docs/gen_pages.py``):

* ``options.md``: every rule option (``uno_env.core.config.OPTIONS``) and its value in each preset;
* ``environments/<preset>.md``: one page per preset in PettingZoo's environment-page form (import,
  agents, spaces, observation slots from ``uno_env.core.observe``, actions from
  ``uno_env.core.actions``, rewards, arguments, version history).

Any markdown file may also hold generated tables between ``<!-- BEGIN GENERATED: NAME -->`` and
``<!-- END GENERATED: NAME -->`` (NAME one of ``options``, ``observation``, ``actions``):

    python -m uno_env.docs FILE.md          # rewrite the generated sections in place
    python -m uno_env.docs FILE.md --check  # exit 1 if they are out of date
    python -m uno_env.docs --site DIR       # write the generated pages into DIR (to read them offline)
"""

from __future__ import annotations

import argparse
import inspect
import re
import sys
from pathlib import Path

from .core import observe
from .core.actions import ACTION_TYPES
from .core.config import OPTIONS, PRESETS
from .core.game import VecGame

# what each preset is, and the section of the rules (docs/rules.md) that defines it
PRESET_INFO = {
    "standard_en": ("Mattel's English rules: 108 cards, Wild Draw Four with its colour restriction and challenge, "
                    "a 2-card penalty for a missed \"UNO\", 500 points.", "s3"),
    "standard_ru": ("The Russian rules text: the same game with a 4-card penalty for a missed \"UNO\".", "s4"),
    "house_cn": ("A Chinese house-rule game: escalating +2/+4 stacking, a Skip can be passed on, the first "
                 "player counted out by the first card, 300 points.", "s5"),
    "solo_bga": ("SOLO (AMIGO) as on Board Game Arena: 112 cards, 8-card hands, Swap and Swap-in-turn, "
                 "jumping in out of turn, an automatic \"Solo\" penalty, a point countdown.", "s6"),
    "flip_jp": ("UNO FLIP! (Japanese rules): a two-sided deck, the light side and the harsher dark side "
                "(Draw Five, Skip Everyone, Wild Draw Colour).", "s7"),
}
PLAYERS = (2, 4)  # player counts whose sizes the environment pages list


def layouts() -> dict[str, tuple]:
    """The observation layouts the code exposes, by name: ``observe.LAYOUTS`` if it exists, else every
    ``SLOTS*`` table of ``uno_env.core.observe`` (``SLOTS`` is the first of ``observe.VERSIONS``, v2;
    ``SLOTS_V3`` is v3)."""
    table = getattr(observe, "LAYOUTS", None)
    if table:
        return dict(table)
    found = {name: value for name, value in vars(observe).items()
             if re.fullmatch(r"SLOTS(_\w+)?", name) and isinstance(value, tuple | list)}
    first = (getattr(observe, "VERSIONS", None) or ("default",))[0]
    return {(first if n == "SLOTS" else n[len("SLOTS_"):].lower()): v for n, v in found.items()}


def default_layout() -> str:
    """The layout ``VecGame`` and every environment observe unless told otherwise."""
    return inspect.signature(VecGame).parameters["observation"].default


def _observer(preset: str, players: int, layout: str):
    """The observer of ``layout`` (``None`` if the game cannot be asked for that layout)."""
    if layout in ("default", default_layout()) or len(layouts()) == 1:
        return VecGame(preset, players).observer
    if "observation" in inspect.signature(VecGame).parameters:
        try:
            return VecGame(preset, players, observation=layout).observer
        except (TypeError, ValueError):
            return None
    return None


def options_table() -> str:
    """Every rule option, its value in each preset (bold where it differs from standard_en)."""
    names = list(PRESETS)
    base = PRESETS["standard_en"]
    lines = ["| option | " + " | ".join(f"`{n}`" for n in names) + " | values | meaning |",
             "|---|" + "---|" * len(names) + "---|---|"]
    for key, opt in OPTIONS.items():
        values = " / ".join(str(v) for v in opt.allowed) if opt.allowed else f"{opt.lo} to {opt.hi}"
        cells = []
        for n in names:
            v = getattr(PRESETS[n], key)
            cells.append(f"**{v}**" if v != getattr(base, key) else str(v))
        lines.append(f"| `{key}` | " + " | ".join(cells) + f" | {values} | {_cell(opt.help)} |")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _bounds(observer, sl) -> str:
    low, high = observer.bounds()
    lo, hi = float(low[sl.start:sl.stop].min()), float(high[sl.start:sl.stop].max())
    fmt = lambda x: f"{x:g}"  # noqa: E731
    return f"[{fmt(lo)}, {fmt(hi)}]"


def observation_table(presets=("standard_en", "flip_jp"), players: int = 4, layout: str = "v2") -> str:
    """The slices of one observation layout: size, position and bounds in each preset's observation."""
    slots = layouts()[layout]
    observers = [_observer(p, players, layout) for p in presets]
    head = "| slice | size | " + " | ".join(f"{p}, {players}p" for p in presets) + " | values | meaning |"
    lines = [head, "|---|---|" + "---|" * len(presets) + "---|---|"]
    for name, size, text in slots:
        cells, vals = [], "-"
        for ob in observers:
            sl = ob.slots.get(name) if ob is not None else None
            cells.append(f"{sl.start}:{sl.stop}" if sl else "-")
            if sl and vals == "-":
                vals = _bounds(ob, sl)
        lines.append(f"| `{name}` | {size} | " + " | ".join(cells) + f" | {vals} | {_cell(text)} |")
    totals = [str(ob.size) if ob is not None else "-" for ob in observers]
    lines.append("| total | | " + " | ".join(totals) + " | | |")
    return "\n".join(lines)


def actions_table(preset: str = "standard_en", players: int = 4) -> str:
    """The action layout of one preset and player count, by block of ids."""
    game = VecGame(preset, players)
    A = game.engine.actions
    wild = (A.kind == 0) & game.engine.F_WILD[A.face]
    targeted = A.target >= 0
    group = [("wild play" if w else "targeted play" if t and k == 0 else ACTION_TYPES[k])
             for k, w, t in zip(A.kind, wild, targeted)]
    lines = ["| ids | actions |", "|---|---|"]
    start = 0
    for i in range(1, A.size + 1):
        if i == A.size or group[i] != group[start]:
            first, last = A.names[start], A.names[i - 1]
            kind = group[start]
            label = f"`{first}`" if start == i - 1 else f"`{first}` ... `{last}`"
            lines.append(f"| {start}-{i - 1} | {label} ({i - start} {kind} action{'s' if i - start > 1 else ''}) |")
            start = i
    lines.append(f"| total | {A.size} actions (`VecGame({preset!r}, {players}).action_names`) |")
    return "\n".join(lines)


def _env_arguments() -> str:
    """The ``Arguments:`` block of the AEC env's docstring."""
    from . import aec
    doc = inspect.getdoc(aec) or ""
    block = doc.split("Arguments:", 1)[1].split("\n\n", 1)[0] if "Arguments:" in doc else ""
    items = re.split(r"\n    (?=\**\w+:)", "\n" + block.strip("\n"))
    out = []
    for item in items:
        item = " ".join(item.split())
        if item:
            name, text = item.split(":", 1)
            out.append(f"* `{name}`: " + re.sub(r"``([^`]+)``", r"`\1`", text.strip()))
    return "\n".join(out)


def _version_history() -> str:
    """The ``Version history:`` block of the AEC env's docstring (the env's own record), else the retired list."""
    import uno_env

    from . import aec
    doc = inspect.getdoc(aec) or ""
    if "Version history:" in doc:
        block = doc.split("Version history:", 1)[1].split("\n\n", 1)[0]
        items = [" ".join(x.split()) for x in re.split(r"\n\s*\* ", "\n" + block.strip()) if x.strip()]
        return "\n".join("* " + re.sub(r"``([^`]+)``", r"`\1`", x) for x in items)
    lines = [f"* `{uno_env.ENV_VERSION}`: the current version."]
    for name, text in sorted(uno_env.RETIRED.items(), reverse=True):
        lines.append(f"* `{name}`: retired ({text}); importing it raises an error naming the current version.")
    return "\n".join(lines)


def environment_page(preset: str) -> str:
    """One preset's page in PettingZoo's environment-page form."""
    import uno_env

    from . import aec
    version = uno_env.ENV_VERSION
    what, section = PRESET_INFO.get(preset, (f"The `{preset}` preset.", "s9"))
    sizes = {}
    for P in PLAYERS:
        env = aec.raw_env(rules=preset, num_players=P)
        sizes[P] = (env.action_space("player_0").n, env.observation_space("player_0")["observation"].shape)
    low, high = VecGame(preset, PLAYERS[0]).observer.bounds()
    differs = PRESETS[preset].diff(PRESETS["standard_en"]) if hasattr(PRESETS[preset], "diff") else {}
    differs = {k: v for k, v in differs.items() if k != "name"}
    diff_text = ", ".join(f"`{k}={v!r}`" for k, v in differs.items()) or "none: this is the baseline"
    layout_sections = []
    default = default_layout()
    for name in sorted(layouts(), key=lambda n: n != default):  # the default layout first
        title = f"Observation space, layout `{name}`" + (" (the default)" if name == default else "")
        ob = _observer(preset, PLAYERS[-1], name)
        starts = [ob.slots[n].start for n, _, _ in layouts()[name] if ob is not None and n in ob.slots]
        lead = ""
        if starts and min(starts) > 0:  # a layout that extends another: say what its first positions hold
            before = [n for n in layouts() if n != name and _observer(preset, PLAYERS[-1], n) is not None
                      and _observer(preset, PLAYERS[-1], n).size == min(starts)]
            held = (f"every slice of layout `{before[0]}` ([below](#observation-space-{before[0]}))" if before
                    else "the slices of the layout it extends")
            lead = f"At {PLAYERS[-1]} players, positions 0 to {min(starts) - 1} hold {held}, unchanged; then:\n\n"
        layout_sections.append(f"## {title} {{ #observation-space-{name} }}\n\n" + lead
                               + observation_table((preset,) * 1, PLAYERS[-1], name).replace(
                                   f"| {preset}, {PLAYERS[-1]}p |", f"| position, {PLAYERS[-1]}p |", 1))
    # a blank line between sections: a heading right under a table's last row is read as one more row
    layouts_text = "\n\n".join(layout_sections)
    sizes_a = " / ".join(f"Discrete({sizes[P][0]})" for P in PLAYERS)
    sizes_o = " / ".join(f"{sizes[P][1]}" for P in PLAYERS)
    at = " / ".join(f"{P}" for P in PLAYERS)
    return f"""# `{preset}`

<!-- generated by uno_env/docs.py from the code's tables; edit the code, not this page -->

This environment is part of [uno-env's environments](index.md): one PettingZoo AEC environment,
`{version}`, whose `rules` argument selects the preset. {what} The rules are in
[rules §{section[1:]}](../rules.md#{section}).

| | |
|---|---|
| Import | `from uno_env import {version}`, then `{version}.env(rules="{preset}", num_players=4)` |
| Actions | Discrete, with an action mask |
| Parallel API | No (out-of-turn decisions: jump-ins, deflections, challenges, catches) |
| Manual control | `uno play --rules {preset} --players 4` |
| Agents | `agents = ['player_0', ..., 'player_{{P-1}}']` |
| Agents count | 2 to 10 |
| Action shape ({at} players) | {sizes_a} |
| Action values | Discrete ids; `env.unwrapped.action_name(i)` gives the [action code](../notation.md#legend) |
| Observation shape ({at} players) | {sizes_o} float32, in a dict with `action_mask` |
| Observation values | [{float(low.min()):g}, {float(high.max()):g}] |
| Options differing from `standard_en` | {diff_text} |

## Usage

```python
from uno_env import {version}

env = {version}.env(rules="{preset}", num_players=4, render_mode="ansi")
env.reset(seed=42)
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
    else:
        mask = observation["action_mask"]
        action = env.action_space(agent).sample(mask)  # a random legal action
    env.step(action)
env.close()
```

## Agents

`player_0` to `player_{{P-1}}`, seat 0 first. `agent_selection` is the seat asked a decision, which is not
always the seat whose turn it is: a jump-in, a Skip deflection, a challenge, a colour choice and a catch
are asked of the seat concerned. Forced moves (a single legal action) are taken by the engine, so every
decision offered is a real choice.

That default leaves one channel open. Whether a seat is asked at all hangs on its hand: the seat to move
is asked only if it holds a card it could play (else the engine draws for it), a draw card's victim only
if it holds a card to stack (`house_cn`, `solo_bga`), a seat that drew only if the card it drew is
playable. Code that reads `agent_selection`, or observes the other seats between decisions, learns that.
With `ask_forced=True` the env takes no forced move itself: the seat is asked with its one legal action
in the mask, so who is asked, and when the others observe, hang on public moves only (two games that
differ only in cards a seat cannot see ask the same seats, `tests/test_ask_forced.py`). The games are the
same once those actions are taken, and records hold the real decisions only. The cost: about 1.3 to 2
times as many steps per round, and 0.69 to 0.96 times the rounds per second of the default in a random
game ([benchmarks](../benchmarks.md#every-seat-asked-ask_forced)). Jump-in offers (`jump_in`, on in
`solo_bga`) still go only to the seats holding the identical card: there the seat asked names a holder
whatever `ask_forced` says.

{layouts_text}

The observation is one float32 vector per seat, seat-relative (position 0 is the observer, then the
other seats in seat order, whatever the direction of play), and holds only what that seat can see
([rules §1.10](../rules.md#s1-10)): a seat that is not asked sees no `phase`, `acting` or `turn`, since
who is asked, and what, can reveal a hand. `P` is the number of players, `F` the number of card faces of
the deck. `observation["action_mask"]` (int8) marks the legal actions; it is all zeros for every agent
but the one asked.

What the observation leaves out, though the table has seen it (a player with a perfect memory could use
it):

{chr(10).join(f"* {text}" for text, flip in observe.NOT_ENCODED if VecGame(preset, 2).engine.two_sided or not flip)}

## Action space {{ #action-space }}

One `Discrete` space covers every decision; ids by block at 4 players (the [legend](../notation.md#legend)
explains the codes):

{actions_table(preset, 4)}

## Rewards

| episode | winner | the others |
|---|---|---|
| `episode="round"` (default) | +1 | -1 |
| `episode="game"` (rounds until a game winner) | +1 at the game's end | -1 at the game's end |

A void blocked round (`blocked_round="void_redeal"`) gives 0. A round stopped by `max_turns_per_round`
is reported as truncation ([E3](../rules.md#e3)); the blocked-round rule still names a winner. What an
illegal action earns is set by `illegal_action` (below).

## Arguments

{_env_arguments()}

Every rule option of the [options table](../options.md) may be passed as a keyword, e.g.
`{version}.env(rules="{preset}", jump_in=True)`; a value outside the allowed ones is an error naming the
option, the value and what is allowed.

## Version history

{_version_history()}

See [versioning](../versioning.md) for the policy.
"""


def environments_index() -> str:
    import uno_env
    rows = "\n".join(f"| [`{p}`]({p}.md) | {PRESET_INFO.get(p, ('', ''))[0]} |" for p in PRESETS)
    return f"""# Environments

<!-- generated by uno_env/docs.py from the code's tables -->

One PettingZoo AEC environment, `{uno_env.ENV_VERSION}`, plays every preset; a preset is a named set of
[rule options](../options.md), and every option can be changed for any preset. Each page below is in
PettingZoo's environment-page form, generated from the code's own tables.

| preset | what it is |
|---|---|
{rows}

The same games are available batched (`uno_env.VecGame`) and as training environments for SB3 and
Gymnasium: see [getting started](../getting-started.md#which-api-do-i-use).
"""


def options_page() -> str:
    return f"""# Rule options

<!-- generated by uno_env/docs.py from uno_env.core.config.OPTIONS -->

A preset is a named `RuleConfig` (`uno_env.make_rules`); every option can be overridden for any preset
(`VecGame("house_cn", 4, jump_in=True)`, `uno_v4.env(rules="standard_en", stacking="same_type")`). A value
outside the allowed ones, or a combination that cannot work (say `seven_o` with a deck without 0s), is an
error at construction that names the option, the value and what is allowed. Values that differ from
`standard_en` are in bold. The options are those of [rules §9](rules.md#s9).

{options_table()}
"""


def pages() -> dict[str, str]:
    """Every generated page, by its path under ``docs/``."""
    out = {"options.md": options_page(), "environments/index.md": environments_index()}
    out.update({f"environments/{p}.md": environment_page(p) for p in PRESETS})
    return out


SECTIONS = {"options": options_table, "observation": observation_table, "actions": actions_table}
_BLOCK = re.compile(r"(<!-- BEGIN GENERATED: (\w+) -->\n)(.*?)(<!-- END GENERATED: \2 -->)", re.S)


def render(text: str) -> str:
    def fill(m: re.Match) -> str:
        name = m.group(2)
        if name not in SECTIONS:
            raise ValueError(f"unknown generated section {name!r}; sections are: {', '.join(SECTIONS)}")
        return f"{m.group(1)}{SECTIONS[name]()}\n{m.group(4)}"
    return _BLOCK.sub(fill, text)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m uno_env.docs", description=__doc__.split("\n")[0])
    p.add_argument("path", nargs="?", help="a markdown file with generated sections")
    p.add_argument("--check", action="store_true", help="only check that the sections are up to date")
    p.add_argument("--site", type=Path, help="write the generated pages into this folder")
    args = p.parse_args(argv)
    if args.site:
        for name, text in pages().items():
            (args.site / name).parent.mkdir(parents=True, exist_ok=True)
            (args.site / name).write_text(text, encoding="utf-8")
        return 0
    if not args.path:
        p.error("give a markdown file, or --site DIR")
    path = Path(args.path)
    text = path.read_text(encoding="utf-8")
    new = render(text)
    if args.check:
        if new != text:
            print(f"{path}: generated sections are out of date; run python -m uno_env.docs {path}")
            return 1
        print(f"{path}: generated sections are up to date")
        return 0
    path.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
