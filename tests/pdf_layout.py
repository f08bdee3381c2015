"""Where a PDF's words stand on its pages, as poppler's pdftotext places them, for the tests of
layouts that text alone cannot show: a rule cut off at a card's edge, a legend's name wrapped
away from its line's sample."""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass

POINTS_PER_MM = 72 / 25.4  # a PDF's unit, the point, is 1/72 inch
_PAGE = re.compile(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(
    r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>'
)


@dataclass(frozen=True)
class Word:
    """A word and its box, in points from the top left corner of its page."""

    text: str
    page: int
    left: float
    top: float
    right: float
    bottom: float
    page_height: float


def words_of(document: bytes) -> list[Word]:
    """Return every word of a PDF, page by page, in reading order."""
    command = ["pdftotext", "-bbox", "-", "-"]  # the PDF on standard input, the words out
    xhtml = subprocess.run(command, input=document, capture_output=True, check=True).stdout
    return [
        Word(
            html.unescape(text),
            page,
            float(left),
            float(top),
            float(right),
            float(bottom),
            float(height),
        )
        for page, (height, body) in enumerate(_PAGE.findall(xhtml.decode()))
        for left, top, right, bottom, text in _WORD.findall(body)
    ]
