"""Fill the English catalog's missing translations with the strings themselves.

English is the source language: its catalog translates each message to itself, so that the rule
"every catalog translates every message" holds for it too, and a contributor who adds a string
only runs `make translations-update`. A translation already there is kept: it may fix wording
without changing the string that the other catalogs translate.
"""

import sys
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.pofile import read_po, write_po


def translated(message: Message) -> bool:
    strings = message.string if message.pluralizable else (message.string,)
    return all(strings) and not message.fuzzy


path = Path(sys.argv[1])
with path.open("rb") as po:
    catalog = read_po(po)
for message in catalog:
    if message.id and not translated(message):
        message.string = tuple(message.id) if message.pluralizable else message.id
        message.flags.discard("fuzzy")
with path.open("wb") as po:
    write_po(po, catalog, ignore_obsolete=True)
