"""The round form: what each side entered for one round, and who went out."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Form
from wtforms.fields import (  # type: ignore[attr-defined]  # types-WTForms lacks SelectChoice
    Field,
    FieldList,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
)
from wtforms.utils import unset_value
from wtforms.validators import InputRequired

from scorekeeper.domain.entries import (
    COUNT_KEYS,
    MELDED_COUNT_KEYS,
    CardCounts,
    RoundEntry,
    SideEntry,
)
from scorekeeper.domain.problems import Problem
from scorekeeper.domain.rules import CardKind, RuleSet
from scorekeeper.i18n import format_typed_number, problem_message
from scorekeeper.web.forms.fields import SingleRadioField, add_error, count_field, operation_field


def _counts_form_class(keys: Sequence[str]) -> type[Form]:
    attributes = {key: count_field(_l(CardKind(key).label)) for key in keys}
    return type("CardCountsForm", (Form,), attributes)


POINTS, COUNTS = "points", "counts"


def _cards_mode_field() -> SingleRadioField:
    return SingleRadioField(
        choices=[
            SelectChoice(POINTS, _l("Points")),
            SelectChoice(COUNTS, _l("Card counts")),
        ],
        default=POINTS,
    )


class SideForm(Form):
    """What one side entered; melded and left-over cards as a point total or counted by kind."""

    clean_books = count_field(_l("Clean books"))
    dirty_books = count_field(_l("Dirty books"))
    wild_books = count_field(_l("Wild books"))
    melded_mode = _cards_mode_field()
    melded_points = count_field(_l("Points of all melded cards, books included"))
    melded = FormField(_counts_form_class(MELDED_COUNT_KEYS))
    red_threes = count_field(_l("Red threes laid down"))
    red_threes_held = count_field(_l("Red threes still held"))
    leftover_mode = _cards_mode_field()
    leftover_points = count_field(_l("Points of the cards left in hand and foot"))
    # In a partnership, each player's points may be entered apart: they add up to the side's,
    # which is what the round stores. One box per player, labelled with their name on the page.
    leftover_by_player = FieldList(count_field(_l("Points left in this player's hand and foot")))
    leftover = FormField(_counts_form_class(COUNT_KEYS))
    deal_bonus = count_field(_l("Players who earned the deal bonus at the cut"))

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        """Check what the side entered. Of its cards, only the way of counting them that it
        chose is read: the other way's fields are hidden on the page, whatever they hold."""
        super().validate(extra_validators)
        for field in self._unread_fields():
            field.errors = []
        if self.leftover_mode.data != COUNTS:
            self._check_players_leftover()
        # A list holds its entries' errors as they were when it validated them: as they are now.
        errors = [field.errors for field in self.leftover_by_player]
        self.leftover_by_player.errors = errors if any(errors) else []
        return not self.errors

    def _unread_fields(self) -> Iterator[Field]:
        for mode, points, counts in (
            (self.melded_mode, self.melded_points, self.melded),
            (self.leftover_mode, self.leftover_points, self.leftover),
        ):
            yield from counts.form if mode.data != COUNTS else [points]
        if self.leftover_mode.data == COUNTS:
            yield from self.leftover_by_player

    def players_leftover(self) -> int | None:
        """Return what the players' own left-over points add up to; None when none is entered."""
        points = [field.data for field in self.leftover_by_player]
        return None if all(value is None for value in points) else sum(v or 0 for v in points)

    def _check_players_leftover(self) -> None:
        """Refuse a player's points below 0, and players' points that add up to other than
        the side's box says; an empty side's box takes their sum, as the page's script fills
        it, so that what the rules say of the side's points stands beside them."""
        for field in self.leftover_by_player:
            if field.data is not None and field.data < 0:
                add_error(field, gettext("Enter the points as a number of 0 or more."))
        total, box = self.players_leftover(), self.leftover_points
        if total is None:
            return
        if box.data is None and not box.errors:
            # As if typed: an empty box is one whose text could not be read, to WTForms.
            box.data, box.raw_data, box.process_errors = total, [str(total)], []
        elif box.data is not None and box.data != total:
            message = gettext(
                "The players' points add up to %(sum)s, not %(total)s: correct one or the "
                "other, or leave this box empty.",
                sum=format_typed_number(total),
                total=format_typed_number(box.data),
            )
            add_error(box, message)

    def _leftover(self) -> int | CardCounts:
        """Return the side's left-over cards: counted by kind, or the side's points, else what
        its players' points add up to."""
        if self.leftover_mode.data == COUNTS or self.leftover_points.data is not None:
            return _cards(self.leftover_mode, self.leftover_points, self.leftover)
        return self.players_leftover() or 0  # not validated: read as typed

    def entry(self, *, went_out: bool) -> SideEntry:
        """Return the side's entry; an empty field counts as 0."""
        return SideEntry(
            clean_books=self.clean_books.data or 0,
            dirty_books=self.dirty_books.data or 0,
            wild_books=self.wild_books.data or 0,
            melded=_cards(self.melded_mode, self.melded_points, self.melded),
            red_threes=self.red_threes.data or 0,
            red_threes_held=self.red_threes_held.data or 0,
            leftover=self._leftover(),
            went_out=went_out,
            deal_bonus=self.deal_bonus.data or 0,
        )


