#!/bin/sh
# Builds the fuzz targets with libFuzzer and AddressSanitizer and runs each for a set time
# (fuzz/README.md says what each target does and why the build is done this way).
#
#   fuzz/run.sh [--build-only] [TARGET...]      (default: every target, in the order below)
#
# Environment:
#   FUZZ_SECONDS   seconds per target (default 300; `make fuzz-smoke` uses 30)
#   FUZZ_CONFIG    release (default: 2.5 to 5 times the executions per second of debug) or debug
#   FUZZ_ARGS      extra libFuzzer flags (e.g. -jobs=2 -workers=2, -runs=1000)
#   SWIFT          the swift driver (default swift)
#
# Everything goes under .build/fuzz/: the sanitized build (build/, separate from the
# normal .build/debug so the two never rebuild each other), and per target
# <target>/corpus (the scratch corpus, emptied each run: libFuzzer writes new inputs into
# the FIRST folder it is given, so the read-only seed folders come after it),
# <target>/artifacts (crash-*, leak-*, timeout-*, oom-* inputs) and <target>/log.txt.
# Exits 1 if any target found a crash (the others still run), after a summary table.
set -eu
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-300}
FUZZ_CONFIG=${FUZZ_CONFIG:-release}
CORPUS=Fixtures/corpus  # the test corpus (its SOURCES.md), seeds of FuzzPNG, FuzzSVG and FuzzCompare
FUZZ_ARGS=${FUZZ_ARGS:-}
OUT=.build/fuzz
BUILD=$OUT/build
ALL="FuzzArguments FuzzColor FuzzManifest FuzzPNG FuzzSVG FuzzCompare FuzzFont FuzzVectorDrawable FuzzAndroidResources FuzzResults"

build_only=0
if [ "${1:-}" = "--build-only" ]; then build_only=1; shift; fi
targets=${*:-$ALL}
for target in $targets; do
    case " $ALL " in *" $target "*) ;; *) echo "fuzz/run.sh: unknown target $target (targets: $ALL)" >&2; exit 64 ;; esac
done

# One `swift build` per product (SwiftPM takes one --product); the libraries are built by
# the first and reused by the others, so the extra invocations cost a link each.
# -DFUZZING drops each target's replay `main` so that libFuzzer's main is the one linked.
# -Xswiftc -sanitize=fuzzer,address: SwiftPM passes `-sanitize=fuzzer -sanitize=address`
# to swiftc as two flags in an order that changes from run to run, and the Swift 6.3
# driver keeps only the last one, so the Swift code got either no coverage (libFuzzer
# fuzzes blind) or no AddressSanitizer. The combined flag comes last and wins. (clang,
# for the C targets, adds up its -fsanitize flags and needs no help.)
SANITIZE="--sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING"
mkdir -p "$OUT"
for target in $targets; do
    echo "fuzz/run.sh: building $target ($FUZZ_CONFIG, fuzzer+address)"
    status=0
    # shellcheck disable=SC2086
    $SWIFT build -c "$FUZZ_CONFIG" --scratch-path "$BUILD" --product "$target" $SANITIZE >"$OUT/build.log" 2>&1 ||
        status=$?
    # gold warns about every ASan thunk it cannot export; nothing to act on.
    grep -v "Cannot export local symbol" "$OUT/build.log" | grep -v '^\[[0-9]*/[0-9]*\]' || true
    [ "$status" = 0 ] || exit "$status"
done
# shellcheck disable=SC2086
BIN=$($SWIFT build -c "$FUZZ_CONFIG" --scratch-path "$BUILD" $SANITIZE --show-bin-path)
# SVG and the gdk-pixbuf formats are decoded by iconbadge-loader in a child, found beside
# the running binary (scripts/build-loader.sh copies it there): plain C, uninstrumented
# (under ASan the child's memory cap would be off: its shadow would be refused).
case " $targets " in
*" FuzzSVG "*)
    "$(dirname "$0")/../scripts/build-loader.sh" "$BIN" || exit 70
    ;;
esac
[ "$build_only" = 1 ] && exit 0

