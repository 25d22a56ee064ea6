"""A palette picture as PNG bytes, compressed in bands of rows so that a band a move left alone keeps its bytes.

Compressing is most of a board's CPU, and a move changes only some of a board's rows (a draw:
the header, the stock and the waste; a column's move: that column's rows). The picture's
rows are compressed in bands of :data:`BAND_ROWS`, each band by a compressor of its own that
ends on a full flush: the bands' bytes laid end to end are one valid deflate stream, since no
band refers back into another, so a band whose rows did not change is the kept band's bytes.
A band costs its compressor a fresh start (about 1-2% more bytes than one stream).

The bytes of a band depend on nothing but its rows and the level: the same picture, the same
PNG, whichever bands were kept. Python's own zlib does the work (Pillow's zlib-ng is a little
faster on a whole picture but cannot keep bands).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from PIL import Image

#: Rows in a band: two of the felt's bands (:data:`gatebot.render.image.FELT_BAND`), 18-37 KB of a
#: board's pixels, about the 32 KB deflate looks back over, so a band loses little by starting afresh.
BAND_ROWS = 32
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, a 32 KB window; (0x78 * 256 + 0x01) % 31 == 0
_LAST_BLOCK = zlib.compressobj(0, zlib.DEFLATED, -15).flush()  # an empty final block ends the stream
_ADLER_BASE = 65521


@dataclass(frozen=True, slots=True)
class Band:
    """One band's rows compressed (raw deflate ending on a full flush), their Adler-32 and length."""

    data: bytes
    adler: int
    length: int


def compressed_bands(
    board: Image.Image, level: int, kept: tuple[Band, ...] = (), changed: frozenset[int] | None = None
) -> tuple[Band, ...]:
    """``board``'s bands compressed at ``level``: ``kept``'s band where it is not in ``changed`` (None: all are)."""
    width, height = board.size
    pixels = board.tobytes()
    bands = []
    for number, top in enumerate(range(0, height, BAND_ROWS)):
        if changed is not None and number not in changed and number < len(kept):
            bands.append(kept[number])
            continue
        # Each row starts with its filter type, 0: none (a palette picture's indices are no gradient).
        rows = b"".join(b"\0" + pixels[y * width:(y + 1) * width] for y in range(top, min(height, top + BAND_ROWS)))
        compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
        bands.append(Band(compressor.compress(rows) + compressor.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows),
                          len(rows)))
    return tuple(bands)


def changed_bands(areas: list[tuple[int, int, int, int]]) -> frozenset[int]:
    """The bands holding a row of any of ``areas`` (left, top, right, bottom; bottom exclusive)."""
    return frozenset(number for area in areas for number in range(area[1] // BAND_ROWS, (area[3] - 1) // BAND_ROWS + 1))


def png_bytes(board: Image.Image, bands: tuple[Band, ...]) -> bytes:
    """The PNG of palette picture ``board`` (8 bits a pixel, its palette whole), its image data ``bands``."""
    width, height = board.size
    palette = bytes(board.getpalette() or [])
    adler = 1
    for band in bands:
        adler = adler32_combine(adler, band.adler, band.length)
    stream = b"".join((_ZLIB_HEADER, *(band.data for band in bands), _LAST_BLOCK, struct.pack(">I", adler)))
    return b"".join((_SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", palette), _chunk(b"IDAT", stream), _chunk(b"IEND", b"")))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's and the second's length (zlib's own)."""
    remainder = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (remainder * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - remainder) % _ADLER_BASE
    return low | (high << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
