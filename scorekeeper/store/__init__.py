"""Stored matches and clubs: create them, enter and edit rounds, read them back scored or as a
club's records, move them.

Views, the API and PDFs use these names; the modules behind them may move.
"""

from scorekeeper.domain.dealing import Seat
from scorekeeper.domain.setup import SideSpec
from scorekeeper.store.club_views import ClubView, PlayerView, club_view, player_view
from scorekeeper.store.clubs import (
    CreatedClub,
    add_player,
    attach_match,
    create_club,
    get_club,
    members_named,
    player_numbered,
)
from scorekeeper.store.edit_tokens import TokenRefused, rotate_token_once
from scorekeeper.store.idempotency import OperationIdRefused
from scorekeeper.store.links import token_opens
from scorekeeper.store.matches import (
    CreatedMatch,
    create_match,
    dealer_of,
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
from scorekeeper.store.transfer import (
    ImportedClub,
    export_club,
    export_match,
    import_club,
    import_match,
    match_csv,
)

__all__ = [
    "ClubView",
    "CreatedClub",
    "CreatedMatch",
    "ImportedClub",
    "PlayerView",
    "MatchView",
    "OperationIdRefused",
    "RoundNotFound",
    "ScoredRound",
    "Seat",
    "SideSpec",
    "StaleVersion",
    "TokenRefused",
    "add_player",
    "add_round",
    "attach_match",
    "club_view",
    "create_club",
    "create_match",
    "current_view",
    "dealer_of",
    "delete_round",
    "export_club",
    "export_match",
    "find_match",
    "get_club",
    "get_match",
    "import_club",
    "import_match",
    "match_csv",
    "match_version",
    "match_view",
    "members_named",
    "player_numbered",
    "player_view",
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
