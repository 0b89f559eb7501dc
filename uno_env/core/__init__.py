"""The rules core: numpy only, batch-first, no RL framework (see ``rules`` and ``game``)."""

from .actions import ActionTable, build_actions
from .cards import Deck, make_deck
from .config import OPTIONS, PRESETS, RuleConfig, make_rules
from .game import VecGame
from .notation import PositionError, load_position, snapshot
from .observe import Observer
from .rules import Engine, IllegalActionError, StepResult
from .state import PHASE_NAMES, State

__all__ = [
    "ActionTable", "Deck", "Engine", "IllegalActionError", "OPTIONS", "Observer", "PHASE_NAMES",
    "PRESETS", "PositionError", "RuleConfig", "State", "StepResult", "VecGame", "build_actions",
    "load_position", "make_deck", "make_rules", "snapshot",
]
