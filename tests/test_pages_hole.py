"""A match with a hole in its rounds: rounds 1 and 3 stored, round 2 not, as a paper sheet typed
in late or an import leaves it. Its pages, its report and the API number and count its rounds
as stored, and play on from round 2."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse
from worked_example import STAYED_IN_JSON as STAYED_IN
from worked_example import WENT_OUT_JSON as WENT_OUT

from scorekeeper.printing.pdf import DRAWING_URL_PREFIX, StaticOnlyFetcher

# By score, a side's meld minimum follows its total: after round 1 alone, Us with 2,565 open at
# 90 and Them with 825 at 50; counting round 3 as well (5,130 and 1,650) would make it 120 and 90.
BY_SCORE_MATCH = {
    "name": "Friday",
    "rules": {"preset": "standard", "overrides": {"meld_minimum_mode": "by_score"}},
    "sides": [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}],
}
WORKED_ROUND = [WENT_OUT, STAYED_IN]  # Us 2,565, Them 825
SCORELESS_ROUND: list[dict[str, Any]] = [{}, {}]  # nobody melds, nobody goes out
HOLE = {1: WORKED_ROUND, 3: WORKED_ROUND}
# The same match without a hole: its round 2 scored nothing, so every total, and thus the
# chart's axes, is the same as in the match with the hole.
NO_HOLE = {1: WORKED_ROUND, 2: SCORELESS_ROUND, 3: WORKED_ROUND}
Rounds = Mapping[int, Sequence[dict[str, Any]]]
StoreMatch = Callable[[Rounds], dict[str, str]]


@pytest.fixture
def store_match(client: FlaskClient) -> StoreMatch:
    """Return a function that creates a by-score match through the API and enters the given
    rounds, by number, in that order; it returns the match's id and edit token."""

    def store(rounds: Rounds) -> dict[str, str]:
        created = answer(client.post("/api/v1/matches", json=BY_SCORE_MATCH))
        headers = {"Authorization": f"Bearer {created['edit_token']}"}
        for number, sides in rounds.items():
            body = {"round": number, "sides": list(sides)}
            url = f"/api/v1/matches/{created['id']}/rounds"
            entered = client.post(url, json=body, headers=headers)
            assert entered.status_code == 201, answer(entered)
        return {"id": created["id"], "edit_token": created["edit_token"]}

    return store


def answer(response: TestResponse) -> dict[str, Any]:
    body = response.json
    assert isinstance(body, dict)
    return body


def edit_page(client: FlaskClient, match: Mapping[str, str]) -> str:
    response = client.get(f"/m/{match['id']}/edit/{match['edit_token']}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def polylines(svg: str) -> list[str]:
    """Return the `points` of each side's line in a chart, without the legend's samples."""
    return re.findall(r'<g class="series series-\d+">\s*<polyline points="([^"]*)"', svg)


def without_point(polyline: str, index: int) -> str:
    points = polyline.split(" ")
    return " ".join(points[:index] + points[index + 1 :])


def test_the_edit_page_plays_on_from_the_missing_round_and_draws_each_round_at_its_number(
    client: FlaskClient, store_match: StoreMatch
) -> None:
    page = edit_page(client, store_match(HOLE))
    full = edit_page(client, store_match(NO_HOLE))

    assert "Enter round 2</a>" in page
    assert "Cy deals round 2." in page  # Ann deals round 1, then Cy, Bob and Di
    rows = r'<tr id="round-(\d+)">\s*<th scope="row">\s*<span class="round-number">(\d+)</span>'
    assert re.findall(rows, page) == [("1", "1"), ("3", "3")]
    assert re.findall(r"/rounds/(\d+)\">Edit", page) == ["1", "3"]
    running = re.findall(r'<span class="running">Total ([\d,]+)</span>', page)
    assert running == ["2,565", "825", "5,130", "1,650"]
    footer = page[page.index('<tr class="next-minimums">') :].split("</tr>")[0]
    assert re.findall(r"<td>\s*([\d,]+)</td>", footer) == ["90", "50"]
    # Points: 0 before round 1, then round 1, 2, 3; the hole's line skips round 2's.
    assert polylines(page) == [without_point(line, 2) for line in polylines(full)]


def test_the_api_plays_on_from_the_missing_round(
    client: FlaskClient, store_match: StoreMatch
) -> None:
    match = answer(client.get(f"/api/v1/matches/{store_match(HOLE)['id']}"))

    assert [played["round"] for played in match["rounds"]] == [1, 3]
    assert [played["running_totals"] for played in match["rounds"]] == [[2565, 825], [5130, 1650]]
    round_3_minimums = [side["meld_minimum"] for side in match["rounds"][1]["sides"]]
    assert round_3_minimums == [90, 50]  # after round 1 alone, as for round 2
    assert (match["next_round"], match["next_dealer"]) == (2, "Cy")
    assert match["next_meld_minimums"] == [90, 50]
    assert not match["finished"]


def test_the_reports_chart_draws_each_round_at_its_number(
    client: FlaskClient, store_match: StoreMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawings: list[str] = []
    fetch = StaticOnlyFetcher.fetch

    def spy(self: StaticOnlyFetcher, url: str, headers: object = None) -> object:
        if url.startswith(DRAWING_URL_PREFIX):
            drawings.append(base64.b64decode(url.removeprefix(DRAWING_URL_PREFIX)).decode())
        return fetch(self, url)

    monkeypatch.setattr(StaticOnlyFetcher, "fetch", spy)
    lines = []
    for rounds in (HOLE, NO_HOLE):
        drawings.clear()
        assert client.get(f"/m/{store_match(rounds)['id']}/report.pdf").status_code == 200
        (chart,) = [drawing for drawing in drawings if polylines(drawing)]
        lines.append(polylines(chart))

    hole, full = lines
    assert hole == [without_point(line, 2) for line in full]
