"""The rules engine of one configuration: a short pipeline over the rule modules.

``Engine(config, num_players)`` holds the static tables (``tables.RuleTables``, read as attributes:
``engine.PLAYBITS``) and steps a ``State`` of many games at once:

* ``step`` checks one action per live game, then ``apply`` hands each action kind to its rule
  module (``play``, ``drawn``, ``penalty``, ``jump_in``, ``deflect``, ``uno_call``,
  ``color_choice``); their draws wait in a queue and are made together (``piles``);
* ``settle`` takes every forced move (a seat with a single legal action; the notation's "Decisions and
  forced moves", docs/notation.md), the commonest in bulk (``forced``), and refreshes the legal masks
  (``legal``) until each game waits on a real choice;
* with ``autoreset`` finished rounds are dealt again (``deal``) and settled in the same passes;
  ``result`` reports them (``scoring``).

Work is done on the rows that need it: each action type, effect and rare event runs on an index array
of the games concerned, never in a Python loop over games or cards.  ``docs/architecture.md`` maps
every section of the rules (docs/rules.md) to its module.
"""

from __future__ import annotations

import numpy as np

from . import (
    chance,
    color_choice,
    deal,
    deflect,
    drawn,
    forced,
    jump_in,
    legal,
    matching,
    penalty,
    piles,
    play,
    scoring,
    uno_call,
)
from .actions import ACCEPT, CATCH, CHALLENGE, CHOOSE, DRAW, KEEP, PASS, PLAY, UNO
from .memory import Memory, MemoryTables
from .memory import tables as memory_tables
from .rows import all_rows, flat, sel
from .scoring import StepResult
from .settling import DEFAULT_SETTLING, Listener, Settling
from .state import JUMP, OVER, State
from .tables import RuleTables

__all__ = ["DEFAULT_SETTLING", "Engine", "IllegalActionError", "Listener", "Settling", "StepResult", "all_rows"]

_MAX_FORCED_PASSES = 100_000



class IllegalActionError(ValueError):
    """An action that is not legal for the seat asked."""


def _act_pass(e: Engine, st: State, R, a, queue: list) -> None:
    """``pass``: declines a jump-in (or catch) offer, or lets a Skip stand."""
    j = st.phase[R] == JUMP
    if np.count_nonzero(j):
        jump_in.act_pass(e, st, R[j], a[j])
    if not j.all():
        deflect.act_pass(e, st, R[~j], a[~j])


# the rule handling each action kind (Engine.apply)
HANDLERS = ((PLAY, play.act_play), (DRAW, drawn.act_draw), (KEEP, drawn.act_keep), (PASS, _act_pass),
            (CHALLENGE, penalty.act_challenge), (ACCEPT, penalty.draw_penalty), (UNO, uno_call.act_uno),
            (CATCH, uno_call.act_catch), (CHOOSE, color_choice.act_choose))


