"""Seeded evenings at a table with two keepers on one edit link, whose phones' network comes and
goes, meeting every fault a table meets: rounds the server refuses with rounds saved after them,
corrections abandoned with Back, corrections and deletions made offline, both keepers entering
the same round, and a browser closed with a round waiting and opened again.

After each evening what the server stored is what the keepers meant: no round lost, none stored
twice (each round's version counts the changes the keepers made to it, each once), no change
that nobody saved on purpose, and no hole the table did not make. `make test` plays three
evenings, `make soak` thirty.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, PHONE, WAIT_MS
from phones import (
    PAIRS,
    api_match,
    delete,
    forms_to_keep,
    impossible_round,
    on_the_phone,
    open_correction,
    open_form,
    round_of,
    save,
    send_queue,
    stored_rounds,
    totals_shown,
    type_round,
    wait_until_kept,
)
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect
from soak import scaled

pytestmark = pytest.mark.browser

EVENINGS = scaled(3, 30)
ROUNDS = 4
SWITCH_CHANCE = 0.35  # that a phone goes offline, or back online, at each box typed
MOST_STEPS = 14  # an evening ends once its rounds are in, or after this many steps


@dataclass
class Meant:
    """What the keepers meant the match to hold: each round's points left over, by round, and
    the version the server gives a round when every change to it was applied exactly once (a
    new round starts above every version a deleted round reached)."""

    rounds: dict[int, list[int]] = field(default_factory=dict)
    versions: dict[int, int] = field(default_factory=dict)
    floor: int = 0

    def entered(self, number: int, leftover: int) -> None:
        self.rounds[number] = round_of(number, leftover).leftover
        self.versions[number] = self.floor + 1

    def corrected(self, number: int, leftover: int) -> None:
        self.rounds[number] = round_of(number, leftover).leftover
        self.versions[number] += 1

    def deleted(self, number: int) -> None:
        del self.rounds[number]
        self.floor = max(self.floor, self.versions.pop(number))


@dataclass
class Phone:
    """One keeper's phone: its page, whether it is offline, and how to open it again."""

    opened: Callable[[], Page]
    edit_url: str
    page: Page = field(init=False)
    offline: bool = False
    abandoned: set[int] = field(default_factory=set)  # rounds whose correction was left

    def __post_init__(self) -> None:
        self.page = on_the_phone(self.opened(), self.edit_url)

    def go(self, *, offline: bool) -> None:
        self.offline = offline
        self.page.context.set_offline(offline)
        if not offline:  # a copy kept on the phone gives way to the server's page first
            expect(self.page.locator("[data-offline-banner]")).to_be_hidden(timeout=WAIT_MS)

    def maybe_switch(self, chance: random.Random) -> None:
        if chance.random() < SWITCH_CHANCE:
            self.go(offline=not self.offline)

    def synced(self) -> None:
        """Go online and open the standings until nothing waits and every form is kept."""
        self.go(offline=False)
        send_queue(self.page, self.edit_url)
        wait_until_kept(self.page, forms_to_keep(self.page))

    def open_correction(self, number: int) -> None:
        """Open round `number`'s correction; a draft left there before comes back said, and
        the keeper, who left it on purpose, throws it away."""
        open_correction(self.page, self.edit_url, number)
        notice = self.page.locator("[data-draft-notice]")
        if number in self.abandoned:
            expect(notice).to_contain_text("What you typed here at")
            notice.get_by_role("button", name="Throw it away").tap()
            self.abandoned.discard(number)
        expect(notice).to_be_hidden()


@dataclass
class Table:
    """An evening's match, its two keepers' phones, and what they meant it to hold."""

    chance: random.Random
    links: dict[str, str]
    phones: list[Phone]
    relaunch: Callable[[], Page]
    meant: Meant = field(default_factory=Meant)

    @property
    def edit_url(self) -> str:
        return self.links["edit_url"]

    def keeper(self, number: int) -> Phone:
        return self.phones[number % 2]  # the keepers take turns

    def leftover(self) -> int:
        return 5 * self.chance.randrange(1, 40)

    def stored(self) -> list[int]:
        return sorted(stored_rounds(self.links["live_server"], self.links["id"]))

    def everyone_synced(self) -> None:
        """Bring every phone online until nothing waits, and every phone keeps the forms of
        the rounds that the others' sent: one pass sends, a second keeps."""
        for phone in self.phones + self.phones:
            phone.synced()


