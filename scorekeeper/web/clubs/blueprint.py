"""The blueprint a club's pages join, opening a club for editing, and how records are written."""

from __future__ import annotations

from flask import Blueprint
from flask_babel import format_decimal, format_percent, ngettext

from scorekeeper.domain.records import Outcome, Streak
from scorekeeper.domain.rules_card import points_text
from scorekeeper.i18n import format_number
from scorekeeper.serving.http import club_or_404, opened_by
from scorekeeper.store.models import Club

bp = Blueprint("clubs", __name__)

NONE_YET = "–"  # a rate, average or streak of a player who has not played


def editable_club(public_id: str, token: str) -> Club:
    """Return the club the token opens for editing; refuse a wrong token with 403."""
    return opened_by(club_or_404(public_id), token)


def club_or_editable(public_id: str, token: str | None) -> Club:
    """Return the club of a page served on its view link (no token) or its edit link."""
    return club_or_404(public_id) if token is None else editable_club(public_id, token)


@bp.app_template_filter()
def share(rate: float | None) -> str:
    """Return a share from 0 to 1, such as a win rate, as a whole percentage."""
    return NONE_YET if rate is None else format_percent(rate)


@bp.app_template_filter()
def whole(average: float | None) -> str:
    """Return an average score to the nearest point, as the language writes numbers."""
    return NONE_YET if average is None else points_text(round(average), format_number)


@bp.app_template_filter()
def one_decimal(average: float | None) -> str:
    """Return an average of a few, such as books a round, to one decimal place."""
    return NONE_YET if average is None else format_decimal(average, "0.0")


@bp.app_template_filter("streak")
def streak_text(streak: Streak | None) -> str:
    """Return a run of one outcome in words: "3 wins", "1 draw"."""
    if streak is None:
        return NONE_YET
    if streak.outcome is Outcome.WON:
        return ngettext("%(num)s win", "%(num)s wins", streak.length)
    if streak.outcome is Outcome.DRAWN:
        return ngettext("%(num)s draw", "%(num)s draws", streak.length)
    return ngettext("%(num)s loss", "%(num)s losses", streak.length)
