#!/bin/sh
# make release: `swift build -c release` with the release flags, built so that two clean
# checkouts of one commit give the same binary (HACKING.md, Reproducible builds).
#
# swiftc 6.3.1 compiles a few functions to one of two variants, following where its
# objects lie in memory; the heap's layout follows the build folder's path (every path
# argument's length) and address-space randomisation. So the build runs
#   - at one fixed path, FIXED_ROOT: a private mount namespace puts the checkout there
#     (over an empty tmpfs at /mnt, seen by this build alone);
#   - with randomisation off for the compiler (setarch -R);
#   - in a fixed environment (env -i), since the environment is copied into the
#     compilers' memory too;
#   - one job at a time (--jobs 1): in a parallel build, which compile builds a clang
#     module into the shared module cache and which one waits and loads it is a race, and
#     the variant follows it (two clean clones built at two jobs differed). Only the
#     iconbadge product is built: the fuzz targets have builds of their own.
# Where a mount namespace cannot be made (no unshare, no user namespaces) it builds in
# place, says so in one line, and the binary may differ from another checkout's.
#
# The binary is a static executable (LINKAGE=static, the default): glibc, the Swift
# runtime and every C library linked in, no PT_INTERP and no DT_NEEDED, so it runs on
# any x86_64 Linux, in an empty container too. It is static-pie: position-independent
# and relocated by its own start-up code, so the kernel still loads it at a random
# address (hostile icons are parsed in this process; plain -static would put every
# gadget at a fixed address for no measurable start-up gain: HACKING.md, Static
# linking). -static-executable makes the Swift driver link Swift's static runtime
# with -static; clang's -static-pie overrides that -static (it picks rcrt1.o). With
# LINKAGE=shared (for distribution packagers) it stays a dynamic executable.
#
# Usage: scripts/release-build.sh   (from the checkout)
# Environment: SWIFT (default swift); SOURCE_DATE_EPOCH is passed on.
set -eu

checkout=$(pwd -P)
swift=${SWIFT:-swift}
swift_path=$(command -v "$swift") || {
    echo "release-build.sh: \"$swift\" is not on the PATH; install Swift 6.3 (HACKING.md)" >&2
    exit 69
}
# The fixed path: its length, like the rest, must be the same in every build.
fixed_parent=/mnt
fixed_root=$fixed_parent/iconbadge

[ $# -eq 0 ] || {
    echo "release-build.sh: takes no arguments (got \"$1\"); the release flags are its own" >&2
    exit 64
}

# Randomisation off, where the kernel lets this process turn it off.
norandom=""
if setarch -R true 2>/dev/null; then norandom="setarch -R"; fi

# A mount namespace: as root directly, else through a user namespace (unshare -r).
unshare_cmd=""
case "$checkout" in
"$fixed_parent" | "$fixed_parent"/*) ;; # the tmpfs over /mnt would hide the checkout itself
*)
    if unshare -m --propagation private true 2>/dev/null; then
        unshare_cmd="unshare -m --propagation private"
    elif unshare -r -m --propagation private true 2>/dev/null; then
        unshare_cmd="unshare -r -m --propagation private"
    fi
    ;;
esac

if [ -n "$unshare_cmd" ] && [ -n "$norandom" ]; then
    root=$fixed_root
else
    root=$checkout
    why="no mount namespace could be made (unshare)"
    [ -z "$norandom" ] && why="address-space randomisation cannot be turned off here (setarch -R)"
    echo "release-build.sh: building in place, not at $fixed_root: $why; the binary may differ from another checkout's (HACKING.md, Reproducible builds)" >&2
fi

static_flags="-Xswiftc -static-executable -Xswiftc -Xclang-linker -Xswiftc -static-pie"
[ -f "$checkout/.build/static-libs/shared" ] && static_flags=""

# The command: the build's whole environment (a PATH that finds the same tools, and
# what the build reads), then swift build with the flags; the compilers map the
# checkout's path to "." in everything they write.
# TMPDIR inside .build: SwiftPM locks "/tmp/" + the build folder's path, which is the
# same fixed path for every checkout, so two checkouts' release builds would wait on one
# lock.
mkdir -p "$checkout/.build/release-tmp"
set -- "PATH=$(dirname "$swift_path"):/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    "HOME=${HOME:-/root}" LC_ALL=C.UTF-8 TZ=UTC "TMPDIR=$root/.build/release-tmp"
[ -n "${SOURCE_DATE_EPOCH:-}" ] && set -- "$@" "SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH"
# shellcheck disable=SC2086 # $norandom is "setarch -R" or nothing; $static_flags a word list
set -- env -i "$@" $norandom "$swift_path" build -c release --product iconbadge --jobs 1 \
    --static-swift-stdlib --disable-local-rpath $static_flags \
    -Xswiftc -gnone -Xswiftc -file-prefix-map -Xswiftc "$root=." -Xcc "-ffile-prefix-map=$root=."

[ "$root" = "$checkout" ] && { cd "$checkout" && exec "$@"; }
# shellcheck disable=SC2086 # $unshare_cmd is a word list
exec $unshare_cmd sh -eu -c '
    fixed_parent=$1 fixed_root=$2 checkout=$3
    shift 3
    mount -t tmpfs -o mode=0755,size=1m iconbadge-release "$fixed_parent"
    mkdir "$fixed_root"
    mount --bind "$checkout" "$fixed_root"
    cd "$fixed_root"
    exec "$@"
' release-build "$fixed_parent" "$fixed_root" "$checkout" "$@"
