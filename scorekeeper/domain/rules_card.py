"""What the printed rules say: a RuleSet as rules-card sections and score-sheet lines.

Pure: no Flask. Every number comes from the RuleSet or rules.py; every text is a translatable
template (`N_`) filled after translation, so cards print in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import groupby

from scorekeeper.domain.problems import N_, Term
from scorekeeper.domain.rules import (
    BOOK_SIZE,
    BY_SCORE_MINIMUM_BELOW_ZERO,
    BY_SCORE_MINIMUMS,
    MELD_SIZES,
    MELDED_KINDS,
    PRESETS,
    CardKind,
    DeckCount,
    MeldMinimumMode,
    Permission,
    RuleSet,
    WildRatio,
)

NUMBER = "%(points)s"
MINUS_SIGN = "\u2212"  # the typographic minus: a hyphen is too short next to digits


@dataclass(frozen=True)
class Signed:
    """Points shown with their sign, such as +100 or −100."""

    points: int


@dataclass(frozen=True)
class Phrase:
    """A translatable template with ``%(name)s`` placeholders, filled after translation."""

    template: str
    params: tuple[tuple[str, object], ...] = ()

    @property
    def is_number(self) -> bool:
        """Return whether the phrase is a number alone, which prints in a column of numbers."""
        return self.template == NUMBER

    def text(self, translate: Callable[[str], str], number: Callable[[int], str] = str) -> str:
        """Return the phrase in the language `translate` gives, numbers shown by `number`."""
        if not self.params:
            return translate(self.template)
        shown = {key: _shown(value, translate, number) for key, value in self.params}
        return translate(self.template) % shown


def _shown(value: object, translate: Callable[[str], str], number: Callable[[int], str]) -> str:
    if isinstance(value, Phrase):
        return value.text(translate, number)
    if isinstance(value, Term):
        return translate(value)
    if isinstance(value, Signed):
        return points_text(value.points, number, plus=True)
    if isinstance(value, int):
        return number(value)
    return str(value)


def points_text(points: int, number: Callable[[int], str] = str, *, plus: bool = False) -> str:
    """Return points with a true minus sign when negative, and a plus if asked when positive."""
    sign = MINUS_SIGN if points < 0 else "+" if plus and points > 0 else ""
    return sign + number(abs(points))


def say(template: str, **params: object) -> Phrase:
    """Return a phrase of `template` with its parameters."""
    return Phrase(template, tuple(params.items()))


def points(value: int) -> Phrase:
    return say(NUMBER, points=value)


def signed(value: int) -> Phrase:
    return say(NUMBER, points=Signed(value))


@dataclass(frozen=True)
class Line:
    """One rule: a label and its value, or a note (a sentence without a value)."""

    label: Phrase
    value: Phrase | None = None
    pocket: bool = True  # whether the pocket card, which holds only the essentials, shows it

    @property
    def is_note(self) -> bool:
        return self.value is None


def note(template: str, **params: object) -> Line:
    return Line(say(template, **params), pocket=False)


@dataclass(frozen=True)
class Section:
    key: str
    title: Phrase
    lines: tuple[Line, ...]


@dataclass(frozen=True)
class RulesCard:
    """The sections of a rules card, and which lines differ from the preset (house rules)."""

    preset: str
    sections: tuple[Section, ...]
    house_rules: frozenset[Line] = field(default_factory=frozenset)
    # A house rule's value in the preset, where the preset has a line of that label: a table
    # reading "Going out 200" wants to know what it changed.
    preset_values: Mapping[Line, Phrase] = field(default_factory=dict)

    def is_house_rule(self, line: Line) -> bool:
        return line in self.house_rules

    @property
    def house_rule_sections(self) -> tuple[Section, ...]:
        """Return the sections cut down to the lines that differ from the preset, each under
        its heading, which says what a line such as "Round 1 60" is about."""
        return self._cut(self.is_house_rule)

    @property
    def pocket_sections(self) -> tuple[Section, ...]:
        """Return the sections cut down to the essentials that a pocket card holds."""
        return self._cut(lambda line: line.pocket)

    @property
    def pocket(self) -> RulesCard:
        """Return the card as a pocket card prints it: its essentials, its house rules marked,
        and no room for the preset's values beside them."""
        return replace(self, sections=self.pocket_sections, preset_values={})

    def _cut(self, keep: Callable[[Line], bool]) -> tuple[Section, ...]:
        """Return the sections with only the lines to `keep`, leaving out those left empty."""
        cut = (replace(s, lines=tuple(filter(keep, s.lines))) for s in self.sections)
        return tuple(section for section in cut if section.lines)


