#!/bin/sh
# Builds .build/static-libs/render-libs.o: Cairo (without its X11 and XCB surfaces),
# pixman, fontconfig, expat and FriBidi from Debian's static archives, and HarfBuzz
# compiled from Debian's own source (Debian ships no libharfbuzz.a; see below), joined
# into one relocatable object, and the linker script libiconbadge-render.so naming it.
# Package.swift links `-liconbadge-render` and searches .build/static-libs before
# linker/, whose script of the same name links the shared libraries instead: without
# this folder (no archives, or the probe below failed) the build still works.
#
# Why: Debian's libcairo.so pulls in 15 more shared objects (X11, XCB, pixman, expat,
# libbsd...) that a badge never uses; loading and binding them was a fifth of a 60 px
# render (make bench), and HarfBuzz's GLib, PCRE2 and graphite2 another tenth. Why one
# object and not the archives: the Swift static runtime
# links with `--exclude-libs ALL`, which hides every archive member's symbols. An
# object's symbols stay exported (the link passes --export-dynamic), so when librsvg
# is opened later (SVG icons) its own libcairo.so.2 and libfontconfig.so.1 are
# interposed by ours: one Cairo and one fontconfig in the process, and the cairo_t
# we hand librsvg for vector output is drawn by the code that made it.
#
# LINKAGE=shared (`make release LINKAGE=shared`) removes the object, for packagers
# whose rules want shared libraries; the choice is kept in .build/static-libs/shared
# for later runs until LINKAGE=static. SwiftPM does not see a linker script change,
# so a change of linkage deletes every linked product under .build (debug, release,
# sanitizer and fuzz builds) for the next build to link again.
# Usage: scripts/link-static-libs.sh   (called by install-deps.sh; quiet when current)
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build/static-libs"
libdir="$(pkg-config --variable=libdir cairo 2>/dev/null || true)"
relink() {
    find "$root/.build" -path "$out" -prune -o -type f \( -name iconbadge -o -name iconbadgePackageTests.xctest \
        -o -name 'Fuzz[A-Z]*[a-z]' \) -perm -u+x -exec rm -f {} + 2>/dev/null || true
}
unwritable() {
    echo "make deps: cannot write $out; make it writable or remove it" >&2
    exit 73
}
shared() {
    if [ -f "$out/libiconbadge-render.so" ]; then
        rm -f "$out/libiconbadge-render.so" "$out/render-libs.o" "$out/stamp" 2>/dev/null || unwritable
        relink
    fi
}
fallback() {
    shared
    echo "make deps: $1; Cairo, fontconfig, FriBidi and HarfBuzz are linked as shared libraries (slower start)" >&2
    exit 0
}

linkage="${LINKAGE:-}"
if [ -z "$linkage" ]; then
    linkage=static
    [ -f "$out/shared" ] && linkage=shared
fi
case "$linkage" in
shared)
    { mkdir -p "$out" && : >"$out/shared"; } 2>/dev/null || unwritable
    shared
    exit 0
    ;;
static) rm -f "$out/shared" ;;
*)
    echo "make deps: LINKAGE=$linkage is not a linkage; use LINKAGE=static (the default) or LINKAGE=shared" >&2
    exit 64
    ;;
esac

[ -n "$libdir" ] || fallback "pkg-config does not know cairo"
archives=""
for name in cairo pixman-1 fontconfig expat fribidi; do
    [ -f "$libdir/lib$name.a" ] || fallback "no $libdir/lib$name.a"
    archives="$archives $libdir/lib$name.a"
done
for tool in ar nm ld cc; do
    command -v "$tool" >/dev/null 2>&1 || fallback "no $tool"
done