class Engine(RuleTables):
    """Static tables (the fields of ``RuleTables``) and the batched rules of one configuration
    (``RuleConfig`` and player count).  It holds nothing of a game or a call: the games are a ``State``,
    how forced moves are taken and who hears of the actions are each call's ``Settling``."""

    def __init__(self, config, num_players: int):
        super().__init__(**RuleTables.values(config, num_players))

    def __getstate__(self) -> dict:
        """A pickle (a training checkpoint's games) keeps the configuration, not the tables, which are built
        from it: loaded by a later version of the package, the engine gets that version's tables (a checkpoint
        written before a table was added resumes instead of failing mid-step)."""
        return {"config": self.config, "P": self.P}

    def __setstate__(self, state: dict) -> None:
        Engine.__init__(self, state["config"], state["P"])

    @property
    def memory(self) -> MemoryTables | None:
        """The memory's tables once a state of this engine keeps the table's memory (observation v3), else
        None: whether this engine's games remember.  The memory itself is ``State.memory``."""
        return self.memory_tables

    # ================================================================== state
    def new_state(self, batch_size: int, memory: bool = False) -> State:
        """An empty state of ``batch_size`` games; ``memory``: with the table's memory (observation v3)."""
        if isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
            raise ValueError(f"batch_size={batch_size!r} is not allowed; it must be a positive integer")
        st = State.zeros(int(batch_size), self.P, self.K, self.N, self.A)
        if memory:
            st.memory = Memory.zeros(st.batch_size, memory_tables(self))
        return st

    def seed_rows(self, st: State, rows, seeds) -> None:
        st.seed[rows] = seeds
        st.key[rows] = chance.keys_from_seeds(np.broadcast_to(seeds, np.shape(st.seed[rows])))
        st.counter[rows] = 0

    def new_games(self, st: State, rows, how: Settling = DEFAULT_SETTLING) -> None:
        """Start a new game in ``rows`` (``deal.new_games``) and take its forced first moves."""
        rows = np.asarray(rows, np.intp)
        deal.new_games(self, st, rows)
        self.settle(st, rows, how)

    def next_rounds(self, st: State, rows, settle: bool = True, how: Settling = DEFAULT_SETTLING) -> None:
        """Deal the next round in finished ``rows`` (``deal.next_rounds``); ``settle=False`` leaves the
        forced first moves and the masks to the caller's next ``settle``."""
        rows = np.asarray(rows, np.intp)
        deal.next_rounds(self, st, rows)
        if settle:
            self.settle(st, rows, how)

    def deal_from_pile(self, st: State, rows, settle: bool = True, how: Settling = DEFAULT_SETTLING) -> None:
        """Deal from the draw pile as it lies (``deal.deal_from_pile``)."""
        rows = np.asarray(rows, np.intp)
        deal.deal_from_pile(self, st, rows)
        if settle:
            self.settle(st, rows, how)

    def refresh(self, st: State, R, bits: np.ndarray | None = None, tface: np.ndarray | None = None) -> None:
        """Recompute the legal-action masks of ``R`` (``legal.refresh``)."""
        legal.refresh(self, st, R, bits, tface)

    def hand_values(self, st: State, R) -> np.ndarray:
        return scoring.hand_values(self, st, R)

    def game_winners(self, st: State, R) -> np.ndarray:
        return scoring.game_winners(self, st, R)

    def wrong_card_penalty(self, st: State, R: np.ndarray, how: Settling = DEFAULT_SETTLING) -> None:
        """The seeds' wrong-card rule for an illegal action (``penalty.wrong_card_penalty``), then the forced
        moves; ``how.listener`` hears of the draw as action -1, then of the forced moves."""
        R = np.asarray(R, np.intp)
        if how.listener is not None:
            how.listener(zip(R.tolist(), st.actor[R].tolist(), [-1] * R.size))
        penalty.wrong_card_penalty(self, st, R)
        self.settle(st, R, how)

    # ================================================================== step
    def step(self, st: State, actions: np.ndarray, autoreset: bool = False,
             how: Settling = DEFAULT_SETTLING) -> StepResult:
        """Apply one action per game (ignored for games whose round is over), then the forced moves.

        With ``autoreset`` a finished round is followed at once by the next deal (a new game once
        the game is over); the result still describes the finished rounds.  Rounds ended by the
        actions are dealt before the forced moves are settled, so one settling pass serves both;
        under ``deal_after_first_pass`` they are dealt after the first pass, with the rounds it ends.
        A round that ends at its own deal (forced moves only, as with one-card hands) stays over and is
        reported by the next step, which deals again: one finished round per game and step.
        """
        actions = np.asarray(actions)
        B = st.batch_size
        if actions.shape != (B,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be an integer array of shape ({B},), got "
                             f"{actions.dtype} {actions.shape}")
        was_over = st.phase == OVER
        live = flat(~was_over)
        if live.size == B:
            live = all_rows(B)
        self._validate(st, live, actions[sel(live)])
        self.apply(st, live, actions[sel(live)], how.listener)
        if not autoreset:
            self.settle(st, live, how)
            return self.result(st, was_over)
        R = live
        if live.size < B:  # a round over before this step ended at its own deal (forced moves, as with
            # one-card hands) after the last step had reported one in that game: report it now, deal again
            R, was_over = all_rows(B), np.zeros(B, bool)
        out = self.result(st, was_over)
        self.deal_and_settle(st, R, out, how)
        return out

    def deal_and_settle(self, st: State, R: np.ndarray, out: StepResult, how: Settling = DEFAULT_SETTLING) -> None:
        """The second half of an autoreset ``step`` (``out``: its result, over the whole batch): deal
        the next round where ``out`` reports one ended and settle ``R`` (the rows stepped) with them.
        A round that a forced move ends meanwhile is reported into ``out`` and dealt too; one that ends
        at the deal this step made stays over, for the next step to report."""
        ended = flat(out.round_over)
        dealt = None
        if ended.size and not self.deal_after_first_pass:
            self.next_rounds(st, ended, settle=False, how=how)
            ended, dealt = ended[:0], ended

        def deal_on(over: np.ndarray) -> None:
            """Deal the next round in ``over``; report those a forced move ended (E2, E3, a play)."""
            late = over[~out.round_over[over]]  # the others are in ``out`` already
            more = self.result(st, np.zeros(late.size, bool), late)
            for name, arr in zip(StepResult._fields, more):
                getattr(out, name)[late] = arr
            self.next_rounds(st, over, settle=False, how=how)

        self.settle(st, R, how, on_over=deal_on, ended=ended, already_dealt=dealt)

    def step_rows(self, st: State, R: np.ndarray, actions: np.ndarray,
                  how: Settling = DEFAULT_SETTLING) -> StepResult:
        """Apply ``actions`` in the games ``R`` only (all in play); the result covers those rows."""
        R, actions = self.check_rows(st, R, actions)
        self.apply(st, R, actions, how.listener)
        self.settle(st, R, how)
        return self.result(st, np.zeros(R.size, bool), R)

    def check_rows(self, st: State, R, actions) -> tuple[np.ndarray, np.ndarray]:
        """``step_rows``' checks (one integer action per row, rows in play, legal actions): ``R`` and
        ``actions`` as arrays, or an error naming what is wrong; nothing is changed."""
        R = np.asarray(R, np.intp)
        actions = np.asarray(actions)
        if actions.shape != R.shape or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integers, one per row ({R.size}), got {actions.dtype} "
                             f"{actions.shape}")
        over = st.phase[R] == OVER
        if np.count_nonzero(over):
            raise ValueError(f"game {int(R[over][0])} is over; deal its next round before stepping it")
        self._validate(st, R, actions)
        return R, actions

    def _validate(self, st: State, R: np.ndarray, a: np.ndarray) -> None:
        bad = (a < 0) | (a >= self.A)
        if not np.count_nonzero(bad):
            bad = ~st.mask[R, a]
        if np.count_nonzero(bad):
            i = int(flat(bad)[0])
            raise IllegalActionError(self.describe_illegal(st, int(R[i]), int(a[i])))

    def describe_illegal(self, st: State, row: int, action: int) -> str:
        name = self.actions.names[action] if 0 <= action < self.A else f"id {action}"
        legal_names = [self.actions.names[j] for j in flat(st.mask[row])]
        return (f"illegal action {name!r} for seat {int(st.actor[row])} in game {row}; legal actions "
                f"are: {', '.join(legal_names) if legal_names else 'none (the round is over)'}")

    def result(self, st: State, was_over: np.ndarray, R: np.ndarray | None = None) -> StepResult:
        """What happened in rows ``R`` (default: all) since ``was_over`` (``scoring.step_result``)."""
        return scoring.step_result(self, st, was_over, R)

    def apply(self, st: State, R: np.ndarray, a: np.ndarray, listener: Listener | None = None) -> None:
        """Apply legal actions ``a`` in rows ``R`` (no validation, no mask refresh: see ``settle``);
        ``listener`` hears of them first."""
        if listener is not None:
            listener(zip(R.tolist(), st.actor[R].tolist(), np.asarray(a).tolist()))
        kind = self.A_KIND[a]
        present = np.bincount(kind, minlength=len(HANDLERS)).tolist()
        S = sel(R)
        st.turn_count[S] += self.A_COUNTED[a]
        queue: list = []  # the handlers' draws, made together below (piles.draw_cards, piles.draw_queued)
        for k, handler in HANDLERS:
            if present[k]:
                i = flat(kind == k) if present[k] < len(R) else slice(None)
                handler(self, st, R[i], a[i], queue)
        if queue:
            piles.draw_queued(self, st, queue)
        st.declared[S] &= self.A_KEEPS_DECLARED[a]
        count = st.turn_count[S]
        if count.size and count.max() >= self.max_turns:  # E3: blocked, reported truncated
            over = R[(count >= self.max_turns) & (st.phase[S] != OVER)]
            if over.size:
                scoring.end_blocked_round(self, st, over, truncated=True)

    def settle(self, st: State, R: np.ndarray, how: Settling = DEFAULT_SETTLING, on_over=None, ended=None,
               already_dealt=None) -> None:
        """After ``R`` changed: take every forced move (a single legal action) until each game waits on
        a real choice, and refresh the masks of ``R``.  Chains of forced draws and unanswerable
        penalties are taken in bulk (``forced``, unless ``how.bulk`` is False); the rest through the
        masks, one pass each; ``how.listener`` hears of every move taken.  Under ``how.ask`` none is
        taken: each game waits on its seat, whose one legal action is asked for like any decision.

        ``on_over(rows)``, if given, is called with the rows whose round a forced move ended, once per
        row; it deals their next round (unsettled), which then joins the next pass, so one loop of
        passes settles both rounds.  The ended rows are gathered over two passes (or until nothing
        else is left) and given to ``on_over`` together: a deal costs about the same for few rows as
        for many.  ``ended``: rows whose round was already over, given to ``on_over`` with those the
        first pass ends.  ``already_dealt``: rows dealt in this step; like those given to ``on_over``,
        a round of theirs that ends now stays over (one finished round per game and step).
        """
        R = np.asarray(R, np.intp)
        waiting = None  # rows whose round ended, not yet given to on_over
        deal_parity = 1  # deal after passes 1, 3, 5...
        dealt = None  # (B,) bool: the rows dealt in this step, given to on_over or waiting for it
        if already_dealt is not None and already_dealt.size:
            dealt = np.zeros(st.batch_size, bool)
            dealt[already_dealt] = True
        if ended is not None and ended.size:
            waiting, deal_parity = ended, 0  # ...or 0, 2, 4... when rows wait from the start
            if dealt is None:
                dealt = np.zeros(st.batch_size, bool)
            dealt[ended] = True
        if how.ask:  # every forced move is left to its seat: no move is taken, so no round ends here
            if waiting is not None and on_over is not None:
                on_over(waiting)
                R = np.union1d(R, waiting)
            legal.refresh(self, st, R)
            return
        bulk, listener, trace = how.bulk, how.listener, how.trace
        for k in range(_MAX_FORCED_PASSES):
            if R.size == 0:
                return
            if trace is not None:  # benchmarks/profile_core.py --passes
                trace(k, R.size)
            tface = matching.top_face(self, st, R)  # no forced penalty or draw changes the top card
            if bulk:
                forced.forced_penalties(self, st, R, tface, listener)
            bits, chain = forced.forced_draw_rows(self, st, R, tface)
            if chain.size and bulk:
                Rc, tc = R[chain], tface[chain]
                forced.draw_chains(self, st, Rc, tc, how.chain_window, listener)
                # the chains changed who is asked: recompute those rows
                bits[chain] = matching.playable_bits(self, st, Rc, st.actor[Rc].astype(np.intp), None, tc)
            legal.refresh(self, st, R, bits, tface)
            F = R[st.nlegal[sel(R)] == 1]
            if F.size:
                self.apply(st, F, st.mask[F].argmax(1), listener)
            if on_over is not None:
                over = R[st.phase[sel(R)] == OVER]
                if over.size and dealt is not None:
                    over = over[~dealt[over]]  # a round ended twice in one step stays over
                if over.size:
                    F = F[st.phase[F] != OVER]
                    waiting = over if waiting is None else np.concatenate([waiting, over])
                # a deal costs the same for 3 rows as for 30: deal every other pass, or when nothing
                # else is left to settle; the new rounds join the next pass either way
                if waiting is not None and (k % 2 == deal_parity or F.size == 0):
                    on_over(waiting)
                    if dealt is None:
                        dealt = np.zeros(st.batch_size, bool)
                    dealt[waiting] = True
                    F = np.sort(np.concatenate([F, waiting]))
                    waiting = None
            if F.size == 0:
                return
            R = F
        raise RuntimeError("forced moves did not terminate")  # pragma: no cover
