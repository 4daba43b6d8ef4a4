#!/usr/bin/env python3
"""Builds the bitmap and colour-layer fixture fonts in Fixtures/fonts/bitmap/ (fontTools).

Every font here is DejaVu Sans Bold (Sources/CBundledFont/DejaVuSans-Bold.ttf, under
the licence in Sources/CBundledFont/LICENSE) cut down to the glyphs of "0123456789+H"
plus one glyph, "emoji", mapped from U+1F600 (😀), and given a colour table. sbix,
CBLC and CBDT are written byte by byte here, so a malformed one is exactly as
malformed as intended; COLR and CPAL come from fontTools' colorLib.

  sbix-good.ttf              sbix, one 32 ppem strike, a real 32 x 32 PNG (a red disc)
                             for the emoji glyph: a well-formed sbix font (Debian ships
                             none).
  cbdt-good.ttf              CBLC/CBDT, one 32 ppem strike, the same PNG, image format 17.
  colr-good.ttf              COLR v0/CPAL: the emoji glyph (a 1 em square) in 3 layers
                             of glyph H.
  sbix-huge-png.ttf          sbix whose emoji PNG claims 16000 x 16000 in its IHDR (no
                             pixel data: FreeType allocates as soon as it reads IHDR).
  cbdt-huge-png.ttf          CBDT image format 17 whose PNG claims 16000 x 16000.
  cbdt-huge-png-19.ttf       CBDT image format 19 (metrics in CBLC index format 2), same.
  sbix-magnified.ttf         sbix: a 1 ppem strike holding a 255 x 255 image, which Cairo
                             scales by text size / ppem.
  cbdt-magnified.ttf         CBLC/CBDT: the same, image format 17.
  sbix-strike-past-end.ttf   sbix whose strike offset points past the table's end.
  sbix-glyph-past-end.ttf    sbix whose last glyph data offset points past the table.
  sbix-many-strikes.ttf      sbix claiming 0xFFFFFFFF strikes in a short table.
  cblc-subtable-past-end.ttf CBLC whose index subtable array lies past the table.
  cbdt-glyph-past-end.ttf    CBLC pointing at glyph data past the end of CBDT.
  colr-many-layers.ttf       COLR: the emoji glyph in 2000 layers.
  colr-huge-layer.ttf        COLR: 2 layers of a square 1875 em a side (16 units per em).
  ebdt-compound.ttf          EBLC/EBDT, one 12 ppem strike: every glyph but the last a
                             compound (image format 8) of 64 copies of the next, the
                             last a 1 x 1 bitmap: 64^10 draws for "1".

Run from anywhere: python3 Fixtures/fonts/make-hostile-fonts.py (fontTools 4.x; made
with 4.68.0). The tests read only the committed .ttf files: neither the build nor the
tests need Python.
"""
import os
import struct
import zlib

from fontTools import subset
from fontTools.colorLib.builder import buildCOLR, buildCPAL
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont
from fontTools.ttLib.tables._c_m_a_p import cmap_format_12
from fontTools.ttLib.tables.DefaultTable import DefaultTable

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEJAVU = os.path.join(ROOT, "Sources", "CBundledFont", "DejaVuSans-Bold.ttf")
OUT = os.path.join(HERE, "bitmap")
EMOJI = 0x1F600


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, pixels=True):
    """A PNG, RGBA 8 bit. With pixels, a filled circle; without, IHDR only claims the size."""
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    if pixels:
        rows = bytearray()
        for y in range(height):
            rows.append(0)
            for x in range(width):
                dx, dy = x - width / 2 + 0.5, y - height / 2 + 0.5
                inside = dx * dx + dy * dy <= (width / 2 - 1) ** 2
                rows += bytes([230, 60, 20, 255]) if inside else bytes(4)
        out += chunk(b"IDAT", zlib.compress(bytes(rows), 9))
    else:
        out += chunk(b"IDAT", zlib.compress(b"\x00" * 16))
    return out + chunk(b"IEND", b"")


def base():
    """DejaVu Sans Bold cut to a few glyphs, plus "emoji" (an empty outline) for U+1F600."""
    font = TTFont(DEJAVU)
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.drop_tables += ["FFTM", "GPOS", "GSUB", "GDEF", "kern", "gasp"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="0123456789+H")
    subsetter.subset(font)
    order = font.getGlyphOrder() + ["emoji"]
    font.setGlyphOrder(order)
    glyf = font["glyf"]
    glyf.glyphOrder = order
    glyf["emoji"] = TTGlyphPen(None).glyph()
    font["hmtx"]["emoji"] = (2048, 0)
    # The emoji is beyond the BMP: a format 12 subtable carries it.
    sub = cmap_format_12(12)
    sub.platformID, sub.platEncID, sub.language = 3, 10, 0
    sub.cmap = dict(font.getBestCmap())
    sub.cmap[EMOJI] = "emoji"
    font["cmap"].tables = [t for t in font["cmap"].tables if t.format != 12] + [sub]
    font["maxp"].numGlyphs = len(order)
    # A modified font gets a name of its own (the licence's renaming clause).
    for record in font["name"].names:
        if record.nameID in (1, 3, 4, 16):
            record.string = "DejaVu Bitmap Fixture"
        elif record.nameID == 6:
            record.string = "DejaVuBitmapFixture"
    return font


