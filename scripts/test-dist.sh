#!/bin/sh
# test-dist.sh BINARY OUTDIR: make test-dist. Builds the .deb and the tarball of BINARY
# (the release build) into OUTDIR and proves them:
#  1. lintian passes on the .deb (no error or warning beyond packaging/lintian-overrides);
#  2. both build again, in another folder under another umask, to the same bytes; then a
#     clone of HEAD in another folder builds the release binary, the .deb and the tarball
#     again, and all three must be the same bytes as these (reproducible builds);
#  3. in clean Debian 12 (bookworm) and 13 (trixie) roots, made by mmdebstrap
#     --variant=minbase and cached in .build/roots (remove a .tar there to make it
#     again): `apt-get install -y ./iconbadge_*.deb`; the main job on PNG, SVG, JPEG,
#     WebP, GIF, BMP, TIFF and ICO icons, `compare` (equal, then different with a diff
#     image) and `batch --check` against goldens made by BINARY; every output copied
#     out and compared with BINARY's own with BINARY's `compare` (exact); then
#     `apt-get purge -y iconbadge` must leave no file of `dpkg -L iconbadge`;
#  4. in the same root, after `apt-get autoremove --purge`, only the packages INSTALL
#     names (--no-install-recommends), the tarball unpacked in /opt: the same checks.
# The roots run under chroot in a private mount namespace (unshare), with /proc mounted
# and unmounted by a trap; the folders they were unpacked into are removed on every exit.
# The .debs apt downloads are kept in .build/roots/SUITE-debs, so a second run downloads
# nothing new; the roots stay minbase, so every run installs the packages for real.
# A root that cannot be made (no network) skips the rest: the last line is then
# "test-dist: SKIPPED (reason)" and the exit status 0; .ci/run prints that line in its
# summary (it is also in .build/test-dist/result). Otherwise the last line is
# "test-dist: ok (...)", or "test-dist: FAIL: ..." with exit status 1.
set -eu

[ "$#" -eq 2 ] || {
    echo "usage: scripts/test-dist.sh BINARY OUTDIR" >&2
    exit 64
}
binary=$1
outdir=$2
root="$(cd "$(dirname "$0")/.." && pwd)"
state="$root/.build/test-dist"
roots="$root/.build/roots"
result="$state/result"
SUITES="${TEST_DIST_SUITES:-bookworm trixie}"

[ "$(id -u)" -eq 0 ] || {
    echo "test-dist: FAIL: needs root (mmdebstrap, chroot and mount); run it as root, or in CI" >&2
    exit 1
}
# A private mount namespace: a mount made below cannot outlive this process, even
# killed; the trap below unmounts on every ordinary exit anyway.
if [ -z "${ICONBADGE_TEST_DIST_NAMESPACE:-}" ] && unshare --mount --propagation private true 2>/dev/null; then
    export ICONBADGE_TEST_DIST_NAMESPACE=1
    exec unshare --mount --propagation private "$0" "$@"
fi

started=$(date +%s)
mkdir -p "$state" "$roots"
# Roots and work folders of runs killed before their clean-up (SIGKILL; two hours old,
# not a running one): their mounts went with their namespace; one still mounted here
# is left alone.
find "$state" -mindepth 1 -maxdepth 1 -type d \( -name 'root-*' -o -name 'work.*' \) -mmin +120 |
    while IFS= read -r stale; do
        grep -qF " $stale/" /proc/self/mountinfo 2>/dev/null || rm -rf --one-file-system "$stale"
    done
