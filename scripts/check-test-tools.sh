#!/bin/sh
# Checks, before `make test` runs the suite, that every tool and file the tests need is
# here, so that a test that needs one is never reported as skipped on a machine that
# should run it (CI's Debian 12 has them all). A test that needs a tool is disabled with
# its reason when the tool is missing (`.enabled(if:)`): `swift test` alone still runs
# on a machine without them, and says which tests it did not run.
# Prints one line for each missing item, naming it and its Debian package, and exits 1;
# prints nothing and exits 0 when everything is here. `make deps` installs them all
# (scripts/install-deps.sh).
set -u

missing=0
# need PATH PACKAGE USER: PATH must exist (an absolute path) or be a command on PATH.
need() {
    case "$1" in
    /*) [ -e "$1" ] && return 0 ;;
    *) command -v "$1" >/dev/null 2>&1 && return 0 ;;
    esac
    echo "make test: $1 is missing ($3): apt-get install $2, or run make deps" >&2
    missing=1
}

need /usr/bin/aapt2 aapt "AndroidAapt2Tests"
need /usr/share/android-framework-res/framework-res.apk android-framework-res "AndroidAapt2Tests"
need rsvg-convert librsvg2-bin "AndroidLayerTests"
need chromium chromium "HTMLReportBrowserTests, tests/animation"
need /usr/bin/pdftocairo poppler-utils "the PDF output tests"
need /usr/bin/strace strace "SecurityTests"
need /usr/bin/groff groff-base "DocumentationTests"
need /usr/bin/readelf binutils "StaticLinkingTests"
need /usr/bin/unshare util-linux "HostileInputTests, CatalogTransactionTests"
need /usr/bin/script bsdutils "PapercutTests"
need ffprobe ffmpeg "tests/animation"
need /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core "the font tests"
need /usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc fonts-noto-cjk "the CJK text tests"
need /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf fonts-noto-color-emoji "the colour glyph tests"
# librsvg, which iconbadge-loader opens (AndroidDrawingFidelityTests compare with it).
found=""
for library in /usr/lib/*/librsvg-2.so.2 /usr/lib/librsvg-2.so.2; do [ -e "$library" ] && found=yes; done
[ -n "$found" ] ||
    { echo "make test: librsvg-2.so.2 is missing (AndroidDrawingFidelityTests, the SVG tests): apt-get install librsvg2-2, or run make deps" >&2; missing=1; }
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 -c 'import PIL' 2>/dev/null ||
        { echo "make test: Pillow is missing (tests/animation): apt-get install python3-pil, or run make deps" >&2; missing=1; }
else
    need /usr/bin/python3 python3 "tests/animation"
fi
exit $missing
