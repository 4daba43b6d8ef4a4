#!/usr/bin/env python3
"""Builds TnumTest.ttf, a tiny font for the tabular-figures test (needs fontTools).

Digits 1 and 8 are proportional by default (1 is 300 units wide, 8 is 600), and the
OpenType feature `tnum` substitutes a 600-unit-wide 1, so "11" and "88" have equal
advances only when tnum is on. No font on the build machine has a tnum feature, so
the test brings its own. Public domain (CC0-1.0), like the rest of this folder's
own files. Run: python3 make_tnum_test_font.py
"""
from fontTools.fontBuilder import FontBuilder
from fontTools.feaLib.builder import addOpenTypeFeaturesFromString
from fontTools.pens.ttGlyphPen import TTGlyphPen


def box(x0, y0, x1, y1):
    pen = TTGlyphPen(None)
    pen.moveTo((x0, y0))
    pen.lineTo((x0, y1))
    pen.lineTo((x1, y1))
    pen.lineTo((x1, y0))
    pen.closePath()
    return pen.glyph()


names = [".notdef", "one", "eight", "one.tnum", "H"]
fb = FontBuilder(1000, isTTF=True)
fb.setupGlyphOrder(names)
fb.setupCharacterMap({ord("1"): "one", ord("8"): "eight", ord("H"): "H"})
fb.setupGlyf({
    ".notdef": box(50, 0, 450, 700),
    "one": box(100, 0, 200, 700),
    "eight": box(100, 0, 500, 700),
    "one.tnum": box(250, 0, 350, 700),
    "H": box(100, 0, 500, 700),
})
fb.setupHorizontalMetrics({".notdef": (500, 50), "one": (300, 100), "eight": (600, 100),
                           "one.tnum": (600, 250), "H": (600, 100)})
fb.setupHorizontalHeader(ascent=800, descent=-200)
fb.setupNameTable({"familyName": "Tnum Test", "styleName": "Regular"})
fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200, sCapHeight=700, sxHeight=500)
fb.setupPost()
addOpenTypeFeaturesFromString(fb.font, "feature tnum { sub one by one.tnum; } tnum;")
fb.save("TnumTest.ttf")
