"""Previews of one mid-game Gate board in every style, laid out as Discord lays a message out.

There is no Discord client to take screenshots with, so this draws the exact message the bot
sends (the same render functions, the same code block, the same embed) with Pillow and the
DejaVu fonts, at the two widths that matter: a desktop message column of 700 px and a phone
screen of 380 px (:mod:`gatebot.render.phone` says how much of it a code block leaves).
Lines wrap where a client wraps them (at a space, else inside a word), so a board too wide
for a phone shows here broken the way it breaks there. Emoji are drawn as coloured boxes
and DejaVu glyphs, not Discord's emoji font: those pictures say "approximate".

    python docs/previews.py            # writes docs/images/preview-*.png and phone-*.png, prints each message's size
    python docs/previews.py --out DIR

The pictures and what they show are discussed in docs/boards.md.
"""

from __future__ import annotations

import argparse
import io
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from gatebot.render import render_emoji, render_png, render_spoken, render_text
from gatebot.render.image import PHONE_SCALE
from gatebot.render.phone import PHONE_CHAR_PX, PHONE_CODE_PX, PHONE_SCREEN_PX
from gatebot.rules import Game

FONTS = Path("/usr/share/fonts/truetype/dejavu")
#: Discord's dark theme: the chat, a code block or embed, the text, muted text, a code span.
BACKGROUND = (0x31, 0x33, 0x38)
BLOCK = (0x2B, 0x2D, 0x31)
TEXT = (0xDB, 0xDE, 0xE1)
MUTED = (0x94, 0x9B, 0xA4)
CODE_SPAN = (0x1E, 0x1F, 0x22)
EMBED_BAR = (0x1F, 0x8B, 0x4C)
CODE_PADDING = 8
#: What the bot writes under a board after a move.
NOTE = "Drew J♥."


@dataclass(frozen=True, slots=True)
class Device:
    """A client's message column: where text starts and ends, and its font sizes in pixels."""

    name: str
    width: int  # the window's (desktop) or the screen's (phone) width
    left: int  # the avatar's gutter: where a message's text starts
    right: int  # the margin after it
    text_px: int
    code_px: int
    emoji_px: int
    image_max: int  # the widest an embed's image is shown

    @property
    def content(self) -> int:
        """The width a message's text may take."""
        return self.width - self.left - self.right


DESKTOP = Device("desktop", 700, 72, 16, text_px=16, code_px=14, emoji_px=22, image_max=400)
# 380 - 68 - 16 = 296 px for text, 280 px inside a code block's 8 px paddings; 13 px DejaVu Sans
# Mono advances 7.8 px a character (gatebot.render.phone).
PHONE = Device("phone", PHONE_SCREEN_PX, 68, 16, text_px=15, code_px=13, emoji_px=20, image_max=264)
assert PHONE.content - 2 * CODE_PADDING == PHONE_CODE_PX


def font(size: int, *, mono: bool = False, bold: bool = False, italic: bool = False) -> ImageFont.FreeTypeFont:
    family = "DejaVuSansMono" if mono else "DejaVuSans"
    style = "-Bold" if bold else "-Oblique" if italic and not mono else ""
    return ImageFont.truetype(str(FONTS / f"{family}{style}.ttf"), size)


def mid_game() -> Game:
    """Deal 104 of Gate 60 moves into a seeded random game that builds more than it draws.

    Its longest column holds 12 cards: the normal board's widest row is 50 characters, as a
    board is once a game is under way.
    """
    game = Game.new("gate", deal=104)
    rng = random.Random(17)
    for _ in range(60):
        legal = game.legal_moves()
        if not legal:
            break
        up = [move for move in legal if move.target == "f"]
        builds = [move for move in legal if not move.is_draw]
        game.push(up[0] if up else rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal))
    return game


# -- wrapping, as a client does -----------------------------------------------------------------


