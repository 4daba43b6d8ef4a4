#!/usr/bin/env bash
# Byte identity of a refactor: runs a varied batch of iconbadge commands and prints the
# SHA-256 of every file they write, and of each command's standard output, standard
# error and exit status, sorted by name. Run it with the binary before a change and
# after; the two lists must be equal:
#
#   scripts/byte-identity.sh /tmp/iconbadge-before > before.txt
#   scripts/byte-identity.sh .build/debug/iconbadge > after.txt
#   diff before.txt after.txt && echo identical
#
# Every shape, platform, output format, animation and icon filter, several badges,
# ribbons, banners and shields, knockout and greyscale badge layers (android,
# appiconset), colour-managed and 16-bit icons, SVG icons and badge images, standard
# input, the decoders' other formats, --report, batch with goldens, and the errors of
# the render layer. The outputs go to one fixed folder (paths appear in messages), so
# two runs must not overlap. Reads ../shared/corpus for a few more SVG icons when it is
# there (not on a fresh clone; those commands are then left out of both lists alike).
set -u
BIN=$(realpath "${1:?usage: scripts/byte-identity.sh ICONBADGE}")
cd "$(dirname "$0")/.."
OUT=.build/byte-identity/run
rm -rf "$OUT"
mkdir -p "$OUT"
export SOURCE_DATE_EPOCH=1700000000 LC_ALL=C TZ=UTC
unset ICONBADGE_UPDATE CI
I=Fixtures/icons
CORPUS=../shared/corpus

# run NAME ARGS...: iconbadge ARGS, its stdout, stderr and status kept as NAME.*
run() {
    local name=$1
    shift
    "$BIN" "$@" >"$OUT/$name.stdout" 2>"$OUT/$name.stderr" </dev/null
    echo $? >"$OUT/$name.status"
    # A batch's summary says how long it took.
    sed -i -E 's/ in [0-9.]+ s \([0-9.]+\/s\)$//' "$OUT/$name.stderr"
}

# Shapes on every platform, PNG.
for platform in canvas ios macos watchos android-adaptive android-legacy android-round circle content; do
    case $platform in
    ios) icon=$I/app-ios-180.png ;;
    macos | content) icon=$I/app-macos-256.png ;;
    watchos | circle) icon=$I/app-watch-196.png ;;
    android-*) icon=$I/app-android-foreground-432.png ;;
    *) icon=$I/user-trash-256x256.png ;;
    esac
    run "p-$platform-count" "$icon" --platform $platform --value 7 --height 28% -o "$OUT/p-$platform-count.png" --report
    run "p-$platform-label" "$icon" --platform $platform --value BETA --height 28% --anchor bottom-left -o "$OUT/p-$platform-label.png"
    run "p-$platform-dot" "$icon" --platform $platform --dot -o "$OUT/p-$platform-dot.png"
    run "p-$platform-image" "$icon" --platform $platform --image $I/star-badge.png --anchor top-left -o "$OUT/p-$platform-image.png"
    run "p-$platform-ribbon" "$icon" --platform $platform --shape ribbon --text BETA -o "$OUT/p-$platform-ribbon.png" --report
    run "p-$platform-ribbon-br" "$icon" --platform $platform --shape ribbon --text "RELEASE CANDIDATE" --anchor bottom-right --border-width 1 -o "$OUT/p-$platform-ribbon-br.png"
    run "p-$platform-banner" "$icon" --platform $platform --shape banner --text DEBUG --background '#FF9500' -o "$OUT/p-$platform-banner.png" --report
    run "p-$platform-banner-top" "$icon" --platform $platform --shape banner --text "NIGHTLY 42" --anchor top --banner-ends straight -o "$OUT/p-$platform-banner-top.png"
    run "p-$platform-shield" "$icon" --platform $platform --shape shield --text '1.4.2|beta' --background '#34C759' -o "$OUT/p-$platform-shield.png" --report
done

