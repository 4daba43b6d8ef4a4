#!/usr/bin/python3
"""Makes the Xcode fixtures of Fixtures/xcode/App: an asset catalog whose app icon set is
the one Xcode 16 creates (one 1024 px iOS icon, with its iOS 18 dark and tinted
appearances), and an Xcode 26 Icon Composer bundle. The art is Adwaita's
mail-unread-symbolic.svg (Fixtures/icons, CC BY-SA 3.0) in white on a blue gradient, as
in Fixtures/icons/make-app-icons.py. Run from the package root after `make build`:

    /usr/bin/python3 Fixtures/xcode/make-xcode-fixtures.py

Needs Pillow. The glyph is rasterised by iconbadge itself (a hidden badge).
"""
import json
import os
import subprocess
import tempfile

from PIL import Image, ImageDraw

ROOT = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(ROOT, "..", "..", ".build", "debug", "iconbadge")
GLYPH = os.path.join(ROOT, "..", "icons", "mail-unread-symbolic.svg")
APP = os.path.join(ROOT, "App")
SIDE = 1024


def glyph(size, colour):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "g.png")
        subprocess.run([BIN, GLYPH, "--value", "0", "--size", str(size), "-o", path], check=True,
                       stderr=subprocess.DEVNULL)
        image = Image.open(path).convert("RGBA")
        image.load()
    filled = Image.new("RGBA", image.size, colour + (255,))
    filled.putalpha(image.getchannel("A"))
    return filled


def gradient(top, bottom):
    image = Image.new("RGBA", (SIDE, SIDE))
    draw = ImageDraw.Draw(image)
    for y in range(SIDE):
        t = y / (SIDE - 1)
        draw.line([(0, y), (SIDE, y)], fill=tuple(int(a + (b - a) * t) for a, b in zip(top, bottom)) + (255,))
    return image


def centred(background, foreground):
    background.alpha_composite(foreground, ((SIDE - foreground.width) // 2, (SIDE - foreground.height) // 2))
    return background


def write_json(path, value):
    # Xcode's own layout: two spaces, " : ", no final newline.
    text = json.dumps(value, indent=2, sort_keys=True).replace('": ', '" : ')
    with open(path, "w") as f:
        f.write(text)


catalog = os.path.join(APP, "Assets.xcassets")
iconset = os.path.join(catalog, "AppIcon.appiconset")
os.makedirs(iconset, exist_ok=True)
write_json(os.path.join(catalog, "Contents.json"), {"info": {"author": "xcode", "version": 1}})
accent = os.path.join(catalog, "AccentColor.colorset")
os.makedirs(accent, exist_ok=True)
write_json(os.path.join(accent, "Contents.json"), {
    "colors": [{"color": {"color-space": "srgb", "components": {
        "alpha": "1.000", "blue": "0.816", "green": "0.345", "red": "0.000"}}, "idiom": "universal"}],
    "info": {"author": "xcode", "version": 1}})

art = int(SIDE * 0.55)
centred(gradient((64, 156, 255), (0, 88, 208)), glyph(art, (255, 255, 255))).save(
    os.path.join(iconset, "AppIcon.png"), optimize=True)
# iOS 18 dark: the glyph in the app's colour on a dark background.
centred(gradient((28, 30, 36), (10, 11, 14)), glyph(art, (64, 156, 255))).save(
    os.path.join(iconset, "AppIcon-dark.png"), optimize=True)
# iOS 18 tinted: greyscale, which the system colours from its luminance.
centred(gradient((40, 40, 40), (0, 0, 0)), glyph(art, (235, 235, 235))).convert("L").convert("RGBA").save(
    os.path.join(iconset, "AppIcon-tinted.png"), optimize=True)
universal = {"idiom": "universal", "platform": "ios", "size": "1024x1024"}
write_json(os.path.join(iconset, "Contents.json"), {
    "images": [
        dict(universal, filename="AppIcon.png"),
        dict(universal, filename="AppIcon-dark.png",
             appearances=[{"appearance": "luminosity", "value": "dark"}]),
        dict(universal, filename="AppIcon-tinted.png",
             appearances=[{"appearance": "luminosity", "value": "tinted"}]),
    ],
    "info": {"author": "xcode", "version": 1}})

# Icon Composer: the glyph as one layer over the bundle's own gradient fill.
bundle = os.path.join(APP, "AppIcon.icon")
os.makedirs(os.path.join(bundle, "Assets"), exist_ok=True)
centred(Image.new("RGBA", (SIDE, SIDE), (0, 0, 0, 0)), glyph(art, (255, 255, 255))).save(
    os.path.join(bundle, "Assets", "envelope.png"), optimize=True)
write_json(os.path.join(bundle, "icon.json"), {
    "fill": {"automatic-gradient": "srgb:0.25098,0.61176,1.00000,1.00000"},
    "groups": [{"layers": [{"image-name": "envelope.png", "name": "envelope", "glass": True}],
                "shadow": {"kind": "neutral", "opacity": 0.5}, "translucency": {"enabled": True, "value": 0.5}}],
    "supported-platforms": {"circles": ["watchOS"], "squares": "shared"}})
