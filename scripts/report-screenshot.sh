#!/bin/sh
# Makes the picture of the HTML report of a directory check (README and manual),
# docs/images/check-report.png: renders a small "fresh" folder and a "goldens" folder
# from Fixtures/icons with the binary (one image of each status), runs
#   iconbadge compare out/icons goldens/icons --html report.html
# and takes a 1280 x 900 screenshot in headless Chromium (make deps installs it).
# HTMLReportBrowserTests checks the same kind of page in the browser. Look at the
# picture before committing it.
set -eu
cd "$(dirname "$0")/.."
BIN=${ICONBADGE:-.build/debug/iconbadge}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
F=Fixtures/icons
mkdir -p "$work/out/icons/mac" "$work/out/icons/toolbar" "$work/out/icons/ios" "$work/goldens/icons/mac" \
    "$work/goldens/icons/toolbar" "$work/goldens/icons/ios"
"$BIN" $F/folder-132x132.png --value 12 -o "$work/out/icons/mac/Folder@2x.png"
"$BIN" $F/folder-132x132.png --value 9 -o "$work/goldens/icons/mac/Folder@2x.png"
"$BIN" $F/folder-48x48.png --value NEW -o "$work/out/icons/toolbar/Folder.png"
"$BIN" $F/folder-44x44.png --value NEW -o "$work/goldens/icons/toolbar/Folder.png"
"$BIN" $F/star-badge.png --dot -o "$work/out/icons/toolbar/Star.png"
"$BIN" $F/user-trash-32x32.png --value 2 -o "$work/goldens/icons/toolbar/Trash.png"
"$BIN" $F/app-ios-180.png --value BETA --platform ios -o "$work/out/icons/ios/AppIcon@3x.png"
cp "$work/out/icons/ios/AppIcon@3x.png" "$work/goldens/icons/ios/AppIcon@3x.png"
"$BIN" $F/app-watch-196.png --value 3 --platform watchos -o "$work/out/icons/AppIcon-watch.png"
cp "$work/out/icons/AppIcon-watch.png" "$work/goldens/icons/AppIcon-watch.png"
printf 'not a png' > "$work/out/icons/Broken.png"
cp "$work/goldens/icons/toolbar/Trash.png" "$work/goldens/icons/Broken.png"
(cd "$work" && env -u SOURCE_DATE_EPOCH "$OLDPWD/$BIN" compare out/icons goldens/icons --html report.html) || true
chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --no-default-browser-check --hide-scrollbars --force-device-scale-factor=1 --force-color-profile=srgb \
    --user-data-dir="$work/profile" --window-size=1280,900 --screenshot="$work/shot.png" \
    "file://$work/report.html" 2>/dev/null
cp "$work/shot.png" docs/images/check-report.png
echo docs/images/check-report.png