def wrap(line: str, width: float, measure: ImageFont.FreeTypeFont) -> list[str]:
    """``line`` broken to fit ``width`` px: at the last space that fits, else inside a word."""
    pieces: list[str] = []
    rest = line
    while measure.getlength(rest) > width:
        cut = len(rest)
        while cut > 1 and measure.getlength(rest[:cut]) > width:
            cut -= 1
        space = rest.rfind(" ", 0, cut + 1)
        if space > 0:
            pieces.append(rest[:space])
            rest = rest[space + 1:]
        else:
            pieces.append(rest[:cut])
            rest = rest[cut:]
    return [*pieces, rest]


def code_lines(board: str, device: Device) -> list[str]:
    """The lines a code block of ``board`` shows on ``device``: each board line, wrapped."""
    mono = font(device.code_px, mono=True)
    inside = device.content - 2 * CODE_PADDING
    return [piece for line in board.split("\n") for piece in wrap(line, inside, mono)]


# -- the message's parts ------------------------------------------------------------------------

#: Emoji the boards use, drawn as a box: regional letters, keycaps, 🔟 and coloured squares.
_SQUARES = {"🟦": (0x55, 0xAC, 0xEE), "🟩": (0x78, 0xB1, 0x59), "🟨": (0xFD, 0xCB, 0x58),
            "🟧": (0xF4, 0x90, 0x0C), "⬛": (0x31, 0x37, 0x3D), "⬜": (0xE6, 0xE7, 0xE8)}
_EMOJI = re.compile(r"[\U0001F1E6-\U0001F1FF]|[0-9]\ufe0f?\u20e3|🔟|[♦♥]\ufe0f|" + "|".join(_SQUARES))


