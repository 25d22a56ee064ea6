"""The page's own words: every label of index.html and every word its scripts say comes from the catalogue."""

from __future__ import annotations

import html
import json
import re
from importlib.resources import files

from gatebot.locale import translator
from gatebot.web.words import PAGE, script_words
from tests.web.conftest import Table

STATIC = files("gatebot.web") / "static"


def served_words(page: str) -> dict:
    found = re.search(r'<body data-words="([^"]*)">', page)
    assert found is not None
    return json.loads(html.unescape(found.group(1)))  # type: ignore[no-any-return]


def test_every_label_of_the_page_is_a_message_of_the_catalogue() -> None:
    labels = re.findall(r"\[\[(.+?)\]\]", (STATIC / "index.html").read_text(encoding="utf-8"))
    assert set(labels) == set(PAGE)


def test_every_word_the_scripts_say_is_given_to_them() -> None:
    used = {name for script in ("board.js", "table.js", "activity.js")
            for name in re.findall(r"\bwords\.(\w+)", (STATIC / script).read_text(encoding="utf-8"))}
    assert used and used <= set(script_words(translator("en")))


async def test_the_page_comes_in_the_readers_language_with_nothing_left_to_fill(table: Table) -> None:
    browser = await table.browser()
    pages = {}
    for language in ("en-GB,en;q=0.8", "de-DE,de;q=0.9,en;q=0.5"):
        response = await browser.client.get("/", headers={"Accept-Language": language})
        assert response.status == 200
        pages[language[:2]] = await response.text()
    english, german = pages["en"], pages["de"]
    for page in (english, german):
        assert "[[" not in page and "__" not in page
    assert '<html lang="en">' in english and '<html lang="de">' in german
    assert 'title="Undo (u)">Undo</button>' in english and 'title="Zurück (u)">Zurück</button>' in german
    assert '<option value="little-gate">Little Gate</option>' in german
    assert '<label>Spielnummer <input' in german and 'placeholder="beliebig"' in german
    words = served_words(german)
    assert words["suits"]["H"] == "Herz" and words["ranks"]["K"] == "König"
    assert words["pickedUp"] == {"one": "{card} aufgenommen: {n} möglicher Platz.",
                                 "other": "{card} aufgenommen: {n} mögliche Plätze."}
    assert served_words(english)["card"] == "{rank} of {suit}"
