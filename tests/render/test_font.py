"""The pictures' font: every word any picture draws, in every language, has its glyph, and stays legible.

A board PNG, a replay and a result card write their words with the font shipped in
``gatebot/render/fonts/`` (DejaVu Sans cut to Latin by ``scripts/fonts.py``). A character the font
lacks is drawn as its .notdef box (``30 Z□ge``), so each character is checked by drawing it and
comparing with what the font draws for a code point it can't have. The words come from two
places: the message catalogue, every message in English and in every translation; and what the
drawing code really passes to Pillow while it draws boards of every variant, replays and result
cards in every language (titles, options, counts, ranks, challenge names and durations too).

Legibility is checked where Discord shows pictures smallest, a replay (``REPLAY_SCALE``, 455 px
for Gate): each label's closed counters are counted in the drawn pixels and must be the letters'
own (an S has none and an 8 has two: a stroke-thickened S that closes up reads as 8), and no text
runs off the picture or into another.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections import deque
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from PIL import Image, ImageDraw, ImageFont

from gatebot.locale import translator
from gatebot.render.boards import layout_board
from gatebot.render.card import DEALT, ResultCard
from gatebot.render.card_image import render_card_png
from gatebot.render.image import draw_board, render_png
from gatebot.render.image_geometry import Layout, font, slot_note
from gatebot.render.replay import REPLAY_SCALE, animate, positions
from gatebot.rules import Game
from gatebot.service.challenges.daily import daily_name
from tests.lines import LOST_DEAL_10, WIN_DEAL_1
from tests.render.playouts import variant_playout

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "gatebot" / "locale"
LANGUAGES = ["en", *sorted(path.name for path in LOCALE.iterdir() if (path / "LC_MESSAGES").is_dir())]
#: A private-use code point: no font of ours has it, so it draws the font's .notdef box.
NOTDEF = "\ue000"
#: Each variant with every option it can have at once (its title then lists them).
OPTIONS = {"gate": ("single-moves", "stock-fill"), "little-gate": ("single-moves",),
           "canfield": ("draw-one", "passes-2", "partial-moves"), "archway": ("kit",)}
#: A name a player could give a challenge, in letters of several European languages.
PLAYER_NAME = "Coupe d’Été – Łódź, Ørsted & Şişli «Ü»"


def drawn(face: ImageFont.FreeTypeFont, char: str) -> tuple[float, tuple[int, int, int, int], bytes]:
    """What ``face`` draws for ``char``: its advance, its ink box and its pixels."""
    left, top, right, bottom = face.getbbox(char)
    image = Image.new("L", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(image).text((-left, -top), char, font=face, fill=255)
    return face.getlength(char), (left, top, right, bottom), image.tobytes()


def missing(face: ImageFont.FreeTypeFont, text: str) -> set[str]:
    """The characters of ``text`` that ``face`` draws as its .notdef box."""
    box = drawn(face, NOTDEF)
    return {char for char in set(text) if unicodedata.category(char) != "Cc" and drawn(face, char) == box}


def test_the_check_finds_a_missing_glyph_where_pillows_own_font_has_none() -> None:
    """Pillow's bundled font, which the pictures used to draw with, has no ü: the check sees it."""
    assert missing(ImageFont.load_default(size=20), "30 Züge · 1 Rücknahme") == {"ü"}
    assert missing(font(20), "30 Züge · 1 Rücknahme") == set()
    assert missing(font(20), "漢😀") == {"漢", "😀"}


def catalogue_texts() -> Iterator[tuple[str, str]]:
    """Every message of the catalogue, as (language, text): the English and each translation, every plural form."""
    for language in LANGUAGES[1:]:
        with (LOCALE / language / "LC_MESSAGES" / "gatebot.po").open("rb") as po:
            for message in read_po(po):
                for text in (message.id, message.string):
                    for form in (text,) if isinstance(text, str) else text:
                        if form:
                            yield language, form


@pytest.mark.parametrize("bold", [False, True])
def test_every_message_in_every_language_has_its_glyphs(bold: bool) -> None:
    """Pictures draw their words from the catalogue: every character of every message is in the font."""
    face = font(24, bold=bold)
    texts = list(catalogue_texts())
    assert len(texts) > 1000 and any("ü" in text for _, text in texts)
    characters = "".join(text for _, text in texts)
    lacking = missing(face, characters)
    assert not lacking, {char: [text for _, text in texts if char in text][:3] for char in lacking}


