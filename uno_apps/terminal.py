"""The terminal game: ``uno play`` (you against bots or trained agents), ``uno watch`` (agents play),
``uno replay`` (step through a recorded game).

Every action prints one line saying who did what and what it caused (``table.Event``), forced moves
included, so the screen's scrollback holds the whole round; your table is drawn when you are asked.  Another
seat's hidden decision (keeping a card it drew, letting a jump-in or a Skip go by) prints nothing: its
words for you are empty, as at a real table.
At the prompt: a move's number or its text, ``?`` the legend of card codes, ``h`` the round so far,
``t`` the table again, ``q`` to quit.
"""

from __future__ import annotations

import sys
import time

from uno_env import extras
from uno_env.render import LEGEND, standings_text, view_text
from uno_env.table import Event, Table

HELP = "a move's number or its text; ? card codes; h the round so far; t the table; q quit"


def load_agents(names: list[str], game, seed, out=print) -> list:
    """``agents.load`` each name; says so first when a trained agent needs PyTorch (a few seconds), and
    before that, when PyTorch is not installed, raises ``MissingExtraError`` naming the extra."""
    import agents
    if not names:
        raise ValueError("at least one agent name is needed; agents are: " + ", ".join(agents.available()))
    out_agents = []
    for i, n in enumerate(names):
        if _trained(n):
            extras.require("train", f"the trained agent {n!r}", extras.PLAY)
            out(f"loading {n} (PyTorch takes a few seconds to start)...")
        out_agents.append(agents.load(n, game=game, seed=None if seed is None else seed + i))
    return out_agents


def _trained(name: str) -> bool:
    """Whether ``name`` is (or holds) a trained policy, which PyTorch plays."""
    import agents
    kind, _ = agents.locate(name)
    if kind == "ensemble":
        return any(_trained(part) for part in name.split("+") if part)
    if kind == "colours":
        return _trained(name[:-len(agents.COLOURS)])
    return kind in ("export", "sb3", "rllib")


def layout_for(names: list[str]) -> dict:
    """The observation layout and memory of a table where ``names`` play (``uno_env.opponents.layout_for``):
    v3 with the table's memory when an agent reads v3, else v2, which games of bots keep."""
    from uno_env import opponents
    return opponents.layout_for(names)


def split_names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def agent_action(agent, table: Table) -> int:
    game = table.game
    seat = table.actor
    obs = game.observe(seats=[seat], rows=[0])
    return int(agent.act(obs, game.state.mask[:1])[0])


def seat_names(agent_names: list[str], num_players: int, human: int | None = None) -> list[str]:
    """``you`` for the human, ``heuristic_1`` for an agent at seat 1 (agents assigned in turn)."""
    out, i = [], 0
    for p in range(num_players):
        if p == human:
            out.append("you")
            continue
        out.append(f"{agent_names[i % len(agent_names)]}_{p}")
        i += 1
    return out


class Screen:
    """Where the game is printed, for one viewer (``None``: a spectator)."""

    def __init__(self, table: Table, viewer: int | None, ansi: bool, out=print):
        self.table, self.viewer, self.ansi, self.out = table, viewer, ansi, out
        self.shown = 0  # events printed so far

    def event_line(self, ev: Event) -> str:
        """The event's line for this viewer; ``""`` when it tells this viewer nothing (another seat's hidden
        decision, ``Event.text``)."""
        text = ev.text(self.viewer)
        mark = "*" if ev.kind in ("deal", "round_end") else ">" if ev.seat == self.viewer else "-"
        return f" {mark} {text}" if text else ""

    def print_events(self, events) -> None:
        for ev in events:
            if line := self.event_line(ev):
                self.out(line)

    def events(self) -> None:
        self.print_events(self.table.events[self.shown:])
        self.shown = len(self.table.events)

    def history(self) -> None:
        self.out("the round so far:")
        self.print_events(self.table.round_events())

    def board(self) -> None:
        self.out(view_text(self.table.view(self.viewer), self.table.engine.deck, self.ansi))

    def standings(self) -> None:
        self.out(standings_text(self.table.view(self.viewer), self.table.engine.config.scoring_mode))


