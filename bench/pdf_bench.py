"""Time every PDF's warm render as a multiple of a floor measured in the same run.

The floor is WeasyPrint rendering bench/floor.html, a plain one-page table of 6 columns x 30
rows: what any PDF of that size costs on this machine. Ratios, unlike milliseconds, compare
across machines. Renders are timed in CPU time of this process, so that other work on the
machine skews them less; the cache hit is timed on the clock, as a client waits for it.
Run with `make bench`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import weasyprint
from flask import Flask
from flask_migrate import upgrade
from seed import STAYED_IN, WENT_OUT
from weasyprint.text.fonts import FontConfiguration

from scorekeeper import create_app, printing, store
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.domain.rules import PRESETS, build_rules
from scorekeeper.printing import documents, pdf
from scorekeeper.printing.pdf import Paper
from scorekeeper.serving.gunicorn_conf import freeze_loaded_objects

FLOOR = Path(__file__).with_name("floor.html").read_text()
TARGETS = {"blank score sheet": 1.5, "match report": 1.5}  # the issue's targets, as ratios
SIDES = ("Us", "Them", "Grandma Rose", "Kim")

Render = Callable[[], bytes]


def bench_app(folder: Path) -> tuple[Flask, str]:
    """Return an app on a throwaway database holding one finished four-side match."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench" * 8,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}",
        }
    )
    with app.app_context():
        upgrade()
        rules = build_rules("standard", {"going_out_bonus": 200})
        specs = [store.SideSpec(name, (f"{name} 1",)) for name in SIDES]
        match = store.create_match("Friday night", "standard", rules, specs).match
        for number in range(1, rules.rounds + 1):
            store.add_round(match, RoundEntry(number, (WENT_OUT,) + (STAYED_IN,) * 3))
        return app, match.public_id


def renders(public_id: str) -> dict[str, Render]:
    """Return each PDF's uncached render, templating included, as production does it on a miss."""
    fonts = FontConfiguration()
    preset = printing.preset_rules(PRESETS["standard"])
    match = store.get_match(public_id)
    assert match is not None
    view = store.match_view(match)
    match_rules = printing.printed_match_rules(match)
    return {
        "floor (plain table)": lambda: weasyprint.HTML(string=FLOOR).write_pdf(font_config=fonts),
        "rules card": lambda: pdf.render_pdf(documents.card_html(preset, Paper.A4)),
        "pocket cards": lambda: pdf.render_pdf(documents.pocket_html(preset, Paper.A4)),
        "blank score sheet": lambda: pdf.render_pdf(
            documents.sheet_html(preset, SIDES, None, Paper.A4)
        ),
        "match report": lambda: pdf.render_pdf(documents.report_html(view, match_rules, Paper.A4)),
    }


def median_seconds(renders: dict[str, Render], rounds: int) -> dict[str, float]:
    """Return each render's median CPU time; rounds interleave the renders so drift hits all."""
    for render in renders.values():
        render()  # warm: fonts loaded, templates compiled
    times: dict[str, list[float]] = {name: [] for name in renders}
    for _ in range(rounds):
        for name, render in renders.items():
            started = time.process_time()
            render()
            times[name].append(time.process_time() - started)
    return {name: statistics.median(samples) for name, samples in times.items()}


def cache_hit_seconds(app: Flask, url: str, rounds: int) -> float:
    """Return the median time to serve a cached PDF through the whole Flask stack."""
    client = app.test_client()
    client.get(url)
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        client.get(url)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def import_seconds() -> float:
    """Return how long a fresh interpreter takes to start and import WeasyPrint."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import weasyprint"], check=True)
    return time.perf_counter() - started


def report(medians: dict[str, float], hit: float) -> bool:
    """Print the table of ratios; return whether every target is met."""
    floor = medians["floor (plain table)"]
    print(f"{'PDF':<22}{'median':>10}{'ratio':>8}  target")
    met = True
    for name, seconds in medians.items():
        ratio = seconds / floor
        target = TARGETS.get(name)
        verdict = "" if target is None else f"<= {target}x {'ok' if ratio <= target else 'OVER'}"
        met = met and (target is None or ratio <= target)
        print(f"{name:<22}{seconds * 1000:>8.1f}ms{ratio:>7.2f}x  {verdict}")
    print(f"cached sheet, served  {hit * 1000:>8.2f}ms  (target < 5 ms)")
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="timed renders of each PDF")
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as folder:
        app, public_id = bench_app(Path(folder))
        freeze_loaded_objects()  # as gunicorn's master does before it forks a worker
        print(f"import weasyprint: {import_seconds():.2f} s, paid at start-up by create_app")
        print(f"font subsetter: {pdf.font_subsetter()}; {rounds} warm renders each, median\n")
        with app.test_request_context("/"):
            medians = median_seconds(renders(public_id), rounds)
        hit = cache_hit_seconds(app, "/rules/standard/sheet.pdf?paper=a4&sides=Us", rounds * 10)
    met = report(medians, hit)
    print("\nall targets met" if met else "\nsome targets missed (ratios vary by a few % per run)")


if __name__ == "__main__":
    main()
