"""Measure what a table feels under load, as ratios of floors: the standings page, round
submissions and the view link's poll; and a club's page against a match's standings page.

Every figure comes from wrk (16 connections on loopback) against gunicorn with the app's own
configuration (2 sync workers), and is divided by a floor served the same way beside it by
bench/floor_app.py: one indexed SELECT rendered through a small template, one indexed SELECT
answered as a conditional GET, and one INSERT + COMMIT with the app's SQLite settings. A
figure's runs take turns with its floor's, so that a shared machine's slow spells slow both.
Ratios, unlike requests per second, compare across machines. Each database is a throwaway one:
SQLite files in a temporary folder, and schemas of their own on PostgreSQL with --postgres.

One figure has a goal in milliseconds rather than a floor: the p50 of round submissions (2
connections) while the other 16 connections ask for the reports of different large matches, each
to be rendered afresh, as a flood of PDF requests would. The server renders one PDF at a time and
answers the rest 503 at once, so that a round is never queued behind renders.

Run with `make bench`; `--quick` runs every step for a second, on 1,000 matches instead of
100,000, to show that the bench works.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import secrets
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

import floor_app
from seed import STAYED_IN, WENT_OUT, Seeded, seed_club, seed_matches, settle
from sqlalchemy import NullPool, create_engine, make_url

from scorekeeper import ROOT, create_app
from scorekeeper.domain.rules import MAX_PLAYERS
from scorekeeper.store.database import normalise_database_url
from scorekeeper.store.exports import side_entry_json

BENCH = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
CLIENTS, THREADS, WORKERS = 16, 2, 2
ROUNDS = 4  # the standard preset's, which seed.py stores
# Room for the longest ratio's name, "PostgreSQL 15.20: submissions to one match at once / ...".
RATIO_NAME_WIDTH = 66
FLOOR_ROWS = 1_000
# Matches whose rounds are entered side by side, as at tables that each keep their own. A
# match's next round comes this many requests later, so no two of the 16 in flight at once
# are for one match: two phones entering rounds of one match at the same moment are rare.
TABLES = 64
# Different standings pages a run cycles through, spread over the stored matches: as many with
# 100,000 matches stored as with 100, so that only the number stored differs between the two.
PAGES_SAMPLED = 100
STARTUP_DEADLINE = 60.0
UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}
# A club of a table that has played every week for ten years: its page against the standings
# page of one of its matches, each rendered afresh (issue 32).
CLUB_MATCHES, CLUB_PLAYERS = 500, 20
SETTLED = 1.1  # a warm-up run this much faster than the best before it: still warming up
WARM_UP_VISITS = 4  # times each listed request is sent, on average, before the rate may settle
NewDatabase = Callable[[str], str]  # a name -> the URL of a fresh, empty database
# Large matches, whose reports the flood of PDF requests asks for: as many sides as a match may
# have and twelve rounds, of which eight are entered; round submissions beside the flood enter
# the other four into large matches of their own.
LARGE_SIDES = tuple((f"Player {n}", (f"Player {n}",)) for n in range(1, MAX_PLAYERS + 1))
LARGE_ROUNDS, LARGE_ENTERED = 12, 8
SUBMITTERS = THREADS  # connections entering rounds beside the flood, one per wrk thread
MOST_SUBMISSIONS_PER_SECOND = 500  # by SUBMITTERS: sizes the lists, so that none is sent twice
SUBMISSION_P50_GOAL_MS = 50
FLOOD_LEAD = 1  # seconds the flood runs before and after the submissions are measured


@dataclass(frozen=True)
class Sizes:
    seconds: int  # of each measured wrk run
    turns: int  # measured runs of each figure, each right after a run of its floor
    warm_up: int  # seconds of each run of requests before the first measured run on a server
    most_warm_ups: int  # runs at most, while the rate still rises
    small: int  # matches stored for the standings page's main figures
    large: int  # matches stored for the scale figure
    reports: int  # large matches whose reports the flood of PDF requests asks for
    most_writes_per_second: int  # sizes the list of rounds to submit, so none is sent twice


FULL = Sizes(
    seconds=5,
    turns=3,
    warm_up=2,
    most_warm_ups=30,
    small=100,
    large=100_000,
    reports=1_000,
    most_writes_per_second=3_000,
)
QUICK = replace(FULL, seconds=1, turns=1, warm_up=1, most_warm_ups=0, large=1_000, reports=100)


@dataclass(frozen=True)
class Load:
    """What one wrk run measured."""

    per_second: float
    p50_ms: float
    p99_ms: float
    failures: int  # non-2xx answers, socket errors and timeouts

    @classmethod
    def mean(cls, runs: Sequence[Load]) -> Load:
        """Return the load of runs of equal length taken as one: the mean rate and latencies,
        every failure."""
        return cls(
            per_second=statistics.fmean(run.per_second for run in runs),
            p50_ms=statistics.fmean(run.p50_ms for run in runs),
            p99_ms=statistics.fmean(run.p99_ms for run in runs),
            failures=sum(run.failures for run in runs),
        )

    def line(self, name: str) -> str:
        failed = f"  {self.failures} FAILED" if self.failures else ""
        return (
            f"{name:<40}{self.per_second:>9,.0f}/s{self.p50_ms:>9.1f} ms{self.p99_ms:>9.1f} ms"
            f"{failed}"
        )


@dataclass(frozen=True)
class Paired:
    """A figure's load and its floor's, measured in turn."""

    load: Load
    floor: Load

    @property
    def ratio(self) -> float:
        return self.load.per_second / self.floor.per_second

    def line(self, name: str) -> str:
        return f"{self.load.line(name)}{self.floor.per_second:>11,.0f}/s{self.ratio:>8.2f}"


Run = Callable[[int], Load]  # the measured run of that number


@dataclass(frozen=True)
class Ratio:
    name: str
    value: float
    target: float | None  # None: a figure to know, with no target
    at_least: bool = True  # the target is a floor (>=), else a ceiling (<=)

    @property
    def met(self) -> bool:
        if self.target is None:
            return True
        return self.value >= self.target if self.at_least else self.value <= self.target

    def line(self) -> str:
        figure = f"{self.name:<{RATIO_NAME_WIDTH}}{self.value:>6.2f}"
        if self.target is None:
            return f"{figure}  (no target)"
        sign = ">=" if self.at_least else "<="
        verdict = "met" if self.met else "MISSED"
        return f"{figure}  target {sign} {self.target}  {verdict}"


# -- Load ----------------------------------------------------------------------------------------


def wrk(base_url: str, requests: Path, seconds: int, *, clients: int = CLIENTS) -> Load:
    """Run wrk with the requests listed in `requests`; return its throughput and latencies."""
    command = wrk_command(base_url, requests, seconds, clients)
    return parsed_load(subprocess.run(command, capture_output=True, text=True, check=True).stdout)


def wrk_command(base_url: str, requests: Path, seconds: int, clients: int) -> list[str]:
    return [
        "wrk",
        f"-t{THREADS}",
        f"-c{clients}",
        f"-d{seconds}s",
        "--latency",
        "-s",
        str(BENCH / "requests.lua"),
        base_url,
        "--",
        str(requests),
        str(THREADS),
    ]


def parsed_load(output: str) -> Load:
    """Return the load that wrk's output reports."""
    return Load(
        per_second=float(_found(r"Requests/sec:\s+([\d.]+)", output)),
        p50_ms=_latency_ms("50%", output),
        p99_ms=_latency_ms("99%", output),
        failures=_failures(output),
    )


