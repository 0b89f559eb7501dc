"""How much does looking ahead add to the heuristic bot?  Determinized Monte Carlo search in one seat.

    python -m research.search_probe --players 4 --rounds 2000 --worlds 64   # the 4-player figure of docs/training.md
    python -m research.search_probe --players 2 --rounds 2000 --worlds 32
    V2=results/v3_agents/warm_start/ppo-standard_en-2p-v2   # the v2 2-player agent
    python -m research.search_probe --players 2 --rounds 2000 --worlds 16 --batch-size 250 --agent $V2
    python -m research.search_probe --players 2 --rounds 2000 --batch-size 250 --agent $V2 --z inf
    python -m research.search_probe --players 2 --rounds 2000 --worlds 16 --batch-size 250 --agent $V2 \
        --information inferred

One seat searches and the others are heuristic bots; the searching seat moves on by one every round.
``--agent`` searches over a trained agent (one that reads the v2 observation) instead of the heuristic: its
choice stands unless beaten, and it plays its own seat in the rollouts (a rollout search over the policy).
``--z inf`` plays the same deals without searching, the paired baseline.
At each decision with more than one legal action the searching seat samples ``--worlds`` deals that
agree with what it has seen: the cards it has not seen (the other hands and the draw pile) are dealt
again at random with the hand sizes it sees, and a pending wild draw card's guilt is recomputed from
the dealt hand.  Each legal action is played in every world and the round is rolled out to its end
with heuristic bots in every seat; the worlds, actions and games of a step go through the core as one
batch.  The seat keeps the heuristic's own choice unless another action wins more rollouts by ``--z``
standard errors of the paired difference (every action meets the same worlds and random streams).

It answers a question about targets, as ``tune_heuristic`` does: how far a player gets against the
heuristic bots by looking ahead with them.  ``--information`` says what the sampled deals keep true:

* ``seen`` (the default): only what the seat has seen; what it could infer from the others' draws is
  ignored, so this bounds search of this kind from below.
* ``voids``: the same, but a seat that drew on a colour instead of playing (and has not played since) is
  dealt no card of that colour, wilds excepted, as far as the unseen cards allow: what the bots' draws
  reveal.  It does not cheat.
* ``inferred``: the other hands are drawn from a particle filter (``research.belief``) that keeps
  ``--particles`` candidate deals per game and drops those in which a heuristic bot would not have played
  as it did: the other hands as far as the bots' play reveals them, to a seat that knows how they play.
  It does not cheat.
* ``hands`` (cheating): the other hands are the true ones, only the draw pile is shuffled again; it bounds
  what any inference of the other hands could add.  ``next`` (cheating): only the next seat's hand (in
  the direction of play) is the true one; what reading that hand alone could add.  ``pile``
  (cheating): the pile's true order, the hands dealt again.  ``perfect`` (``--perfect-information``,
  cheating): the true deal.

One-sided decks only (in UNO Flip a seat cannot see its own backs).
Prints one JSON line; ``hidden_cards_right`` is the share of the other hands' cards that the sampled
worlds held too (by kind, over the searched decisions): how well the deals read the hidden hands.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from agents.bots import HeuristicAgent
from training.evaluate import wilson
from uno_env import VecGame
from uno_env.core.matching import guilt
from uno_env.core.state import OVER, State

# --information -> what sample_worlds deals again (the other hands, the pile) and whether around voids;
# "perfect" deals nothing again
REDEAL = {"seen": (True, True, False), "voids": (True, True, True), "hands": (False, True, False),
          "next": ("next", True, False), "pile": (True, False, False)}
INFORMATION = (*REDEAL, "inferred", "perfect")


def moves(bot, agent, obs: np.ndarray, mask: np.ndarray, own: np.ndarray) -> np.ndarray:
    """The heuristic's moves, and ``agent``'s (if any) in the rows ``own`` where the searching seat acts."""
    actions = bot.act(obs, mask).astype(np.int64)
    if agent is not None and own.any():
        actions[own] = agent.act(obs[own], mask[own])
    return actions


class Searcher:
    """Flat Monte Carlo over sampled deals, with heuristic rollouts, for the acting seat of given rows.

    ``information``: what the sampled deals keep true (the module docstring; ``REDEAL``).
    """

    def __init__(self, game: VecGame, worlds: int, z: float, rng: np.random.Generator,
                 information: str = "seen", agent=None, particles: int = 256):
        e = game.engine
        if e.two_sided:
            raise ValueError("the search probe samples one-sided decks only: in UNO Flip a seat cannot see "
                             "the backs of its own cards")
        if e.challenge_on and e.config.wild_draw_restriction != "color_only":
            raise ValueError(f"the search probe recomputes a wild draw card's guilt for "
                             f"wild_draw_restriction='color_only' only, got {e.config.wild_draw_restriction!r}")
        if worlds < 2:
            raise ValueError(f"worlds={worlds} is too few; the paired test needs at least 2")
        if information not in INFORMATION:
            raise ValueError(f"information={information!r} is not allowed; choose one of: {', '.join(INFORMATION)}")
        self.e, self.observer = e, game.observer
        self.bot = HeuristicAgent(game)
        self.agent = agent  # plays the searching seat's moves in the rollouts (None: the heuristic)
        self.worlds, self.z, self.rng, self.information = worlds, z, rng, information
        self.searched = self.overridden = 0
        self.overlap = [0.0, 0]  # summed share of the other hands' cards the worlds got right, decisions
        self.belief = None
        if information == "inferred":
            from research.belief import ParticleBelief
            self.belief = ParticleBelief(game, particles, rng, self.sample_worlds)

    def sample_worlds(self, st: State, me: np.ndarray, hands: bool = True, pile: bool = True,
                      voids: bool = False) -> None:
        """Deal again, in place, the cards that seat ``me[i]`` of world ``i`` has not seen: the other
        seats' hands (``hands``; ``"next"``: all but the next seat's) and the draw pile (``pile``); what
        is not dealt again stays true.
        ``voids``: a seat that drew on colour c instead of playing (and has not played since) is dealt
        no card of colour c but wilds, as far as the unseen cards allow: a heuristic bot draws only when
        nothing fits or to keep a lone wild, and plays a drawn card that fits (penalty cards it took
        since are not told apart)."""
        e, rng = self.e, self.rng
        n, P, K = st.batch_size, e.P, e.K
        ar = np.arange(n)
        other = np.ones((n, P), bool)
        other[ar, me] = False
        if hands == "next":  # the next seat in the direction of play keeps its true hand
            other[ar, (me + st.direction.astype(np.intp)) % P] = False
        else:
            other &= hands
        hand_n = st.hand_n.astype(np.int64) * other  # (n, P) sizes of the hands dealt again
        counts = (st.hands.astype(np.int64) * other[:, :, None]).sum(1)  # (n, K) cards dealt again per kind
        dn = st.draw_n.astype(np.int64) * pile
        cards = np.where(np.arange(e.N)[None, :] < dn[:, None], st.draw, K)  # K: past the pile's top
        counts += np.bincount((ar[:, None] * (K + 1) + cards).ravel(), minlength=n * (K + 1)).reshape(n, K + 1)[:, :K]
        total = counts.sum(1)
        world = np.repeat(ar, total)
        kinds = np.repeat(np.tile(np.arange(K), n), counts.ravel())
        kinds = kinds[np.lexsort((rng.random(kinds.size), world))]  # shuffled within each world
        first = np.repeat(np.cumsum(total) - total, total)  # each card's world starts here
        pos = np.arange(kinds.size) - first
        if voids:
            seat = self._deal_around_voids(st, world, kinds, first, hand_n, other)
        else:
            ends = np.cumsum(hand_n, 1)  # seat j holds positions ends[j] - hand_n[j] .. ends[j] - 1
            seat = (pos[:, None] >= ends[world]).sum(1)  # P: the draw pile
        held = seat < P
        st.hands[other] = 0
        cell = ((world * P + seat) * K + kinds)[held]
        st.hands.reshape(-1)[:] += np.bincount(cell, minlength=st.hands.size).astype(np.int8)
        rest = (~held).nonzero()[0]  # the draw pile, in the shuffled order
        w = world[rest]
        st.draw[w, np.arange(rest.size) - np.searchsorted(w, w)] = kinds[rest]
        e.resync(st, ar)
        if hands and e.challenge_on:  # the offender's dealt hand decides a challenge
            c = st.challengeable.nonzero()[0]
            if c.size:  # guilt as the engine judged it at the play: against the colour before it
                st.guilty[c] = guilt(e, st, c, st.origin[c].astype(np.intp), st.side[c].astype(np.intp),
                                    color=st.prev_color[c])

    def _deal_around_voids(self, st: State, world, kinds, first, hand_n, other) -> np.ndarray:
        """The seat (P: the pile) of each unseen card: each hidden seat in turn takes its hand's size of
        the cards left, at random, those of the colour it drew on (wilds excepted) only if it must."""
        e, P, rng = self.e, self.e.P, self.rng
        void = np.where(other, st.drew_on.astype(np.int64), -1)  # (n, P)
        color, wild = e.K_COLOR[0][kinds], e.F_WILD[kinds]  # one-sided deck: faces are kinds
        seat = np.full(kinds.size, P)
        for j in range(P):
            need = hand_n[world, j]
            if not need.any():
                continue
            shunned = (color == void[world, j]) & ~wild
            key = rng.random(kinds.size) + 2.0 * shunned + 4.0 * (seat < P)
            order = np.lexsort((key, world))  # by world, then key
            pick = order[np.arange(kinds.size) - first < need[order]]
            seat[pick] = j
        return seat

    def rollout(self, st: State, first: np.ndarray, me: np.ndarray) -> np.ndarray:
        """Play ``first`` in every world, then heuristic bots (and ``agent`` in ``me``'s seat) to the round's
        end; whether ``me`` won."""
        e = self.e
        e.step_rows(st, np.arange(st.batch_size), first)
        while True:
            live = (st.phase != OVER).nonzero()[0]
            if live.size == 0:
                return st.winner == me
            obs = self.observer.observe(st, live, st.actor[live].astype(np.intp))
            e.step_rows(st, live, moves(self.bot, self.agent, obs, st.mask[live], st.actor[live] == me[live]))

    def choose(self, st: State, rows: np.ndarray, default: np.ndarray) -> np.ndarray:
        """Actions for the acting seats of ``rows`` (``default``: the heuristic's or the agent's choices)."""
        if self.z == np.inf:  # nothing could be overridden: the default player alone, on the same deals
            self.searched += len(rows)
            return default.copy()
        D = self.worlds
        if self.belief is not None:  # the particles' hidden hands, the pile dealt again around them
            worlds = self.belief.worlds(rows, D)
            me = worlds.actor.astype(np.intp)
            self.sample_worlds(worlds, me, hands=False, pile=True)
        else:
            worlds = st.take(np.repeat(rows, D))
            me = worlds.actor.astype(np.intp)
            if self.information in REDEAL:
                hands, pile, voids = REDEAL[self.information]
                self.sample_worlds(worlds, me, hands=hands, pile=pile, voids=voids)
        true = st.hands[np.repeat(rows, D)].astype(np.int64)
        other = np.arange(self.e.P)[None, :] != me[:, None]
        right = np.minimum(worlds.hands, true).sum(2)[other].sum() / max(int(true.sum(2)[other].sum()), 1)
        self.overlap[0] += float(right) * len(rows)
        self.overlap[1] += len(rows)
        seeds = self.rng.integers(0, 2**62, worlds.batch_size)
        dec, acts = st.mask[rows].nonzero()  # one pair per (decision, legal action), decision-major
        idx = (dec[:, None] * D + np.arange(D)[None, :]).ravel()
        sub = worlds.take(idx)
        self.e.seed_rows(sub, np.arange(sub.batch_size), seeds[idx])
        won = self.rollout(sub, np.repeat(acts, D), me[idx]).reshape(-1, D).astype(np.float64)
        out = default.copy()
        for j in range(len(rows)):
            pairs = (dec == j).nonzero()[0]
            diff = won[pairs] - won[pairs[acts[pairs] == default[j]][0]]
            mean, se = diff.mean(1), diff.std(1, ddof=1) / np.sqrt(D)
            better = mean > self.z * se + 1e-12
            if better.any():
                out[j] = acts[pairs][np.where(better, mean, -np.inf).argmax()]
        self.searched += len(rows)
        self.overridden += int(np.count_nonzero(out != default))
        return out


def probe(rules: str = "standard_en", players: int = 4, rounds: int = 2000, worlds: int = 64, z: float = 1.5,
          batch_size: int = 64, seed: int = 0, information: str = "seen", progress: bool = False,
          agent: str | None = None, particles: int = 256) -> dict:
    """Play ``rounds`` rounds of one searching seat against heuristic bots; the result as a dict.

    ``agent``: a trained agent (name or path) whose choice the search keeps unless another action wins, and
    which plays the searching seat in the rollouts: a rollout search over the policy.  It must read the v2
    observation: the sampled worlds keep no table memory (``core.memory``) for v3.

    Every round dealt is played to its end and counted (as in ``training.evaluate``), so long rounds
    are not cut off when the count is reached."""
    if rounds < 1 or batch_size < 1:
        raise ValueError(f"rounds and batch_size must be positive, got {rounds} and {batch_size}")
    batch_size = min(batch_size, rounds)
    # v2: the sampled worlds keep no table memory, so the searching policy reads the layout without it
    game = VecGame(rules, players, batch_size=batch_size, seed=seed, autoreset=False, observation="v2")
    st, engine = game.state, game.engine
    bot = HeuristicAgent(game)
    player = None
    if agent is not None:
        import agents
        if agents.observation_of(agent) == "v3":
            raise ValueError(f"agent {agent!r} reads the v3 observation; the search probe's sampled worlds keep "
                             f"no table memory, so only agents that read v2 can search")
        player = agents.load(agent, game=game, seed=seed)
    searcher = Searcher(game, worlds, z, np.random.default_rng(seed + 1), information, player, particles)
    seat = np.arange(batch_size) % players  # the searching seat of each game, moved on every round
    belief = searcher.belief
    if belief is not None:
        belief.deal(st, np.arange(batch_size), seat)
    active = np.ones(batch_size, bool)
    dealt, played, wins, void = batch_size, 0, 0, 0
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=rounds, unit="round")
    t0 = time.perf_counter()
    while played < rounds:
        rows = active.nonzero()[0]
        obs = game.observer.observe(st, rows, st.actor[rows].astype(np.intp))
        actions = moves(bot, player, obs, st.mask[rows], st.actor[rows] == seat[rows])
        mine = ((st.actor[rows] == seat[rows]) & (st.nlegal[rows] > 1)).nonzero()[0]
        if mine.size:
            actions[mine] = searcher.choose(st, rows[mine], actions[mine])
        pre = st.take(rows) if belief is not None else None
        out = engine.step_rows(st, rows, actions)
        if belief is not None:
            belief.update(pre, st, rows, actions)
        ended = rows[out.round_over]
        if ended.size == 0:
            continue
        played += ended.size
        wins += int(np.count_nonzero(st.winner[ended] == seat[ended]))
        void += int(np.count_nonzero(st.winner[ended] < 0))
        if bar is not None:
            bar.update(ended.size)
        seat[ended] = (seat[ended] + 1) % players
        more = ended[:max(0, rounds - dealt)]
        if more.size:
            game.next_round(more)
            dealt += more.size
            if belief is not None:
                belief.deal(st, more, seat[more])
        active[ended[more.size:]] = False
    if bar is not None:
        bar.close()
    lo, hi = wilson(wins, played)
    return {"rules": rules, "players": players, "opponents": "heuristic", "searcher": agent or "heuristic",
            "worlds": worlds, "z": z if np.isfinite(z) else str(z),  # --z inf: never search (the agent alone)
            "information": information, "perfect_information": information == "perfect", "rounds": played, "wins": wins,
            "win_rate": round(wins / played, 4), "ci95": [round(lo, 4), round(hi, 4)], "void_rounds": void,
            "decisions_searched": searcher.searched, "overridden": searcher.overridden,
            "hidden_cards_right": round(searcher.overlap[0] / max(searcher.overlap[1], 1), 4),
            **({"particles": particles, "belief_restarts": belief.restarts,
                "belief_reshuffles": belief.reshuffles} if belief is not None else {}),
            "batch_size": batch_size, "seed": seed, "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m research.search_probe", description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--rules", default="standard_en", help="preset name (one-sided decks)")
    p.add_argument("--players", type=int, default=4, help="seats per table")
    p.add_argument("--rounds", type=int, default=2000, help="rounds played")
    p.add_argument("--worlds", type=int, default=64, help="sampled deals per decision")
    p.add_argument("--z", type=float, default=1.5, help="standard errors an action must gain to replace "
                   "the heuristic's (or --agent's) choice; inf: no search, the same deals played without it")
    p.add_argument("--batch-size", type=int, default=64, help="games played at once")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals and of the sampling")
    p.add_argument("--information", choices=INFORMATION, default="seen",
                   help="what the sampled deals keep true: only what the seat has seen; that, and no card "
                   "of a colour a seat drew on; the other hands (cheating); the pile's order (cheating); "
                   "everything (cheating)")
    p.add_argument("--perfect-information", action="store_true", help="the same as --information perfect")
    p.add_argument("--agent", default=None, help="search over this trained agent (its choices stand unless "
                   "beaten; it plays its seat in the rollouts) instead of the heuristic; v2 agents only")
    p.add_argument("--particles", type=int, default=256, help="candidate deals per game kept by "
                   "--information inferred")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--out", default=None, help="also append the JSON line to this file")
    args = p.parse_args(argv)
    information = "perfect" if args.perfect_information else args.information
    line = json.dumps(probe(args.rules, args.players, args.rounds, args.worlds, args.z, args.batch_size,
                            args.seed, information, progress=not args.no_progress, agent=args.agent,
                            particles=args.particles))
    print(line)
    if args.out:
        with open(args.out, "a") as f:
            f.write(line + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
