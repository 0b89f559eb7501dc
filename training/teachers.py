"""Teachers for targeted clones (``python -m training.ppo_lean --init-agent A --distill training.teachers:NAME
--distill-where TYPES``): bots that play one decision the way a trained agent should learn it.

``WaryChallenger`` is ``heuristic`` with a warier challenge of a wild draw card.  ``heuristic``'s rule 9
(``agents.bots.HeuristicAgent``) challenges when the chance of a bluff beats the break-even, the chance worked out
assuming opponents bluff at ``bluff_rate`` times the rate of honest plays (0.39 as tuned at flip_jp's 4 players).
Grafted onto ``ppo-flip_jp-4p`` at play time (training seeds: ``heuristic-always-wd4`` in the next seat, 10,000
rounds from 50,000,000; three ``heuristic``, 20,000 rounds from 51,000,000), that rule closed the agent's hole
against the player that plays every legal wild draw card (2,991 wins, where the agent alone won 2,455) but cost
it against three ``heuristic``, which seldom bluff (5,084 wins, the agent alone 5,309).  Assuming bluffs are rare
(0.05), it challenges only an offender that very likely held the colour, and kept both: 2,955 and 5,311."""

from __future__ import annotations

from agents.bots import HeuristicAgent


class WaryChallenger(HeuristicAgent):
    """``heuristic`` that challenges a wild draw card assuming opponents bluff at 0.05 times the rate of honest
    plays: only a likely bluff is challenged, so an honest opponent seldom costs a challenge."""

    name = "heuristic-wary-challenge"
    BLUFF_RATE = 0.05

    def __init__(self, game=None, seed: int | None = None):
        super().__init__(game, seed, bluff_rate=self.BLUFF_RATE)
