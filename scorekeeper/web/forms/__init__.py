"""Flask-WTF forms: setting up a match with its house rules, entering one round, importing one.

The forms only read what was typed. Every rule is checked by the domain (`build_rules`, the store,
the scoring engine); its problems come back here to be shown next to the field they are about.
"""

from scorekeeper.web.forms.fields import (
    NOT_A_WHOLE_NUMBER,
    add_error,
    hidden_number,
    marked_fields,
    messages,
    new_operation_id,
)
from scorekeeper.web.forms.house_rules import (
    SETTING_LABELS,
    HouseRule,
    changed_house_rules,
    house_rule_groups,
    house_rules,
    preset_values,
)
from scorekeeper.web.forms.match_setup import (
    SEATINGS,
    MatchForm,
    sets_up_again,
    team_name,
    values_like,
)
from scorekeeper.web.forms.rounds import COUNTS, NOBODY, DeleteRoundForm, RoundForm, round_form
from scorekeeper.web.forms.sharing import ImportForm, NewEditLinkForm

__all__ = [
    "COUNTS",
    "NOBODY",
    "NOT_A_WHOLE_NUMBER",
    "SEATINGS",
    "SETTING_LABELS",
    "DeleteRoundForm",
    "HouseRule",
    "ImportForm",
    "MatchForm",
    "NewEditLinkForm",
    "RoundForm",
    "add_error",
    "changed_house_rules",
    "hidden_number",
    "marked_fields",
    "messages",
    "new_operation_id",
    "house_rule_groups",
    "house_rules",
    "preset_values",
    "round_form",
    "sets_up_again",
    "team_name",
    "values_like",
]