def _cards(mode: RadioField, points: IntegerField, counts: FormField[Form]) -> int | CardCounts:
    if mode.data == COUNTS:
        return CardCounts.from_mapping({field.short_name: field.data or 0 for field in counts.form})
    return points.data or 0


def side_data(side: SideEntry) -> dict[str, object]:
    """Return a stored side entry as the side form's initial data."""
    data: dict[str, object] = {
        key: getattr(side, key)
        for key in ("clean_books", "dirty_books", "wild_books", "red_threes", "red_threes_held")
    }
    for prefix, cards in (("melded", side.melded), ("leftover", side.leftover)):
        if isinstance(cards, CardCounts):
            data[f"{prefix}_mode"] = COUNTS
            data[prefix] = {kind.value: count for kind, count in cards.items()}
        else:
            data[f"{prefix}_points"] = cards
    return {**data, "deal_bonus": side.deal_bonus}


if TYPE_CHECKING:  # FieldList is generic in types-WTForms only
    SideFields = FieldList[FormField[SideForm]]
else:
    SideFields = FieldList


class SideList(SideFields):
    """The sides' sub-forms: one per item of the data it is given, each at its own index.

    FieldList numbers the entries it finds in a post from 0, so a side whose fields were left
    out would let the next side move into its place. Here "sides-1-..." always fills side 1, a
    side whose fields are missing stays empty at its index and is listed in `missing`, and
    fields of sides the match does not have are ignored.
    """

    missing: tuple[int, ...] = ()

    def process(self, formdata: Any, data: Any = unset_value, extra_filters: Any = None) -> None:
        sides = [] if data is unset_value else list(data)
        self.entries, self.last_index, self.object_data = [], -1, sides
        # FieldList's own ways to add an entry and to read a post's indices: types-WTForms,
        # which types only its public API, leaves them out.
        add_entry, posted_indices = self._add_entry, self._extract_indices  # type: ignore[attr-defined]
        for index, side in enumerate(sides):
            add_entry(formdata, side, index=index)
        posted = set(posted_indices(self.name, formdata)) if formdata else None
        self.missing = () if posted is None else tuple(set(range(len(sides))) - posted)


NOBODY = "nobody"


