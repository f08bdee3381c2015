"""The /rules pages and the preset PDFs: rules cards, pocket cards and blank score sheets."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale, gettext
from pdf_layout import POINTS_PER_MM, words_of
from pypdf import PdfReader
from werkzeug.test import TestResponse

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch

from scorekeeper.domain.rules import PRESETS
from scorekeeper.i18n import LANGUAGES
from scorekeeper.printing import requested_sides
from scorekeeper.printing.pdf import PdfRenderer, StaticOnlyFetcher

A4 = (595, 842)  # points, rounded
LETTER = (612, 792)
HOSTILE_NAMES = ("<script>alert(1)</script>", '<img src="file:///etc/passwd">')

Download = Callable[..., TestResponse]


@pytest.fixture
def download(client: FlaskClient) -> Download:
    """Return a function that fetches a PDF and checks that it is one."""

    def fetch(url: str, **query: object) -> TestResponse:
        response = client.get(url, query_string=query)
        assert response.status_code == 200, response.data[:500]
        assert response.mimetype == "application/pdf"
        return response

    return fetch


def reader(response: TestResponse) -> PdfReader:
    return PdfReader(io.BytesIO(response.data))


def text_of(response: TestResponse) -> str:
    """Return the PDF's text with runs of white space made single spaces."""
    text = " ".join(page.extract_text() for page in reader(response).pages)
    return re.sub(r"\s+", " ", text)


def page_sizes(response: TestResponse) -> set[tuple[int, int]]:
    pages = reader(response).pages
    return {(round(page.mediabox.width), round(page.mediabox.height)) for page in pages}


def file_name(response: TestResponse) -> str:
    return response.headers["Content-Disposition"].split("filename=")[1]


PRESET_PDFS = ("card", "pocket", "sheet")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("kind", PRESET_PDFS)
def test_every_preset_pdf_opens_as_one_page(download: Download, preset: str, kind: str) -> None:
    response = download(f"/rules/{preset}/{kind}.pdf", sides=["Us", "Them"])
    assert len(reader(response).pages) == 1


@pytest.mark.parametrize("preset", PRESETS)
def test_the_rules_card_prints_the_presets_numbers(download: Download, preset: str) -> None:
    rules = PRESETS[preset].rules
    text = text_of(download(f"/rules/{preset}/card.pdf"))
    assert "Round 3 120" in text
    assert f"Clean book, no wilds {rules.clean_book}" in text
    assert f"Going-out bonus +{rules.going_out_bonus}" in text
    assert f"Black three left in hand or foot \u2212{rules.card_values.black_three}" in text


def test_the_partnership_card_prints_the_deal_bonus_and_the_five_card_pickup(
    download: Download,
) -> None:
    text = text_of(download("/rules/partnership-11/card.pdf"))
    assert "Cutting exactly 22 cards +300" in text
    assert "the top 5" in text


def test_pocket_cards_repeat_the_essentials_four_times(download: Download) -> None:
    text = text_of(download("/rules/standard/pocket.pdf"))
    assert text.count("Round 4 150") == 4
    assert text.count("Clean books needed 2") == 4


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_pocket_cards_numbers_print_whole(download: Download, paper: str) -> None:
    text = text_of(download("/rules/standard/pocket.pdf", paper=paper))
    assert text.count("Wild book, only wilds 1,500") == 4


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("language", ["nl", "be", "ja"])  # the least room to spare
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_four_pocket_cards_fit_a_page_and_no_rule_runs_past_its_card(
    client: FlaskClient, preset: str, language: str, paper: str
) -> None:
    headers = {"Accept-Language": language}
    response = client.get(f"/rules/{preset}/pocket.pdf?paper={paper}", headers=headers)
    words = words_of(response.data)
    # The cards of the top row end halfway down what the page's margins leave.
    middle = words[0].page_height / 2
    assert len(reader(response).pages) == 1
    assert [w.text for w in words if w.top < middle < w.bottom] == []


