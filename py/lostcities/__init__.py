"""Lost Cities rules engine: pure Python, immutable states, JSON views (docs/architecture.md)."""

from .cards import COLOURS, Card, card_name, card_text, parse_card
from .engine import apply, is_legal, legal_moves, new_match, why_illegal
from .errors import REFUSAL_CODES, CorruptSave, IllegalMove, Refusal
from .jobs import JOBS, Job
from .mixups import MIXUPS, Mixup
from .moves import (
    Airlift, Discard, Draw, Move, NextRound, PickJob, Play, Radio, Sabotage, Undo,
    move_from_json, move_to_json, move_type,
)
from .objectives import OBJECTIVES, Objective
from .options import Options
from .roundscore import PlayerRoundScore, score_round
from .redeal import Deal, Dealt, dealt_match, step_dealt
from .rulebook import may_follow, player_rules, winner_of
from .scoring import ExpeditionScore, ScoringRules, score_expedition
from .serial import state_from_json, state_to_json
from .skills import SKILLS, Skill
from .state import State
from .views import view

__all__ = [
    "COLOURS", "Card", "card_name", "card_text", "parse_card",
    "apply", "is_legal", "legal_moves", "new_match", "why_illegal",
    "REFUSAL_CODES", "CorruptSave", "IllegalMove", "Refusal",
    "JOBS", "Job", "MIXUPS", "Mixup", "OBJECTIVES", "Objective", "SKILLS", "Skill",
    "Airlift", "Discard", "Draw", "Move", "NextRound", "PickJob", "Play", "Radio", "Sabotage",
    "Undo", "move_from_json", "move_to_json", "move_type",
    "Deal", "Dealt", "dealt_match", "step_dealt",
    "Options", "PlayerRoundScore", "score_round", "may_follow", "player_rules", "winner_of",
    "ExpeditionScore", "ScoringRules", "score_expedition",
    "state_from_json", "state_to_json", "State", "view",
]
