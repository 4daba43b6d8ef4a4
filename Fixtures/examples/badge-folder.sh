#!/bin/sh
# Badges every PNG and SVG icon of an asset folder with the same value.
#   badge-folder.sh SRC DST VALUE      (ICONBADGE=/path/to/iconbadge to override)
set -eu
src=$1
dst=$2
value=$3
ICONBADGE=${ICONBADGE:-iconbadge}
mkdir -p "$dst"
for icon in "$src"/*.png "$src"/*.svg; do
    [ -e "$icon" ] || continue
    name=$(basename "$icon")
    "$ICONBADGE" "$icon" --value "$value" --overflow clip -o "$dst/${name%.*}.png"
done
