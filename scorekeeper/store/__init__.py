"""Stored matches: create them, enter and edit their rounds, read them back scored, move them.

Views, the API and PDFs use these names; the modules behind them may move.
"""

from scorekeeper.domain.setup import SideSpec
from scorekeeper.store.edit_tokens import TokenRefused, rotate_token_once
from scorekeeper.store.idempotency import OperationIdRefused
from scorekeeper.store.links import token_opens
from scorekeeper.store.matches import (
    CreatedMatch,
    create_match,
    find_match,
    get_match,
    match_version,
    rules_of,
    side_names,
    side_players,
    side_specs,
    sides_of,
)
from scorekeeper.store.rounds import (
    RoundNotFound,
    StaleVersion,
    add_round,
    delete_round,
    replace_round,
    round_problems,
)
from scorekeeper.store.scores import MatchView, ScoredRound, current_view, match_view
from scorekeeper.store.transfer import export_match, import_match, match_csv

__all__ = [
    "CreatedMatch",
    "MatchView",
    "OperationIdRefused",
    "RoundNotFound",
    "ScoredRound",
    "SideSpec",
    "StaleVersion",
    "TokenRefused",
    "add_round",
    "create_match",
    "current_view",
    "delete_round",
    "export_match",
    "find_match",
    "get_match",
    "import_match",
    "match_csv",
    "match_version",
    "match_view",
    "replace_round",
    "rotate_token_once",
    "round_problems",
    "rules_of",
    "side_names",
    "side_players",
    "side_specs",
    "sides_of",
    "token_opens",
]
