#!/bin/sh
# Installs what iconbadge needs to build and test, only where it is missing.
# Debian/Ubuntu: apt-get (as root, or through sudo). macOS: prints the brew line.
# Usage: scripts/install-deps.sh [--bench | --dist | --test-dist]
#   --bench      adds what `make bench` runs: ImageMagick, hyperfine, rsvg-convert and the
#                Papirus icons of its SVG batch
#   --dist       adds what `make deb` and `make dist` run: dpkg-dev (dpkg-shlibdeps computes
#                the package dependencies from the binary)
#   --test-dist  adds, to --dist, what `make test-dist` runs: mmdebstrap (the clean Debian
#                roots) and lintian (checks the .deb)
# They are flags, not part of the default list, so that `make test` on a fresh machine
# does not install tools it never runs.
set -eu

# pkg-config modules the build links against, and the Debian packages providing them.
MODULES="cairo freetype2 harfbuzz fontconfig libpng16 fribidi lcms2 libwebp libdeflate libjpeg"
APT_PACKAGES="pkg-config libcairo2-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev libpng-dev libfribidi-dev liblcms2-dev libwebp-dev libdeflate-dev libjpeg62-turbo-dev"
BREW_PACKAGES="pkg-config cairo freetype harfbuzz fontconfig libpng fribidi little-cms2 webp libdeflate jpeg-turbo"
# Packages checked with dpkg (no pkg-config module): patch (link-static-libs.sh applies
# Debian's patches to LittleCMS's source), and fonts and tools the tests use:
# strace (delays a write so a test can kill a render in the middle of it),
# poppler-utils (pdftocairo: tests compare PDF outputs with PNG ones) and chromium (the
# HTML report's browser tests open the report headless: its DOM once its script ran, a
# screenshot; HTMLReportBrowserTests, and the animated SVG at fixed times;
# tests/animation), python3-pil and ffmpeg (tests/animation reads the APNG and WebP
# animations with Pillow and ffprobe), fonts-dejavu-core (font tests open DejaVu Sans by
# path) and binutils (readelf: StaticLinkingTests). scripts/check-test-tools.sh, which
# `make test` runs first, checks each.
APT_EXTRA="patch fonts-dejavu-core binutils fonts-noto-cjk fonts-noto-color-emoji webp-pixbuf-loader librsvg2-2 libgdk-pixbuf-2.0-0 time groff-base strace poppler-utils chromium python3-pil ffmpeg"
# Installed where the system has them, with a line where it does not: aapt (aapt2) and
# android-framework-res (an Android overlay compiled and linked by Android's own resource
# tool: AndroidAapt2Tests), and librsvg2-bin (rsvg-convert draws the Android layers'
# reference SVGs: AndroidLayerTests). A build does not need them, so a system without
# them still builds; `make test` does (scripts/check-test-tools.sh stops it, naming the
# package), and `swift test` alone reports those tests as disabled, with the reason.
# Debian 12 and 13, where CI runs, have all three.
APT_OPTIONAL="aapt android-framework-res librsvg2-bin"
case "${1:-}" in
"") ;;
--bench) APT_EXTRA="$APT_EXTRA imagemagick hyperfine papirus-icon-theme librsvg2-bin" ;;
--dist) APT_EXTRA="$APT_EXTRA dpkg-dev" ;;
--test-dist) APT_EXTRA="$APT_EXTRA dpkg-dev mmdebstrap lintian" ;;
*)
    echo "install-deps.sh: unknown flag $1; use --bench, --dist or --test-dist (or none)" >&2
    exit 64
    ;;
esac

case "$(uname -s)" in
Darwin)
    if ! pkg-config --exists $MODULES 2>/dev/null; then
        echo "iconbadge needs: brew install $BREW_PACKAGES (then build with CPATH=\$(brew --prefix)/include LIBRARY_PATH=\$(brew --prefix)/lib)"
        exit 1
    fi
    exit 0
    ;;
esac

# libstdc++.a, linked into .build/static-cxx where Package.swift looks first, so that
# the Swift runtime's C++ library is linked statically (a faster start, and no libstdc++6
# to install; see Package.swift). Without it link-static-libs.sh stops a static build.
link_static_cxx() {
    root="$(cd "$(dirname "$0")/.." && pwd)"
    for compiler in cc clang; do
        archive="$($compiler -print-file-name=libstdc++.a 2>/dev/null || true)"
        case "$archive" in
        /*) if [ -f "$archive" ]; then
                mkdir -p "$root/.build/static-cxx"
                ln -sf "$archive" "$root/.build/static-cxx/libstdc++.a"
                return 0
            fi ;;
        esac
    done
}

# Every C library linked in, or LINKAGE=shared (scripts/link-static-libs.sh says how).
link_static() {
    link_static_cxx
    "$(dirname "$0")/link-static-libs.sh"
}

# The optional packages, each on its own: one a system lacks stops none of the others.
# One that could not be installed is listed in .build/deps-optional.skipped and not tried
# again (every build runs this) until that file is removed.
install_optional() {
    command -v apt-get >/dev/null 2>&1 || return 0
    root="$(cd "$(dirname "$0")/.." && pwd)"
    skipped="$root/.build/deps-optional.skipped"
    optional=""
    for package in $APT_OPTIONAL; do
        dpkg -s "$package" >/dev/null 2>&1 && continue
        grep -qx "$package" "$skipped" 2>/dev/null && continue
        optional="$optional $package"
    done
    [ -z "$optional" ] && return 0
    sudo_=""
    [ "$(id -u)" -ne 0 ] && sudo_="sudo"
    echo "make deps: installing$optional (optional)"
    $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null >/dev/null 2>&1 || true
    for package in $optional; do
        if ! $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$package" \
            </dev/null >/dev/null 2>&1; then
            echo "make deps: $package is not available here; make test stops without it, swift test skips the tests that need it (rm $skipped to try again)"
            mkdir -p "$root/.build" && echo "$package" >>"$skipped"
        fi
    done
}

missing=""
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists $MODULES 2>/dev/null; then
    missing="$APT_PACKAGES"
fi
for package in $APT_EXTRA; do
    dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
if [ -z "$missing" ]; then
    install_optional
    link_static
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "iconbadge: missing packages ($missing) and no apt-get; install the equivalents of: $APT_PACKAGES" >&2
    exit 1
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "make deps: installing$missing"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing </dev/null >/dev/null
pkg-config --exists $MODULES
install_optional
link_static
