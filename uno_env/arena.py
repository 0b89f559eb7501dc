"""Agents play a match: the one batched loop behind evaluation, round analysis and the learner's opponents.

Every place where agents move asks them the same way (``choose``): the rows of a batch are grouped by the
agent that holds the seat to move, and each agent gets one ``act`` call on the layout it reads
(``observer_for``).  ``play`` plays whole games with that step on a ``VecGame``:

* game ``g`` seats slot ``s`` of the lineup at seat ``(s + g) mod P`` (``rotate``), so that every agent sits
  in every seat equally often;
* exactly ``games`` games are dealt and each is played to its end (stopping once ``games`` had finished would
  favour short games and whoever wins them); a row whose game ends deals the next one;
* a "game" is one round (``episode="round"``) or a whole game to the target (``"game"``).

It takes agent objects (anything with ``act(observations, masks, rng)``); turning names into agents is done
above it (``agents.load``, ``uno_env.opponents``).  ``uno_env.evaluation.play_match`` turns its count
(``Tally``) into win rates and ratings.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .core.game import VecGame
from .core.observe import Observer
from .core.rows import all_rows
from .core.state import OVER


def observer_for(game: VecGame, agent, cache: dict) -> Observer:
    """The observer of the layout ``agent`` reads (its ``observation``: a bot reads v2, the first part of v3,
    more cheaply; a trained policy the layout it was trained on), else the game's; ``cache`` keeps them."""
    want = getattr(agent, "observation", None)
    if want not in ("v2", "v3") or want == game.observer.version or game.state.memory is None:
        return game.observer
    if want not in cache:
        cache[want] = Observer(game.engine, want)
    return cache[want]


def choose(game: VecGame, agents: list, who: np.ndarray, rows: np.ndarray, seats: np.ndarray,
           rng: np.random.Generator, observers: dict, scalar=None, costs=None) -> np.ndarray:
    """``(n,) int64`` the actions of ``agents[who[j]]`` for seat ``seats[j]`` of game ``rows[j]``.

    One ``act`` call per distinct agent, in the order of ``who``'s values, all drawing from ``rng`` (so a
    seeded match replays).  An agent with ``observes = False`` reads only the masks and is passed ``None``
    (no observation is built for it).  ``scalar``: the game's one-game stepper, whose item reads observe a
    single row more cheaply.  ``costs``: ``(decisions, seconds)`` arrays per agent, added to."""
    st = game.state
    actions = np.empty(rows.size, np.int64)
    if rows.size == 0:
        return actions
    present = np.unique(who) if len(agents) > 1 else np.zeros(1, np.intp)
    for k in present.tolist():
        i = np.flatnonzero(who == k) if present.size > 1 else slice(None)
        r, s, agent = rows[i], seats[i], agents[k]
        start = time.perf_counter() if costs is not None else 0.0
        if getattr(agent, "observes", True) is False:
            obs = None
        elif scalar is not None and r.size == 1:
            obs = observer_for(game, agent, observers).observe_one(st, int(s[0]))[None]
        else:
            obs = observer_for(game, agent, observers).observe(st, r, s)
        actions[i] = agent.act(obs, st.mask[r], rng)
        if costs is not None:
            costs[0][k] += r.size
            costs[1][k] += time.perf_counter() - start
    return actions


@dataclass
class Tally:
    """What ``play`` counted, by seat slot of the lineup (index ``s``) and by game number (``g``)."""

    games: int  # games played to their end (all that were dealt)
    void: int  # games without a winner
    wins: np.ndarray  # (P,) games won by each slot
    points: np.ndarray  # (P,) points scored by the last round of the games each slot won
    winners: np.ndarray  # the winning slot of each decided game, in the order they ended (for ratings)
    game_winners: np.ndarray  # (games,) the winning slot of game g (-1: void)
    game_points: np.ndarray  # (games,) the points of game g's last round
    agents: list  # the distinct agent objects of the lineup, in order
    decisions: np.ndarray  # (agents,) decisions each made
    act_seconds: np.ndarray  # (agents,) seconds its observations and act calls took
    seconds: float  # the whole match

    def cost(self, agent) -> dict:
        """The decisions ``agent`` made and the seconds they took."""
        k = next(k for k, a in enumerate(self.agents) if a is agent)
        return {"decisions": int(self.decisions[k]), "seconds": float(self.act_seconds[k])}


def _distinct(lineup: list) -> tuple[list, np.ndarray]:
    """The distinct agent objects of ``lineup`` (by identity, in order) and each slot's index into them."""
    agents = list({id(a): a for a in lineup}.values())
    index = {id(a): k for k, a in enumerate(agents)}
    return agents, np.array([index[id(a)] for a in lineup], np.intp)