def rules_card(preset: str, rules: RuleSet | None = None, *, partners: bool = True) -> RulesCard:
    """Return the rules card of a preset, or of a match's `rules` with its house rules marked.

    Without `partners` (a match where every player plays alone) the card leaves out the rules
    that only partners follow.
    """
    sections = _sections(preset, rules or PRESETS[preset].rules, partners)
    preset_sections = _sections(preset, PRESETS[preset].rules, partners)
    preset_lines = {line for section in preset_sections for line in section.lines}
    changed = frozenset(line for s in sections for line in s.lines if line not in preset_lines)
    preset_value_of = {
        (section.key, line.label): line.value
        for section in preset_sections
        for line in section.lines
        if line.value is not None
    }
    preset_values = {
        line: preset_value_of[section.key, line.label]
        for section in sections
        for line in section.lines
        if line in changed and (section.key, line.label) in preset_value_of
    }
    return RulesCard(preset, sections, changed, preset_values)


def _sections(preset: str, rules: RuleSet, partners: bool) -> tuple[Section, ...]:
    return (
        Section("deal", say(N_("The deal")), tuple(_deal(rules))),
        Section("cards", say(N_("Card values")), tuple(_card_values(rules))),
        Section("books", say(N_("Books of %(size)s cards"), size=BOOK_SIZE), tuple(_books(rules))),
        Section("minimums", say(N_("Opening meld minimum")), tuple(_minimums(rules))),
        Section("pile", say(N_("The discard pile")), tuple(_pile(rules))),
        Section("melds", say(N_("Melds")), tuple(_melds(preset, rules))),
        Section("threes", say(N_("Red and black threes")), tuple(_threes(rules))),
        Section("going-out", say(N_("Going out")), tuple(_going_out(preset, rules, partners))),
    )


def _deal(rules: RuleSet) -> Iterator[Line]:
    yield Line(say(N_("Decks")), _decks(rules.decks), pocket=False)
    cards = say(N_("%(hand)s + %(foot)s cards"), hand=rules.hand_size, foot=rules.foot_size)
    yield Line(say(N_("Hand + foot")), cards, pocket=False)
    yield Line(say(N_("Rounds")), points(rules.rounds), pocket=False)
    if rules.deal_bonus:
        cut = rules.hand_size + rules.foot_size  # the player cuts their hand and foot at once
        yield Line(say(N_("Cutting exactly %(cards)s cards"), cards=cut), signed(rules.deal_bonus))


def _decks(decks: int | DeckCount) -> Phrase:
    if decks is DeckCount.PLAYERS_PLUS_ONE:
        return say(N_("one more than players"))
    if decks is DeckCount.PLAYERS:
        return say(N_("one per player"))
    return points(decks)


_CARD_LABELS = {
    CardKind.JOKERS: N_("Joker"),
    CardKind.TWOS: N_("2 (wild)"),
    CardKind.ACES: N_("Ace"),
    CardKind.EIGHTS_TO_KINGS: N_("8 to King"),
    CardKind.FOURS_TO_SEVENS: N_("4 to 7"),
}


def _card_values(rules: RuleSet) -> Iterator[Line]:
    for kind in MELDED_KINDS:
        yield Line(say(_CARD_LABELS[kind]), points(rules.card_values.of(kind)))
    yield note(N_("Melded cards count for the side; cards left in hand and foot count against it."))
    if rules.deal_bonus:
        yield note(
            N_(
                "Round score: books + melded cards + red threes + going out + deal bonus "
                "\u2212 cards left over."
            )
        )
    else:
        yield note(
            N_("Round score: books + melded cards + red threes + going out \u2212 cards left over.")
        )


def _books(rules: RuleSet) -> Iterator[Line]:
    yield Line(say(N_("Clean book, no wilds")), points(rules.clean_book))
    yield Line(say(N_("Dirty book, some wilds")), points(rules.dirty_book))
    wild_book = points(rules.wild_book) if rules.wild_books_allowed else say(N_("not played"))
    yield Line(say(N_("Wild book, only wilds")), wild_book)


