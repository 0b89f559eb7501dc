"""UNO as a PettingZoo AEC environment (``uno_v4``), over the rules core with one game.

====================  =============================================================================
Import                ``from uno_env import uno_v4`` (or ``uno_env.env``, ``uno_env.raw_env``)
Actions               Discrete; one id per action string (``uno_env.core.actions``)
Parallel API          No
Agents                ``player_0`` ... ``player_{P-1}`` (2 to 10)
Action mask           ``observation["action_mask"]``, int8; zeros for every agent but the one asked
Observation           ``{"observation": float32 vector (uno_env.core.observe), "action_mask": int8}``
Rewards               per round: +1 winner, -1 the others (``episode="round"``); per game with
                      ``episode="game"``; a void blocked round gives 0; an illegal move: -1 for the
                      offender, 0 for the others, the episode ends (PettingZoo's classic convention)
State                 ``state()``/``state_space``: the full state, for a centralised critic only
                      (privileged: every hand and the next draws; never an agent's observation)
====================  =============================================================================

The game is one row of the batched core's state.  A step goes through ``core.scalar.ScalarStepper`` and
an observation through ``Observer.observe_one``, which play and encode exactly what the batched engine
and observer do (``tests/test_scalar.py``) with item reads instead of array operations: for one game
that is several times faster.

``agent_selection`` is the seat asked, which is not always the seat whose turn it is: out-of-turn
decisions (a jump-in, a Skip deflection, a challenge, a colour choice) are asked of the seat
concerned.  Forced moves (a single legal action) are taken by the engine, so every decision offered
is a real choice.  That leaves a channel open to code that reads ``agent_selection`` or observes the
other seats between decisions: whether a seat is asked at all says something its hand explains (the
seat to move holds a playable card, or a draw card's victim under ``house_cn``/``solo_bga`` holds one
to stack; a drawn card it may keep is playable).  With ``ask_forced=True`` the env plays no forced move
itself: the seat is asked, with its one legal action in the mask, as at any decision, so the sequence of
agents asked hangs on public moves only.  The games are the same once that action is taken; the cost is
the extra steps (docs/benchmarks.md).  Jump-in offers (``jump_in``, on in ``solo_bga``) still go to the
seats holding the identical card only, so there ``agent_selection`` still names a holder.

Arguments:
    rules: preset name (``standard_en``, ``standard_ru``, ``house_cn``, ``solo_bga``, ``flip_jp``) or
        a ``RuleConfig``.
    num_players: 2 to 10.
    render_mode: ``None``, ``"ansi"`` (``render()`` returns the table as text with ANSI colours) or
        ``"human"`` (prints it).
    episode: ``"round"`` (an episode is one round) or ``"game"`` (rounds until a game winner).
    illegal_action: ``"lose"`` (default, PettingZoo's classic convention: the offender gets -1, the
        others 0, the episode ends and ``infos[offender]["illegal_action"]`` names the move), ``"raise"``
        (an ``IllegalActionError`` naming the action and the legal ones; the game is unchanged) or
        ``"penalty"`` (the wrong-card rule: the card goes back, the seat draws 2 and, on its own turn,
        the turn passes; other decisions are asked again).
    record: a file (``.jsonl``, or ``.jsonl.gz``) to which every episode is written as a game record
        (``uno_env.records``, docs/records.md); episodes an illegal move ended or changed are left out.
    observation: the observation layout, ``"v3"`` (default: what the table has seen, ``uno_env.core.memory``)
        or ``"v2"`` (the older, shorter layout: the first part of v3).
    ask_forced: ``False`` (default: the engine takes forced moves) or ``True`` (every seat is asked at every
        turn, forced moves included, with one legal action; ``VecGame(forced_moves="ask")``).  Records
        keep the real decisions only, so they replay as any other.
    **options: rule options (the names of rules §9).

A challenge shows the offender's hand to the challenger only (rules §1.6): after the step, that agent's
``infos[challenger]["challenge"]`` is ``{"offender": agent, "hand": [cards], "guilty": bool}`` (for that
step only); with observation v3 the hand is also among the challenger's known cards.

``reset(seed=None, options={"setup": POSITION})`` builds a position in the notation (docs/notation.md)
(for the env's own rules and player count, which fix its spaces: make the env with the position's
``rules``, ``num_players`` and options; the position's ``seed`` wins over ``seed``);
``snapshot()`` returns the current one; ``action_name(i)``/``action_index(name)`` convert action ids.
When ``max_turns_per_round`` stops a round it is reported as truncation (the blocked-round rule E2
still names a winner and the rewards follow it).

Version history:
    * v4: a Wild Draw Colour accepted on an empty draw pile reshuffles the discards and the victim draws
      (it drew nothing; ``flip_jp`` games change); ``prev_color`` is the colour before the top card in
      every preset and after a retraction; a seat not asked sees a decision that only a hidden hand explains
      (a jump-in offer, a Skip that may be passed on, a playable drawn card) as if declined; an innocent
      challenge verdict is in the offender's ``lacks``.  The layouts keep their sizes.
    * v3: an illegal move ends the episode with -1 for the offender and 0 for the others, the move named
      in ``infos`` (PettingZoo's classic convention; ``illegal_action="raise"`` keeps the old default);
      observation v3: public history, known cards, the challenged hand shown to the challenger
      (``observation="v2"`` keeps the old layout); ``state()``/``state_space``; no seeded game changes.
    * v2: under ``drawn_card_play="never"`` a chain of forced draws that came round to a seat holding a
      card it had drawn and could play made it draw again; it is now asked (seeded games with that
      option change, no preset's).
    * v1: chains of forced draws longer than the engine's look-ahead (9 and 10 players) check every
      seat's hand (some seeded games of 9 and 10 players change).
    * v0: first release.
"""

