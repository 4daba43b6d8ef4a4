#!/usr/bin/env python3
"""Checks iconbadge's animations with readers that are not iconbadge's own.

For each case it renders one animation four ways (APNG, animated WebP, animated
SVG, and one PNG a frame with {frame}), plus --report, and checks:

- Pillow decodes the APNG: one frame per frame file, each pixel-identical
  (straight RGBA) to it; its default image is the static render; each delay is
  the report's exact fraction. ffprobe (ffmpeg's APNG demuxer) counts the same
  frames and the same total duration.
- Pillow decodes the WebP (libwebp's demuxer): each frame pixel-identical to its
  frame file (colour under alpha 0 ignored), durations the rounded exact times.
- headless Chromium draws the SVG with its CSS animations paused at t = 0, 0.05,
  0.1, 0.2 s (and 0.3 s for the 0.4 s pop): the pixels match the APNG frame
  shown at t within TOLERANCE (see there). With prefers-reduced-motion the SVG
  shows the last frame.
- the bounce's smallest frame, at 240 frames a second, is the curve's peak: the
  badge's drawn width is 1.5 - 0.5 * 1.0299169 = 0.98504 of its width at rest,
  within one pixel.

Usage: check.py BINARY [--keep DIR]. Exit 0 when every check passes; prints one
line a check. Needs python3-pil, ffmpeg (ffprobe) and chromium.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops, ImageSequence, ImageStat

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ICONS = os.path.join(ROOT, "Fixtures", "icons")

# name, icon, options (the animation's and the badge's)
CASES = [
    ("bounce", "app-ios-180.png", ["--value", "3", "--animate", "bounce"]),
    ("fade-out", "folder-132x132.png", ["--value", "12", "--animate", "fade-out"]),
    ("fade-in", "mail-unread-symbolic.svg", ["--value", "NEW", "--size", "96", "--animate", "fade-in"]),
    ("pop", "folder-48x48.png", ["--value", "3", "--animate", "pop", "--from", "2", "--size", "128"]),
]

# Chromium (Skia) and Cairo anti-alias edges differently, and Chromium rasterises
# the embedded icon PNG and the glyph paths on its own: the same geometry differs
# by a few levels along every edge, and by up to about half a pixel's coverage
# where an edge is hinted differently (Cairo draws the raster frames' text with
# FreeType's hinted glyphs; the SVG holds the outlines). Differences are measured
# on premultiplied channels (0-255). So a frame matches when at most
# MAX_EDGE_SHARE of the canvas's pixels differ by more than EDGE_DIFF and none by
# more than MAX_CHANNEL_DIFF (half the range: a coverage half a pixel off). That
# alone cannot tell neighbouring frames apart where the curve is flat, so the time
# is checked apart: the Chromium picture must be nearer frame k (mean difference)
# than any other frame that differs visibly from it.
EDGE_DIFF = 24
MAX_EDGE_SHARE = 0.01
MAX_CHANNEL_DIFF = 128

failures = 0


def check(ok, text):
    global failures
    print(("ok   " if ok else "FAIL ") + text)
    if not ok:
        failures += 1


def run(args, **kw):
    return subprocess.run(args, check=True, capture_output=True, **kw)


def rgba(image):
    return image.convert("RGBA")


def straight(pixels):
    """RGBA bytes with the colour under alpha 0 cleared (WebP keeps any)."""
    out = bytearray(pixels)
    for i in range(3, len(out), 4):
        if out[i] == 0:
            out[i - 3 : i] = b"\0\0\0"
    return bytes(out)


def premultiplied(image):
    """The image's premultiplied channels, as an RGBA-labelled image (Pillow's RGBa)."""
    return Image.frombytes("RGBA", image.size, image.convert("RGBa").tobytes())


def difference(a, b):
    """Per pixel, the largest difference of its premultiplied channels (what shows on
    any background: a straight colour under alpha 1 can be anything), as an L image."""
    diff = ImageChops.difference(premultiplied(a), premultiplied(b))
    bands = diff.split()
    largest = bands[0]
    for band in bands[1:]:
        largest = ImageChops.lighter(largest, band)
    return largest


def mean_difference(a, b):
    """The mean of the per-pixel largest premultiplied difference, in levels."""
    return ImageStat.Stat(difference(a, b)).mean[0]


def matches(a, b):
    """(within TOLERANCE, pixels over EDGE_DIFF, largest difference)."""
    histogram = difference(a, b).histogram()
    over = sum(histogram[EDGE_DIFF + 1 :])
    largest = max(level for level, n in enumerate(histogram) if n) if any(histogram) else 0
    pixels = a.size[0] * a.size[1]
    return over <= MAX_EDGE_SHARE * pixels and largest <= MAX_CHANNEL_DIFF, over, largest


def nearest_frame(shot, frames, k):
    """Whether `shot` is nearer frame k (mean difference) than any frame that differs
    visibly from frame k (a mean of 0.5 level or more): the time is right."""
    own = mean_difference(shot, frames[k])
    for j, frame in enumerate(frames):
        if j != k and mean_difference(frame, frames[k]) >= 0.5 and mean_difference(shot, frame) <= own:
            return False, j, own
    return True, None, own


def chromium_frame(svg_path, width, height, t, work, reduced=False):
    """The SVG drawn by headless Chromium, its animations paused at t seconds."""
    with open(svg_path, encoding="utf-8") as f:
        svg = f.read().split("\n", 1)[1]  # without the XML declaration
    script = "" if t is None else (
        "<script>for (const a of document.getAnimations()) { a.pause(); a.currentTime = %r; }</script>" % (t * 1000))
    page = os.path.join(work, "page.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write("<!doctype html><html><head><style>html,body{margin:0;padding:0;background:transparent}"
                "svg{display:block}</style></head><body>" + svg + script + "</body></html>")
    shot = os.path.join(work, "shot.png")
    if os.path.exists(shot):
        os.remove(shot)
    args = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--force-device-scale-factor=1", "--window-size=%d,%d" % (width, height),
            "--default-background-color=00000000", "--virtual-time-budget=2000",
            "--screenshot=" + shot, "file://" + page]
    if reduced:
        args.insert(1, "--force-prefers-reduced-motion")
    run(args, env=dict(os.environ, HOME=work))
    return rgba(Image.open(shot))


def case(binary, name, icon, options, work):
    icon = os.path.join(ICONS, icon)
    base = os.path.join(work, name)
    os.makedirs(base + "-frames")
    for target in [base + ".png", base + ".webp", base + ".svg", base + "-frames/{frame}.png"]:
        run([binary, icon, *options, "-o", target])
    report = json.loads(run([binary, icon, *options, "-o", base + "-report.png", "--report"]).stdout)
    still_options = [o for i, o in enumerate(options) if o not in ("--animate", "--from") and
                     (i == 0 or options[i - 1] not in ("--animate", "--from"))]
    run([binary, icon, *still_options, "-o", base + "-still.png"])
    animation = report["animation"]
    count = animation["frameCount"]
    frame_files = sorted(os.listdir(base + "-frames"))
    check(len(frame_files) == count, f"{name}: {len(frame_files)} frame files, report says {count}")
    frames = [rgba(Image.open(os.path.join(base + "-frames", f))) for f in frame_files]
    still = rgba(Image.open(base + "-still.png"))

    # APNG through Pillow: the default image first (not a frame), then the frames.
    apng = Image.open(base + ".png")
    check(apng.info.get("default_image") is True, f"{name}: APNG default image is not a frame")
    decoded = [(rgba(f), f.info.get("duration")) for f in ImageSequence.Iterator(apng)]
    check(len(decoded) == count + 1, f"{name}: APNG has {len(decoded) - 1} frames (Pillow)")
    check(decoded[0][0].tobytes() == still.tobytes(), f"{name}: APNG default image == static render")
    same = [decoded[k + 1][0].tobytes() == frames[k].tobytes() for k in range(min(count, len(decoded) - 1))]
    check(all(same), f"{name}: APNG frames == {{frame}} files, pixel for pixel ({sum(same)}/{count})")
    delays = [1000 * int(n) / int(d) for n, d in (x.split("/") for x in animation["delays"])]
    got = [decoded[k + 1][1] for k in range(count)]
    check(all(abs(a - b) < 1e-9 for a, b in zip(got, delays)), f"{name}: APNG delays == report's fractions")
    if name in ("bounce", "fade-in"):
        check(frames[-1].tobytes() == still.tobytes(), f"{name}: last frame == static render")
    if name == "fade-out":
        icon_only = os.path.join(work, name + "-icon.png")
        run([binary, icon, "--value", "0", "-o", icon_only])
        check(frames[-1].tobytes() == rgba(Image.open(icon_only)).tobytes(), f"{name}: last frame == icon alone")

    # ffprobe: frames and total duration of the APNG.
    probe = json.loads(run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                            "-show_entries", "stream=nb_read_frames:frame=duration_time,pkt_duration_time",
                            "-of", "json", base + ".png"]).stdout)
    read = int(probe["streams"][0]["nb_read_frames"])
    check(read == count, f"{name}: ffprobe reads {read} APNG frames")
    total = sum(float(f.get("duration_time") or f.get("pkt_duration_time") or 0) for f in probe.get("frames", []))
    check(abs(total - sum(delays) / 1000) < 0.002, f"{name}: ffprobe total duration {total:.4f} s")

    # WebP through Pillow (libwebp's demuxer).
    webp = Image.open(base + ".webp")
    wframes = [(rgba(f), f.info.get("duration")) for f in ImageSequence.Iterator(webp)]
    check(len(wframes) == count, f"{name}: WebP has {len(wframes)} frames")
    same = [straight(wframes[k][0].tobytes()) == straight(frames[k].tobytes()) for k in range(min(count, len(wframes)))]
    check(all(same), f"{name}: WebP frames == {{frame}} files, pixel for pixel ({sum(same)}/{count})")
    check(webp.info.get("loop") == 1, f"{name}: WebP plays once")

    # Chromium: the SVG at t, against the APNG frame at t.
    width, height = still.size
    fps = animation["fps"]
    times = [0, 0.05, 0.1, 0.2] + ([0.3] if animation["duration"] > 0.3 else [])
    for t in times:
        k = round(t * fps)
        shot = chromium_frame(base + ".svg", width, height, t, work)
        ok, over, largest = matches(shot, frames[k])
        check(ok, f"{name}: Chromium SVG at t={t} s vs frame {k}: {over} px over {EDGE_DIFF}, largest {largest}")
        nearest, other, own = nearest_frame(shot, frames, k)
        check(nearest, f"{name}: ... nearest frame {k} (mean {own:.2f} levels)" +
              ("" if nearest else f", but frame {other} is as near"))
    shot = chromium_frame(base + ".svg", width, height, None, work, reduced=True)
    ok, over, largest = matches(shot, frames[-1])
    check(ok, f"{name}: Chromium with prefers-reduced-motion shows the last frame ({over} px over, largest {largest})")


def peak(binary, work):
    """The bounce's overshoot: the smallest frame is the curve's peak."""
    icon = os.path.join(ICONS, "app-ios-180.png")
    out = os.path.join(work, "peak-frames")
    os.makedirs(out)
    options = ["--value", "3", "--animate", "bounce", "--fps", "240", "--size", "128", "--scale", "8"]
    run([binary, icon, *options, "-o", out + "/{frame}.png"])
    report = json.loads(run([binary, icon, *options, "-o", os.path.join(work, "peak.png"), "--report"]).stdout)
    icon_only = os.path.join(work, "peak-icon.png")
    run([binary, icon, "--value", "0", "--size", "128", "--scale", "8", "-o", icon_only])
    base = rgba(Image.open(icon_only)).tobytes()

    def drawn_width(path):
        image = rgba(Image.open(path))
        w, h = image.size
        pixels = image.tobytes()
        columns = [x for x in range(w) if any(pixels[(y * w + x) * 4 : (y * w + x) * 4 + 4] !=
                                               base[(y * w + x) * 4 : (y * w + x) * 4 + 4] for y in range(0, h, 2))]
        return columns[-1] - columns[0] + 1 if columns else 0

    frames = report["animation"]["frames"]
    smallest = min(frames, key=lambda f: f["scale"])
    expected = 1.5 - 0.5 * 1.0299169
    check(abs(smallest["scale"] - expected) < 2e-4,
          f"bounce peak: smallest scale {smallest['scale']:.5f} at t={smallest['time']:.4f} s, curve's {expected:.5f}")
    files = sorted(os.listdir(out))
    rest = drawn_width(os.path.join(out, files[-1]))
    small = drawn_width(os.path.join(out, files[smallest["index"]]))
    # The badge's drawn width (anti-aliased edges included) scales about its centre.
    check(abs(small - rest * expected) <= 1.5,
          f"bounce peak: drawn width {small} px against {rest} px at rest ({rest * expected:.1f} expected)")


def main():
    binary = os.path.abspath(sys.argv[1])
    keep = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--keep" else None
    for tool in ("ffprobe", "chromium"):
        if not shutil.which(tool):
            print(f"FAIL {tool} is missing; run make deps")
            return 1
    work = keep or tempfile.mkdtemp(prefix="iconbadge-animation.")
    os.makedirs(work, exist_ok=True)
    try:
        for name, icon, options in CASES:
            case(binary, name, icon, options, work)
        peak(binary, work)
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"animation checks: {'all passed' if failures == 0 else f'{failures} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