def positions_to_draw(variant: str) -> list[Game]:
    """The deal, with and without options, and positions along a random game, for one variant."""
    games = [Game.new(variant, deal=4), Game.new(variant, deal=4, options=OPTIONS[variant])]
    games += variant_playout(variant, OPTIONS[variant], seed=7, moves=40)[1:]
    return games


def ended() -> list[Game]:
    """A won and a lost game of Gate: the board's header words its result."""
    won, lost = Game.new("gate", deal=1), Game.new("gate", deal=10)
    for step in WIN_DEAL_1:
        won.play(step)
    for step in LOST_DEAL_10:
        lost.play(step)
    return [won, lost]


def labels(language: str) -> list[str | None]:
    """What names a game in the deal's place: nothing, a daily challenge's name as said in ``language``, a player's."""
    say = translator(language)
    return [None, *(say.say(daily_name(date(2026, month, 5))) for month in (3, 5, 10, 12)), PLAYER_NAME]


def result_cards() -> Iterator[ResultCard]:
    """Result cards of every shape the counts line and header can take: none, one, many; won, lost; named."""
    ascents = tuple(tuple([DEALT, *range(1, 10), None, None, None]) for _ in range(4))
    for (won, challenge, options), (count, seconds) in itertools.product(
        ((True, None, ()), (False, PLAYER_NAME, ("single-moves",))), ((0, None), (1, 372), (5, 4000))
    ):
        yield ResultCard(title="Little Gate", deal=617, won=won, score=52 if won else 30, moves=count, hints=count,
                         undos=count, seconds=seconds, ascents=ascents, steps=20, options=options,
                         challenge=challenge)


def test_every_string_a_picture_draws_has_its_glyphs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards of every variant, a replay and result cards, in every language: every string Pillow is given."""
    seen: list[tuple[str, ImageFont.FreeTypeFont]] = []
    original = ImageDraw.ImageDraw.text

    def record(self: ImageDraw.ImageDraw, xy: object, text: str, *args: object, **kwargs: object) -> None:
        face = kwargs.get("font")
        assert isinstance(face, ImageFont.FreeTypeFont), f"{text!r} is drawn without the pictures' font"
        seen.append((text, face))
        original(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    for language in LANGUAGES:
        say = translator(language)
        games = [game for variant in OPTIONS for game in positions_to_draw(variant)] + ended()
        for game, label in zip(games, itertools.cycle(labels(language)), strict=False):
            draw_board(layout_board(game, 0.5, say, label=label), language=say)  # the words are the same at any scale
        render_png(Game.new("archway", deal=3), scale=REPLAY_SCALE, language=say)
        start = Game.new("gate", deal=1)
        animate(positions(start, WIN_DEAL_1[:3], undo_token="u"), language=say, label=labels(language)[1])
        for card in result_cards():
            render_card_png(card, say)
    monkeypatch.undo()

    words = " ".join(text for text, _ in seen)
    for german in ("Züge", "Rücknahme", "früh", "März", "Gewonnen!", "möglich", "darunter"):
        assert german in words, f"no picture drew {german!r}"
    lacking = {(text, char) for text, face in set(seen) for char in missing(face, text)}
    assert not lacking, sorted(lacking)


def text_boxes(layout: Layout) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Each text of a board with the box its ink takes, in the weight it is drawn in."""
    boxes = []
    for text in layout.texts:
        x0, y0, x1, y1 = font(text.size, bold=text.role == "title").getbbox(text.text, anchor=text.anchor)
        boxes.append((text.text, (text.xy[0] + x0, text.xy[1] + y0, text.xy[0] + x1, text.xy[1] + y1)))
    return boxes


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scale", [1.0, REPLAY_SCALE])
def test_no_text_runs_off_the_picture_or_into_another(language: str, scale: float) -> None:
    say = translator(language)
    for game in [Game.new(variant, deal=4, options=OPTIONS[variant]) for variant in OPTIONS] + ended():
        for label in (None, PLAYER_NAME):
            layout = layout_board(game, scale, say, label=label)
            boxes = text_boxes(layout)
            width, height = layout.size
            for text, (left, top, right, bottom) in boxes:
                assert left >= 0 and top >= 0 and right <= width and bottom <= height, (game.title, text)
            for (one, a), (other, b) in itertools.combinations(boxes, 2):
                assert not overlap(a, b), (game.title, one, other)


