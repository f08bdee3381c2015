"""Blueprint for printing: the /rules pages, and the PDFs of rules, score sheets, matches and
clubs."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from io import BytesIO
from itertools import accumulate

from flask import Blueprint, Response, abort, current_app, render_template, request, send_file
from flask_babel import force_locale, format_date, get_locale, gettext, ngettext
from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from werkzeug.exceptions import ServiceUnavailable

from scorekeeper import store
from scorekeeper.domain.records import RecordFilter
from scorekeeper.domain.rules import DEFAULT_PRESET, MAX_PLAYERS, PRESETS, Preset, house_rule_keys
from scorekeeper.domain.rules_card import Phrase, RulesCard, Section, points_text
from scorekeeper.domain.setup import MAX_NAME_LENGTH
from scorekeeper.i18n import format_number, is_offered
from scorekeeper.printing.documents import (
    PrintedRules,
    card_pdf,
    pocket_pdf,
    report_key,
    report_pdf,
    season_pdf,
    sheet_pdf,
)
from scorekeeper.printing.pdf import Paper, PdfRendersBusy, PdfTooSlow, drawing_url, refuse_if_busy
from scorekeeper.serving.http import club_or_404, error_page, match_or_404
from scorekeeper.store.models import Club, Match, utc_now

bp = Blueprint("printing", __name__)

# Regions that print on US Letter by default; everywhere else prints on A4 (issue 6).
LETTER_REGIONS = frozenset({"US", "CA"})
PAPER_LABELS = {Paper.A4: _l("A4"), Paper.LETTER: _l("US Letter")}
BLANK_SHEET_SIDES = 2  # columns a blank score sheet offers unless asked for more
SECTION_HEADING_LINES = 2  # a section's heading is about as tall as two of its lines
MAX_FILE_NAME = 80
RETRY_SLOW_PDF_AFTER = 60  # seconds: the page says "in a minute"
RETRY_BUSY_PDF_AFTER = 5  # seconds: a render takes one or two, and the page says "a few"


@bp.app_template_global()
def paper_labels() -> dict[Paper, str]:
    """Return the papers a PDF is printed on, each with its name, as the paper choice offers."""
    return PAPER_LABELS


@bp.app_template_filter("phrase")
def phrase_text(phrase: Phrase) -> str:
    """Return a rules-card phrase in the request's language."""
    return phrase.text(gettext, format_number)


@bp.app_template_filter("as_image")
def as_image(svg: str, class_name: str, alt: str) -> Markup:
    """Return an SVG drawing as an image of itself, which a PDF renders faster (pdf.drawing_url)."""
    return Markup('<img class="{}" src="{}" alt="{}">').format(class_name, drawing_url(svg), alt)


@bp.app_template_filter("two_columns")
def two_columns(card: RulesCard) -> tuple[Sequence[Section], Sequence[Section]]:
    """Split a card's sections in order into two columns of about the same number of lines,
    counting a line shown with its value in the preset as two: beside its label, that seldom
    fits one."""
    sections = card.sections
    heights = [
        len(section.lines)
        + sum(line in card.preset_values for line in section.lines)
        + SECTION_HEADING_LINES
        for section in sections
    ]
    half = sum(heights) / 2
    split = next(i for i, height in enumerate(accumulate(heights), start=1) if height >= half)
    return sections[:split], sections[split:]


@bp.app_template_filter("points")
def points_filter(points: int) -> str:
    """Return points in the request's language, a negative one with a true minus sign."""
    return points_text(points, format_number)


@bp.app_template_global()
def default_paper() -> Paper:
    """Return the paper of the browser's language region: US Letter in the US and Canada,
    A4 elsewhere and when no region is given."""
    for language, _quality in request.accept_languages:
        region = language.replace("_", "-").partition("-")[2]
        if region:
            return Paper.LETTER if region.upper() in LETTER_REGIONS else Paper.A4
    return Paper.A4


def requested_paper() -> Paper:
    """Return the paper of `?paper=`, else the browser's; answer 400 to an unknown paper."""
    value = request.args.get("paper")
    if value is None:
        return default_paper()
    try:
        return Paper(value)
    except ValueError:
        choices = ", ".join(paper.value for paper in Paper)
        abort(400, description=gettext("paper must be one of: %(choices)s.", choices=choices))


