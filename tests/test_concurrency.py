"""Many phones editing one match at once, against the real server: every acknowledged edit kept.

`make test` runs 8 clients x 25 edits; `make soak` runs 50 x 200. Each client enters and edits the
match's rounds through the API, each write naming the round's version it last saw; the server may
refuse a stale one (412) or a round already entered (422), and must never fail (5xx, "database is
locked") nor lose a write it acknowledged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from gunicorn_server import (
    Answer,
    JsonClient,
    Server,
    bearer,
    gunicorn,
    integrity_problems,
    server_database_url,
    server_errors,
)
from soak import scaled

CLIENTS = scaled(8, 50)
EDITS = scaled(25, 200)
ROUNDS = 4  # the standard preset's
WENT_OUT = {"clean_books": 2, "dirty_books": 2, "melded_points": 765, "went_out": True}
ALREADY_ENTERED = "already entered"


@dataclass(frozen=True)
class Match:
    public_id: str
    token: str

    @property
    def path(self) -> str:
        return f"/api/v1/matches/{self.public_id}"


@dataclass
class Outcome:
    """What one client saw: each acknowledged write and every answer's status."""

    acknowledged: list[tuple[int, int, list[dict[str, Any]]]] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    unexpected: list[tuple[int, object]] = field(default_factory=list)


def entry(client: int, attempt: int) -> list[dict[str, Any]]:
    """Return sides that tell this write from the others (by its left-over points)."""
    leftover = 5 * ((client * EDITS + attempt) % 100)
    return [WENT_OUT, {"clean_books": 1, "melded_points": 310, "leftover_points": leftover}]


def write(client: JsonClient, match: Match, number: int, version: int | None, sides: Any) -> Answer:
    """Enter the round when this client has not seen it yet, else edit the version it saw."""
    if version is None:
        body = {"round": number, "sides": sides}
        return client.send("POST", f"{match.path}/rounds", body, bearer(match.token))
    body = {"sides": sides}
    return client.send("PUT", f"{match.path}/rounds/{number}", body, bearer(match.token, version))


def play(server: Server, match: Match, seat: int) -> Outcome:
    """Run one client's edits; learn the round's version from every refusal, as a phone would."""
    client, outcome, known = server.client(), Outcome(), dict[int, int]()
    for attempt in range(EDITS):
        number = (seat + attempt) % ROUNDS + 1
        sides = entry(seat, attempt)
        answer = write(client, match, number, known.get(number), sides)
        outcome.statuses[answer.status] += 1
        if answer.status in (200, 201):
            outcome.acknowledged.append((number, answer.body["version"], sides))
            known[number] = answer.body["version"]
        elif answer.status == 412:
            known[number] = answer.body["current"]["version"]
        elif answer.status == 422 and ALREADY_ENTERED in str(answer.body):
            known[number] = client.send("GET", f"{match.path}/rounds/{number}").etag
        else:
            outcome.unexpected.append((answer.status, answer.body))
    client.close()
    return outcome


def create(client: JsonClient) -> Match:
    body = {
        "name": "Busy table",
        "rules": {"preset": "standard"},
        "sides": [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy"]}],
    }
    answer = client.send("POST", "/api/v1/matches", body)
    assert answer.status == 201, answer.body
    return Match(answer.body["id"], answer.body["edit_token"])


def acknowledged_by_round(outcomes: list[Outcome]) -> dict[int, dict[int, list[Any]]]:
    """Return round -> version -> sides, failing if two writes were acknowledged one version."""
    by_round: dict[int, dict[int, list[Any]]] = {}
    for number, version, sides in (ack for outcome in outcomes for ack in outcome.acknowledged):
        versions = by_round.setdefault(number, {})
        assert version not in versions, f"round {number} version {version} acknowledged twice"
        versions[version] = sides
    return by_round


def assert_entry_is(stored: Mapping[str, Any], sides: list[dict[str, Any]]) -> None:
    for stored_side, sent in zip(stored["sides"], sides, strict=True):
        assert {key: stored_side["entry"][key] for key in sent} == sent


def assert_every_acknowledged_edit_is_kept(
    final: Mapping[str, Any], outcomes: list[Outcome]
) -> None:
    rounds = {stored["round"]: stored for stored in final["rounds"]}
    for number, versions in acknowledged_by_round(outcomes).items():
        stored = rounds[number]
        # Versions count the writes: each acknowledged once, the last one stored, none lost.
        assert sorted(versions) == list(range(1, stored["version"] + 1)), number
        assert_entry_is(stored, versions[stored["version"]])
    sums = [sum(stored["sides"][side]["score"] for stored in rounds.values()) for side in (0, 1)]
    assert final["totals"] == sums
    assert final["rounds"][-1]["running_totals"] == sums


@pytest.fixture
def database_url(app: Flask, app_config: dict[str, Any]) -> str:
    """Return the URL of the test's own migrated database, for the server to use."""
    return server_database_url(app_config)


def test_many_clients_editing_one_match_lose_nothing_and_meet_only_conflicts(
    app: Flask, database_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "gunicorn.log"
    with gunicorn(database_url, log, workers=2) as server:
        match = create(server.client())
        with ThreadPoolExecutor(CLIENTS) as pool:
            outcomes = list(pool.map(lambda seat: play(server, match, seat), range(CLIENTS)))
        final = server.client().send("GET", match.path).body
    statuses = sum((outcome.statuses for outcome in outcomes), Counter())
    assert [bad for outcome in outcomes for bad in outcome.unexpected] == []
    assert set(statuses) <= {200, 201, 412, 422}, statuses
    assert statuses.total() == CLIENTS * EDITS
    assert statuses[200] + statuses[201] > 0
    assert_every_acknowledged_edit_is_kept(final, outcomes)
    assert server_errors(log) == []
    assert integrity_problems(app) == []
