"""Sizes of the long-running tests: short inside `make test`, long inside `make soak` (SOAK=1)."""

from __future__ import annotations

import os

SOAK = os.environ.get("SOAK") == "1"


def scaled(quick: int, soak: int) -> int:
    """Return the size of a run: `quick` inside `make test`, `soak` inside `make soak`."""
    return soak if SOAK else quick
