"""The meld checker's form: the side about to meld, and the melds it means to lay down."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import Form
from wtforms.fields import (  # type: ignore[attr-defined]  # types-WTForms lacks SelectChoice
    FormField,
    RadioField,
    SelectChoice,
    SelectField,
)
from wtforms.validators import ValidationError

from scorekeeper.domain.melds import RANKS, WILD_RANK, Meld
from scorekeeper.domain.rules import CardKind
from scorekeeper.web.forms.fields import add_error, count_field

MELD_ROWS = 4  # an opening meld is seldom more than a few melds
NO_MELD = ""
_RANK_CHOICES = [
    SelectChoice(NO_MELD, _l("No meld")),
    *(SelectChoice(rank, _l("Wild cards only") if rank == WILD_RANK else rank) for rank in RANKS),
]


_RANK_VALUES = frozenset(choice.value for choice in _RANK_CHOICES)


class MeldRowForm(Form):
    """One meld: its rank and the cards in it."""

    # Read against every rank, not only those offered: where the rules forbid melds of wild
    # cards only, a link that names one is told so by the rules, not as an unknown rank.
    rank = SelectField(_l("Rank"), choices=_RANK_CHOICES, default=NO_MELD, validate_choice=False)
    naturals = count_field(_l("Natural cards"))
    twos = count_field(_l(CardKind.TWOS.label))
    jokers = count_field(_l(CardKind.JOKERS.label))

    def validate_rank(self, field: SelectField) -> None:
        if (field.data or NO_MELD) not in _RANK_VALUES:
            raise ValidationError(gettext("Choose a rank from the list."))

    def is_empty(self) -> bool:
        """Tell whether the row holds neither a rank nor a card."""
        counts = (self.naturals.data, self.twos.data, self.jokers.data)
        return (self.rank.data or NO_MELD) == NO_MELD and not any(counts)

    def meld(self) -> Meld | None:
        """Return the meld of this row; None for a row left empty."""
        rank = self.rank.data or NO_MELD
        counts = [field.data or 0 for field in (self.naturals, self.twos, self.jokers)]
        if rank == NO_MELD:
            if any(counts):
                add_error(self.rank, gettext("Choose the rank of this meld."))
            return None
        return Meld(rank, *counts)


# A row per meld, each named by its place (meld_0-rank ...): a FieldList would move the rows of a
# link that leaves the first ones out up into their places, and read them twice.
_MeldRows = type(
    "MeldRows", (Form,), {f"meld_{row}": FormField(MeldRowForm) for row in range(MELD_ROWS)}
)


class MeldCheckForm(_MeldRows):  # type: ignore[misc,valid-type]
    """Sent by GET, as it stores nothing: a check can be kept as a link, or sent again."""

    # A side named by a link changed by hand is read as the first side.
    side = RadioField(_l("The side about to meld"), default="0", validate_choice=False)

    def __init__(
        self, side_choices: Sequence[SelectChoice], *, ranks: Sequence[str], **kwargs: object
    ) -> None:
        """`ranks`: the ranks the rules let a meld have, which the rows offer."""
        super().__init__(**kwargs)
        self.side.choices = list(side_choices)
        self._side_values = [choice.value for choice in side_choices]
        offered = [c for c in _RANK_CHOICES if c.value == NO_MELD or c.value in ranks]
        for row in self.rows:
            row.rank.choices = offered

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        """Validate the boxes, and that some row holds a meld: "Check" with every row empty is
        told so beside the first row."""
        if not super().validate(extra_validators):
            return False
        if all(row.is_empty() for row in self.rows):
            add_error(self.rows[0].rank, gettext("Choose the rank of a meld and enter its cards."))
            return False
        return True

    def side_index(self) -> int:
        """Return the chosen side's index; the first side's when none could be read."""
        known = self._side_values
        return known.index(self.side.data) if self.side.data in known else 0

    @property
    def rows(self) -> list[MeldRowForm]:
        return [self[f"meld_{row}"].form for row in range(MELD_ROWS)]

    def laid_down(self) -> list[tuple[int, Meld]] | None:
        """Return the melds entered, each with its row, rows left empty skipped; None when a
        row holds cards but no rank, which its rank field then says."""
        melds = [(index, row.meld()) for index, row in enumerate(self.rows)]
        if any(row.rank.errors for row in self.rows):
            return None
        return [(index, meld) for index, meld in melds if meld is not None]