from __future__ import annotations

from collections import deque

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from .checks import ILLEGAL_ACTIONS, action_ids, check_illegal_action
from .core.actions import CHALLENGE
from .core.game import VecGame
from .core.memory_view import challenged_hand
from .core.notation import PositionError
from .core.rules import IllegalActionError
from .core.state import OVER
from .registration import register_pettingzoo
from .render import render_table

ILLEGAL_POLICIES = ILLEGAL_ACTIONS  # the name this module exported before
EPISODES = ("round", "game")


def env(**kwargs) -> AECEnv:
    """The wrapped environment (order enforcing), as PettingZoo's classic environments are."""
    return OrderEnforcing(raw_env(**kwargs))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, with the same checks, errors and warnings, whose calls in the
    AEC loop (``agent_iter``'s next agent, ``last``, ``observe``, ``step``) reach the env in one call each.

    The base wrapper reads the env's attributes through ``__getattr__`` (a failed look-up, then two forwarding
    calls): the standard loop made eight such reads per step (``agents`` and ``agent_selection`` for the
    iterator, ``agents`` for ``step``, ``agent_selection``, ``_cumulative_rewards``, ``terminations``,
    ``truncations`` and ``infos`` for ``last``), and three calls per ``observe``: together about a tenth of
    a step (benchmarks/bench_aec.py).  Attribute reads other than these still go through ``__getattr__``."""

    def last(self, observe: bool = True):
        if not self._has_reset:  # what the base wrapper's ``agent_selection`` read raises
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def observe(self, agent):
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action) -> None:
        env = self.env
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            env.step(action)

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo prints an env inside its own OrderEnforcingWrapper


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self):
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """``AECOrderEnforcingIterator`` reading the env's ``agents`` and ``agent_selection`` directly."""

    def __next__(self):
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


