"""Forms of a club: its name, a new player, a match attached by its edit link, the filters of its
records, and the players of a match set up from the club."""

from __future__ import annotations

import re

from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import Form
from wtforms.fields import SelectChoice, StringField  # type: ignore[attr-defined]
from wtforms.validators import InputRequired, Length

from scorekeeper.domain.records import PERIOD_LABELS, Period, RecordFilter
from scorekeeper.domain.rules import MAX_PLAYERS, PRESETS
from scorekeeper.domain.setup import MAX_NAME_LENGTH
from scorekeeper.i18n import LANGUAGES
from scorekeeper.serving.http import PublicIdConverter
from scorekeeper.web.forms.fields import (
    NAME_TOO_LONG,
    SingleRadioField,
    SingleSelectField,
    stripped,
)

# A match's edit link, wherever it is served: /m/<public id>/edit/<token>.
EDIT_LINK = re.compile(rf"/m/(?P<public_id>{PublicIdConverter.regex})/edit/(?P<token>[\w-]+)")
# The box in which a seat of a club's match takes a new player's name, beside its list.
NEW_PLAYER_FIELD = "new_{}"


def _name_field(label: str, required: str) -> StringField:
    return StringField(
        label,
        filters=[stripped],
        validators=[InputRequired(required), Length(max=MAX_NAME_LENGTH, message=NAME_TOO_LONG)],
    )


class ClubForm(FlaskForm):
    """Start a club: its name, and the language its season report prints in."""

    name = _name_field(_l("Name of the club"), _l("Give the club a name, such as Thursday cards."))
    language = SingleSelectField(
        _l("Language of the printed season report"),
        choices=[SelectChoice(code, name) for code, name in LANGUAGES.items()],
        default=lambda: str(get_locale()),  # the page's own language
    )


class PlayerForm(FlaskForm):
    """Add a player to a club by name."""

    name = _name_field(_l("Name of the new player"), _l("Type the new player's name."))


class AttachForm(FlaskForm):
    """Attach a match to a club by the match's edit link, which proves it is the table's."""

    link = StringField(
        _l("The match's edit link"),
        filters=[stripped],
        validators=[InputRequired(_l("Paste the match's edit link here."))],
        render_kw={"spellcheck": "false", "autocapitalize": "off", "inputmode": "url"},
    )

    def match_link(self) -> tuple[str, str] | None:
        """Return the public id and edit token of the link pasted; None for no such link."""
        found = EDIT_LINK.search(self.link.data or "")
        return None if found is None else (found["public_id"], found["token"])


class RecordFilterForm(Form):
    """Which matches a club's records count: of one preset or all, in a period. Read from the
    page's query, without CSRF: it changes nothing."""

    preset = SingleSelectField(
        _l("Rules"),
        choices=[SelectChoice("", _l("Every preset"))]
        + [SelectChoice(preset.key, _l(preset.name)) for preset in PRESETS.values()],
        default="",
    )
    period = SingleRadioField(
        _l("Matches begun"),
        choices=[SelectChoice(period.value, _l(label)) for period, label in PERIOD_LABELS.items()],
        default=Period.ALL.value,
    )

    def record_filter(self) -> RecordFilter:
        """Return the filter chosen, leaving out a choice that is none of those offered."""
        return RecordFilter.read(self.preset.data, self.period.data)

    def query(self) -> dict[str, str]:
        """Return the filter as the query of a link that keeps it, such as the PDF's."""
        chosen = self.record_filter()
        return {"preset": chosen.preset or "", "period": chosen.period.value}


def picked_players(formdata: MultiDict[str, str]) -> MultiDict[str, str]:
    """Return a club's match set-up as the match set-up form reads it: each seat's player is the
    new name typed beside its list, else the club's player picked in it."""
    players = formdata.copy()
    for seat in range(MAX_PLAYERS):
        typed = (formdata.get(NEW_PLAYER_FIELD.format(f"players-{seat}")) or "").strip()
        if typed:
            players[f"players-{seat}"] = typed
    return players
