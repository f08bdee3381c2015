"""Which language a request is served in: the picker's cookie, else the browser's languages;
the picker itself, and error pages and API errors in that language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.i18n import (
    BROWSER_HEADERS_KEPT,
    LANGUAGE_COOKIE,
    LANGUAGES,
    browsers_language,
    select_locale,
)

if TYPE_CHECKING:  # pytest imports conftest itself; only type checkers need it here
    from conftest import CreateMatch

BAD_BODY = {
    "en": "The request body must be a JSON object.",
    "ja": "リクエストの本文はJSONオブジェクトにしてください。",
    "ko": "요청 본문은 JSON 객체여야 합니다.",
    "nl": "De body van het verzoek moet een JSON-object zijn.",
    "be": "Цела запыту павінна быць аб'ектам JSON.",
}
NOT_FOUND = {
    "en": "There is nothing at this address: check the link.",
    "ja": "このアドレスには何もありません。リンクを確認してください。",
    "ko": "이 주소에는 아무것도 없습니다. 링크를 확인하세요.",
    "nl": "Op dit adres staat niets: controleer de link.",
    "be": "Па гэтым адрасе нічога няма: праверце спасылку.",
}
HOME_HEADING = {
    "en": "Hand and Foot scorekeeper",
    "ja": "ハンド・アンド・フットの得点記録",
    "ko": "핸드앤풋 점수 기록",
    "nl": "Scores bijhouden voor Hand and Foot",
    "be": "Лік ачкоў для «Рукі і нагі»",
}


def heading(client: FlaskClient, **headers: str) -> str:
    page = client.get("/", headers=headers).get_data(as_text=True)
    return page.split("<h1>", 1)[1].split("</h1>", 1)[0]


def pick(client: FlaskClient, language: str, next_page: str | None = "/rules") -> Any:
    data = {"lang": language} if next_page is None else {"lang": language, "next": next_page}
    return client.post("/language", data=data)


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "WTF_CSRF_ENABLED": False}  # test_csrf_walk checks the picker's token


@pytest.mark.parametrize(
    ("accept_language", "language"),
    [
        ("ja-JP,ja;q=0.9,en;q=0.8", "ja"),
        ("ko-KR", "ko"),
        ("nl-BE,fr;q=0.5", "nl"),
        ("be-BY,ru;q=0.8", "be"),
        ("fr-FR,de;q=0.8", "en"),
        ("ru-RU", "en"),  # Belarusian is no stand-in for Russian
        ("de-DE,ko;q=0.3", "ko"),
        ("", "en"),
    ],
)
def test_the_browsers_best_language_is_served_when_none_was_picked(
    client: FlaskClient, accept_language: str, language: str
) -> None:
    assert heading(client, **{"Accept-Language": accept_language}) == HOME_HEADING[language]


def test_a_browser_header_sent_again_is_answered_from_memory_which_stays_bounded(
    app: Flask,
) -> None:
    browsers_language.cache_clear()
    chosen = []
    for _ in range(2):
        with app.test_request_context(headers={"Accept-Language": "nl-BE,fr;q=0.5"}):
            chosen.append(select_locale())
    assert str(chosen[0]) == "nl" and chosen[1] is chosen[0]  # one Locale per language
    assert browsers_language.cache_info().hits == 1
    # Bounded, so that clients sending made-up headers cannot fill the memory.
    assert browsers_language.cache_info().maxsize == BROWSER_HEADERS_KEPT


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_picked_language_is_kept_in_a_long_lived_private_cookie(
    client: FlaskClient, language: str
) -> None:
    response = pick(client, language)
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules"
    cookie = client.get_cookie(LANGUAGE_COOKIE)
    assert cookie is not None and cookie.value == language
    assert cookie.http_only and cookie.same_site == "Lax"
    assert cookie.max_age is not None and cookie.max_age >= 365 * 24 * 3600


def test_the_picked_language_wins_over_the_browsers(client: FlaskClient) -> None:
    pick(client, "be")
    assert heading(client, **{"Accept-Language": "ja"}) == HOME_HEADING["be"]
    pick(client, "en")
    assert heading(client, **{"Accept-Language": "ja"}) == HOME_HEADING["en"]


def test_a_cookie_naming_no_language_offered_leaves_it_to_the_browser(client: FlaskClient) -> None:
    client.set_cookie(LANGUAGE_COOKIE, "xx")
    assert heading(client, **{"Accept-Language": "ko"}) == HOME_HEADING["ko"]


def test_a_language_not_offered_is_refused_and_nothing_is_remembered(client: FlaskClient) -> None:
    response = pick(client, "fr")
    assert response.status_code == 400
    assert client.get_cookie(LANGUAGE_COOKIE) is None


@pytest.mark.parametrize(
    "next_page",
    [
        None,
        "",
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "/\t/evil.example/",
        "\\\\evil.example",
        "javascript:alert(1)",
        "rules",
    ],
)
def test_the_picker_goes_back_only_to_a_page_of_this_site(
    client: FlaskClient, next_page: str | None
) -> None:
    assert pick(client, "ja", next_page).headers["Location"] == "/"


def test_the_picker_goes_back_to_the_page_with_its_query(client: FlaskClient) -> None:
    assert pick(client, "ja", "/rules/simple?paper=a4").headers["Location"] == (
        "/rules/simple?paper=a4"
    )


@pytest.mark.parametrize("url", ["/", "/rules", "/matches/new", "/recent", "/nowhere"])
def test_every_page_offers_each_language_in_its_own_name_and_says_its_own(
    client: FlaskClient, url: str
) -> None:
    page = client.get(url, headers={"Accept-Language": "ko"}).get_data(as_text=True)
    assert '<html lang="ko">' in page
    assert 'action="/language"' in page and 'name="csrf_token"' in page
    assert f'name="next" value="{url}"' in page
    for code, name in LANGUAGES.items():
        assert f'value="{code}" lang="{code}"' in page and f">{name}</button>" in page
    assert 'value="ko" lang="ko" aria-current="true">한국어<' in page


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_an_error_page_speaks_the_language(client: FlaskClient, language: str) -> None:
    response = client.get("/nowhere", headers={"Accept-Language": language})
    assert response.status_code == 404
    assert NOT_FOUND[language] in response.get_data(as_text=True)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_api_errors_follow_the_accept_language_header(client: FlaskClient, language: str) -> None:
    headers = {"Accept-Language": language}
    response = client.post("/api/v1/score", json=[], headers=headers)
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["message"] == BAD_BODY[language]
    response = client.get("/api/v1/nowhere", headers=headers)
    assert response.get_json()["errors"][0]["message"] == NOT_FOUND[language]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ja", ["Us:", "マイナスにできません"]),
        ("ko", ["Us:", "음수일 수 없습니다"]),
        ("nl", ["Us:", "kan niet negatief zijn"]),
        ("be", ["Us:", "адмоўнае значэнне немагчымае"]),
    ],
)
def test_the_domains_problems_come_back_in_the_language(
    client: FlaskClient, language: str, words: list[str]
) -> None:
    body = {"round": 1, "sides": [{"name": "Us", "clean_books": -1}, {"name": "Them"}]}
    response = client.post("/api/v1/score", json=body, headers={"Accept-Language": language})
    assert response.status_code == 422
    message = response.get_json()["errors"][0]["message"]
    assert all(word in message for word in words), message


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("be", "Увядзіце цэлы лік, напрыклад 0 або 50."),
        ("ja", "0や50のような整数を入力してください。"),
        ("en", "Enter a whole number, such as 0 or 50."),
    ],
)
def test_a_count_that_is_no_whole_number_is_refused_in_the_pages_language(
    client: FlaskClient, create_match: CreateMatch, language: str, message: str
) -> None:
    stored = create_match()
    modes = {
        f"sides-{i}-{cards}_mode": "points" for i in (0, 1) for cards in ("melded", "leftover")
    }
    form = {"round_number": "1", "went_out": "nobody", "sides-0-clean_books": "1.5", **modes}
    url = f"/m/{stored.public_id}/edit/{stored.edit_token}/rounds/new"
    response = client.post(url, data=form, headers={"Accept-Language": language})
    assert response.status_code == 422
    assert f"<li>{message}</li>" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ja", "このフォームは期限切れか、このサイトから送られたものではありません。"),
        ("be", "Тэрмін дзеяння формы скончыўся, або яна дасланая не з гэтага сайта."),
    ],
)
def test_a_form_without_its_csrf_token_is_refused_in_the_pages_language(
    app_config: dict[str, Any], language: str, message: str
) -> None:
    client = create_app({**app_config, "WTF_CSRF_ENABLED": True}).test_client()
    response = client.post("/language", data={"lang": "en"}, headers={"Accept-Language": language})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert client.get_cookie(LANGUAGE_COOKIE) is None
