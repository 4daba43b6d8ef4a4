#!/bin/sh
# test-dist.sh BINARY OUTDIR: make test-dist. Builds the .deb and the tarball of BINARY
# (the release build) into OUTDIR and proves them:
#  1. lintian passes on the .deb (no error or warning beyond packaging/lintian-overrides);
#  2. both build again, in another folder under another umask, to the same bytes; then a
#     clone of HEAD in another folder builds the release binary, the .deb and the tarball
#     again, and all three must be the same bytes as these (reproducible builds); where
#     only Swift objects differ, this checkout's build may be an incremental one (swiftc
#     6.3.1's code follows its module cache's state, HACKING.md), and a third clean
#     clone must then give the second's bytes;
#  3. an empty root, as a `FROM scratch` container is: nothing but the tarball and the
#     inputs, and /proc mounted (the Swift runtime reads /proc/self/exe at start):
#     the checks of 4a below, run through `unshare --root` (no shell in the root), the
#     outputs the same as BINARY's; then /proc is unmounted and what the binary prints
#     without it is said (docs/manual/install.md quotes it);
#  4. in clean Debian 11 (bullseye, glibc 2.31), 12 (bookworm) and 13 (trixie) roots,
#     made by mmdebstrap --variant=minbase and cached in .build/roots (remove a .tar
#     there to make it again), each step's outputs copied out and compared with
#     BINARY's own (images by their pixels with BINARY's `compare`, exact):
#     a. bare: nothing installed but the tarball, unpacked in /opt: PNG, JPEG and WebP
#        icons rendered to PNG, WebP, SVG and PDF, `compare`, `batch --check` and
#        `appiconset` on the Xcode fixture's icon set; an SVG icon, and GIF, BMP, TIFF,
#        ICO, CMYK JPEG and animated WebP icons, each get exit 69 and one line naming
#        the package to install (librsvg2-2, libgdk-pixbuf-2.0-0); `apt-get install -s`
#        of the .deb would bring its Recommends and not its Suggests;
#     b. `apt-get install --no-install-recommends librsvg2-2`, as INSTALL says: the same
#        and SVG icons, the gdk-pixbuf formats, `batch --check` of a manifest with all;
#        an animated WebP icon names webp-pixbuf-loader;
#     c. `apt-get install -y ./iconbadge_*.deb`: the same checks with /usr/bin/iconbadge,
#        the man page and completions; d. `apt-get install webp-pixbuf-loader` (the
#        .deb's Suggests): the animated WebP icon renders; then `apt-get purge -y
#        iconbadge` must leave no file of `dpkg -L iconbadge`. Steps c and d only in
#        Debian 12 and 13: the .deb is made on Debian 12 for 12 and 13 (its Recommends
#        name librsvg 2.46); the tarball is what runs on any Linux.
# The release binary is static (scripts/release-build.sh): it needs no library of the
# root. SVG icons and gdk-pixbuf's formats are drawn by the system's librsvg and
# gdk-pixbuf through the loader helper the tarball carries (LOADER below).
# `android` on the vector fixtures (VectorDrawable layers) draws with nothing installed
# (iconbadge paints VectorDrawables with its own Cairo), so it is checked in the empty
# root and the bare roots too.
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
SUITES="${TEST_DIST_SUITES:-bullseye bookworm trixie}"
# The suites the .deb is installed in (steps c and d): those it is built for.
DEB_SUITES="bookworm trixie"
# The loader helper (a dynamically linked program that the static binary runs for the
# formats librsvg and gdk-pixbuf draw), where the tarball puts it.
LOADER=libexec/iconbadge/iconbadge-loader

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
# Not for the iconbadge processes below, which warn about ICONBADGE_ variables they do not know.
unset ICONBADGE_TEST_DIST_NAMESPACE

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
linkage=static
[ -f "$root/.build/static-libs/shared" ] && linkage=shared
# build_clone FOLDER NAME: a clone of HEAD at FOLDER, its release binary, .deb and tarball
# (the packages into FOLDER.out).
build_clone() {
    say "building HEAD again in a clone, $1"
    mkdir -p "$(dirname "$1")"
    quiet "$2-clone" git clone --quiet --no-hardlinks "$root" "$1" || fail "could not clone $root (above)"
    quiet "$2-release" make -C "$1" release LINKAGE="$linkage" </dev/null ||
        fail "make release failed in the clone $1 (above; log: $state/$2-release.log)"
    quiet "$2-deb" make -C "$1" deb DIST_OUT="$1.out" </dev/null || fail "make deb failed in the clone $1 (above)"
    quiet "$2-dist" make -C "$1" dist DIST_OUT="$1.out" </dev/null || fail "make dist failed in the clone $1 (above)"
}
# same_packages FIRST_DEB FIRST_TARBALL OUT WHAT: both packages equal OUT's.
same_packages() {
    for pair in "$1" "$2"; do
        again="$3/$(basename "$pair")"
        cmp -s "$pair" "$again" ||
            fail "$(basename "$pair") is not reproducible: $4 differ (diffoscope $pair $again shows where)"
        say "reproducible: $(sha256sum "$pair" | cut -c1-64) $(basename "$pair") ($4)"
    done
}
second="$work/another/checkout/iconbadge"
build_clone "$second" second
if cmp -s "$binary" "$second/.build/release/iconbadge"; then
    say "reproducible: $(sha256sum "$binary" | cut -c1-64) iconbadge (two clones, two folders)"
    same_packages "$deb" "$tarball" "$second.out" "two clones"
    reproducible="reproducible"