def listed(page: Page, text: str) -> Locator:
    """Return what the standings list as waiting on the phone with this text."""
    return page.locator("[data-queued-rounds] li", has_text=text)


# -- Faults: each plays a step of the evening and returns the next round to enter -------------


def plain(table: Table, number: int) -> int:
    """A round typed and saved while the phone's network comes and goes."""
    phone, leftover = table.keeper(number), table.leftover()
    phone.maybe_switch(table.chance)
    open_form(phone.page, table.edit_url, number)
    type_round(phone.page, round_of(number, leftover), lambda: phone.maybe_switch(table.chance))
    save(phone.page)
    table.meant.entered(number, leftover)
    phone.maybe_switch(table.chance)
    return number + 1


def refused_with_a_round_behind(table: Table, number: int) -> int:
    """A round the server refuses and the next one, both saved offline: the next waits behind
    the refused one until the keeper corrects it, and then both are stored."""
    if number == ROUNDS:
        return plain(table, number)
    phone, leftovers = table.keeper(number), (table.leftover(), table.leftover())
    phone.synced()  # what waited from before goes first
    phone.go(offline=True)
    open_form(phone.page, table.edit_url, number)
    type_round(phone.page, impossible_round(number))
    save(phone.page)
    open_form(phone.page, table.edit_url, number + 1)
    type_round(phone.page, round_of(number + 1, leftovers[1]))
    save(phone.page)

    phone.go(offline=False)
    phone.page.goto(table.edit_url)
    refused = phone.page.get_by_role("link", name=f"Round {number} was not saved")
    expect(refused).to_be_visible()
    expect(listed(phone.page, f"Round {number + 1}: waiting behind round {number}")).to_be_visible()
    assert number + 1 not in table.stored()  # no hole the table did not make

    refused.tap()
    expect(phone.page.locator("[data-refused-notice]")).to_be_visible()
    type_round(phone.page, round_of(number, leftovers[0]))
    save(phone.page)
    send_queue(phone.page, table.edit_url)
    table.meant.entered(number, leftovers[0])
    table.meant.entered(number + 1, leftovers[1])
    return number + 2


def abandoned_correction(table: Table, number: int) -> int:
    """A correction begun and left with Back: never saved, and said when it comes back."""
    if not table.meant.rounds:
        return plain(table, number)
    table.everyone_synced()  # the table corrects a round it sees
    phone = table.keeper(number)
    corrected = table.chance.choice(sorted(table.meant.rounds))
    phone.maybe_switch(table.chance)
    phone.open_correction(corrected)
    stayed = corrected % 2  # the side that did not go out counts its cards left over
    phone.page.fill(f"#sides-{stayed}-leftover_points", str(table.leftover()))
    phone.page.go_back()
    phone.abandoned.add(corrected)
    return plain(table, number)


def correction(table: Table, number: int) -> int:
    """A stored round corrected, offline or not."""
    if not table.meant.rounds:
        return plain(table, number)
    table.everyone_synced()  # the table corrects a round it sees
    phone, leftover = table.keeper(number), table.leftover()
    corrected = table.chance.choice(sorted(table.meant.rounds))
    phone.go(offline=table.chance.random() < 0.5)
    phone.open_correction(corrected)
    stayed = corrected % 2
    phone.page.fill(f"#sides-{stayed}-leftover_points", str(leftover))
    save(phone.page)
    if phone.offline:
        expect(
            listed(phone.page, f"Round {corrected} (correction): waiting to send")
        ).to_be_visible()
    table.meant.corrected(corrected, leftover)
    return number