# The seed folders, each of which must be there: they are in the repository (a fuzz
# regression folder only once a target has one).
seeds() {
    for folder in "$@"; do
        if [ -d "$folder" ]; then
            printf '%s\n' "$folder"
        else
            case $folder in
            Fixtures/fuzz-regressions/*) ;;
            *) echo "fuzz/run.sh: the seed folder $folder is missing from the checkout" >&2; exit 66 ;;
            esac
        fi
    done
}

# FuzzCompare seeds: pixelmatch pairs as one input each: an options byte, then the
# expected and actual PNG padded to the same length (bytes after IEND are ignored).
compare_pairs() {
    pairs=$OUT/FuzzCompare/pairs
    rm -rf "$pairs"
    mkdir -p "$pairs"
    for n in 1 2 3 7; do  # 512 x 256, 256 x 256, 512 x 256, 500 x 500; each pair under -max_len
        a=$CORPUS/pixelmatch/${n}a.png
        b=$CORPUS/pixelmatch/${n}b.png
        for file in "$a" "$b"; do
            [ -f "$file" ] || { echo "fuzz/run.sh: the seed $file is missing from the checkout" >&2; exit 66; }
        done
        size=$(wc -c <"$a")
        [ "$(wc -c <"$b")" -gt "$size" ] && size=$(wc -c <"$b")
        for flags in 1 2; do  # threshold 0 (includeAA), and 0x12: threshold 1/15, diff mask
            out=$pairs/pixelmatch-$n-$flags.bin
            if [ "$flags" = 1 ]; then printf '\001' >"$out"; else printf '\022' >"$out"; fi
            cp "$a" "$out.a" && truncate -s "$size" "$out.a"
            cp "$b" "$out.b" && truncate -s "$size" "$out.b"
            cat "$out.a" "$out.b" >>"$out"
            rm -f "$out.a" "$out.b"
        done
    done
    printf '%s\n' "$pairs"
}

# FuzzFont seeds: the bundled fonts (their folder also holds C and assembly files).
bundled_fonts() {
    fonts=$OUT/FuzzFont/bundled
    rm -rf "$fonts"
    mkdir -p "$fonts"
    cp Sources/CBundledFont/*.ttf "$fonts/"
    printf '%s\n' "$fonts"
}

summary=$OUT/summary.txt
: >"$summary"
failed=0
for target in $targets; do
    dir=$OUT/$target
    rm -rf "$dir/corpus" "$dir/artifacts"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    regressions=Fixtures/fuzz-regressions/$target
    extra=
    case $target in
    FuzzArguments) dict=fuzz/dicts/arguments.dict; corpora=$(seeds fuzz/seeds/arguments "$regressions") ;;
    FuzzColor) dict=fuzz/dicts/colors.dict; corpora=$(seeds fuzz/seeds/colors "$regressions") ;;
    FuzzManifest) dict=fuzz/dicts/manifest.dict; corpora=$(seeds fuzz/seeds/manifests Fixtures/examples "$regressions") ;;
    FuzzPNG)
        dict=
        corpora=$(seeds "$CORPUS/pngsuite" "$CORPUS/libpng-testpngs" "$CORPUS/image-png-fuzz" "$regressions")
        ;;
    FuzzSVG)
        dict=fuzz/dicts/svg.dict
        corpora=$(seeds "$CORPUS/librsvg" "$CORPUS/resvg/structure/svg" "$CORPUS/resvg/structure/image" \
            "$CORPUS/resvg/structure/style" "$regressions")
        ;;
    FuzzCompare)
        # Mutations stay within the size of a pixelmatch pair (the single fixtures are up
        # to 268 KB and would make libFuzzer try inputs that large).
        dict=
        extra=-max_len=131072
        pair_seeds=$(compare_pairs)
        corpora="$pair_seeds
$(seeds fuzz/seeds/compare "$CORPUS/pixelmatch" "$regressions")"
        ;;
    FuzzFont)
        # A font up to 1 MiB: the bundled DejaVu fonts (0.7 MB) fit. Cairo keeps its last
        # 256 scaled fonts (two a probe), each holding its face and copy of the input, so
        # up to 128 MiB stays live besides ASan's quarantine: peaks reached 862 MB in
        # 60 s, near the common 1024, hence 2048 here (one allocation over 256 MiB is
        # still a failure).
        dict=fuzz/dicts/font.dict
        extra="-max_len=1048576 -rss_limit_mb=2048"
        corpora="$(bundled_fonts)
$(seeds Fixtures/fonts Fixtures/fonts/bitmap "$regressions")"
        ;;
    FuzzVectorDrawable)
        dict=fuzz/dicts/vectordrawable.dict
        corpora=$(seeds fuzz/seeds/vectordrawable Fixtures/android/sample-app/res/drawable \
            Fixtures/android/wikipedia/res/drawable Fixtures/android/nextcloud-qa/res/drawable "$regressions")
        ;;
    FuzzAndroidResources)
        # Each input is a small res/ tree (parts at NUL bytes), written to disk and read
        # by the real resource table.
        dict=fuzz/dicts/vectordrawable.dict
        corpora=$(seeds fuzz/seeds/resources "$regressions")
        ;;
    FuzzResults)
        # Results files of issue 44's cases (a region at 10^13, an error item with
        # errorCode 0, total 0, a long message, a member of many values).
        dict=fuzz/dicts/results.dict
        extra=-max_len=262144
        corpora=$(seeds fuzz/seeds/results "$regressions")
        ;;
    esac
    echo "fuzz/run.sh: $target for $FUZZ_SECONDS s; seeds: $(echo $corpora)"
    status=0
    # shellcheck disable=SC2086  # corpora, extra and FUZZ_ARGS are word lists
    SWIFT_BACKTRACE=enable=no \
        ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
        LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/fuzz/lsan-suppressions.txt:print_suppressions=0} \
        "$BIN/$target" "$dir/corpus" $corpora \
        -max_total_time="$FUZZ_SECONDS" -malloc_limit_mb=256 -rss_limit_mb=1024 -timeout=5 \
        ${dict:+-dict=$dict} -artifact_prefix="$dir/artifacts/" -print_final_stats=1 $extra $FUZZ_ARGS \
        >"$dir/log.txt" 2>&1 || status=$?
    log=$dir/log.txt
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    corpus=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' "$log" | tail -n 1 | cut -d' ' -f2)
    found=$(find "$dir/artifacts" -type f | wc -l)
    if [ "$status" = 0 ] && [ "$found" = 0 ]; then result=ok; else result="FAILED ($status, $found found)"; failed=1; fi
    line=$(printf '%-14s %-22s %ss  runs %-9s exec/s %-6s cov %-6s corpus %s' "$target" "$result" \
        "$FUZZ_SECONDS" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${corpus:-?}")
    echo "$line" | tee -a "$summary"
    if [ "$result" != ok ]; then
        grep -E '(==[0-9]+==ERROR|SUMMARY|Fatal error|Precondition failed|Test unit written)' "$log" | head -n 12 >&2 || true
        ls "$dir/artifacts" >&2
    fi
done
echo "fuzz/run.sh: summary (also in $summary):"
cat "$summary"
exit $failed