def _found(pattern: str, output: str) -> str:
    found = re.search(pattern, output)
    if found is None:
        raise RuntimeError(f"wrk's output has no {pattern!r}:\n{output}")
    return found.group(1)


def _latency_ms(percentile: str, output: str) -> float:
    value = _found(rf"(?m)^\s+{percentile}\s+([\d.]+)", output)
    unit = _found(rf"(?m)^\s+{percentile}\s+[\d.]+(us|ms|s)\s*$", output)
    return float(value) * UNIT_MS[unit]


def _failures(output: str) -> int:
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    return int(non_2xx.group(1) if non_2xx else 0) + sum(
        map(int, errors.groups() if errors else ())
    )


def warm_up(base_url: str, requests: Path, sizes: Sizes) -> None:
    """Let the workers load what they need before anything is measured: send every request a
    few times over, then on until their rate stops rising."""
    best, sent = 0.0, 0.0
    enough = WARM_UP_VISITS * len(requests.read_text().splitlines())
    for _ in range(sizes.most_warm_ups):
        rate = wrk(base_url, requests, sizes.warm_up).per_second
        sent += rate * sizes.warm_up
        if sent >= enough and rate < best * SETTLED:
            return
        best = max(best, rate)


def in_turn(floor: Run, figure: Run, sizes: Sizes) -> Paired:
    """Measure a run of the floor, then one of the figure, `sizes.turns` times: a shared
    machine's slow spells then slow both alike, and move their ratio less than either."""
    floors, loads = [], []
    for turn in range(sizes.turns):
        floors.append(floor(turn))
        loads.append(figure(turn))
    return Paired(Load.mean(loads), Load.mean(floors))