else
    # A clean clone's build against this checkout's: where they differ in Swift objects
    # alone, this checkout's may be an incremental build (swiftc's code for a function
    # follows the state of its module cache when it was compiled: HACKING.md,
    # Reproducible builds), so a third clean clone decides; any other object or static
    # library differing is a fault of ours, and fails.
    cp "$second/.build/release/iconbadge" "$state/second-iconbadge"
    swift_differ=""
    other_differ=""
    objects=0
    for object in "$root"/.build/x86_64-unknown-linux-gnu/release/*.build/*.o "$root"/.build/static-libs/*.o "$root"/.build/static-libs/*.a; do
        [ -f "$object" ] || continue
        objects=$((objects + 1))
        relative="${object#"$root/"}"
        if ! objcopy -R .swift_modhash "$object" "$work/first.o" 2>/dev/null ||
            ! objcopy -R .swift_modhash "$second/$relative" "$work/second.o" 2>/dev/null; then
            cmp -s "$object" "$second/$relative" || other_differ="$other_differ $relative"
            continue
        fi
        cmp -s "$work/first.o" "$work/second.o" && continue
        case "$object" in
        *.swift.o) swift_differ="$swift_differ $(basename "$object")" ;;
        *) other_differ="$other_differ $relative" ;;
        esac
    done
    if [ "$objects" -eq 0 ] || [ -n "$other_differ" ] || [ -z "$swift_differ" ]; then
        fail "the release binary is not reproducible: $binary and $state/second-iconbadge differ (objects that differ:${other_differ:- none found}${swift_differ}; diffoscope shows where; HACKING.md, Reproducible builds)"
    fi
    # Without a mount namespace or with randomisation on, release-build.sh builds in place
    # (it says so), and Swift objects may then differ from folder to folder: said, not failed.
    in_place=""
    case "$root" in /mnt | /mnt/*) in_place=yes ;; esac
    if [ -n "$in_place" ] || ! unshare -m --propagation private true 2>/dev/null || ! setarch -R true 2>/dev/null; then
        say "NOT REPRODUCIBLE: the release build could not run at its fixed path with randomisation off here (a checkout under /mnt, or no unshare -m or setarch -R), and the two clones' Swift objects differ:$swift_differ (HACKING.md, Reproducible builds)"
        reproducible="binary NOT reproducible (built in place:$swift_differ)"
        rm -rf "$work/another"
        swift_differ=""
    fi
fi
if [ -n "${swift_differ:-}" ]; then
    say "this checkout's binary differs from a clean clone's in Swift objects alone:$swift_differ; building a third clean clone to compare the two clean builds"
    third="$work/yet/another/folder/iconbadge"
    build_clone "$third" third
    cmp -s "$second/.build/release/iconbadge" "$third/.build/release/iconbadge" ||
        fail "the release binary is not reproducible: two clean clones' binaries differ ($state/second-iconbadge and the third's; HACKING.md, Reproducible builds)"
    say "reproducible: $(sha256sum "$third/.build/release/iconbadge" | cut -c1-64) iconbadge (two clean clones, two folders; this checkout's differs in:$swift_differ, an incremental build)"
    same_packages "$second.out/$(basename "$deb")" "$second.out/$(basename "$tarball")" "$third.out" "two clean clones"
    reproducible="reproducible (clean clones; this checkout's incremental build differs)"
    rm -rf "$work/yet"
fi
rm -rf "$work/another"

# --- The inputs, and what BINARY makes of them -------------------------------------
inputs="$work/inputs"
mkdir -p "$inputs/in"
cp "$root/Fixtures/icons/folder-48x48.png" "$root/Fixtures/icons/mail-unread-symbolic.svg" \
    "$root/Fixtures/formats/folder-48.jpg" "$root/Fixtures/formats/folder-48-cmyk.jpg" \
    "$root/Fixtures/formats/resvg-image.webp" "$root/Fixtures/formats/folder-48.bmp" \
    "$root/Fixtures/formats/folder-48.ico" "$root/Fixtures/formats/folder-48.tiff" \
    "$root/Fixtures/formats/red-then-blue.gif" "$inputs/in/"
for fixture in "$root/Fixtures/corpus/icons/papirus-svg/firefox.svg" "$root/Fixtures/xcode/App/Assets.xcassets/AppIcon.appiconset"; do
    [ -e "$fixture" ] || fail "$fixture is missing from the checkout"
done
cp "$root/Fixtures/corpus/icons/papirus-svg/firefox.svg" "$inputs/in/papirus-firefox.svg"
cp -R "$root/Fixtures/xcode/App/Assets.xcassets/AppIcon.appiconset" "$inputs/in/"
# Android apps whose adaptive layers are VectorDrawables (Fixtures/android/README.md).
mkdir "$inputs/in/android"
for app in sample-app wikipedia nextcloud-qa; do
    [ -f "$root/Fixtures/android/$app/AndroidManifest.xml" ] || fail "Fixtures/android/$app is missing from the checkout"
    mkdir "$inputs/in/android/$app"
    cp -R "$root/Fixtures/android/$app/AndroidManifest.xml" "$root/Fixtures/android/$app/res" "$inputs/in/android/$app/"
done
# An animated WebP icon, made by BINARY: only gdk-pixbuf with webp-pixbuf-loader reads one.
"$binary" "$inputs/in/folder-48x48.png" --value 3 --animate bounce -o "$inputs/in/animated.webp" >/dev/null 2>&1 ||
    fail "the build tree's binary could not make an animated WebP"
cat >"$inputs/in/raster.json" <<'EOF'
{"jobs": [
  {"icon": "in/folder-48x48.png", "value": "3", "scale": 2, "output": "png-3@2x.png"},
  {"icon": "in/folder-48.jpg", "value": "150", "output": "jpeg-99plus.png"},
  {"icon": "in/resvg-image.webp", "dot": true, "output": "webp-dot.webp"}
]}
EOF
cat >"$inputs/in/all.json" <<'EOF'
{"jobs": [
  {"icon": "in/folder-48x48.png", "value": "3", "scale": 2, "output": "png-3@2x.png"},
  {"icon": "in/mail-unread-symbolic.svg", "dot": true, "scale": 4, "output": "svg-dot@4x.png"},
  {"icon": "in/folder-48.jpg", "value": "150", "output": "jpeg-99plus.png"},
  {"icon": "in/red-then-blue.gif", "dot": true, "output": "gif-dot.png"}
]}
EOF
# The checks, run in a root with the iconbadge under test (and here with BINARY):
# every output lands in out/, compared afterwards. Exit statuses and messages are
# checked here. checks.sh ICONBADGE PART...:
#   raster   PNG, JPEG and WebP icons to PNG, WebP, SVG and PDF; compare; batch
#            --check of raster.json; appiconset (what a system with glibc alone runs)
#   vector   SVG icons, and the formats gdk-pixbuf reads (GIF, BMP, TIFF, ICO, a CMYK
#            JPEG); batch --check of all.json
#   animated an animated WebP icon (gdk-pixbuf and webp-pixbuf-loader)
#   android  `android` on the vector fixtures' res/ trees (VectorDrawable layers)
#   missing  each of those icons: exit 69, nothing on standard output, one line on
#            standard error naming the package that provides what it needs
#   no-webp-loader  the animated WebP icon: exit 69, the line names webp-pixbuf-loader
cat >"$inputs/checks.sh" <<'EOF'
#!/bin/sh
set -eu
ib=$1
shift
mkdir -p out
# expect_missing ICON PACKAGE: exit 69, one line naming PACKAGE, no output written.
expect_missing() {
    status=0
    "$ib" "$1" --dot -o out/missing.png >out/missing.stdout 2>out/missing.stderr || status=$?
    lines=$(wc -l <out/missing.stderr)
    if [ "$status" -ne 69 ] || [ "$lines" -ne 1 ] || [ -s out/missing.stdout ] || [ -e out/missing.png ] ||
        ! grep -q "install .*$2" out/missing.stderr; then
        echo "$1: exit $status, $lines lines on standard error, not 69 and one line naming $2:" >&2
        cat out/missing.stderr >&2
        exit 1
    fi
    echo "missing: $1: $(cat out/missing.stderr)"
    rm -f out/missing.stdout out/missing.stderr
}
for part in "$@"; do
    case "$part" in
    raster)
        "$ib" --version >out/version.txt
        for icon in folder-48x48.png folder-48.jpg resvg-image.webp; do
            for format in png webp svg pdf; do
                "$ib" "in/$icon" --value 3 -o "out/${icon%%.*}-${icon##*.}-3.$format"
            done
        done
        "$ib" in/folder-48x48.png --value 4 -o out/folder-48x48-png-4.png
        [ ! -d goldens ] || "$ib" compare out/folder-48x48-png-3.png goldens/compare/folder-48x48-png-3.png
        status=0
        "$ib" compare out/folder-48x48-png-3.png out/folder-48x48-png-4.png --diff out/diff-3-4.png || status=$?
        [ "$status" -eq 1 ] || { echo "compare of two different images exited $status, not 1" >&2; exit 1; }
        [ ! -d goldens ] || "$ib" batch in/raster.json --check goldens/raster
        "$ib" appiconset in/AppIcon.appiconset --value BETA --out out/appiconset
        ;;
    vector)
        "$ib" --version >out/version-vector.txt
        "$ib" in/mail-unread-symbolic.svg --dot --scale 4 -o out/svg-dot@4x.png
        for format in png webp svg pdf; do "$ib" in/papirus-firefox.svg --value 3 -o "out/papirus-3.$format"; done
        for icon in folder-48.bmp folder-48.ico folder-48.tiff folder-48-cmyk.jpg; do
            "$ib" "in/$icon" --value 3 -o "out/${icon%%.*}-${icon##*.}-3.png"
        done
        "$ib" in/red-then-blue.gif --dot -o out/red-then-blue-gif-dot.png
        [ ! -d goldens ] || "$ib" batch in/all.json --check goldens/all
        ;;
    animated) "$ib" in/animated.webp --value 5 -o out/animated-5.png ;;
    android)
        for app in sample-app wikipedia nextcloud-qa; do
            "$ib" android "in/android/$app/res" --out "out/android-$app" --value BETA
        done
        ;;
    missing)
        expect_missing in/mail-unread-symbolic.svg librsvg2-2
        expect_missing in/papirus-firefox.svg librsvg2-2
        for icon in red-then-blue.gif folder-48.bmp folder-48.tiff folder-48.ico folder-48-cmyk.jpg animated.webp; do
            expect_missing "in/$icon" libgdk-pixbuf-2.0-0
        done
        ;;
    no-webp-loader) expect_missing in/animated.webp webp-pixbuf-loader ;;
    *) echo "checks.sh: no part $part" >&2; exit 64 ;;
    esac
done
echo "checks: ok ($*)"
EOF
say "rendering the expected images with $binary"
# The librsvg that draws the build tree's vector outputs ("librsvg 2.54.7").
build_rsvg="$("$binary" --version | grep -m 1 '^librsvg ' || true)"
for part in raster vector animated android; do
    (cd "$inputs" && quiet "expected-$part" sh ./checks.sh "$binary" "$part") ||
        fail "the build tree's binary failed the $part checks (above)"
    rm -f "$inputs"/out/version*.txt
    mkdir -p "$work/expected-$part"
    cp -R "$inputs/out/." "$work/expected-$part/"
    rm -rf "$inputs/out"
done
# The goldens the roots check against: BINARY's images.
mkdir -p "$inputs/goldens/compare"
cp "$work/expected-raster/folder-48x48-png-3.png" "$inputs/goldens/compare/"
(cd "$inputs" && quiet goldens-raster "$binary" batch in/raster.json --check goldens/raster --update --quiet &&
    quiet goldens-all "$binary" batch in/all.json --check goldens/all --update --quiet) ||
    fail "the build tree's binary could not make the goldens (above)"

# compare_outputs LABEL PART FOLDER: every file BINARY made for PART against the one
# made in a root: images by their pixels with BINARY's `compare` (exact), a PDF by its
# bytes or else by its pages drawn with pdftocairo, anything else by its bytes.
# LENIENT (a fourth argument, the root's librsvg where it is not the build machine's):
# the vector part is drawn by another librsvg, whose drawing may differ (Debian 11's
# 2.50 against 2.54), so a difference is counted and said, not failed; every output
# must still be written and readable.
compare_outputs() {
    count=0
    same_bytes=0
    differ=0
    lenient=${4:-}
    expected_folder="$work/expected-$2"
    listed="$(cd "$expected_folder" && find . -type f | LC_ALL=C sort)"
    [ -n "$listed" ] || fail "$1: BINARY made no $2 outputs to compare with"
    for name in $listed; do
        expected="$expected_folder/$name"
        actual="$3/$name"
        [ -f "$actual" ] || fail "$1: $name was not written"
        count=$((count + 1))
        if cmp -s "$actual" "$expected"; then
            same_bytes=$((same_bytes + 1))
            continue
        fi
        if [ -n "$lenient" ]; then
            case "$name" in
            *.png | *.webp) "$binary" compare "$actual" "$actual" >/dev/null 2>&1 ;;
            *.svg) grep -q '</svg>' "$actual" ;;
            *.pdf) pdftocairo -png -r 72 -singlefile "$actual" "$state/pdf-actual" >/dev/null 2>&1 ;;
            *) false ;;
            esac || fail "$1: $name cannot be read"
            differ=$((differ + 1))
            continue
        fi
        case "$name" in
        *.png | *.webp | *.svg)
            "$binary" compare "$actual" "$expected" >"$state/compare.log" 2>&1 ||
                fail "$1: $name differs from the build tree's: $(cat "$state/compare.log")"
            ;;
        *.pdf)
            command -v pdftocairo >/dev/null 2>&1 || fail "$1: $name differs in bytes and pdftocairo (poppler-utils) is missing"
            pdftocairo -png -r 144 -singlefile "$actual" "$state/pdf-actual" &&
                pdftocairo -png -r 144 -singlefile "$expected" "$state/pdf-expected" ||
                fail "$1: pdftocairo could not draw $name"
            "$binary" compare "$state/pdf-actual.png" "$state/pdf-expected.png" >"$state/compare.log" 2>&1 ||
                fail "$1: $name draws differently from the build tree's: $(cat "$state/compare.log")"
            ;;
        *) fail "$1: $name differs from the build tree's (bytes)" ;;
        esac
    done
    if [ -n "$lenient" ]; then
        say "$1: $count outputs of the $2 checks written and readable ($same_bytes byte-identical to the build tree's; $differ drawn otherwise by $lenient)"
        return 0
    fi
    say "$1: $count outputs of the $2 checks the same as the build tree's ($same_bytes of them byte-identical, the rest pixel-identical)"
}

debname="$(basename "$deb")"
tarname="$(basename "$tarball")"
top="/opt/${tarname%.tar.gz}"

# --- 3: an empty root, only /proc ----------------------------------------------------
# As a `FROM scratch` container: the tarball unpacked in /opt, the inputs in /t, /proc
# mounted, nothing else (no shell, no libc, no /tmp, no /dev). checks.sh runs on the
# host in the root's /t, with a wrapper that runs the tarball's binary in the root
# (`unshare --root`, a chroot, with /t as its working folder). No network needed.
say "scratch: an empty root with only /proc mounted"
rootdir="$(mktemp -d "$state/root-scratch.XXXXXX")"
mkdir "$rootdir/proc" "$rootdir/opt" "$rootdir/t"
tar -xzf "$tarball" -C "$rootdir/opt" --no-same-owner
cp -R "$inputs/in" "$inputs/goldens" "$rootdir/t/"
mount -t proc proc "$rootdir/proc"
mounted="$rootdir/proc"
scratch_ib="$work/scratch-iconbadge"
printf '#!/bin/sh\nexec unshare --root="%s" --wd=/t "%s" "$@"\n' "$rootdir" "$top/bin/iconbadge" >"$scratch_ib"
chmod 755 "$scratch_ib"
scratch_parts="raster missing android"
# shellcheck disable=SC2086 # a word list
(cd "$rootdir/t" && quiet scratch sh "$inputs/checks.sh" "$scratch_ib" $scratch_parts) ||
    fail "scratch: the checks ($scratch_parts) failed in the empty root (above; $state/scratch.log)"
grep '^missing: ' "$state/scratch.log" | sed "s/^/test-dist: scratch: /" || true
for part in $scratch_parts; do
    case "$part" in raster | android) compare_outputs scratch "$part" "$rootdir/t/out" ;; esac
done
say "scratch: $(head -n 1 "$rootdir/t/out/version.txt")"
# Without /proc the Swift runtime cannot find its own executable and stops before
# main (docs/manual/install.md quotes what it prints): said here, so that a change
# shows; what must hold is that nothing is written.
umount "$mounted"
mounted=""
status=0
"$scratch_ib" in/folder-48x48.png --value 3 -o out/no-proc.png >"$state/scratch-no-proc.log" 2>&1 || status=$?
[ ! -e "$rootdir/t/out/no-proc.png" ] || [ "$status" -eq 0 ] ||
    fail "scratch: without /proc the binary exited $status and left out/no-proc.png"
say "scratch: without /proc: exit $status: $(head -n 1 "$state/scratch-no-proc.log")"
cleanup_root

# --- 4: the Debian roots -----------------------------------------------------------
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

# run_checks SUITE LABEL ICONBADGE PART...: checks.sh in the root; the outputs of the
# parts that render are copied out and compared with BINARY's.
run_checks() {
    suite=$1
    label=$2
    ib=$3
    shift 3
    rm -rf "$rootdir/tmp/iconbadge-test/out"
    in_root sh -c "cd /tmp/iconbadge-test && sh ./checks.sh '$ib' $*" >"$state/$suite-$label.log" 2>&1 || {
        tail -n 20 "$state/$suite-$label.log" >&2
        fail "$suite: the $label checks ($*) failed (above; $state/$suite-$label.log)"
    }
    rm -rf "$state/$suite-$label-out"
    cp -R "$rootdir/tmp/iconbadge-test/out" "$state/$suite-$label-out"
    grep '^missing: ' "$state/$suite-$label.log" | sed "s/^/test-dist: $suite: $label: /" || true
    # The root's librsvg, when it is not the build machine's (the vector part only).
    other_rsvg=""
    root_rsvg="$(grep -m 1 '^librsvg ' "$state/$suite-$label-out/version-vector.txt" 2>/dev/null || true)"
    [ -n "$root_rsvg" ] && [ "$root_rsvg" != "$build_rsvg" ] && other_rsvg="$root_rsvg"
    for part in "$@"; do
        case "$part" in
        vector) compare_outputs "$suite: $label" "$part" "$state/$suite-$label-out" ${other_rsvg:+"$other_rsvg"} ;;
        raster | animated | android) compare_outputs "$suite: $label" "$part" "$state/$suite-$label-out" ;;
        esac
    done
}
# installed SUITE PACKAGE...: fails unless each is installed in the root; not_installed likewise.
installed() {
    suite=$1
    shift
    for package in "$@"; do
        # shellcheck disable=SC2016
        in_root dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -qx 'install ok installed' ||
            fail "$suite: $package is not installed in the root"
    done
}
not_installed() {
    suite=$1
    shift
    for package in "$@"; do
        # shellcheck disable=SC2016
        if in_root dpkg-query -W -f='${Status}\n' "$package" 2>/dev/null | grep -qx 'install ok installed'; then
            fail "$suite: $package is installed in the root, which should not have it here"
        fi
    done
}

for suite in $SUITES; do
    make_root "$suite"
done
tar -tzf "$tarball" | grep -q "/$LOADER\$" || fail "the tarball has no $LOADER"
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

    # 4a. The bare root: minbase and the tarball, nothing else.
    not_installed "$suite" libglib2.0-0 libgdk-pixbuf-2.0-0 librsvg2-2 libpng16-16 libfreetype6 libfontconfig1 libcairo2
    in_root tar -xzf "/tmp/iconbadge-test/$tarname" -C /opt
    for file in bin/iconbadge share/man/man1/iconbadge.1 share/bash-completion/completions/iconbadge \
        share/zsh/site-functions/_iconbadge share/fish/vendor_completions.d/iconbadge.fish \
        share/doc/iconbadge/README.md share/doc/iconbadge/copyright share/doc/iconbadge/manual/README.md \
        share/doc/iconbadge/manual/options.md INSTALL; do
        [ -s "$rootdir$top/$file" ] || fail "$suite: the tarball lacks $file"
    done
    grep -q 'apt-get install librsvg2-2' "$rootdir$top/INSTALL" || fail "the tarball's INSTALL does not name librsvg2-2"
    bare_parts="raster missing android"
    # shellcheck disable=SC2086 # a word list
    run_checks "$suite" bare "$top/bin/iconbadge" $bare_parts
    say "$suite: bare: $(head -n 1 "$state/$suite-bare-out/version.txt"); $(grep -E '^(librsvg|gdk-pixbuf) ' "$state/$suite-bare-out/version.txt" | paste -sd ',' | sed 's/,/, /g')"

    offline=no
    if ! in_root apt-get update >>"$state/$suite-apt.log" 2>&1; then
        offline=yes
        say "$suite: apt-get update failed (no network?): using the root's package lists and cached .debs"
    fi
    deb_here=no
    case " $DEB_SUITES " in *" $suite "*) deb_here=yes ;; esac
    if [ "$deb_here" = yes ]; then
        # What apt would install with the .deb: its Recommends (librsvg, gdk-pixbuf), not
        # its Suggests (webp-pixbuf-loader).
        in_root sh -c "cd /tmp/iconbadge-test && apt-get install -s ./$debname" >"$state/$suite-simulate.log" 2>&1 ||
            fail "$suite: apt-get install -s ./$debname failed ($state/$suite-simulate.log)"
        for package in librsvg2-2 libgdk-pixbuf-2.0-0; do
            grep -q "^Inst $package " "$state/$suite-simulate.log" || fail "$suite: apt would not install $package with the .deb"
        done
        ! grep -q '^Inst webp-pixbuf-loader ' "$state/$suite-simulate.log" || fail "$suite: apt would install webp-pixbuf-loader with the .deb"
    fi

    # 4b. librsvg, as INSTALL says: SVG icons, gdk-pixbuf's formats with it, and android.
    say "$suite: apt-get install -y --no-install-recommends librsvg2-2"
    apt_in_root "$suite" "librsvg2-2" apt-get install -y --no-install-recommends librsvg2-2
    run_checks "$suite" librsvg "$top/bin/iconbadge" raster vector no-webp-loader android
    say "$suite: librsvg: $(grep -E '^(librsvg|gdk-pixbuf) ' "$state/$suite-librsvg-out/version-vector.txt" | paste -sd ',' | sed 's/,/, /g')"

    if [ "$deb_here" = no ]; then
        say "$suite: the .deb is not installed here (it is built for $DEB_SUITES; the tarball is for any Linux)"
        cleanup_root
        say "$suite: done in $(($(date +%s) - suite_started)) s"
        continue
    fi

    # 4c. The .deb, with apt.
    say "$suite: apt-get install -y ./$debname"
    apt_in_root "$suite" "install" apt-get install -y "./$debname"
    installed "$suite" librsvg2-2 libgdk-pixbuf-2.0-0
    in_root dpkg -L iconbadge >"$state/$suite-files"
    run_checks "$suite" deb /usr/bin/iconbadge raster vector android
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

    # 4d. The Suggests: webp-pixbuf-loader, for animated WebP icons.
    say "$suite: apt-get install -y webp-pixbuf-loader"
    apt_in_root "$suite" "webp-pixbuf-loader" apt-get install -y webp-pixbuf-loader
    run_checks "$suite" webp-loader /usr/bin/iconbadge animated

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

    # Keep the .debs this run used, and only those.
    find "$archives" -maxdepth 1 -name '*.deb' -exec cp -n {} "$cache/" \;
    for cached in "$cache"/*.deb; do
        [ -e "$cached" ] || continue
        [ -e "$archives/$(basename "$cached")" ] || rm -f "$cached"
    done
    cleanup_root
    say "$suite: done in $(($(date +%s) - suite_started)) s"
done

finish "test-dist: ok (an empty root with /proc alone; roots: $SUITES; bare roots with the tarball alone, then librsvg; the .deb installed, checked and purged; $reproducible; $(($(date +%s) - started)) s)"
