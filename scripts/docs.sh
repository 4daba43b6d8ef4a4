#!/bin/sh
# make docs: renders every picture of docs/gallery.txt into docs/images/, writes the
# man page (docs/iconbadge.1) and the help snapshots (Fixtures/help/). Tests check all
# of them against the current binary; the README's usage block is the top-level help.
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
"$BIN" --generate-manpage > docs/iconbadge.1
echo docs/iconbadge.1
"$BIN" --help > Fixtures/help/iconbadge.txt
"$BIN" help render > Fixtures/help/render.txt
echo Fixtures/help/iconbadge.txt Fixtures/help/render.txt