def test_pocket_cards_too_long_for_a_quarter_page_print_two_to_a_page_and_whole(
    client: FlaskClient,
) -> None:
    rounds = {"rounds": 8, "meld_minimums": [50, 90, 120, 150, 180, 210, 240, 270]}
    rules = {"preset": "strict", "overrides": rounds | {"deal_bonus": 300}}
    sides = [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them", "players": ["Cy", "Di"]}]
    body = {"name": "Friday", "rules": rules, "sides": sides, "language": "nl"}
    created = client.post("/api/v1/matches", json=body)
    assert created.status_code == 201, created.get_json()
    response = client.get(f"/m/{created.get_json()['id']}/pocket.pdf?paper=letter")
    margin = 6 * POINTS_PER_MM  # the pocket pages' margin (static/print.css, @page pocket)
    words = words_of(response.data)
    assert len(reader(response).pages) == 2
    assert text_of(response).count("Ronde 8 270") == 4
    assert [w.text for w in words if w.bottom > w.page_height - margin] == []


def test_the_blank_sheet_prints_each_rounds_meld_minimum(download: Download) -> None:
    text = text_of(download("/rules/standard/sheet.pdf", sides=["Us", "Them"]))
    for round_number, minimum in enumerate(PRESETS["standard"].rules.meld_minimums, start=1):
        assert f"Round {round_number} meld minimum {minimum}" in text
    assert text.count("Running total") == 4


def test_the_blank_sheet_has_a_line_for_each_part_of_the_score(download: Download) -> None:
    text = text_of(download("/rules/partnership-11/sheet.pdf"))
    for label in ("Books clean × 500", "Melded cards", "Red threes", "Going out +100"):
        assert label in text
    for label in ("Deal bonus +300 for exactly 22", "Left over", "Round total"):
        assert label in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_six_named_sides_fit_one_page(download: Download, paper: str) -> None:
    sides = ["Grandma Rose", "Beatriz", "Ana & Luis", "Table two", "Kim", "Tomás"]
    response = download("/rules/partnership-11/sheet.pdf", sides=sides, paper=paper)
    assert len(reader(response).pages) == 1
    assert all(side in text_of(response) for side in sides)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_six_sides_fit_one_page_in_every_language(
    client: FlaskClient, language: str, paper: str
) -> None:
    # Each language's labels and hints sit on one line each: a wrapped line is taller.
    query = {"sides": ["A", "B", "C", "D", "E", "F"], "paper": paper}
    headers = {"Accept-Language": language}
    response = client.get("/rules/standard/sheet.pdf", query_string=query, headers=headers)

    assert len(reader(response).pages) == 1


def test_a_blank_sheet_without_names_has_two_columns_to_write_in(download: Download) -> None:
    assert len(reader(download("/rules/standard/sheet.pdf")).pages) == 1


@pytest.mark.parametrize(
    ("query", "sides"),
    [
        pytest.param({}, ("", ""), id="two unless asked"),
        pytest.param({"columns": "5", "sides": [""] * 6}, ("",) * 5, id="five to write in"),
        pytest.param(
            {"columns": "4", "sides": ["Ann", "", "Cy"]}, ("Ann", "", "Cy", ""), id="some"
        ),
        pytest.param({"columns": "2", "sides": ["A", "B", "C"]}, ("A", "B", "C"), id="names first"),
    ],
)
def test_a_blank_sheet_has_the_columns_asked_for_or_that_its_names_need(
    app: Flask, query: dict[str, object], sides: tuple[str, ...]
) -> None:
    with app.test_request_context("/rules/standard/sheet.pdf", query_string=query):
        assert requested_sides() == sides


def test_a_blank_sheet_of_six_columns_to_write_in_prints_on_one_page(download: Download) -> None:
    assert len(reader(download("/rules/standard/sheet.pdf", columns=6)).pages) == 1


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"sides": [f"S{n}" for n in range(7)]}, b"room for 6 sides"),
        ({"sides": ["x" * 61]}, b"at most 60 characters"),
        ({"paper": "a5"}, b"paper must be one of: a4, letter"),
        ({"columns": "7"}, b"columns must be a number from 2 to 6"),
        ({"columns": "three"}, b"columns must be a number from 2 to 6"),
        ({"columns": "6", "sides": [f"S{n}" for n in range(7)]}, b"room for 6 sides"),
    ],
)
def test_an_impossible_sheet_request_is_answered_400_with_the_reason(
    client: FlaskClient, query: dict[str, object], message: bytes
) -> None:
    response = client.get("/rules/standard/sheet.pdf", query_string=query)
    assert response.status_code == 400
    assert message in response.data


@pytest.mark.parametrize("kind", PRESET_PDFS)
@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_the_paper_parameter_sets_the_page_size(
    download: Download, kind: str, paper: str, size: tuple[int, int]
) -> None:
    assert page_sizes(download(f"/rules/strict/{kind}.pdf", paper=paper)) == {size}