def _minimums(rules: RuleSet) -> Iterator[Line]:
    if rules.meld_minimum_mode is MeldMinimumMode.BY_SCORE:
        yield from _by_score_minimums()
    else:
        for number, minimum in enumerate(rules.meld_minimums, start=1):
            yield Line(say(N_("Round %(round)s"), round=number), points(minimum))
    yield note(
        N_(
            "A side's first meld of the round must reach it. Of a pile taken, only its top card "
            "and the hand cards melded with it count; red threes and book bonuses never do."
        )
    )


def _by_score_minimums() -> Iterator[Line]:
    # On the pocket card too: without it, "Below 0" says nothing of what is below 0.
    yield Line(say(N_("The minimum goes by the side's running score.")))
    ascending = sorted(BY_SCORE_MINIMUMS)
    lowest = ascending[0][0]
    yield Line(say(N_("Below %(score)s"), score=lowest), points(BY_SCORE_MINIMUM_BELOW_ZERO))
    for (low, minimum), (high, _) in zip(ascending, ascending[1:], strict=False):
        yield Line(say(N_("%(low)s to under %(high)s"), low=low, high=high), points(minimum))
    top, top_minimum = ascending[-1]
    yield Line(say(N_("%(score)s and more"), score=top), points(top_minimum))


_WILD_RATIOS = {
    WildRatio.NATURALS_AT_LEAST_DOUBLE: N_("at most half the naturals"),
    WildRatio.NATURALS_EXCEED_WILDS: N_("fewer than naturals"),
}
_SAME_RANK_NOTES = {
    "partnership-11": N_("Naturals of a rank already booked may go onto the finished book."),
}
_SAME_RANK_NOTE = N_("A side may not have two unfinished melds of the same rank.")


def _melds(preset: str, rules: RuleSet) -> Iterator[Line]:
    sizes = say(
        N_("%(least)s to %(most)s cards of one rank"), least=MELD_SIZES[0], most=MELD_SIZES[-1]
    )
    yield Line(say(N_("A meld")), sizes, pocket=False)
    yield Line(say(N_("Wild cards")), say(N_("2s and jokers")), pocket=False)
    yield Line(say(N_("Wilds in a meld")), say(_WILD_RATIOS[rules.wild_ratio]), pocket=False)
    if rules.max_wilds_per_meld is not None:
        yield Line(
            say(N_("Most wilds in any meld")), points(rules.max_wilds_per_meld), pocket=False
        )
        if rules.most_wilds_in_book < rules.max_wilds_per_meld:
            # A cap above what the share of naturals allows changes nothing: say so beside it.
            template = N_(
                "With that share of naturals, no meld holds more than %(most)s, books included."
            )
            yield note(template, most=rules.most_wilds_in_book)
    yield from _wilds_by_meld_size(rules)
    allowed = say(N_("allowed")) if rules.wild_books_allowed else say(N_("not allowed"))
    yield Line(say(N_("Melds of wilds only")), allowed)
    yield note(N_("Threes never meld."))
    yield note(_SAME_RANK_NOTES.get(preset, _SAME_RANK_NOTE))


def _wilds_by_meld_size(rules: RuleSet) -> Iterator[Line]:
    """Yield the most wilds a meld may hold, grouping the meld sizes that share the number."""
    for wilds, group in groupby(MELD_SIZES, key=rules.most_wilds_in_meld):
        sizes = list(group)
        if len(sizes) == 1:
            label = say(N_("Most wilds with %(size)s cards"), size=sizes[0])
        else:
            label = say(
                N_("Most wilds with %(least)s\u2013%(most)s cards"), least=sizes[0], most=sizes[-1]
            )
        yield Line(label, points(wilds))


def _pile(rules: RuleSet) -> Iterator[Line]:
    if rules.discard_pickup:
        taken = say(N_("the top %(count)s"), count=rules.discard_pickup)
    else:
        taken = say(N_("the whole pile"))
    yield Line(say(N_("Cards taken")), taken)
    yield note(
        N_("To take it, meld its top card at once with a natural pair of that rank from your hand.")
    )
    yield note(N_("It cannot be taken while a wild card or a three is on top."))