def requested_sides() -> tuple[str, ...]:
    """Return the side names of `?sides=`, blank ones left to write in, in as many columns as
    `?columns=` asks (two unless it says more), or as the names need."""
    names = [name.strip() for name in request.args.getlist("sides")]
    while names and not names[-1]:
        names.pop()
    columns = max(requested_columns(), len(names))
    if columns > MAX_PLAYERS:
        abort(
            400, description=gettext("A score sheet has room for %(most)s sides.", most=MAX_PLAYERS)
        )
    if any(len(name) > MAX_NAME_LENGTH for name in names):
        message = gettext("Side names have at most %(most)s characters.", most=MAX_NAME_LENGTH)
        abort(400, description=message)
    return tuple(names) + ("",) * (columns - len(names))


def requested_columns() -> int:
    """Return the columns `?columns=` asks a blank sheet for; answer 400 to a number that is
    none or out of range."""
    value = request.args.get("columns", str(BLANK_SHEET_SIDES))
    if not value.isdecimal() or not BLANK_SHEET_SIDES <= int(value) <= MAX_PLAYERS:
        message = gettext(
            "columns must be a number from %(least)s to %(most)s.",
            least=BLANK_SHEET_SIDES,
            most=MAX_PLAYERS,
        )
        abort(400, description=message)
    return int(value)


def download(pdf: bytes, title: str) -> Response:
    """Return a PDF as a download whose file name is the title's words."""
    words = "-".join(re.findall(r"\w+", title.lower()))[:MAX_FILE_NAME].strip("-")
    return send_file(
        BytesIO(pdf),
        mimetype="application/pdf",
        as_attachment=True,
        download_name=f"{words or 'scorekeeper'}.pdf",
    )


@bp.errorhandler(PdfTooSlow)
def too_slow(_error: PdfTooSlow) -> Response:
    """Say, in the reader's language, that the PDF was stopped and when to ask again.

    Nothing of the stopped render was cached, so asking again renders it afresh.
    """
    current_app.logger.warning(
        "%s took longer than PDF_TIME_LIMIT (%s s) to render and was stopped.",
        request.path,
        current_app.config["PDF_TIME_LIMIT"],
    )
    message = gettext("This PDF took too long to make, so it was stopped. Try again in a minute.")
    return error_page(ServiceUnavailable(message, retry_after=RETRY_SLOW_PDF_AFTER))


@bp.errorhandler(PdfRendersBusy)
def busy(_error: PdfRendersBusy) -> Response:
    """Say, in the reader's language, that other PDFs are being made and to ask again soon."""
    message = gettext("Other PDFs are being made right now. Try again in a few seconds.")
    return error_page(ServiceUnavailable(message, retry_after=RETRY_BUSY_PDF_AFTER))


# -- Rules of a preset -------------------------------------------------------------------------


def preset_or_404(key: str) -> Preset:
    if key not in PRESETS:
        abort(404)
    return PRESETS[key]


def preset_rules(preset: Preset) -> PrintedRules:
    # Where the preset comes from, in words: its sources' keys are no words for players.
    return PrintedRules(preset.key, preset.rules, gettext(preset.name), gettext(preset.origin))


@bp.get("/rules")
def rules_index() -> str:
    return rules_page(PRESETS[DEFAULT_PRESET])


@bp.get("/rules/<preset_key>")
def rules_preset(preset_key: str) -> str:
    return rules_page(preset_or_404(preset_key))


def rules_page(preset: Preset) -> str:
    printed = preset_rules(preset)
    return render_template(
        "rules/preset.html",
        printed=printed,
        presets=PRESETS.values(),
        card=printed.card(),
        paper=requested_paper(),
        column_choices=range(BLANK_SHEET_SIDES, MAX_PLAYERS + 1),
        max_name_length=MAX_NAME_LENGTH,
    )


@bp.get("/rules/<preset_key>/card.pdf")
def preset_card(preset_key: str) -> Response:
    printed = preset_rules(preset_or_404(preset_key))
    pdf = card_pdf(printed, requested_paper())
    return download(pdf, gettext("%(name)s rules card", name=printed.title))


@bp.get("/rules/<preset_key>/pocket.pdf")
def preset_pocket(preset_key: str) -> Response:
    printed = preset_rules(preset_or_404(preset_key))
    pdf = pocket_pdf(printed, requested_paper())
    return download(pdf, gettext("%(name)s pocket rules", name=printed.title))


