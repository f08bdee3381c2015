"""A round worked out by hand, for the tests of several modules, as the domain's entries and as
the API's JSON. Under the standard rules one side goes out and scores 2,565 (2 clean and 2 dirty
books, 765 melded, a red three, the going-out bonus); the other stays in and scores 825."""

from __future__ import annotations

from scorekeeper.domain.entries import SideEntry

WENT_OUT = SideEntry(clean_books=2, dirty_books=2, melded=765, red_threes=1, went_out=True)
STAYED_IN = SideEntry(clean_books=1, melded=310, red_threes=1, leftover=85)
WENT_OUT_JSON = {
    "clean_books": 2,
    "dirty_books": 2,
    "melded_points": 765,
    "red_threes": 1,
    "went_out": True,
}
STAYED_IN_JSON = {"clean_books": 1, "melded_points": 310, "red_threes": 1, "leftover_points": 85}