def raw(font, tag, data):
    table = DefaultTable(tag)
    table.data = data
    font[tag] = table


def sbix(num_glyphs, strikes, strike_offsets=None, last_offset_delta=0, num_strikes=None):
    """sbix table (OpenType spec, sbix): header, strike offsets, strikes.

    strikes: [(ppem, {glyph id: png bytes})]."""
    header_len = 8 + 4 * len(strikes)
    blobs = []
    for ppem, images in strikes:
        offsets = []
        data = b""
        base_len = 4 + 4 * (num_glyphs + 1)
        for gid in range(num_glyphs):
            offsets.append(base_len + len(data))
            if gid in images:
                data += struct.pack(">hh4s", 0, 0, b"png ") + images[gid]
        offsets.append(base_len + len(data) + last_offset_delta)
        blobs.append(struct.pack(">HH", ppem, 72) + b"".join(struct.pack(">I", o) for o in offsets) + data)
    out = struct.pack(">HHI", 1, 1, len(strikes) if num_strikes is None else num_strikes)
    position = header_len
    for index, blob in enumerate(blobs):
        offset = position if strike_offsets is None else strike_offsets[index]
        out += struct.pack(">I", offset)
        position += len(blob)
    return out + b"".join(blobs)


def cbdt_cblc(num_glyphs, gid, ppem, image, width, height, image_format=17, array_offset=None, data_delta=0):
    """CBLC + CBDT (OpenType spec, CBLC and CBDT) with one strike holding one glyph."""
    top = min(height, 127)  # bearingY and the line ascender are int8
    cbdt = struct.pack(">HH", 3, 0)
    start = len(cbdt)
    if image_format == 17:  # smallGlyphMetrics, dataLen, data
        cbdt += struct.pack(">BBbbB", height, width, 0, top, width) + struct.pack(">I", len(image)) + image
    elif image_format == 18:  # bigGlyphMetrics
        cbdt += struct.pack(">BBbbBbbB", height, width, 0, top, width, 0, 0, height)
        cbdt += struct.pack(">I", len(image)) + image
    else:  # 19: dataLen, data; metrics in the index subtable
        cbdt += struct.pack(">I", len(image)) + image
    end = len(cbdt)
    size_record = 48
    array = 8 + size_record if array_offset is None else array_offset
    if image_format == 19:  # index format 2: imageSize, bigGlyphMetrics
        subtable = struct.pack(">HHI", 2, 19, start + data_delta) + struct.pack(">I", end - start)
        subtable += struct.pack(">BBbbBbbB", height, width, 0, top, width, 0, 0, height)
    else:  # index format 1: an offset per glyph, plus one
        subtable = struct.pack(">HHI", 1, image_format, start + data_delta) + struct.pack(">II", 0, end - start)
    entries = struct.pack(">HHI", gid, gid, 8)
    line = struct.pack(">bbBbbbbbbbbb", top, 0, width, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    record = struct.pack(">IIII", array, len(entries) + len(subtable), 1, 0) + line + line
    record += struct.pack(">HHBBBb", gid, gid, ppem, ppem, 32, 1)
    cblc = struct.pack(">HHI", 3, 0, 1) + record + entries + subtable
    return cblc, cbdt


def ebdt_eblc_compound(num_glyphs, ppem, fan):
    """EBLC + EBDT (OpenType spec, EBLC and EBDT): glyphs 1 to num_glyphs - 2 are
    compounds (image format 8) of `fan` copies of the next glyph; the last glyph is a
    1 x 1 bitmap (image format 1)."""
    last = num_glyphs - 1
    ebdt = struct.pack(">HH", 2, 0)
    offsets = []
    for gid in range(1, last):
        offsets.append(len(ebdt))
        ebdt += struct.pack(">BBbbBxH", 1, 1, 0, 1, 1, fan) + struct.pack(">Hbb", gid + 1, 0, 0) * fan
    offsets.append(len(ebdt))
    leaf = len(ebdt)
    ebdt += struct.pack(">BBbbB", 1, 1, 0, 1, 1) + b"\x80"
    # Two index subtables (format 1), offsets counted from the array's start.
    compounds = struct.pack(">HHI", 1, 8, 0) + b"".join(struct.pack(">I", o) for o in offsets)
    single = struct.pack(">HHI", 1, 1, leaf) + struct.pack(">II", 0, len(ebdt) - leaf)
    entries_len = 2 * 8
    entries = struct.pack(">HHI", 1, last - 1, entries_len) + struct.pack(
        ">HHI", last, last, entries_len + len(compounds))
    array = entries + compounds + single
    line = struct.pack(">bbBbbbbbbbbb", ppem, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    record = struct.pack(">IIII", 8 + 48, len(array), 2, 0) + line + line
    record += struct.pack(">HHBBBb", 1, last, ppem, ppem, 1, 1)
    eblc = struct.pack(">HHI", 2, 0, 1) + record + array
    return eblc, ebdt


def save(font, name):
    path = os.path.join(OUT, name)
    font.save(path)
    print(f"{name}: {os.path.getsize(path)} bytes")


def main():
    os.makedirs(OUT, exist_ok=True)
    good = png(32, 32)
    huge = png(16000, 16000, pixels=False)
    big = png(255, 255)

    def sbix_font(name, **kwargs):
        font = base()
        gid = font.getGlyphID("emoji")
        strikes = kwargs.pop("strikes")
        raw(font, "sbix", sbix(len(font.getGlyphOrder()), [(ppem, {gid: image}) for ppem, image in strikes], **kwargs))
        save(font, name)

    def cbdt_font(name, **kwargs):
        font = base()
        gid = font.getGlyphID("emoji")
        cblc, cbdt = cbdt_cblc(len(font.getGlyphOrder()), gid, **kwargs)
        raw(font, "CBLC", cblc)
        raw(font, "CBDT", cbdt)
        save(font, name)

    def colr_font(name, layers, units_per_em=None):
        """COLR v0 with CPAL: the emoji glyph drawn in `layers` layers of glyph H; with
        `units_per_em`, H becomes a 30000-unit square and the em that small."""
        font = base()
        layer = "H"
        if units_per_em is not None:
            font["head"].unitsPerEm = units_per_em
            pen = TTGlyphPen(None)
            side = 30000
            pen.moveTo((0, 0))
            pen.lineTo((0, side))
            pen.lineTo((side, side))
            pen.lineTo((side, 0))
            pen.closePath()
            font["glyf"]["H"] = pen.glyph()
        # FreeType draws the layers when it renders the base glyph, and Cairo renders
        # only a glyph whose own outline is not empty: give "emoji" a 1 em square.
        em = font["head"].unitsPerEm
        pen = TTGlyphPen(None)
        pen.moveTo((0, 0))
        pen.lineTo((0, em))
        pen.lineTo((em, em))
        pen.lineTo((em, 0))
        pen.closePath()
        font["glyf"]["emoji"] = pen.glyph()
        font["COLR"] = buildCOLR({"emoji": [(layer, index % 2) for index in range(layers)]}, version=0)
        font["CPAL"] = buildCPAL([[(0.9, 0.2, 0.1, 1.0), (0.1, 0.3, 0.9, 1.0)]])
        save(font, name)

    sbix_font("sbix-good.ttf", strikes=[(32, good)])
    cbdt_font("cbdt-good.ttf", ppem=32, image=good, width=32, height=32)
    colr_font("colr-good.ttf", layers=3)
    sbix_font("sbix-huge-png.ttf", strikes=[(20, huge)])
    cbdt_font("cbdt-huge-png.ttf", ppem=20, image=huge, width=20, height=20)
    cbdt_font("cbdt-huge-png-19.ttf", ppem=20, image=huge, width=20, height=20, image_format=19)
    sbix_font("sbix-magnified.ttf", strikes=[(1, big)])
    cbdt_font("cbdt-magnified.ttf", ppem=1, image=big, width=255, height=255)
    sbix_font("sbix-strike-past-end.ttf", strikes=[(20, good)], strike_offsets=[100000])
    sbix_font("sbix-glyph-past-end.ttf", strikes=[(20, good)], last_offset_delta=100000)
    sbix_font("sbix-many-strikes.ttf", strikes=[(20, good)], num_strikes=0xFFFFFFFF)
    cbdt_font("cblc-subtable-past-end.ttf", ppem=32, image=good, width=32, height=32, array_offset=100000)
    cbdt_font("cbdt-glyph-past-end.ttf", ppem=32, image=good, width=32, height=32, data_delta=100000)
    colr_font("colr-many-layers.ttf", layers=2000)
    colr_font("colr-huge-layer.ttf", layers=2, units_per_em=16)
    font = base()
    eblc, ebdt = ebdt_eblc_compound(len(font.getGlyphOrder()), ppem=12, fan=64)
    raw(font, "EBLC", eblc)
    raw(font, "EBDT", ebdt)
    save(font, "ebdt-compound.ttf")


if __name__ == "__main__":
    main()
