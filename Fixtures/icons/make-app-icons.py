#!/usr/bin/env python3
"""Makes the app-icon fixtures (app-*.png) from Adwaita's mail-unread-symbolic.svg.

Each is the glyph in white on a blue gradient, in the layout its platform's template
asks for: iOS and watchOS full-bleed squares (the system masks them), the macOS Big Sur
body (824/1024 of the side, continuous corners, transparent margin), and an Android
adaptive foreground layer (108 dp; glyph inside the 66 dp safe zone) with its own
background colour. Run from the package root after `make build`:

    python3 Fixtures/icons/make-app-icons.py

Needs Pillow. The glyph is rasterised by iconbadge itself (a hidden badge).
"""
import subprocess, tempfile, os
from PIL import Image, ImageDraw

ROOT = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(ROOT, '..', '..', '.build', 'debug', 'iconbadge')
GLYPH = os.path.join(ROOT, 'mail-unread-symbolic.svg')


def glyph(size):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, 'g.png')
        subprocess.run([BIN, GLYPH, '--value', '0', '--size', str(size), '-o', path], check=True,
                       stderr=subprocess.DEVNULL)
        image = Image.open(path).convert('RGBA')
        image.load()
    # White glyph, alpha kept.
    white = Image.new('RGBA', image.size, (255, 255, 255, 255))
    white.putalpha(image.getchannel('A'))
    return white


def gradient(size, top=(64, 156, 255), bottom=(0, 88, 208)):
    image = Image.new('RGBA', (size, size))
    draw = ImageDraw.Draw(image)
    for y in range(size):
        t = y / max(1, size - 1)
        draw.line([(0, y), (size, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom)) + (255,))
    return image


def squircle_mask(size, body):
    """Alpha of a superellipse |x|^5 + |y|^5 <= 1 of side `body`, centred, 4x4 supersampled."""
    mask = Image.new('L', (size, size), 0)
    px = mask.load()
    a = body / 2
    c = size / 2
    for y in range(size):
        for x in range(size):
            hits = 0
            for sy in range(4):
                for sx in range(4):
                    dx = abs(x + (sx + .5) / 4 - c) / a
                    dy = abs(y + (sy + .5) / 4 - c) / a
                    hits += dx ** 5 + dy ** 5 <= 1
            px[x, y] = round(255 * hits / 16)
    return mask


def square(size, name):
    image = gradient(size)
    g = glyph(int(size * 0.55))
    image.alpha_composite(g, ((size - g.width) // 2, (size - g.height) // 2))
    image.save(os.path.join(ROOT, name))


def macos(size, name):
    body = round(size * 824 / 1024)
    canvas = Image.new('RGBA', (size, size), (0, 0, 0, 0))
    tile = gradient(size)
    g = glyph(int(body * 0.55))
    tile.alpha_composite(g, ((size - g.width) // 2, (size - g.height) // 2))
    tile.putalpha(squircle_mask(size, body))
    canvas.alpha_composite(tile)
    canvas.save(os.path.join(ROOT, name))


def android_foreground(size, name):
    image = Image.new('RGBA', (size, size), (0, 0, 0, 0))
    g = glyph(int(size * 40 / 108))
    image.alpha_composite(g, ((size - g.width) // 2, (size - g.height) // 2))
    # The background layer's colour, drawn under the foreground so the fixture shows whole.
    background = Image.new('RGBA', (size, size), (0, 140, 90, 255))
    background.alpha_composite(image)
    background.save(os.path.join(ROOT, name))


square(180, 'app-ios-180.png')
square(196, 'app-watch-196.png')
macos(256, 'app-macos-256.png')
android_foreground(432, 'app-android-foreground-432.png')