@pytest.mark.parametrize(
    ("accept_language", "size"),
    [
        ("en-US,en;q=0.8", LETTER),
        ("de-DE,de;q=0.9", A4),
        ("es-MX", A4),
        ("fr-CA", LETTER),
        ("en", A4),
    ],
)
def test_the_paper_defaults_to_the_browsers_region(
    client: FlaskClient, accept_language: str, size: tuple[int, int]
) -> None:
    headers = {"Accept-Language": accept_language}
    response = client.get("/rules/standard/card.pdf", headers=headers)
    assert page_sizes(response) == {size}


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        ("card", "standard-rules-card.pdf"),
        ("pocket", "standard-pocket-rules.pdf"),
        ("sheet", "standard-score-sheet.pdf"),
    ],
)
def test_the_file_name_says_what_the_pdf_is(download: Download, kind: str, name: str) -> None:
    response = download(f"/rules/standard/{kind}.pdf")
    assert response.headers["Content-Disposition"].startswith("attachment")
    assert file_name(response) == name


@pytest.mark.own_app  # renders afresh: a cached sheet would fetch nothing anyway
@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_side_name_prints_as_text_and_fetches_nothing(
    download: Download, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    fetched: list[str] = []
    monkeypatch.setattr(
        StaticOnlyFetcher, "fetch", lambda self, url, headers=None: fetched.append(url)
    )
    text = text_of(download("/rules/simple/sheet.pdf", sides=[name, "Them"]))
    assert name.replace(" ", "") in text.replace(" ", "")
    assert fetched == []


@pytest.mark.own_app  # counts renders from an empty cache
def test_a_pdf_is_rendered_once_then_served_from_the_cache(
    download: Download, monkeypatch: pytest.MonkeyPatch
) -> None:
    renders: list[str] = []
    render = PdfRenderer.render

    def counting(self: PdfRenderer, html: str) -> bytes:
        renders.append(html)
        return render(self, html)

    monkeypatch.setattr(PdfRenderer, "render", counting)
    first = download("/rules/standard/sheet.pdf", sides=["Us", "Them"], paper="a4")
    again = download("/rules/standard/sheet.pdf", sides=["Us", "Them"], paper="a4")
    download("/rules/standard/sheet.pdf", sides=["Us", "Others"], paper="a4")
    download("/rules/standard/sheet.pdf", sides=["Us", "Them"], paper="letter")
    assert first.data == again.data
    assert len(renders) == 3


def test_the_rules_page_offers_every_preset_and_its_pdfs(client: FlaskClient) -> None:
    page = client.get("/rules").get_data(as_text=True)
    assert 'aria-current="page">Standard<' in page
    for key in PRESETS.keys() - {"standard"}:
        assert f'href="/rules/{key}"' in page
    for kind in PRESET_PDFS:
        assert f'formaction="/rules/standard/{kind}.pdf"' in page
    assert "Round 3" in page and "120" in page
    assert 'name="columns" value="2" checked' in page and 'name="columns" value="6"' in page


def test_a_preset_page_shows_that_presets_rules(client: FlaskClient) -> None:
    page = client.get("/rules/partnership-11").get_data(as_text=True)
    assert 'aria-current="page">Partnership 11<' in page
    assert "Cutting exactly 22 cards" in page


@pytest.mark.parametrize(("accept_language", "checked"), [("en-US", "letter"), ("fr-FR", "a4")])
def test_the_rules_page_preselects_the_regions_paper(
    client: FlaskClient, accept_language: str, checked: str
) -> None:
    page = client.get("/rules", headers={"Accept-Language": accept_language}).get_data(as_text=True)
    assert f'value="{checked}" checked' in page


@pytest.mark.parametrize("url", ["/rules/nope", "/rules/nope/card.pdf", "/rules/nope/sheet.pdf"])
def test_an_unknown_preset_is_not_found(client: FlaskClient, url: str) -> None:
    assert client.get(url).status_code == 404


SOURCE_KEYS = ("canasta-variant", "gamerules", "ko-club", "nl-partnership")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_presets_page_and_pdfs_say_where_it_comes_from_in_words_not_by_internal_keys(
    client: FlaskClient, download: Download, preset: str
) -> None:
    page = html.unescape(client.get(f"/rules/{preset}").get_data(as_text=True))
    texts = {kind: text_of(download(f"/rules/{preset}/{kind}.pdf")) for kind in PRESET_PDFS}

    assert PRESETS[preset].origin in page
    assert PRESETS[preset].origin in texts["card"]
    for shown in (page, *texts.values()):
        assert not any(key in shown for key in SOURCE_KEYS)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_presets_origin_is_told_in_the_readers_language(
    app: Flask, client: FlaskClient, download: Download, language: str
) -> None:
    client.set_cookie("lang", language)

    text = text_of(download("/rules/standard/card.pdf"))

    with app.test_request_context(), force_locale(language):
        origin = gettext(PRESETS["standard"].origin)
    assert re.sub(r"\s+", " ", origin) in text
    assert language == "en" or origin != PRESETS["standard"].origin


LONG_NAMES = (
    "Grandmother Rosalind Featherstonehaugh-Worthington",
    "Beatriz and her cousins from Valladolid",
    "Ana y Luis, los campeones del verano pasado",
    "Table two by the big window in the garden",
    "Kimberly-Anne Montgomery-Richardson the Third",
    "L" * 60,  # the longest name a side may have, with no place to break
)
JAPANESE_NAMES = (
    "花子と太郎の金曜日の夜のチーム",
    "田中家のおばあちゃんと孫たちの最強チーム",
    "鈴木さんと佐藤さんのいつものチーム",
    "隣の家の人たち",
)


def column_heads(response: TestResponse) -> str:
    """Return the text of a sheet above its first round, white space left out: each side's
    name, its lines joined again, column after column."""
    head = text_of(response).split("Round 1")[0].split("ラウンド1")[0]
    return re.sub(r"\s+", "", head)


@pytest.mark.parametrize("sides", [LONG_NAMES[:2], LONG_NAMES[:4], LONG_NAMES])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_long_side_names_wrap_whole_in_the_sheets_heads_and_the_sheet_keeps_one_page(
    download: Download, sides: tuple[str, ...], paper: str
) -> None:
    response = download("/rules/standard/sheet.pdf", sides=list(sides), paper=paper)

    heads = column_heads(response)
    assert "…" not in heads
    for name in sides:
        assert re.sub(r"\s+", "", name) in heads
    assert len(reader(response).pages) == 1


@pytest.mark.parametrize("language", ["be", "ja"])
def test_long_side_names_print_whole_on_a_matchs_sheet_in_a_long_or_wide_language(
    client: FlaskClient, create_match: CreateMatch, language: str
) -> None:
    names = JAPANESE_NAMES if language == "ja" else LONG_NAMES[:4]
    sides = [(name, [f"P{index}a", f"P{index}b"]) for index, name in enumerate(names[:3])]
    match = create_match(sides=sides, language=language)

    response = client.get(f"/m/{match.public_id}/sheet.pdf?paper=letter")

    heads = column_heads(response)
    for name in names[:3]:
        assert re.sub(r"\s+", "", name) in heads
    assert len(reader(response).pages) == 1


def text_sizes(response: TestResponse) -> dict[float, str]:
    """Return each size, in points, that the PDF prints text in, with a text printed in it."""
    sizes: dict[float, str] = {}

    def visit(text: str, cm: list[float], tm: list[float], _font: object, size: float) -> None:
        if text.strip():
            # The text's height on the page: its font size scaled by the text and page matrices.
            c, d = tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3]
            sizes.setdefault(round(size * (c * c + d * d) ** 0.5, 2), text.strip())

    for page in reader(response).pages:
        page.extract_text(visitor_text=visit)
    return sizes


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_nothing_on_a_pocket_card_prints_smaller_than_8_points(
    client: FlaskClient, preset: str, language: str
) -> None:
    headers = {"Accept-Language": language}
    response = client.get(f"/rules/{preset}/pocket.pdf", headers=headers)

    sizes = text_sizes(response)
    assert min(sizes) >= 8, {size: text for size, text in sizes.items() if size < 8}
    assert len(reader(response).pages) == 1


def test_nothing_on_a_matchs_pocket_card_with_house_rules_prints_smaller_than_8_points(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    house_rules = {"meld_minimum_mode": "by_score", "going_out_bonus": 200, "deal_bonus": 300}
    match = create_match(overrides=house_rules)

    sizes = text_sizes(client.get(f"/m/{match.public_id}/pocket.pdf"))

    assert min(sizes) >= 8, {size: text for size, text in sizes.items() if size < 8}
