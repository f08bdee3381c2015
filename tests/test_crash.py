"""Killing the server mid-write loses nothing it acknowledged and never damages the database.

The whole gunicorn process group gets SIGKILL at a random moment while writers create matches,
enter rounds and edit them; after each kill the database's own checker runs, the server restarts,
and every acknowledged write must be there. A write in flight at the kill may be there or not,
but whole: its round at the new version with its new values, or as it was.
`make test` kills 3 times during about 150 writes; `make soak` 20 times during 1,000 writes each.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from gunicorn_server import (
    JsonClient,
    Server,
    bearer,
    gunicorn,
    integrity_problems,
    server_database_url,
    server_errors,
)
from soak import scaled

KILLS = scaled(3, 20)
WRITES_PER_KILL = scaled(50, 1000)
WRITERS = 4
ROUNDS = 4  # the standard preset's
WENT_OUT = {"clean_books": 2, "dirty_books": 2, "melded_points": 765, "went_out": True}
NEW_MATCH = {
    "name": "Crash table",
    "rules": {"preset": "standard"},
    "sides": [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy"]}],
}
Request = tuple[str, str, object, dict[str, str]]
Sides = list[dict[str, Any]]


@dataclass
class Writer:
    """One writer's own match and every write of it the server acknowledged."""

    seat: int
    public_id: str | None = None
    token: str = ""
    rounds: dict[int, tuple[int, Sides]] = field(default_factory=dict)  # number -> version, sides
    in_flight: tuple[int, int, Sides] | None = None  # the write sent but not yet answered
    writes: int = 0
    unexpected: list[tuple[int, object]] = field(default_factory=list)

    def next_request(self) -> Request:
        """Return the next write: create the match, enter its rounds, then edit them in turn."""
        self.writes += 1
        if self.public_id is None:
            return "POST", "/api/v1/matches", NEW_MATCH, {}
        path = f"/api/v1/matches/{self.public_id}/rounds"
        sides = [WENT_OUT, {"clean_books": 1, "melded_points": 310, "leftover_points": self._tag()}]
        number = self.writes % ROUNDS + 1
        if number not in self.rounds:
            self.in_flight = (number, 1, sides)
            return "POST", path, {"round": number, "sides": sides}, bearer(self.token)
        version = self.rounds[number][0]
        self.in_flight = (number, version + 1, sides)
        return "PUT", f"{path}/{number}", {"sides": sides}, bearer(self.token, version)

    def _tag(self) -> int:
        return 5 * ((self.seat * 7919 + self.writes) % 100)

    def acknowledge(self, status: int, body: Any) -> None:
        if self.public_id is None and status == 201:
            self.public_id, self.token = body["id"], body["edit_token"]
        elif self.in_flight is not None and status in (200, 201):
            number, version, sides = self.in_flight
            assert body["version"] == version
            self.rounds[number] = (version, sides)
        else:
            self.unexpected.append((status, body))
        self.in_flight = None

    def check_and_catch_up(self, stored: dict[str, Any] | None) -> None:
        """Check the match as stored holds every acknowledged write; adopt the one in flight."""
        if self.public_id is None:
            return  # its creation was in flight: a match may exist that no one knows of
        assert stored is not None, f"match {self.public_id} was acknowledged but is gone"
        found = {scored["round"]: (scored["version"], entry(scored)) for scored in stored["rounds"]}
        expected = dict(self.rounds)
        if self.in_flight is not None:
            number, version, sides = self.in_flight
            if found.get(number, (None,))[0] == version:  # committed, but killed before answering
                expected[number] = (version, sides)
        assert found == expected
        self.rounds, self.in_flight = expected, None


def entry(scored: dict[str, Any]) -> Sides:
    """Return the fields of a stored round's sides that the writers send."""
    sent = [WENT_OUT, {"clean_books": 0, "melded_points": 0, "leftover_points": 0}]
    return [
        {key: side["entry"][key] for key in keys}
        for side, keys in zip(scored["sides"], sent, strict=True)
    ]


def write_until_killed(
    server: Server, writer: Writer, limit: int, acked: Callable[[], None]
) -> None:
    """Write until the server dies (or `limit` writes, so the loop always ends)."""
    client = server.client()
    for _ in range(limit):
        method, path, body, headers = writer.next_request()
        try:
            answer = client.send(method, path, body, headers)
        except (OSError, http.client.HTTPException):
            return  # killed mid-request: the write stays in flight
        writer.acknowledge(answer.status, answer.body)
        acked()


def run_until_a_random_kill(server: Server, writers: list[Writer], chance: random.Random) -> int:
    """Start the writers, kill the server once a random number of writes were answered."""
    target = chance.randint(1, WRITES_PER_KILL)
    answered, reached = [0], threading.Event()
    lock = threading.Lock()

    def count() -> None:
        with lock:
            answered[0] += 1
            if answered[0] >= target:
                reached.set()

    threads = [
        threading.Thread(target=write_until_killed, args=(server, w, 4 * WRITES_PER_KILL, count))
        for w in writers
    ]
    for thread in threads:
        thread.start()
    reached.wait(timeout=300)
    time.sleep(chance.uniform(0, 0.01))  # land anywhere inside a request, not between two
    server.kill()
    for thread in threads:
        thread.join(timeout=60)
    return answered[0]


def stored_match(client: JsonClient, writer: Writer) -> dict[str, Any] | None:
    if writer.public_id is None:
        return None
    answer = client.send("GET", f"/api/v1/matches/{writer.public_id}")
    return answer.body if answer.status == 200 else None


def test_killing_the_server_mid_write_keeps_every_acknowledged_write(
    app: Flask, app_config: dict[str, Any], tmp_path: Path
) -> None:
    seed = random.randrange(2**32)
    chance, log = random.Random(seed), tmp_path / "gunicorn.log"
    url, writers = server_database_url(app_config), [Writer(seat) for seat in range(WRITERS)]
    for kill in range(KILLS):
        with gunicorn(url, log) as server:
            client = server.client()
            for writer in writers:
                writer.check_and_catch_up(stored_match(client, writer))
            run_until_a_random_kill(server, writers, chance)
        assert integrity_problems(app) == [], f"after kill {kill + 1} (seed {seed})"
    with gunicorn(url, log) as server:
        client = server.client()
        for writer in writers:
            writer.check_and_catch_up(stored_match(client, writer))
    assert [bad for writer in writers for bad in writer.unexpected] == []
    assert sum(len(writer.rounds) for writer in writers) > 0
    assert server_errors(log) == []