# HarfBuzz: compiled from the orig tarball of the installed Debian package, the source
# Debian built libharfbuzz0b from (its one patch touches only tests), checked against
# the SHA-256 in Debian's .dsc, as one translation unit (harfbuzz.cc) with hidden
# symbols: ours is never exported, so Pango keeps its own libharfbuzz.so and no
# HarfBuzz object crosses between the two. Without the tarball (offline, or another
# package version) HarfBuzz stays shared; a failed download is not retried until
# .build/static-libs/harfbuzz.failed is removed.
harfbuzz="$out/harfbuzz.o"
build_harfbuzz() {
    version="$(dpkg-query -W -f='${Version}' libharfbuzz0b 2>/dev/null || true)"
    case "$version" in
    6.0.0+dfsg-*)
        tarball=harfbuzz_6.0.0+dfsg.orig.tar.xz
        sha256=89266cb363e49b6aa999eda04ca25b0d234a69ad9304679631371f4697652368
        ;;
    *) return 1 ;;
    esac
    flags="-O2 -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -fno-exceptions -fno-rtti -fno-threadsafe-statics -DHAVE_PTHREAD=1"
    [ "$(cat "$harfbuzz.stamp" 2>/dev/null)" = "$sha256 $flags" ] && [ -f "$harfbuzz" ] && return 0
    [ "$(cat "$out/harfbuzz.failed" 2>/dev/null)" = "$version" ] && return 1
    command -v c++ >/dev/null 2>&1 || return 1
    rm -f "$harfbuzz" "$harfbuzz.stamp"
    echo "make deps: compiling HarfBuzz $version from Debian's source (once, about a minute)" >&2
    url="http://deb.debian.org/debian/pool/main/h/harfbuzz/$tarball"
    hbwork="$(mkdir -p "$out" 2>/dev/null && mktemp -d "$out/.work.XXXXXX" 2>/dev/null)" || unwritable
    if ! { curl -fsSL --max-time 300 -o "$hbwork/$tarball" "$url" 2>/dev/null ||
        python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
            "$url" "$hbwork/$tarball" 2>/dev/null; } ||
        [ "$(sha256sum "$hbwork/$tarball" | cut -d' ' -f1)" != "$sha256" ] ||
        ! tar -xJf "$hbwork/$tarball" -C "$hbwork" harfbuzz-6.0.0/src ||
        ! (cd "$hbwork/harfbuzz-6.0.0/src" && c++ $flags -c harfbuzz.cc -o ../harfbuzz.o); then
        printf '%s\n' "$version" >"$out/harfbuzz.failed"
        rm -rf "$hbwork"
        echo "make deps: could not fetch or compile $url; HarfBuzz stays shared" >&2
        return 1
    fi
    mv -f "$hbwork/harfbuzz-6.0.0/harfbuzz.o" "$harfbuzz"
    printf '%s\n' "$sha256 $flags" >"$harfbuzz.stamp"
    rm -rf "$hbwork"
}

build_harfbuzz || rm -f "$harfbuzz"

