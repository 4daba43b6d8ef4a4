#!/bin/sh
# make docs: renders every picture of docs/gallery.txt into docs/images/, and the
# preview contact sheets the pages show, writes the
# man page (docs/iconbadge.1), the manual's options reference (docs/manual/options.md),
# the help snapshots (Fixtures/help/) and the `$ iconbadge --help` session of
# docs/manual/usage.md. Tests check all of them against the current binary.
# A line whose arguments start with "compare" writes its diff image (--diff) instead of -o.
set -eu
cd "$(dirname "$0")/.."
BIN=${ICONBADGE:-.build/debug/iconbadge}
mkdir -p docs/images
grep -v '^#' docs/gallery.txt | grep -v '^[[:space:]]*$' | while IFS='|' read -r name arguments; do
    name=$(echo "$name" | tr -d ' ')
    eval "set -- $arguments"
    fresh=".build/docs-$name.png"
    rm -f "$fresh"
    if [ "$1" = compare ]; then
        "$BIN" "$@" --diff "$fresh" >/dev/null 2>&1 || true
    else
        "$BIN" "$@" -o "$fresh" 2>/dev/null
    fi
    # A picture whose pixels are the same stays as it is (an encoder's change of bytes
    # is not a change of picture); an animation is replaced when its bytes differ.
    picture="docs/images/$name.png"
    case " $arguments " in *" --animate "*) same() { cmp -s "$fresh" "$picture"; } ;; *) same() { "$BIN" compare "$fresh" "$picture" >/dev/null 2>&1; } ;; esac
    if [ -f "$picture" ] && same; then
        rm -f "$fresh"
    else
        mv "$fresh" "$picture"
        echo "$picture"
    fi
done
# The contact sheets the README and the manual show (docs/manual/preview.md): made by
# the pages' own commands, in a folder laid out as the tests lay out each page's
# (Fixtures/docs/sandbox.sh), one after the other as the pages run them.
root=$(pwd)
sandbox=$root/.build/docs-previews
rm -rf "$sandbox"
mkdir -p "$sandbox/bin"
case $BIN in /*) binary=$BIN ;; *) binary=$root/$BIN ;; esac
ln -s "$binary" "$sandbox/bin/iconbadge"
(
    cd "$sandbox"
    export PATH="$sandbox/bin:$PATH"
    "$root/Fixtures/docs/sandbox.sh" "$root"
    iconbadge appiconset App/Assets.xcassets/AppIcon.appiconset --value BETA --out build/beta --preview preview-ios.png
    iconbadge appiconset Fixtures/xcode/NetNewsWire/AppIcon.appiconset --value BETA --out build/nnw --preview preview-macos.png
    iconbadge appiconset App/AppIcon.icon --value 3 --out build/icon --preview preview-icon.png
    iconbadge android app/src/main/res --out app/src/debug/res --value BETA --preview preview-android.png
) >"$sandbox/log" 2>&1 || { cat "$sandbox/log"; exit 1; }
for name in preview-ios preview-macos preview-icon preview-android; do
    picture="docs/images/$name.png"
    if [ -f "$picture" ] && "$BIN" compare "$sandbox/$name.png" "$picture" >/dev/null 2>&1; then
        continue
    fi
    cp "$sandbox/$name.png" "$picture"
    echo "$picture"
done
"$BIN" --generate-manpage > docs/iconbadge.1
echo docs/iconbadge.1
"$BIN" --generate-options-reference > docs/manual/options.md
echo docs/manual/options.md
"$BIN" --help > Fixtures/help/iconbadge.txt
"$BIN" help render > Fixtures/help/render.txt
echo Fixtures/help/iconbadge.txt Fixtures/help/render.txt
# The help shown in the manual: the lines after "$ iconbadge --help" up to the block's end.
awk -v help=Fixtures/help/iconbadge.txt '
    skipping && /^```/ { skipping = 0 }
    skipping { next }
    { print }
    $0 == "$ iconbadge --help" { while ((getline line < help) > 0) print line; skipping = 1 }
' docs/manual/usage.md > docs/manual/usage.md.new
mv docs/manual/usage.md.new docs/manual/usage.md
echo docs/manual/usage.md
