"""Stored matches: create them, enter and edit their rounds, read them back scored, move them.

Views, the API and PDFs use these names; the modules behind them may move.
"""

from scorekeeper.store.matches import (
    CreatedMatch,
    SideSpec,
    create_match,
    get_match,
    player_count,
    rules_of,
    side_names,
    side_specs,
    token_opens,
)
from scorekeeper.store.rounds import (
    MatchView,
    RoundNotFound,
    ScoredRound,
    StaleVersion,
    add_round,
    delete_round,
    match_view,
    replace_round,
    running_scores_before,
)
from scorekeeper.store.transfer import export_match, import_match, match_csv

__all__ = [
    "CreatedMatch",
    "MatchView",
    "RoundNotFound",
    "ScoredRound",
    "SideSpec",
    "StaleVersion",
    "add_round",
    "create_match",
    "delete_round",
    "export_match",
    "get_match",
    "import_match",
    "match_csv",
    "match_view",
    "player_count",
    "replace_round",
    "rules_of",
    "running_scores_before",
    "side_names",
    "side_specs",
    "token_opens",
]
