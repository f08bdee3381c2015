"""Setting up a match in the browser's form, the links it gives, and the pages around it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from page_parts import errors_next_to, posted_form

from scorekeeper import store
from scorekeeper.domain.entries import SideEntry
from scorekeeper.domain.rules import PRESETS
from scorekeeper.store.models import Match, db
from scorekeeper.web.forms import house_rules

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch, PlayRounds

FOUR = {"players-0": "Ann", "players-1": "Bob", "players-2": "Cy", "players-3": "Di"}
SHARE_URL = re.compile(r"/m/(?P<public_id>[^/]+)/edit/(?P<token>[^/]+)/share")


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": False}


def setup_form(**fields: str) -> dict[str, str]:
    """Return a complete set-up form as a browser posts it, blank boxes included."""
    blank = {f"players-{i}": "" for i in range(6)} | {f"team_names-{i}": "" for i in range(3)}
    return {**blank, "name": "Friday", "seating": "individuals", "preset": "standard", **fields}


def stored_sides(app: Flask) -> list[list[tuple[str, list[str]]]]:
    """Return each stored match's sides: their names and their players' names."""
    with app.app_context():
        return [
            [(side.name, [player.name for player in side.players]) for side in match.sides]
            for match in db.session.scalars(db.select(Match))
        ]


def test_the_set_up_form_offers_every_house_rule_with_the_presets_value(
    client: FlaskClient,
) -> None:
    page = client.get("/matches/new").get_data(as_text=True)

    for rule in house_rules():
        assert f'name="house-{rule.name}"' in page
    assert 'placeholder="13"' in page  # the standard hand, beside "Cards in each hand"
    assert all(name in page for name in ("Standard", "Simple", "Strict", "Partnership 11"))


def test_creating_a_match_leads_to_its_two_links_with_copy_buttons_and_qr_codes(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post("/matches/new", data=setup_form(**FOUR))

    assert response.status_code == 303
    link = SHARE_URL.fullmatch(response.location)
    assert link is not None
    page = client.get(response.location).get_data(as_text=True)
    edit_url = f"http://localhost/m/{link['public_id']}/edit/{link['token']}"
    assert f'value="{edit_url}"' in page
    assert f'value="http://localhost/m/{link["public_id"]}"' in page
    assert page.count('<svg viewBox="0 0') == 2  # one QR code per link
    assert page.count("data-copy=") == 2


def test_the_answer_that_hands_out_the_edit_link_stays_out_of_caches(
    client: FlaskClient,
) -> None:
    response = client.post("/matches/new", data=setup_form(**FOUR))

    assert response.headers["Cache-Control"] == "no-store"
    assert response.headers["X-Robots-Tag"] == "noindex"


def test_players_alone_make_a_side_each(client: FlaskClient, app: Flask) -> None:
    client.post("/matches/new", data=setup_form(**FOUR))

    assert stored_sides(app) == [
        [
            ("Ann", ["Ann"]),
            ("Bob", ["Bob"]),
            ("Cy", ["Cy"]),
            ("Di", ["Di"]),
        ]
    ]


def test_partners_entered_one_after_the_other_make_a_team_named_after_them_unless_named(
    client: FlaskClient, app: Flask
) -> None:
    client.post("/matches/new", data=setup_form(**FOUR, seating="2x2", **{"team_names-1": "Us"}))

    assert stored_sides(app) == [
        [
            ("Ann & Bob", ["Ann", "Bob"]),
            ("Us", ["Cy", "Di"]),
        ]
    ]


def test_a_changed_house_rule_is_the_matchs_rule(client: FlaskClient, app: Flask) -> None:
    typed = {"house-hand_size": "11", "house-wild_books_allowed": "no"}
    client.post("/matches/new", data=setup_form(**FOUR, **typed))

    with app.app_context():
        [match] = db.session.scalars(db.select(Match))
        rules = store.rules_of(match)
    assert (rules.hand_size, rules.wild_books_allowed, rules.foot_size) == (11, False, 13)


def test_strict_rules_without_wild_books_need_none_to_go_out(
    client: FlaskClient, app: Flask
) -> None:
    form = setup_form(**FOUR, preset="strict", **{"house-wild_books_allowed": "no"})

    assert client.post("/matches/new", data=form).status_code == 303
    with app.app_context():
        [match] = db.session.scalars(db.select(Match))
        assert store.rules_of(match).going_out_requires.wild == 0


def test_showing_another_presets_values_creates_nothing(client: FlaskClient, app: Flask) -> None:
    response = client.post(
        "/matches/new", data=setup_form(**FOUR, preset="simple", show_preset="y")
    )

    assert response.status_code == 200
    assert 'placeholder="11"' in response.get_data(as_text=True)  # the simple hand
    assert stored_sides(app) == []


ONE = {"players-0": "Ann"}
SEVEN = {f"players-{i}": name for i, name in enumerate("Ann Bob Cy Di Ed Flo Gus".split())}
FIVE = {f"players-{i}": name for i, name in enumerate("Ann Bob Cy Di Ed".split())}


@pytest.mark.parametrize(
    ("fields", "field_id", "message"),
    [
        ({**ONE}, "players", "Enter between 2 and 6 players; you entered 1."),
        ({**SEVEN}, "players", "Enter between 2 and 6 players; you entered 7."),
        ({**FIVE, "seating": "2x2"}, "seating", "2 teams of 2 needs 4 players, but you entered 5"),
        ({**FOUR, "seating": "3x2"}, "seating", "3 teams of 2 needs 6 players, but you entered 4"),
        ({**FOUR, "name": ""}, "name", "Give the match a name"),
        ({**FOUR, "house-hand_size": "lots"}, "house-hand_size", "Enter a whole number"),
        ({**FOUR, "house-hand_size": "99"}, "house-hand_size", "Cards in each hand must be"),
        (
            {**FOUR, "house-meld_minimums": "50, 90"},
            "house-meld_minimums",
            "Meld minimum of each round: the match has 4 rounds, so give 4 minimums, not 2.",
        ),
        (
            {**FOUR, "house-going_out_requires__wild": "1", "house-wild_books_allowed": "no"},
            "house-going_out_requires__wild",
            "Wild books to go out: these rules forbid wild books",
        ),
        ({**FOUR, "players-1": "Ann"}, "players-1", "Another side is already called Ann"),
        (
            {**FOUR, "players-2": "C" * 30, "players-3": "D" * 30, "seating": "2x2"},
            "team_names-1",
            "Named after its players, this team's name would be longer than 60 characters",
        ),
    ],
)
def test_a_set_up_the_rules_refuse_shows_why_next_to_the_field_keeps_the_entry_and_stores_nothing(
    client: FlaskClient, app: Flask, fields: dict[str, str], field_id: str, message: str
) -> None:
    form = setup_form(**fields)
    response = client.post("/matches/new", data=form)

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert message in errors_next_to(page, field_id)
    assert f'<a href="#{field_id}">' in page  # at the top, where the page opens
    for name, value in form.items():
        if value and name.startswith(("players-", "house-")) and "meld" not in name:
            assert f'value="{value}"' in page or f'value="{value}" selected' in page
    assert stored_sides(app) == []


@pytest.mark.parametrize(
    ("name", "values"),
    [
        ("seating", ["individuals", "2x2"]),
        ("preset", ["standard", "strict"]),
        ("language", ["en", "nl"]),
        ("house-wild_books_allowed", ["yes", "no"]),
    ],
)
def test_a_set_up_posted_by_hand_with_two_of_one_choice_is_refused_beside_it(
    client: FlaskClient, app: Flask, name: str, values: list[str]
) -> None:
    response = client.post("/matches/new", data={**setup_form(**FOUR), name: values})

    assert response.status_code == 422
    assert "Choose only one." in errors_next_to(response.get_data(as_text=True), name)
    assert stored_sides(app) == []


def test_a_house_rule_that_differs_from_the_preset_is_marked_changed(client: FlaskClient) -> None:
    response = client.post("/matches/new", data=setup_form(**ONE, **{"house-hand_size": "11"}))

    page = response.get_data(as_text=True)
    assert 'class="field house-rule is-changed" data-house-rule="hand_size"' in page
    assert 'class="field house-rule" data-house-rule="foot_size"' in page


def test_the_home_page_offers_a_new_match_and_this_devices_recent_matches(
    client: FlaskClient,
) -> None:
    page = client.get("/").get_data(as_text=True)

    assert 'href="/matches/new"' in page
    assert "data-recent-list" in page
    assert re.search(r'src="/static/recent(-[0-9a-f]{32})?\.js"', page)


def test_the_recent_matches_page_lists_what_the_browser_remembers(client: FlaskClient) -> None:
    response = client.get("/recent")

    assert response.status_code == 200
    assert "data-recent-list" in response.get_data(as_text=True)


def test_pages_carry_no_inline_script_or_style(client: FlaskClient) -> None:
    for url in ("/", "/matches/new", "/recent", "/matches/import"):
        page = client.get(url).get_data(as_text=True)
        assert "<script>" not in page and "style=" not in page and "<style" not in page
        assert "https://" not in page and "http://" not in page.replace("http://localhost", "")


ANOTHER_ROUND = (SideEntry(melded=200), SideEntry(melded=200))
NOT_AS_THEY_WERE = "This form cannot seat the sides of"


def only_match(app: Flask) -> Match:
    with app.app_context():
        [match] = db.session.scalars(db.select(Match))
        return match


def again(client: FlaskClient, public_id: str) -> tuple[str, dict[str, str]]:
    """Return the set-up page of the match after this one, and what its form posts as shown."""
    page = client.get(f"/m/{public_id}/again").get_data(as_text=True)
    return page, posted_form(page, "/matches/new")


def test_a_finished_match_sets_up_the_next_with_its_players_seating_rules_and_language(
    client: FlaskClient, app: Flask, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    house_rules = {"going_out_bonus": 200, "meld_minimums": [60, 90, 120, 150]}
    sides = [("Ann & Bob", ["Ann", "Bob"]), ("Us", ["Cy", "Di"])]
    first = create_match(overrides=house_rules, sides=sides, language="nl")
    play_rounds(first, [ANOTHER_ROUND] * 4)

    # Offered on the edit link: the view link only watches the table play.
    standings = client.get(f"/m/{first.public_id}/edit/{first.edit_token}").get_data(as_text=True)
    assert f'href="/m/{first.public_id}/again"' in standings
    page, form = again(client, first.public_id)
    assert client.post("/matches/new", data=form).status_code == 303

    assert NOT_AS_THEY_WERE not in page
    assert form["name"] == "Friday (2)" and form["team_names-0"] == ""  # "Ann & Bob" follows
    first_sides, second_sides = stored_sides(app)
    assert first_sides == second_sides == [("Ann & Bob", ["Ann", "Bob"]), ("Us", ["Cy", "Di"])]
    with app.app_context():
        first_match, second_match = db.session.scalars(db.select(Match).order_by(Match.id))
        assert store.rules_of(second_match) == store.rules_of(first_match)
        assert (second_match.preset, second_match.language) == ("standard", "nl")


@pytest.mark.parametrize("named_after_players", ["Ann і Bob", "Ann・Bob", "Ann en Bob"])
def test_a_team_named_after_its_players_in_another_language_follows_them_in_the_next_match(
    client: FlaskClient, app: Flask, create_match: CreateMatch, named_after_players: str
) -> None:
    first = create_match(sides=[(named_after_players, ["Ann", "Bob"]), ("Us", ["Cy", "Di"])])

    _page, form = again(client, first.public_id)
    assert client.post("/matches/new", data=form).status_code == 303

    assert (form["team_names-0"], form["team_names-1"]) == ("", "Us")
    _first_sides, second_sides = stored_sides(app)
    assert second_sides == [("Ann & Bob", ["Ann", "Bob"]), ("Us", ["Cy", "Di"])]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"meld_minimum_mode": "by_score", "wild_books_allowed": False},
        {"decks": 3, "max_wilds_per_meld": None, "permission_to_go_out": "none"},
        {"rounds": 3, "red_threes_laid_down": False, "deal_bonus": 200},
    ],
)
def test_the_next_match_plays_the_same_rules_whatever_house_rules_the_form_offers(
    client: FlaskClient,
    app: Flask,
    create_match: CreateMatch,
    preset: str,
    overrides: dict[str, object],
) -> None:
    first = create_match(preset=preset, overrides=overrides)

    _page, form = again(client, first.public_id)
    assert client.post("/matches/new", data=form).status_code == 303

    with app.app_context():
        first_match, second_match = db.session.scalars(db.select(Match).order_by(Match.id))
        assert store.rules_of(second_match) == store.rules_of(first_match)
        assert second_match.preset == preset


def test_the_view_link_of_a_finished_match_offers_no_next_one(
    client: FlaskClient, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    first = create_match()
    play_rounds(first, [ANOTHER_ROUND] * 4)

    standings = client.get(f"/m/{first.public_id}").get_data(as_text=True)

    assert "Winner" in standings or "draw" in standings
    assert "/again" not in standings and "Play again" not in standings


def test_a_match_still_being_played_offers_no_next_one(client: FlaskClient, app: Flask) -> None:
    client.post("/matches/new", data=setup_form(**FOUR))

    standings = client.get(f"/m/{only_match(app).public_id}").get_data(as_text=True)

    assert "/again" not in standings


def test_the_next_match_of_players_in_uneven_teams_keeps_them_and_asks_how_they_sit(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    first = create_match(preset="simple", sides=[("Ann & Bob", ["Ann", "Bob"]), ("Cy", ["Cy"])])

    page, form = again(client, first.public_id)

    assert NOT_AS_THEY_WERE in page
    players = [form[f"players-{index}"] for index in range(4)]
    assert (players, form["preset"]) == (["Ann", "Bob", "Cy", ""], "simple")
    assert "seating" not in form  # no way of sitting chosen for them


def test_the_next_match_of_players_alone_under_names_of_their_own_says_it_renames_them(
    client: FlaskClient, create_match: CreateMatch
) -> None:
    first = create_match(sides=[("Grandma", ["Margaret"]), ("Ann", ["Ann"])])

    page, form = again(client, first.public_id)

    assert NOT_AS_THEY_WERE in page
    assert (form["players-0"], form["players-1"], form["seating"]) == (
        "Margaret",
        "Ann",
        "individuals",
    )


def test_the_next_match_of_an_unknown_match_is_not_found(client: FlaskClient) -> None:
    assert client.get("/m/AAAAAAAAAAAAAAAAAAAAAA/again").status_code == 404


# -- Who deals -----------------------------------------------------------------------------------


def dealer_options(page: str) -> list[tuple[str, str, str]]:
    """Return the choices of who deals first: their attributes, values and labels."""
    found = re.search(r'<select[^>]*id="first_dealer"[^>]*>(.*?)</select>', page, re.S)
    assert found is not None
    return re.findall(r'<option([^>]*) value="(\d)">([^<]*)</option>', found[1])


def test_the_set_up_form_asks_who_deals_first_the_first_player_unless_told(
    client: FlaskClient,
) -> None:
    page = client.get("/matches/new").get_data(as_text=True)

    assert '<label class="label" for="first_dealer">Who deals first?</label>' in page
    options = dealer_options(page)
    assert [(value, label) for _, value, label in options] == [
        (str(box), f"Player {box + 1}") for box in range(6)
    ]
    assert "selected" in options[0][0]


def test_the_first_dealer_chosen_is_stored_and_the_standings_say_who_deals(
    client: FlaskClient, app: Flask
) -> None:
    form = setup_form(**FOUR, seating="2x2", first_dealer="3")  # Di
    response = client.post("/matches/new", data=form)

    assert response.status_code == 303
    with app.app_context():
        match = only_match(app)
        assert match.first_dealer == 3  # Ann, Cy, Bob, Di round the table
    edit = response.location.removesuffix("/share")
    assert "Di deals round 1." in client.get(edit).get_data(as_text=True)
    round_page = client.get(f"{edit}/rounds/new").get_data(as_text=True)
    assert "Di dealt this round." in round_page and "Ann deals round 2." in round_page


def test_a_first_dealer_whose_box_is_empty_is_refused_beside_the_choice(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post("/matches/new", data=setup_form(**FOUR, first_dealer="5"))

    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Choose who deals first among the players entered above." in errors_next_to(
        page, "first_dealer"
    )
    options = dealer_options(page)
    assert "selected" in options[5][0]  # kept as chosen
    assert [label for *_, label in options] == ["Ann", "Bob", "Cy", "Di", "Player 5", "Player 6"]
    assert stored_sides(app) == []


def test_the_next_match_is_dealt_first_by_whoever_the_deal_passed_on_to(
    client: FlaskClient, app: Flask, create_match: CreateMatch, play_rounds: PlayRounds
) -> None:
    alone = [("Ann", ["Ann"]), ("Bob", ["Bob"]), ("Cy", ["Cy"])]
    first = create_match(sides=alone)  # Ann, Bob, Cy, then Ann dealt the four rounds
    play_rounds(first, [(*ANOTHER_ROUND, SideEntry(melded=200))] * 4)

    page, form = again(client, first.public_id)

    assert form["first_dealer"] == "1"  # Bob, in the second box
    assert client.post("/matches/new", data=form).status_code == 303
    with app.app_context():
        _first, second = db.session.scalars(db.select(Match).order_by(Match.id))
        assert store.match_view(second).dealer(1) == "Bob"