# Output formats, the same scenes.
for format in png webp svg pdf; do
    run "f-count-$format" $I/folder-132x132.png --value 42 --scale 3 -o "$OUT/f-count.$format"
    run "f-ribbon-$format" $I/app-ios-180.png --platform ios --shape ribbon --text BETA -o "$OUT/f-ribbon.$format"
    run "f-banner-alpha-$format" $I/folder-132x132.png --shape banner --text DEBUG -o "$OUT/f-banner-alpha.$format"
    run "f-shield-$format" $I/app-macos-256.png --platform macos --shape shield --text '2.0|rc1' --border-width 1 --border-color black -o "$OUT/f-shield.$format"
    run "f-image-$format" $I/folder-48x48.png --image $I/star-badge.png --image-size 20x20 --overflow expand -o "$OUT/f-image.$format"
    run "f-svgicon-$format" $I/mail-unread-symbolic.svg --value 3 --scale 2 --overflow expand -o "$OUT/f-svgicon.$format"
    run "f-svgimage-$format" $I/folder-132x132.png --image $I/mail-unread-symbolic.svg --height 40 -o "$OUT/f-svgimage.$format"
    run "f-svgicon-band-$format" $I/mail-unread-symbolic.svg --scale 4 --shape banner --text NEW -o "$OUT/f-svgicon-band.$format"
    run "f-svgicon-filter-$format" $I/mail-unread-symbolic.svg --value 3 --scale 3 --height 10 --font-size 7 --icon-filter dim:0.3 -o "$OUT/f-svgicon-filter.$format"
    run "f-mask-$format" $I/user-trash-256x256.png --value 5 --icon-mask rounded:40 --overflow expand --offset 10,-10 -o "$OUT/f-mask.$format"
    run "f-circle-$format" $I/user-trash-256x256.png --value '' --icon-mask circle -o "$OUT/f-circle.$format"
    run "f-several-$format" $I/app-ios-180.png --platform ios --shape ribbon --text BETA --anchor top-left --and --value 3 --height 28% --and --dot --anchor bottom-right -o "$OUT/f-several.$format"
    run "f-colour-$format" $I/icon-generic-rgb-96.png --value 9 --background '#00C000' -o "$OUT/f-colour.$format"
    run "f-filters-$format" $I/app-ios-180.png --platform ios --value 3 --icon-filter greyscale --icon-filter tint:#FF9500:0.6 -o "$OUT/f-filters.$format"
done

# Animations: every kind, every animated format, expand's room, a pop, {frame}.
for kind in bounce fade-out fade-in pop; do
    from=
    [ $kind = pop ] && from="--from 2"
    for format in png webp svg; do
        run "a-$kind-$format" $I/app-ios-180.png --platform ios --value 3 --height 28% --animate $kind $from --fps 12 --duration 0.5 -o "$OUT/a-$kind.$format"
    done
    run "a-$kind-expand" $I/folder-48x48.png --value 12 --scale 2 --overflow expand --animate $kind ${from:+--from 9} --fps 10 --duration 0.3 --loop forever -o "$OUT/a-$kind-expand.png" --report
    run "a-$kind-frames" $I/folder-48x48.png --value 4 --scale 2 --animate $kind $from --fps 8 --duration 0.25 -o "$OUT/a-$kind-frames-{frame}.png"
done
run a-ribbon-several $I/app-ios-180.png --platform ios --shape ribbon --text BETA --anchor top-left --and --value 3 --height 28% --animate bounce --easing 'cubic-bezier(0.3, 1.6, 0.5, 1)' --fps 10 --duration 0.4 -o "$OUT/a-ribbon-several.png"
run a-ribbon-several-svg $I/app-ios-180.png --platform ios --shape ribbon --text BETA --anchor top-left --and --value 3 --height 28% --animate pop --from 1 -o "$OUT/a-ribbon-several.svg"
run a-svgicon-svg $I/mail-unread-symbolic.svg --value 3 --scale 3 --height 10 --overflow expand --animate pop --from 5 -o "$OUT/a-svgicon.svg"
run a-svgicon-webp $I/mail-unread-symbolic.svg --value 3 --scale 3 --height 10 --overflow expand --animate fade-in --fps 10 -o "$OUT/a-svgicon.webp"
run a-pop-hidden $I/folder-48x48.png --value 0 --animate pop --from 5 --fps 10 -o "$OUT/a-pop-hidden.png" --report
run a-pdf $I/folder-48x48.png --value 3 --animate bounce -o "$OUT/a-pdf.pdf"

