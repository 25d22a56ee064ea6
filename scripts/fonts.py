"""Cut the pictures' font, DejaVu Sans (regular and bold), down to the Latin script gatebot draws.

    python -m venv /tmp/fonttools && /tmp/fonttools/bin/pip install fonttools
    /tmp/fonttools/bin/python scripts/fonts.py [--source /usr/share/fonts/truetype/dejavu]

Every picture (board PNG, replay, result card) writes its words with the font in
``gatebot/render/fonts/``. The whole DejaVu Sans is 1.4 MB for two weights, mostly scripts and
symbols no picture draws; this keeps Basic Latin, Latin-1, Latin Extended-A (every European
language written in Latin letters, German's ä ö ü ß and ẞ among them), the punctuation and
symbols of :data:`UNICODES`, and the card suits, with the fonts' hinting (what keeps a 10 px
label sharp) and kerning, and the .notdef box (so a missing glyph shows as one, and the tests in
``tests/render/test_font.py`` can find it).

The source is Debian's ``fonts-dejavu-core`` 2.37 (the files are checked against
:data:`SOURCES`' SHA-256, so the output is the same bytes on every machine with the same
fontTools), whose licence, ``LICENSE`` beside the fonts, allows changed copies under a name
without "Bitstream", "Vera" or "Arev"; the family keeps its name, DejaVu Sans. fontTools is
needed only to run this script, never to install or run gatebot.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "gatebot" / "render" / "fonts"
#: Each source file (fonts-dejavu-core 2.37) with its SHA-256, and the name it ships under.
SOURCES = {
    "DejaVuSans.ttf": ("abdc775b21b1bc470d50c97e790d276f2054b7504e56e5bd3e64f48d68582322", "DejaVuSans-Latin.ttf"),
    "DejaVuSans-Bold.ttf": (
        "0d977336a6d5fba34eab8e3199eb218327161b5143749f802982c2bc34df0c96", "DejaVuSans-Bold-Latin.ttf"
    ),
}
#: The code points kept: ranges are inclusive.
UNICODES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x00FF),  # Latin-1 Supplement: ä ö ü ß, the middle dot, « », the no-break space
    (0x0100, 0x017F),  # Latin Extended-A: the rest of Europe's Latin letters
    (0x0218, 0x021B),  # Romanian's Ș ș Ț ț
    (0x02C6, 0x02C7),  # spacing circumflex and caron
    (0x02D8, 0x02DD),  # spacing breve, dot, ring, ogonek, tilde, double acute
    (0x1E9E, 0x1E9E),  # capital sharp s, ẞ
    (0x2000, 0x206F),  # General Punctuation: dashes, quotes, „ “, ellipsis, thin and narrow spaces
    (0x20AC, 0x20AC),  # euro sign
    (0x2122, 0x2122),  # trade mark sign
    (0x2190, 0x2193),  # arrows
    (0x2212, 0x2212),  # minus sign
    (0x25B6, 0x25B6),  # the play triangle some messages use
    (0x2660, 0x2667),  # card suits, black and white
)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def subset(source: Path, target: Path) -> None:
    """Write ``source`` cut to :data:`UNICODES` to ``target``, hinting, kerning and names kept."""
    from fontTools import subset as subsetting  # only this script needs fontTools
    from fontTools.ttLib import TTFont

    options = subsetting.Options()
    options.name_IDs = ["*"]  # the copyright and licence stay in the font
    options.name_languages = ["*"]
    options.notdef_outline = True  # a missing glyph draws a box, not nothing
    options.hinting = True
    # Pillow lays Latin out without shaping (gatebot.render.image_geometry.font), kerning from
    # the TrueType 'kern' table: that table stays, the OpenType layout tables go.
    options.legacy_kern = True
    options.layout_features = []
    options.drop_tables += ["FFTM", "MATH", "GDEF", "GPOS", "GSUB"]
    font = TTFont(source, recalcTimestamp=False)  # the source's dates: the same bytes every run
    subsetter = subsetting.Subsetter(options)
    subsetter.populate(unicodes=[code for first, last in UNICODES for code in range(first, last + 1)])
    subsetter.subset(font)
    font.save(target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=Path("/usr/share/fonts/truetype/dejavu"),
                        help="the folder holding DejaVuSans.ttf and DejaVuSans-Bold.ttf (fonts-dejavu-core 2.37)")
    args = parser.parse_args(argv)
    try:
        import fontTools  # noqa: F401
    except ImportError:
        print("This script needs fontTools: pip install fonttools (in a venv of its own).", file=sys.stderr)
        return 1
    for name, (digest, shipped) in SOURCES.items():
        source = args.source / name
        if not source.is_file() or sha256(source) != digest:
            print(f"{source} is not DejaVu 2.37's {name} (fonts-dejavu-core 2.37).", file=sys.stderr)
            return 1
        target = FONTS / shipped
        subset(source, target)
        print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes, sha256 {sha256(target)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
