#!/bin/sh
# make test-install: `make install` and `make uninstall` into a temporary PREFIX, checked.
set -eu
binary=$1
prefix=$(mktemp -d "${TMPDIR:-/tmp}/iconbadge-prefix.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }

make -s install PREFIX="$prefix" >/dev/null
for file in bin/iconbadge libexec/iconbadge/iconbadge-loader share/man/man1/iconbadge.1 share/bash-completion/completions/iconbadge \
    share/zsh/site-functions/_iconbadge share/fish/vendor_completions.d/iconbadge.fish; do
    [ -s "$prefix/$file" ] || fail "$file was not installed"
done
# The manual where help and the man page say it is, its pages' pictures beside it.
for file in share/doc/iconbadge/README.md share/doc/iconbadge/manual/README.md share/doc/iconbadge/manual/options.md \
    share/doc/iconbadge/images/platform-ios.png; do
    [ -s "$prefix/$file" ] || fail "$file was not installed"
done
pages=$(find "$prefix/share/doc/iconbadge/manual" -name '*.md' | wc -l)
[ "$pages" -eq "$(find docs/manual -name '*.md' | wc -l)" ] || fail "$pages manual pages installed, not those of docs/manual"
[ -x "$prefix/bin/iconbadge" ] || fail "the binary is not executable"
"$prefix/bin/iconbadge" --version | grep -q '^iconbadge ' || fail "the installed binary does not run"
# It finds its loader in PREFIX/libexec/iconbadge: an SVG icon renders.
"$prefix/bin/iconbadge" Fixtures/icons/mail-unread-symbolic.svg --size 64x64 --value 3 -o "$prefix/svg-icon.png" ||
    fail "the installed binary does not render an SVG icon through PREFIX/libexec/iconbadge/iconbadge-loader"
rm -f "$prefix/svg-icon.png"
# The loader needs glibc alone (scripts/build-loader.sh).
loader_needs=$(readelf -d "$prefix/libexec/iconbadge/iconbadge-loader" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
    grep -v -E '^(libc\.so\.6|libdl\.so\.2)$' || true)
[ -z "$loader_needs" ] || fail "iconbadge-loader needs more than glibc: $loader_needs"
# The release binary carries the Swift standard library: no libswift*.so needed.
if ldd "$prefix/bin/iconbadge" | grep -q 'libswiftCore'; then fail "the binary links libswiftCore dynamically"; fi
# LINKAGE=static (the default; scripts/link-static-libs.sh, scripts/release-build.sh):
# every library is linked in, glibc too: a static executable, with no program
# interpreter and no shared library to load (readelf).
linkage="${LINKAGE:-}"
if [ -z "$linkage" ]; then
    linkage=static
    [ -f .build/static-libs/shared ] && linkage=shared
fi
if [ "$linkage" = static ]; then
    others=$(readelf -d "$prefix/bin/iconbadge" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    [ -z "$others" ] || fail "the binary (LINKAGE=static) needs shared libraries: $(echo $others | sed 's/ /, /g'); see scripts/release-build.sh"
    ! readelf -lW "$prefix/bin/iconbadge" | grep -q 'INTERP' ||
        fail "the binary (LINKAGE=static) has a program interpreter: not a static executable; see scripts/release-build.sh"
fi
# The man page renders without warnings.
warnings=$(groff -man -Tutf8 -ww "$prefix/share/man/man1/iconbadge.1" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "groff warns: $warnings"
# The bash completion, for real: loaded in bash, it completes options and values.
reply=$(PATH="$prefix/bin:$PATH" bash -c '
    . "$1/share/bash-completion/completions/iconbadge"
    complete -p iconbadge >/dev/null || exit 1
    COMP_WORDS=(iconbadge icon.png --overflow ""); COMP_CWORD=3; _iconbadge; echo "${COMPREPLY[*]}"
' sh "$prefix")
[ "$reply" = "clamp clip expand" ] || fail "bash completion gave '$reply'"

make -s uninstall PREFIX="$prefix" >/dev/null
left=$(find "$prefix" -type f)
[ -z "$left" ] || fail "uninstall left: $left"
[ ! -e "$prefix/libexec/iconbadge" ] || fail "uninstall left $prefix/libexec/iconbadge"
echo "test-install: ok (installed, checked and removed the binary, its loader, man page, completions and manual under a temporary prefix; the binary $([ "$linkage" = static ] && echo "is a static executable" || echo "loads the shared libraries, LINKAGE=shared"))"