def play(game: VecGame, lineup: list, games: int, rng: np.random.Generator, *, episode: str = "round",
         rotate: bool = True, names: list[str] | None = None, record=None, watch: Callable | None = None,
         tracker=None, progress: Callable[[int], None] | None = None) -> Tally:
    """Play ``games`` games of ``game`` (``autoreset=False``, just dealt) between ``lineup``, one agent
    object per seat slot (the same object in several slots makes one ``act`` call for them all).

    ``names``: the slots' names, for ``record`` (a file, or a ``records.RecordWriter``, that every game is
    written to).  ``watch(state, rows, seats, slots, actions)`` sees each batch of decisions before it is
    applied (it must not change the state).  ``tracker``: an object told of ``stepped(rows)`` after each batch
    of decisions, ``ended(rows)`` when games end (before the next deal) and ``dealt(rows)`` after the next
    games are dealt (``analysis`` measures rounds so).  ``progress(n)``: ``n`` more games finished.
    """
    if episode not in ("round", "game"):
        raise ValueError(f"episode={episode!r} is not allowed; use 'round' or 'game'")
    st, engine = game.state, game.engine
    B, P = st.batch_size, game.num_players
    if len(lineup) != P:
        raise ValueError(f"lineup has {len(lineup)} agents for {P} seats")
    if games < B:  # every row plays at least its first game to the end
        raise ValueError(f"games={games} is fewer than the {B} games the batch deals at once")
    agents, slot_agent = _distinct(lineup)
    costs = (np.zeros(len(agents), np.int64), np.zeros(len(agents)))
    observers: dict = {}
    game_no = np.arange(B)  # the game each row is playing
    rotation = game_no % P if rotate else np.zeros(B, np.int64)  # seat s is played by slot (s - rotation) % P
    wins, points = np.zeros(P, np.int64), np.zeros(P, np.int64)
    by_winner, by_points = np.full(games, -1, np.int64), np.zeros(games, np.int64)
    winners: list[int] = []
    done = void = 0
    next_game = B
    recorder = writer = None
    if record is not None:
        from . import records
        writer = record if isinstance(record, records.RecordWriter) else records.RecordWriter(record)
        seat_names = names or [getattr(a, "name", type(a).__name__) for a in lineup]
        recorder = records.Recorder(game, episode, sink=writer.write,
                                    agents=lambda r: [seat_names[(s - rotation[r]) % P] for s in range(P)])
        recorder.begin(np.arange(B), fresh=True)  # each row's first game is VecGame's seed + row
    active = np.ones(B, bool)
    t0 = time.perf_counter()
    while active.any():
        rows = all_rows(B) if active.all() else np.flatnonzero(active)  # the whole batch: the engine uses views
        dealt_over = st.phase[rows] == OVER
        if dealt_over.any():  # rounds that forced moves ended at their deal (as with one-card hands)
            ended = rows[dealt_over]
        else:
            seats = st.actor[rows].astype(np.int64)
            slots = (seats - rotation[rows]) % P
            actions = choose(game, agents, slot_agent[slots], rows, seats, rng, observers, costs=costs)
            if watch is not None:
                watch(st, rows, seats, slots, actions)
            if recorder is not None:
                recorder.act(rows, seats, actions)
            ended = rows[engine.step_rows(st, rows, actions).round_over]
            if tracker is not None:
                tracker.stepped(rows)
            if ended.size == 0:
                continue
        finished = ended if episode == "round" else ended[st.game_over[ended]]
        if episode == "game" and finished.size < ended.size:  # the game goes on: its next round
            game.next_round(np.setdiff1d(ended, finished))
        if finished.size == 0:
            continue
        if recorder is not None:
            recorder.end(finished, info=[{"game": int(game_no[r])} for r in finished])
        if tracker is not None:
            tracker.ended(finished)
        # the winner of a game: its last round's, or the first of the highest (lowest) scores
        w = st.winner[finished].astype(np.int64) if episode == "round" else \
            engine.game_winners(st, finished).argmax(1)
        won = finished[w >= 0]
        slot = (w[w >= 0] - rotation[won]) % P
        np.add.at(wins, slot, 1)
        np.add.at(points, slot, st.round_points[won])
        by_winner[game_no[won]], by_points[game_no[won]] = slot, st.round_points[won]
        winners.extend(slot.tolist())
        void += finished.size - won.size
        done += finished.size
        if progress is not None:
            progress(finished.size)
        # new games in finished rows until ``games`` have been dealt, then the rest finish
        fresh = finished[: max(0, games - next_game)]
        active[finished[fresh.size:]] = False
        if fresh.size:
            game_no[fresh] = next_game + np.arange(fresh.size)
            next_game += fresh.size
            if rotate:
                rotation[fresh] = game_no[fresh] % P
            if episode == "game":
                game.new_game(fresh)
            else:
                game.next_round(fresh)
            if recorder is not None:
                recorder.begin(fresh)
            if tracker is not None:
                tracker.dealt(fresh)
    if writer is not None and writer is not record:
        writer.close()
    return Tally(done, void, wins, points, np.array(winners, np.int64), by_winner, by_points, agents, costs[0],
                 costs[1], time.perf_counter() - t0)


__all__ = ["Tally", "choose", "observer_for", "play"]
