#!/bin/sh
# install-docs.sh DEST: the README, the manual and its pictures into DEST, the
# share/doc/iconbadge folder of an installation (make install, the .deb, the tarball):
#   DEST/README.md         the README, its links to docs/... made relative to DEST
#   DEST/CHANGELOG.md      what each version changed
#   DEST/manual/*.md       docs/manual, as help and the man page name its pages
#   DEST/images/*.png      docs/images, which the manual's pages show (../images/)
# Prints each file it wrote, relative to DEST.
set -eu
dest=$1
root="$(cd "$(dirname "$0")/.." && pwd)"
install -d "$dest/manual" "$dest/images"
sed -e 's#](docs/#](#g' -e 's#src="docs/#src="#g' "$root/README.md" >"$dest/README.md"
chmod 644 "$dest/README.md"
echo README.md
install -m 644 "$root/CHANGELOG.md" "$dest/CHANGELOG.md"
echo CHANGELOG.md
for page in "$root"/docs/manual/*.md; do
    install -m 644 "$page" "$dest/manual/"
    echo "manual/$(basename "$page")"
done
for picture in "$root"/docs/images/*.png; do
    install -m 644 "$picture" "$dest/images/"
    echo "images/$(basename "$picture")"
done
