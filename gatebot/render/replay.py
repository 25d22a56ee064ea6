"""A finished game watched again: its positions from its deal and move log, and an animated picture of them.

A game row keeps its deal, options and every action in order (moves in canonical notation,
an undo as its own token), so the game can be played back exactly as it went, undos
included. :func:`positions` replays a log into the positions one after another;
:func:`animate` draws them as the PNG board does, at a small scale, into one animated image
to share: an animated GIF by default (a won Gate deal is about 0.2 MB and half a second of
work), or animated WebP when asked for and this Pillow can write it. Both hold the same 128
colours, and each frame stores only the part of the board that changed; WebP's lossless
coding of those parts makes it about half the GIF's size, for half a second more encoding
(``benchmarks/replay_sizes.py``).

Like every drawing, this is pure: a log in, positions or bytes out, nothing read or
written. Each position is drawn as its player saw it, so no frame shows the stock's order
or a face-down card. Drawing is CPU work (about 10 ms a frame): call :func:`animate` off the
event loop (``asyncio.to_thread``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from PIL import Image, features

from gatebot.messages import ENGLISH, Language
from gatebot.render.boards import layout_board
from gatebot.render.image import draw_board
from gatebot.rules import Game, Move

#: The board's scale in a replay: about 455 px wide for Gate, small enough to share.
REPLAY_SCALE = 0.4
#: How long the deal is shown before the first move, each later position, and the end (ms).
FIRST_FRAME_MS = 1500
FRAME_MS = 450
LAST_FRAME_MS = 4000
#: At most this many frames in an animation: a longer game is shown by evenly spaced positions
#: (the deal and the end always among them), so its picture stays small and quick to draw.
MAX_FRAMES = 400
#: The colours of every frame: flat felt and cards need few, and fewer compress better.
COLOURS = 128
#: WebP's lossless effort (0-100) and method (0-6): beyond 50 and 2 the file barely shrinks
#: (under 1%) while encoding takes up to twice as long.
WEBP_EFFORT = 50
WEBP_METHOD = 2


@dataclass(frozen=True, slots=True)
class Animation:
    """An animated picture of a game: its bytes, its format (``webp`` or ``gif``) and what it holds."""

    data: bytes
    format: str
    frames: int
    size: tuple[int, int]

    @property
    def extension(self) -> str:
        """The file name's ending for this picture, without the dot."""
        return self.format

    @property
    def mime_type(self) -> str:
        return f"image/{self.format}"


def positions(start: Game, log: Iterable[str], *, undo_token: str) -> list[Game]:
    """Every position of a game from ``start`` through its ``log``, one a token, undos as they happened.

    ``start`` is the game as dealt (left unchanged); each token of ``log`` is a move in the
    notation or ``undo_token``, which takes the last move back. The first position is the
    deal, the last the game as it ended. Raises the rules' error (a
    :class:`~gatebot.rules.RulesError`, a ``ValueError``) for a log that can't be replayed.
    """
    game = start.copy()
    seen = [game.copy()]
    for token in log:
        if token == undo_token:
            if not game.moves:
                raise ValueError("the log takes back a move before any was played")
            game.undo()
        else:
            game.play(Move.from_text(token))
        seen.append(game.copy())
    return seen


def animate(
    games: Sequence[Game], *, scale: float = REPLAY_SCALE, image_format: str | None = None,
    language: Language = ENGLISH, label: str | None = None,
) -> Animation:
    """The animated picture of ``games`` (positions in order, as :func:`positions` gives them).

    Each position is drawn as the PNG board at ``scale``; positions that look the same one
    after another are one frame, shown as long as they were together. The first frame (the
    deal) and the last (the end) stay longer. ``image_format`` is ``gif`` (the default) or
    ``webp`` (when Pillow has it). Every frame has the size of the tallest board, so
    a column that grows doesn't move the rest. The boards' words are in ``language``; ``label``
    names the game in the deal's place.
    """
    if not games:
        raise ValueError("a replay needs at least one position")
    chosen = image_format or "gif"
    if chosen not in ("webp", "gif"):
        raise ValueError(f"a replay is a webp or a gif, not {chosen}")
    if chosen == "webp" and not features.check("webp"):
        raise ValueError("this Pillow can't write WebP")
    shown = _spread(games, MAX_FRAMES)
    layouts = [layout_board(game, scale, language, label=label) for game in shown]
    size = (max(layout.size[0] for layout in layouts), max(layout.size[1] for layout in layouts))
    frames: list[Image.Image] = []
    durations: list[int] = []
    previous = b""
    for index, layout in enumerate(layouts):
        image = draw_board(replace(layout, size=size), language=language)
        pixels = image.tobytes()
        if frames and pixels == previous:
            durations[-1] += FRAME_MS
            continue
        previous = pixels
        frames.append(image)
        durations.append(FIRST_FRAME_MS if index == 0 else FRAME_MS)
    durations[-1] = max(durations[-1], LAST_FRAME_MS)
    data = _encode(frames, durations, chosen)
    return Animation(data=data, format=chosen, frames=len(frames), size=size)


def frame_steps(count: int, most: int = MAX_FRAMES) -> list[int]:
    """Which of ``count`` positions a replay shows: every one, or ``most`` evenly spaced, the first and the last.

    The animation draws these, and the web's replay viewer steps through the same ones.
    """
    if count <= most:
        return list(range(count))
    last = count - 1
    return [round(step * last / (most - 1)) for step in range(most)]


def _spread(games: Sequence[Game], most: int) -> Sequence[Game]:
    """At most ``most`` of ``games``, evenly spaced, the first and the last among them."""
    return [games[step] for step in frame_steps(len(games), most)]


def _encode(frames: list[Image.Image], durations: list[int], image_format: str) -> bytes:
    """The frames as one animated picture, on one palette taken from the deal and the end, undithered.

    WebP is lossless over the same colours as the GIF, so both show exactly the same pixels;
    ``minimize_size`` stores each frame as the rectangle that changed, as GIF does.
    """
    width, height = frames[0].size
    both = Image.new("RGB", (width, 2 * height))
    both.paste(frames[0], (0, 0))
    both.paste(frames[-1], (0, height))
    palette = both.quantize(COLOURS, dither=Image.Dither.NONE)
    indexed = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    out = io.BytesIO()
    if image_format == "webp":
        flat = [frame.convert("RGB") for frame in indexed]
        flat[0].save(
            out, format="WEBP", save_all=True, append_images=flat[1:], duration=durations, loop=0,
            lossless=True, quality=WEBP_EFFORT, method=WEBP_METHOD, minimize_size=True,
        )
    else:
        indexed[0].save(
            out, format="GIF", save_all=True, append_images=indexed[1:], duration=durations, loop=0,
        )
    return out.getvalue()
