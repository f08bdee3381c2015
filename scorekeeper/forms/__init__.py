"""Flask-WTF forms: setting up a match with its house rules, and entering one round.

The forms only read what was typed. Every rule is checked by the domain (`build_rules`, the store,
the scoring engine); its problems come back here to be shown next to the field they are about.
"""

from scorekeeper.forms.fields import hidden_number, messages
from scorekeeper.forms.house_rules import (
    SETTING_LABELS,
    HouseRule,
    changed_house_rules,
    house_rule_groups,
    house_rules,
    preset_values,
)
from scorekeeper.forms.match_setup import SEATINGS, MatchForm, team_name
from scorekeeper.forms.rounds import NOBODY, DeleteRoundForm, RoundForm, round_form

__all__ = [
    "NOBODY",
    "SEATINGS",
    "SETTING_LABELS",
    "DeleteRoundForm",
    "HouseRule",
    "MatchForm",
    "RoundForm",
    "changed_house_rules",
    "hidden_number",
    "messages",
    "house_rule_groups",
    "house_rules",
    "preset_values",
    "round_form",
    "team_name",
]
