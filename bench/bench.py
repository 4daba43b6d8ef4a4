#!/usr/bin/env python3
"""make bench: iconbadge against its peers on the same jobs, measured in one run.

Peers: a C program on Cairo + FreeType that opens the font by file (bench/ref.c, the
floor for this job on this stack), ImageMagick 6.9 (convert-im6.q16 and compare-im6.q16,
what users would pick), odiff 4.5.0 (the fastest image-diff tool, ../shared/tools/odiff or ODIFF)
and rsvg-convert (librsvg's own command). Each draws the very rectangle and text origin
iconbadge's --report gives, with the same font file. For start-up, a static Swift "hello"
(linked as the release binary is) is the floor of any Swift program's start. Every time is a median from one
hyperfine run that holds iconbadge and its peer side by side; ratios are what to read
(this machine is shared and noisy). Peak memory is each process's max RSS, taken by
bench/runone.c (a small C parent, so the fork does not count) in one more run.

Sections: the start-up targets (three runs each); single renders at 60, 180 and 1024 px; batch throughput; compare (against
odiff and ImageMagick); SVG icons (a batch of 800 real ones, and one render against
rsvg-convert); cost growth with icon size and with batch size. BENCH_QUICK=1 runs fewer
repetitions; BENCH_TARGETS_ONLY=1 runs the start-up targets alone.

The compare section reads odiff's benchmark images (about 13 MB, kept out of the
repository) from ../shared/corpus/odiff-bench beside the checkout, or from the folder
BENCH_IMAGES names; pixelmatch's fixtures come from Fixtures/corpus. A missing input is
named with where to get it, and the rest of the bench runs.
"""
import json
import os
import shlex
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
# The floor of start-up: a Swift program that prints one line, linked as the release
# binary is (static-pie, lld, packed relocations; scripts/release-build.sh).
HELLO = os.path.join(WORK, "hello-static")
QUICK = os.environ.get("BENCH_QUICK") == "1"
BENCH_IMAGES = os.environ.get("BENCH_IMAGES") or os.path.normpath(os.path.join(ROOT, "../shared/corpus/odiff-bench"))
PIXELMATCH = os.path.join(ROOT, "Fixtures/corpus/pixelmatch")
ODIFF = os.environ.get("ODIFF") or os.path.normpath(os.path.join(ROOT, "../shared/tools/odiff/odiff"))
ODIFF_IMAGES = "in odiff's images/ folder at v4.5.0, https://github.com/dmtrKovalenko/odiff/tree/v4.5.0/images"
# Where each benchmark input that is not in the repository comes from.
SOURCES = {
    "www.cypress.io.png": ODIFF_IMAGES,
    "www.cypress.io-1.png": ODIFF_IMAGES,
    "tiger.jpg": ODIFF_IMAGES + " (also in Fixtures/corpus/odiff-bench)",
    "tiger-2.jpg": ODIFF_IMAGES,
    "cypress-crop.png": "the top 3446 × 8192 pixels of www.cypress.io.png (" + ODIFF_IMAGES
                        + "), cut with Pillow: Image.open(a).crop((0, 0, 3446, 8192)).save(b)",
    "cypress-crop-1.png": "the top 3446 × 8192 pixels of www.cypress.io-1.png, cut the same way",
}
PAPIRUS = "/usr/share/icons/Papirus"