class raw_env(AECEnv):
    metadata = {"render_modes": ["human", "ansi"], "name": "uno_v4", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, rules="standard_en", num_players: int = 4, render_mode: str | None = None,
                 episode: str = "round", illegal_action: str = "lose", record=None, observation: str = "v3",
                 ask_forced: bool = False, **options):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode={render_mode!r} is not supported; use None, 'ansi' or 'human'")
        if episode not in EPISODES:
            raise ValueError(f"episode={episode!r} is not allowed; use 'round' or 'game'")
        check_illegal_action(illegal_action)
        if not isinstance(ask_forced, bool):
            raise ValueError(f"ask_forced={ask_forced!r} is not allowed; use True or False")
        self.ask_forced = ask_forced
        self.game = VecGame(rules, num_players, batch_size=1, seed=0, autoreset=False, observation=observation,
                            forced_moves="ask" if ask_forced else "bulk", **options)
        # the moves applied, chosen and forced: (row, seat, action id or text), the last 12 (``history``)
        self._moves: deque = deque(maxlen=12)
        self._listen = self._moves.extend  # the listener given to every call that moves the game
        self._scalar = self.game.scalar  # one game: the same moves by item reads (core.scalar)
        self._observe_one = self.game.observer.observe_one
        self._names = self.game.action_names
        self._challenges = frozenset(np.flatnonzero(self.game.engine.A_KIND == CHALLENGE).tolist())
        self.render_mode, self.episode, self.illegal_action = render_mode, episode, illegal_action
        self.rules = self.game.rules
        P, A = self.game.num_players, self.game.num_actions
        self.possible_agents = [f"player_{i}" for i in range(P)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = self.game.observer.bounds()
        obs_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (A,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A) for a in self.possible_agents}
        plow, phigh = self.game.observer.privileged_bounds()
        self.state_space = spaces.Box(np.concatenate([low, plow]), np.concatenate([high, phigh]), dtype=np.float32)
        self._recorder = self._writer = None
        if record is not None:
            from .records import Recorder, RecordWriter
            self._writer = RecordWriter(record)
            self._recorder = Recorder(self.game, episode, agents=self.possible_agents, sink=self._writer.write,
                                      env=self.metadata["name"])
        self._seeds: np.random.Generator | None = None  # after reset(seed): the seeds of later resets
        self._flagged: str | None = None  # the agent whose info reports an illegal action this step
        self._observed: tuple | None = None  # (agent, observation) asked since the last step or reset
        self._shown: str | None = None  # the challenger whose info shows the challenged hand this step

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ---------------------------------------------------------------- names and positions
    def action_name(self, i: int) -> str:
        """The code of action id ``i`` (``"play R5"``, ``"draw"``, ``"uno"``; docs/notation.md#legend)."""
        return self.game.action_name(i)

    def action_index(self, name: str) -> int:
        """The action id of the code ``name``, to pass to ``step``:
        ``env.step(env.unwrapped.action_index("draw"))``."""
        return self.game.action_index(name)

    def legal_actions(self) -> list[str]:
        """The codes of the actions legal now for ``agent_selection``, in id order."""
        return self.game.legal_actions(0)

    def snapshot(self) -> dict:
        return self.game.snapshot(0)

    def state(self) -> np.ndarray:
        """The full state as one float32 vector (``state_space``), for a centralised critic: seat 0's
        observation, then what seat 0 may not see (``Observer.privileged``: the other hands, relative to
        seat 0, and the next cards of the draw pile).  Privileged: never give it to an actor."""
        obs = self.game.observer.observe_one(self.game.state, 0)
        hidden = self.game.observer.privileged(self.game.state, np.zeros(1, np.intp), np.zeros(1, np.intp))[0]
        return np.concatenate([obs, hidden])

    # ---------------------------------------------------------------- AEC API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._observed = None
        options = options or {}
        unknown = set(options) - {"setup"}
        if unknown:  # PettingZoo's api_test passes arbitrary options, so warn rather than fail
            import gymnasium
            gymnasium.logger.warn(f"reset ignores unknown option(s) {sorted(unknown)}; "
                                  f"the only option is 'setup'")
        self._moves.clear()
        if "setup" in options:
            setup = options["setup"]
            if isinstance(setup, dict) and "seed" not in setup and seed is not None:
                setup = {**setup, "seed": int(seed)}
            self.game.load(setup, listener=self._listen)
        else:  # reset() after reset(seed) goes on with a stream derived from that seed (Gymnasium's rule)
            if seed is not None:
                self._seeds = np.random.default_rng(seed)
            elif self._seeds is not None:
                seed = int(self._seeds.integers(2**31))
            self.game.reset(seed, listener=self._listen)
        if self._recorder is not None:
            self._recorder.begin(0, fresh="setup" not in options)
        self._flagged = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        if self.game.state.phase[0] == OVER:  # a position given after its round ended
            self.agent_selection = self._agent(max(int(self.game.state.winner[0]), 0))
            self._end_round(self.game.engine.result(self.game.state, np.array([False])))
            self._accumulate_rewards()
        else:
            self.agent_selection = self._agent(int(self.game.state.actor[0]))
        if self.render_mode == "human":
            self.render()

    def _agent(self, seat: int) -> str:
        return self.possible_agents[seat]

    def observe(self, agent: str) -> dict:
        """The agent's observation and action mask.  An agent asked again before the next ``step`` or ``reset``
        (``last()`` then ``observe``, as PettingZoo's SB3 tutorial wrapper does for the mask) gets a copy of the
        vector already encoded; the game is changed by ``step`` and ``reset`` only (code that changes
        ``env.unwrapped.game`` itself should call ``reset`` or ``step`` before observing)."""
        st = self.game.state
        seen = self._observed
        if seen is not None and seen[0] == agent:
            obs = seen[1].copy()
        else:
            obs = self._observe_one(st, self._seat[agent])
            self._observed = (agent, obs.copy())  # its own copy: the caller may change the one it gets
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask = st.mask[0].astype(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action) -> None:
        self._observed = None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is int and 0 <= action < self.game.num_actions:  # the loop's common case
            a = action
        else:
            a = int(action_ids(action, (), self.game.num_actions))
        if self._flagged is not None:  # an illegal action is reported for the step it happened in
            self.infos[self._flagged] = {k: v for k, v in self.infos[self._flagged].items() if k != "illegal_action"}
            self._flagged = None
        if self._shown is not None:  # the challenged hand is reported for the step of the challenge only
            self.infos[self._shown].pop("challenge", None)
            self._shown = None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        st = self.game.state
        if not st.mask.item(0, a):
            if self._illegal(agent, a):
                return
            self._accumulate_rewards()
        else:
            shown = challenged_hand(self.game.engine, st, 0, a) if a in self._challenges else None
            if self._recorder is not None and not (self.ask_forced and st.nlegal.item(0) == 1):
                self._recorder.act(0, st.actor.item(0), a)  # a record holds decisions: it replays forced moves
            ended = self._scalar.step(st, a, self._listen, self.ask_forced)
            if ended:
                self._end_round(self.game.engine.result(st, np.zeros(1, bool)))
                self._accumulate_rewards()
            else:  # no rewards yet: nothing to add to the cumulative ones
                self.agent_selection = self.possible_agents[st.actor.item(0)]
            if shown is not None:
                self._shown = agent
                self.infos[agent] = {**self.infos[agent], "challenge": {
                    "offender": self._agent(shown["offender"]), "hand": shown["hand"], "guilty": shown["guilty"]}}
        if self.render_mode == "human":
            self.render()

    def _illegal(self, agent: str, a: int) -> bool:
        """Handle an illegal action per ``illegal_action``; True when the step is finished."""
        e, st = self.game.engine, self.game.state
        if self.illegal_action == "raise":
            raise IllegalActionError(e.describe_illegal(st, 0, a))
        self.infos[agent] = {**self.infos[agent], "illegal_action": self.action_name(a)}
        self._flagged = agent
        if self._recorder is not None:  # a record holds legal moves only: this episode is not recorded
            self._recorder.drop(0)
        if self.illegal_action == "lose":
            for x in self.agents:
                self.rewards[x] = -1.0 if x == agent else 0.0
                self.terminations[x] = True
            self._accumulate_rewards()
            return True
        # penalty: the wrong card goes back, the seat draws 2; on its own turn the turn passes
        self._moves.append((0, int(st.actor[0]), f"{self.action_name(a)} (illegal: draws 2)"))
        # its draws (heard as action -1) are in that entry; the forced moves after them are heard
        e.wrong_card_penalty(st, np.array([0]), self.game.settling_with(
            lambda moves: self._moves.extend(m for m in moves if m[2] >= 0)))
        out = e.result(st, np.array([False]))
        if out.round_over[0]:
            self._end_round(out)
        else:
            self.agent_selection = self._agent(int(st.actor[0]))
        return False

    def _end_round(self, out) -> None:
        st = self.game.state
        if self.episode == "game" and not out.game_over[0]:
            self.game.deal_on(0, self._listen)
            if st.phase[0] != OVER:
                self.agent_selection = self._agent(int(st.actor[0]))
                return
            out = self.game.engine.result(st, np.zeros(1, bool))  # the game ended at a deal (forced moves)
        if self._recorder is not None:
            self._recorder.end(0)
        rewards = out.game_rewards[0] if self.episode == "game" else out.rewards[0]
        info = {"winner": int(out.winner[0]), "round_points": int(out.round_points[0]),
                "scores": [int(x) for x in st.scores[0]], "game_over": bool(st.game_over[0])}
        trunc = bool(out.truncated[0])
        for i, x in enumerate(self.agents):
            self.rewards[x] = float(rewards[i])
            self.terminations[x] = not trunc
            self.truncations[x] = trunc
            self.infos[x] = dict(info)

    @property
    def history(self) -> deque:
        """The last 12 moves, ``(seat, action name)`` (``render`` lists them)."""
        names = self._names
        return deque(((seat, a if isinstance(a, str) else names[a]) for _, seat, a in self._moves
                      if isinstance(a, str) or a >= 0), maxlen=12)

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_table(self.game, 0, history=self.history, ansi=True)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = self._recorder = None


__all__ = ["env", "raw_env", "PositionError"]

register_pettingzoo()  # the registry ids (uno_env.registration)
