#!/bin/sh
# Links every C library iconbadge draws and codes with into the binary (LINKAGE=static,
# the default), or names them as shared libraries (LINKAGE=shared, for distribution
# packagers). Writes .build/static-libs/libiconbadge-render.so, a linker script that
# Package.swift links as -liconbadge-render; linker/libiconbadge-render.so, the same name
# further down the search path, is the shared one. The static script is also written
# as libiconbadge-render.a: the release binary is a static executable
# (scripts/release-build.sh), linked with -static, where the linker looks for lib*.a
# alone (a linker script is read whatever its name says).
#
# Static, two kinds of parts:
# - render-libs.o, one relocatable object, its symbols exported: Cairo (without its X11
#   and XCB surfaces), pixman, fontconfig, Expat, FriBidi, FreeType, and HarfBuzz
#   compiled from Debian's source with hidden symbols (Debian ships no libharfbuzz.a).
#   Exported because librsvg, opened later for an SVG icon, brings Pango and its own
#   libcairo.so.2 and libfreetype.so.6: the dynamic loader binds their calls to ours, so
#   the cairo_t we hand librsvg is drawn by the code that made it, and an FT_Face that
#   Pango gets from our Cairo is read by the same FreeType. One object, not archives,
#   because the Swift static runtime links with `--exclude-libs ALL`, which hides every
#   archive member's symbols.
# - archives that nothing outside the binary ever shares an object with, linked hidden:
#   libpng, zlib, libdeflate, libwebp and libwebpmux, libjpeg-turbo, Brotli (FreeType's
#   WOFF2), Cairo's script interpreter (it replays the drawing iconbadge-loader records
#   of an SVG, Sources/CImageLoaders/script_replay.c, which also stands in for the LZO
#   it never uses: liblzo2 is not linked), and LittleCMS compiled from Debian's source
#   (Debian ships no liblcms2.a).
#   A gdk-pixbuf loader keeps its own libpng or libjpeg, and no png_struct crosses.
#
# Why: each shared library is opened, read, mapped and bound by the dynamic loader at
# every start, before main (about 2 ms of a 3.6 ms start, make bench); the binary then
# ran only on the Debian release it was built on. Linked in, the binary needs glibc
# alone; librsvg and gdk-pixbuf stay optional, opened by iconbadge-loader (loader/).
#
# A missing archive fails the static build and names the Debian package that has it:
# it never falls back to a binary that needs other packages. HarfBuzz and LittleCMS are
# compiled from the source Debian built them from (deb.debian.org, checked against the
# SHA-256 of Debian's .dsc, Debian's patches applied), once per version.
#
# LINKAGE=shared (`make release LINKAGE=shared`) removes the static parts and writes the
# script of linker/ instead; the choice is kept in .build/static-libs/shared for later
# runs until LINKAGE=static. SwiftPM does not
# see a linker script change, so a change of linkage deletes every linked product under
# .build (debug, release, sanitizer and fuzz builds) for the next build to link again.
# Usage: scripts/link-static-libs.sh   (called by install-deps.sh; quiet when current)
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build/static-libs"
# STATIC_LIBDIR: the folder of the static archives, pkg-config's libdir of cairo unless
# given (the tests point it at a folder missing one archive).
libdir="${STATIC_LIBDIR:-$(pkg-config --variable=libdir cairo 2>/dev/null || true)}"
relink() {
    find "$root/.build" -path "$out" -prune -o -type f \( -name iconbadge -o -name iconbadgePackageTests.xctest \
        -o -name 'Fuzz[A-Z]*[a-z]' \) -perm -u+x -exec rm -f {} + 2>/dev/null || true
}
unwritable() {
    echo "make deps: cannot write $out; make it writable or remove it" >&2
    exit 73
}
# LINKAGE=shared: linker/libiconbadge-render.so, which names the shared libraries, in
# the one folder the link searches (Package.swift); a build that never ran this script
# finds no -liconbadge-render and stops, rather than linking either way unasked.
shared() {
    if ! cmp -s "$root/linker/libiconbadge-render.so" "$out/libiconbadge-render.so"; then
        { rm -f "$out/render-libs.o" "$out/stamp" "$out/libiconbadge-render.a" && cp "$root/linker/libiconbadge-render.so" "$out/.shared.$$" &&
            mv -f "$out/.shared.$$" "$out/libiconbadge-render.so"; } 2>/dev/null || unwritable
        relink
    fi
}
# A static link that cannot be made stops the build: a binary that silently needs
# other packages is what LINKAGE=static promises not to make.
fail() {
    echo "make deps: $1" >&2
    echo "make deps: (LINKAGE=shared links the shared libraries instead: make release LINKAGE=shared)" >&2
    exit 69
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

[ -n "$libdir" ] || fail "pkg-config does not know cairo; install libcairo2-dev"
for tool in ar nm ld cc c++ patch; do
    command -v "$tool" >/dev/null 2>&1 || fail "no $tool; install binutils, gcc, g++ and patch"
done
# The archives and the Debian package of each, name:package.
EXPORTED="cairo:libcairo2-dev pixman-1:libpixman-1-dev fontconfig:libfontconfig-dev expat:libexpat1-dev
fribidi:libfribidi-dev freetype:libfreetype-dev"
HIDDEN="cairo-script-interpreter:libcairo2-dev webpmux:libwebp-dev webp:libwebp-dev png16:libpng-dev jpeg:libjpeg62-turbo-dev deflate:libdeflate-dev
brotlidec:libbrotli-dev brotlicommon:libbrotli-dev z:zlib1g-dev"
for entry in $EXPORTED $HIDDEN; do
    [ -f "$libdir/lib${entry%%:*}.a" ] || fail "no $libdir/lib${entry%%:*}.a for a static link; install ${entry#*:}"
done
# libstdc++, the Swift runtime's C++ library: install-deps.sh links libstdc++.a into
# .build/static-cxx, where the link looks first; without it the binary would need
# libstdc++.so.6.
if [ ! -f "$root/.build/static-cxx/libstdc++.a" ]; then
    fail "no libstdc++.a for a static link (.build/static-cxx); install libstdc++-$(c++ -dumpversion | cut -d. -f1)-dev"
fi
hidden_archives=""
for entry in $HIDDEN; do hidden_archives="$hidden_archives $libdir/lib${entry%%:*}.a"; done

mkdir -p "$out" 2>/dev/null || unwritable
# Work folders of runs killed before their clean-up (an hour old: not a running one).
find "$out" -maxdepth 1 -name '.work.*' -mmin +60 -exec rm -rf {} + 2>/dev/null || true

# fetch_source NAME URL SHA256 FOLDER: downloads URL into FOLDER/NAME and checks it.
fetch_source() {
    { curl -fsSL --max-time 300 -o "$4/$1" "$2" 2>/dev/null ||
        python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' \
            "$2" "$4/$1" 2>/dev/null; } || return 1
    [ "$(sha256sum "$4/$1" | cut -d' ' -f1)" = "$3" ]
}

# HarfBuzz: compiled from the orig tarball of the installed Debian package, the source
# Debian built libharfbuzz0b from (its one patch touches only tests), as one
# translation unit (harfbuzz.cc) with hidden symbols: ours is never exported, so Pango
# keeps its own libharfbuzz.so and no HarfBuzz object crosses between the two.
harfbuzz="$out/harfbuzz.o"
build_harfbuzz() {
    version="$(dpkg-query -W -f='${Version}' libharfbuzz0b 2>/dev/null || true)"
    case "$version" in
    6.0.0+dfsg-*)
        tarball=harfbuzz_6.0.0+dfsg.orig.tar.xz
        sha256=89266cb363e49b6aa999eda04ca25b0d234a69ad9304679631371f4697652368
        ;;
    *) fail "HarfBuzz $version is installed; scripts/link-static-libs.sh knows the source of 6.0.0+dfsg (Debian 12): add this version's orig tarball and SHA-256 there" ;;
    esac
    flags="-O2 -fPIC -fvisibility=hidden -fvisibility-inlines-hidden -fno-exceptions -fno-rtti -fno-threadsafe-statics -DHAVE_PTHREAD=1"
    [ "$(cat "$harfbuzz.stamp" 2>/dev/null)" = "$sha256 $flags" ] && [ -f "$harfbuzz" ] && return 0
    rm -f "$harfbuzz" "$harfbuzz.stamp" "$out/harfbuzz.failed"
    echo "make deps: compiling HarfBuzz $version from Debian's source (once, about a minute)" >&2
    url="http://deb.debian.org/debian/pool/main/h/harfbuzz/$tarball"
    hbwork="$(mktemp -d "$out/.work.XXXXXX" 2>/dev/null)" || unwritable
    if ! fetch_source "$tarball" "$url" "$sha256" "$hbwork" ||
        ! tar -xJf "$hbwork/$tarball" -C "$hbwork" harfbuzz-6.0.0/src ||
        ! (cd "$hbwork/harfbuzz-6.0.0/src" && c++ $flags -c harfbuzz.cc -o ../harfbuzz.o); then
        rm -rf "$hbwork"
        fail "could not fetch, check or compile $url (SHA-256 $sha256)"
    fi
    mv -f "$hbwork/harfbuzz-6.0.0/harfbuzz.o" "$harfbuzz"
    printf '%s\n' "$sha256 $flags" >"$harfbuzz.stamp"
    rm -rf "$hbwork"
}

