#!/bin/sh
# make docs: renders every picture of docs/gallery.txt into docs/images/.
# A line whose arguments start with "compare" writes its diff image (--diff) instead of -o.
set -eu
cd "$(dirname "$0")/.."
BIN=${ICONBADGE:-.build/debug/iconbadge}
mkdir -p docs/images
grep -v '^#' docs/gallery.txt | grep -v '^[[:space:]]*$' | while IFS='|' read -r name arguments; do
    name=$(echo "$name" | tr -d ' ')
    eval "set -- $arguments"
    if [ "$1" = compare ]; then
        "$BIN" "$@" --diff "docs/images/$name.png" >/dev/null 2>&1 || true
    else
        "$BIN" "$@" -o "docs/images/$name.png" 2>/dev/null
    fi
    echo "docs/images/$name.png"
done
