#!/bin/sh
# Builds iconbadge-loader (loader/, loader/loader.h says what it is) and copies it into
# each DEST folder given (.build/debug, .build/release: beside the iconbadge binary,
# where the binary looks for it).
#
# It is linked against glibc alone and built with `cc` against the oldest glibc we
# test, Debian 11's (2.31): a sysroot made once with
#   mmdebstrap --variant=minbase --include=libc6-dev bullseye .build/roots/bullseye-sysroot
# (cached there, beside test-dist's roots; remove it to make it again). So the loader
# runs on every glibc from 2.31 on, and the build stops if it needs a newer symbol
# (objdump -T, below). Without mmdebstrap or the network (and not as root) the
# sysroot cannot be made: the loader is then built against this machine's glibc, and
# the script says so in one line (CI offline does not fail). ICONBADGE_LOADER_SYSROOT=none
# skips making the sysroot (one already made is still used); a failed attempt leaves
# .build/roots/bullseye-sysroot.failed, and is not retried until that is removed.
#
# Reproducible: the same sources, sysroot and compiler give the same bytes (paths
# mapped to ".", no dates, the build ID a hash of the contents). Rebuilt only when a
# source, this script, the compiler or the sysroot changes (.build/loader/stamp).
#
# Usage: scripts/build-loader.sh [DEST...]    (quiet when current)
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.build/loader"
sysroot="$root/.build/roots/bullseye-sysroot"
# The newest glibc symbol version the loader may need: Debian 11's glibc.
max_glibc=2.31

say() { echo "build-loader: $*" >&2; }

command -v cc >/dev/null 2>&1 || {
    say "no cc; install gcc"
    exit 69
}
mkdir -p "$out" "$root/.build/roots"

# The sysroot: made once, kept. A made one has usr/lib/x86_64-linux-gnu/libc.so.
multiarch="$(cc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)"
have_sysroot() { [ -f "$sysroot/usr/lib/$multiarch/libc.so" ] && [ -f "$sysroot/usr/include/stdio.h" ]; }
if ! have_sysroot && [ ! -f "$sysroot.failed" ] && [ "${ICONBADGE_LOADER_SYSROOT:-}" != none ]; then
    if command -v mmdebstrap >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        say "making the Debian 11 (glibc $max_glibc) sysroot with mmdebstrap (once; cached in $sysroot)"
        partial="$sysroot.partial.$$"
        rm -rf "$partial"
        if mmdebstrap --variant=minbase --include=libc6-dev --aptopt='Acquire::Retries "3"' bullseye "$partial" \
            >"$out/mmdebstrap.log" 2>&1; then
            # Its links to absolute paths (lib64/ld-linux-x86-64.so.2 ->
            # /lib/x86_64-linux-gnu/ld-2.31.so) would reach this machine's files: made
            # relative, inside the sysroot.
            find "$partial/lib" "$partial/lib64" "$partial/usr/lib" -lname '/*' 2>/dev/null | while read -r link; do
                ln -sfnr "$partial$(readlink "$link")" "$link"
            done
            rm -rf "$sysroot" && mv "$partial" "$sysroot"
        else
            rm -rf "$partial"
            # Not retried at every build: remove the marker to try again.
            : >"$sysroot.failed"
        fi
    fi
fi
if have_sysroot; then
    against="Debian 11 sysroot"
    # The sysroot's library folders before the compiler's own, which name this
    # machine's /usr/lib/MULTIARCH; -B finds its crt1.o.
    lib="$sysroot/usr/lib/$multiarch"
    sysflags="--sysroot=$sysroot -B$lib -L$lib -L$sysroot/lib/$multiarch"
    sysid="$(cat "$sysroot/var/lib/dpkg/status" 2>/dev/null | grep -A1 '^Package: libc6-dev$' | sha256sum | cut -c1-16)"
else
    against="host glibc"
    sysflags=""
    sysid="host-$(ldd --version 2>/dev/null | head -1 | sha256sum | cut -c1-16)"
fi

sources="loader/main.c loader/libraries.c loader/cairo.c Sources/CImageLoaders/isolated_child.c
Sources/CImageLoaders/isolated_server.c"
headers="loader/loader.h Sources/CImageLoaders/include/image_loaders.h Sources/CImageLoaders/isolated_server.h"
# Hardened as Debian builds its programs; -DIB_SERVER_ONLY leaves out the parent side
# of isolated_server.c. No libpthread (glibc 2.31 keeps pthread_* there): the loader
# is single-threaded and calls none.
cflags="-std=gnu11 -O2 -g0 -Wall -Wextra -Werror -fPIE -fstack-protector-strong -D_FORTIFY_SOURCE=2 -DIB_SERVER_ONLY
-ffile-prefix-map=$root=. -fno-ident"
ldflags="-pie -Wl,-z,relro,-z,now -Wl,--as-needed -Wl,--build-id=sha1 -Wl,--hash-style=gnu -s"
stamp="$(cd "$root" && cat $sources $headers scripts/build-loader.sh | sha256sum | cut -c1-32) $(cc --version | head -1) $sysid $against"
binary="$out/iconbadge-loader"

if [ "$(cat "$out/stamp" 2>/dev/null)" != "$stamp" ] || [ ! -x "$binary" ]; then
    [ "$against" = "host glibc" ] &&
        say "no Debian 11 sysroot (needs mmdebstrap, root and deb.debian.org): built against this machine's glibc, which may be newer than 2.31"
    rm -f "$out/stamp"
    (cd "$root" && cc $sysflags $cflags -ISources/CImageLoaders/include -ISources/CImageLoaders -Iloader $sources \
        $ldflags -ldl -o "$binary.new")
    # Only glibc: libc and libdl (where dlopen lives before 2.34).
    needed="$(readelf -d "$binary.new" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
    for library in $needed; do
        case "$library" in
        libc.so.6 | libdl.so.2) ;;
        *)
            say "FAIL: iconbadge-loader needs $library; it must need glibc alone"
            rm -f "$binary.new"
            exit 70
            ;;
        esac
    done
    # The newest GLIBC_ symbol version it needs must be in Debian 11's glibc.
    newest="$(objdump -T "$binary.new" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -t. -k1,1n -k2,2n -k3,3n | tail -1)"
    if [ "$against" != "host glibc" ] &&
        [ "$(printf '%s\n%s\n' "$newest" "$max_glibc" | sort -t. -k1,1n -k2,2n | tail -1)" != "$max_glibc" ]; then
        say "FAIL: iconbadge-loader needs GLIBC_$newest, newer than Debian 11's $max_glibc"
        rm -f "$binary.new"
        exit 70
    fi
    mv -f "$binary.new" "$binary"
    printf '%s\n' "$newest" >"$out/glibc"
    printf '%s\n' "$stamp" >"$out/stamp"
fi

for dest in "$@"; do
    mkdir -p "$dest"
    cmp -s "$binary" "$dest/iconbadge-loader" 2>/dev/null || cp -f "$binary" "$dest/iconbadge-loader"
done