# Icon filters.
for filter in greyscale desaturate:0.5 dim:40% 'tint:#007AFF' 'tint:rgba(255,0,0,0.5):0.7' 'greyscale,dim:0.3'; do
    safe=$(echo "$filter" | tr -c 'a-z0-9' '_')
    run "i-$safe" $I/app-ios-180.png --platform ios --value 3 --height 28% --icon-filter "$filter" -o "$OUT/i-$safe.png"
done
run i-chain $I/user-trash-256x256.png --value 8 --icon-filter greyscale --icon-filter none --icon-filter dim:0.2 --icon-filter tint:#FF0000:0.3 -o "$OUT/i-chain.png" --report
run i-colour $I/icon-generic-rgb-96.png --value 3 --icon-filter tint:#00FF00:0.5 -o "$OUT/i-colour.png"
run i-banner $I/folder-132x132.png --shape banner --text DEBUG --icon-filter greyscale -o "$OUT/i-banner.png"
run i-banner-svg $I/folder-132x132.png --shape banner --text DEBUG --icon-filter greyscale -o "$OUT/i-banner.svg"
run i-content $I/app-macos-256.png --platform content --value 12 --icon-filter dim:1 -o "$OUT/i-content.png"
run i-expand $I/folder-48x48.png --value 3 --overflow expand --icon-filter desaturate:0.8 --scale 2 -o "$OUT/i-expand.png"

# Several badges.
run s-three $I/app-ios-180.png --platform ios --shape banner --text DEBUG --and --value 3 --height 28% --and --image $I/star-badge.png --anchor top-left -o "$OUT/s-three.png" --report
run s-hidden-first $I/folder-132x132.png --value 0 --and --value NEW --anchor bottom-left -o "$OUT/s-hidden-first.png" --report
run s-shield-dot $I/app-macos-256.png --platform macos --shape shield --text 'v2|beta' --and --dot --anchor top-left -o "$OUT/s-shield-dot.png"
run s-content $I/app-macos-256.png --platform content --value 4 --and --shape ribbon --text NEW --anchor top-left -o "$OUT/s-content.png" --report
run s-canvas-ribbon-then-count $I/folder-132x132.png --shape ribbon --text BETA --and --value 3 -o "$OUT/s-canvas-ribbon-then-count.svg"
run s-count-then-ribbon $I/folder-132x132.png --value 3 --and --shape ribbon --text BETA --anchor top-left -o "$OUT/s-count-then-ribbon.pdf"
run s-expand-error $I/folder-132x132.png --value 3 --overflow expand --and --value 4 -o "$OUT/s-expand-error.png"
run s-second-error $I/folder-132x132.png --value 3 --and --shape ribbon --dot -o "$OUT/s-second-error.png"
run s-second-unfit $I/app-ios-180.png --platform ios --value 3 --and --shape ribbon --text "A VERY LONG RELEASE CANDIDATE NAME" -o "$OUT/s-second-unfit.png"