rm -f "$result"
log="$state/log"
: >"$log"
rootdir=""
mounted=""
# The root of the current suite: unmounted, then removed.
cleanup_root() {
    if [ -n "$mounted" ]; then
        umount "$mounted" 2>/dev/null || umount -l "$mounted" 2>/dev/null || true
        mounted=""
    fi
    if [ -n "$rootdir" ]; then
        # Never delete through a mount that is still there.
        if grep -qF " $rootdir/" /proc/self/mountinfo 2>/dev/null; then
            echo "test-dist: $rootdir still has a mount; left in place (umount it, then remove it)" >&2
        else
            rm -rf --one-file-system "$rootdir"
        fi
        rootdir=""
    fi
}
cleanup() {
    cleanup_root
    rm -rf "$state/work.$$"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

say() { echo "test-dist: $*"; }
finish() {
    # $1: the summary line; written to $result for .ci/run, and printed last.
    printf '%s\n' "$1" >"$result"
    printf '%s\n' "$1"
}
fail() {
    finish "test-dist: FAIL: $*"
    exit 1
}
skip() {
    finish "test-dist: SKIPPED ($*)"
    exit 0
}
# quiet LOGNAME COMMAND...: runs it with its output in $state/LOGNAME.log, shown on failure.
quiet() {
    name=$1
    shift
    "$@" >"$state/$name.log" 2>&1 && return 0
    status=$?
    tail -n 30 "$state/$name.log" >&2
    return "$status"
}

[ -x "$binary" ] || fail "no release binary at $binary; run make release"
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
for tool in mmdebstrap lintian chroot unshare; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing; run scripts/install-deps.sh --test-dist"
done

# --- 1 and 2: the packages, lintian, built twice -------------------------------------
say "building the .deb and the tarball into $outdir"
deb="$("$root/scripts/package.sh" deb "$binary" "$outdir")" || fail "make deb failed (above)"
tarball="$("$root/scripts/package.sh" tarball "$binary" "$outdir")" || fail "make dist failed (above)"
say "lintian $(basename "$deb")"
lint_status=0
lintian --fail-on error,warning --display-info "$deb" >"$state/lintian.log" 2>&1 || lint_status=$?
grep -v '^running with root privileges' "$state/lintian.log" | sed 's/^/  /' || true
[ "$lint_status" -eq 0 ] ||
    fail "lintian reports an error or a warning on $deb (above): fix it, or add it with its reason to packaging/lintian-overrides"

work="$state/work.$$"
mkdir -p "$work/again"
say "building both again (umask 077) to compare the bytes"
(umask 077 && "$root/scripts/package.sh" deb "$binary" "$work/again" >/dev/null) || fail "the second .deb build failed"
(umask 077 && "$root/scripts/package.sh" tarball "$binary" "$work/again" >/dev/null) || fail "the second tarball build failed"
for file in "$deb" "$tarball"; do
    again="$work/again/$(basename "$file")"
    if ! cmp -s "$file" "$again"; then
        fail "$(basename "$file") is not reproducible: two builds differ (diffoscope $file $again shows where)"
    fi
    say "reproducible: $(sha256sum "$file" | cut -c1-64) $(basename "$file") (built twice)"
done

# --- 2b: a second checkout in another folder, the same bytes -------------------------
# A clone of HEAD in a folder of another name and depth: `make release`, `make deb` and
# `make dist` there must give the bytes made here. Uncommitted changes would make the
# two differ for a reason that is not the build's, so they stop this step.
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    fail "the work tree has uncommitted changes; commit them, then run make test-dist (a second clone of HEAD is built to compare the bytes)"
fi
second="$work/another/checkout/iconbadge"
say "building HEAD again in a second clone, $second"
mkdir -p "$(dirname "$second")"
quiet clone git clone --quiet --no-hardlinks "$root" "$second" || fail "could not clone $root (above)"
linkage=static
[ -f "$root/.build/static-libs/shared" ] && linkage=shared
quiet second-release make -C "$second" release LINKAGE="$linkage" </dev/null ||
    fail "make release failed in the second clone (above; log: $state/second-release.log)"
quiet second-deb make -C "$second" deb DIST_OUT="$work/second-out" </dev/null || fail "make deb failed in the second clone (above)"
quiet second-dist make -C "$second" dist DIST_OUT="$work/second-out" </dev/null || fail "make dist failed in the second clone (above)"
if ! cmp -s "$binary" "$second/.build/release/iconbadge"; then
    fail "the release binary is not reproducible: $binary and $second/.build/release/iconbadge differ (diffoscope shows where; HACKING.md, Reproducible builds)"
fi
say "reproducible: $(sha256sum "$binary" | cut -c1-64) iconbadge (two clones, two folders)"
for file in "$deb" "$tarball"; do
    again="$work/second-out/$(basename "$file")"
    cmp -s "$file" "$again" ||
        fail "$(basename "$file") is not reproducible: the second clone's differs (diffoscope $file $again shows where)"
    say "reproducible: $(sha256sum "$file" | cut -c1-64) $(basename "$file") (two clones)"
done
rm -rf "$work/another"

# --- The inputs, and what BINARY makes of them -------------------------------------
inputs="$work/inputs"
mkdir -p "$inputs/in"
cp "$root/Fixtures/icons/folder-48x48.png" "$root/Fixtures/icons/mail-unread-symbolic.svg" \
    "$root/Fixtures/formats/folder-48.jpg" "$root/Fixtures/formats/resvg-image.webp" \
    "$root/Fixtures/formats/folder-48.bmp" "$root/Fixtures/formats/folder-48.ico" \
    "$root/Fixtures/formats/folder-48.tiff" "$root/Fixtures/formats/red-then-blue.gif" "$inputs/in/"
papirus="$root/Fixtures/corpus/icons/papirus-svg/firefox.svg"
[ -f "$papirus" ] || fail "$papirus is missing from the checkout (Fixtures/corpus/SOURCES.md)"
cp "$papirus" "$inputs/in/papirus-firefox.svg"
cat >"$inputs/in/manifest.json" <<'EOF'
{"jobs": [
  {"icon": "in/folder-48x48.png", "value": "3", "scale": 2, "output": "png-3@2x.png"},
  {"icon": "in/mail-unread-symbolic.svg", "dot": true, "scale": 4, "output": "svg-dot@4x.png"},
  {"icon": "in/folder-48.jpg", "value": "150", "output": "jpeg-99plus.png"}
]}
EOF
# The checks, run in a root with the iconbadge under test (and here with BINARY): every
# output lands in out/, compared afterwards. Exit statuses are checked here too.
cat >"$inputs/checks.sh" <<'EOF'
#!/bin/sh
# checks.sh ICONBADGE: run from the folder holding in/ (and goldens/ in a root).
set -eu
ib=$1
mkdir -p out
"$ib" --version >out/version.txt
"$ib" in/folder-48x48.png --value 3 -o out/png-3.png
"$ib" in/folder-48x48.png --value 4 -o out/png-4.png
"$ib" in/mail-unread-symbolic.svg --dot --scale 4 -o out/svg-dot@4x.png
"$ib" in/papirus-firefox.svg --value 3 -o out/papirus-3.png
"$ib" in/folder-48.jpg --value 3 -o out/jpeg-3.png
"$ib" in/resvg-image.webp --value 3 -o out/webp-3.png
"$ib" in/folder-48.bmp --value 3 -o out/bmp-3.png
"$ib" in/folder-48.ico --value 3 -o out/ico-3.png
"$ib" in/folder-48.tiff --value 3 -o out/tiff-3.png
"$ib" in/red-then-blue.gif --dot -o out/gif-dot.png
[ -d goldens ] || exit 0
"$ib" compare out/png-3.png goldens/png-3.png
status=0
"$ib" compare out/png-3.png out/png-4.png --diff out/diff-3-4.png || status=$?
[ "$status" -eq 1 ] || { echo "compare of two different images exited $status, not 1" >&2; exit 1; }
"$ib" batch in/manifest.json --check goldens
echo "checks: ok"
EOF
say "rendering the expected images with $binary"
(cd "$inputs" && quiet expected sh ./checks.sh "$binary") || fail "the build tree's binary failed the checks (above)"
mv "$inputs/out" "$work/expected"
mkdir -p "$inputs/goldens"
cp "$work/expected/png-3.png" "$inputs/goldens/"
(cd "$inputs" && quiet goldens "$binary" batch in/manifest.json --check goldens --update --quiet) ||
    fail "the build tree's binary could not make the goldens (above)"
"$binary" compare "$work/expected/png-3.png" "$work/expected/png-4.png" --diff "$work/expected/diff-3-4.png" >/dev/null 2>&1 || true

# compare_outputs LABEL FOLDER: every expected image against the one made in a root.
compare_outputs() {
    count=0
    same_bytes=0
    for expected in "$work/expected"/*.png; do
        name="$(basename "$expected")"
        [ -f "$2/$name" ] || fail "$1: $name was not written"
        "$binary" compare "$2/$name" "$expected" >"$state/compare.log" 2>&1 ||
            fail "$1: $name differs from the build tree's: $(cat "$state/compare.log")"
        count=$((count + 1))
        if cmp -s "$2/$name" "$expected"; then same_bytes=$((same_bytes + 1)); fi
    done
    say "$1: $count images pixel-identical to the build tree's ($same_bytes of them byte-identical)"
}

# --- 3 and 4: the roots ------------------------------------------------------------
# make_root SUITE: .build/roots/SUITE.tar, made once.
make_root() {
    [ -s "$roots/$1.tar" ] && return 0
    say "$1: creating the root with mmdebstrap --variant=minbase (once; cached in $roots/$1.tar)"
    partial="$roots/.$1.$$.tar"
    if ! mmdebstrap --variant=minbase --skip=cleanup/apt/lists --aptopt='Acquire::Retries "3"' \
        "$1" "$partial" >"$state/mmdebstrap-$1.log" 2>&1; then
        rm -f "$partial"
        reason="$(grep -m 1 -E '^E: ' "$state/mmdebstrap-$1.log" | cut -c1-160)"
        skip "cannot create the Debian $1 root, no network to deb.debian.org? ${reason:-see $state/mmdebstrap-$1.log}"
    fi
    mv -f "$partial" "$roots/$1.tar"
}

in_root() {
    chroot "$rootdir" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# apt_in_root SUITE STEP COMMAND: an apt-get command in the root, logged; a failure
# after an `apt-get update` that could not reach the archive is a skip, not a failure.
apt_in_root() {
    suite=$1
    step=$2
    shift 2
    echo "# $*" >>"$state/$suite-apt.log"
    if in_root sh -c "cd /tmp/iconbadge-test && $*" >>"$state/$suite-apt.log" 2>&1; then
        grep -E '^[0-9]+ upgraded, [0-9]+ newly installed' "$state/$suite-apt.log" | tail -n 1 | sed "s/^/test-dist: $suite: $step: /"
        return 0
    fi
    tail -n 20 "$state/$suite-apt.log" >&2
    [ "$offline" = yes ] && skip "$suite: '$*' failed and the archive was unreachable (apt-get update failed)"
    fail "$suite: '$*' failed (above; the whole log is $state/$suite-apt.log)"
}

# run_checks SUITE LABEL ICONBADGE: checks.sh in the root, outputs copied out and compared.
run_checks() {
    rm -rf "$rootdir/tmp/iconbadge-test/out"
    in_root sh -c "cd /tmp/iconbadge-test && sh ./checks.sh '$3'" >"$state/$1-$2.log" 2>&1 || {
        tail -n 20 "$state/$1-$2.log" >&2
        fail "$1: the checks failed with the $2 (above; $state/$1-$2.log)"
    }
    rm -rf "$state/$1-$2-out"
    cp -R "$rootdir/tmp/iconbadge-test/out" "$state/$1-$2-out"
    say "$1: $2: $(head -n 1 "$state/$1-$2-out/version.txt"); $(grep -E '^(librsvg|gdk-pixbuf) ' "$state/$1-$2-out/version.txt" | paste -sd ',' | sed 's/,/, /g')"
    say "$1: $2: main job on PNG, SVG, JPEG, WebP, GIF, BMP, TIFF, ICO; compare; batch --check: $(tail -n 1 "$state/$1-$2.log")"
    compare_outputs "$1: $2" "$state/$1-$2-out"
}

for suite in $SUITES; do
    make_root "$suite"
done
debname="$(basename "$deb")"
tarname="$(basename "$tarball")"
for suite in $SUITES; do
    suite_started=$(date +%s)
    : >"$state/$suite-apt.log"
    rootdir="$(mktemp -d "$state/root-$suite.XXXXXX")"
    tar -xf "$roots/$suite.tar" -C "$rootdir" --numeric-owner
    mount -t proc proc "$rootdir/proc"
    mounted="$rootdir/proc"
    # The host's resolver for apt; the root's own file (or symlink) is replaced, never
    # written through.
    rm -f "$rootdir/etc/resolv.conf"
    cp /etc/resolv.conf "$rootdir/etc/resolv.conf" 2>/dev/null || true
    mkdir "$rootdir/tmp/iconbadge-test"
    cp -R "$inputs/in" "$inputs/goldens" "$inputs/checks.sh" "$deb" "$tarball" "$rootdir/tmp/iconbadge-test/"
    # The .debs of earlier runs, so that apt downloads only what is new.
    cache="$roots/$suite-debs"
    archives="$rootdir/var/cache/apt/archives"
    mkdir -p "$cache"
    if [ ! -d "$archives" ] || [ -L "$archives" ]; then fail "$suite: the root has no /var/cache/apt/archives folder"; fi
    find "$cache" -maxdepth 1 -name '*.deb' -exec cp -l {} "$archives/" \; 2>/dev/null ||
        find "$cache" -maxdepth 1 -name '*.deb' -exec cp {} "$archives/" \;

    offline=no
    if ! in_root apt-get update >>"$state/$suite-apt.log" 2>&1; then
        offline=yes
        say "$suite: apt-get update failed (no network?): using the root's package lists and cached .debs"
    fi
    say "$suite: apt-get install -y ./$debname"
    apt_in_root "$suite" "install" apt-get install -y "./$debname"
    in_root dpkg -L iconbadge >"$state/$suite-files"
    # shellcheck disable=SC2016
    in_root dpkg-query -W -f='${Status}\n' librsvg2-2 libgdk-pixbuf-2.0-0 webp-pixbuf-loader 2>/dev/null |
        grep -qv 'install ok installed' && fail "$suite: a runtime package of the .deb is not installed"
    run_checks "$suite" deb /usr/bin/iconbadge
    [ -s "$rootdir/usr/share/doc/iconbadge/manual/options.md" ] || fail "$suite: the .deb has no manual in /usr/share/doc/iconbadge/manual"
    # The man page and the completions, where Debian's man, bash-completion, zsh and fish look.
    # shellcheck disable=SC2016
    in_root bash -c 'gzip -t /usr/share/man/man1/iconbadge.1.gz &&
        head -n 1 /usr/share/zsh/vendor-completions/_iconbadge | grep -qx "#compdef iconbadge" &&
        grep -q "complete -c iconbadge" /usr/share/fish/vendor_completions.d/iconbadge.fish &&
        . /usr/share/bash-completion/completions/iconbadge &&
        COMP_WORDS=(iconbadge icon.png --overflow ""); COMP_CWORD=3; _iconbadge; [ "${COMPREPLY[*]}" = "clamp clip expand" ]' ||
        fail "$suite: the man page or a completion is missing or does not work"
    say "$suite: man page and bash, zsh and fish completions in place (the bash one completes --overflow)"

    say "$suite: apt-get purge -y iconbadge"
    apt_in_root "$suite" "purge" apt-get purge -y iconbadge
    left=""
    while IFS= read -r path; do
        [ "$path" = "/." ] && continue
        [ -e "$rootdir$path" ] || [ -L "$rootdir$path" ] || continue
        # A folder another package also owns stays.
        if [ -d "$rootdir$path" ] && [ ! -L "$rootdir$path" ] && in_root dpkg-query -S "$path" >/dev/null 2>&1; then continue; fi
        left="$left $path"
    done <"$state/$suite-files"
    [ -z "$left" ] || fail "$suite: apt-get purge left:$left"
    say "$suite: purge: none of the $(grep -cv '^/\.$' "$state/$suite-files") paths of dpkg -L iconbadge is left"

    # The tarball, with only what INSTALL names.
    apt_in_root "$suite" "autoremove" apt-get autoremove --purge -y
    packages="$(tar -xzOf "$tarball" --wildcards '*/INSTALL' | sed -n 's/^ *sudo apt-get install //p')"
    [ -n "$packages" ] || fail "the tarball's INSTALL names no packages (no 'sudo apt-get install' line)"
    say "$suite: apt-get install -y --no-install-recommends $packages"
    # shellcheck disable=SC2086 # a list of package names
    apt_in_root "$suite" "INSTALL's packages" apt-get install -y --no-install-recommends $packages
    in_root tar -xzf "/tmp/iconbadge-test/$tarname" -C /opt
    top="/opt/${tarname%.tar.gz}"
    for file in bin/iconbadge share/man/man1/iconbadge.1 share/bash-completion/completions/iconbadge \
        share/zsh/site-functions/_iconbadge share/fish/vendor_completions.d/iconbadge.fish \
        share/doc/iconbadge/README.md share/doc/iconbadge/copyright share/doc/iconbadge/manual/README.md \
        share/doc/iconbadge/manual/options.md INSTALL; do
        [ -s "$rootdir$top/$file" ] || fail "$suite: the tarball lacks $file"
    done
    run_checks "$suite" tarball "$top/bin/iconbadge"

    # Keep the .debs this run used, and only those.
    find "$archives" -maxdepth 1 -name '*.deb' -exec cp -n {} "$cache/" \;
    for cached in "$cache"/*.deb; do
        [ -e "$cached" ] || continue
        [ -e "$archives/$(basename "$cached")" ] || rm -f "$cached"
    done
    cleanup_root
    say "$suite: done in $(($(date +%s) - suite_started)) s"
done

finish "test-dist: ok (roots: $SUITES; .deb and tarball installed, checked and removed; reproducible; $(($(date +%s) - started)) s)"