@dataclass(slots=True)
class Pen:
    """Draws runs of message text left to right, wrapping at spaces within the device's column."""

    image: Image.Image
    device: Device
    y: int
    draw: ImageDraw.ImageDraw = field(init=False)
    line_height: int = field(init=False)

    def __post_init__(self) -> None:
        self.draw = ImageDraw.Draw(self.image)
        self.line_height = round(self.device.emoji_px * 1.25)

    def paragraph(self, text: str) -> None:
        """One line of a message (markdown: ``**bold**``, ``*italic*``, ```code```; emoji as boxes)."""
        words = re.split(r"([ \u2002])", text)
        x = self.device.left
        bold = italic = code = False
        for word in words:
            if word in (" ", "\u2002"):
                x += round(font(self.device.text_px).getlength(" "))
                continue
            runs, bold, italic, code = self._runs(word, bold, italic, code)
            width = sum(self._width(run) for run in runs)
            if x + width > self.device.width - self.device.right and x > self.device.left:
                x, self.y = self.device.left, self.y + self.line_height
            for run in runs:
                x = self._draw(run, x)
        self.y += self.line_height

    def _runs(self, word: str, bold: bool, italic: bool, code: bool) -> tuple[list[tuple[str, str]], bool, bool, bool]:
        runs: list[tuple[str, str]] = []
        for part in re.split(r"(\*\*|\*|`)", word.replace("\u2060", "")):
            if part == "**":
                bold = not bold
            elif part == "*":
                italic = not italic
            elif part == "`":
                code = not code
            elif part:
                kind = "code" if code else "bold" if bold else "italic" if italic else "text"
                last = 0
                for match in _EMOJI.finditer(part):
                    if match.start() > last:
                        runs.append((kind, part[last:match.start()]))
                    runs.append(("emoji", match.group()))
                    last = match.end()
                if last < len(part):
                    runs.append((kind, part[last:].replace("\ufe0f", "")))
        return runs, bold, italic, code

    def _font(self, kind: str) -> ImageFont.FreeTypeFont:
        if kind == "code":
            return font(self.device.code_px, mono=True)
        return font(self.device.text_px, bold=kind == "bold", italic=kind == "italic")

    def _width(self, run: tuple[str, str]) -> int:
        kind, text = run
        if kind == "emoji":
            return self.device.emoji_px + 2
        return round(self._font(kind).getlength(text)) + (6 if kind == "code" else 0)

    def _draw(self, run: tuple[str, str], x: int) -> int:
        kind, text = run
        size = self.device.emoji_px
        top = self.y + (self.line_height - size) // 2
        if kind == "emoji":
            box = (x + 1, top, x + 1 + size, top + size)
            if text in _SQUARES:
                self.draw.rounded_rectangle(box, 3, fill=_SQUARES[text])
            elif text[0] in "♦♥":
                self.draw.text((x + 1 + size // 2, top + size // 2), text[0], font=font(size),
                               fill=(0xDD, 0x2E, 0x44), anchor="mm")
            else:
                label = "10" if text == "🔟" else text[0] if text[0].isdigit() else chr(ord(text) - 0x1F1E6 + 65)
                self.draw.rounded_rectangle(box, 4, fill=(0x3B, 0x88, 0xC3) if text[0] > "z" else (0x8A, 0x93, 0x9B))
                self.draw.text((x + 1 + size // 2, top + size // 2), label, font=font(size * 6 // 10, bold=True),
                               fill=(255, 255, 255), anchor="mm")
            return x + size + 2
        face = self._font(kind)
        if kind == "code":
            width = round(face.getlength(text)) + 6
            self.draw.rounded_rectangle((x, top + 1, x + width, top + size - 1), 3, fill=CODE_SPAN)
            self.draw.text((x + 3, self.y + self.line_height // 2), text, font=face, fill=TEXT, anchor="lm")
            return x + width
        self.draw.text((x, self.y + self.line_height // 2), text, font=face, fill=TEXT, anchor="lm")
        return x + round(face.getlength(text))

    def code_block(self, board: str) -> int:
        """A code block of ``board``, wrapped as a client wraps it; returns how many lines it shows."""
        mono = font(self.device.code_px, mono=True)
        lines = code_lines(board, self.device)
        step = round(self.device.code_px * 1.35)
        box = (self.device.left, self.y, self.device.width - self.device.right,
               self.y + 2 * CODE_PADDING + step * len(lines))
        self.draw.rounded_rectangle(box, 4, fill=BLOCK, outline=CODE_SPAN)
        for i, line in enumerate(lines):
            self.draw.text((box[0] + CODE_PADDING, box[1] + CODE_PADDING + i * step), line, font=mono, fill=TEXT)
        self.y = box[3] + 4
        return len(lines)

    def embed_image(self, png: bytes, line: str) -> None:
        """An embed: a coloured bar, the line as its description, the board picture scaled to fit."""
        picture = Image.open(io.BytesIO(png)).convert("RGB")
        room = min(self.device.image_max, self.device.content - 32)
        shown = picture.resize((room, round(picture.height * room / picture.width)), Image.Resampling.LANCZOS)
        text_font = font(self.device.text_px - 1)
        height = 16 + self.line_height + 8 + shown.height + 16
        box = (self.device.left, self.y, self.device.left + room + 32, self.y + height)
        self.draw.rounded_rectangle(box, 4, fill=BLOCK)
        self.draw.rectangle((box[0], box[1], box[0] + 3, box[3]), fill=EMBED_BAR)
        self.draw.text((box[0] + 16, box[1] + 16), line, font=text_font, fill=TEXT)
        self.image.paste(shown, (box[0] + 16, box[1] + 16 + self.line_height + 8))
        self.y = box[3] + 4


# -- one picture per style and device -----------------------------------------------------------


def preview(style: str, device: Device, game: Game | None = None) -> Image.Image:
    """The board message of ``style`` (text, text-compact, emoji, emoji-compact, image, words) on ``device``."""
    game = game or mid_game()
    image = Image.new("RGB", (device.width, 2400), BACKGROUND)
    draw = ImageDraw.Draw(image)
    caption = f"{style} board · {device.name}, {device.width} px · drawn from the message text, not a screenshot"
    if style.startswith("emoji"):
        caption += " · emoji approximate"
    pen = Pen(image, device, 8)
    for piece in wrap(caption, device.width - 16, font(11)):
        draw.text((8, pen.y), piece, font=font(11), fill=MUTED)
        pen.y += 14
    pen.y += 10
    draw.ellipse((16, pen.y, 16 + 40, pen.y + 40), fill=EMBED_BAR)
    draw.text((device.left, pen.y + 2), "gatebot", font=font(device.text_px, bold=True), fill=(255, 255, 255))
    pen.y += device.text_px + 10
    compact = style.endswith("compact")
    if style.startswith("text"):
        pen.code_block(render_text(game, compact=compact))
        pen.paragraph(NOTE)
    elif style.startswith("emoji"):
        for line in render_emoji(game, compact=compact).split("\n"):
            if line:
                pen.paragraph(line)
            else:
                pen.y += pen.line_height // 2  # a blank line between a message's paragraphs
        pen.paragraph(NOTE)
    elif style.startswith("image"):
        pen.embed_image(picture(game, compact=compact), NOTE)
    else:
        for line in render_spoken(game).split("\n"):
            pen.paragraph(line)
        pen.paragraph(NOTE)
    return image.crop((0, 0, device.width, pen.y + 12))


def message_bytes(style: str, game: Game) -> int:
    """What one board message of ``style`` uploads: its content, or for the image board its PNG."""
    compact = style.endswith("compact")
    if style.startswith("text"):
        return len(f"```\n{render_text(game, compact=compact)}\n```\n{NOTE}".encode())
    if style.startswith("emoji"):
        return len(f"{render_emoji(game, compact=compact)}\n{NOTE}".encode())
    if style.startswith("image"):
        return len(picture(game, compact=style.endswith("compact")))
    return len(f"{render_spoken(game)}\n{NOTE}".encode())


def picture(game: Game, *, compact: bool) -> bytes:
    """The image board's PNG as the bot draws it: the phone board for a compact layout, else the wide one."""
    return render_png(game, scale=PHONE_SCALE, phone=True) if compact else render_png(game)


#: The width a phone shows a board picture at, for the before and after pictures (docs/boards.md).
PHONE_PICTURE_PX = 320


def at_phone_width(png: bytes) -> Image.Image:
    """A board picture scaled to :data:`PHONE_PICTURE_PX` wide, as a phone shows it."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    return board.resize((PHONE_PICTURE_PX, round(board.height * PHONE_PICTURE_PX / board.width)),
                        Image.Resampling.LANCZOS)


STYLES = ("text", "text-compact", "emoji", "emoji-compact", "image", "image-compact", "words")


def save(image: Image.Image, path: Path) -> int:
    """Write ``image`` as a 64-colour palette PNG (text on flat colours needs no more); its size."""
    image.quantize(64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
    return path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "images")
    args = parser.parse_args()
    game = mid_game()
    print(f"deal {game.deal} of Gate after {len(game.moves)} moves; phone code font {PHONE_CHAR_PX} px a character")
    for style in STYLES:
        sizes = []
        for device in (DESKTOP, PHONE):
            if style.endswith("compact") and device is DESKTOP:
                continue
            size = save(preview(style, device, game), args.out / f"preview-{style}-{device.name}.png")
            sizes.append(f"{device.name} preview {size / 1000:.1f} KB")
        print(f"{style:14} message {message_bytes(style, game) / 1000:.2f} KB · " + " · ".join(sizes))
    for name, compact in (("phone-before", False), ("phone-after", True)):
        shown = at_phone_width(picture(game, compact=compact))
        shown.quantize(128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
            args.out / f"{name}.png", optimize=True
        )
        print(f"{name}: the {'phone' if compact else 'wide'} board at {shown.width}×{shown.height} px")


if __name__ == "__main__":
    main()
