"""Blueprint for the match pages: set up, share, import, enter and edit rounds, standings.

The edit pages carry the match's edit token in the URL variable `token`; the view page needs none.
Every write answers with a 303 redirect, so reloading a page never enters a round twice.
"""

# Each module's routes join bp; `expired` shows their forms again when the CSRF token failed.
from scorekeeper.web.matches import expired, melds, rounds, setup, sharing, standings  # noqa: F401
from scorekeeper.web.matches.blueprint import bp

__all__ = ["bp"]
