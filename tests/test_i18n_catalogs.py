"""Every catalog translates every message the source holds, with the same placeholders.

The messages are extracted here from the source tree as `make translations-extract` does, with
the same scorekeeper/babel.cfg, so a new string anywhere fails this test until every catalog
translates it (`make translations-update`, then translate what comes back empty or fuzzy).
English is the source language: its catalog translates each message to itself.
"""

from __future__ import annotations

import functools
import gettext
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from scorekeeper.domain.rules import CardKind
from scorekeeper.i18n import LANGUAGES, TRANSLATIONS

ROOT = Path(__file__).resolve().parents[1]
MAPPING = ROOT / "scorekeeper" / "babel.cfg"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
COUNT = "num"  # the count ngettext fills in, which a form for exactly one may leave out
MessageId = str | tuple[str, ...]


def extract() -> list[tuple[str, MessageId]]:
    """Return every message the source marks, with the file it is in."""
    with MAPPING.open() as mapping:
        method_map, options_map = parse_mapping_cfg(mapping)
    found = extract_from_dir(
        ROOT,
        method_map,
        options_map,
        directory_filter=lambda path: not Path(path).name.startswith("."),
    )
    return [(file, message) for file, _line, message, _comments, _context in found]


def _singular(message: MessageId) -> str:
    return message if isinstance(message, str) else message[0]


EXTRACTED = extract()
SOURCE = {_singular(message): message for _file, message in EXTRACTED}


def catalog(language: str) -> Catalog:
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        return read_po(po)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


@functools.cache
def only_for_one(plural_expr: str, form: int) -> bool:
    """Return whether a language's plural form is used for the count 1 alone."""
    plural = gettext.c2py(plural_expr)
    return [count for count in range(1000) if plural(count) == form] == [1]


def faults(catalog: Catalog, source_id: MessageId) -> Iterator[str]:
    """Yield what is wrong with a catalog's translation of one message."""
    message: Message | None = catalog.get(_singular(source_id))
    if message is None or message.id != source_id:
        yield "missing (run make translations-update)"
        return
    if message.fuzzy:
        yield "fuzzy: check the translation, then remove the fuzzy flag"
    strings = message.string if message.pluralizable else (message.string,)
    ids = source_id if isinstance(source_id, tuple) else (source_id,)
    expected = set().union(*(placeholders(text) for text in ids))
    for form, string in enumerate(strings):
        if not string:
            yield f"form {form} untranslated" if message.pluralizable else "untranslated"
            continue
        optional = {COUNT} if only_for_one(catalog.plural_expr, form) else set()
        if expected - optional - placeholders(string) or placeholders(string) - expected:
            yield f"placeholders {sorted(placeholders(string))}, expected {sorted(expected)}"


def test_the_extraction_finds_the_words_the_domain_marks_with_t_() -> None:
    # T_ is no Babel default keyword: only babel.cfg's keywords make the extraction find it.
    assert str(CardKind.JOKERS.label) in SOURCE


def test_the_extraction_reads_every_template_that_translates() -> None:
    # Babel skips directories starting with an underscore, such as _partials, unless told.
    templates = (ROOT / "templates").rglob("*.html")
    translating = {str(path.relative_to(ROOT)) for path in templates if "_(" in path.read_text()}
    assert translating - {file for file, _message in EXTRACTED} == set()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_message_is_translated_with_its_placeholders(language: str) -> None:
    translations = catalog(language)
    problems = [
        f"{_singular(source_id)!r}: {fault}"
        for source_id in SOURCE.values()
        for fault in faults(translations, source_id)
    ]
    assert not problems, f"{language} catalog:\n" + "\n".join(problems)


def test_every_language_offered_has_its_catalog_compiled_from_its_latest_text() -> None:
    stale = [
        language
        for language in LANGUAGES
        if not (mo := TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo").exists()
        or mo.stat().st_mtime < mo.with_suffix(".po").stat().st_mtime
    ]
    assert not stale, f"run make translations-compile: {stale} not compiled"


def test_the_five_languages_of_the_table_are_offered_in_their_own_names() -> None:
    assert list(LANGUAGES.items()) == [
        ("en", "English"),
        ("nl", "Nederlands"),
        ("be", "Беларуская"),
        ("ja", "日本語"),
        ("ko", "한국어"),
    ]
