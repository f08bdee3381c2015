"""What settings and entry fields are called when a person reads them, ready for translation."""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.domain.problems import T_, Term

SETTING_LABELS: Mapping[str, Term] = {
    "decks": T_("Decks shuffled together"),
    "hand_size": T_("Cards in each hand"),
    "foot_size": T_("Cards in each foot"),
    "rounds": T_("Rounds in the match"),
    "meld_minimum_mode": T_("Meld minimum set by"),
    "meld_minimums": T_("Meld minimum of each round"),
    "card_values": T_("Card values"),
    "card_values.joker": T_("Joker"),
    "card_values.two": T_("Two"),
    "card_values.ace": T_("Ace"),
    "card_values.eight_to_king": T_("Eight to king"),
    "card_values.four_to_seven": T_("Four to seven"),
    "card_values.black_three": T_("Black three left over"),
    "clean_book": T_("Clean book bonus"),
    "dirty_book": T_("Dirty book bonus"),
    "wild_book": T_("Wild book bonus"),
    "wild_books_allowed": T_("Wild books allowed"),
    "max_wilds_per_meld": T_("Most wild cards in a meld"),
    "wild_ratio": T_("Wild cards in a meld"),
    "going_out_requires": T_("Books a side needs to go out"),
    "going_out_requires.clean": T_("Clean books"),
    "going_out_requires.dirty": T_("Dirty books"),
    "going_out_requires.wild": T_("Wild books"),
    "going_out_bonus": T_("Going-out bonus"),
    "red_threes_laid_down": T_("Red threes are laid down"),
    "red_three_bonus": T_("Red three laid down by a side that melded"),
    "red_three_unmelded": T_("Red three laid down by a side that did not meld"),
    "red_three_held": T_("Red three still held"),
    "discard_pickup": T_("Cards taken from the discard pile (0: the whole pile)"),
    "permission_to_go_out": T_("Partner's permission to go out"),
    "deal_bonus": T_("Deal bonus at the cut (0: not played)"),
}

ENTRY_LABELS: Mapping[str, Term] = {
    "round": T_("round"),
    "players": T_("players"),
    "side_players": T_("players of each side"),
    "sides": T_("sides"),
    "name": T_("name"),
    "clean_books": T_("clean books"),
    "dirty_books": T_("dirty books"),
    "wild_books": T_("wild books"),
    "melded": T_("melded cards"),
    "melded_points": T_("melded points"),
    "red_threes": T_("red threes laid down"),
    "red_threes_held": T_("red threes held"),
    "went_out": T_("went out"),
    "leftover": T_("cards left over"),
    "leftover_points": T_("points left over"),
    "deal_bonus": T_("deal bonus"),
    "running_score": T_("running score"),
    "jokers": T_("jokers"),
    "twos": T_("twos"),
    "aces": T_("aces"),
    "eights_to_kings": T_("eights to kings"),
    "fours_to_sevens": T_("fours to sevens"),
    "black_threes": T_("black threes"),
    "rank": T_("rank"),
    "naturals": T_("naturals"),
    "melds": T_("melds"),
}

_SETTING_PREFIX = "rules.overrides."


def setting_label(key: str) -> Term | str:
    """Return a setting's name in words; an item of a list setting is named by its list."""
    key = key.removeprefix(_SETTING_PREFIX)
    return _label(SETTING_LABELS, key, otherwise=key)


def field_label(path: str) -> Term | str:
    """Return the name in words of a request field such as ``melded.jokers``, else the path."""
    if path.startswith(_SETTING_PREFIX):
        return setting_label(path)
    return _label(ENTRY_LABELS, path.rsplit(".", 1)[-1], otherwise=path)


def _label(labels: Mapping[str, Term], key: str, *, otherwise: str) -> Term | str:
    """Return the label of `key`, or of the list whose item it is (``key[2]``), else `otherwise`."""
    label = labels.get(key) or labels.get(key.split("[")[0])
    return otherwise if label is None else label