# Styles, sizes, small text, label rules, fonts.
run st-material $I/folder-132x132.png --value 8 --scale 3 --style material3 -o "$OUT/st-material.png"
run st-auto $I/folder-132x132.png --value 42 --scale 3 --height auto --min-height 6 --padding 2 --font-size 10 --font-weight regular --overflow expand -o "$OUT/st-auto.png"
run st-cjk $I/folder-132x132.png --value 新着 --scale 3 -o "$OUT/st-cjk.png"
run st-hebrew $I/folder-132x132.png --value שלום --scale 3 -o "$OUT/st-hebrew.svg"
run st-emoji $I/folder-132x132.png --value 🔥 --scale 3 -o "$OUT/st-emoji.png"
run st-tnum $I/folder-132x132.png --value 1234 --max 0 --font-file Fixtures/fonts/TnumTest.ttf -o "$OUT/st-tnum.png"
run st-maxchars $I/folder-132x132.png --value BETAVERSION --max-chars 5 -o "$OUT/st-maxchars.png" --report
run st-small-dot $I/user-trash-32x32.png --value BETA --font-size 4 -o "$OUT/st-small-dot.png" --report
run st-small-hide $I/user-trash-32x32.png --value BETA --font-size 4 --small-text hide -o "$OUT/st-small-hide.png" --report
run st-small-keep $I/user-trash-32x32.png --value BETA --font-size 4 --small-text keep -o "$OUT/st-small-keep.png"
run st-small-band $I/user-trash-32x32.png --shape ribbon --text BETA -o "$OUT/st-small-band.png" --report
run st-min-dot $I/user-trash-32x32.png --dot --dot-size 1 -o "$OUT/st-min-dot.png"
run st-clip $I/folder-48x48.png --value 99 --anchor top-right --offset 10,-10 --overflow clip -o "$OUT/st-clip.png"
run st-expand $I/folder-48x48.png --value 999 --max 0 --anchor bottom-left --badge-anchor top-right --offset -5,5 --overflow expand -o "$OUT/st-expand.png" --report
run st-size $I/folder-512x512.png --value 3 --size 64 --scale 2 -o "$OUT/st-size.png"
run st-scales $I/folder-44x44.png --value 3 --scales 1,2,3 -o "$OUT/st-scales{@scale}.png"
run st-zero $I/folder-48x48.png --value 0 -o "$OUT/st-zero.png" --report
run st-border $I/folder-132x132.png --value 7 --border-width 2 --border-color '#000' --radius 3 -o "$OUT/st-border.png"
run st-ribbon-distance $I/app-ios-180.png --platform ios --shape ribbon --text BETA --ribbon-distance 30 -o "$OUT/st-ribbon-distance.png"
run st-16bit Fixtures/corpus-subset/pngsuite/basn6a16.png --value 3 -o "$OUT/st-16bit.png"
run st-grey-alpha Fixtures/corpus-subset/pngsuite/basn4a08.png --value 3 -o "$OUT/st-grey-alpha.png"