def runs(n):
    return max(3, n // 4) if QUICK else n


def run_once(argv):
    """Wall time (s) and peak RSS (KiB) of one process, measured by bench/runone.c."""
    out = subprocess.run([RUNONE] + argv, check=True, capture_output=True, text=True).stdout.split()
    elapsed, rss, status = float(out[0]), int(out[1]), int(out[2])
    if status not in (0, 1, 22):  # compare: 1 when the images differ; odiff: 22
        sys.exit(f"bench: {' '.join(argv)} failed with status {status}")
    return elapsed, rss


def hyperfine(commands, n, warmup=2, expected=(0, 1, 22)):
    """Median seconds of each command, from one hyperfine run that holds them all
    (hyperfine runs each command's repetitions in turn). Exit statuses are not checked:
    compare exits 1 on different images, odiff 22."""
    # hyperfine -i hides every failure: each command is run once first, and one that
    # fails (a status not in `expected`) stops the bench with its message.
    for name, command in commands.items():
        argv = shlex.split(command) if isinstance(command, str) else command
        check = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if check.returncode not in expected:
            sys.exit(f"bench: {name} failed ({check.returncode}): {check.stderr.strip()}")
    export = os.path.join(WORK, "hyperfine.json")
    argv = ["hyperfine", "-N", "-i", "-w", str(warmup), "-r", str(n), "--export-json", export, "--style", "none"]
    for name, command in commands.items():
        argv += ["-n", name, command if isinstance(command, str) else shlex.join(command)]
    run = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit(f"bench: hyperfine failed: {run.stderr.strip()}")
    with open(export) as data:
        results = json.load(data)["results"]
    return {result["command"]: result["median"] for result in results}


def measure(commands, n):
    """Runs each command n times in one hyperfine run; returns {name: (median s, peak
    KiB)}, the peak from one more run under bench/runone.c."""
    times = hyperfine(commands, n)
    return {name: (times[name], run_once(argv)[1]) for name, argv in commands.items()}


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


def startup_targets():
    """The start-up targets, each measured three times (three hyperfine runs, each holding
    iconbadge and its peer side by side): the median of the three ratios, their spread
    (lowest to highest), and the machine's load before each run. A target is a ratio
    iconbadge / peer, except the SVG batch's, which is renders a second."""
    pixelmatch = PIXELMATCH
    bench = BENCH_IMAGES
    rows = []
    # The targets of issue 42. The missing-file run holds the static Swift "hello" too:
    # the floor, reported as a row of its own from the same hyperfine runs.
    checks = [
        ("exit on a missing file (`compare` of two missing paths)", "odiff", 1.8,
         [ICONBADGE, "compare", "/nonexistent/a.png", "/nonexistent/b.png"],
         [ODIFF, "/nonexistent/a.png", "/nonexistent/b.png"], [], "odiff"),
        ("compare pixelmatch `1a`/`1b`, exact", "odiff", 0.9,
         [ICONBADGE, "compare", f"{pixelmatch}/1a.png", f"{pixelmatch}/1b.png"],
         [ODIFF, f"{pixelmatch}/1a.png", f"{pixelmatch}/1b.png", "-t", "0"],
         [f"{pixelmatch}/1a.png", f"{pixelmatch}/1b.png"], "odiff"),
        ("compare pixelmatch `1a`/`1b`, `--threshold 0.1`", "odiff", 1.0,
         [ICONBADGE, "compare", f"{pixelmatch}/1a.png", f"{pixelmatch}/1b.png", "--threshold", "0.1"],
         [ODIFF, f"{pixelmatch}/1a.png", f"{pixelmatch}/1b.png", "-t", "0.1"],
         [f"{pixelmatch}/1a.png", f"{pixelmatch}/1b.png"], "odiff"),
        ("compare tiger JPEG pair, `--threshold 0.1`", "odiff", 1.0,
         [ICONBADGE, "compare", f"{bench}/tiger.jpg", f"{bench}/tiger-2.jpg", "--threshold", "0.1"],
         [ODIFF, f"{bench}/tiger.jpg", f"{bench}/tiger-2.jpg", "-t", "0.1"],
         [f"{bench}/tiger.jpg", f"{bench}/tiger-2.jpg"], "odiff"),
    ]
    for size, scale, target in ((60, 1, 0.8), (180, 3, 0.6), (1024, 3, 0.4)):
        icon = make_icon(size)
        _, ref = peers(icon, "3", scale, f"target-{size}")
        checks.append((f"render a {size} px icon", "C+Cairo", target,
                       [ICONBADGE, icon, "--value", "3", "--scale", str(scale), "-o",
                        os.path.join(WORK, f"target-{size}.png")], ref, [], "ref"))
    for name, peer, target, ours, theirs, inputs, kind in checks:
        if kind == "odiff" and not os.access(ODIFF, os.X_OK):
            print(f"\n(bench: {name} left out: {ODIFF} is missing. It is odiff 4.5.0, "
                  "https://github.com/dmtrKovalenko/odiff/releases/tag/v4.5.0; name it with ODIFF)")
            continue
        if inputs and not present(name, *inputs):
            continue
        ratios, loads, times = [], [], []
        floor = "missing" in name and os.access(HELLO, os.X_OK)
        floors = []
        for _ in range(3):
            loads.append(os.getloadavg()[0])
            # A missing file: iconbadge exits 66, odiff 1 or 2 (what they say is checked by tests).
            expected = (0, 1, 2, 22, 66) if "missing" in name else (0, 1, 22)
            commands = {"iconbadge": ours, peer: theirs}
            if floor:
                commands["hello"] = [HELLO]
            t = hyperfine(commands, runs(40 if "1024" not in name else 12), warmup=5, expected=expected)
            ratios.append(t["iconbadge"] / t[peer])
            times.append((t["iconbadge"], t[peer]))
            if floor:
                floors.append((t["hello"] / t[peer], t["hello"]))
        median = statistics.median(ratios)
        ib, other = times[ratios.index(median)]
        rows.append([name, peer, f"{ib * 1000:.2f}", f"{other * 1000:.2f}",
                     f"**{median:.2f}** ({min(ratios):.2f}–{max(ratios):.2f})", f"≤ {target}",
                     "met" if median <= target else "not met", " / ".join(f"{load:.1f}" for load in loads)])
        if floor:
            floor_ratios = [ratio for ratio, _ in floors]
            floor_median = statistics.median(floor_ratios)
            rows.append(["the floor: a static Swift \"hello\" (same runs)", peer,
                         f"{floors[floor_ratios.index(floor_median)][1] * 1000:.2f}", f"{other * 1000:.2f}",
                         f"**{floor_median:.2f}** ({min(floor_ratios):.2f}–{max(floor_ratios):.2f})", "", "",
                         " / ".join(f"{load:.1f}" for load in loads)])
    svg = svg_batch_rate(300)
    if svg:
        median, low, high, loads = svg
        rows.append(["batch of 300 SVG icons at `--scales 1,2`, 2 workers (renders/s)", "", f"{median:.0f}", "",
                     f"**{median:.0f}/s** ({low:.0f}–{high:.0f})", "≥ 345/s", "met" if median >= 345 else "not met",
                     " / ".join(f"{load:.1f}" for load in loads)])
    table("Start-up targets (median of three runs; spread lowest–highest; load before each run)",
          ["job", "peer", "iconbadge ms", "peer ms", "ratio", "target", "", "load"], rows)


def svg_batch_rate(count):
    """Renders a second of a batch of `count` Papirus SVG icons at --scales 1,2 on 2
    workers, three times: (median, lowest, highest, loads), or None without the icons."""
    if not os.path.isdir(PAPIRUS):
        print("\n(bench: the SVG batch target left out: papirus-icon-theme is missing; make bench installs it)")
        return None
    icons = papirus_icons(count)
    folder = os.path.join(WORK, "svg-target")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    manifest = os.path.join(WORK, "svg-target.json")
    with open(manifest, "w") as out:
        json.dump({"defaults": {"scales": [1, 2], "value": "3"},
                   "jobs": [{"icon": icon, "output": f"{folder}/{i}{{@scale}}.png"} for i, icon in enumerate(icons)]},
                  out)
    rates, loads = [], []
    for _ in range(3):
        loads.append(os.getloadavg()[0])
        t = hyperfine({"batch": [ICONBADGE, "batch", manifest, "--jobs", "2", "--quiet"]}, runs(5), warmup=1)
        rates.append(2 * len(icons) / t["batch"])
    written = len([name for name in os.listdir(folder) if name.endswith(".png")])
    if written != 2 * len(icons):
        sys.exit(f"bench: the SVG batch wrote {written} of {2 * len(icons)} images")
    return statistics.median(rates), min(rates), max(rates), loads


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


def present(name, *paths):
    """Whether the input files of the benchmark `name` are all there; names each missing
    one and where to get it."""
    missing = [path for path in paths if not os.path.isfile(path)]
    for path in missing:
        source = SOURCES.get(os.path.basename(path))
        if os.path.dirname(path) == BENCH_IMAGES and source:
            where = f"It is {source}; put it in {BENCH_IMAGES}, or name its folder with BENCH_IMAGES"
        elif path.startswith(os.path.join(ROOT, "Fixtures") + os.sep):
            where = "It belongs to the checkout (Fixtures/corpus/SOURCES.md)"
        else:
            where = "An earlier step of the bench makes it"
        print(f"\n(bench: {name} left out: {path} is missing. {where})")
    return not missing


def compare_pairs():
    """The image pairs of the compare section whose files are there: (name, a, b, extra
    iconbadge options)."""
    bench = BENCH_IMAGES
    pixelmatch = PIXELMATCH
    big = make_icon(4096)
    # The same bytes in another file (compare refuses a file against itself).
    copy = os.path.join(WORK, "icon-4096-copy.png")
    if not os.path.exists(copy):
        shutil.copyfile(big, copy)
    # The same pixels in another file: a copy re-encoded, so bytes differ.
    same_pixels = os.path.join(WORK, "icon-4096-reencoded.png")
    if not os.path.exists(same_pixels):
        subprocess.run([MAGICK, big, "-define", "png:compression-level=1", "PNG32:" + same_pixels], check=True)
    pairs = [
        ("cypress crop 3446 × 8192", f"{bench}/cypress-crop.png", f"{bench}/cypress-crop-1.png", []),
        ("cypress full 3446 × 10728", f"{bench}/www.cypress.io.png", f"{bench}/www.cypress.io-1.png",
         ["--max-side", "12000"]),
        ("tiger JPEG 1000 × 667", f"{bench}/tiger.jpg", f"{bench}/tiger-2.jpg", []),
        ("pixelmatch 1a/1b 512 × 256", f"{pixelmatch}/1a.png", f"{pixelmatch}/1b.png", []),
        ("4096² identical bytes", big, copy, []),
        ("4096² same pixels, other bytes", big, same_pixels, []),
    ]
    return [pair for pair in pairs if present(pair[0], pair[1], pair[2])]


def compare():
    """iconbadge compare against odiff on its own benchmark images (odiff's threshold 0
    counts every changed pixel, as our exact mode does), and against ImageMagick's
    compare -metric AE."""
    if os.access(ODIFF, os.X_OK):
        compare_odiff()
    else:
        print(f"\n(compare against odiff left out: {ODIFF} is missing. It is odiff 4.5.0, "
              "https://github.com/dmtrKovalenko/odiff/releases/tag/v4.5.0; name it with ODIFF)")
    compare_magick()


def compare_odiff():
    """iconbadge compare against odiff, in three modes, on every pair that is there."""
    rows = []
    diff_ib = os.path.join(WORK, "diff-ib.png")
    diff_od = os.path.join(WORK, "diff-odiff.png")
    for name, a, b, extra in compare_pairs():
        modes = [
            ("exact", [ICONBADGE, "compare", a, b] + extra, [ODIFF, a, b, "-t", "0"]),
            ("--threshold 0.1", [ICONBADGE, "compare", a, b, "--threshold", "0.1"] + extra,
             [ODIFF, a, b, "-t", "0.1"]),
            ("--threshold 0.1 --diff", [ICONBADGE, "compare", a, b, "--threshold", "0.1", "--diff", diff_ib] + extra,
             [ODIFF, a, b, diff_od, "-t", "0.1"]),
        ]
        n = runs(7 if "cypress" in name or "4096" in name else 20)
        for mode, ours, theirs in modes:
            t = hyperfine({"iconbadge": ours, "odiff": theirs}, n)
            rows.append([name, mode, f"{t['iconbadge'] * 1000:.1f}", f"{t['odiff'] * 1000:.1f}",
                         f"**{t['iconbadge'] / t['odiff']:.2f}**"])
    table("Compare against odiff 4.5.0 (median ms; ratio: iconbadge / odiff)",
          ["pair", "mode", "iconbadge", "odiff", "ratio"], rows)


def compare_magick():
    """iconbadge compare against ImageMagick's compare -metric AE, time and peak memory."""
    a = make_icon(1024)
    b = os.path.join(WORK, "ib-1024-3.png")
    bench = BENCH_IMAGES
    rows = []
    pairs = [("1024² icon, a badge apart", a, b),
             ("cypress crop 3446 × 8192", f"{bench}/cypress-crop.png", f"{bench}/cypress-crop-1.png")]
    for name, x, y in [pair for pair in pairs if present(pair[0] + " (ImageMagick)", pair[1], pair[2])]:
        commands = {
            "iconbadge --threshold 0.1": [ICONBADGE, "compare", x, y, "--threshold", "0.1"],
            "ImageMagick -metric AE": [MAGICK_COMPARE, "-metric", "AE", x, y, "null:"],
        }
        result = measure(commands, runs(7 if "cypress" in name else 15))
        ib, im = result["iconbadge --threshold 0.1"], result["ImageMagick -metric AE"]
        rows.append([name, f"{ib[0] * 1000:.1f}", f"{im[0] * 1000:.1f}", f"**{ib[0] / im[0]:.2f}**",
                     f"{ib[1] / 1024:.1f} / {im[1] / 1024:.1f}"])
    table("Compare against ImageMagick's compare -metric AE (median ms)",
          ["pair", "iconbadge", "ImageMagick", "ratio", "peak MiB (ib / IM)"], rows)


def papirus_icons(count):
    """`count` real SVG icons: Papirus's 48 and 64 px application icons (files, not
    links), half of each size."""
    icons = []
    for size in ("48x48", "64x64"):
        folder = os.path.join(PAPIRUS, size, "apps")
        names = sorted(name for name in os.listdir(folder)
                       if name.endswith(".svg") and not os.path.islink(os.path.join(folder, name)))
        icons += [os.path.join(folder, name) for name in names[:count // 2]]
    return icons


def svg_icons():
    """A batch of 800 real SVG icons at --scales 1,2 on 2 workers, against rsvg-convert
    drawing the same 1600 images, two at a time (xargs -P 2); and one SVG render against
    one rsvg-convert."""
    if not os.path.isdir(PAPIRUS) or not shutil.which("rsvg-convert"):
        print("\n(SVG section skipped: papirus-icon-theme or rsvg-convert is missing; make bench installs them)")
        return
    count = 200 if QUICK else 800
    icons = papirus_icons(count)
    folder = os.path.join(WORK, "svg")
    os.makedirs(folder, exist_ok=True)
    manifest = os.path.join(WORK, "svg.json")
    with open(manifest, "w") as out:
        json.dump({"defaults": {"scales": [1, 2], "value": "3"},
                   "jobs": [{"icon": icon, "output": f"{folder}/{i}{{@scale}}.png"} for i, icon in enumerate(icons)]},
                  out)
    listing = os.path.join(WORK, "svg-rsvg.txt")
    with open(listing, "w") as out:
        for i, icon in enumerate(icons):
            for zoom, suffix in ((1, ""), (2, "@2x")):
                out.write(f"-z {zoom} -o {folder}/rsvg-{i}{suffix}.png {icon}\n")
    renders = 2 * len(icons)
    t = hyperfine({
        "iconbadge batch": [ICONBADGE, "batch", manifest, "--jobs", "2", "--quiet"],
        "rsvg-convert, 2 at a time": ["xargs", "-P", "2", "-L", "1", "-a", listing, "rsvg-convert"],
    }, runs(5), warmup=1)
    ib, rsvg = t["iconbadge batch"], t["rsvg-convert, 2 at a time"]
    rows = [[f"{len(icons)} Papirus icons (48 and 64 px) at --scales 1,2, 2 workers", f"{renders / ib:.0f}",
             f"{renders / rsvg:.0f}", f"**{rsvg / ib:.2f}** × rsvg-convert's rate"]]
    table(f"SVG icons: a batch of {renders} renders (renders/s)", ["job", "iconbadge", "rsvg-convert", "ratio"], rows)
    icon = icons[1]
    t = hyperfine({
        "iconbadge": [ICONBADGE, icon, "--value", "3", "-o", os.path.join(WORK, "svg-one.png")],
        "rsvg-convert": ["rsvg-convert", icon, "-o", os.path.join(WORK, "svg-one-rsvg.png")],
    }, runs(30))
    print(f"\none SVG icon ({os.path.basename(icon)}, 48 px) with a badge: {t['iconbadge'] * 1000:.1f} ms against "
          f"rsvg-convert's {t['rsvg-convert'] * 1000:.1f} ms without one: **{t['iconbadge'] / t['rsvg-convert']:.2f}** ×")


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
    hello = os.path.join(WORK, "hello.swift")
    with open(hello, "w") as out:
        out.write('print("hello")\n')
    subprocess.run([os.environ.get("SWIFT", "swift") + "c", "-O", "-static-executable", "-use-ld=lld",
                    "-Xclang-linker", "-static-pie", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                    hello, "-o", HELLO], check=True, cwd=WORK)
    print(f"# make bench ({time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    startup_targets()
    if os.environ.get("BENCH_TARGETS_ONLY") == "1":
        return
    single_renders()
    batch_throughput()
    compare()
    svg_icons()
    growth()


if __name__ == "__main__":
    main()