def _ask(inp, prompt: str) -> str:
    try:
        return inp(prompt)
    except EOFError:
        return "q"


def play(rules: str, num_players: int, opponents: str, seat: int = 0, seed=None, ansi: bool = True,
         inp=input, out=print, record=None, **options) -> int:
    """A person plays ``seat`` against agents; returns an exit status."""
    if not 2 <= num_players <= 10:
        raise ValueError(f"--players must be from 2 to 10, got {num_players}")
    if not 0 <= seat < num_players:
        raise ValueError(f"--seat must be from 0 to {num_players - 1}, got {seat}")
    names = split_names(opponents)
    table = Table(rules, num_players, seed=seed, names=seat_names(names, num_players, seat), record=record,
                  **layout_for(names), **options)
    bots = load_agents(names, table.game, seed, out)
    seat_bot = {p: bots[i % len(bots)] for i, p in enumerate(q for q in range(num_players) if q != seat)}
    screen = Screen(table, seat, ansi, out)
    out(f"UNO {table.game.rules.name}, {num_players} players: you are seat {seat}. At the prompt: {HELP}.")
    while True:
        screen.events()
        if table.over:
            screen.board()
            screen.standings()
            if table.state.game_over[0]:
                out("game over")
                return 0
            ans = _ask(inp, "next round? [Y/n] ").strip().lower()
            while ans not in ("", "y", "yes", "n", "no", "q"):
                if ans == "?":
                    out(LEGEND)
                elif ans == "h":
                    screen.history()
                ans = _ask(inp, "next round? [Y/n] (? card codes, h the round) ").strip().lower()
            if ans in ("n", "no", "q"):
                return 0
            table.next_round()
            continue
        if table.actor != seat:
            table.step(agent_action(seat_bot[table.actor], table))
            continue
        screen.board()
        legal = table.legal()
        out("your moves: " + "  ".join(f"[{i}] {a}" for i, a in enumerate(legal)))
        choice = None
        while choice is None:
            ans = _ask(inp, "your move: ").strip()
            low = ans.lower()
            if low in ("q", "quit", "exit"):
                # a record is a whole round, which replays to its result: the round in play has none yet
                out("bye" + (": the round in play is not recorded (a record holds a whole round)" if record else ""))
                return 0
            if ans == "?":
                out(LEGEND)
            elif low == "h":
                screen.history()
            elif low == "t":
                screen.board()
                out("your moves: " + "  ".join(f"[{i}] {a}" for i, a in enumerate(legal)))
            elif ans.isdigit() and int(ans) < len(legal):
                choice = legal[int(ans)]
            elif ans in legal:
                choice = ans
            else:
                out(f"'{ans}' is not one of your moves: type a number from 0 to {len(legal) - 1}, a move as "
                    f"listed, or ? for the card codes")
        table.step(choice)


def watch(rules: str, num_players: int, bots: str, seed=None, rounds: int = 1, ansi: bool = True,
          verbose: bool = False, quiet: bool = False, delay: float = 0.0, out=print, record=None,
          **options) -> int:
    """Agents play ``rounds`` rounds (or to the game's end); every event is printed unless ``quiet``."""
    if rounds < 1:
        raise ValueError(f"--rounds must be at least 1, got {rounds}")
    names = split_names(bots)
    table = Table(rules, num_players, seed=seed, names=seat_names(names, num_players), record=record,
                  **layout_for(names), **options)
    agents_ = load_agents(names, table.game, seed, out)
    seat_bot = [agents_[p % len(agents_)] for p in range(num_players)]
    screen = Screen(table, None, ansi, out)
    played = 0
    while True:
        if quiet:
            screen.shown = len(table.events)
        else:
            screen.events()
        if table.over:
            played += 1
            if quiet:
                out(table.events[-1].text(None))
            screen.board()
            if table.state.game_over[0] or played >= rounds:
                screen.standings()
                return 0
            table.next_round()
            continue
        if verbose:
            screen.board()
        if delay:
            time.sleep(delay)
        table.step(agent_action(seat_bot[table.actor], table))


