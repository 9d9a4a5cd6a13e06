"""
Builds public/fonts/rinnova-kana.woff: a one-glyph font with the katakana ツ (U+30C4), drawn
here, so the spec's empty-list text 'Ancora niente qui ¯\\_(ツ)_/¯' never shows a missing-glyph
box on machines without a Japanese font. index.css loads it with unicode-range U+30C4 only.

Run: python3 scripts/fonts/make-kana-font.py   (needs `pip install fonttools`)
"""
import math
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

UPM = 1000


def stroke(pen, points, width):
    """A polyline as a filled outline of the given width (round-ish joins are not needed at this size)."""
    left, right = [], []
    for i, (x, y) in enumerate(points):
        if i == 0:
            dx, dy = points[1][0] - x, points[1][1] - y
        elif i == len(points) - 1:
            dx, dy = x - points[i - 1][0], y - points[i - 1][1]
        else:
            dx, dy = points[i + 1][0] - points[i - 1][0], points[i + 1][1] - points[i - 1][1]
        n = math.hypot(dx, dy) or 1
        nx, ny = -dy / n * width / 2, dx / n * width / 2
        left.append((round(x + nx), round(y + ny)))
        right.append((round(x - nx), round(y - ny)))
    outline = left + right[::-1]
    pen.moveTo(outline[0])
    for p in outline[1:]:
        pen.lineTo(p)
    pen.closePath()


def curve(p0, p1, p2, steps=10):
    """Points of a quadratic Bézier."""
    return [
        (
            (1 - t) ** 2 * p0[0] + 2 * (1 - t) * t * p1[0] + t**2 * p2[0],
            (1 - t) ** 2 * p0[1] + 2 * (1 - t) * t * p1[1] + t**2 * p2[1],
        )
        for t in (i / steps for i in range(steps + 1))
    ]


def tsu_glyph():
    pen = TTGlyphPen(None)
    w = 78
    # Two short ticks, leaning right-down, and the long sweep from upper right to lower left.
    stroke(pen, [(170, 610), (250, 470)], w)
    stroke(pen, [(380, 650), (450, 510)], w)
    stroke(pen, curve((800, 660), (760, 120), (250, 0), 12), w)
    return pen.glyph()


def empty_glyph():
    return TTGlyphPen(None).glyph()


def main():
    fb = FontBuilder(UPM, isTTF=True)
    names = [".notdef", "tsu"]
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({0x30C4: "tsu"})
    fb.setupGlyf({".notdef": empty_glyph(), "tsu": tsu_glyph()})
    fb.setupHorizontalMetrics({".notdef": (500, 0), "tsu": (1000, 60)})
    fb.setupHorizontalHeader(ascent=880, descent=-120)
    fb.setupNameTable({"familyName": "Rinnova Kana", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=880, sTypoDescender=-120, usWinAscent=880, usWinDescent=120)
    fb.setupPost()
    fb.font.flavor = "woff"
    out = Path(__file__).resolve().parents[2] / "public" / "fonts" / "rinnova-kana.woff"
    fb.save(str(out))
    print(out, out.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
