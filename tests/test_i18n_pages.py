"""Every page, PDF and API answer in every language: no error, and no English where the language
has a translation of it; the game's own words, numbers and dates as the language writes them."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import TYPE_CHECKING

import pytest
from babel.dates import format_date
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from werkzeug.test import TestResponse
from worked_example import STAYED_IN, WENT_OUT

from scorekeeper import store
from scorekeeper.domain.entries import RoundEntry
from scorekeeper.i18n import LANGUAGES, TRANSLATIONS

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateClub, CreateMatch, StoredClub, StoredMatch

TRANSLATED = sorted(set(LANGUAGES) - {"en"})
# The game's own terms as each language's rules sources use them (notes/GLOSSARY.md), on pages.
OWN_WORDS = {
    "/matches/new": {
        "ja": ["クリーンのブックのボーナス", "ダーティのブックのボーナス", "印刷物の言語"],
        "ko": ["깨끗한 책 보너스", "더러운 책 보너스", "인쇄물 언어"],
        "nl": ["Bonus schone stapel", "Bonus vuile stapel", "Taal van het drukwerk"],
        "be": ["Бонус за чыстую кнігу", "Бонус за брудную кнігу", "Мова друку"],
    },
    "/rules": {
        "ja": ["最初のメルドの最低点", "捨て札の山", "赤の3と黒の3"],
        "ko": ["처음 내려놓기 최소 점수", "버린 더미", "빨간 3과 검은 3"],
        "nl": ["Minimale meldvereiste", "De aflegstapel", "Rode en zwarte drieën"],
        "be": ["Мінімум першага аб'яднання", "Куча скідвання", "Чырвоныя і чорныя тройкі"],
    },
}
# Words of the rules card's PDF, as its text comes out of the file.
CARD_WORDS = {
    "ja": ["クリーンのブック", "ダーティのブック", "ワイルドカード", "上がり"],
    "ko": ["깨끗한 책", "더러운 책", "와일드", "나가기"],
    "nl": ["Schone stapel", "Vuile stapel", "Uitgaan"],
    "be": ["Чыстая кніга", "Брудная кніга", "Выхад"],
    "en": ["Clean book", "Dirty book", "Going out"],
}
ROUND_FORM_WORDS = {
    "ja": ["クリーンのブック", "ダーティのブック", "誰が上がりましたか?"],
    "ko": ["깨끗한 책", "더러운 책", "누가 나갔나요?"],
    "nl": ["Schone stapels", "Vuile stapels", "Wie ging uit?"],
    "be": ["Чыстыя кнігі", "Брудныя кнігі", "Хто выйшаў?"],
    "en": ["Clean books", "Dirty books", "Who went out?"],
}
# The wild book's 1500 points, grouped as each language groups digits.
WILD_BOOK_POINTS = {"en": "1,500", "ja": "1,500", "ko": "1,500", "nl": "1.500", "be": "1\xa0500"}
SHOWN_ATTRIBUTES = {"aria-label", "placeholder", "title", "alt", "data-copied"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


class VisibleText(HTMLParser):
    """The text a person reads on a page: its text and the attributes read out or shown."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skipping += tag in ("script", "style")
        self.parts += [value for name, value in attrs if name in SHOWN_ATTRIBUTES and value]

    def handle_endtag(self, tag: str) -> None:
        self._skipping -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def one_space(text: str) -> str:
    """Return text with each run of white space, no-break spaces too, made one plain space."""
    return re.sub(r"\s+", " ", text)


def visible_text(response: TestResponse) -> str:
    parser = VisibleText()
    parser.feed(response.get_data(as_text=True))
    return one_space(" ".join(parser.parts))


def pdf_text(response: TestResponse) -> str:
    pages = PdfReader(io.BytesIO(response.data)).pages
    return one_space(" ".join(page.extract_text() for page in pages))


class EnglishMessage:
    """An English message that a language translates otherwise, found by the words it shows."""

    def __init__(self, english: str) -> None:
        self.english = english
        chunks = PLACEHOLDER.split(english)
        self.longest_chunk = max(chunks, key=len)  # a cheap test before the pattern's
        self.pattern = re.compile(".+?".join(re.escape(chunk) for chunk in chunks))

    def is_in(self, text: str) -> bool:
        return self.longest_chunk in text and self.pattern.search(text) is not None