# ====================================================================== replays
def replay_table(record, where: str = "record") -> tuple[Table, list[int]]:
    """``record`` (a ``records.GameRecord``) replayed on a ``Table``: the table at the end and, for each
    recorded action, the number of events up to and including it (``frames[i]``; ``frames`` starts with
    the events of the first deal)."""
    from uno_env.records import RecordError
    names = list(record.agents) if record.agents and len(record.agents) == record.num_players else None
    if names is not None:
        names = [f"{n}_{p}" for p, n in enumerate(names)]
    layout = layout_for([])  # a replay: no agent observes, so no layout or memory is needed
    if record.start is not None:
        table = Table.from_position(record.start, names, **layout)
    else:
        table = Table(record.rules, record.num_players, seed=record.seed, names=names, **layout, **record.options)
    frames = [len(table.events)]
    for i, (seat, a) in enumerate(record.actions):
        if record.episode == "game":
            while table.over and not table.state.game_over[0]:
                table.next_round()
        st = table.state
        if table.over or seat != table.actor or not 0 <= a < table.game.num_actions or not st.mask[0, a]:
            legal = ", ".join(table.legal()) or "none (the round is over)"
            raise RecordError(f"{where}: action {i} is seat {seat} playing action id {a}, but "
                              f"{'the round is over' if table.over else f'seat {table.actor} is asked'}; "
                              f"legal actions: {legal}")
        table.step(int(a))
        frames.append(len(table.events))
    return table, frames


def replay(path: str, game_index: int = 0, viewer: int | None = None, ansi: bool = True, step: bool = True,
           inp=input, out=print) -> int:
    """Step through game ``game_index`` of a record file, as ``viewer`` sees it (``None``: the whole table).

    Enter shows the next action, ``b`` goes back one, a number jumps to that action, ``a`` prints the
    rest, ``q`` quits; with ``step=False`` every event is printed at once, then the final table."""
    record = pick_record(path, game_index)
    if viewer is not None and not 0 <= viewer < record.num_players:
        raise ValueError(f"--seat must be from 0 to {record.num_players - 1} for this record, got {viewer}")
    table, frames = replay_table(record, f"{path}, game {game_index}")
    n = len(record.actions)
    out(f"replay of {path} game {game_index}: {record.rules}, {record.num_players} players, seed {record.seed}, "
        f"{n} recorded actions; seen by "
        f"{'the whole table (omniscient view: every hand shown)' if viewer is None else f'seat {viewer}'}")
    screen = Screen(table, viewer, ansi, out)
    if not step:
        screen.print_events(table.events)
        out(_frame_text(record, table, len(table.events), viewer, ansi))
        return 0
    i = 0  # actions shown
    screen.print_events(table.events[:frames[0]])
    while True:
        out(_frame_text(record, table, frames[i], viewer, ansi))
        ans = _ask(inp, f"[action {i}/{n}] Enter next, b back, number jump, a all, q quit: ").strip().lower()
        if ans in ("q", "quit"):
            return 0
        if ans == "b":
            i = max(0, i - 1)
            continue
        if ans.isdigit():
            i = min(int(ans), n)
            continue
        target = n if ans == "a" else min(i + 1, n)
        if i >= n and ans != "a":
            out("end of the record")
            return 0
        screen.print_events(table.events[frames[i]:frames[target]])
        i = target


def _frame_text(record, table: Table, upto: int, viewer, ansi: bool) -> str:
    """The table as it stood after event ``upto - 1`` (events keep a copy of the game)."""
    ev = table.events[upto - 1]
    view = table.view(viewer, ev.after)
    return view_text(view, table.engine.deck, ansi)


def pick_record(path: str, game_index: int):
    from uno_env.records import read_records
    if game_index < 0:
        raise ValueError(f"--game must be 0 or more, got {game_index}")
    for i, rec in enumerate(read_records(path)):
        if i == game_index:
            return rec
    raise ValueError(f"{path} holds fewer than {game_index + 1} games (--game counts from 0)")


def interrupted() -> int:
    """Ctrl-C: a clean line, no traceback; 130 is the shell's status for it."""
    print("\ninterrupted", file=sys.stderr)
    return 130


__all__ = ["agent_action", "load_agents", "play", "replay", "replay_table", "seat_names", "watch"]
