#!/usr/bin/env python3
"""Makes the catalog pictures of the README and the manual (docs/images/catalog-*.png).

Builds small asset catalogs and an Android res/ from the fixtures, badges them with
the iconbadge binary given (`appiconset`, `android`), and shows the results as the
systems would: iOS icons through the rounded-square mask, tinted icons coloured from
their luminance, watch icons through the circle, Android adaptive icons through
launcher masks (circle and rounded square) and as themed (monochrome) icons.

Needs Pillow (pip install pillow), which the project itself does not use; the
pictures are committed, so only someone changing them runs this:

    python3 scripts/catalog-pictures.py .build/debug/iconbadge
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw, ImageOps

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "docs", "images")
BACKDROP = (236, 238, 242, 255)


def run(binary, *arguments):
    subprocess.run([binary, *arguments], check=True, stderr=subprocess.DEVNULL)


def superellipse_mask(side, n=5.0, scale=4):
    """iOS's icon shape as iconbadge models it: |x|^n + |y|^n = 1, n = 5."""
    big = side * scale
    mask = Image.new("L", (big, big), 0)
    pixels = mask.load()
    for y in range(big):
        v = abs((y + 0.5) / big * 2 - 1)
        rest = 1 - v**n
        if rest <= 0:
            continue
        limit = rest ** (1 / n)
        for x in range(big):
            if abs((x + 0.5) / big * 2 - 1) <= limit:
                pixels[x, y] = 255
    return mask.resize((side, side), Image.LANCZOS)


def circle_mask(side, scale=4):
    big = side * scale
    mask = Image.new("L", (big, big), 0)
    ImageDraw.Draw(mask).ellipse([0, 0, big - 1, big - 1], fill=255)
    return mask.resize((side, side), Image.LANCZOS)


def on_backdrop(image, mask=None):
    tile = Image.new("RGBA", image.size, BACKDROP)
    tile.paste(image, (0, 0), mask if mask is not None else image)
    return tile


