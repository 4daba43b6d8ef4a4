#!/bin/sh
# make docs: renders every picture of docs/gallery.txt into docs/images/.
set -eu
cd "$(dirname "$0")/.."
BIN=${ICONBADGE:-.build/debug/iconbadge}
mkdir -p docs/images
grep -v '^#' docs/gallery.txt | grep -v '^[[:space:]]*$' | while IFS='|' read -r name arguments; do
    name=$(echo "$name" | tr -d ' ')
    eval "set -- $arguments"
    "$BIN" "$@" -o "docs/images/$name.png" 2>/dev/null
    echo "docs/images/$name.png"
done