# LittleCMS 2.14 as Debian 12 builds it: the orig tarball and Debian's patches
# (2.14-2+deb12u1, among them CVE-2026-41254's fix), each checked against the SHA-256
# in Debian's .dsc, compiled with Debian's hardening flags into liblcms2.a. Pinned to
# that source whatever liblcms2-dev is installed: the binary carries this copy, and
# lcms2.h keeps its API within 2.x.
lcms2="$out/liblcms2.a"
build_lcms2() {
    source_version=2.14-2+deb12u1
    orig=lcms2_2.14.orig.tar.gz
    orig_sha256=28474ea6f6591c4d4cee972123587001a4e6e353412a41b3e9e82219818d5740
    debian=lcms2_$source_version.debian.tar.xz
    debian_sha256=3b88006a5ccc15f3d4b2f28310875a8c4d789ac8342deaf4113ed5c2fd4a59e8
    flags="-O2 -fPIC -fstack-protector-strong -D_FORTIFY_SOURCE=2 -Wformat -Werror=format-security"
    [ "$(cat "$lcms2.stamp" 2>/dev/null)" = "$source_version $flags" ] && [ -f "$lcms2" ] && [ -s "$lcms2.patches" ] &&
        return 0
    rm -f "$lcms2" "$lcms2.stamp" "$lcms2.patches"
    echo "make deps: compiling LittleCMS $source_version from Debian's source (once, about 20 seconds)" >&2
    pool="http://deb.debian.org/debian/pool/main/l/lcms2"
    lcwork="$(mktemp -d "$out/.work.XXXXXX" 2>/dev/null)" || unwritable
    if ! fetch_source "$orig" "$pool/$orig" "$orig_sha256" "$lcwork" ||
        ! fetch_source "$debian" "$pool/$debian" "$debian_sha256" "$lcwork"; then
        rm -rf "$lcwork"
        fail "could not fetch or check LittleCMS's source from $pool ($orig, $debian)"
    fi
    tar -xzf "$lcwork/$orig" -C "$lcwork" lcms2-2.14/src lcms2-2.14/include lcms2-2.14/plugins lcms2-2.14/utils lcms2-2.14/configure.ac &&
        tar -xJf "$lcwork/$debian" -C "$lcwork/lcms2-2.14" || fail "could not unpack $orig and $debian"
    # The series in order; a patch for a file left out above (tests, build files)
    # fails loudly rather than being skipped. Their names, in that order, go into
    # liblcms2.a.patches for the copyright file (scripts/package.sh).
    (cd "$lcwork/lcms2-2.14" && while IFS= read -r patch; do
        case "$patch" in '' | '#'*) continue ;; esac
        patch -p1 -s --no-backup-if-mismatch <"debian/patches/$patch" || exit 1
        printf '%s\n' "$patch" >>../patches
    done <debian/patches/series) || fail "a Debian patch of LittleCMS $source_version did not apply"
    # Relative paths only, so no path of this machine lands in the objects.
    (cd "$lcwork/lcms2-2.14" && mkdir objects && for source in src/*.c; do
        name="$(basename "$source" .c)"
        cc $flags -Iinclude -c "$source" -o "objects/$name.o" || exit 1
    done && cd objects && ar rcD ../liblcms2.a $(ls *.o | LC_ALL=C sort)) ||
        fail "LittleCMS $source_version did not compile"
    mv -f "$lcwork/lcms2-2.14/liblcms2.a" "$lcms2"
    mv -f "$lcwork/patches" "$lcms2.patches"
    printf '%s\n' "$source_version $flags" >"$lcms2.stamp"
    rm -rf "$lcwork"
}

build_harfbuzz
build_lcms2

exported_archives=""
for entry in $EXPORTED; do exported_archives="$exported_archives $libdir/lib${entry%%:*}.a"; done
# Rebuild only when an archive changed (a package upgrade), this script did, a compiled
# library did, or the object is not the one written last (a damaged build folder).
# shellcheck disable=SC2086
inputs="$(stat -L -c "%s %Y %n" $exported_archives $hidden_archives "$root/scripts/link-static-libs.sh" \
    "$harfbuzz" "$lcms2" 2>/dev/null || true)"
if [ -f "$out/render-libs.o" ] && [ -f "$out/libiconbadge-render.so" ] && [ -f "$out/libiconbadge-render.a" ] &&
    [ "$(cat "$out/stamp" 2>/dev/null)" = "$inputs
$(stat -c "%s %Y %n" "$out/render-libs.o")" ]; then
    exit 0
fi

work="$(mktemp -d "$out/.work.XXXXXX" 2>/dev/null)" || unwritable
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
            [ ! -e "$member" ] || fail "could not remove $member"
            dropped=$((dropped + 1))
        fi
    done
    [ "$dropped" -gt 0 ] || break
    defined="$(paste -sd '|' "$work/defined")"
    [ -n "$defined" ] || break
    pattern=" ($defined)\$"
done
# Sorted, so that the object's bytes do not depend on the order ar wrote the members.
set -- $(cd "$work/cairo" && ls *.o | LC_ALL=C sort)
members=""
for member in "$@"; do members="$members $work/cairo/$member"; done
# shellcheck disable=SC2086
ld -r -o "$work/render-libs.o" $members "$harfbuzz" --whole-archive \
    "$libdir/libpixman-1.a" "$libdir/libfontconfig.a" "$libdir/libexpat.a" "$libdir/libfribidi.a" \
    "$libdir/libfreetype.a" --no-whole-archive || fail "ld -r could not join the archives"

# Probe: the object and the archives must link into a position-independent executable
# with nothing but glibc, and draw, shape, and code PNG and WebP.
cat >"$work/probe.c" <<'EOF'
#include <stdio.h> /* before jpeglib.h, which needs FILE */
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <fribidi.h>
#include <harfbuzz/hb.h>
#include <jpeglib.h>
#include <lcms2.h>
#include <libdeflate.h>
#include <png.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <zlib.h>
int main(void) {
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4);
    cairo_t *cr = cairo_create(surface);
    cairo_rectangle(cr, 0, 0, 2, 2);
    cairo_fill(cr);
    int ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_data(surface)[3] == 255;
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    ok = ok && FcGetVersion() > 0 && fribidi_get_bidi_type(0x05D0) == FRIBIDI_TYPE_RTL;
    hb_buffer_t *buffer = hb_buffer_create();
    hb_buffer_add_utf8(buffer, "ab", -1, 0, -1);
    hb_buffer_guess_segment_properties(buffer);
    hb_shape(hb_font_get_empty(), buffer, 0, 0);
    ok = ok && hb_buffer_get_length(buffer) == 2 && hb_version_atleast(2, 0, 0);
    hb_buffer_destroy(buffer);
    ok = ok && png_access_version_number() >= 10600 && zlibVersion()[0] == '1' && WebPGetDecoderVersion() > 0;
    ok = ok && WebPGetMuxVersion() > 0 && cmsGetEncodedCMMversion() >= 2000 && JPEG_LIB_VERSION >= 62;
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(1);
    ok = ok && compressor != NULL;
    libdeflate_free_compressor(compressor);
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    info.err = jpeg_std_error(&errors);
    jpeg_create_decompress(&info);
    jpeg_destroy_decompress(&info);
    return ok ? 0 : 1;
}
EOF
# shellcheck disable=SC2046,SC2086
cc -fPIE -pie -rdynamic -o "$work/probe" "$work/probe.c" $(pkg-config --cflags cairo fontconfig fribidi harfbuzz) \
    "$work/render-libs.o" -Wl,--start-group $hidden_archives "$lcms2" -Wl,--end-group -lm -lpthread -ldl \
    2>"$work/probe.log" || fail "the static libraries did not link ($(grep -m 1 -i "error\|undefined" "$work/probe.log"))"
"$work/probe" || fail "the static libraries did not draw"
needed="$(readelf -d "$work/probe" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -v '^\(libc\|libm\|libpthread\|libdl\)\.so' || true)"
[ -z "$needed" ] || fail "the static probe still needs $(echo $needed | sed 's/ /, /g')"

mv -f "$work/render-libs.o" "$out/render-libs.o"
# Written after the object, so a script never names a missing file. GROUP: the archives
# call each other (FreeType calls libpng, which calls zlib) in no single order.
{
    printf '/* Written by scripts/link-static-libs.sh; see there. */\n'
    printf 'INPUT("%s")\n' "$out/render-libs.o"
    printf 'GROUP('
    for archive in $hidden_archives "$lcms2"; do printf '"%s" ' "$archive"; done
    printf ')\nINPUT(-lm)\n'
} >"$work/script"
cp "$work/script" "$work/script.a"
mv -f "$work/script.a" "$out/libiconbadge-render.a"
mv -f "$work/script" "$out/libiconbadge-render.so"
printf '%s\n%s\n' "$inputs" "$(stat -c "%s %Y %n" "$out/render-libs.o")" >"$out/stamp"
relink