# Other input formats and standard input.
for file in Fixtures/formats/*; do
    case $file in *.md) continue ;; esac
    name=$(basename "$file" | tr -c 'a-z0-9' '_')
    run "in-$name" "$file" --value 3 --height 12 -o "$OUT/in-$name.png"
done
"$BIN" - --value 5 --overflow expand -o "$OUT/stdin-svg.svg" <$I/mail-unread-symbolic.svg >"$OUT/stdin-svg.stdout" 2>"$OUT/stdin-svg.stderr"
echo $? >"$OUT/stdin-svg.status"
"$BIN" - --value 5 -o "$OUT/stdin-png.pdf" <$I/folder-48x48.png >"$OUT/stdin-png.stdout" 2>"$OUT/stdin-png.stderr"
echo $? >"$OUT/stdin-png.status"
"$BIN" $I/folder-48x48.png --image - -o "$OUT/stdin-image.svg" <$I/mail-unread-symbolic.svg >"$OUT/stdin-image.stdout" 2>"$OUT/stdin-image.stderr"
echo $? >"$OUT/stdin-image.status"
"$BIN" $I/folder-48x48.png --value 3 -o - >"$OUT/stdout-png.stdout" 2>"$OUT/stdout-png.stderr" </dev/null
echo $? >"$OUT/stdout-png.status"

# More SVG icons from the shared corpus, when it is there.
if [ -d "$CORPUS/icons/papirus-svg" ]; then
    for svg in firefox gimp inkscape telegram; do
        for format in png svg pdf; do
            run "c-$svg-$format" "$CORPUS/icons/papirus-svg/$svg.svg" --value 12 --scale 2 --platform content -o "$OUT/c-$svg.$format"
        done
        run "c-$svg-ribbon" "$CORPUS/icons/papirus-svg/$svg.svg" --shape ribbon --text BETA --scale 2 -o "$OUT/c-$svg-ribbon.svg"
    done
fi

# Errors of the render layer (their messages are compared too).
run e-unfit $I/app-ios-180.png --platform ios --shape ribbon --text "A VERY LONG RELEASE CANDIDATE NAME" -o "$OUT/e-unfit.png"
run e-unfit-border $I/app-ios-180.png --platform ios --shape banner --text BETA --border-width 20 -o "$OUT/e-unfit-border.png"
run e-unfit-place $I/app-ios-180.png --platform ios --shape ribbon --text BETA --ribbon-distance 1 -o "$OUT/e-unfit-place.png"
run e-unfit-own $I/app-ios-180.png --platform ios --shape ribbon --text "A VERY LONG RELEASE CANDIDATE NAME" --font-size 3 -o "$OUT/e-unfit-own.png"
run e-shield-unfit $I/folder-48x48.png --shape shield --text 'a very long label|and a long message' -o "$OUT/e-shield-unfit.png"
run e-shield-bar $I/folder-48x48.png --shape shield --text 'nobar' -o "$OUT/e-shield-bar.png"
run e-thick $I/folder-48x48.png --shape banner --text X --height 60 -o "$OUT/e-thick.png"
run e-ribbon-dot $I/folder-48x48.png --shape ribbon --dot -o "$OUT/e-ribbon-dot.png"
run e-larger $I/user-trash-32x32.png --value 3 --height 40 --platform ios -o "$OUT/e-larger.png"
run e-text-pixels $I/folder-48x48.png --value 3 --font-size 5000 -o "$OUT/e-text-pixels.png"
run e-max-side $I/folder-512x512.png --value 3 --max-side 100 -o "$OUT/e-max-side.png"
run e-scale-svg $I/mail-unread-symbolic.svg --value 3 --scale 5000 -o "$OUT/e-scale-svg.png"
run e-filter-comma $I/folder-48x48.png --value 3 --icon-filter 'greyscale;dim:0.3' -o "$OUT/e-filter-comma.png"
run e-frame-template $I/folder-48x48.png --value 3 -o "$OUT/e-frame-{frame}.png"
run e-svg-time $I/mail-unread-symbolic.svg --value 3 --svg-time-limit 0.001 -o "$OUT/e-svg-time.svg"
run e-missing $I/no-such.png --value 3 -o "$OUT/e-missing.png"
run e-glyph $I/folder-48x48.png --value 𝄞 --strict-glyphs --no-system-fonts -o "$OUT/e-glyph.png"

# Catalogs: an app icon set (dark and tinted appearances) and an Android res/ folder.
SET=$OUT/in/AppIcon.appiconset
mkdir -p "$SET"
/usr/bin/python3 - "$SET" "$I/app-ios-180.png" <<'EOF'
import sys
from PIL import Image
folder, source = sys.argv[1], sys.argv[2]
icon = Image.open(source).convert("RGBA")
for name, side in [("icon-40", 40), ("icon-120", 120), ("icon-1024", 1024), ("dark", 1024), ("tinted", 1024)]:
    icon.resize((side, side), Image.LANCZOS).save(f"{folder}/{name}.png")
icon.save(f"{folder}/icon-180.png")
EOF
cat >"$SET/Contents.json" <<'EOF'
{
  "images" : [
    { "filename" : "icon-40.png", "idiom" : "iphone", "scale" : "2x", "size" : "20x20" },
    { "filename" : "icon-120.png", "idiom" : "iphone", "scale" : "2x", "size" : "60x60" },
    { "filename" : "icon-180.png", "idiom" : "iphone", "scale" : "3x", "size" : "60x60" },
    { "filename" : "icon-1024.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" },
    { "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ], "filename" : "dark.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" },
    { "appearances" : [ { "appearance" : "luminosity", "value" : "tinted" } ], "filename" : "tinted.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" }
  ],
  "info" : { "author" : "xcode", "version" : 1 }
}
EOF
run cat-appiconset appiconset "$SET" --value BETA --out "$OUT/cat-appiconset"
run cat-appiconset-ribbon appiconset "$SET" --shape ribbon --text BETA --and --value 3 --out "$OUT/cat-appiconset-ribbon"
run cat-appiconset-image appiconset "$SET" --image $I/star-badge.png --out "$OUT/cat-appiconset-image"
run cat-android android Fixtures/android/sample-app/res --value 3 --out "$OUT/cat-android"
run cat-android-ribbon android Fixtures/android/sample-app/res --shape ribbon --text BETA --and --dot --anchor bottom-left --out "$OUT/cat-android-ribbon"
run cat-android-banner android Fixtures/android/sample-app/res --shape banner --text DEBUG --out "$OUT/cat-android-banner"

# Batch: a manifest with several badges, and a golden check (one job matches, one
# differs, one fails to render).
B=$OUT/batch
mkdir -p "$B"
cat >"$B/jobs.json" <<EOF
{ "defaults": { "scale": 2 },
  "jobs": [
    { "icon": "$I/app-ios-180.png", "output": "$B/b-several.png", "platform": "ios",
      "badges": [ { "shape": "ribbon", "text": "BETA", "anchor": "top-left" }, { "value": "3", "height": "28%" } ] },
    { "icon": "$I/folder-44x44.png", "value": "NEW", "output": "$B/b-new{@scale}.png", "scales": [1, 2, 3] },
    { "icon": "$I/mail-unread-symbolic.svg", "dot": true, "output": "$B/b-dot.svg" },
    { "icon": "$I/folder-44x44.png", "shape": "ribbon", "text": "A RIBBON TEXT MUCH TOO LONG", "output": "$B/b-small.png" },
    { "icon": "$I/app-ios-180.png", "platform": "ios", "shape": "ribbon", "text": "A VERY LONG RELEASE CANDIDATE NAME",
      "output": "$B/b-error.png" },
    { "icon": "$I/folder-44x44.png", "value": "9", "animate": "bounce", "fps": 10, "output": "$B/b-anim.webp" }
  ] }
EOF
run batch-write batch "$B/jobs.json" --jobs 2
cp "$B/b-new.png" "$B/b-old.png"
cat >"$B/check.json" <<EOF
{ "jobs": [
    { "icon": "$I/folder-44x44.png", "value": "NEW", "output": "b-new.png" },
    { "icon": "$I/folder-44x44.png", "value": "OLD", "output": "b-old.png" },
    { "icon": "$I/app-ios-180.png", "platform": "ios", "shape": "banner", "text": "A MUCH TOO LONG BANNER TEXT FOR IT",
      "output": "b-x.png" }
  ] }
EOF
run batch-check batch "$B/check.json" --check "$B" --artifacts "$OUT/artifacts" --junit "$OUT/junit.xml" --html "$OUT/report.html"

# compare on two folders: an SVG whose embedded image is over the side limit is an
# error entry, worded in the report and the listing.
mkdir -p "$OUT/cmp/a" "$OUT/cmp/b"
/usr/bin/python3 - "$OUT/cmp" "$I/folder-132x132.png" <<'EOF'
import base64, sys
folder, png = sys.argv[1], sys.argv[2]
data = base64.b64encode(open(png, "rb").read()).decode()
svg = f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40"><image width="40" height="40" xlink:href="data:image/png;base64,{data}"/></svg>'
for side in ("a", "b"):
    open(f"{folder}/{side}/embedded.svg", "w").write(svg)
EOF
cp $I/folder-48x48.png "$OUT/cmp/a/same.png"
cp $I/folder-48x48.png "$OUT/cmp/b/same.png"
run cmp-folders compare "$OUT/cmp/a" "$OUT/cmp/b" --max-side 100 --junit "$OUT/cmp-junit.xml" --json

# The fonts command's listing.
run fonts fonts
run fonts-mono fonts monospace

cd "$OUT" && find . -type f ! -path './in/*' -print0 | sort -z | xargs -0 sha256sum