def _threes(rules: RuleSet) -> Iterator[Line]:
    if rules.red_threes_laid_down:
        yield note(N_("Lay a red three down as soon as you get it and draw a card to replace it."))
        yield Line(say(N_("Red three laid down, side has melded")), signed(rules.red_three_bonus))
        yield Line(
            say(N_("Red three laid down, side has not melded")), signed(rules.red_three_unmelded)
        )
        yield Line(say(N_("Red three still held at the end")), signed(rules.red_three_held))
    else:
        yield note(N_("Red threes are not laid down."))
        yield Line(say(N_("Red three held at the end")), signed(rules.red_three_held))
    yield Line(say(N_("Black three left in hand or foot")), signed(-rules.card_values.black_three))
    yield note(N_("A discarded black three stops the next player from taking the pile."))


_PERMISSIONS = {
    Permission.ASKED: (
        N_("ask first"),
        N_("Ask your partner before going out; they may answer “not yet”."),
    ),
    Permission.REQUIRED: (
        N_("required"),
        N_("You may go out only when your partner says yes; after a no, keep two cards."),
    ),
    Permission.NONE: (N_("not needed"), N_("Go out without asking your partner.")),
}
_PARTNER_FOOT_NOTES = {
    "strict": N_(
        "With partners, yours must have picked up their foot and played a turn from it "
        "before you go out."
    ),
}
_PARTNER_FOOT_NOTE = N_("With partners, yours must have picked up their foot before you go out.")


def _going_out(preset: str, rules: RuleSet, partners: bool) -> Iterator[Line]:
    yield from _books_needed(rules)
    yield Line(say(N_("Going-out bonus")), signed(rules.going_out_bonus))
    if partners:
        permission, permission_note = _PERMISSIONS[rules.permission_to_go_out]
        yield Line(say(N_("Partner's permission")), say(permission))
        yield note(permission_note)
        yield note(_PARTNER_FOOT_NOTES.get(preset, _PARTNER_FOOT_NOTE))
    yield note(
        N_(
            "Pick up your foot when your hand is empty: at once after a meld, "
            "on your next turn after a discard. Go out from your foot."
        )
    )


def _books_needed(rules: RuleSet) -> Iterator[Line]:
    needed = rules.going_out_requires
    if not (needed.clean or needed.dirty or needed.wild):
        yield Line(say(N_("Books needed")), say(N_("none")))
    for count, label in (
        (needed.clean, N_("Clean books needed")),
        (needed.dirty, N_("Dirty books needed")),
        (needed.wild, N_("Wild books needed")),
    ):
        if count:
            yield Line(say(label), points(count))


# -- The score sheet ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreLine:
    """One part of a side's round score; `key` names its field in `scoring.Breakdown`."""

    key: str
    label: Phrase
    hint: Phrase | None = None


def score_lines(rules: RuleSet) -> tuple[ScoreLine, ...]:
    """Return the parts of a round score that a score sheet has a line for, in scoring order."""
    lines = [
        ScoreLine("books", say(N_("Books")), _book_hint(rules)),
        ScoreLine("melded", say(N_("Melded cards"))),
        ScoreLine("red_threes", say(N_("Red threes")), _red_three_hint(rules)),
        ScoreLine("going_out", say(N_("Going out")), signed(rules.going_out_bonus)),
    ]
    if rules.deal_bonus:
        cut = rules.hand_size + rules.foot_size
        hint = say(
            N_("%(points)s for exactly %(cards)s"), points=Signed(rules.deal_bonus), cards=cut
        )
        lines.append(ScoreLine("deal_bonus", say(N_("Deal bonus")), hint))
    lines.append(
        ScoreLine("leftover", say(N_("Left over")), say(N_("cards in hand and foot, minus")))
    )
    return tuple(lines)


def _book_hint(rules: RuleSet) -> Phrase:
    if rules.wild_books_allowed:
        return say(
            N_("clean × %(clean)s · dirty × %(dirty)s · wild × %(wild)s"),
            clean=rules.clean_book,
            dirty=rules.dirty_book,
            wild=rules.wild_book,
        )
    return say(
        N_("clean × %(clean)s · dirty × %(dirty)s"), clean=rules.clean_book, dirty=rules.dirty_book
    )


def _red_three_hint(rules: RuleSet) -> Phrase:
    if rules.red_threes_laid_down:
        return say(
            N_("%(melded)s, unmelded %(unmelded)s, held %(held)s"),
            melded=Signed(rules.red_three_bonus),
            unmelded=Signed(rules.red_three_unmelded),
            held=Signed(rules.red_three_held),
        )
    return say(N_("%(held)s each held"), held=Signed(rules.red_three_held))
