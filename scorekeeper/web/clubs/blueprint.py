"""The blueprint a club's pages join, opening a club for editing, and how records are written."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from babel import Locale, numbers
from flask import Blueprint
from flask_babel import format_decimal, get_locale, gettext, ngettext

from scorekeeper.domain.records import Outcome, Record, Streak
from scorekeeper.domain.rules import PRESETS
from scorekeeper.domain.rules_card import points_text
from scorekeeper.i18n import format_number, written_number
from scorekeeper.serving.http import club_or_404, opened_by
from scorekeeper.store.models import Club

bp = Blueprint("clubs", __name__)

NONE_YET = "–"  # a rate, average or streak of a player who has not played
PERCENTAGES_KEPT = 1024  # 101 a language


def editable_club(public_id: str, token: str) -> Club:
    """Return the club the token opens for editing; refuse a wrong token with 403."""
    return opened_by(club_or_404(public_id), token)


def club_or_editable(public_id: str, token: str | None) -> Club:
    """Return the club of a page served on its view link (no token) or its edit link."""
    return club_or_404(public_id) if token is None else editable_club(public_id, token)


def preset_names() -> dict[str, str]:
    """Return each preset's name in the request's language, translated once for a page."""
    return {key: gettext(preset.name) for key, preset in PRESETS.items()}


@bp.app_template_filter()
def share(rate: float | None) -> str:
    """Return a share from 0 to 1, such as a win rate, as a whole percentage."""
    return NONE_YET if rate is None else _percentage(round(rate * 100), get_locale())


@lru_cache(maxsize=PERCENTAGES_KEPT)
def _percentage(percent: int, locale: Locale | None) -> str:
    """Kept: a club's page writes a hundred rates or more, and Babel's formatting of one costs
    many times a lookup."""
    return numbers.format_percent(percent / 100, locale=locale)


@bp.app_template_filter()
def whole(number: float | None) -> str:
    """Return a count, or an average score to the nearest point, as the language writes
    numbers (kept, as `i18n.format_number` keeps them)."""
    return NONE_YET if number is None else points_text(round(number), format_number)


@bp.app_template_filter()
def one_decimal(average: float | None) -> str:
    """Return an average of a few, such as books a round, to one decimal place."""
    return NONE_YET if average is None else format_decimal(average, "0.0")


@bp.app_template_filter()
def figures(record: Record) -> tuple[str, ...]:
    """Return a record's figures as a leaderboard writes them: matches played and won, the
    share won, the average and best score, and the current streak; the language looked up
    once for all of them, as a club's page writes hundreds."""
    locale = get_locale()

    def number(value: float | None) -> str:
        return NONE_YET if value is None else points_text(round(value), _written(locale))

    rate = record.win_rate
    return (
        number(record.played),
        number(record.won),
        NONE_YET if rate is None else _percentage(round(rate * 100), locale),
        number(record.average_score),
        number(record.best_score),
        streak_text(record.streak),
    )


def _written(locale: Locale | None) -> Callable[[int], str]:
    return lambda number: written_number(number, locale)


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