def request_file(folder: Path, name: str, lines: list[str]) -> Path:
    """Write wrk's request list: METHOD, PATH, bearer token, JSON body, If-None-Match; '-' for
    none, and for every part a line leaves out at its end."""
    path = folder / f"{name}.requests"
    path.write_text("".join(_with_every_part(line) for line in lines))
    return path


def _with_every_part(line: str) -> str:
    parts = line.split("\t")
    return "\t".join(parts + ["-"] * (5 - len(parts))) + "\n"


# -- Servers -------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn(folder: Path, env: dict[str, str], app: list[str], probe: str) -> Iterator[str]:
    """Serve with the app's gunicorn configuration; yield the base URL once `probe` answers."""
    port = free_port()
    command = [str(BIN / "gunicorn"), "--config", "python:scorekeeper.serving.gunicorn_conf", *app]
    env = {**os.environ, **env, "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": str(WORKERS)}
    log = folder / "gunicorn.log"
    with log.open("ab") as output:
        server = subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=output, stderr=output, start_new_session=True
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_answering(server, base_url + probe, log)
        yield base_url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _wait_until_answering(server: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_DEADLINE
    while server.poll() is None and time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server never answered {url}; its log ends:\n{log.read_text()[-3000:]}")


def serve_floor(folder: Path, database_url: str) -> AbstractContextManager[str]:
    env = {"FLOOR_DATABASE_URL": database_url}
    app = ["--pythonpath", str(BENCH), "floor_app:create_app()"]
    return gunicorn(folder, env, app, "/floor/items/1")


def serve_app(folder: Path, database_url: str, probe: str) -> AbstractContextManager[str]:
    env = {
        "DATABASE_URL": database_url,
        "SECRET_KEY": secrets.token_hex(),
        "SCOREKEEPER_GUESS_LIMIT": "1000000000",  # every bench client is 127.0.0.1
    }
    return gunicorn(folder, env, [], probe)


# -- Databases -----------------------------------------------------------------------------------


@contextmanager
def sqlite_databases(folder: Path) -> Iterator[NewDatabase]:
    yield lambda name: f"sqlite:///{folder / name}.sqlite"


@contextmanager
def postgres_databases(server_url: str) -> Iterator[tuple[str, NewDatabase]]:
    """Yield the server's version and a maker of fresh schemas on it; drop them at the end."""
    url = make_url(normalise_database_url(server_url))
    admin = create_engine(url, poolclass=NullPool)
    schemas: list[str] = []
    with admin.connect() as connection:
        version = connection.exec_driver_sql("SHOW server_version").scalar()

    def new(name: str) -> str:
        schemas.append(f"bench_{name}_{secrets.token_hex(4)}")
        with admin.begin() as connection:
            connection.exec_driver_sql(f"CREATE SCHEMA {schemas[-1]}")
        options = {"options": f"-c search_path={schemas[-1]}"}
        return url.update_query_dict(options).render_as_string(hide_password=False)

    try:
        yield str(version).split()[0], new
    finally:
        with admin.begin() as connection:
            for schema in schemas:
                connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


def seeded(database_url: str, count: int, *, rounds: int, **template: Any) -> Seeded:
    """Return `count` matches stored as `seed_matches` stores them, with its `template` options."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database_url}
    )
    return seed_matches(app, count, rounds=rounds, **template)


# -- Measurements --------------------------------------------------------------------------------


def page_requests(folder: Path, name: str, matches: Seeded) -> Path:
    sample = random.sample(matches.public_ids, min(PAGES_SAMPLED, len(matches.public_ids)))
    return request_file(folder, name, [f"GET\t/m/{public_id}" for public_id in sample])


def round_requests(
    folder: Path,
    name: str,
    matches: Seeded,
    *,
    tables: int,
    numbers: Sequence[int] = range(1, ROUNDS + 1),
    sides: int = 2,
) -> Path:
    """List the rounds `numbers` (every round unless told) of every match, which lacks them, as
    submissions through the API, `tables` matches side by side: their first rounds, then their
    second rounds and so on, then the next `tables` matches. With one, each match's rounds come
    one after another, so the requests in flight at once enter rounds of the same few matches.
    One of the match's `sides` goes out in every round."""
    entries = [side_entry_json(WENT_OUT)] + [side_entry_json(STAYED_IN)] * (sides - 1)
    ids = matches.public_ids
    lines = [
        f"POST\t/api/v1/matches/{public_id}/rounds\t{matches.token}\t"
        + json.dumps({"round": number, "sides": entries})
        for start in range(0, len(ids), tables)
        for number in numbers
        for public_id in ids[start : start + tables]
    ]
    return request_file(folder, name, lines)


def poll_requests(folder: Path, base_url: str, matches: Seeded) -> Path:
    """List each sampled match's API read with the ETag it answers now: the poll of a phone
    whose match has not changed since."""
    sample = random.sample(matches.public_ids, min(PAGES_SAMPLED, len(matches.public_ids)))
    lines = []
    for public_id in sample:
        path = f"/api/v1/matches/{public_id}"
        with urllib.request.urlopen(base_url + path) as response:
            lines.append(f"GET\t{path}\t-\t-\t{response.headers['ETag']}")
    return request_file(folder, "polls", lines)


@dataclass(frozen=True)
class Floors:
    """The floor app, served and warm: a run of its page, of its conditional GET, and of its
    write."""

    page: Run
    poll: Run
    write: Run


@contextmanager
def floors(folder: Path, database_url: str, sizes: Sizes) -> Iterator[Floors]:
    """Serve the floor app, warmed up, while the figures are measured beside it."""
    floor_app.create_schema(database_url, FLOOR_ROWS)
    keys = random.choices(range(1, FLOOR_ROWS + 1), k=PAGES_SAMPLED)
    reads = request_file(folder, "floor-reads", [f"GET\t/floor/items/{k}" for k in keys])
    polls = request_file(
        folder, "floor-polls", [f'GET\t/floor/items/{k}/version\t-\t-\t"{k - 1}"' for k in keys]
    )
    writes = request_file(folder, "floor-writes", ["POST\t/floor/items"] * THREADS)
    with serve_floor(folder, database_url) as base_url:
        warm_up(base_url, reads, sizes)
        yield Floors(
            page=lambda _turn: wrk(base_url, reads, sizes.seconds),
            poll=lambda _turn: wrk(base_url, polls, sizes.seconds),
            write=lambda _turn: wrk(base_url, writes, sizes.seconds),
        )


def measure_pages(folder: Path, database_url: str, count: int, sizes: Sizes, floor: Run) -> Paired:
    """Return the standings page's load with `count` finished matches stored, each page
    rendered afresh, beside the floor's."""
    matches = seeded(database_url, count, rounds=ROUNDS)
    pages = page_requests(folder, f"pages-{count}", matches)
    probe = f"/m/{matches.public_ids[0]}"
    with serve_app(folder, database_url, probe) as base_url:
        warm_up(base_url, pages, sizes)
        return in_turn(floor, lambda _turn: wrk(base_url, pages, sizes.seconds), sizes)


def measure_polls(folder: Path, database_url: str, sizes: Sizes, floor: Run) -> Paired:
    """Return the load of view links polling matches that have not changed (304), beside the
    floor's conditional GET."""
    matches = seeded(database_url, sizes.small, rounds=ROUNDS)
    with serve_app(folder, database_url, f"/m/{matches.public_ids[0]}") as base_url:
        polls = poll_requests(folder, base_url, matches)
        warm_up(base_url, polls, sizes)
        return in_turn(floor, lambda _turn: wrk(base_url, polls, sizes.seconds), sizes)


def measure_rounds(
    folder: Path, database_url: str, sizes: Sizes, floor: Run, *, tables: int
) -> Paired:
    """Return the load of round submissions, each to a match that lacks that round, `tables`
    matches entered side by side (`round_requests`), beside the floor's. Each run has matches
    of its own to enter, and so has a run before them: the database then holds rounds when it
    settles, as one that has been running does, and the workers have written before."""
    enough = sizes.seconds * sizes.most_writes_per_second // ROUNDS
    matches = seeded(database_url, (sizes.turns + 1) * enough, rounds=0)
    *runs, before = [
        round_requests(folder, f"rounds-{tables}-{turn}", part, tables=tables)
        for turn, part in enumerate(matches.parts(enough))
    ]
    pages = page_requests(folder, "pages-empty", matches)
    with serve_app(folder, database_url, f"/m/{matches.public_ids[0]}") as base_url:
        warm_up(base_url, pages, sizes)
        wrk(base_url, before, sizes.seconds)
        settled(database_url)
        return in_turn(floor, lambda turn: wrk(base_url, runs[turn], sizes.seconds), sizes)


@dataclass(frozen=True)
class Beside:
    """Round submissions' load, measured while a flood of requests for reports ran, and the
    flood's own load."""

    submissions: Load
    reports: Load

    @classmethod
    def mean(cls, runs: Sequence[Beside]) -> Beside:
        return cls(
            Load.mean([run.submissions for run in runs]), Load.mean([run.reports for run in runs])
        )

    def lines(self) -> str:
        reports = self.reports
        return (
            f"{self.submissions.line('round submissions beside the reports')}\n"
            f"{reports.line('reports of different large matches')}"
            "  (failures: 503 while another renders)"
        )


def beside(base_url: str, flood: Path, measured: Path, seconds: int) -> Beside:
    """Run wrk with `measured` on SUBMITTERS connections while another wrk sends `flood` on
    CLIENTS connections, from FLOOD_LEAD seconds before until as long after."""
    command = wrk_command(base_url, flood, seconds + 2 * FLOOD_LEAD, CLIENTS)
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as flooding:
        time.sleep(FLOOD_LEAD)
        submissions = wrk(base_url, measured, seconds, clients=SUBMITTERS)
        output, _ = flooding.communicate()
    if flooding.returncode:
        raise RuntimeError(f"wrk failed:\n{output}")
    return Beside(submissions, parsed_load(output))


def measure_beside_reports(folder: Path, database_url: str, sizes: Sizes) -> Beside:
    """Return the load of round submissions while CLIENTS connections ask for the reports of
    `sizes.reports` different large matches, and the reports' load. Each run enters the last
    rounds of large matches of its own, and so does a run before them, which warms up the
    workers' renders as well as their writes."""
    per_run = sizes.seconds * MOST_SUBMISSIONS_PER_SECOND // (LARGE_ROUNDS - LARGE_ENTERED)
    matches = seeded(
        database_url,
        sizes.reports + (sizes.turns + 1) * per_run,
        rounds=LARGE_ENTERED,
        sides=LARGE_SIDES,
        settings={"rounds": LARGE_ROUNDS},
    )
    printed = matches.public_ids[: sizes.reports]
    entered = Seeded(matches.public_ids[sizes.reports :], matches.token).parts(per_run)
    reports = request_file(folder, "reports", [f"GET\t/m/{id}/report.pdf" for id in printed])
    *runs, before = [
        round_requests(
            folder,
            f"rounds-beside-reports-{turn}",
            part,
            tables=TABLES,
            numbers=range(LARGE_ENTERED + 1, LARGE_ROUNDS + 1),
            sides=len(LARGE_SIDES),
        )
        for turn, part in enumerate(entered)
    ]
    pages = page_requests(folder, "pages-large", matches)
    with serve_app(folder, database_url, f"/m/{printed[0]}") as base_url:
        warm_up(base_url, pages, sizes)
        beside(base_url, reports, before, sizes.seconds)
        return Beside.mean([beside(base_url, reports, run, sizes.seconds) for run in runs])


def measure_club(folder: Path, database_url: str, sizes: Sizes) -> Paired:
    """Return the load of a club's page, with `CLUB_MATCHES` finished matches and
    `CLUB_PLAYERS` players, beside that of its matches' standings pages, in turn on one
    server: the club's page is measured against a match's page, not a floor."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": database_url}
    )
    club = seed_club(app, CLUB_MATCHES, players=CLUB_PLAYERS, rounds=ROUNDS)
    pages = page_requests(folder, "club-matches", club.matches)
    # The one club's page, listed once per thread: each thread cycles through lines of its own.
    club_pages = request_file(folder, "club", [f"GET\t/c/{club.public_id}"] * THREADS)
    with serve_app(folder, database_url, f"/c/{club.public_id}") as base_url:
        warm_up(base_url, club_pages, sizes)
        warm_up(base_url, pages, sizes)
        return in_turn(
            lambda _turn: wrk(base_url, pages, sizes.seconds),
            lambda _turn: wrk(base_url, club_pages, sizes.seconds),
            sizes,
        )


def settled(database_url: str) -> None:
    """Bring the database to where a long-running one stands (`seed.settle`)."""
    engine = create_engine(database_url, poolclass=NullPool)
    settle(engine)
    engine.dispose()


@dataclass(frozen=True)
class Figures:
    """Every figure measured on one kind of database, each beside its floor."""

    page: Paired
    large: Paired
    poll: Paired
    rounds: Paired
    crowded: Paired
    beside_reports: Beside
    club: Paired  # against the standings page of one of its matches, not a floor

    def named(self, sizes: Sizes) -> dict[str, Paired]:
        return {
            f"standings page, {sizes.small:,} matches stored": self.page,
            f"standings page, {sizes.large:,} matches stored": self.large,
            "view link's poll, nothing changed (304)": self.poll,
            "round submissions through the API": self.rounds,
            "the same, several at once to one match": self.crowded,
            f"club page, {CLUB_MATCHES} matches (floor: a match)": self.club,
        }


def measure(title: str, folder: Path, new_database: NewDatabase, sizes: Sizes) -> list[Ratio]:
    """Measure every figure on one kind of database; print the loads, return the ratios."""
    figures = measure_figures(folder, new_database, sizes)
    print(
        f"\n{title}, {CLIENTS} connections; {sizes.turns} x {sizes.seconds} s a figure, "
        "each run after one of its floor"
    )
    print(f"{'':<40}{'req/s':>11}{'p50':>12}{'p99':>12}{'floor':>13}{'ratio':>8}")
    for name, figure in figures.named(sizes).items():
        print(figure.line(name))
    print(figures.beside_reports.lines())
    return ratios(title, figures, sizes)


def measure_figures(folder: Path, new_database: NewDatabase, sizes: Sizes) -> Figures:
    with floors(folder, new_database("floor"), sizes) as floor:
        return Figures(
            page=measure_pages(folder, new_database("small"), sizes.small, sizes, floor.page),
            large=measure_pages(folder, new_database("large"), sizes.large, sizes, floor.page),
            poll=measure_polls(folder, new_database("polls"), sizes, floor.poll),
            rounds=measure_rounds(
                folder, new_database("rounds"), sizes, floor.write, tables=TABLES
            ),
            crowded=measure_rounds(folder, new_database("crowded"), sizes, floor.write, tables=1),
            beside_reports=measure_beside_reports(folder, new_database("reports"), sizes),
            club=measure_club(folder, new_database("club"), sizes),
        )


def ratios(title: str, figures: Figures, sizes: Sizes) -> list[Ratio]:
    return [
        Ratio(f"{title}: standings page / floor page", figures.page.ratio, target=0.3),
        Ratio(f"{title}: view link's 304 poll / floor conditional GET", figures.poll.ratio, 0.6),
        Ratio(f"{title}: round submissions / floor write", figures.rounds.ratio, target=0.3),
        Ratio(
            f"{title}: submissions to one match at once / floor write",
            figures.crowded.ratio,
            target=None,
        ),
        Ratio(
            f"{title}: page time, {sizes.large:,} vs {sizes.small:,} stored",
            figures.page.ratio / figures.large.ratio,
            target=1.2,
            at_least=False,
        ),
        Ratio(
            f"{title}: submissions' p50 ms beside {CLIENTS} asking for reports",
            figures.beside_reports.submissions.p50_ms,
            target=SUBMISSION_P50_GOAL_MS,
            at_least=False,
        ),
        Ratio(
            f"{title}: club page time, {CLUB_MATCHES} matches / a match's page",
            1 / figures.club.ratio,
            target=2.0,
            at_least=False,
        ),
    ]


# -- Report --------------------------------------------------------------------------------------


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every step for a second")
    parser.add_argument("--postgres", metavar="URL", help="also measure on this PostgreSQL server")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is missing: make bench installs it (Debian package wrk)")
    sizes = QUICK if args.quick else FULL
    print(f"{date.today()}, {machine()}")
    print(
        f"gunicorn, {WORKERS} sync workers; SQLite {sqlite3.sqlite_version}; wrk, {THREADS} threads"
    )
    ratios: list[Ratio] = []
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as name:
        folder = Path(name)
        with sqlite_databases(folder) as new_database:
            ratios += measure("SQLite", folder, new_database, sizes)
        if args.postgres:
            with postgres_databases(args.postgres) as (version, new_database):
                ratios += measure(f"PostgreSQL {version}", folder, new_database, sizes)
    print()
    for ratio in ratios:
        print(ratio.line())
    print("\nall targets met" if all(r.met for r in ratios) else "\nsome targets missed")


if __name__ == "__main__":
    main()