class RoundForm(FlaskForm):
    """One round: a sub-form per side, who went out, and the version and operation id that
    keep a change from overwriting another or applying twice."""

    # No choice until the table makes one: a preselected "nobody" left untouched would drop the
    # going-out bonus of the side that went out.
    went_out = SingleRadioField(  # type: ignore[call-arg]  # types-WTForms lacks the message
        _l("Who went out?"),
        invalid_choice_message=_l("Choose the side that went out, or Nobody if the stock ran out."),
    )
    sides = SideList(FormField(SideForm))
    round_number = HiddenField()
    version = HiddenField()
    operation = operation_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.side_errors: dict[int, list[str]] = {}  # what is wrong with a side as a whole
        self.unplayed: frozenset[str] = frozenset()  # side fields left off the page (`setup`)

    def part_errors(self, parts: FieldList[Any]) -> Mapping[int, Sequence[str]]:
        """Return what is wrong with each side as a whole, by side, when `parts` are the sides
        (a `FormWithPartErrors`: the page's summary then leads to them too)."""
        return self.side_errors if parts is self.sides else {}

    def setup(
        self, side_names: Sequence[str], rules: RuleSet, side_players: Sequence[int] = ()
    ) -> RoundForm:
        """Give the form one going-out choice per side, the side fields the rules play, and a
        box of left-over points per player of each side of several players."""
        sides = [SelectChoice(str(index), name) for index, name in enumerate(side_names)]
        self.went_out.choices = [*sides, SelectChoice(NOBODY, _l("Nobody: the stock ran out"))]
        self.unplayed = rules.unplayed_entries
        for side, players in zip(self.sides, side_players, strict=False):
            boxes = side.form.leftover_by_player
            wanted = players if players > 1 else 0  # a player alone has the side's box
            while len(boxes) > wanted:  # posted by hand, for players the side does not have
                boxes.pop_entry()
            while len(boxes) < wanted:  # not posted: a form sent without them
                boxes.append_entry()
        return self

    def plays(self, name: str) -> bool:
        """Tell whether the page shows each side's field `name`: the rules may leave it off."""
        return name not in self.unplayed

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        """Check the fields, and that the fields of every side arrived."""
        valid = super().validate(extra_validators)
        for index in sorted(self.sides.missing):
            message = gettext("This side's entries did not arrive: enter them again.")
            self.side_errors.setdefault(index, []).append(message)
        return valid and not self.sides.missing

    def entry(self, round_number: int) -> RoundEntry:
        """Return the round as entered; the store names the sides and adds their running scores."""
        sides = tuple(
            side.form.entry(went_out=self.went_out.data == str(index))
            for index, side in enumerate(self.sides)
        )
        return RoundEntry(round_number=round_number, sides=sides)

    def show_problems(self, problems: Iterable[Problem]) -> None:
        """Put each problem next to the side's field it is about, else next to its side, and
        a problem of the whole round above the form, and beside each field that adds up to it
        (the decks' supply). A field whose text could not be read shows only that: the domain
        read it as empty."""
        for problem in problems:
            message = problem_message(problem)
            field = self._field_of(problem.side, problem.field)
            if field is not None:
                _show_beside(field, message)
            elif problem.side is not None and 0 <= problem.side < len(self.sides):
                self.side_errors.setdefault(problem.side, []).append(message)
            else:
                self.form_errors.append(message)
                for side, name in problem.adds_up:
                    if (adding_up := self._field_of(side, name)) is not None:
                        _show_beside(adding_up, message)

    def _field_of(self, side_index: int | None, name: str) -> Field | None:
        if name == "went_out":
            return self.went_out
        if side_index is None or not 0 <= side_index < len(self.sides):
            return None
        side = self.sides[side_index].form
        first, _, rest = name.partition(".")
        if not self.plays(first):
            return None  # posted by hand: its side shows the problem
        if first in ("melded", "leftover"):
            counts = (side.melded if first == "melded" else side.leftover).form
            return counts[rest] if rest in counts else side[f"{first}_mode"]
        return side[first] if first in side else None


def _show_beside(field: Field, message: str) -> None:
    """Show the message next to the field, but where its text could not be read at all."""
    if not field.process_errors:
        add_error(field, message)


def round_form(
    side_names: Sequence[str],
    rules: RuleSet,
    entry: RoundEntry | None = None,
    *,
    side_players: Sequence[int] = (),
    from_request: bool = True,
    **data: object,
) -> RoundForm:
    """Return the round form with a sub-form per side, filled with a stored entry if given,
    and a box of left-over points for each player of a side of several (`side_players`).

    `from_request=False` shows the stored round even on a POST of another form (a deletion).
    """
    initial: dict[str, object] = {**data, "sides": [{} for _ in side_names]}
    if entry is not None:
        initial["sides"] = [side_data(side) for side in entry.sides]
        out = [str(index) for index, side in enumerate(entry.sides) if side.went_out]
        initial["went_out"] = out[0] if out else NOBODY
    form = RoundForm(data=initial) if from_request else RoundForm(formdata=None, data=initial)
    return form.setup(side_names, rules, side_players)


class DeleteRoundForm(FlaskForm):
    version = HiddenField(validators=[InputRequired()])
    operation = operation_field()
