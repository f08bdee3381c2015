"""What each PDF holds: the rules and names it prints, and its HTML from the print templates.

Rules cards, pocket cards and blank sheets depend only on their arguments and the language, so
they are rendered once and then served from the cache; a match report follows its rounds, a
club's season report its matches' results.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from unicodedata import east_asian_width

from flask import render_template
from flask_babel import format_date, gettext

from scorekeeper import store
from scorekeeper.domain.records import PERIOD_LABELS
from scorekeeper.domain.rules import PRESETS, RuleSet
from scorekeeper.domain.rules_card import RulesCard, rules_card, score_lines
from scorekeeper.domain.scoring import Breakdown, round_meld_minimum
from scorekeeper.printing.pdf import Paper, cached_pdf
from scorekeeper.store import ClubView, MatchView
from scorekeeper.store.models import Match

POCKET_CARDS_PER_PAGE = 4
BREAKDOWN = tuple(f.name for f in fields(Breakdown))
# About how many characters of a side's name one line of its column's head holds on a blank
# sheet, by the sheet's columns (static/print.css sizes them); a wide character, as kanji,
# kana and hangul are, counts as two.
NAME_LINE_CHARS = {2: 17, 3: 11, 4: 8, 5: 10, 6: 8}


@dataclass(frozen=True)
class PrintedRules:
    """The rules a PDF prints, and the names it prints them under."""

    preset: str
    rules: RuleSet
    title: str
    subtitle: str
    partners: bool = True  # whether any side plays with a partner: a preset's cards say so

    @property
    def preset_name(self) -> str:
        return gettext(PRESETS[self.preset].name)

    def card(self) -> RulesCard:
        return rules_card(self.preset, self.rules, partners=self.partners)


@dataclass(frozen=True)
class SheetRound:
    """A round block of a score sheet; a played round has each side's points on every row."""

    number: int
    meld_minimum: int | None  # None where it goes by each side's running score
    # Row key (a `Breakdown` field, "meld_minimum", "total" or "running") -> points per side.
    points: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    went_out: str | None = None  # the name of the side that went out; None if nobody did
    # Each side's final place, under the totals of a finished match's last round: a line of the
    # table, where a list above it would need another page.
    places: tuple[int, ...] = ()


def played_rounds(view: MatchView) -> list[SheetRound]:
    """Return the match's rounds as filled sheet blocks, in order."""
    blocks = []
    standings = view.standings
    for scored, running in zip(view.rounds, standings.running_totals, strict=True):
        sides = scored.score.sides
        points = {key: tuple(side.breakdown.as_dict()[key] for side in sides) for key in BREAKDOWN}
        points["meld_minimum"] = tuple(side.meld_minimum for side in sides)
        points["total"] = tuple(side.score for side in sides)
        points["running"] = running
        entries = zip(view.side_names, scored.entry.sides, strict=True)
        went_out = next((name for name, entry in entries if entry.went_out), None)
        last = standings.finished and scored is view.rounds[-1]
        places = standings.places if last else ()
        blocks.append(
            SheetRound(scored.number, scored.score.meld_minimum, points, went_out, places)
        )
    return blocks


def name_lines(sides: Sequence[str]) -> int:
    """Return about how many lines the longest side name takes in its column's head on a blank
    sheet, broken between words where it can be and within a word too long for a line."""
    room = NAME_LINE_CHARS.get(len(sides), min(NAME_LINE_CHARS.values()))
    return max((_wrapped_lines(name, room) for name in sides), default=1)


def _wrapped_lines(name: str, room: int) -> int:
    lines, used = 1, 0
    for word in name.split():
        width = sum(2 if east_asian_width(char) in "WF" else 1 for char in word)
        if used and used + 1 + width > room:  # onto the next line
            lines, used = lines + 1, 0
        used += (1 if used else 0) + width
        while used > room:  # a word longer than a line breaks within it
            lines, used = lines + 1, used - room
    return lines


def card_html(printed: PrintedRules, paper: Paper) -> str:
    card = printed.card()
    return render_template("print/rules_card.html", printed=printed, card=card, paper=paper)


def pocket_html(printed: PrintedRules, paper: Paper) -> str:
    card = printed.card()
    return render_template(
        "print/pocket_cards.html",
        printed=printed,
        card=card,
        paper=paper,
        copies=POCKET_CARDS_PER_PAGE,
    )


def sheet_html(printed: PrintedRules, sides: Sequence[str], date: str | None, paper: Paper) -> str:
    rules = printed.rules
    card = printed.card()
    return render_template(
        "print/score_sheet.html",
        printed=printed,
        card=card,
        minimums=next(section for section in card.sections if section.key == "minimums"),
        lines=score_lines(rules),
        rounds=[SheetRound(n, round_meld_minimum(rules, n)) for n in range(1, rules.rounds + 1)],
        sides=sides,
        # Every name whole: the rows give its column's head the lines it takes.
        name_lines=name_lines(sides),
        date=date,
        paper=paper,
    )


def report_html(view: MatchView, printed: PrintedRules, paper: Paper) -> str:
    return render_template(
        "print/match_report.html",
        view=view,
        printed=printed,
        card=printed.card(),
        lines=score_lines(view.rules),
        rounds=played_rounds(view),
        chart=view.chart(),
        date=format_date(view.match.created_at, "long"),
        paper=paper,
    )


def card_pdf(printed: PrintedRules, paper: Paper) -> bytes:
    """Return the one-page rules card, rendered once per rules, names, paper and language."""
    return cached_pdf(("card", printed, paper), lambda: card_html(printed, paper))


def pocket_pdf(printed: PrintedRules, paper: Paper) -> bytes:
    """Return a page of pocket rules cards to cut out, rendered once like the card."""
    return cached_pdf(("pocket", printed, paper), lambda: pocket_html(printed, paper))


def sheet_pdf(
    printed: PrintedRules, sides: tuple[str, ...], date: str | None, paper: Paper
) -> bytes:
    """Return a blank score sheet, rendered once per rules, sides, date, paper and language."""
    key = ("sheet", printed, sides, date, paper)
    return cached_pdf(key, lambda: sheet_html(printed, sides, date, paper))


def report_key(match: Match) -> tuple[Hashable, ...]:
    """Return how a match's report is cached, as far as the match's own row says: its version.

    The time of the match's last change is part of the key: a database restored from a backup
    may bring back a version number that the match has since reached with other rounds."""
    return ("report", match.public_id, match.version, match.updated_at)


def report_pdf(match: Match, printed: PrintedRules, paper: Paper) -> bytes:
    """Return the match's report, rendered once per version of the match, paper and language."""
    key = (*report_key(match), printed, paper)
    return cached_pdf(key, lambda: report_html(store.match_view(match), printed, paper))


def season_html(view: ClubView, paper: Paper, date: str) -> str:
    return render_template(
        "print/season_report.html",
        view=view,
        matches=view.results,
        preset_names={key: gettext(preset.name) for key, preset in PRESETS.items()},
        period=PERIOD_LABELS[view.record_filter.period],
        date=date,
        paper=paper,
    )


def season_pdf(view: ClubView, paper: Paper, date: str) -> bytes:
    """Return a club's season report, rendered once per name, players, matches' results,
    filter, paper, day and language: a round entered in any of its matches changes its key."""
    club = view.club
    members = tuple(view.members.items())
    key = ("season", club.public_id, club.name, members, view.results, view.record_filter)
    return cached_pdf((*key, paper, date), lambda: season_html(view, paper, date))
