"""`make bench` works: its quick run serves every floor and page, and prints every ratio.

Only that it runs and reports: how fast anything is depends on the machine, never a test.
"""

from __future__ import annotations

import re
import subprocess
import sys

from scorekeeper import ROOT

FIGURES = (
    "standings page / floor page",
    "round submissions / floor write",
    "page time, 1,000 vs 100 stored",
)


def test_the_quick_bench_measures_every_figure_and_prints_its_ratio_and_target() -> None:
    bench = [sys.executable, str(ROOT / "bench" / "web_bench.py"), "--quick"]
    run = subprocess.run(bench, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    for figure in FIGURES:
        assert re.search(rf"SQLite: {figure}\s+\d+\.\d\d  target [<>]= [\d.]+", run.stdout)
    assert re.search(r"SQLite: page rendered every time / floor page\s+\d+\.\d\d", run.stdout)
    assert "FAILED" not in run.stdout, run.stdout  # every request answered 2xx
