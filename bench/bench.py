#!/usr/bin/env python3
"""make bench: iconbadge against its peers on the same jobs, measured in one run.

Peers: a C program on Cairo + FreeType that opens the font by file (bench/ref.c, the
floor for this job on this stack) and ImageMagick 6.9 (convert-im6.q16, what users would
pick). Each draws the very rectangle and text origin iconbadge's --report gives, with the
same font file. Commands alternate run by run so machine noise hits all alike; figures are
medians; ratios are what to read (this machine is shared and noisy). Peak memory is each
process's max RSS, taken by bench/runone.c (a small C parent, so the fork does not count).

Sections: single renders at 60, 180 and 1024 px; batch throughput; compare; cost growth
with icon size and with batch size. BENCH_QUICK=1 runs fewer repetitions.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ICONBADGE = os.path.join(ROOT, ".build/release/iconbadge")
MAGICK = "convert-im6.q16"
MAGICK_COMPARE = "compare-im6.q16"
FONT = os.path.join(ROOT, "Sources/CBundledFont/DejaVuSans-Bold.ttf")
SOURCE_ICON = os.path.join(ROOT, "Fixtures/icons/folder-512x512.png")
WORK = os.path.join(ROOT, ".build/bench")
RUNONE = os.path.join(WORK, "runone")
REF = os.path.join(WORK, "ref")
QUICK = os.environ.get("BENCH_QUICK") == "1"


def runs(n):
    return max(3, n // 4) if QUICK else n


def run_once(argv):
    """Wall time (s) and peak RSS (KiB) of one process, measured by bench/runone.c."""
    out = subprocess.run([RUNONE] + argv, check=True, capture_output=True, text=True).stdout.split()
    elapsed, rss, status = float(out[0]), int(out[1]), int(out[2])
    if status not in (0, 1):
        sys.exit(f"bench: {' '.join(argv)} failed with status {status}")
    return elapsed, rss


def measure(commands, n):
    """Runs each command n times, interleaved; returns {name: (median s, max KiB)}."""
    times = {name: [] for name in commands}
    memory = {name: 0 for name in commands}
    for argv in commands.values():  # warm-up
        run_once(argv)
    for _ in range(n):
        for name, argv in commands.items():
            elapsed, rss = run_once(argv)
            times[name].append(elapsed)
            memory[name] = max(memory[name], rss)
    return {name: (statistics.median(times[name]), memory[name]) for name in commands}


def make_icon(size):
    path = os.path.join(WORK, f"icon-{size}.png")
    if not os.path.exists(path):
        subprocess.run([MAGICK, SOURCE_ICON, "-resize", f"{size}x{size}", "PNG32:" + path], check=True)
    return path


def layout(icon, value, scale):
    report = subprocess.run([ICONBADGE, icon, "--value", value, "--scale", str(scale), "--report"],
                            check=True, capture_output=True, text=True).stdout
    badge = json.loads(report)["badge"]
    r = badge["rect"]
    return badge, r, badge["cornerRadius"], badge["textOrigin"]


def peers(icon, value, scale, tag):
    badge, r, radius, origin = layout(icon, value, scale)
    magick = [MAGICK, icon, "-fill", "#FF3B30", "-draw",
              f"roundrectangle {r['x']},{r['y']} {r['x'] + r['width'] - 1},{r['y'] + r['height'] - 1} {radius},{radius}",
              "-font", FONT, "-pointsize", str(12 * scale), "-fill", "white",
              "-annotate", f"+{origin['x']}+{origin['y']}", badge["label"], os.path.join(WORK, f"im-{tag}.png")]
    ref = [REF, icon, os.path.join(WORK, f"ref-{tag}.png"), FONT, str(scale), badge["label"],
           str(r["x"]), str(r["y"]), str(r["width"]), str(r["height"]), str(radius), str(origin["x"]), str(origin["y"])]
    return magick, ref


def table(title, header, rows):
    print(f"\n## {title}\n")
    print("| " + " | ".join(header) + " |")
    print("| " + " | ".join("---" for _ in header) + " |")
    for row in rows:
        print("| " + " | ".join(str(cell) for cell in row) + " |")


def single_renders():
    rows = []
    for size, scale in [(60, 1), (180, 3), (1024, 3)]:
        icon = make_icon(size)
        for value, label in (("3", "3"), ("150", "99+")):
            tag = f"{size}-{value}"
            magick, ref = peers(icon, value, scale, tag)
            commands = {
                "iconbadge": [ICONBADGE, icon, "--value", value, "--scale", str(scale), "-o", os.path.join(WORK, f"ib-{tag}.png")],
                "C+Cairo": ref,
                "ImageMagick": magick,
            }
            result = measure(commands, runs(9 if size == 1024 else 25))
            ib, c, im = result["iconbadge"], result["C+Cairo"], result["ImageMagick"]
            rows.append([f"{size} px @{scale}x `{label}`", f"{ib[0] * 1000:.1f}", f"{c[0] * 1000:.1f}",
                         f"{im[0] * 1000:.1f}", f"**{ib[0] / c[0]:.2f}**", f"**{ib[0] / im[0]:.2f}**",
                         f"{ib[1] / 1024:.1f} / {c[1] / 1024:.1f} / {im[1] / 1024:.1f}"])
    table("Single render (median ms; ratios: iconbadge / peer)",
          ["job", "iconbadge", "C+Cairo", "ImageMagick", "vs C", "vs IM", "peak MiB (ib / C / IM)"], rows)


def batch_throughput():
    count = 200 if QUICK else 1000
    icon = make_icon(180)
    folder = os.path.join(WORK, "batch")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    manifest = os.path.join(WORK, "batch.json")
    with open(manifest, "w") as out:
        json.dump({"defaults": {"icon": icon, "scale": 3},
                   "jobs": [{"value": str(i % 150 + 1), "output": f"{folder}/{i}.png"} for i in range(count)]}, out)
    rows = []
    rates = {}
    for jobs in (1, 2):
        start = time.perf_counter()
        subprocess.run([ICONBADGE, "batch", manifest, "--jobs", str(jobs), "--quiet"], check=True)
        rates[jobs] = count / (time.perf_counter() - start)
    singles = 100 if not QUICK else 30
    start = time.perf_counter()
    for i in range(singles):
        subprocess.run([ICONBADGE, icon, "--value", str(i % 150 + 1), "--scale", "3", "-o", f"{folder}/s.png"], check=True)
    rates["single"] = singles / (time.perf_counter() - start)
    magick, _ = peers(icon, "42", 3, "batch")
    start = time.perf_counter()
    for _ in range(singles):
        subprocess.run(magick, check=True)
    rates["magick"] = singles / (time.perf_counter() - start)
    rows.append(["`batch --jobs 2`", f"{rates[2]:.0f}", f"{rates[2] / rates[1]:.2f} × its 1-core rate",
                 f"{rates[2] / rates['magick']:.1f} × ImageMagick"])
    rows.append(["`batch --jobs 1`", f"{rates[1]:.0f}", "", ""])
    rows.append(["`iconbadge` once per job", f"{rates['single']:.0f}", "", ""])
    rows.append(["ImageMagick once per job", f"{rates['magick']:.0f}", "", ""])
    table(f"Batch: {count} jobs of a 180 px icon (renders/s)", ["how", "renders/s", "scaling", "vs ImageMagick"], rows)
    for size in (60, 1024):
        icon = make_icon(size)
        n = 1000 if size == 60 else 100
        if QUICK:
            n //= 5
        with open(manifest, "w") as out:
            json.dump({"defaults": {"icon": icon, "scale": 1 if size == 60 else 3},
                       "jobs": [{"value": str(i % 150 + 1), "output": f"{folder}/{size}-{i}.png"} for i in range(n)]}, out)
        start = time.perf_counter()
        subprocess.run([ICONBADGE, "batch", manifest, "--quiet"], check=True)
        print(f"\nbatch, {n} jobs of a {size} px icon on 2 cores: {n / (time.perf_counter() - start):.0f} renders/s")


def compare():
    a = make_icon(1024)
    b = os.path.join(WORK, "ib-1024-3.png")
    commands = {
        "iconbadge compare (exact)": [ICONBADGE, "compare", a, b],
        "iconbadge compare (exact, counting)": [ICONBADGE, "compare", a, b, "--json"],
        "iconbadge compare --threshold 0.1": [ICONBADGE, "compare", a, b, "--threshold", "0.1"],
        "decode one (render --value '' --report)": [ICONBADGE, a, "--value", "", "--report"],
        "ImageMagick compare -metric AE": [MAGICK_COMPARE, "-metric", "AE", a, b, "null:"],
    }
    result = measure(commands, runs(15))
    rows = [[name, f"{t * 1000:.1f}", f"{rss / 1024:.1f}"] for name, (t, rss) in result.items()]
    table("Compare two 1024 × 1024 PNGs (median ms)", ["command", "ms", "peak MiB"], rows)
    im = result["ImageMagick compare -metric AE"][0]
    perceptual = result["iconbadge compare --threshold 0.1"][0]
    print(f"\nperceptual compare is {im / perceptual:.2f} × faster than ImageMagick's compare -metric AE")


def growth():
    rows = []
    for size in (16, 64, 256, 1024, 2048, 4096):
        icon = make_icon(size)
        scale = max(1, size // 60)
        result = measure({"ib": [ICONBADGE, icon, "--value", "42", "--scale", str(scale), "--overflow", "clip",
                                 "-o", os.path.join(WORK, "growth.png")]}, runs(7))
        t, rss = result["ib"]
        image_mib = size * size * 4 / 2**20
        # The budget is 2 × the image + 16 MiB; below 1 MiB of image the ratio says nothing.
        ratio = f"{(rss / 1024 - 16) / image_mib:.2f}" if image_mib >= 1 else "(under the 16 MiB base)"
        rows.append([f"{size} × {size}", f"{t * 1000:.1f}", f"{t * 1e9 / (size * size):.1f}", f"{rss / 1024:.1f}",
                     ratio])
    table("Cost against icon size (one render)", ["icon", "ms", "ns / pixel", "peak MiB", "(peak - 16 MiB) / image MiB"], rows)
    icon = make_icon(60)
    folder = os.path.join(WORK, "growth")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    manifest = os.path.join(WORK, "growth.json")
    rows = []
    for count in (1, 10, 100, 1000, 10000):
        if QUICK and count > 1000:
            continue
        with open(manifest, "w") as out:
            json.dump({"defaults": {"icon": icon},
                       "jobs": [{"value": str(i % 150 + 1), "output": f"{folder}/{i}.png"} for i in range(count)]}, out)
        t, rss = run_once([ICONBADGE, "batch", manifest, "--quiet"])
        rows.append([str(count), f"{t * 1000:.0f}", f"{t * 1e6 / count:.0f}", f"{rss / 1024:.1f}"])
    table("Cost against batch size (60 px icon, 2 cores)", ["jobs", "total ms", "µs / job", "peak MiB"], rows)


def main():
    os.makedirs(WORK, exist_ok=True)
    if not os.access(ICONBADGE, os.X_OK):
        sys.exit("bench: build the release binary first (make bench does)")
    cflags = subprocess.run(["pkg-config", "--cflags", "--libs", "cairo", "freetype2"], check=True,
                            capture_output=True, text=True).stdout.split()
    subprocess.run(["cc", "-O2", "-o", RUNONE, os.path.join(ROOT, "bench/runone.c")], check=True)
    subprocess.run(["cc", "-O2", "-o", REF, os.path.join(ROOT, "bench/ref.c")] + cflags + ["-lm"], check=True)
    print(f"# make bench ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    single_renders()
    batch_throughput()
    compare()
    growth()


if __name__ == "__main__":
    main()