#: Closed counters (holes) of each character the pictures write; every other character has none.
RINGS = dict.fromkeys("ADOPQRabdegopqäö0469", 1) | dict.fromkeys("B8", 2)


def rings(image: Image.Image, box: tuple[int, int, int, int], light: bool = True) -> int:
    """How many closed counters the text in ``box`` shows: background regions that ink surrounds.

    A pixel is ink when it is 40% of the way from the box's background to the text's own
    lightness (text lighter than its background when ``light``); a counter that anti-aliasing
    or a thick stroke fills in, or that two letters run together to make, changes the count.
    """
    crop = image.crop(box).convert("L")
    low, high = crop.getextrema()
    cut = low + (high - low) * 0.4 if light else high - (high - low) * 0.4
    width, height = crop.size
    pixels = crop.load()
    ink = [[(pixels[x, y] >= cut) == light for x in range(width)] for y in range(height)]
    seen = [[False] * width for _ in range(height)]
    count = 0
    for y, x in itertools.product(range(height), range(width)):
        if ink[y][x] or seen[y][x]:
            continue
        seen[y][x], queue, closed = True, deque([(x, y)]), True
        while queue:
            cx, cy = queue.popleft()
            closed &= 0 < cx < width - 1 and 0 < cy < height - 1
            for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                if 0 <= nx < width and 0 <= ny < height and not seen[ny][nx] and not ink[ny][nx]:
                    seen[ny][nx] = True
                    queue.append((nx, ny))
        count += closed
    return count


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_label_of_a_replay_keeps_its_letters_shapes(language: str) -> None:
    """At a replay's size the header, every badge, caption and the stock's count read as their letters."""
    say = translator(language)
    labels_seen: set[str] = set()
    for game in [Game.new(variant, deal=deal) for variant in OPTIONS for deal in (1, 4)]:
        layout = layout_board(game, REPLAY_SCALE, say)
        image = draw_board(layout, language=say)
        m = layout.metrics
        checked = [(text, box) for text, box in text_boxes(layout)]
        for badge in layout.badges:
            centre = ((badge.box[0] + badge.box[2]) // 2, (badge.box[1] + badge.box[3]) // 2)
            x0, y0, x1, y1 = font(m.badge_font, bold=True).getbbox(badge.text, anchor="mm")
            checked.append((badge.text, (centre[0] + x0, centre[1] + y0, centre[0] + x1, centre[1] + y1)))
        for text, box in checked:
            assert rings(image, box) == sum(RINGS.get(char, 0) for char in text), (game.title, text)
        labels_seen.update(text for text, _ in checked)
    assert {"S", "8", "W", "3", "5"} <= labels_seen


def test_the_stock_count_and_an_empty_place_read_at_a_replays_size() -> None:
    """The stock's count (dark on a white pill) and ``leer`` in an empty place keep their shapes too."""
    say = translator("de")
    layout = layout_board(Game.new("gate", deal=1), REPLAY_SCALE, say)
    image = draw_board(layout, language=say)
    m = layout.metrics
    [back] = layout.backs
    centre = ((back[0] + back[2]) // 2, (back[1] + back[3]) // 2)
    count = str(layout.stock_count)
    x0, y0, x1, y1 = font(m.header_font, bold=True).getbbox(count, anchor="mm")
    assert rings(image, (centre[0] + x0, centre[1] + y0, centre[0] + x1, centre[1] + y1), light=False) == sum(
        RINGS.get(char, 0) for char in count)
    [waste] = [place for place in layout.slots if place.pile == "W"]
    note = slot_note(waste, say)
    centre = ((waste.box[0] + waste.box[2]) // 2, (waste.box[1] + waste.box[3]) // 2)
    x0, y0, x1, y1 = font(m.caption_font).getbbox(note, anchor="mm")
    assert note == "leer"
    assert rings(image, (centre[0] + x0, centre[1] + y0, centre[0] + x1, centre[1] + y1)) == 2


def test_the_font_is_dejavu_sans_under_its_own_name_with_its_licence_beside_it() -> None:
    """DejaVu's licence lets a changed copy ship under any name without Bitstream, Vera or Arev in it."""
    assert font(12).getname() == ("DejaVu Sans", "Book") and font(12, bold=True).getname() == ("DejaVu Sans", "Bold")
    licence = (ROOT / "gatebot" / "render" / "fonts" / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream Vera Fonts Copyright" in licence and "Arev Fonts Copyright" in licence
    assert not any(word in font(12).getname()[0] for word in ("Bitstream", "Vera", "Arev"))