@bp.get("/rules/<preset_key>/sheet.pdf")
def preset_sheet(preset_key: str) -> Response:
    # Under the preset's name, no more: the sheet is to write scores on, and its rows fill the
    # page, with no room for a second line of where the preset comes from.
    printed = replace(preset_rules(preset_or_404(preset_key)), subtitle="")
    pdf = sheet_pdf(printed, requested_sides(), None, requested_paper())
    return download(pdf, gettext("%(name)s score sheet", name=printed.title))


# -- A stored match ----------------------------------------------------------------------------


def print_language(owner: Match | Club) -> str:
    """Return the language a match's or a club's PDFs print in: its own, else the page's."""
    return owner.language if is_offered(owner.language) else str(get_locale())


def in_print_language(render: Callable[[Match], Response]) -> Callable[[str], Response]:
    """Serve a match's PDF rendered, named and cached in the match's print language."""

    @functools.wraps(render)
    def view(public_id: str) -> Response:
        match = match_or_404(public_id)
        with force_locale(print_language(match)):
            return render(match)

    return view


def printed_match_rules(match: Match) -> PrintedRules:
    """Return the match's rules under its name, saying how many house rules it plays."""
    preset = match.preset if match.preset in PRESETS else DEFAULT_PRESET
    rules = store.rules_of(match)
    changes = len(house_rule_keys(preset, rules))
    name = gettext(PRESETS[preset].name)
    subtitle = ngettext(
        "%(preset)s preset with %(num)s house rule",
        "%(preset)s preset with %(num)s house rules",
        changes,
        preset=name,
    )
    partners = any(players > 1 for players in store.side_players(match))
    return PrintedRules(
        preset, rules, match.name, subtitle if changes else gettext(name), partners=partners
    )


def match_file_title(match: Match, what: str) -> str:
    """Return a match PDF's title for its file name: the match, its day and what it is."""
    return f"{match.name} {match.created_at.date().isoformat()} {what}"


def refused_while_busy(view: Callable[[str], Response]) -> Callable[[str], Response]:
    """Refuse a match's report at once, having read only the match's row, when it would have to
    be rendered while every render slot is taken: loading a large match whole only to refuse it
    would keep a worker from the rounds being entered for longer than the refusal itself."""

    @functools.wraps(view)
    def refusing(public_id: str) -> Response:
        match = store.find_match(public_id)
        if match is not None:
            refuse_if_busy(report_key(match))
        return view(public_id)

    return refusing


@bp.get("/m/<public_id:public_id>/report.pdf")
@refused_while_busy
@in_print_language
def match_report(match: Match) -> Response:
    pdf = report_pdf(match, printed_match_rules(match), requested_paper())
    return download(pdf, match_file_title(match, gettext("report")))


@bp.get("/m/<public_id:public_id>/sheet.pdf")
@in_print_language
def match_sheet(match: Match) -> Response:
    day = format_date(match.created_at, "long")
    pdf = sheet_pdf(printed_match_rules(match), store.side_names(match), day, requested_paper())
    return download(pdf, match_file_title(match, gettext("score sheet")))


@bp.get("/m/<public_id:public_id>/rules.pdf")
@in_print_language
def match_rules(match: Match) -> Response:
    pdf = card_pdf(printed_match_rules(match), requested_paper())
    return download(pdf, match_file_title(match, gettext("rules card")))


@bp.get("/m/<public_id:public_id>/pocket.pdf")
@in_print_language
def match_pocket(match: Match) -> Response:
    pdf = pocket_pdf(printed_match_rules(match), requested_paper())
    return download(pdf, match_file_title(match, gettext("pocket rules")))


# -- A club --------------------------------------------------------------------------------------


@bp.get("/c/<public_id:public_id>/report.pdf")
def club_report(public_id: str) -> Response:
    """The season report: the club's leaderboard, partnerships and matches, as filtered."""
    club = club_or_404(public_id)
    record_filter = RecordFilter.read(request.args.get("preset"), request.args.get("period"))
    with force_locale(print_language(club)):
        view = store.club_view(club, record_filter)
        pdf = season_pdf(view, requested_paper(), format_date(utc_now(), "long"))
        return download(pdf, gettext("%(club)s season report", club=club.name))
