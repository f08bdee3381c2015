"""The PDFs of a stored match: its report, its blank score sheet, its rules and pocket cards."""

from __future__ import annotations

import base64
import io
import re
from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient
from pdf_layout import POINTS_PER_MM, words_of
from pypdf import PdfReader
from werkzeug.test import TestResponse
from worked_example import STAYED_IN, WENT_OUT

from scorekeeper.domain.entries import SideEntry
from scorekeeper.i18n import LANGUAGES
from scorekeeper.printing import pdf
from scorekeeper.printing.pdf import DRAWING_URL_PREFIX, StaticOnlyFetcher

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, PlayRounds, StoredMatch

A4 = (595, 842)
LETTER = (612, 792)
MATCH_PDFS = ("report", "sheet", "rules", "pocket")

# Standard rules with a going-out bonus of 200: the round of tests/worked_example.py, so
# the side that goes out scores 2 x 500 + 2 x 300 + 765 + 100 + 200 = 2665 and the other
# 500 + 310 + 100 - 85 = 825 each round.
HOUSE_RULES = {"going_out_bonus": 200}


@pytest.fixture
def finished_match(create_match: CreateMatch, play_rounds: PlayRounds) -> StoredMatch:
    stored = create_match("Friday", overrides=HOUSE_RULES)
    play_rounds(stored, [(WENT_OUT, STAYED_IN)] * 4)
    return stored


def fetch_pdf(client: FlaskClient, url: str, **query: object) -> TestResponse:
    response = client.get(url, query_string=query)
    assert response.status_code == 200, response.data[:500]
    assert response.mimetype == "application/pdf"
    return response


def pages(response: TestResponse) -> list:
    return list(PdfReader(io.BytesIO(response.data)).pages)


def text_of(response: TestResponse) -> str:
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in pages(response)))


@pytest.mark.parametrize("kind", MATCH_PDFS)
def test_every_match_pdf_opens_as_one_page(
    client: FlaskClient, finished_match: StoredMatch, kind: str
) -> None:
    response = fetch_pdf(client, f"/m/{finished_match.public_id}/{kind}.pdf")
    assert len(pages(response)) == 1


def test_the_report_prints_every_round_the_totals_and_the_winner(
    client: FlaskClient, finished_match: StoredMatch
) -> None:
    text = text_of(fetch_pdf(client, f"/m/{finished_match.public_id}/report.pdf"))
    assert text.count("Round total 2,665 825") == 4
    for line in ("Books 1,600 500", "Melded cards 765 310", "Red threes 100 100"):
        assert text.count(line) == 4
    assert text.count("Going out 200 0") == 4 and text.count("Left over 0 \u221285") == 4
    assert "Round 3 meld minimum 120" in text
    assert "Running total 10,660 3,300" in text
    assert "Winner: Us, with 10,660 points." in text
    assert "Us: Ann and Bob Them: Cy and Di" in text