def deleted_and_entered_again(table: Table, number: int) -> int:
    """A stored round deleted offline, and entered again once the deletion is sent."""
    if not table.meant.rounds:
        return plain(table, number)
    table.everyone_synced()
    phone, leftover = table.keeper(number), table.leftover()
    deleted = table.chance.choice(sorted(table.meant.rounds))
    phone.go(offline=True)
    phone.open_correction(deleted)
    delete(phone.page)
    expect(listed(phone.page, f"Round {deleted} (delete): waiting to send")).to_be_visible()
    table.meant.deleted(deleted)

    phone.synced()
    assert deleted not in table.stored()
    open_form(phone.page, table.edit_url, deleted)
    type_round(phone.page, round_of(deleted, leftover))
    save(phone.page)
    table.meant.entered(deleted, leftover)
    return number


def both_keepers_enter_it(table: Table, number: int) -> int:
    """Both keepers enter the same round offline, alike: it is stored once."""
    leftover = table.leftover()
    for phone in table.phones:
        phone.go(offline=True)
        open_form(phone.page, table.edit_url, number)
        type_round(phone.page, round_of(number, leftover))
        save(phone.page)
    table.everyone_synced()
    table.meant.entered(number, leftover)
    return number + 1


def closed_with_a_round_waiting(table: Table, number: int) -> int:
    """A round saved offline on the phone whose browser is then closed: opened again, the
    phone sends it, with nothing for the keeper to do but open the match."""
    phone, leftover = table.phones[0], table.leftover()
    phone.go(offline=True)
    open_form(phone.page, table.edit_url, number)
    type_round(phone.page, round_of(number, leftover))
    save(phone.page)
    phone.page.context.close()  # the session cookie ends with it
    phone.page = table.relaunch()
    phone.offline = False
    phone.page.goto(table.edit_url)
    expect(phone.page.locator(f"#round-{number}")).to_be_visible()
    table.meant.entered(number, leftover)
    return number + 1


FAULTS = [
    plain,
    refused_with_a_round_behind,
    abandoned_correction,
    correction,
    deleted_and_entered_again,
    both_keepers_enter_it,
    closed_with_a_round_waiting,
]


# -- The evenings ---------------------------------------------------------------------------------


@pytest.fixture
def persistent_phone(browser: Browser, tmp_path: Path) -> Iterator[Callable[[], Page]]:
    """Return a function that opens the browser of a phone whose profile lasts, as a phone's
    does, across the browser being closed and opened again."""
    contexts: list[BrowserContext] = []

    def launched() -> Page:
        context = browser.browser_type.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS, **PHONE
        )
        contexts.append(context)
        return context.pages[0] if context.pages else context.new_page()

    yield launched
    for context in contexts:
        context.close()


@pytest.mark.parametrize("evening", range(EVENINGS))
def test_an_evening_of_every_fault_stores_what_the_keepers_meant_and_nothing_else(
    live_server: str,
    new_page: Callable[..., Page],
    stored_match: Callable[[dict[str, object]], dict[str, str]],
    persistent_phone: Callable[[], Page],
    evening: int,
) -> None:
    chance = random.Random(20261208 + evening)  # seeded: a failure plays again the same way
    links = {**stored_match({"name": f"Evening {evening + 1}", "sides": PAIRS})}
    links["live_server"] = live_server
    phones = [Phone(persistent_phone, links["edit_url"]), Phone(new_page, links["edit_url"])]
    table = Table(chance, links, phones, persistent_phone)

    number, steps = 1, 0
    while number <= ROUNDS and steps < MOST_STEPS:
        number = chance.choice(FAULTS)(table, number)
        steps += 1
    table.everyone_synced()

    match = api_match(live_server, links["id"])
    assert stored_rounds(live_server, links["id"]) == table.meant.rounds  # none lost or unmeant
    rounds: list[dict[str, int]] = match["rounds"]  # type: ignore[assignment]
    assert {stored["round"]: stored["version"] for stored in rounds} == table.meant.versions
    for phone in phones:
        phone.page.reload()
        assert totals_shown(phone.page) == match["totals"]