def english_messages(language: str) -> list[EnglishMessage]:
    """Return the English messages the language translates otherwise; messages of fewer than
    two words are left out, as they may well be names or numbers."""
    with (TRANSLATIONS / language / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalog = read_po(po)
    messages = []
    for message in catalog:
        english = message.id if isinstance(message.id, str) else message.id[0]
        translation = message.string if isinstance(message.string, str) else message.string[0]
        words = re.findall(r"[A-Za-z]+", PLACEHOLDER.sub(" ", english))
        if english != translation and len(words) > 1:
            messages.append(EnglishMessage(english))
    return messages


@pytest.fixture
def played(app: Flask, create_match: CreateMatch) -> StoredMatch:
    """Return a stored match with its first round entered."""
    stored = create_match()
    entry = RoundEntry(1, (WENT_OUT, STAYED_IN))
    with app.app_context():
        match = store.get_match(stored.public_id)
        assert match is not None
        store.add_round(match, entry)
    return stored


@pytest.fixture
def club(create_club: CreateClub) -> StoredClub:
    """Return a stored club with a finished match, so that its records and charts show."""
    return create_club()


CLUB_PATHS = ("/c/", "/api/v1/clubs")


def get_urls(
    app: Flask, played: StoredMatch, club: StoredClub, *, pdfs: bool = True
) -> Iterator[str]:
    """Yield a URL of every GET route, filled in with the played match and its first round, or
    the club and its first player."""
    of_match = {"public_id": played.public_id, "token": played.edit_token, "number": "1"}
    of_club = {"public_id": club.public_id, "token": club.edit_token, "number": "1"}
    urls = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        wanted = pdfs or not rule.rule.endswith(".pdf")
        values = {
            "preset_key": "standard",
            **(of_club if rule.rule.startswith(CLUB_PATHS) else of_match),
        }
        if "GET" in (rule.methods or ()) and rule.endpoint != "static" and wanted:
            yield urls.build(rule.endpoint, {name: values[name] for name in rule.arguments})


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_page_pdf_and_api_answer_comes_in_every_language(
    app: Flask, client: FlaskClient, played: StoredMatch, club: StoredClub, language: str
) -> None:
    failures = []
    for url in get_urls(app, played, club):
        response = client.get(url, headers={"Accept-Language": language})
        if response.status_code != 200:
            failures.append(f"{url}: {response.status_code}")
        elif response.mimetype == "text/html" and f'<html lang="{language}"' not in response.text:
            failures.append(f"{url}: not in {language}")
    assert not failures


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_page_shows_english_that_its_language_translates(
    app: Flask, client: FlaskClient, played: StoredMatch, club: StoredClub, language: str
) -> None:
    messages = english_messages(language)
    leaks = []
    for url in get_urls(app, played, club, pdfs=False):
        response = client.get(url, headers={"Accept-Language": language})
        if response.mimetype == "text/html":
            text = visible_text(response)
            leaks += [f"{url}: {message.english!r}" for message in messages if message.is_in(text)]
    assert not leaks


@pytest.mark.parametrize("url", OWN_WORDS)
@pytest.mark.parametrize("language", TRANSLATED)
def test_pages_use_the_games_own_words_of_the_language(
    client: FlaskClient, url: str, language: str
) -> None:
    text = visible_text(client.get(url, headers={"Accept-Language": language}))
    assert [word for word in OWN_WORDS[url][language] if word not in text] == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_round_form_names_the_books_as_the_language_does(
    client: FlaskClient, played: StoredMatch, language: str
) -> None:
    url = f"/m/{played.public_id}/edit/{played.edit_token}/rounds/new"
    text = visible_text(client.get(url, headers={"Accept-Language": language}))
    assert [word for word in ROUND_FORM_WORDS[language] if word not in text] == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_rules_card_prints_the_languages_words_as_text(
    client: FlaskClient, language: str
) -> None:
    response = client.get("/rules/standard/card.pdf", headers={"Accept-Language": language})
    text = pdf_text(response).casefold()  # headings print in capitals
    assert [word for word in CARD_WORDS[language] if word.casefold() not in text] == []


@pytest.mark.parametrize("language", ["ja", "ko"])
def test_japanese_and_korean_pdfs_embed_only_the_noto_cjk_faces_they_use(
    client: FlaskClient, language: str
) -> None:
    response = client.get("/rules/standard/card.pdf", headers={"Accept-Language": language})
    fonts = {
        font["/BaseFont"].split("+", 1)[1]
        for page in PdfReader(io.BytesIO(response.data)).pages
        for font in (f.get_object() for f in page["/Resources"]["/Font"].values())
    }
    script = "JP" if language == "ja" else "KR"
    assert fonts == {f"Noto-Sans-CJK-{script}", f"Noto-Sans-CJK-{script}-Bold"}


@pytest.mark.parametrize(("language", "number"), WILD_BOOK_POINTS.items())
def test_numbers_are_written_as_the_language_writes_them(
    client: FlaskClient, language: str, number: str
) -> None:
    text = visible_text(client.get("/rules", headers={"Accept-Language": language}))
    assert one_space(number) in text


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_numbers_in_a_refusal_are_written_as_the_language_writes_them(
    client: FlaskClient, language: str
) -> None:
    # 1,800 points of cards, where three decks (two players) hold 1,770.
    sides = [{"name": "A", "melded_points": 1800}, {"name": "B"}]
    response = client.post(
        "/api/v1/score",
        json={"round": 1, "sides": sides},
        headers={"Accept-Language": language},
    )

    assert response.status_code == 422
    message = one_space(response.get_json()["errors"][0]["message"])
    for hundreds in ("800", "770"):  # 1,800 and 1,770, grouped as 1,500 is
        assert one_space(WILD_BOOK_POINTS[language].replace("500", hundreds)) in message


@pytest.mark.parametrize(
    ("language", "rounds", "says"),
    [
        ("en", 1, "the match has 1 round, so give 1 minimum, not 2."),
        ("en", 4, "the match has 4 rounds, so give 4 minimums, not 2."),
        ("nl", 1, "het spel heeft 1 ronde, dus geef 1 minimum, niet 2."),
        ("nl", 4, "het spel heeft 4 rondes, dus geef 4 minima, niet 2."),
        ("be", 1, "у матчы 1 раўнд, таму дайце 1 мінімум, а не 2."),
        ("be", 4, "у матчы 4 раўнды, таму дайце 4 мінімумы, а не 2."),
        ("be", 5, "у матчы 5 раўндаў, таму дайце 5 мінімумаў, а не 2."),
    ],
)
def test_a_refusal_words_its_nouns_by_their_number_in_each_language(
    client: FlaskClient, language: str, rounds: int, says: str
) -> None:
    overrides = {"rounds": rounds, "meld_minimums": [50, 90]}
    response = client.post(
        "/api/v1/score",
        json={"rules": {"overrides": overrides}, "round": 1, "sides": [{"name": "A"}]},
        headers={"Accept-Language": language},
    )

    assert response.status_code == 422
    assert says in response.get_json()["errors"][0]["message"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_number_too_long_to_group_is_refused_with_its_digits(
    client: FlaskClient, language: str
) -> None:
    held = 10**40  # a thumb on the 0 key: more digits than Babel's decimals hold
    sides = [{"name": "A", "red_threes_held": held}, {"name": "B"}]
    response = client.post(
        "/api/v1/score",
        json={"round": 1, "sides": sides},
        headers={"Accept-Language": language},
    )

    assert response.status_code == 422
    assert str(held) in response.get_json()["errors"][0]["message"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_match_sheet_prints_its_day_as_the_language_writes_dates(
    app: Flask, client: FlaskClient, played: StoredMatch, language: str
) -> None:
    with app.app_context():
        match = store.get_match(played.public_id)
        assert match is not None
        day = format_date(match.created_at, "long", locale=language)
    response = client.get(f"/m/{played.public_id}/sheet.pdf", headers={"Accept-Language": language})
    assert one_space(day) in pdf_text(response)


@pytest.mark.parametrize(
    ("language", "label"), [("ja", "8〜K"), ("ko", "8 – K"), ("nl", "Achten tot heren")]
)
def test_the_card_counts_keep_their_capitals(
    client: FlaskClient, played: StoredMatch, language: str, label: str
) -> None:
    url = f"/m/{played.public_id}/edit/{played.edit_token}/rounds/new"
    page = client.get(url, headers={"Accept-Language": language}).get_data(as_text=True)
    assert f'for="sides-0-melded-eights_to_kings">{label}</label>' in page