def test_the_report_is_rendered_once_per_version_of_its_match(
    client: FlaskClient,
    create_match: CreateMatch,
    play_rounds: PlayRounds,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = create_match()
    url = f"/m/{stored.public_id}/report.pdf"
    renders: list[str] = []
    render = pdf.render_pdf
    monkeypatch.setattr(pdf, "render_pdf", lambda html: renders.append(html) or render(html))

    first = [fetch_pdf(client, url).data for _ in range(2)]
    play_rounds(stored, [(WENT_OUT, STAYED_IN)])
    second = fetch_pdf(client, url)

    assert len(renders) == 2
    assert first[0] == first[1] != second.data
    assert "2,565" in text_of(second)


def test_the_report_names_the_side_that_went_out_in_each_round_or_says_nobody_did(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    stored = create_match()
    play_rounds(stored, [(WENT_OUT, STAYED_IN), (STAYED_IN, WENT_OUT), (STAYED_IN, STAYED_IN)])

    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/report.pdf"))

    assert "Round 1 meld minimum 50 Us went out Books" in text
    assert "Round 2 meld minimum 90 Them went out Books" in text
    # The stock ran out: the printed record says why nobody has the going-out bonus.
    assert "Round 3 meld minimum 120 nobody went out Books" in text
    assert text.count("went out") == 3


def test_a_blank_sheet_leaves_who_went_out_to_write_in(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    stored = create_match()
    play_rounds(stored, [(STAYED_IN, STAYED_IN)])

    assert "went out" not in text_of(fetch_pdf(client, f"/m/{stored.public_id}/sheet.pdf"))


def test_the_report_of_a_finished_match_prints_each_sides_place_under_its_total(
    client: FlaskClient, finished_match: StoredMatch
) -> None:
    text = text_of(fetch_pdf(client, f"/m/{finished_match.public_id}/report.pdf"))
    assert "Running total 10,660 3,300 Place 1 2" in text
    assert "Final places" not in text  # a line of the table, not a list as on the page


def test_the_report_prints_a_shared_place_for_sides_level_on_points(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    sides = [(name, [name]) for name in ("Ann", "Bob", "Cy", "Di")]
    stored = create_match(sides=sides, overrides={"rounds": 1, "meld_minimums": [50]})
    play_rounds(stored, [tuple(SideEntry(melded=points) for points in (100, 300, 100, 60))])

    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/report.pdf"))

    assert "Running total 100 300 100 60 Place 2 1 2 4" in text


def test_the_report_of_a_match_under_way_prints_no_places(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    stored = create_match()
    play_rounds(stored, [(WENT_OUT, STAYED_IN)])

    assert "Place" not in text_of(fetch_pdf(client, f"/m/{stored.public_id}/report.pdf"))


SIX_NAMES = ("Margarethe", "Wilhelmina", "Christophe", "Alexandria", "Maximilian", "Antoinette")


def six_sides_round(went_out: int) -> tuple[SideEntry, ...]:
    """Return a round of six sides alone, in which side `went_out` goes out."""
    sides = [SideEntry(clean_books=1, melded=300, leftover=40)] * len(SIX_NAMES)
    sides[went_out] = SideEntry(clean_books=3, dirty_books=2, melded=1200, went_out=True)
    return tuple(sides)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_report_of_six_sides_with_their_places_fits_one_a4_page_in_every_language(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds, language: str
) -> None:
    sides = [(name, [name]) for name in SIX_NAMES]
    stored = create_match("Long evening", sides=sides, language=language)
    # Four sides level at the top: the headline names them all, on two lines.
    play_rounds(stored, [six_sides_round(went_out) for went_out in range(4)])

    response = fetch_pdf(client, f"/m/{stored.public_id}/report.pdf", paper="a4")

    assert len(pages(response)) == 1


def test_the_report_prints_the_house_rules_in_short(
    client: FlaskClient, finished_match: StoredMatch
) -> None:
    text = text_of(fetch_pdf(client, f"/m/{finished_match.public_id}/report.pdf"))
    assert "Standard preset with 1 house rule" in text
    assert "Going-out bonus (preset: +100) +200" in text


def test_the_report_counts_the_house_rules_that_its_match_plays_as_its_page_does(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    # Per-round minimums are stored but unused when minimums go by score: no house rule.
    overrides = {
        "meld_minimum_mode": "by_score",
        "meld_minimums": [60, 90, 120, 150],
        "card_values": {"joker": 60},
    }
    stored = create_match(overrides=overrides)

    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/report.pdf"))
    page = client.get(f"/m/{stored.public_id}").get_data(as_text=True)

    assert "Standard preset with 2 house rules" in text
    assert "2 house rules" in page and "Meld minimum of each round" not in page


def test_a_by_score_report_prints_each_sides_minimum_of_each_round(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    stored = create_match(overrides={"meld_minimum_mode": "by_score"})
    play_rounds(stored, [(WENT_OUT, STAYED_IN)] * 2)
    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/report.pdf"))
    assert "Round 1 meld minimum by running score Us went out Meld minimum 50 50" in text
    assert "Round 2 meld minimum by running score Us went out Meld minimum 90 50" in text


def test_the_report_of_a_draw_says_so(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    stored = create_match("Even")
    play_rounds(stored, [(WENT_OUT, STAYED_IN), (STAYED_IN, WENT_OUT)] * 2)
    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/report.pdf"))
    assert "A draw: Us and Them" in text
    assert "The Standard preset's rules, unchanged." in text


def test_the_report_of_a_match_without_rounds_says_nothing_is_entered(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    response = fetch_pdf(client, f"/m/{create_match().public_id}/report.pdf")
    assert len(pages(response)) == 1
    assert "No round entered yet." in text_of(response)


def test_the_match_rules_card_marks_its_house_rule(
    client: FlaskClient, finished_match: StoredMatch
) -> None:
    text = text_of(fetch_pdf(client, f"/m/{finished_match.public_id}/rules.pdf"))
    assert "✱ Going-out bonus (preset: +100) +200" in text
    assert "✱ House rule: differs from the Standard preset." in text
    assert "Round 3 120" in text


def test_the_pocket_cards_mark_a_house_rule_without_room_for_the_presets_value(
    client: FlaskClient, finished_match: StoredMatch
) -> None:
    text = text_of(fetch_pdf(client, f"/m/{finished_match.public_id}/pocket.pdf"))
    assert text.count("✱ Going-out bonus +200") == 4
    assert "preset:" not in text


def test_a_value_in_words_keeps_its_gap_after_a_label_that_says_the_presets_value(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    stored = create_match(overrides={"wild_books_allowed": False})
    words = words_of(fetch_pdf(client, f"/m/{stored.public_id}/rules.pdf").data)
    # "✱ Melds of wilds only (preset: allowed) ... not allowed": a float's margin is not kept
    # when WeasyPrint fits a line beside it.
    [preset_value] = [word for word in words if word.text == "allowed)"]
    value = words[words.index(preset_value) + 1]
    assert value.text == "not"
    if value.top < preset_value.bottom:  # on the same line, set in another size
        assert value.left - preset_value.right >= 3 * POINTS_PER_MM


@pytest.mark.parametrize("kind", ["rules", "pocket"])
def test_a_match_of_players_without_partners_prints_no_partner_rules(
    client: FlaskClient, create_match: CreateMatch, kind: str
) -> None:
    alone = create_match(sides=[("Ann", ["Ann"]), ("Bob", ["Bob"]), ("Cy", ["Cy"])])
    paired = create_match()
    alone_text = text_of(fetch_pdf(client, f"/m/{alone.public_id}/{kind}.pdf"))
    paired_text = text_of(fetch_pdf(client, f"/m/{paired.public_id}/{kind}.pdf"))
    assert "Partner's permission" in paired_text
    assert "partner" not in alone_text.lower()
    assert "Going-out bonus +100" in alone_text


def test_the_match_sheet_has_the_matchs_sides_and_minimums(
    client: FlaskClient, finished_match: StoredMatch
) -> None:
    text = text_of(fetch_pdf(client, f"/m/{finished_match.public_id}/sheet.pdf"))
    assert "Friday" in text and "Us Them" in text
    assert "Round 3 meld minimum 120" in text
    assert "Going out +200" in text


def test_the_match_sheet_follows_a_by_score_minimum(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    stored = create_match(overrides={"meld_minimum_mode": "by_score"})
    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/sheet.pdf"))
    assert "meld minimum by running score" in text
    assert "Below 0 15" in text and "3,000 and more 120" in text


def test_the_match_sheet_prints_a_large_minimum_as_a_number(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    stored = create_match(overrides={"meld_minimums": [50, 90, 120, 1500]})
    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/sheet.pdf"))
    assert "Round 4 meld minimum 1,500" in text


def test_every_page_of_a_match_pdf_says_what_it_belongs_to_in_its_footer(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    five_rounds = {"rounds": 5, "meld_minimums": [50, 90, 120, 150, 180]}
    stored = create_match("Long evening", overrides=five_rounds)

    response = fetch_pdf(client, f"/m/{stored.public_id}/sheet.pdf")

    footers = [page.extract_text().splitlines()[-1] for page in pages(response)]
    assert footers == [
        "Hand and Foot · Long evening score sheet 1 / 2",
        "Hand and Foot · Long evening score sheet 2 / 2",
    ]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_longest_match_sheet_fits_one_page_in_every_language(
    client: FlaskClient, create_match: CreateMatch, language: str, paper: str
) -> None:
    # Six players by score under partnership-11: a line more per round for the minimum, and
    # one for the deal bonus.
    sides = [(name, (name,)) for name in "ABCDEF"]
    overrides = {"meld_minimum_mode": "by_score"}
    stored = create_match(preset="partnership-11", overrides=overrides, sides=sides)

    url = f"/m/{stored.public_id}/sheet.pdf"
    response = client.get(url, query_string={"paper": paper}, headers={"Accept-Language": language})

    assert len(pages(response)) == 1


@pytest.mark.parametrize("kind", MATCH_PDFS)
@pytest.mark.parametrize(("paper", "size"), [("a4", A4), ("letter", LETTER)])
def test_match_pdfs_come_in_a4_and_letter(
    client: FlaskClient, finished_match: StoredMatch, kind: str, paper: str, size: tuple
) -> None:
    response = fetch_pdf(client, f"/m/{finished_match.public_id}/{kind}.pdf", paper=paper)
    sizes = {(round(page.mediabox.width), round(page.mediabox.height)) for page in pages(response)}
    assert sizes == {size}


@pytest.mark.parametrize(
    ("kind", "ending"),
    [
        ("report", "report"),
        ("sheet", "score-sheet"),
        ("rules", "rules-card"),
        ("pocket", "pocket-rules"),
    ],
)
def test_a_match_pdfs_file_name_has_the_match_and_its_day(
    client: FlaskClient, finished_match: StoredMatch, kind: str, ending: str
) -> None:
    response = fetch_pdf(client, f"/m/{finished_match.public_id}/{kind}.pdf")
    disposition = response.headers["Content-Disposition"]
    assert re.fullmatch(
        rf"attachment; filename=friday-\d{{4}}-\d\d-\d\d-{ending}\.pdf", disposition
    )


HOSTILE = ("<script>alert(1)</script>", '<img src="file:///etc/passwd">')


@pytest.mark.parametrize("kind", MATCH_PDFS)
def test_hostile_names_print_as_text_and_fetch_nothing(
    client: FlaskClient,
    create_match: CreateMatch,
    play_rounds: PlayRounds,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
) -> None:
    stored = create_match(HOSTILE[0], sides=((HOSTILE[1], ("Ann",)), ("Them", ("Cy",))))
    play_rounds(stored, [(WENT_OUT, STAYED_IN)])
    fetched: list[str] = []
    fetch = StaticOnlyFetcher.fetch

    def spy(self: StaticOnlyFetcher, url: str, headers: object = None) -> object:
        fetched.append(url)
        return fetch(self, url)

    monkeypatch.setattr(StaticOnlyFetcher, "fetch", spy)
    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/{kind}.pdf")).replace(" ", "")
    assert HOSTILE[0] in text
    if kind in ("report", "sheet"):
        assert HOSTILE[1].replace(" ", "") in text
    # Only the report's own drawings, the chart and its legend's samples, which carry no name.
    drawings = [base64.b64decode(url.removeprefix(DRAWING_URL_PREFIX)) for url in fetched]
    assert all(url.startswith(DRAWING_URL_PREFIX) for url in fetched)
    assert len(drawings) == (1 + 2 if kind == "report" else 0)
    assert not any(b"passwd" in drawing or b"script" in drawing for drawing in drawings)


@pytest.mark.parametrize("kind", MATCH_PDFS)
def test_an_unknown_match_has_no_pdfs(client: FlaskClient, kind: str) -> None:
    assert client.get(f"/m/nope/{kind}.pdf").status_code == 404


def test_the_reports_chart_is_drawn_with_its_axes_labels(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    stored = create_match()
    play_rounds(stored, [(WENT_OUT, STAYED_IN)] * 4)  # 10,660 against 3,300
    text = text_of(fetch_pdf(client, f"/m/{stored.public_id}/report.pdf"))
    # The chart's top label: no total, and nothing else in the report, reads so.
    assert "15,000" in text


def test_the_reports_legend_keeps_each_lines_sample_before_its_whole_name(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    long_name = "Grandmother Margaret's Unbeatable Cousins Club"  # words found nowhere else
    stored = create_match(sides=[(long_name, ["Ann"]), ("Them", ["Cy"])])
    play_rounds(stored, [(WENT_OUT, STAYED_IN)] * 4)
    words = words_of(fetch_pdf(client, f"/m/{stored.public_id}/report.pdf").data)
    # The legend is the last of the chart's caption, which starts at the chart's left edge.
    (caption,) = [w for w in words if w.text == "Rounds"]
    legend = [w for w in words if w.page == caption.page and w.top > caption.bottom]
    name = [w for w in legend if w.text in long_name.split()]
    assert {w.text for w in name} == set(long_name.split())
    assert min(w.left for w in name) > caption.left + 20  # points: right of the sample, 8 mm
