"""Blueprint for a club's pages: start one, share its links, add players and matches, and read
its records, a player's page and its matches.

Like a match's, the edit pages carry the club's edit token in the URL variable `token`, and
every page names the club by `public_id`; the view page needs no token. No page lists clubs.
"""

# Each module's routes join bp; `expired` shows their forms again when the CSRF token failed.
from scorekeeper.web.clubs import expired, pages, setup  # noqa: F401
from scorekeeper.web.clubs.blueprint import bp

__all__ = ["bp"]
