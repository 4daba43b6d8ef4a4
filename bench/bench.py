#!/usr/bin/env python3
"""make bench: iconbadge against ImageMagick on the same job, measured in one run.

The job: load an icon, draw a red #FF3B30 rounded badge with white text ("3" and
"99+"), write a PNG. ImageMagick draws the very rectangle and text origin that
iconbadge's --report gives, with the same font file, so both do the same work.
Commands alternate run by run so machine noise hits both alike; the figures are
medians, and the ratios (iconbadge / peer) are what to read: absolute times on a
shared machine mean little. Peak memory is each process's max RSS (wait4).
"""
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ICONBADGE = os.path.join(ROOT, ".build/release/iconbadge")
MAGICK = "convert-im6.q16"
FONT = os.path.join(ROOT, "Sources/CBundledFont/DejaVuSans-Bold.ttf")
SOURCE_ICON = os.path.join(ROOT, "Fixtures/icons/folder-512x512.png")
WORK = os.path.join(ROOT, ".build/bench")
SIZES = [(60, 1), (180, 3), (1024, 3)]
RUNS = {60: 25, 180: 25, 1024: 9}


RUNONE = os.path.join(WORK, "runone")


def run_once(argv):
    """Wall time (s) and peak RSS (KiB) of one process, measured by bench/runone.c."""
    out = subprocess.run([RUNONE] + argv, check=True, capture_output=True, text=True).stdout.split()
    elapsed, rss, status = float(out[0]), int(out[1]), int(out[2])
    if status != 0:
        sys.exit(f"bench: {' '.join(argv)} failed with status {status}")
    return elapsed, rss


def make_icon(size):
    path = os.path.join(WORK, f"icon-{size}.png")
    if not os.path.exists(path):
        subprocess.run([MAGICK, SOURCE_ICON, "-resize", f"{size}x{size}", "PNG32:" + path], check=True)
    return path


def magick_command(icon, value, scale, out):
    report = subprocess.run([ICONBADGE, icon, "--value", value, "--scale", str(scale), "--report"],
                            check=True, capture_output=True, text=True).stdout
    badge = json.loads(report)["badge"]
    r = badge["rect"]
    x0, y0 = r["x"], r["y"]
    x1, y1 = x0 + r["width"] - 1, y0 + r["height"] - 1
    radius = badge["cornerRadius"]
    origin = badge["textOrigin"]
    return [MAGICK, icon, "-fill", "#FF3B30", "-draw",
            f"roundrectangle {x0},{y0} {x1},{y1} {radius},{radius}",
            "-font", FONT, "-pointsize", str(12 * scale), "-fill", "white",
            "-annotate", f"+{origin['x']}+{origin['y']}", badge["label"], out]


def measure(commands, runs):
    """Runs each command `runs` times, interleaved; returns {name: (median s, max KiB)}."""
    times = {name: [] for name in commands}
    memory = {name: 0 for name in commands}
    for name, argv in commands.items():  # warm-up
        run_once(argv)
    for _ in range(runs):
        for name, argv in commands.items():
            elapsed, rss = run_once(argv)
            times[name].append(elapsed)
            memory[name] = max(memory[name], rss)
    return {name: (statistics.median(times[name]), memory[name]) for name in commands}


def main():
    os.makedirs(WORK, exist_ok=True)
    subprocess.run(["cc", "-O2", "-o", RUNONE, os.path.join(ROOT, "bench/runone.c")], check=True)
    if not os.access(ICONBADGE, os.X_OK):
        sys.exit("bench: build the release binary first (make bench does)")
    print(f"{'job':<22} {'tool':<11} {'median ms':>10} {'peak MiB':>9} {'ratio':>7}")
    for size, scale in SIZES:
        icon = make_icon(size)
        for value, label in (("3", "3"), ("150", "99+")):
            out_ib = os.path.join(WORK, f"ib-{size}-{value}.png")
            out_im = os.path.join(WORK, f"im-{size}-{value}.png")
            commands = {
                "iconbadge": [ICONBADGE, icon, "--value", value, "--scale", str(scale), "-o", out_ib],
                "imagemagick": magick_command(icon, value, scale, out_im),
            }
            result = measure(commands, RUNS[size])
            base = result["imagemagick"][0]
            job = f"{size}px @{scale}x '{label}'"
            for name, (median, rss) in result.items():
                ratio = median / base
                print(f"{job:<22} {name:<11} {median * 1000:>10.2f} {rss / 1024:>9.1f} {ratio:>7.2f}")
    print("ratio = median time / ImageMagick's median time in the same run (lower is faster)")


if __name__ == "__main__":
    main()