def sheet(tiles, gap=16):
    width = sum(t.width for t in tiles) + gap * (len(tiles) + 1)
    height = max(t.height for t in tiles) + 2 * gap
    out = Image.new("RGBA", (width, height), BACKDROP)
    x = gap
    for tile in tiles:
        out.paste(tile, (x, gap + (height - 2 * gap - tile.height) // 2))
        x += tile.width + gap
    return out


def write_set(folder, images):
    os.makedirs(folder, exist_ok=True)
    entries = []
    for entry, image in images:
        image.save(os.path.join(folder, entry["filename"]))
        entries.append(entry)
    with open(os.path.join(folder, "Contents.json"), "w") as f:
        json.dump({"images": entries, "info": {"author": "xcode", "version": 1}}, f, indent=2)


def ios18(binary, work):
    light = Image.open(os.path.join(ROOT, "Fixtures/icons/app-ios-180.png")).convert("RGBA")
    dark = Image.eval(light, lambda v: v).convert("RGB")
    dark = Image.blend(Image.new("RGB", light.size, (18, 20, 28)), dark, 0.45).convert("RGBA")
    tinted = ImageOps.grayscale(light).convert("RGBA")
    universal = {"idiom": "universal", "platform": "ios", "size": "1024x1024"}

    def appearance(value):
        return [{"appearance": "luminosity", "value": value}]

    folder = os.path.join(work, "AppIcon.appiconset")
    write_set(
        folder,
        [
            (dict(universal, filename="light.png"), light),
            (dict(universal, filename="dark.png", appearances=appearance("dark")), dark),
            (dict(universal, filename="tinted.png", appearances=appearance("tinted")), tinted),
        ],
    )
    run(binary, "appiconset", folder, "--value", "BETA", "--out", os.path.join(work, "out"))
    badged = os.path.join(work, "out", "AppIcon.appiconset")
    mask = superellipse_mask(180)
    tiles = []
    for name in ["light", "dark", "tinted"]:
        image = Image.open(os.path.join(badged, name + ".png")).convert("RGBA")
        if name == "tinted":
            # The system colours a tinted icon from its luminance: here a blue tint.
            grey = ImageOps.grayscale(image)
            image = ImageOps.colorize(grey, black=(8, 18, 40), white=(150, 200, 255)).convert("RGBA")
        tiles.append(on_backdrop(image, mask))
    sheet(tiles).save(os.path.join(OUT, "catalog-ios18.png"))


def macos(binary, work):
    source = Image.open(os.path.join(ROOT, "Fixtures/icons/app-macos-256.png")).convert("RGBA")
    images = []
    for points, scale in [(16, 1), (32, 1), (32, 2), (128, 1), (128, 2)]:
        side = points * scale
        entry = {"filename": f"mac-{side}.png", "idiom": "mac", "scale": f"{scale}x", "size": f"{points}x{points}"}
        images.append((entry, source.resize((side, side), Image.LANCZOS)))
    folder = os.path.join(work, "Mac.appiconset")
    write_set(folder, images)
    run(binary, "appiconset", folder, "--value", "3", "--out", os.path.join(work, "out"))
    badged = os.path.join(work, "out", "Mac.appiconset")
    tiles = [on_backdrop(Image.open(os.path.join(badged, f"mac-{s}.png")).convert("RGBA")) for s in [16, 32, 64, 256]]
    sheet(tiles).save(os.path.join(OUT, "catalog-macos.png"))


def watch(binary, work):
    source = Image.open(os.path.join(ROOT, "Fixtures/icons/app-watch-196.png")).convert("RGBA")
    images = []
    for side in [196, 88, 48]:
        entry = {"filename": f"w-{side}.png", "idiom": "watch", "scale": "2x", "size": f"{side / 2:g}x{side / 2:g}"}
        images.append((entry, source.resize((side, side), Image.LANCZOS)))
    folder = os.path.join(work, "Watch.appiconset")
    write_set(folder, images)
    run(binary, "appiconset", folder, "--value", "2", "--out", os.path.join(work, "out"))
    badged = os.path.join(work, "out", "Watch.appiconset")
    tiles = []
    for side in [196, 88, 48]:
        image = Image.open(os.path.join(badged, f"w-{side}.png")).convert("RGBA")
        tiles.append(on_backdrop(image, circle_mask(side)))
    sheet(tiles).save(os.path.join(OUT, "catalog-watch.png"))


def android(binary, work):
    app = os.path.join(work, "app")
    shutil.copytree(os.path.join(ROOT, "Fixtures/android/sample-app"), app)
    out = os.path.join(app, "debug", "res")
    run(binary, "android", os.path.join(app, "res"), "--out", out, "--value", "BETA")
    scale = 4  # xxxhdpi
    side = 108 * scale
    background = Image.new("RGBA", (side, side), (0x2E, 0x7D, 0x32, 255))
    # The sample's VectorDrawable foreground, drawn here from its two paths.
    foreground = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(foreground)
    s = scale
    draw.polygon([(34 * s, 38 * s), (40 * s, 38 * s), (52 * s, 54 * s), (40 * s, 70 * s), (34 * s, 70 * s), (46 * s, 54 * s)], fill="white")
    draw.rectangle([56 * s, 66 * s, 74 * s, 70 * s], fill="white")
    badge = Image.open(os.path.join(out, "drawable-xxxhdpi", "iconbadge_ic_launcher_badge.png")).convert("RGBA")
    # The themed icon's layer as iconbadge draws it: the monochrome drawing under the
    # white badge, cleared under it, the letters cut out.
    mono = Image.open(os.path.join(out, "drawable-xxxhdpi", "iconbadge_ic_launcher_monochrome.png")).convert("RGBA")
    composed = Image.alpha_composite(Image.alpha_composite(background, foreground), badge)
    inset = 18 * scale
    visible = composed.crop((inset, inset, side - inset, side - inset))
    shown = 216
    tiles = [
        on_backdrop(visible.resize((shown, shown), Image.LANCZOS), circle_mask(shown)),
        on_backdrop(visible.resize((shown, shown), Image.LANCZOS), superellipse_mask(shown, n=4)),
    ]
    # Themed icon (Android 13): the monochrome layer's alpha in the theme's colours.
    layer = mono.split()[3]
    themed = Image.new("RGBA", (side, side), (0xD3, 0xE3, 0xFD, 255))
    themed.paste(Image.new("RGBA", (side, side), (0x04, 0x1E, 0x49, 255)), (0, 0), layer)
    themed = themed.crop((inset, inset, side - inset, side - inset)).resize((shown, shown), Image.LANCZOS)
    tiles.append(on_backdrop(themed, circle_mask(shown)))
    for name in ["ic_launcher", "ic_launcher_round"]:
        legacy = Image.open(os.path.join(out, "mipmap-xxxhdpi", name + ".png")).convert("RGBA")
        tiles.append(on_backdrop(legacy))
    sheet(tiles).save(os.path.join(OUT, "catalog-android.png"))


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/iconbadge"))
    with tempfile.TemporaryDirectory() as work:
        for make in [ios18, macos, watch, android]:
            folder = os.path.join(work, make.__name__)
            os.makedirs(folder)
            make(binary, folder)
    print("wrote docs/images/catalog-{ios18,macos,watch,android}.png")


if __name__ == "__main__":
    main()