# Rebuild only when an archive changed (a package upgrade), this script did, HarfBuzz's
# object did, or the object is not the one written last (a damaged build folder).
# shellcheck disable=SC2086
inputs="$(stat -L -c "%s %Y %n" $archives "$root/scripts/link-static-libs.sh" "$harfbuzz" 2>/dev/null || true)"
if [ -f "$out/render-libs.o" ] && [ -f "$out/libiconbadge-render.so" ] &&
    [ "$(cat "$out/stamp" 2>/dev/null)" = "$inputs
$(stat -c "%s %Y %n" "$out/render-libs.o")" ]; then
    exit 0
fi

# Work folders of runs killed before their clean-up (an hour old: not a running one).
find "$out" -maxdepth 1 -name '.work.*' -mmin +60 -exec rm -rf {} + 2>/dev/null || true
work="$(mkdir -p "$out" 2>/dev/null && mktemp -d "$out/.work.XXXXXX" 2>/dev/null)" || unwritable
trap 'rm -rf "$work"' EXIT
mkdir "$work/cairo"
(cd "$work/cairo" && ar x "$libdir/libcairo.a")
# Members that call Xlib or XCB are the X11 surfaces; dropping them drops libX11 and
# libxcb. Chosen by their undefined symbols, not their names, so a rename cannot
# bring X11 back in; then, until none is left, the members that call a dropped one.
# Paths are quoted everywhere: the checkout may sit in a folder with spaces.
pattern=' (X[A-Z][A-Za-z]*|_X[A-Za-z]*|xcb_[a-z_0-9]*)$'
while :; do
    : >"$work/defined"
    dropped=0
    for member in "$work"/cairo/*.o; do
        if nm -u "$member" 2>/dev/null | grep -qE "$pattern"; then
            nm --defined-only -g "$member" 2>/dev/null | awk 'NF == 3 {print $3}' >>"$work/defined"
            rm -f -- "$member"
            [ ! -e "$member" ] || fallback "could not remove $member"
            dropped=$((dropped + 1))
        fi
    done
    [ "$dropped" -gt 0 ] || break
    defined="$(paste -sd '|' "$work/defined")"
    [ -n "$defined" ] || break
    pattern=" ($defined)\$"
done
set -- "$work"/cairo/*.o
[ -f "$harfbuzz" ] && set -- "$@" "$harfbuzz"
ld -r -o "$work/render-libs.o" "$@" --whole-archive \
    "$libdir/libpixman-1.a" "$libdir/libfontconfig.a" "$libdir/libexpat.a" "$libdir/libfribidi.a" \
    --no-whole-archive || fallback "ld -r could not join the archives"

# Probe: the object must link into a position-independent executable with nothing
# but the libraries the build links anyway, and draw.
cat >"$work/probe.c" <<'EOF'
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <fribidi.h>
int main(void) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4);
    cairo_t *cr = cairo_create(surface);
    cairo_rectangle(cr, 0, 0, 2, 2);
    cairo_fill(cr);
    int ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_data(surface)[3] == 255;
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    ok = ok && FcGetVersion() > 0 && fribidi_get_bidi_type(0x05D0) == FRIBIDI_TYPE_RTL;
#ifdef IB_PROBE_HARFBUZZ
    hb_buffer_t *buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, "ab", -1, 0, -1);
    hb_buffer_guess_segment_properties(buffer);
    hb_shape(hb_font_get_empty(), buffer, 0, 0);
    ok = ok && hb_buffer_get_length(buffer) == 2 && hb_version_atleast(2, 0, 0);
    hb_buffer_destroy(buffer);
#endif
    return ok ? 0 : 1;
}
EOF
shared_harfbuzz="-lharfbuzz"
probe_harfbuzz=""
if [ -f "$harfbuzz" ]; then
    shared_harfbuzz=""
    probe_harfbuzz="-DIB_PROBE_HARFBUZZ"
fi
# shellcheck disable=SC2046,SC2086
cc -fPIE -pie -rdynamic $probe_harfbuzz -include harfbuzz/hb.h -o "$work/probe" "$work/probe.c" \
    $(pkg-config --cflags cairo fontconfig fribidi) "$work/render-libs.o" $shared_harfbuzz \
    $(pkg-config --libs freetype2 libpng16 zlib) -lm -lpthread -ldl 2>"$work/probe.log" \
    || fallback "the static Cairo did not link ($(grep -m 1 -i "error" "$work/probe.log"))"
"$work/probe" || fallback "the static Cairo did not draw"

mv -f "$work/render-libs.o" "$out/render-libs.o"
# Written after the object, so a script never names a missing file.
printf '/* Written by scripts/link-static-libs.sh; see there. */\nINPUT("%s" %s)\n' \
    "$out/render-libs.o" "$shared_harfbuzz $(pkg-config --libs freetype2 libpng16 zlib) -lm" >"$work/script"
mv -f "$work/script" "$out/libiconbadge-render.so"
printf '%s\n%s\n' "$inputs" "$(stat -c "%s %Y %n" "$out/render-libs.o")" >"$out/stamp"
relink
